//! Depth-first proof-number search (df-pn, Nagai 2002) with the 1+epsilon
//! trick and a transposition table (Pawlewicz & Lew 2007).
//!
//! A query asks whether an *attacker* reaches a *goal* from a position: a
//! win (goal 1), or at least a draw (goal 0). Nodes where the attacker is to
//! move are OR nodes, the others AND nodes; a turn of several actions is
//! several nodes of the same kind. Each node has a proof number `pn` (how
//! many leaves, at least, must still be proved to prove it) and a disproof
//! number `dn`: an OR node's `pn` is the least of its children's and its
//! `dn` their sum, an AND node the other way round. A proved node has
//! `pn = 0, dn = INF`, a disproved one `pn = INF, dn = 0`; only finished
//! games and the game's [`Solvable::solver_value`] decide a leaf, so every
//! proof and disproof is exact. The search goes down the most-proving
//! child, with thresholds that send it back up once another node becomes
//! more promising; the 1+epsilon trick lets the child's threshold exceed the
//! second-best child's number by a quarter, which cuts the re-expansions.
//!
//! The game's hooks bring its knowledge: [`Solvable::solver_value`] decides
//! positions without search, [`Solvable::solver_actions`] (values only)
//! drops moves no better than one it keeps and orders the rest; among
//! children of equal proof numbers the first in that order is searched.
//!
//! Values of a position ([`Dfpn::value`]): "does the player to move win?";
//! if not, and no drawn game was met while disproving it, the opponent
//! wins; else "does the opponent win?" tells a loss from a draw.
//!
//! Each searcher has its own table (the solve's threads share the root
//! moves, not the table), holding per position and query the last
//! (pn, dn) found; entries that took the least work make way when it is
//! full. The table keeps proved and disproved results, so later queries
//! (the certificate's) find them.

use super::keys::{Key, Keyer, Solvable};
use super::search::{NodeCount, Shared};
use super::Outcome;
use crate::game::Action;
use crate::zobrist;

/// Infinite proof or disproof number: the node is decided.
pub const INF: u32 = u32::MAX;
/// The largest number of an undecided node (sums stop there).
const BIG: u32 = INF - 1;

/// A table entry; `pn == 0 && dn == 0` marks an empty slot.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    cells: u128,
    side: u64,
    pn: u32,
    dn: u32,
    work: u32,
}

const WAYS: usize = 4;

/// The proof numbers found so far, by position and query. It starts small
/// and doubles up to `max_bytes`; when full, new entries replace the one
/// of least work in their bucket.
pub struct DfpnTable {
    entries: Vec<Entry>,
    max_entries: usize,
    filled: u64,
}

impl DfpnTable {
    pub fn new(max_bytes: usize) -> DfpnTable {
        let max_entries = (max_bytes / std::mem::size_of::<Entry>()).max(WAYS);
        let mut n = WAYS;
        while n * 2 <= max_entries.min(1 << 12) {
            n *= 2;
        }
        DfpnTable {
            entries: vec![Entry::default(); n],
            max_entries,
            filled: 0,
        }
    }

    pub fn capacity(&self) -> u64 {
        self.entries.len() as u64
    }

    pub fn filled(&self) -> u64 {
        self.filled
    }

    #[inline]
    fn bucket(&self, key: &Key) -> usize {
        (key.index_hash() as usize & (self.entries.len() / WAYS - 1)) * WAYS
    }

    #[inline]
    fn probe(&self, key: &Key) -> Option<(u32, u32)> {
        let b = self.bucket(key);
        self.entries[b..b + WAYS]
            .iter()
            .find(|e| (e.pn | e.dn) != 0 && e.cells == key.cells && e.side == key.side)
            .map(|e| (e.pn, e.dn))
    }

    fn store(&mut self, key: &Key, pn: u32, dn: u32, work: u32) {
        if self.filled as usize * 4 >= self.entries.len() * 3
            && self.entries.len() * 2 <= self.max_entries
        {
            self.grow();
        }
        // a decided entry is worth more than any search that is still open
        let work = if pn == 0 || dn == 0 {
            work.saturating_add(1 << 16)
        } else {
            work
        };
        let b = self.bucket(key);
        let mut victim = b;
        for i in b..b + WAYS {
            let e = &self.entries[i];
            if (e.pn | e.dn) == 0 {
                victim = i;
                self.filled += 1;
                break;
            }
            if e.cells == key.cells && e.side == key.side {
                victim = i;
                break;
            }
            if e.work < self.entries[victim].work {
                victim = i;
            }
        }
        self.entries[victim] = Entry {
            cells: key.cells,
            side: key.side,
            pn,
            dn,
            work,
        };
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.entries);
        self.entries = vec![Entry::default(); old.len() * 2];
        self.filled = 0;
        for e in old.into_iter().filter(|e| (e.pn | e.dn) != 0) {
            let key = Key {
                cells: e.cells,
                side: e.side,
                sym: 0,
            };
            self.store(&key, e.pn, e.dn, e.work);
        }
    }
}

/// A child of the node being searched.
#[derive(Clone, Copy)]
struct Child {
    action: Action,
    pn: u32,
    dn: u32,
}

/// One thread's df-pn searcher.
pub struct Dfpn<'a, G: Solvable> {
    pub g: G,
    keyer: Keyer,
    sh: &'a Shared<'a>,
    pub table: DfpnTable,
    attacker: usize,
    goal: i32,
    tag: u64,
    /// A game that neither player won was met (sticky).
    draw_seen: bool,
    bufs: Vec<Vec<Child>>,
    acts: Vec<Action>,
    /// Nodes counted, reports made, whether the search must unwind.
    pub count: NodeCount,
    /// Ask the game's [`Solvable::solver_value`] (on by default; off in
    /// the tests that check the knowledge against the search without it).
    pub value_hook: bool,
    /// Let the game's [`Solvable::solver_actions`] drop and order moves.
    pub actions_hook: bool,
}

/// The child's threshold past the second-best number `x` (1+epsilon, epsilon 1/4).
#[inline]
fn grow(x: u32) -> u32 {
    if x >= BIG {
        x
    } else {
        x.saturating_add((x / 4).max(1)).min(BIG)
    }
}

impl<'a, G: Solvable> Dfpn<'a, G> {
    pub fn new(g: &G, sh: &'a Shared<'a>, symmetry: bool, table_bytes: usize) -> Self {
        Dfpn {
            g: g.clone(),
            keyer: Keyer::new(g, symmetry),
            sh,
            table: DfpnTable::new(table_bytes),
            attacker: 1,
            goal: 1,
            tag: 0,
            draw_seen: false,
            bufs: Vec::new(),
            acts: Vec::new(),
            count: NodeCount::default(),
            value_hook: true,
            actions_hook: true,
        }
    }

    pub fn num_symmetries(&self) -> usize {
        self.keyer.num_symmetries()
    }

    #[inline]
    fn tick(&mut self) {
        self.count.tick(self.sh);
    }

    pub fn flush(&mut self) {
        self.count.flush(self.sh);
    }

    /// The value of `g` (unfinished) for the player to move: 1 win, 0
    /// draw, -1 loss; `None` if interrupted.
    pub fn value(&mut self, g: &G) -> Option<i32> {
        let me = g.to_move();
        if self.proves(g, me, 1)? {
            return Some(1);
        }
        if !self.draw_seen {
            return Some(-1);
        }
        Some(if self.proves(g, 3 - me, 1)? { -1 } else { 0 })
    }

    /// Whether `player` reaches `goal` (1: a win, 0: at least a draw) from
    /// `g` with perfect play; `None` if interrupted.
    pub fn proves(&mut self, g: &G, player: usize, goal: i32) -> Option<bool> {
        self.set_query(player, goal);
        self.g.clone_from(g);
        if self.g.is_over() {
            return Some(self.meets());
        }
        let (pn, _) = self.mid(INF, INF, 0);
        (!self.count.aborted).then_some(pn == 0)
    }

    /// What the table knows of `g` for the query: `Some(true)` proved,
    /// `Some(false)` disproved, `None` open or absent. No search.
    pub fn known(&mut self, g: &G, player: usize, goal: i32) -> Option<bool> {
        self.set_query(player, goal);
        if g.is_over() {
            self.g.clone_from(g);
            return Some(self.meets());
        }
        let key = self.key_of(g);
        match self.table.probe(&key) {
            Some((0, _)) => Some(true),
            Some((_, 0)) => Some(false),
            _ => None,
        }
    }

    fn set_query(&mut self, player: usize, goal: i32) {
        self.attacker = player;
        self.goal = goal;
        self.tag = zobrist::mix(0x6466_706E_0000_0000 ^ (player as u64) << 1 ^ (goal > 0) as u64);
    }

    #[inline]
    fn key_of(&mut self, g: &G) -> Key {
        let mut k = self.keyer.key(g);
        k.side ^= self.tag;
        k
    }

    /// The key of the current position for the query.
    #[inline]
    fn here(&mut self) -> Key {
        let mut k = self.keyer.key(&self.g);
        k.side ^= self.tag;
        k
    }

    /// Whether the finished game in `self.g` meets the query's goal.
    fn meets(&mut self) -> bool {
        let mask = self.g.winner_mask();
        let me = mask >> (self.attacker - 1) & 1 != 0;
        let other = mask >> (2 - self.attacker) & 1 != 0;
        if me == other {
            self.draw_seen = true;
        }
        if self.goal > 0 {
            me && !other
        } else {
            me || !other
        }
    }

    /// (pn, dn) of a position decided without search.
    #[inline]
    fn decided(yes: bool) -> (u32, u32) {
        if yes {
            (0, INF)
        } else {
            (INF, 0)
        }
    }

    /// Search the current position until its proof number reaches `thpn`
    /// or its disproof number `thdn`; its (pn, dn).
    fn mid(&mut self, thpn: u32, thdn: u32, depth: usize) -> (u32, u32) {
        self.tick();
        if self.count.aborted {
            return (1, 1);
        }
        if self.g.is_over() {
            return Self::decided(self.meets());
        }
        let key = self.here();
        let stored = self.table.probe(&key);
        if let Some((pn, dn)) = stored {
            if pn >= thpn || dn >= thdn {
                return (pn, dn);
            }
        }
        // a position in the table was asked already (and left undecided)
        if let Some(o) = if self.value_hook && stored.is_none() {
            self.g.solver_value()
        } else {
            None
        } {
            let mover = self.g.to_move();
            let (me, other) = match o {
                Outcome::Win => (mover == self.attacker, mover != self.attacker),
                Outcome::Loss => (mover != self.attacker, mover == self.attacker),
                Outcome::Draw => (false, false),
            };
            if me == other {
                self.draw_seen = true;
            }
            let yes = if self.goal > 0 {
                me && !other
            } else {
                me || !other
            };
            let r = Self::decided(yes);
            self.table.store(&key, r.0, r.1, 0);
            return r;
        }
        let start = self.count.nodes(self.sh);
        let or = self.g.to_move() == self.attacker;
        self.acts.clear();
        self.g.legal_actions(&mut self.acts);
        if self.actions_hook {
            self.g.solver_actions(&mut self.acts, true);
        }
        if self.bufs.len() <= depth {
            self.bufs.resize_with(depth + 1, Vec::new);
        }
        let mut kids = std::mem::take(&mut self.bufs[depth]);
        kids.clear();
        let mut settled = None;
        for i in 0..self.acts.len() {
            let a = self.acts[i];
            let u = self.g.apply_action_undoable(a);
            let (pn, dn) = if self.g.is_over() {
                Self::decided(self.meets())
            } else {
                let k = self.here();
                self.table.probe(&k).unwrap_or((1, 1))
            };
            self.g.undo_action(u);
            kids.push(Child { action: a, pn, dn });
            // a proved child of an OR node (disproved of an AND node) settles it
            if (or && pn == 0) || (!or && dn == 0) {
                settled = Some(Self::decided(or));
                break;
            }
        }
        if kids.is_empty() {
            // no legal action in an unfinished game: the games never allow
            // it, but a draw is the only reading that cannot mislead
            self.draw_seen = true;
            settled = Some(Self::decided(self.goal <= 0));
        }
        let mut r = settled.unwrap_or((1, 1));
        if settled.is_none() {
            loop {
                // (pn, dn) from the children, the best and second best
                let (mut sum, mut best, mut second, mut bi) = (0u64, INF, INF, 0usize);
                for (i, c) in kids.iter().enumerate() {
                    let (num, other) = if or { (c.pn, c.dn) } else { (c.dn, c.pn) };
                    sum += other as u64;
                    if num < best {
                        second = best;
                        best = num;
                        bi = i;
                    } else if num < second {
                        second = num;
                    }
                }
                let total = if kids
                    .iter()
                    .any(|c| if or { c.dn == INF } else { c.pn == INF })
                {
                    INF
                } else {
                    sum.min(BIG as u64) as u32
                };
                r = if or { (best, total) } else { (total, best) };
                if r.0 >= thpn || r.1 >= thdn {
                    break;
                }
                let c = kids[bi];
                let (cthpn, cthdn) = if or {
                    (
                        thpn.min(grow(second)),
                        (thdn as u64 - r.1 as u64 + c.dn as u64).min(INF as u64) as u32,
                    )
                } else {
                    (
                        (thpn as u64 - r.0 as u64 + c.pn as u64).min(INF as u64) as u32,
                        thdn.min(grow(second)),
                    )
                };
                let u = self.g.apply_action_undoable(c.action);
                let (pn, dn) = self.mid(cthpn, cthdn, depth + 1);
                self.g.undo_action(u);
                if self.count.aborted {
                    self.bufs[depth] = kids;
                    return (1, 1);
                }
                kids[bi].pn = pn;
                kids[bi].dn = dn;
            }
        }
        self.bufs[depth] = kids;
        let used = self.count.nodes(self.sh) - start;
        self.table.store(&key, r.0, r.1, 64 - used.leading_zeros());
        r
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicBool, AtomicU64};
    use std::sync::Arc;

    use super::super::table::Table;
    use super::super::{solve, Algorithm, Monitor, SolveOptions};
    use super::*;
    use crate::game::Game;
    use crate::rng::rng_for;
    use crate::{Board, Churn, Hex};

    fn values<G: Solvable>(g: &G, algorithm: Algorithm, threads: usize) -> Vec<Option<Outcome>> {
        let opts = SolveOptions {
            threads,
            table_bytes: 4 << 20,
            distances: false,
            algorithm: Some(algorithm),
            ..Default::default()
        };
        let s = solve(g, &opts, &Monitor::default()).unwrap();
        assert!(s.complete);
        s.moves.iter().map(|m| m.value).collect()
    }

    #[test]
    fn equals_alpha_beta_on_small_boards() {
        let churn = Churn::new(Arc::new(Board::hexhex(2).unwrap()), false);
        assert_eq!(
            values(&churn, Algorithm::Dfpn, 1),
            values(&churn, Algorithm::AlphaBeta, 1)
        );
        for n in 2..=4 {
            let hex = Hex::new(n, n, false).unwrap();
            assert_eq!(
                values(&hex, Algorithm::Dfpn, 2),
                values(&hex, Algorithm::AlphaBeta, 1),
                "hex {n}"
            );
        }
    }

    /// Negamax value (1 win, 0 draw, -1 loss for the player to move) over
    /// every action, with a memo by Zobrist key and board size; no knowledge.
    fn minimax<G: Solvable>(g: &mut G, memo: &mut HashMap<(u64, usize), i32>) -> i32 {
        let key = (g.zobrist(), g.board().num_cells());
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let me = g.to_move();
        let mut acts = Vec::new();
        g.legal_actions(&mut acts);
        let mut best = -1;
        for a in acts {
            let u = g.apply_action_undoable(a);
            let v = if g.is_over() {
                let m = g.winner_mask();
                match (m >> (me - 1) & 1 != 0, m >> (2 - me) & 1 != 0) {
                    (true, false) => 1,
                    (false, true) => -1,
                    _ => 0,
                }
            } else if g.to_move() == me {
                minimax(g, memo)
            } else {
                -minimax(g, memo)
            };
            g.undo_action(u);
            best = best.max(v);
        }
        memo.insert(key, best);
        best
    }

    /// Random unfinished positions with `empty` empty cells.
    fn positions(make: impl Fn() -> Hex, empty: usize, count: usize, seed: u64) -> Vec<Hex> {
        let mut out = Vec::new();
        let mut buf = Vec::new();
        let mut k = 0;
        while out.len() < count {
            k += 1;
            let mut rng = rng_for(seed, k);
            let mut g = make();
            while !g.is_over()
                && (0..g.board().num_cells())
                    .filter(|&c| g.cell_value(c) == 0)
                    .count()
                    > empty
            {
                let a = g.random_action(&mut rng, &mut buf).unwrap();
                g.apply_action(a);
            }
            if !g.is_over() {
                out.push(g);
            }
        }
        out
    }

    /// Hex openings of 3x3 and 4x4 and random midgames of 4x4 and 5x5:
    /// df-pn with each combination of the game's knowledge (the value hook:
    /// virtual connections, H-search; the action hook: threats, mustplay,
    /// ordering) gives the minimax's value.
    #[test]
    fn hex_knowledge_is_sound_against_minimax() {
        let stop = AtomicBool::new(false);
        let (nodes, filled) = (AtomicU64::new(0), AtomicU64::new(0));
        let table = Table::new(1 << 10).unwrap();
        let sh = Shared {
            table: &table,
            stop: &stop,
            halt: AtomicBool::new(false),
            nodes: &nodes,
            filled: &filled,
            max_nodes: u64::MAX,
            deadline: None,
        };
        let mut cases: Vec<Hex> = Vec::new();
        for n in [3, 4] {
            let g = Hex::new(n, n, false).unwrap();
            for a in 0..(n * n) as Action {
                let mut c = g.clone();
                c.apply_action(a);
                cases.push(c);
            }
        }
        cases.extend(positions(|| Hex::new(4, 4, false).unwrap(), 9, 60, 1));
        cases.extend(positions(|| Hex::new(5, 5, false).unwrap(), 10, 40, 2));
        cases.extend(positions(|| Hex::new(4, 5, false).unwrap(), 11, 30, 3));
        let mut memo = HashMap::new();
        let mut seen = [0usize; 2];
        for g in &cases {
            let want = minimax(&mut g.clone(), &mut memo);
            seen[(want > 0) as usize] += 1;
            for (value_hook, actions_hook) in
                [(false, false), (true, false), (false, true), (true, true)]
            {
                let mut d = Dfpn::new(g, &sh, true, 1 << 20);
                d.value_hook = value_hook;
                d.actions_hook = actions_hook;
                assert_eq!(
                    d.value(g),
                    Some(want),
                    "{:?} to move {} hooks {value_hook} {actions_hook}",
                    g.colours(),
                    g.to_move()
                );
            }
        }
        assert!(seen[0] > 20 && seen[1] > 20, "{seen:?}");
    }
}
