//! Monte Carlo tree search (UCT) with uniformly random rollouts: the loop,
//! its threads and tree reuse. The tree is the shared arena of
//! [`tree`](super::tree) with UCT's nodes ([`UctTree`]), the selection rule
//! is [`select::uct`], the leaves are valued by the [`RandomRollouts`]
//! evaluator, and the backup is the tree's own ([`Tree::backup`](super::tree::Tree::backup)).
//!
//! The tree is built at the **action** level: one edge per action, so the
//! multi-action turns of Wunchunk and Quintun are searched one action at a
//! time without listing whole moves. A node's chooser is the game's
//! `to_move()`, which stays the same within a turn.
//!
//! * **Selection**: UCB1, `mean + c * sqrt(ln(N) / n)`, where `mean` is the
//!   child's mean value for the player choosing at the parent. Untried
//!   children are tried first, in a random order fixed when the node is
//!   expanded.
//! * **Values** are per seat in `[0, 1]` and backed up max^n style: every
//!   node keeps a value sum per seat. A finished game gives 1 to a sole
//!   winner, `1/k` to each of `k` players sharing the win (a draw, where all
//!   players win, gives every seat `1/num_players`) and 0 to the losers; a
//!   finished game without any winner counts as a draw. A rollout cut off
//!   at `max_rollout_plies` whole moves scores `1/num_players` for every
//!   seat.
//! * **Expansion** is lazy: a node's legal actions are listed (in the
//!   random order they will be tried in) the first time a simulation passes
//!   through it, and the child of an action is made when it is first tried
//!   ([`UctTree`]); once a tree holds `max_nodes` positions (listed actions
//!   included) it stops growing, and simulations continue with rollouts
//!   from the leaves they reach.
//! * **Threads**: root parallelism. Thread `t` grows its own tree with the
//!   generator [`rng_for`]`(seed, t)`; the root statistics are summed. One
//!   thread with a simulation budget (no time budget) is fully deterministic.
//! * **Reuse**: [`Mcts`] keeps its trees between calls; [`Mcts::advance`]
//!   plays a move and keeps the subtree below it. [`search`] is one call of
//!   a fresh [`Mcts`].
//! * **Solver** (MCTS-Solver, Winands, Björnsson and Saito 2008; off by
//!   default, [`SearchOptions::solver`], two-player games only): a finished
//!   game in the tree is a proven win, loss or draw; proofs are backed up
//!   ([`UctTree::prove_up`](super::tree::Tree::prove_up): a node is a win
//!   for its chooser when a child is, and takes its children's best when
//!   all of them are proven); a simulation that reaches a proven node
//!   scores its proven value without going further, selection passes over
//!   children proven a loss for the chooser ([`select::uct_solver`]), a
//!   tree whose root is proven stops searching, and the root choice takes a
//!   proven win when there is one and avoids proven losses while it can.
//!   At the action level a turn of several actions keeps one chooser, so
//!   the proofs are those of whole turns. Without the solver nothing of
//!   this runs, and the results are those of plain UCT.
//!
//! ```
//! use std::sync::Arc;
//! use std::sync::atomic::AtomicBool;
//! use hexcore_core::{Board, Churn, Game};
//! use hexcore_core::search::{search, SearchOptions};
//!
//! let g = Churn::new(Arc::new(Board::hexhex(3).unwrap()), false);
//! let opts = SearchOptions { simulations: Some(200), ..Default::default() };
//! let r = search(&g, &opts, &AtomicBool::new(false)).unwrap();
//! assert_eq!(r.simulations, 200);
//! assert_eq!(r.visits.iter().map(|&v| v as u64).sum::<u64>(), 200);
//! assert_eq!(r.turn, vec![r.best]);
//! ```

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use super::evaluate::{LeafEvaluator, RandomRollouts};
use super::select;
use super::tree::{Proof, UctTree, NONE};
use crate::game::{Action, Game, OptionsError};
use crate::outcome::MAX_SEATS;
use crate::parallel::install;
use crate::rng::{below, rng_for};
use crate::solve::Outcome;

/// Budgets and parameters of [`search`].
#[derive(Debug, Clone)]
pub struct SearchOptions {
    /// Total simulations over all threads (`None`: no simulation budget).
    pub simulations: Option<u64>,
    /// Wall-clock budget in seconds (`None`: no time budget).
    pub seconds: Option<f64>,
    /// Independent trees, one per thread (`1..=MAX_THREADS`).
    pub threads: usize,
    pub seed: u64,
    /// UCB1 exploration constant.
    pub c: f64,
    /// Whole moves a rollout plays before it is scored as a draw.
    pub max_rollout_plies: u64,
    /// Node limit over all trees (shared out equally among the threads),
    /// counting every listed legal action of an expanded node as a node,
    /// tried or not: an untried one takes 4 bytes and a tried one 44, so
    /// the default 10 million is at most 40 MB plus 40 bytes a simulation.
    /// The root's children are always listed.
    pub max_nodes: usize,
    /// Use proven values in the trees (MCTS-Solver, see the module
    /// documentation); two-player games only.
    pub solver: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            simulations: None,
            seconds: None,
            threads: 1,
            seed: 0,
            c: std::f64::consts::SQRT_2,
            max_rollout_plies: 1000,
            max_nodes: 10_000_000,
            solver: false,
        }
    }
}

/// Why a search did not run.
#[derive(Debug, Clone, PartialEq)]
pub enum SearchError {
    /// The position is finished (no legal action).
    GameOver,
    /// Neither a simulation nor a time budget.
    NoBudget,
    /// An argument out of range.
    Invalid(OptionsError),
    /// The game has this many players (the search handles 1 to
    /// [`MAX_SEATS`]).
    Players(usize),
    /// The worker threads could not be started.
    Threads(String),
    /// The stop flag was raised.
    Cancelled,
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::GameOver => f.write_str("the game is over; there is nothing to search"),
            SearchError::NoBudget => f.write_str("give a budget: simulations, seconds or both"),
            SearchError::Invalid(e) => write!(f, "{e}"),
            SearchError::Players(n) => write!(
                f,
                "search handles 1 to {MAX_SEATS} players, this game has {n}"
            ),
            SearchError::Threads(m) => f.write_str(m),
            SearchError::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for SearchError {}

/// What a search found, for the player to move at the root.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// Simulations through each action (length `num_actions()`), summed over
    /// the trees; 0 for illegal actions.
    pub visits: Vec<u32>,
    /// Mean value in `[0, 1]` of each action for the root player (0 where
    /// not visited).
    pub values: Vec<f32>,
    /// The most visited action (ties: higher value, then lower id).
    pub best: Action,
    /// Principal variation: from the root, the most visited action at each
    /// level (statistics summed over the trees), while any is visited.
    pub pv: Vec<Action>,
    /// The root player's whole turn: the principal variation while the turn
    /// is in progress, completed with seeded random legal actions if the
    /// tree is too shallow. Apply it to the root with `play_move`.
    pub turn: Vec<Action>,
    pub simulations: u64,
    pub seconds: f64,
    /// Nodes in all trees.
    pub nodes: usize,
    /// With the solver: the root's proven value for the player to move, if
    /// a tree proved it or the root actions' proofs settle it (`None`
    /// without the solver).
    pub proven: Option<Outcome>,
    /// With the solver: the root actions proven in any tree, with their
    /// values for the player to move, by increasing action (for a turn of
    /// several actions, the value of the best turn starting with the
    /// action); empty without the solver.
    pub proven_actions: Vec<(Action, Outcome)>,
}

/// The slots ([`UctTree`]) a tree reserves when it is made, at most: the
/// memory of a tree that reaches the default node limit (10 million,
/// [`SearchOptions::max_nodes`]) on one thread, 4 bytes a slot, so that it
/// does not grow by copying (the system gives the pages as they are
/// written; more slots grow the arena by doubling).
const RESERVED_SLOTS: usize = 1 << 24;

/// One UCT tree: the shared arena with UCT's nodes, and its node limit.
struct UctSearch {
    tree: UctTree,
    max_nodes: usize,
}

impl UctSearch {
    /// Expand `node` with the legal actions of `g` in a random order (the
    /// order they are tried in), if there is room. Returns false when the
    /// tree is full.
    fn expand<G: Game>(
        &mut self,
        node: u32,
        g: &G,
        rng: &mut Xoshiro256PlusPlus,
        buf: &mut Vec<Action>,
    ) -> bool {
        buf.clear();
        g.legal_actions(buf);
        if self.tree.size() + buf.len() > self.max_nodes && node != 0 {
            return false;
        }
        for i in (1..buf.len()).rev() {
            buf.swap(i, below(rng, i + 1));
        }
        self.tree.expand(node, buf, self.max_nodes)
    }

    /// One simulation from `root`: select (UCT), expand one node, evaluate
    /// the leaf (a rollout), back up. With `SOLVER` (the root not proven):
    /// a finished game reached is proven, a proven node reached is the leaf
    /// and scores its proven value, and a new proof is backed up; `seats`
    /// gets the chooser of each node of the path but the last.
    #[allow(clippy::too_many_arguments)]
    fn simulate<G: Game, L: LeafEvaluator<G>, const SOLVER: bool>(
        &mut self,
        root: &G,
        c: f32,
        leaf: &mut L,
        rng: &mut Xoshiro256PlusPlus,
        path: &mut Vec<u32>,
        seats: &mut Vec<u8>,
        buf: &mut Vec<Action>,
    ) {
        let mut g = root.clone();
        path.clear();
        path.push(0);
        seats.clear();
        let mut node = 0u32;
        // The leaf's proof, and whether this simulation made it.
        let mut proven: Option<Proof> = None;
        let mut fresh = false;
        loop {
            if SOLVER {
                if let Some(p) = self.tree.nodes[node as usize].proof() {
                    proven = Some(p);
                    break;
                }
            }
            if self.tree.nodes[node as usize].edges == NONE && !self.expand(node, &g, rng, buf) {
                break;
            }
            let n = &self.tree.nodes[node as usize];
            if n.len == 0 {
                if SOLVER {
                    let p = Proof::of_finished(g.winner_mask());
                    self.tree.nodes[node as usize].prove(p);
                    (proven, fresh) = (Some(p), true);
                }
                break;
            }
            let untried = n.tried < n.len;
            let seat = g.to_move() - 1;
            if SOLVER {
                seats.push(seat as u8);
            }
            if untried {
                let child = self.tree.try_next(node);
                g.apply_action(self.tree.nodes[child as usize].action);
                path.push(child);
                if SOLVER && g.is_over() {
                    let p = Proof::of_finished(g.winner_mask());
                    self.tree.nodes[child as usize].prove(p);
                    (proven, fresh) = (Some(p), true);
                }
                break;
            }
            let i = if SOLVER {
                select::uct_solver(&self.tree, node, seat, c)
            } else {
                select::uct(&self.tree, node, seat, c)
            };
            let child = self.tree.children(node)[i];
            g.apply_action(self.tree.nodes[child as usize].action);
            path.push(child);
            node = child;
        }
        let v = match proven {
            Some(p) if SOLVER => p.scores(g.num_players()),
            _ => leaf.evaluate(&mut g, rng, buf),
        };
        self.tree.visit_backup(path, &v.map(|x| x as f32));
        if SOLVER && fresh {
            self.tree.prove_up(path, seats);
        }
    }

    /// Keep only the subtree below `node` (or nothing but a fresh root for
    /// `None`), with `node` as the new root.
    fn reroot(&mut self, node: Option<u32>) {
        self.tree.reroot(node);
        // The kept node's first simulation ended at it (a rollout from it,
        // before it had children): it is no root action's, so drop it and
        // count at the new root exactly what its children hold, as a fresh
        // root does (then the root visits equal the sum of `visits`).
        let (mut visits, mut value) = (0u32, [0.0f32; MAX_SEATS]);
        for &child in self.tree.children(0) {
            let ch = &self.tree.nodes[child as usize];
            visits = visits.saturating_add(ch.n);
            for (s, x) in value.iter_mut().zip(ch.w) {
                *s += x;
            }
        }
        let root = &mut self.tree.nodes[0];
        root.n = visits;
        root.w = value;
    }
}

/// Children statistics of the node reached by `path` from the roots,
/// summed over the trees: `(action, visits, value sum for seat)`.
fn merged(trees: &[&UctTree], path: &[Action], seat: usize) -> Vec<(Action, u64, f64)> {
    let mut out: Vec<(Action, u64, f64)> = Vec::new();
    for t in trees {
        let Some(n) = t.find_path(path) else { continue };
        for &child in t.children(n) {
            let ch = &t.nodes[child as usize];
            if ch.n == 0 {
                continue;
            }
            match out.iter_mut().find(|x| x.0 == ch.action) {
                Some(x) => {
                    x.1 += ch.n as u64;
                    x.2 += ch.w[seat] as f64;
                }
                None => out.push((ch.action, ch.n as u64, ch.w[seat] as f64)),
            }
        }
    }
    out
}

/// The most visited entry (ties: higher value sum, then lower action).
fn most_visited(stats: &[(Action, u64, f64)]) -> Option<(Action, u64, f64)> {
    stats.iter().copied().max_by(|a, b| {
        a.1.cmp(&b.1)
            .then(a.2.partial_cmp(&b.2).unwrap_or(std::cmp::Ordering::Equal))
            .then(b.0.cmp(&a.0))
    })
}

/// The proofs of the children of the node reached by `path` from the
/// roots, from every tree that has one (they are exact, so the trees agree).
fn merged_proofs(trees: &[&UctTree], path: &[Action]) -> Vec<(Action, Proof)> {
    let mut out: Vec<(Action, Proof)> = Vec::new();
    for t in trees {
        let Some(n) = t.find_path(path) else { continue };
        for &child in t.children(n) {
            let ch = &t.nodes[child as usize];
            if let Some(p) = ch.proof() {
                if !out.iter().any(|x| x.0 == ch.action) {
                    out.push((ch.action, p));
                }
            }
        }
    }
    out
}

/// The solver's choice for `seat` among `stats` ([`merged`]), given the
/// children's `proofs`: the most visited proven win, else the most visited
/// action not proven a loss, else the most visited.
fn solver_choice(
    stats: &[(Action, u64, f64)],
    proofs: &[(Action, Proof)],
    seat: usize,
) -> Option<(Action, u64, f64)> {
    let outcome = |a: Action| proofs.iter().find(|x| x.0 == a).map(|x| x.1.outcome(seat));
    let wins: Vec<_> = stats
        .iter()
        .copied()
        .filter(|x| outcome(x.0) == Some(Outcome::Win))
        .collect();
    if let Some(best) = most_visited(&wins) {
        return Some(best);
    }
    let open: Vec<_> = stats
        .iter()
        .copied()
        .filter(|x| outcome(x.0) != Some(Outcome::Loss))
        .collect();
    most_visited(&open).or_else(|| most_visited(stats))
}

/// Budget checks shared by [`search`] and [`Mcts::search`].
fn check_budget(simulations: Option<u64>, seconds: Option<f64>) -> Result<(), SearchError> {
    if simulations.is_none() && seconds.is_none() {
        return Err(SearchError::NoBudget);
    }
    if let Some(s) = simulations {
        crate::limits::search_simulations(s).map_err(SearchError::Invalid)?;
    }
    if let Some(s) = seconds {
        if !(s.is_finite() && s > 0.0) {
            return Err(SearchError::Invalid(OptionsError::new(
                "seconds",
                format!("seconds must be a positive number, got {s}"),
            )));
        }
    }
    Ok(())
}

fn check_players(players: usize) -> Result<(), SearchError> {
    if players == 0 || players > MAX_SEATS {
        return Err(SearchError::Players(players));
    }
    Ok(())
}

/// One tree of a [`Mcts`] with its own random generator.
struct Worker {
    search: UctSearch,
    rng: Xoshiro256PlusPlus,
}

impl Worker {
    /// Run simulations from `root` until `sims` are done, `deadline` has
    /// passed or `stop` is raised.
    fn grow<G: Game>(
        &mut self,
        root: &G,
        opts: &SearchOptions,
        sims: Option<u64>,
        start: Instant,
        stop: &AtomicBool,
    ) -> (u64, bool) {
        if opts.solver {
            self.grow_with::<G, true>(root, opts, sims, start, stop)
        } else {
            self.grow_with::<G, false>(root, opts, sims, start, stop)
        }
    }

    /// [`Worker::grow`] with the solver on or off (a tree whose root is
    /// proven stops at once).
    fn grow_with<G: Game, const SOLVER: bool>(
        &mut self,
        root: &G,
        opts: &SearchOptions,
        sims: Option<u64>,
        start: Instant,
        stop: &AtomicBool,
    ) -> (u64, bool) {
        let mut path = Vec::new();
        let mut seats = Vec::new();
        let mut buf = Vec::new();
        let mut done = 0u64;
        let mut rollouts = RandomRollouts {
            max_plies: opts.max_rollout_plies,
        };
        let c = opts.c as f32;
        loop {
            if sims.is_some_and(|s| done >= s) {
                break;
            }
            if stop.load(Ordering::Relaxed) {
                return (done, true);
            }
            // A time budget ends the search after at least one simulation
            // per tree, so the move returned always comes from the search.
            if let Some(t) = opts.seconds {
                if done > 0 && start.elapsed().as_secs_f64() >= t {
                    break;
                }
            }
            if SOLVER && self.search.tree.nodes[0].proof().is_some() {
                break;
            }
            self.search.simulate::<G, _, SOLVER>(
                root,
                c,
                &mut rollouts,
                &mut self.rng,
                &mut path,
                &mut seats,
                &mut buf,
            );
            done += 1;
        }
        (done, false)
    }
}

/// A search that keeps its trees from one call to the next, for bots that
/// play a whole game: [`Mcts::search`] adds simulations to the trees and
/// [`Mcts::advance`] plays a move on the root position and keeps the
/// subtree below it (the rest of the tree is dropped and the arena
/// compacted). With `threads` trees (root parallelism) each tree is kept
/// and advanced on its own. [`search`] is one call of a fresh `Mcts`.
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::AtomicBool;
/// use hexcore_core::{Board, Churn, Game};
/// use hexcore_core::search::{Mcts, SearchOptions};
///
/// let g = Churn::new(Arc::new(Board::hexhex(3).unwrap()), false);
/// let mut m = Mcts::new(g, &SearchOptions::default()).unwrap();
/// let r = m.search(Some(300), None, &AtomicBool::new(false)).unwrap();
/// let kept = r.visits[r.best as usize] as u64;
/// m.advance(&r.turn);
/// // the one simulation that ended at the kept node, before it had children, is dropped
/// assert_eq!(m.root_visits(), kept - 1);
/// ```
pub struct Mcts<G: Game> {
    root: G,
    opts: SearchOptions,
    workers: Vec<Worker>,
}

impl<G: Game> Mcts<G> {
    /// A search of `root` with the parameters of `opts` (its budgets are
    /// not used: give them to [`Mcts::search`]). Fails on out-of-range
    /// parameters.
    pub fn new(root: G, opts: &SearchOptions) -> Result<Self, SearchError> {
        check_players(root.num_players())?;
        if opts.solver && root.num_players() != 2 {
            let n = root.num_players();
            return Err(SearchError::Invalid(OptionsError::new(
                "solver",
                format!("solver applies to two-player games, this game has {n} players"),
            )));
        }
        if !(opts.c.is_finite() && opts.c >= 0.0) {
            return Err(SearchError::Invalid(OptionsError::new(
                "c",
                format!("c must be a finite number >= 0, got {}", opts.c),
            )));
        }
        crate::limits::threads(Some(opts.threads)).map_err(SearchError::Invalid)?;
        crate::limits::tree_nodes(opts.max_nodes).map_err(SearchError::Invalid)?;
        let t = opts.threads;
        let per_tree_nodes = (opts.max_nodes / t).max(1);
        let workers = (0..t)
            .map(|i| {
                let tree = UctTree::with_room(per_tree_nodes.min(RESERVED_SLOTS));
                Worker {
                    search: UctSearch {
                        tree,
                        max_nodes: per_tree_nodes,
                    },
                    rng: rng_for(opts.seed, i as u64),
                }
            })
            .collect();
        Ok(Mcts {
            root,
            opts: SearchOptions {
                simulations: None,
                seconds: None,
                ..opts.clone()
            },
            workers,
        })
    }

    /// The root position.
    pub fn game(&self) -> &G {
        &self.root
    }

    /// Nodes in all trees.
    pub fn nodes(&self) -> usize {
        self.workers.iter().map(|w| w.search.tree.size()).sum()
    }

    /// Simulations through the root, summed over the trees (those of
    /// earlier calls kept by [`Mcts::advance`] included).
    pub fn root_visits(&self) -> u64 {
        self.workers
            .iter()
            .map(|w| w.search.tree.nodes[0].n as u64)
            .sum()
    }

    /// Add `simulations` (total over the threads) and/or `seconds` of
    /// simulations to the trees and report the root statistics, which
    /// count every simulation in the trees (`SearchResult::simulations`
    /// counts this call's). Fails on a finished position or without a
    /// budget; when `stop` is raised the simulations done so far stay in
    /// the trees and `Cancelled` is returned.
    pub fn search(
        &mut self,
        simulations: Option<u64>,
        seconds: Option<f64>,
        stop: &AtomicBool,
    ) -> Result<SearchResult, SearchError> {
        let start = Instant::now();
        check_budget(simulations, seconds)?;
        let root = &self.root;
        let mut buf = Vec::new();
        root.legal_actions(&mut buf);
        if buf.is_empty() || (root.is_over() && !root.mid_turn()) {
            return Err(SearchError::GameOver);
        }
        let opts = SearchOptions {
            simulations,
            seconds,
            ..self.opts.clone()
        };
        let t = self.workers.len();
        let share =
            |i: usize| simulations.map(|s| s / t as u64 + u64::from((i as u64) < s % t as u64));
        let runs: Vec<(u64, bool)> = if t == 1 {
            vec![self.workers[0].grow(root, &opts, share(0), start, stop)]
        } else {
            let workers = &mut self.workers;
            install(t, || {
                workers
                    .par_iter_mut()
                    .enumerate()
                    .map(|(i, w)| w.grow(root, &opts, share(i), start, stop))
                    .collect::<Vec<_>>()
            })
            .map_err(|e| SearchError::Threads(e.to_string()))?
        };
        if runs.iter().any(|r| r.1) {
            return Err(SearchError::Cancelled);
        }
        let simulations = runs.iter().map(|x| x.0).sum();
        let trees: Vec<&UctTree> = self.workers.iter().map(|w| &w.search.tree).collect();
        let seat = root.to_move() - 1;

        let n = root.num_actions();
        let mut visits = vec![0u32; n];
        let mut values = vec![0f32; n];
        let root_stats = merged(&trees, &[], seat);
        for &(a, v, s) in &root_stats {
            visits[a as usize] = v.min(u32::MAX as u64) as u32;
            values[a as usize] = (s / v as f64) as f32;
        }
        let solver = self.opts.solver;
        let proofs = if solver {
            merged_proofs(&trees, &[])
        } else {
            Vec::new()
        };
        // Every tree runs at least one simulation (or, with the solver, has
        // proved the root, so it has visited a child), so the root has a
        // visited action; the legal-action fallback is only a guard.
        let choice = if solver {
            solver_choice(&root_stats, &proofs, seat)
        } else {
            most_visited(&root_stats)
        };
        let best = choice.map(|e| e.0).unwrap_or(buf[0]);

        let mut pv = vec![best];
        if solver {
            // The solver's choice at every level (within a turn, the
            // proven best continuation).
            let mut at = root.clone();
            at.apply_action(best);
            loop {
                let seat = at.to_move() - 1;
                let stats = merged(&trees, &pv, seat);
                let Some((a, _, _)) = solver_choice(&stats, &merged_proofs(&trees, &pv), seat)
                else {
                    break;
                };
                pv.push(a);
                at.apply_action(a);
            }
        } else {
            loop {
                let stats = merged(&trees, &pv, 0);
                let Some((a, _, _)) = most_visited(&stats) else {
                    break;
                };
                pv.push(a);
            }
        }
        let (proven, proven_actions) = if solver {
            root_proofs(&trees, &proofs, &buf, seat)
        } else {
            (None, Vec::new())
        };

        let mut g = root.clone();
        let mut turn = Vec::new();
        let mut rng = rng_for(self.opts.seed, u64::MAX);
        for &a in &pv {
            g.apply_action(a);
            turn.push(a);
            if !g.mid_turn() {
                break;
            }
        }
        while g.mid_turn() {
            let Some(a) = g.random_action(&mut rng, &mut buf) else {
                break;
            };
            g.apply_action(a);
            turn.push(a);
        }

        Ok(SearchResult {
            visits,
            values,
            best,
            pv,
            turn,
            simulations,
            seconds: start.elapsed().as_secs_f64(),
            nodes: self.nodes(),
            proven,
            proven_actions,
        })
    }

    /// Play the actions `turn` (legal from the root, checked by the caller)
    /// on the root position and keep, in every tree, the subtree reached by
    /// them as the new root (a fresh root where the tree does not reach
    /// that far).
    pub fn advance(&mut self, turn: &[Action]) {
        for w in &mut self.workers {
            let node = w.search.tree.find_path(turn);
            w.search.reroot(node);
        }
        self.root.play_move(turn);
    }
}

/// The root's proven value for `seat` (the player to move) and its proven
/// actions' values, by increasing action, from the trees and the root
/// actions' `proofs` ([`merged_proofs`]); `legal` are the root's actions.
fn root_proofs(
    trees: &[&UctTree],
    proofs: &[(Action, Proof)],
    legal: &[Action],
    seat: usize,
) -> (Option<Outcome>, Vec<(Action, Outcome)>) {
    let mut actions: Vec<(Action, Outcome)> =
        proofs.iter().map(|&(a, p)| (a, p.outcome(seat))).collect();
    actions.sort_unstable_by_key(|x| x.0);
    let from_tree = trees
        .iter()
        .find_map(|t| t.nodes[0].proof())
        .map(|p| p.outcome(seat));
    let from_actions = if actions.iter().any(|x| x.1 == Outcome::Win) {
        Some(Outcome::Win)
    } else if actions.len() == legal.len() {
        actions.iter().map(|x| x.1).max_by_key(|o| match o {
            Outcome::Loss => 0,
            Outcome::Draw => 1,
            Outcome::Win => 2,
        })
    } else {
        None
    };
    (from_tree.or(from_actions), actions)
}

/// Search `root` with UCT (see the module documentation). Fails on a
/// finished position, without a budget, with out-of-range options, or when
/// `stop` is raised.
pub fn search<G: Game>(
    root: &G,
    opts: &SearchOptions,
    stop: &AtomicBool,
) -> Result<SearchResult, SearchError> {
    check_players(root.num_players())?;
    check_budget(opts.simulations, opts.seconds)?;
    Mcts::new(root.clone(), opts)?.search(opts.simulations, opts.seconds, stop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::immediate_win;
    use crate::{
        Board, Churn, Quintun, QuintunPlacement, Wunchunk, WunchunkBalance, WunchunkStart,
    };
    use std::sync::Arc;

    fn sims(n: u64) -> SearchOptions {
        SearchOptions {
            simulations: Some(n),
            ..Default::default()
        }
    }

    fn never() -> AtomicBool {
        AtomicBool::new(false)
    }

    #[test]
    fn nodes_are_small() {
        // An untried child costs its slot (4 bytes); a tried one its node too.
        assert_eq!(std::mem::size_of::<super::super::tree::UctNode>(), 40);
    }

    #[test]
    fn one_thread_is_deterministic() {
        let g = Quintun::new(4, QuintunPlacement::Side, true).unwrap();
        let a = search(
            &g,
            &SearchOptions {
                seed: 5,
                ..sims(500)
            },
            &never(),
        )
        .unwrap();
        let b = search(
            &g,
            &SearchOptions {
                seed: 5,
                ..sims(500)
            },
            &never(),
        )
        .unwrap();
        assert_eq!(a.visits, b.visits);
        assert_eq!(a.values, b.values);
        assert_eq!(a.pv, b.pv);
        assert_eq!(a.simulations, 500);
        let c = search(
            &g,
            &SearchOptions {
                seed: 6,
                ..sims(500)
            },
            &never(),
        )
        .unwrap();
        assert_ne!(a.visits, c.visits);
    }

    #[test]
    fn threads_share_the_budget() {
        let g = Churn::new(Arc::new(Board::hexhex(3).unwrap()), true);
        let r = search(
            &g,
            &SearchOptions {
                threads: 3,
                ..sims(301)
            },
            &never(),
        )
        .unwrap();
        assert_eq!(r.simulations, 301);
        assert_eq!(r.visits.iter().map(|&v| v as u64).sum::<u64>(), 301);
    }

    /// A position whose turns are single actions, with an action that wins
    /// at once and others that do not (see [`immediate_win`]): search must
    /// pick a winning action there. Returns whether one was found.
    fn one_move_win<G: Game>(start: &G, seed: u64) -> bool {
        let Some((g, _, wins)) = immediate_win(start, seed, 4, true) else {
            return false;
        };
        let r = search(&g, &sims(3000), &never()).unwrap();
        assert!(
            wins.contains(&r.best),
            "seed {seed}: {} is not a win in\n{}",
            g.action_to_string(r.best),
            g.diagram()
        );
        true
    }

    #[test]
    fn finds_a_one_move_win() {
        let q = Quintun::new(4, QuintunPlacement::Side, true).unwrap();
        let w = Wunchunk::new(6, 2, WunchunkStart::Standard, WunchunkBalance::Ap).unwrap();
        let c = Churn::new(Arc::new(Board::hexhex(3).unwrap()), false);
        let mut found = 0;
        for seed in 0..30u64 {
            found += one_move_win(&q, seed) as usize;
            found += one_move_win(&w, seed) as usize;
            found += one_move_win(&c, seed) as usize;
        }
        assert!(found >= 5, "only {found} positions with a one-move win");
    }

    #[test]
    fn three_player_wunchunk_runs_and_turns_are_whole() {
        let mut g = Wunchunk::new(7, 3, WunchunkStart::Standard, WunchunkBalance::Ap).unwrap();
        let mut rng = rng_for(1, 0);
        let mut buf = Vec::new();
        for _ in 0..6 {
            let r = search(&g, &sims(300), &never()).unwrap();
            assert_eq!(r.simulations, 300);
            assert!(r.values.iter().all(|v| (0.0..=1.0).contains(v)));
            let mut h = g.clone();
            h.play_move(&r.turn);
            assert!(!h.mid_turn());
            assert_eq!(r.turn[0], r.best);
            let text = g.format_move(&r.turn);
            assert_eq!(g.parse_move(&text).unwrap().as_slice(), r.turn.as_slice());
            // Advance by a random whole move.
            loop {
                let a = g.random_action(&mut rng, &mut buf).unwrap();
                g.apply_action(a);
                if !g.mid_turn() {
                    break;
                }
            }
        }
    }

    #[test]
    fn errors_and_limits() {
        let g = Churn::new(Arc::new(Board::hexhex(2).unwrap()), false);
        let stop = AtomicBool::new(true);
        assert_eq!(search(&g, &sims(10), &stop), Err(SearchError::Cancelled));
        assert_eq!(
            search(&g, &SearchOptions::default(), &never()),
            Err(SearchError::NoBudget)
        );
        assert!(matches!(
            search(&g, &sims(0), &never()),
            Err(SearchError::Invalid(_))
        ));
        assert!(matches!(
            search(
                &g,
                &SearchOptions {
                    c: f64::NAN,
                    ..sims(1)
                },
                &never()
            ),
            Err(SearchError::Invalid(_))
        ));
        assert!(matches!(
            search(
                &g,
                &SearchOptions {
                    threads: 0,
                    ..sims(1)
                },
                &never()
            ),
            Err(SearchError::Invalid(_))
        ));
        // A tiny node limit: the root is still expanded, the rest are rollouts.
        let r = search(
            &g,
            &SearchOptions {
                max_nodes: 3,
                ..sims(100)
            },
            &never(),
        )
        .unwrap();
        assert_eq!(r.simulations, 100);
        assert_eq!(r.nodes, 1 + 7);
        // Cut-off rollouts score a draw.
        let r = search(
            &g,
            &SearchOptions {
                max_rollout_plies: 0,
                ..sims(50)
            },
            &never(),
        )
        .unwrap();
        assert_eq!(r.simulations, 50);
        // A finished game.
        let mut h = g.clone();
        let mut rng = rng_for(0, 0);
        let mut buf = Vec::new();
        while let Some(a) = h.random_action(&mut rng, &mut buf) {
            h.apply_action(a);
        }
        assert_eq!(search(&h, &sims(10), &never()), Err(SearchError::GameOver));
        // A time budget alone.
        let r = search(
            &g,
            &SearchOptions {
                seconds: Some(0.05),
                ..Default::default()
            },
            &never(),
        )
        .unwrap();
        assert!(r.simulations > 0);
    }

    #[test]
    fn reuse_keeps_the_subtree() {
        let g = Wunchunk::new(6, 2, WunchunkStart::Standard, WunchunkBalance::Ap).unwrap();
        let mut m = Mcts::new(
            g.clone(),
            &SearchOptions {
                seed: 3,
                ..Default::default()
            },
        )
        .unwrap();
        let r = m.search(Some(2000), None, &never()).unwrap();
        // The same as a one-off search.
        assert_eq!(
            r,
            SearchResult {
                seconds: r.seconds,
                ..search(
                    &g,
                    &SearchOptions {
                        seed: 3,
                        ..sims(2000)
                    },
                    &never()
                )
                .unwrap()
            }
        );
        assert_eq!(m.root_visits(), 2000);
        // The subtree below the first action, then below the whole turn.
        let first = r.visits[r.best as usize] as u64;
        let mut one = Mcts::new(
            g.clone(),
            &SearchOptions {
                seed: 3,
                ..Default::default()
            },
        )
        .unwrap();
        one.search(Some(2000), None, &never()).unwrap();
        one.advance(&r.turn[..1]);
        assert_eq!(one.root_visits(), first - 1);
        let before = m.nodes();
        m.advance(&r.turn);
        assert!(m.nodes() < before);
        let mut h = g.clone();
        h.play_move(&r.turn);
        assert_eq!(m.game().to_move(), h.to_move());
        let kept = m.root_visits();
        let r2 = m.search(Some(500), None, &never()).unwrap();
        assert_eq!(r2.simulations, 500);
        assert_eq!(m.root_visits(), kept + 500);
        assert_eq!(
            r2.visits.iter().map(|&v| v as u64).sum::<u64>(),
            m.root_visits()
        );
        // A move the tree does not know starts a fresh tree.
        let mut acts = Vec::new();
        m.game().legal_actions(&mut acts);
        let unvisited = acts.iter().copied().find(|&a| r2.visits[a as usize] == 0);
        if let Some(a) = unvisited {
            let mut mv = vec![a];
            let mut h = m.game().clone();
            h.apply_action(a);
            let mut rng = rng_for(0, 0);
            let mut buf = Vec::new();
            while h.mid_turn() {
                let b = h.random_action(&mut rng, &mut buf).unwrap();
                h.apply_action(b);
                mv.push(b);
            }
            m.advance(&mv);
            assert_eq!(m.nodes(), 1);
            assert_eq!(m.root_visits(), 0);
        }
    }

    /// The solver's proven root value and proven root actions agree with
    /// the exact solver, and a proven win is chosen.
    fn solver_agrees<G: Game + crate::solve::Solvable>(
        g: &G,
        simulations: u64,
        threads: usize,
    ) -> SearchResult {
        use crate::solve::{solve, Monitor, SolveOptions};
        let exact = solve(
            g,
            &SolveOptions {
                threads: 1,
                ..SolveOptions::default()
            },
            &Monitor::default(),
        )
        .unwrap();
        assert!(exact.complete);
        let r = search(
            g,
            &SearchOptions {
                solver: true,
                threads,
                seed: 1,
                ..sims(simulations)
            },
            &never(),
        )
        .unwrap();
        let rank = |o: &Outcome| {
            [Outcome::Loss, Outcome::Draw, Outcome::Win]
                .iter()
                .position(|x| x == o)
        };
        for &(a, o) in &r.proven_actions {
            // The best of the whole moves that start with `a`.
            let starting = exact.moves.iter().filter(|m| m.actions.first() == Some(&a));
            let best = starting.map(|m| m.value.unwrap()).max_by_key(rank);
            assert_eq!(Some(o), best, "{}", g.action_to_string(a));
        }
        if let Some(v) = r.proven {
            assert_eq!(Some(v), exact.value);
        }
        if r.proven == Some(Outcome::Win) || r.proven_actions.iter().any(|x| x.1 == Outcome::Win) {
            let chosen = exact
                .moves
                .iter()
                .find(|m| m.actions.as_slice() == r.turn.as_slice())
                .unwrap();
            assert_eq!(chosen.value, Some(Outcome::Win));
        }
        r
    }

    #[test]
    fn solver_proves_small_games_as_the_solver_does() {
        let churn = Churn::new(Arc::new(Board::hexhex(2).unwrap()), false);
        let r = solver_agrees(&churn, 20_000, 1);
        assert_eq!(r.proven, Some(Outcome::Win));
        assert!(
            r.simulations < 20_000,
            "the search stops once the root is proven"
        );
        let hex = crate::Hex::new(3, 3, false).unwrap();
        let r = solver_agrees(&hex, 200_000, 1);
        assert_eq!(r.proven, Some(Outcome::Win));
        solver_agrees(&hex, 300, 2);
        solver_agrees(&crate::Hex::new(3, 3, true).unwrap(), 20_000, 1);
        // Quintun (turns of several actions) from a position late enough
        // to solve at once.
        use crate::solve::{solve, Monitor, SolveOptions};
        let mut q = Quintun::new(4, QuintunPlacement::Side, false).unwrap();
        let mut rng = rng_for(4, 0);
        let mut buf = Vec::new();
        let quick = SolveOptions {
            threads: 1,
            max_nodes: Some(50_000),
            ..SolveOptions::default()
        };
        while !solve(&q, &quick, &Monitor::default()).unwrap().complete {
            let a = q.random_action(&mut rng, &mut buf).unwrap();
            q.apply_action(a);
            while q.mid_turn() {
                let a = q.random_action(&mut rng, &mut buf).unwrap();
                q.apply_action(a);
            }
        }
        let r = solver_agrees(&q, 100_000, 1);
        assert!(r.proven.is_some());
    }

    #[test]
    fn solver_keeps_proofs_across_advance_and_checks_players() {
        let g = crate::Hex::new(3, 3, false).unwrap();
        let mut m = Mcts::new(
            g.clone(),
            &SearchOptions {
                solver: true,
                seed: 2,
                ..Default::default()
            },
        )
        .unwrap();
        let r = m.search(Some(200_000), None, &never()).unwrap();
        assert_eq!(r.proven, Some(Outcome::Win));
        // A proven root searches no more.
        let again = m.search(Some(100), None, &never()).unwrap();
        assert_eq!(
            (again.simulations, again.best, again.proven),
            (0, r.best, r.proven)
        );
        m.advance(&r.turn);
        let after = m.search(Some(10), None, &never()).unwrap();
        assert_eq!(after.proven, Some(Outcome::Loss));
        assert!(after.proven_actions.iter().all(|x| x.1 == Outcome::Loss));
        // Off by default, and the results of plain UCT.
        let plain = search(&g, &sims(500), &never()).unwrap();
        assert_eq!((plain.proven, plain.proven_actions.len()), (None, 0));
        assert_eq!(
            plain,
            search(
                &g,
                &SearchOptions {
                    solver: false,
                    ..sims(500)
                },
                &never()
            )
            .unwrap()
            .with_seconds(plain.seconds)
        );
        let three = Wunchunk::new(7, 3, WunchunkStart::Standard, WunchunkBalance::Ap).unwrap();
        assert!(matches!(
            search(
                &three,
                &SearchOptions {
                    solver: true,
                    ..sims(10)
                },
                &never()
            ),
            Err(SearchError::Invalid(_))
        ));
    }

    impl SearchResult {
        fn with_seconds(self, seconds: f64) -> SearchResult {
            SearchResult { seconds, ..self }
        }
    }

    #[test]
    fn reuse_with_threads_and_determinism() {
        let g = Churn::new(Arc::new(Board::hexhex(3).unwrap()), true);
        let run = |threads: usize| {
            let mut m = Mcts::new(
                g.clone(),
                &SearchOptions {
                    threads,
                    seed: 9,
                    ..Default::default()
                },
            )
            .unwrap();
            let mut out = Vec::new();
            for _ in 0..3 {
                let r = m.search(Some(400), None, &never()).unwrap();
                let kept = r.visits[r.best as usize] as u64;
                m.advance(&r.turn);
                // each tree that reached the move drops the simulation that ended there
                assert!(m.root_visits() < kept && kept - m.root_visits() <= threads as u64);
                out.push(r.visits);
                if m.game().is_over() {
                    break;
                }
            }
            out
        };
        assert_eq!(run(1), run(1));
        run(3);
        let mut over = g.clone();
        let mut rng = rng_for(0, 0);
        let mut buf = Vec::new();
        while let Some(a) = over.random_action(&mut rng, &mut buf) {
            over.apply_action(a);
        }
        let mut m = Mcts::new(over, &SearchOptions::default()).unwrap();
        assert_eq!(
            m.search(Some(10), None, &never()),
            Err(SearchError::GameOver)
        );
        assert!(matches!(
            Mcts::new(
                g,
                &SearchOptions {
                    threads: 0,
                    ..Default::default()
                }
            ),
            Err(SearchError::Invalid(_))
        ));
    }
}
