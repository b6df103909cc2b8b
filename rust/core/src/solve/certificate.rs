//! Proof certificates: a solved value written as strategies that an
//! independent checker replays (`hexcore.reference.check_certificate`).
//!
//! A *strategy* of player `P` for a goal (win, or at least a draw) from a
//! position gives one move at each position where `P` is to move and
//! every legal reply at each position where the opponent is, down to
//! finished games that meet the goal. A win of the player to move is one
//! strategy (theirs), a loss is one strategy of the opponent, a draw is two
//! (each side's non-losing strategy).
//!
//! Moves are whole turns, in the game's notation. Positions are nodes with
//! numbers: a position reached again (a transposition) is written once and
//! referred to by its number, so the file is the strategy's graph, not its
//! tree. One line per node, JSON:
//!
//! * `[id, "move", next]` at a position where `P` moves;
//! * `[id, {"reply": next, ...}]` at a position where the opponent moves,
//!   one entry per legal move;
//! * `[id, {"pairs": [[cell, cell], ...]}]` (version 2) at a position `P`
//!   has won against any play by a pairing strategy
//!   ([`Solvable::pairing`]: Hex's disjoint pairs of empty cells joining
//!   `P`'s edges), whoever is to move: a leaf;
//! * `[id, {"fill": [cell, ...], "next": next}]` (version 3) at a position
//!   `P` wins even with the opponent's stones on those empty cells
//!   ([`Solvable::concession`]: in Hex, the cells outside the carrier of a
//!   virtual connection between `P`'s edges); `next` is that position,
//!   the same player to move, where the opponent has fewer replies;
//!
//! where `next` is the number of the node after the move, or `null` when the
//! game is over after it. Children are written before their parents. The
//! Python layer adds the header and trailer lines (`hexcore.solving`).
//!
//! `P`'s move is chosen, in this order: one that ends the game meeting the
//! goal; one leading to a position already in the certificate; one leading
//! to a pairing leaf; one leading to a fill node, the most cells given
//! (the smallest proof below, mostly); then the
//! first in the game hook's order that keeps the goal (never the table's
//! best move, which depends on the thread count: the file does not). Each is proved by a search (a
//! table hit, mostly) before it is written. Memory: the index of written
//! positions (up to 80 bytes each) is limited to `index_bytes`.

use std::collections::HashMap;
use std::io::Write;

use super::dfpn::Dfpn;
use super::keys::{Keyer, Solvable};
use super::search::Searcher;
use super::{root_moves, SolveError};
use crate::game::{Action, MoveActions};

/// The search that proves each move the certificate writes.
pub(super) trait Prover<G: Solvable> {
    /// Whether `player` reaches `goal` (1: a win, 0: at least a draw) from
    /// the unfinished position `pos`; `None` if stopped.
    fn reaches(&mut self, pos: &G, player: usize, goal: i32) -> Option<bool>;
    /// The same when it is known without search (a table hit), else `None`.
    fn known(&mut self, _pos: &G, _player: usize, _goal: i32) -> Option<bool> {
        None
    }
    /// Publish the nodes counted and not yet reported.
    fn flush(&mut self);
}

impl<G: Solvable> Prover<G> for Searcher<'_, G> {
    fn reaches(&mut self, pos: &G, player: usize, goal: i32) -> Option<bool> {
        self.g.clone_from(pos);
        if self.g.to_move() == player {
            self.window(goal - 1, goal).map(|v| v >= goal)
        } else {
            self.window(-goal, 1 - goal).map(|v| v <= -goal)
        }
    }
    fn flush(&mut self) {
        Searcher::flush(self)
    }
}

impl<G: Solvable> Prover<G> for Dfpn<'_, G> {
    fn reaches(&mut self, pos: &G, player: usize, goal: i32) -> Option<bool> {
        self.proves(pos, player, goal)
    }
    fn known(&mut self, pos: &G, player: usize, goal: i32) -> Option<bool> {
        Dfpn::known(self, pos, player, goal)
    }
    fn flush(&mut self) {
        Dfpn::flush(self)
    }
}

/// Bytes the certificate's index may take per position, for its memory
/// limit: a 32-byte entry (key and number), over a hash map's load factor
/// (7/8) and just after it doubled.
pub const INDEX_BYTES_PER_POSITION: usize = 80;

/// One strategy written: whose, for which goal, and its first node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strategy {
    pub player: usize,
    /// 1: a win; 0: at least a draw.
    pub goal: i32,
    pub root: u64,
}

/// What a certificate holds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Certificate {
    pub strategies: Vec<Strategy>,
    /// Nodes (positions) written.
    pub positions: u64,
}

/// A child in the graph: a node, or the end of the game.
#[derive(Clone, Copy)]
enum Next {
    Node(u64),
    End,
}

struct Frame<G> {
    pos: G,
    id: u64,
    /// The moves written at this node: the one `P` plays, or every reply.
    moves: Vec<MoveActions>,
    next: Vec<Next>,
    /// A fill node: the cells given to the opponent and the position after
    /// (its one child); `moves` is then empty.
    fill: Option<(Vec<usize>, G)>,
}

/// Index value: the node's number, high bit set while it is being written.
const OPEN: u64 = 1 << 63;

pub(super) struct Writer<'w, G: Solvable> {
    pub s: &'w mut dyn Prover<G>,
    pub out: &'w mut dyn Write,
    keyer: Keyer,
    index: HashMap<[u64; 3], u64>,
    max_positions: usize,
    next_id: u64,
}

fn io_err(e: std::io::Error) -> SolveError {
    SolveError::Certificate(format!("cannot write the certificate: {e}"))
}

/// `s` as a JSON string.
fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for ch in s.chars() {
        match ch {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn json_next(n: Next) -> String {
    match n {
        Next::Node(id) => id.to_string(),
        Next::End => "null".into(),
    }
}

impl<'w, G: Solvable> Writer<'w, G> {
    pub fn new(
        root: &G,
        s: &'w mut dyn Prover<G>,
        out: &'w mut dyn Write,
        index_bytes: usize,
    ) -> Self {
        let keyer = Keyer::new(root, false);
        Writer {
            s,
            out,
            keyer,
            index: HashMap::new(),
            max_positions: (index_bytes / INDEX_BYTES_PER_POSITION).max(1),
            next_id: 0,
        }
    }

    /// Write `player`'s strategy for `goal` from `root`; its first node.
    /// `Err(Stopped)` when a budget ran out or the caller stopped it.
    pub fn strategy(&mut self, root: &G, player: usize, goal: i32) -> Result<Strategy, SolveError> {
        // the index is per strategy (a position is a different node in each
        // of a draw's two); the numbers run on, one space for the file
        self.index.clear();
        let mut stack: Vec<Frame<G>> = Vec::new();
        let first = match self.open(root, player, goal, &mut stack)? {
            Next::Node(id) => id,
            Next::End => return Err(SolveError::GameOver),
        };
        while let Some(top) = stack.last_mut() {
            let i = top.next.len();
            let children = if top.fill.is_some() {
                1
            } else {
                top.moves.len()
            };
            if i < children {
                let child = match &top.fill {
                    Some((_, filled)) => filled.clone(),
                    None => {
                        let mut child = top.pos.clone();
                        for &a in &top.moves[i] {
                            child.apply_action(a);
                        }
                        child
                    }
                };
                let depth = stack.len();
                let n = self.open(&child, player, goal, &mut stack)?;
                if stack.len() == depth {
                    stack.last_mut().expect("a frame").next.push(n);
                }
                continue;
            }
            let f = stack.pop().expect("a frame");
            self.write(&f, player)?;
            if let Some(parent) = stack.last_mut() {
                parent.next.push(Next::Node(f.id));
            }
        }
        Ok(Strategy {
            player,
            goal,
            root: first,
        })
    }

    /// Nodes written so far.
    pub fn positions(&self) -> u64 {
        self.next_id
    }

    fn write(&mut self, f: &Frame<G>, player: usize) -> Result<(), SolveError> {
        let line = if let Some((cells, _)) = &f.fill {
            let board = f.pos.board();
            let labels: Vec<String> = cells.iter().map(|&c| json_str(board.label(c))).collect();
            format!(
                "[{},{{\"fill\":[{}],\"next\":{}}}]\n",
                f.id,
                labels.join(","),
                json_next(f.next[0])
            )
        } else if f.pos.to_move() == player {
            format!(
                "[{},{},{}]\n",
                f.id,
                json_str(&f.pos.format_move(&f.moves[0])),
                json_next(f.next[0])
            )
        } else {
            let items: Vec<String> = f
                .moves
                .iter()
                .zip(&f.next)
                .map(|(m, &n)| format!("{}:{}", json_str(&f.pos.format_move(m)), json_next(n)))
                .collect();
            format!("[{},{{{}}}]\n", f.id, items.join(","))
        };
        self.out.write_all(line.as_bytes()).map_err(io_err)?;
        let key = self.key(&f.pos);
        self.index.insert(key, f.id);
        Ok(())
    }

    fn key(&mut self, g: &G) -> [u64; 3] {
        let k = self.keyer.key(g);
        [k.cells as u64, (k.cells >> 64) as u64, k.side]
    }

    /// Whether a finished game meets `goal` for `player`.
    fn meets(g: &G, player: usize, goal: i32) -> bool {
        let mask = g.winner_mask();
        let me = mask >> (player - 1) & 1 != 0;
        let other = mask >> (2 - player) & 1 != 0;
        if goal > 0 {
            me && !other
        } else {
            me || !other
        }
    }

    /// The node for `pos`: the end of the game, a node already written, or a
    /// new frame pushed on `stack` (its number returned).
    fn open(
        &mut self,
        pos: &G,
        player: usize,
        goal: i32,
        stack: &mut Vec<Frame<G>>,
    ) -> Result<Next, SolveError> {
        if pos.is_over() {
            if Self::meets(pos, player, goal) {
                return Ok(Next::End);
            }
            return Err(SolveError::Certificate(
                "internal error: the strategy reached a game that misses its goal".into(),
            ));
        }
        let key = self.key(pos);
        if let Some(&id) = self.index.get(&key) {
            if id & OPEN != 0 {
                return Err(SolveError::Certificate(
                    "the strategy repeats a position: it cannot be written as a proof".into(),
                ));
            }
            return Ok(Next::Node(id));
        }
        if self.index.len() >= self.max_positions {
            return Err(self.full());
        }
        if let Some(pairs) = pos.pairing(player) {
            // a pairing leaf: proved without search, written at once
            let id = self.next_id;
            self.next_id += 1;
            let board = pos.board();
            let items: Vec<String> = pairs
                .iter()
                .map(|&[a, b]| {
                    format!(
                        "[{},{}]",
                        json_str(board.label(a)),
                        json_str(board.label(b))
                    )
                })
                .collect();
            let line = format!("[{id},{{\"pairs\":[{}]}}]\n", items.join(","));
            self.out.write_all(line.as_bytes()).map_err(io_err)?;
            self.index.insert(key, id);
            return Ok(Next::Node(id));
        }
        let (moves, fill) = match pos.concession(player).filter(|(_, f)| !f.is_over()) {
            // a fill node: the proof goes on with the opponent's stones on
            // the cells given, where the opponent has fewer replies
            Some(fill) => (Vec::new(), Some(fill)),
            None if pos.to_move() == player => (vec![self.choose(pos, player, goal)?], None),
            None => (root_moves(pos)?, None),
        };
        let id = self.next_id;
        self.next_id += 1;
        self.index.insert(key, id | OPEN);
        stack.push(Frame {
            pos: pos.clone(),
            id,
            next: Vec::with_capacity(moves.len().max(1)),
            moves,
            fill,
        });
        Ok(Next::Node(id))
    }

    fn full(&self) -> SolveError {
        SolveError::Certificate(format!(
            "the certificate needs more than {} positions, more than its index may hold in table_mb; give a larger table_mb",
            self.max_positions
        ))
    }

    /// Whether the position after `m` is proved to meet `goal` for `player`
    /// (a search); `Err` if stopped.
    fn proves(
        &mut self,
        pos: &G,
        m: &[Action],
        player: usize,
        goal: i32,
    ) -> Result<bool, SolveError> {
        let mut c = pos.clone();
        for &a in m {
            c.apply_action(a);
        }
        if c.is_over() {
            return Ok(Self::meets(&c, player, goal));
        }
        self.s.reaches(&c, player, goal).ok_or(SolveError::Stopped)
    }

    /// A move of `player` (to move in `pos`) that keeps `goal`.
    fn choose(&mut self, pos: &G, player: usize, goal: i32) -> Result<MoveActions, SolveError> {
        let moves = root_moves(pos)?;
        let mut after: Vec<G> = Vec::with_capacity(moves.len());
        for m in &moves {
            let mut c = pos.clone();
            for &a in m {
                c.apply_action(a);
            }
            after.push(c);
        }
        // a move that ends the game meeting the goal, a win first
        for want in [1, goal] {
            if let Some(i) = after
                .iter()
                .position(|c| c.is_over() && Self::meets(c, player, want))
            {
                return Ok(moves[i].clone());
            }
        }
        // a position already proved
        for i in 0..moves.len() {
            if after[i].is_over() {
                continue;
            }
            let k = self.key(&after[i]);
            if self.index.get(&k).is_some_and(|&id| id & OPEN == 0) {
                return Ok(moves[i].clone());
            }
        }
        // a position won by a pairing strategy (a leaf, no search)
        if let Some(i) =
            (0..moves.len()).find(|&i| !after[i].is_over() && after[i].pairing(player).is_some())
        {
            return Ok(moves[i].clone());
        }
        // a position the player wins while giving the opponent cells (a
        // fill node, no search), the most cells given
        if let Some(i) = (0..moves.len())
            .filter(|&i| !after[i].is_over())
            .filter_map(|i| after[i].concession(player).map(|(c, _)| (i, c.len())))
            .max_by_key(|&(i, n)| (n, std::cmp::Reverse(i)))
            .map(|(i, _)| i)
        {
            return Ok(moves[i].clone());
        }
        // the table's best first action, then the hook's order, then the rest
        let proved = if pos.to_move() == player {
            self.s.reaches(pos, player, goal)
        } else {
            None
        };
        match proved {
            None => return Err(SolveError::Stopped),
            Some(false) => {
                return Err(SolveError::Certificate(
                    "internal error: a position of the strategy does not keep its goal".into(),
                ))
            }
            Some(true) => {}
        }
        // The hook's order, not the table's best move: the table's content
        // depends on how threads shared the root moves, the hook's order and
        // exact proofs do not, so the file is the same for any thread count.
        let mut p = pos.clone();
        let mut order: Vec<Action> = Vec::new();
        p.legal_actions(&mut order);
        p.solver_actions(&mut order, false);
        let rank = |m: &MoveActions| {
            order
                .iter()
                .position(|&a| Some(&a) == m.first())
                .unwrap_or(usize::MAX)
        };
        let mut idx: Vec<usize> = (0..moves.len()).collect();
        idx.sort_by_key(|&i| rank(&moves[i]));
        // a move the prover's table already shows to keep the goal (df-pn's
        // proof), then the first in that order that a search proves
        for &i in &idx {
            if !after[i].is_over() && self.s.known(&after[i], player, goal) == Some(true) {
                return Ok(moves[i].clone());
            }
        }
        for i in idx {
            if self.proves(pos, &moves[i], player, goal)? {
                return Ok(moves[i].clone());
            }
        }
        Err(SolveError::Certificate(
            "internal error: no move keeps the strategy's goal".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::{solve_and_certify, Monitor, SolveError, SolveOptions};
    use super::*;
    use crate::{Board, Churn};

    fn churn2() -> Churn {
        Churn::new(Arc::new(Board::hexhex(2).unwrap()), false)
    }

    #[test]
    fn one_line_per_node_children_first() {
        let mut out = Vec::new();
        let s = solve_and_certify(
            &churn2(),
            &SolveOptions::default(),
            &Monitor::default(),
            Some(&mut out),
        )
        .unwrap();
        let c = s.certificate.unwrap();
        assert_eq!(
            c.strategies,
            vec![Strategy {
                player: 1,
                goal: 1,
                root: 0
            }]
        );
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count() as u64, c.positions);
        // the root (player 1 to move) is written last, with its one move
        assert!(
            text.lines().last().unwrap().starts_with("[0,\"b2\","),
            "{text}"
        );
        // every number written is a node of the file
        let ids: std::collections::HashSet<&str> = text
            .lines()
            .map(|l| l[1..].split(',').next().unwrap())
            .collect();
        assert_eq!(ids.len() as u64, c.positions);
    }

    #[test]
    fn the_index_is_bounded() {
        let opts = SolveOptions {
            table_bytes: 10 * INDEX_BYTES_PER_POSITION,
            ..Default::default()
        };
        let mut out = Vec::new();
        match solve_and_certify(&churn2(), &opts, &Monitor::default(), Some(&mut out)) {
            Err(SolveError::Certificate(m)) => assert!(m.contains("more than 10 positions"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
