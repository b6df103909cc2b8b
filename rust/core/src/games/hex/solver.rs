//! Hex knowledge for the exact solver ([`crate::solve`]): its keys
//! ([`Solvable`], with the rhombus's half turn), and which of a position's
//! actions to search, in which order.
//!
//! Only cuts that keep both the value and the distance to the end exact.
//! A *threat* of a player is an empty cell where a stone of theirs would
//! join their two edges; a *double threat* is a move after which they have
//! two threats. Two facts make the cuts sound: a stone never helps the
//! other player, and (the Hex theorem) a top-bottom chain and a left-right
//! chain always share a cell, so the two players cannot both have threats
//! unless they share them: when the opponent has two threats, the player
//! to move has none.
//! 1. A threat of the player to move wins at once: the only move searched.
//! 2. Else a threat of the opponent must be taken: every other move loses
//!    in two plies, taking it loses no sooner (one of them is searched).
//! 3. Else a double threat of the player to move wins in three plies, the
//!    quickest win left: the only move searched.
//! 4. Else, for each double threat `m` of the opponent with threats
//!    `w1, w2, ...`, a move outside {m, w1, w2} (outside {m} when there are
//!    three threats or more) loses in four plies: the opponent plays `m`,
//!    and the player to move, without a threat of their own, can block
//!    only one. Those moves are dropped; moves inside lose no sooner. When
//!    no move is inside all of them, every move loses in four plies and one
//!    is searched.
//!
//! In the values pass (win / draw / loss only) a position is decided
//! without search when a player is *virtually connected*: their groups and
//! edges are linked by bridges (two empty cells each next to both ends;
//! an edge counts as next to the cells of its row) whose pairs of cells
//! are all different. Answering every stone in a pair with the other
//! keeps the chain, whoever moves first, so that player wins
//! ([`Hex::virtual_winner`]).
//!
//! Before that, the values pass fills in the position's inferior cells
//! (`inferior.rs`: dead cells, captured pairs), which keeps the value of
//! the position and of every move left, and reads the filled board: a game
//! that filling ends is decided, and only the cells left empty are
//! searched. When no chain is found on it, the values pass runs H-search
//! (`vc.rs`) for both players: a full connection between a player's edges
//! wins for them, a semi connection wins for the player to move; and the
//! player to move must play in every carrier of the opponent's semi
//! connections between their edges (the *mustplay*: any other move leaves
//! one of them whole, and its key wins for the opponent); an empty mustplay
//! is a loss. Filling in and the mustplay may drop a move of the best
//! value that takes longer, so the distance pass does without them. Each
//! rule can be switched off ([`set_hex_knowledge`]) for the tests that
//! compare the solver with and without it.
//!
//! What is left is searched centre first (the cells nearest the middle of
//! the rhombus), where strong Hex moves lie; the search's history scores
//! reorder them from there. Cuts 2-4 are skipped while the swap is on
//! offer (it changes the stones), and on boards over 64 cells.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::game::{Action, Game};
use crate::solve::{Algorithm, Outcome, Solvable};

use super::{Hex, BOTH_EDGES, O, X};

/// The knowledge the values pass uses, one bit a rule (all on by default;
/// the tests compare the solver with and without each): the mustplay, the
/// dead cells, the captured pairs, the dominated moves
/// ([`super::inferior`]).
pub const HEX_KNOW_MUSTPLAY: u8 = 1;
pub const HEX_KNOW_DEAD: u8 = 2;
pub const HEX_KNOW_CAPTURED: u8 = 4;
pub const HEX_KNOW_DOMINATED: u8 = 8;
pub const HEX_KNOW_ALL: u8 = 15;

static KNOWLEDGE: AtomicU8 = AtomicU8::new(HEX_KNOW_ALL);

/// Switch the values pass's Hex knowledge (a mask of the `KNOW_*` bits, for
/// tests and measurements); returns the mask it replaces.
pub fn set_hex_knowledge(mask: u8) -> u8 {
    KNOWLEDGE.swap(mask & HEX_KNOW_ALL, Ordering::Relaxed)
}

/// The values pass's Hex knowledge now on.
pub fn hex_knowledge() -> u8 {
    KNOWLEDGE.load(Ordering::Relaxed)
}

/// Analyses remembered per thread (a power of two).
const ANALYSIS_SLOTS: usize = 1 << 16;

/// The exact position and the knowledge used: empty cells, x's stones,
/// the player to move with the board's shape and the knowledge mask.
type PositionKey = (u64, u64, u32);

/// What the values pass knows of a position without search: its value
/// for the player to move, if decided, and the empty cells worth a move.
type Analysis = (Option<Outcome>, u64);

thread_local! {
    /// The analyses made by [`Hex::analysis`], by position (direct
    /// mapped): a search that comes back to a position (df-pn does, often)
    /// finds it without a second H-search.
    static ANALYSES: std::cell::RefCell<Vec<(PositionKey, Analysis)>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The position with its inferior cells filled in (reused).
    static FILLED: std::cell::RefCell<Option<Hex>> = const { std::cell::RefCell::new(None) };
}

fn analysis_slot(key: PositionKey) -> usize {
    crate::zobrist::mix(key.0 ^ key.1.rotate_left(23) ^ (key.2 as u64) << 40) as usize
        & (ANALYSIS_SLOTS - 1)
}

fn remember_analysis(key: PositionKey, a: Analysis) {
    ANALYSES.with(|m| {
        let mut m = m.borrow_mut();
        if m.is_empty() {
            m.resize(ANALYSIS_SLOTS, ((0, 0, 0), (None, 0)));
        }
        m[analysis_slot(key)] = (key, a);
    })
}

fn recall_analysis(key: PositionKey) -> Option<Analysis> {
    ANALYSES.with(|m| {
        m.borrow()
            .get(analysis_slot(key))
            .and_then(|&(k, a)| (k == key).then_some(a))
    })
}

/// Per player, what a stone on each empty cell would reach (boards of at
/// most 64 cells, cells as bits).
struct Reach {
    /// Empty cells where a stone would touch the first / second edge
    /// (directly or through the groups it joins).
    edge: [u64; 2],
    /// Per group root: the empty cells next to the group.
    libs: [u64; 64],
}

impl Hex {
    /// Whether a stone of `colour` on empty `cell` would join its edges.
    #[inline]
    fn would_win(&self, cell: usize, colour: u8) -> bool {
        self.reach_bits(cell, colour) == BOTH_EDGES
    }

    /// The edge bits of the group a stone of `colour` on empty `cell` would
    /// make.
    #[inline]
    fn reach_bits(&self, cell: usize, colour: u8) -> u8 {
        let mut bits = self.edge_bits(cell, colour);
        for &nb in self.board.neighbors(cell) {
            if self.colour[nb as usize] == colour {
                bits |= self.links.payload(self.links.find(nb as usize));
            }
        }
        bits
    }

    fn neighbour_mask(&self, cell: usize) -> u64 {
        self.board
            .neighbors(cell)
            .iter()
            .fold(0, |m, &nb| m | 1 << nb)
    }

    fn reach(&self, colour: u8, empty: u64) -> Reach {
        let mut r = Reach {
            edge: [0; 2],
            libs: [0; 64],
        };
        let mut e = empty;
        while e != 0 {
            let c = e.trailing_zeros() as usize;
            e &= e - 1;
            let mut bits = self.edge_bits(c, colour);
            for &nb in self.board.neighbors(c) {
                let nb = nb as usize;
                if self.colour[nb] == colour {
                    bits |= self.links.payload(self.links.find(nb));
                    r.libs[self.links.find(nb)] |= 1 << c;
                }
            }
            for (k, edge) in r.edge.iter_mut().enumerate() {
                if bits >> k & 1 != 0 {
                    *edge |= 1 << c;
                }
            }
        }
        r
    }

    /// The threats `colour` would have after a stone on empty `m`.
    fn threats_after(&self, r: &Reach, colour: u8, m: usize, empty: u64) -> u64 {
        let mut near = self.neighbour_mask(m);
        let mut bits = self.edge_bits(m, colour);
        for &nb in self.board.neighbors(m) {
            let nb = nb as usize;
            if self.colour[nb] == colour {
                bits |= self.links.payload(self.links.find(nb));
                near |= r.libs[self.links.find(nb)];
            }
        }
        let mut w = near & empty & !(1 << m);
        for (k, edge) in r.edge.iter().enumerate() {
            if bits >> k & 1 == 0 {
                w &= edge;
            }
        }
        w
    }

    /// The player to move's outcome when it is known without search (see
    /// the module documentation); boards of at most 64 cells, not while the
    /// swap is on offer.
    pub(super) fn virtual_outcome(&self) -> Option<Outcome> {
        if self.swap_available || self.board.num_cells() > 64 || self.winners != 0 {
            return None;
        }
        self.analysis().0
    }

    /// The position's [`Analysis`], remembered from an earlier call for
    /// the same position: the inferior cells filled in, then the virtual
    /// connections and the mustplay on the filled board.
    fn analysis(&self) -> Analysis {
        let mask = hex_knowledge();
        let key = self.position_key(mask);
        if let Some(a) = recall_analysis(key) {
            return a;
        }
        let a = if mask & (HEX_KNOW_DEAD | HEX_KNOW_CAPTURED) == 0 {
            self.analyse_filled(mask, self.empty.words()[0])
        } else {
            FILLED.with(|f| {
                let mut f = f.borrow_mut();
                let f = f.get_or_insert_with(|| self.clone());
                f.clone_from(self);
                f.fill_inferior(mask & HEX_KNOW_DEAD != 0, mask & HEX_KNOW_CAPTURED != 0);
                f.analyse_filled(mask, self.empty.words()[0])
            })
        };
        remember_analysis(key, a);
        a
    }

    /// The [`Analysis`] of this position, which is `original` (its empty
    /// cells) with inferior cells filled in.
    fn analyse_filled(&self, mask: u8, original: u64) -> Analysis {
        if self.winners != 0 {
            // filling in ended the game: its winner wins the original
            let o = if self.winners >> (self.to_move - 1) & 1 != 0 {
                Outcome::Win
            } else {
                Outcome::Loss
            };
            return (Some(o), original);
        }
        let empty = self.empty.words()[0];
        match self.virtual_winner() {
            Some(c) if c == self.to_move => return (Some(Outcome::Win), empty),
            Some(_) => return (Some(Outcome::Loss), empty),
            None => {}
        }
        let mine = self.edge_links(self.to_move, true);
        if mine.full || mine.semi {
            return (Some(Outcome::Win), empty);
        }
        let theirs = self.edge_links(3 - self.to_move, false);
        if theirs.full {
            return (Some(Outcome::Loss), empty);
        }
        let allowed = if mask & HEX_KNOW_MUSTPLAY != 0 {
            empty & theirs.must
        } else {
            empty
        };
        // an empty mustplay: every move leaves one of the opponent's
        // winning threats whole
        ((allowed == 0).then_some(Outcome::Loss), allowed)
    }

    /// The exact position (boards of at most 64 cells) with the knowledge
    /// `mask`: the empty cells, x's stones, and the player to move with
    /// the board's shape and the mask.
    fn position_key(&self, mask: u8) -> PositionKey {
        let empty = self.empty.words()[0];
        let mut full = !empty & (u64::MAX >> (64 - self.board.num_cells()));
        let mut xs = 0;
        while full != 0 {
            let c = full.trailing_zeros() as usize;
            full &= full - 1;
            if self.colour[c] == X {
                xs |= 1 << c;
            }
        }
        (
            empty,
            xs,
            self.to_move as u32
                | (self.rows as u32) << 2
                | (self.cols as u32) << 9
                | (mask as u32) << 16,
        )
    }

    /// The empty cells worth a move (values only): those the inferior
    /// cells and the mustplay leave (see [`Hex::analysis`]).
    fn mustplay(&self) -> u64 {
        self.analysis().1
    }

    /// A player whose edges are joined by a chain of groups and bridges
    /// with disjoint carriers.
    fn virtual_winner(&self) -> Option<u8> {
        let empty = self.empty.words()[0];
        [X, O]
            .into_iter()
            .find(|&c| self.virtual_chain(c, empty).is_some())
    }

    /// The cells of the pairs of a virtual chain of `colour` (see the
    /// module documentation), if one is found.
    fn virtual_chain(&self, colour: u8, empty: u64) -> Option<u64> {
        // nodes: 0 and 1 the edges, then the colour's groups
        const MAXN: usize = 34;
        let mut node_of = [u8::MAX; 64];
        let mut nodes = 2usize;
        // per node: the empty cells next to it
        let mut near = [0u64; MAXN];
        // per node: the edges it touches (groups only)
        let mut touch = [0u32; MAXN];
        let mut e = empty;
        while e != 0 {
            let c = e.trailing_zeros() as usize;
            e &= e - 1;
            let bits = self.edge_bits(c, colour);
            for k in 0..2 {
                if bits >> k & 1 != 0 {
                    near[k] |= 1 << c;
                }
            }
            for &nb in self.board.neighbors(c) {
                let nb = nb as usize;
                if self.colour[nb] == colour {
                    let r = self.links.find(nb);
                    if node_of[r] == u8::MAX {
                        if nodes == MAXN {
                            return None;
                        }
                        node_of[r] = nodes as u8;
                        touch[nodes] = self.links.payload(r) as u32;
                        nodes += 1;
                    }
                    near[node_of[r] as usize] |= 1 << c;
                }
            }
        }
        // depth-first search for a chain from edge 0 to edge 1; `used`:
        // the cells of the pairs taken on the way. A node is entered once
        // (a chain may be missed, never made up).
        fn walk(
            at: usize,
            nodes: usize,
            near: &[u64],
            touch: &[u32],
            seen: &mut u64,
            used: u64,
        ) -> Option<u64> {
            for next in 1..nodes {
                if *seen >> next & 1 != 0 {
                    continue;
                }
                // direct contact: a group touching an edge
                let direct = match (at, next) {
                    (0, 1) => false,
                    (0, g) => touch[g] & 1 != 0,
                    (g, 1) => touch[g] & 2 != 0,
                    _ => false,
                };
                let mut used2 = used;
                if !direct {
                    let common = near[at] & near[next] & !used;
                    if common.count_ones() < 2 {
                        continue;
                    }
                    let a = common & common.wrapping_neg();
                    let rest = common & !a;
                    used2 |= a | (rest & rest.wrapping_neg());
                }
                if next == 1 {
                    return Some(used2);
                }
                *seen |= 1 << next;
                if let Some(u) = walk(next, nodes, near, touch, seen, used2) {
                    return Some(u);
                }
            }
            None
        }
        let mut seen = 1;
        walk(0, nodes, &near, &touch, &mut seen, 0)
    }

    /// Empty cells the opponent of `player` may be given while `player`
    /// still wins, whoever moves (the certificates' fill nodes): with the
    /// inferior cells filled in (`inferior.rs`: none, the captured pairs,
    /// or the dead cells and the captured pairs), the cells left empty
    /// outside the smallest carrier of a VC between `player`'s edges
    /// (`vc.rs`), or every cell left empty when filling in wins for
    /// `player`. The inferior cells stay empty: more stones keep them
    /// inferior, so they fill in the same way once the opponent's stones
    /// are on, and a stone never helps the other player. `None` when
    /// there are none, on a finished game, on boards over 64 cells, and
    /// while a swap is or may still be on offer (it would change the
    /// stones).
    fn conceded_cells(&self, player: usize) -> Option<u64> {
        let n = self.board.num_cells();
        if self.winners != 0
            || n > 64
            || !(1..=2).contains(&player)
            || self.swap_available
            || (self.swap && self.ply == 0)
        {
            return None;
        }
        // H-search may find a smaller carrier with or without the cells
        // filled in (dead cells are filled with o's stones, which can hide
        // x's connections from it): the most cells of three tries
        let mut best = 0u64;
        for (dead, captured) in [(false, false), (false, true), (true, true)] {
            let mut f = self.clone();
            f.fill_inferior(dead, captured);
            let left = f.empty.words()[0];
            let outside = if f.winners != 0 {
                if f.winners >> (player - 1) & 1 == 0 {
                    continue;
                }
                left
            } else {
                let links = f.edge_links(player as u8, false);
                if !links.full {
                    continue;
                }
                left & !links.carrier
            };
            if outside.count_ones() > best.count_ones() {
                best = outside;
            }
        }
        (best != 0).then_some(best)
    }

    /// Twice the distance from `cell` to the centre of the board, in the
    /// hexagonal metric of the rhombus (neighbours differ by (0, 1), (1, 0)
    /// or (1, -1) in (row, col)).
    fn centre_distance(&self, cell: usize) -> u32 {
        let (rows, cols) = (self.rows as i32, self.cols as i32);
        let (r, c) = (
            (cell as i32 / cols) * 2 - (rows - 1),
            (cell as i32 % cols) * 2 - (cols - 1),
        );
        let s = -r - c;
        (r.abs() + c.abs() + s.abs()) as u32 / 2
    }

    /// The solver's action list: see the module documentation. `acts` holds
    /// the legal actions of an unfinished position; `values_only`: the
    /// search proves win / draw / loss only (no distances).
    pub(super) fn solver_action_list(&mut self, acts: &mut Vec<Action>, values_only: bool) {
        let n = self.board.num_cells();
        let me = self.to_move;
        let you = 3 - me;
        let keep = |acts: &mut Vec<Action>, a: Action| {
            acts.clear();
            acts.push(a);
        };
        if let Some(&a) = acts
            .iter()
            .find(|&&a| (a as usize) < n && self.would_win(a as usize, me))
        {
            return keep(acts, a);
        }
        if !self.swap_available {
            if let Some(&a) = acts.iter().find(|&&a| self.would_win(a as usize, you)) {
                return keep(acts, a);
            }
            if n <= 64 {
                let empty = self.empty.words()[0];
                let mine = self.reach(me, empty);
                let mut e = empty;
                while e != 0 {
                    let m = e.trailing_zeros() as usize;
                    e &= e - 1;
                    if self.threats_after(&mine, me, m, empty).count_ones() >= 2 {
                        return keep(acts, m as Action);
                    }
                }
                let mut must = empty;
                if values_only {
                    must &= self.mustplay();
                }
                let theirs = self.reach(you, empty);
                let mut e = empty;
                while e != 0 && must != 0 {
                    let m = e.trailing_zeros() as usize;
                    e &= e - 1;
                    let w = self.threats_after(&theirs, you, m, empty);
                    match w.count_ones() {
                        0 | 1 => {}
                        2 => must &= w | 1 << m,
                        _ => must &= 1 << m,
                    }
                }
                if must == 0 {
                    return keep(acts, empty.trailing_zeros() as Action);
                }
                if values_only && hex_knowledge() & HEX_KNOW_DOMINATED != 0 {
                    must &= !self.dominated(must);
                }
                acts.retain(|&a| must >> a & 1 != 0);
            }
        }
        acts.sort_unstable_by_key(|&a| {
            (
                if (a as usize) < n {
                    self.centre_distance(a as usize)
                } else {
                    0
                },
                a,
            )
        });
    }
}

impl Solvable for Hex {
    fn cell_bits(&self) -> u32 {
        2
    }

    /// df-pn: with the inferior cells and the mustplay it solves every
    /// 6x6 opening some 15 times faster than alpha-beta's values pass.
    fn solver_algorithm(&self) -> Algorithm {
        Algorithm::Dfpn
    }

    fn action_cell(&self, action: Action) -> Option<(usize, u32)> {
        ((action as usize) < self.board().num_cells()).then_some((action as usize, 0))
    }

    fn cell_action(&self, cell: usize, _rest: u32) -> Action {
        cell as Action
    }

    /// Immediate wins, forced blocks, centre first (above).
    fn solver_actions(&mut self, acts: &mut Vec<Action>, values_only: bool) {
        self.solver_action_list(acts, values_only)
    }

    /// A player virtually connected (above).
    fn solver_value(&self) -> Option<Outcome> {
        self.virtual_outcome()
    }

    /// Disjoint pairs joining the player's edges (`pairing.rs`).
    fn pairing(&self, player: usize) -> Option<Vec<[usize; 2]>> {
        self.pairing_strategy(player)
    }

    /// The cells left empty outside a virtual connection's carrier (the
    /// inferior cells stay empty), given to the opponent
    /// ([`Hex::conceded_cells`]).
    fn concession(&self, player: usize) -> Option<(Vec<usize>, Self)> {
        let mut outside = self.conceded_cells(player)?;
        let mut g = self.clone();
        let mut cells = Vec::new();
        while outside != 0 {
            let c = outside.trailing_zeros() as usize;
            outside &= outside - 1;
            g.put(c, 3 - player as u8, false);
            cells.push(c);
        }
        Some((cells, g))
    }

    /// Only the half turn maps the rhombus onto itself with each player's
    /// edges kept: the reflections of a square board exchange x's edges
    /// with o's.
    fn symmetries(&self) -> Vec<Vec<u16>> {
        let n = self.board().num_cells();
        let half_turn: Vec<u16> = (0..n).rev().map(|c| c as u16).collect();
        let identity: Vec<u16> = (0..n as u16).collect();
        if n > 1 {
            vec![identity, half_turn]
        } else {
            vec![identity]
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::game::Game;
    use crate::rng::rng_for;
    use crate::solve::{solve, Monitor, SolveOptions};

    /// (the player to move wins, plies to the end with the winner hurrying
    /// and the loser delaying), by plain minimax with a memo; no cuts.
    fn minimax(g: &mut Hex, memo: &mut HashMap<(Vec<u8>, u8), (bool, u32)>) -> (bool, u32) {
        let key = (g.colours().to_vec(), g.to_move);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut acts = Vec::new();
        g.legal_actions(&mut acts);
        let best = acts
            .iter()
            .map(|&a| move_result(g, a, memo))
            .max_by_key(|&(w, d)| if w { -(d as i64) } else { d as i64 - 1000 });
        let v = best.expect("an unfinished game has a move");
        memo.insert(key, v);
        v
    }

    /// The result of action `a` for the player making it.
    fn move_result(
        g: &mut Hex,
        a: Action,
        memo: &mut HashMap<(Vec<u8>, u8), (bool, u32)>,
    ) -> (bool, u32) {
        let u = g.apply_action_undoable(a);
        let r = if g.is_over() {
            (true, 1)
        } else {
            let (w, d) = minimax(g, memo);
            (!w, d + 1)
        };
        g.undo_action(u);
        r
    }

    /// Random positions of `rows` x `cols` boards with at most `empty`
    /// empty cells, unfinished, without a swap on offer.
    fn positions(rows: usize, cols: usize, empty: usize, count: usize) -> Vec<Hex> {
        let mut out = Vec::new();
        let mut buf = Vec::new();
        let mut seed = 0;
        while out.len() < count {
            seed += 1;
            let mut rng = rng_for(seed, rows as u64 * 100 + empty as u64);
            let mut g = Hex::new(rows, cols, false).unwrap();
            while !g.is_over() && g.num_empty as usize > empty {
                let a = g.random_action(&mut rng, &mut buf).unwrap();
                g.apply_action(a);
            }
            if !g.is_over() {
                out.push(g);
            }
        }
        out
    }

    /// The cuts keep a move as good as the best one (value and distance),
    /// and a virtually connected player wins, against plain minimax.
    #[test]
    fn cuts_and_virtual_connections_agree_with_minimax() {
        let mut cut = 0;
        let mut decided = [0usize; 2];
        for (rows, cols, empty) in [(3, 3, 7), (4, 4, 9), (4, 4, 11), (3, 5, 10), (5, 5, 9)] {
            let mut memo = HashMap::new();
            for mut g in positions(rows, cols, empty, 150) {
                let mut all = Vec::new();
                g.legal_actions(&mut all);
                let best = minimax(&mut g, &mut memo);
                let before = g.zobrist();
                for values_only in [false, true] {
                    let mut acts = all.clone();
                    g.solver_action_list(&mut acts, values_only);
                    assert_eq!(g.zobrist(), before);
                    assert!(!acts.is_empty() && acts.iter().all(|a| all.contains(a)));
                    let kept = acts
                        .iter()
                        .map(|&a| move_result(&mut g, a, &mut memo))
                        .max_by_key(|&(w, d)| if w { -(d as i64) } else { d as i64 - 1000 });
                    if values_only {
                        // the values pass needs a move of the best value only
                        assert_eq!(
                            kept.map(|k| k.0),
                            Some(best.0),
                            "{:?} to move {}: kept {:?} of {:?}",
                            g.colours(),
                            g.to_move,
                            acts,
                            all
                        );
                    } else {
                        assert_eq!(
                            kept,
                            Some(best),
                            "{:?} to move {}: kept {:?} of {:?}",
                            g.colours(),
                            g.to_move,
                            acts,
                            all
                        );
                    }
                    cut += (acts.len() < all.len()) as usize;
                }
                if let Some(o) = g.virtual_outcome() {
                    assert_eq!(
                        o == Outcome::Win,
                        best.0,
                        "{:?} to move {}",
                        g.colours(),
                        g.to_move
                    );
                    decided[best.0 as usize] += 1;
                }
            }
        }
        // the sample exercises both: cuts made, wins and losses decided
        assert!(
            cut > 100 && decided[0] > 10 && decided[1] > 10,
            "{cut} {decided:?}"
        );
    }

    /// Serialises the tests that switch the knowledge (the others pass
    /// with any mask: each rule is sound).
    static KNOWLEDGE_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// Filling in dead cells, captured pairs or both keeps the value of the
    /// position and of every move left on the filled board, against plain
    /// minimax; each rule fills cells in the sample.
    #[test]
    fn filling_inferior_cells_keeps_every_value() {
        let mut filled = [0usize; 3];
        for (rows, cols, empty) in [(3, 3, 6), (4, 4, 9), (4, 4, 11), (3, 5, 10), (5, 5, 10)] {
            let mut memo = HashMap::new();
            for mut g in positions(rows, cols, empty, 120) {
                let best = minimax(&mut g, &mut memo);
                for (i, (dead, captured)) in [(true, false), (false, true), (true, true)]
                    .into_iter()
                    .enumerate()
                {
                    let mut f = g.clone();
                    f.fill_inferior(dead, captured);
                    assert_eq!(f.to_move, g.to_move);
                    filled[i] += (g.num_empty - f.num_empty) as usize;
                    let at = format!(
                        "{:?} to move {}: filled {:?} ({dead} {captured})",
                        g.colours(),
                        g.to_move,
                        f.colours()
                    );
                    if f.is_over() {
                        assert_eq!(f.winners >> (g.to_move - 1) & 1 != 0, best.0, "{at}");
                        continue;
                    }
                    assert_eq!(minimax(&mut f, &mut memo).0, best.0, "{at}");
                    let mut e = f.empty.words()[0];
                    while e != 0 {
                        let m = e.trailing_zeros() as Action;
                        e &= e - 1;
                        assert_eq!(
                            move_result(&mut g, m, &mut memo).0,
                            move_result(&mut f, m, &mut memo).0,
                            "{at} move {m}"
                        );
                    }
                }
            }
        }
        assert!(filled.iter().all(|&n| n > 50), "{filled:?}");
    }

    /// With each rule alone (and none, and all), the values pass's action
    /// list keeps a move of the best value and a decided position has the
    /// minimax's value; the rules drop moves or decide positions that the
    /// plain virtual connections do not.
    #[test]
    fn each_rule_alone_agrees_with_minimax() {
        let _lock = KNOWLEDGE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let masks = [
            0,
            HEX_KNOW_MUSTPLAY,
            HEX_KNOW_DEAD,
            HEX_KNOW_CAPTURED,
            HEX_KNOW_DOMINATED,
            HEX_KNOW_ALL,
        ];
        let mut acted = [0usize; 6];
        for (i, &mask) in masks.iter().enumerate() {
            let old = set_hex_knowledge(mask);
            for (rows, cols, empty) in [(3, 3, 7), (4, 4, 9), (4, 4, 11), (5, 5, 10)] {
                let mut memo = HashMap::new();
                for mut g in positions(rows, cols, empty, 80) {
                    let mut all = Vec::new();
                    g.legal_actions(&mut all);
                    let best = minimax(&mut g, &mut memo);
                    let mut acts = all.clone();
                    g.solver_action_list(&mut acts, true);
                    let kept = acts
                        .iter()
                        .any(|&a| move_result(&mut g, a, &mut memo).0 == best.0);
                    assert!(
                        kept,
                        "mask {mask}: {:?} to move {}: kept {acts:?}",
                        g.colours(),
                        g.to_move
                    );
                    let outcome = g.virtual_outcome();
                    if let Some(o) = outcome {
                        assert_eq!(
                            o == Outcome::Win,
                            best.0,
                            "mask {mask}: {:?} to move {}",
                            g.colours(),
                            g.to_move
                        );
                    }
                    acted[i] += acts.len() + outcome.is_some() as usize * 100;
                }
            }
            set_hex_knowledge(old);
        }
        // fewer moves kept or more positions decided than with no rule
        assert!(acted[1..].iter().all(|&n| n != acted[0]), "{acted:?}");
    }

    /// Every opening of Hex 3x3 to 5x5 solved by df-pn with each rule
    /// alone and all of them: the values without any of them.
    #[test]
    fn every_opening_with_each_rule_equals_none() {
        let _lock = KNOWLEDGE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        for n in [3, 4, 5] {
            let g = Hex::new(n, n, false).unwrap();
            let opts = SolveOptions {
                threads: 1,
                table_bytes: 16 << 20,
                distances: false,
                algorithm: Some(crate::solve::Algorithm::Dfpn),
                ..Default::default()
            };
            let values = |mask: u8| {
                let old = set_hex_knowledge(mask);
                let s = solve(&g, &opts, &Monitor::default()).unwrap();
                set_hex_knowledge(old);
                assert!(s.complete);
                (s.moves.iter().map(|m| m.value).collect::<Vec<_>>(), s.nodes)
            };
            let (want, plain) = values(0);
            for mask in [
                HEX_KNOW_MUSTPLAY,
                HEX_KNOW_DEAD,
                HEX_KNOW_CAPTURED,
                HEX_KNOW_DOMINATED,
                HEX_KNOW_ALL,
            ] {
                let (got, nodes) = values(mask);
                assert_eq!(got, want, "{n}x{n} mask {mask}");
                if n == 5 && mask == HEX_KNOW_ALL {
                    // the rules pay (the `solve_hex` example, openings one by one:
                    // 87,305 nodes without, 2,858 with)
                    assert!(nodes * 4 < plain, "{nodes} {plain}");
                }
            }
        }
    }

    /// Whether the player to move wins, by plain minimax over every move
    /// with a memo of the positions (x's stones, o's stones, the player to
    /// move); no cuts.
    fn wins(g: &mut Hex, memo: &mut HashMap<(u64, u64, u8), bool>) -> bool {
        let (mut xs, mut os) = (0u64, 0u64);
        for (c, &v) in g.colours().iter().enumerate() {
            xs |= ((v == X) as u64) << c;
            os |= ((v == O) as u64) << c;
        }
        if let Some(&w) = memo.get(&(xs, os, g.to_move)) {
            return w;
        }
        let mut acts = Vec::new();
        g.legal_actions(&mut acts);
        let w = acts.iter().any(|&a| {
            let u = g.apply_action_undoable(a);
            let w = g.is_over() || !wins(g, memo);
            g.undo_action(u);
            w
        });
        memo.insert((xs, os, g.to_move), w);
        w
    }

    /// A concession (the cells outside a VC's carrier given to the
    /// opponent) keeps the player's win, whoever is to move, against plain
    /// minimax; the sample makes many.
    #[test]
    fn a_concession_keeps_the_win() {
        let mut made = 0;
        for (rows, cols, empty) in [(4, 4, 10), (4, 4, 12), (5, 5, 14), (4, 5, 13)] {
            let mut memo = HashMap::new();
            for g in positions(rows, cols, empty, 150) {
                for player in [1, 2] {
                    let Some((cells, f)) = g.concession(player) else {
                        continue;
                    };
                    assert!(!cells.is_empty() && cells.iter().all(|&c| g.colours()[c] == 0));
                    assert_eq!(f.to_move, g.to_move);
                    for c in 0..g.colours().len() {
                        let want = if cells.contains(&c) {
                            3 - player as u8
                        } else {
                            g.colours()[c]
                        };
                        assert_eq!(f.colours()[c], want);
                    }
                    for to_move in [1, 2] {
                        let mut h = f.clone();
                        h.to_move = to_move;
                        assert!(!h.is_over());
                        assert_eq!(
                            wins(&mut h, &mut memo),
                            to_move == player as u8,
                            "{:?} to move {to_move}, conceded {cells:?} for {player}",
                            g.colours()
                        );
                    }
                    made += 1;
                }
            }
        }
        assert!(made > 50, "{made}");
    }

    fn solved_value(g: &Hex) -> Outcome {
        let opts = SolveOptions {
            threads: 1,
            table_bytes: 1 << 20,
            distances: false,
            ..Default::default()
        };
        let s = solve(g, &opts, &Monitor::default()).unwrap();
        assert!(s.complete);
        s.value.unwrap()
    }

    /// Every opening of Hex 4x4 (and 3x3, 2x3) solved with every cut and
    /// the virtual connections, against plain minimax; the 4x4 winners are
    /// the published ones, the short diagonal.
    #[test]
    fn every_small_opening_agrees_with_minimax() {
        for (rows, cols) in [(2, 3), (3, 3), (4, 4)] {
            let g = Hex::new(rows, cols, false).unwrap();
            let mut memo = HashMap::new();
            let mut winners = Vec::new();
            for a in 0..(rows * cols) as Action {
                let mut c = g.clone();
                c.apply_action(a);
                let o_wins = wins(&mut c, &mut memo);
                assert_eq!(
                    solved_value(&c),
                    if o_wins { Outcome::Win } else { Outcome::Loss },
                    "{rows}x{cols} opening {a}"
                );
                if !o_wins {
                    winners.push(g.action_to_string(a));
                }
            }
            if rows == 4 {
                assert_eq!(winners, ["d1", "c2", "b3", "a4"]);
            }
        }
    }

    /// Random midgame positions of Hex 5x5 (and 4x5) solved whole, against
    /// plain minimax.
    #[test]
    fn midgame_positions_agree_with_minimax() {
        let mut seen = [0usize; 2];
        for (rows, cols, empty, count) in [(5, 5, 12, 60), (5, 5, 14, 20), (4, 5, 13, 40)] {
            let mut memo = HashMap::new();
            for mut g in positions(rows, cols, empty, count) {
                let w = wins(&mut g, &mut memo);
                assert_eq!(
                    solved_value(&g),
                    if w { Outcome::Win } else { Outcome::Loss },
                    "{:?} to move {}",
                    g.colours(),
                    g.to_move
                );
                seen[w as usize] += 1;
            }
        }
        assert!(seen[0] > 10 && seen[1] > 10, "{seen:?}");
    }
}
