//! Negamax with alpha-beta over actions, a shared transposition table and
//! history-heuristic move ordering.
//!
//! Scores are from the point of view of the player to move. A turn may take
//! several actions (Wunchunk, Quintun's EXTEND): the sign flips only when
//! the player to move changes. Two scorings share the code:
//!
//! * WDL: 1 win, 0 draw, -1 loss;
//! * distance: `MATE - d` for a win in `d` plies (whole turns), `-(MATE - d)`
//!   for a loss in `d` plies, 0 for a draw. Scores are relative to the node,
//!   so a table entry holds for every path to its position, and the window
//!   is shifted by one ply when an action ends a turn.
//!
//! Every score stored in the table is exact, a lower bound or an upper bound
//! of the true value, from a search that finished; aborted searches store
//! nothing and their result is discarded by the caller.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::keys::{Key, Keyer, Solvable};
use super::table::{Bound, Table};
use super::Outcome;
use crate::game::Action;

pub const MATE: i32 = 1 << 24;
const INF: i32 = i32::MAX;
/// Side-hash tag that keeps distance entries apart from WDL entries.
const DTM_TAG: u64 = 0x6D61_7465_6469_7374;

/// What the threads of one solve share.
pub struct Shared<'a> {
    pub table: &'a Table,
    /// Set by the caller to interrupt.
    pub stop: &'a AtomicBool,
    /// Set when a budget runs out.
    pub halt: AtomicBool,
    pub nodes: &'a AtomicU64,
    /// The table's fill, published for progress reports.
    pub filled: &'a AtomicU64,
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
}

impl Shared<'_> {
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.halt.load(Ordering::Relaxed)
    }

    /// Publish `pending` nodes of a searcher (its `checks`-th report) and
    /// check the budgets and the stop flag: whether the search must stop.
    pub fn report(&self, pending: u64, checks: u32) -> bool {
        let total = self.nodes.fetch_add(pending, Ordering::Relaxed) + pending;
        if total >= self.max_nodes {
            self.halt.store(true, Ordering::Relaxed);
        }
        if checks.is_multiple_of(8) {
            self.filled.store(self.table.filled(), Ordering::Relaxed);
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.halt.store(true, Ordering::Relaxed);
                }
            }
        }
        self.stopped()
    }
}

/// A searcher's node count between reports to [`Shared`]: nodes are
/// published, and the budgets and the stop flag checked, every 1024.
#[derive(Default)]
pub struct NodeCount {
    pending: u64,
    checks: u32,
    /// A budget ran out or the run was stopped: the search unwinds.
    pub aborted: bool,
}

impl NodeCount {
    /// Count one node.
    #[inline]
    pub fn tick(&mut self, sh: &Shared<'_>) {
        self.pending += 1;
        if self.pending >= 1024 {
            self.flush(sh);
        }
    }

    /// Publish the nodes not yet reported.
    pub fn flush(&mut self, sh: &Shared<'_>) {
        self.checks += 1;
        if sh.report(self.pending, self.checks) {
            self.aborted = true;
        }
        self.pending = 0;
    }

    /// The nodes of every searcher so far, this one's unpublished ones included.
    pub fn nodes(&self, sh: &Shared<'_>) -> u64 {
        sh.nodes.load(Ordering::Relaxed) + self.pending
    }
}

pub struct Searcher<'a, G: Solvable> {
    pub g: G,
    keyer: Keyer,
    sh: &'a Shared<'a>,
    dtm: bool,
    /// History scores per player and action.
    history: [Vec<u32>; 2],
    bufs: Vec<Vec<(u64, Action)>>,
    acts: Vec<Action>,
    /// Nodes counted, reports made, whether the search must unwind.
    pub count: NodeCount,
}

impl<'a, G: Solvable> Searcher<'a, G> {
    pub fn new(g: &G, sh: &'a Shared<'a>, symmetry: bool) -> Self {
        let na = g.num_actions();
        Searcher {
            g: g.clone(),
            keyer: Keyer::new(g, symmetry),
            sh,
            dtm: false,
            history: [vec![0; na], vec![0; na]],
            bufs: Vec::new(),
            acts: Vec::new(),
            count: NodeCount::default(),
        }
    }

    pub fn num_symmetries(&self) -> usize {
        self.keyer.num_symmetries()
    }

    pub fn set_distance_mode(&mut self, on: bool) {
        self.dtm = on;
    }

    /// Count one node; every 1024 nodes publish the count and check the
    /// budgets and the stop flag.
    #[inline]
    fn tick(&mut self) {
        self.count.tick(self.sh);
    }

    pub fn flush(&mut self) {
        self.count.flush(self.sh);
    }

    /// Score of a finished game for the player to move.
    #[inline]
    fn terminal(&self) -> i32 {
        let mover = self.g.to_move();
        let mask = self.g.winner_mask();
        let me = mask >> (mover - 1) & 1 != 0;
        let other = mask >> (2 - mover) & 1 != 0;
        let win = if self.dtm { MATE } else { 1 };
        match (me, other) {
            (true, false) => win,
            (false, true) => -win,
            _ => 0,
        }
    }

    /// The exact score of the current position (full window), or `None` if
    /// the search was interrupted.
    pub fn exact(&mut self) -> Option<i32> {
        let v = self.search(-INF, INF, 0);
        (!self.count.aborted).then_some(v)
    }

    /// Score of the current position within (`alpha`, `beta`) (fail-soft),
    /// `None` if interrupted.
    pub fn window(&mut self, alpha: i32, beta: i32) -> Option<i32> {
        let v = self.search(alpha, beta, 0);
        (!self.count.aborted).then_some(v)
    }

    pub fn search(&mut self, alpha: i32, beta: i32, depth: usize) -> i32 {
        self.tick();
        if self.count.aborted {
            return 0;
        }
        if self.g.is_over() {
            return self.terminal();
        }
        // every score lies within (-top, top): a window outside it is
        // decided, and a score reaching it ends the search of this node
        let top = if self.dtm { MATE } else { 1 };
        if alpha >= top {
            return top;
        }
        if beta <= -top {
            return -top;
        }
        if !self.dtm {
            match self.g.solver_value() {
                Some(Outcome::Win) => return 1,
                Some(Outcome::Loss) => return -1,
                Some(Outcome::Draw) => return 0,
                None => {}
            }
        }
        let mut beta = beta.min(top);
        let mut alpha = alpha.max(-top);
        self.list_actions();
        if self.acts.len() == 1 {
            // a forced action: its position is the one that goes in the table
            let a = self.acts[0];
            return self.child(a, alpha, beta, depth);
        }
        let start_nodes = self.count.nodes(self.sh);
        let mut key = self.keyer.key(&self.g);
        if self.dtm {
            key.side ^= DTM_TAG;
        }
        self.sh.table.prefetch(&key);
        if self.dtm {
            let Some((lo, hi)) = self.value_bounds(&key, alpha, beta, depth) else {
                return 0;
            };
            if lo >= beta {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            // a score known to lie in [lo, hi] is exact when the search
            // finds it within (lo - 1, hi + 1)
            alpha = alpha.max(lo - 1);
            beta = beta.min(hi + 1);
        }
        let me = self.g.to_move();
        let side = (me - 1) & 1;
        // move list, best first: the table's move, then by history score
        if self.bufs.len() <= depth {
            self.bufs.resize_with(depth + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.bufs[depth]);
        list.clear();
        let hist = &self.history[side];
        // history score first, then the hook's order
        for (i, &a) in self.acts.iter().enumerate() {
            list.push((
                (hist[a as usize] as u64) << 32 | (u32::MAX - i as u32) as u64,
                a,
            ));
        }
        if let Some(h) = self.sh.table.probe(&key) {
            let cut = match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
            };
            if cut {
                self.bufs[depth] = list;
                return h.score;
            }
            if let Some(b) = h.best {
                let b = self.keyer.from_canonical(&self.g, key.sym, b);
                if let Some(e) = list.iter_mut().find(|e| e.1 == b) {
                    e.0 = u64::MAX;
                }
            }
        }
        list.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_a = None;
        for i in 0..list.len() {
            let a = list[i].1;
            let v = self.child(a, alpha, beta, depth);
            if self.count.aborted {
                self.bufs[depth] = list;
                return 0;
            }
            if v > best {
                best = v;
                best_a = Some(a);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        let h = &mut self.history[side][a as usize];
                        *h = h.saturating_add(1 + (64 / (depth as u32 + 1)));
                        break;
                    }
                }
            }
        }
        self.bufs[depth] = list;
        if best == -INF {
            // no legal action in an unfinished game: the games never allow
            // it, but a draw is the only reading that cannot mislead
            best = 0;
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let used = self.count.nodes(self.sh) - start_nodes;
        let work = 64 - used.leading_zeros();
        let best_c = best_a.map(|a| self.keyer.to_canonical(&self.g, key.sym, a));
        self.sh.table.store(&key, best, bound, work, best_c);
        best
    }

    /// Bounds on the distance score of the current position (distance key
    /// `key`) from its win / draw / loss value: a win scores at least 1, a
    /// loss at most -1, a draw 0. The value comes from the table, or else
    /// from a value search just wide enough to tell whether the score lies
    /// in (`alpha`, `beta`). `None` if interrupted.
    fn value_bounds(
        &mut self,
        key: &Key,
        alpha: i32,
        beta: i32,
        depth: usize,
    ) -> Option<(i32, i32)> {
        let wdl = Key {
            side: key.side ^ DTM_TAG,
            ..*key
        };
        let (wlo, whi) = match self.sh.table.probe(&wdl) {
            Some(h) => match h.bound {
                Bound::Exact => (h.score, h.score),
                Bound::Lower => (h.score, 1),
                Bound::Upper => (-1, h.score),
            },
            None => {
                let wl = if alpha >= 0 { 0 } else { -1 };
                let wh = if beta <= 0 { 0 } else { 1 };
                self.dtm = false;
                let w = self.search(wl, wh, depth);
                self.dtm = true;
                if self.count.aborted {
                    return None;
                }
                // the search below used the action list: list them again
                self.list_actions();
                if w <= wl {
                    (-1, w)
                } else if w >= wh {
                    (w, 1)
                } else {
                    (w, w)
                }
            }
        };
        Some((dtm_floor(wlo), -dtm_floor(-whi)))
    }

    /// The actions the search looks at in the current position (unfinished),
    /// in `self.acts`: the legal ones, as the game's solver hook cuts and
    /// orders them.
    #[inline]
    fn list_actions(&mut self) {
        self.acts.clear();
        self.g.legal_actions(&mut self.acts);
        self.g.solver_actions(&mut self.acts, !self.dtm);
    }

    /// The score of action `a` for the player to move, within (`alpha`, `beta`).
    #[inline]
    fn child(&mut self, a: Action, alpha: i32, beta: i32, depth: usize) -> i32 {
        let me = self.g.to_move();
        let undo = self.g.apply_action_undoable(a);
        let same = self.g.to_move() == me;
        let shift = self.dtm && !self.g.mid_turn();
        // the child's window, in the child's terms
        let (lo, hi) = if shift {
            (widen(alpha), widen(beta))
        } else {
            (alpha, beta)
        };
        let v = if same {
            self.search(lo, hi, depth + 1)
        } else {
            -self.search(neg(hi), neg(lo), depth + 1)
        };
        self.g.undo_action(undo);
        if shift {
            narrow(v)
        } else {
            v
        }
    }
}

#[inline]
fn neg(x: i32) -> i32 {
    if x == INF {
        -INF
    } else if x == -INF {
        INF
    } else {
        -x
    }
}

/// The least distance score of a position whose win / draw / loss score
/// is at least `wdl`.
#[inline]
fn dtm_floor(wdl: i32) -> i32 {
    match wdl.signum() {
        1 => 1,
        0 => 0,
        _ => -MATE,
    }
}

/// A parent's bound in the child's terms when the action ends a turn: a
/// win (or loss) one ply further away from the parent.
#[inline]
fn widen(x: i32) -> i32 {
    if x == INF || x == -INF {
        x
    } else {
        x + x.signum()
    }
}

/// The child's score one ply further away.
#[inline]
fn narrow(x: i32) -> i32 {
    if x == INF || x == -INF {
        x
    } else {
        x - x.signum()
    }
}
