//! Batched AlphaZero search: one [`Tree`] per game, grown in *waves*. A
//! wave selects up to `leaves_per_tree` leaves in every tree (PUCT or
//! Gumbel, [`select`](super::select)), hands all of them to the
//! [`Evaluator`] in one call, then expands them and backs their values up.
//!
//! * **Simulations** are counted per tree: a fresh root's own evaluation is
//!   its first, so after `s` simulations its children hold `s - 1` visits. A
//!   leaf that is a finished game is scored by its outcome
//!   ([`scores`](crate::scores)) at once, without the evaluator.
//! * **Several leaves per tree** (`leaves_per_tree > 1`): each selected leaf
//!   counts as a visit of value 0 (a virtual loss) until its evaluation
//!   arrives, so the next selection goes elsewhere; selecting a leaf that
//!   already waits ends that tree's wave (the simulation is not counted and
//!   is run again in the next wave).
//! * **Root noise**: PUCT mixes the root priors with Dirichlet noise
//!   (`dirichlet_fraction` of Dirichlet(`dirichlet_alpha`)) drawn when the
//!   root is expanded and again at the start of each later search of a kept
//!   tree. Gumbel draws `gumbel_scale` times a Gumbel number per root action
//!   at the same moments, and runs sequential halving over the root visits
//!   of the current search.
//! * **Determinism**: tree `i` draws its random numbers from
//!   [`rng_for`]`(seed, i)` and the leaves reach the evaluator in tree
//!   order, so the result is the same for any thread count.
//! * **Reuse**: [`BatchedMcts::advance`] plays one action per root and
//!   keeps the subtree below it.
//! * **Failures** (the evaluator's error, a bad answer, Ctrl-C through
//!   [`Evaluator::check`]) take back the virtual visits of the wave that
//!   failed; the waves before it stay in the trees.

use std::fmt;
use std::ops::Range;
use std::sync::Mutex;

use rand_xoshiro::Xoshiro256PlusPlus;

use super::evaluate::{check_output, Evaluator, OutputError};
use super::select::{self, RootKid};
use super::tree::{State, Tree, NONE};
use crate::game::{Action, Game, MoveError, OptionsError};
use crate::limits;
use crate::outcome::{scores, MAX_SEATS};
use crate::parallel::{pool, share_out};
use crate::rng::rng_for;
use crate::vector::{BatchGame, CellLayout};

pub use crate::limits::{MAX_LEAVES_PER_TREE, MAX_SIMULATIONS};

crate::choice! {
    /// The selection rule of a batched search.
    pub enum Algorithm("algorithm") {
        /// AlphaZero's PUCT with Dirichlet root noise.
        Puct = "puct",
        /// Gumbel AlphaZero: sequential halving at the root, the deterministic
        /// rule below it.
        Gumbel = "gumbel",
    }
}

/// Parameters of a batched search (see the Python `batched_search`).
#[derive(Debug, Clone)]
pub struct BatchedOptions {
    pub algorithm: Algorithm,
    /// PUCT exploration constant (`>= 0`).
    pub c_puct: f64,
    /// Dirichlet concentration of the PUCT root noise (`> 0` when used).
    pub dirichlet_alpha: f64,
    /// Weight of the PUCT root noise, in `[0, 1]` (0: no noise).
    pub dirichlet_fraction: f64,
    /// Gumbel: root actions sampled for sequential halving (`>= 1`).
    pub max_considered: usize,
    /// Gumbel: scale of the root Gumbel noise (`>= 0`; 0: deterministic).
    pub gumbel_scale: f64,
    /// Leaves selected per tree per wave (`1..=MAX_LEAVES_PER_TREE`).
    pub leaves_per_tree: usize,
    /// Worker threads for the tree work (`1..=`[`crate::limits::MAX_THREADS`]).
    pub threads: usize,
    pub seed: u64,
    /// The evaluator's values are relative to the player to move: column 0
    /// for the mover, column `k` for the `k`-th seat after it (the order of
    /// the observation planes); `false`: column `k` for seat `k + 1`.
    pub relative_values: bool,
}

impl Default for BatchedOptions {
    fn default() -> Self {
        BatchedOptions {
            algorithm: Algorithm::Puct,
            c_puct: 1.25,
            dirichlet_alpha: 0.3,
            dirichlet_fraction: 0.25,
            max_considered: 16,
            gumbel_scale: 1.0,
            leaves_per_tree: 1,
            threads: 1,
            seed: 0,
            relative_values: false,
        }
    }
}

impl BatchedOptions {
    /// The one check of every option; the error names the argument.
    pub fn check(&self) -> Result<(), OptionsError> {
        let bad = |name: &'static str, message: String| Err(OptionsError::new(name, message));
        let finite = |name: &'static str, x: f64| if x.is_finite() { Ok(()) } else { bad(name, format!("{name} must be finite, got {x}")) };
        let nonneg = |name: &'static str, x: f64| {
            finite(name, x).and_then(|()| if x < 0.0 { bad(name, format!("{name} must be >= 0, got {x}")) } else { Ok(()) })
        };
        nonneg("c_puct", self.c_puct)?;
        finite("dirichlet_alpha", self.dirichlet_alpha)?;
        finite("dirichlet_fraction", self.dirichlet_fraction)?;
        if !(0.0..=1.0).contains(&self.dirichlet_fraction) {
            return bad("dirichlet_fraction", format!("dirichlet_fraction must be between 0 and 1, got {}", self.dirichlet_fraction));
        }
        if self.dirichlet_fraction > 0.0 && self.dirichlet_alpha <= 0.0 {
            return bad("dirichlet_alpha", format!("dirichlet_alpha must be > 0, got {}", self.dirichlet_alpha));
        }
        limits::max_considered(self.max_considered)?;
        nonneg("gumbel_scale", self.gumbel_scale)?;
        limits::leaves_per_tree(self.leaves_per_tree)?;
        limits::threads(Some(self.threads))?;
        Ok(())
    }
}

/// Why a batched search failed.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchError<E> {
    /// The evaluator's own error, unchanged.
    Evaluator(E),
    /// The evaluator answered something unusable.
    Output(OutputError),
    /// A bad argument.
    Invalid(OptionsError),
    /// The games have this many players (the search handles 1 to
    /// [`MAX_SEATS`]).
    Players(usize),
    /// Game `i` is finished.
    GameOver(usize),
    /// The worker threads could not be started.
    Threads(String),
}

impl<E> BatchError<E> {
    /// The same error for an evaluator that cannot fail.
    pub fn never(e: BatchError<std::convert::Infallible>) -> BatchError<E> {
        match e {
            BatchError::Evaluator(x) => match x {},
            BatchError::Output(m) => BatchError::Output(m),
            BatchError::Invalid(m) => BatchError::Invalid(m),
            BatchError::Players(n) => BatchError::Players(n),
            BatchError::GameOver(i) => BatchError::GameOver(i),
            BatchError::Threads(m) => BatchError::Threads(m),
        }
    }
}

impl<E: fmt::Display> fmt::Display for BatchError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Evaluator(e) => write!(f, "{e}"),
            BatchError::Output(e) => write!(f, "{e}"),
            BatchError::Invalid(e) => write!(f, "{e}"),
            BatchError::Players(n) => write!(f, "search handles 1 to {MAX_SEATS} players, this game has {n}"),
            BatchError::Threads(m) => f.write_str(m),
            BatchError::GameOver(i) => write!(f, "game {i} is finished"),
        }
    }
}

/// What a batched search found, one row per tree (row-major arrays).
#[derive(Debug, Clone, PartialEq)]
pub struct BatchedResult {
    /// The chosen action of each root (`B`): PUCT the most visited (ties:
    /// higher root prior, then lower id), Gumbel the sequential-halving
    /// winner.
    pub actions: Vec<Action>,
    /// Training targets (`B * A`): PUCT root visit shares (the root priors
    /// while the root has no visited child), Gumbel the improved policy
    /// softmax(logits + sigma(completed Q)); 0 on illegal actions.
    pub policies: Vec<f32>,
    /// Root child visits (`B * A`), the kept ones included.
    pub visits: Vec<u32>,
    /// Mean backed-up value per seat at the root (`B * P`).
    pub root_values: Vec<f32>,
    /// The root mover's Q-values (`B * A`): the mean value of visited
    /// actions, the mixed value of the root for unvisited legal ones, 0 for
    /// illegal ones.
    pub q_values: Vec<f32>,
    /// Simulations per tree in this search.
    pub simulations: u64,
    /// Evaluator calls in this search.
    pub evaluations: u64,
}

/// A leaf waiting for its evaluation.
struct Leaf {
    node: u32,
    /// Its path from the root, in `TreeSearch::paths`.
    path: Range<usize>,
    /// Its legal actions (increasing), in `TreeSearch::legal`.
    legal: Range<usize>,
    /// The root edge the simulation went through (`NONE`: the root itself).
    root_edge: u32,
    /// The seat to move there (0-based).
    seat: usize,
    /// Its observation's row in `TreeSearch::stash`, or `NONE` for the live
    /// leaf: the position `TreeSearch::work` stands on.
    stash: u32,
}

/// Check one tree's rows of the evaluator's answer (its `priors` rows,
/// which are rows `first..` of the wave) and renormalise them over the
/// legal actions of its `leaves`.
fn check_rows(
    leaves: &[Leaf],
    legal: &[Action],
    first: usize,
    priors: &mut [f64],
    values: &[f64],
    actions: usize,
    players: usize,
) -> Result<(), OutputError> {
    let k = leaves.len();
    let legal = leaves.iter().map(|l| &legal[l.legal.clone()]);
    check_output(priors, &values[first * players..(first + k) * players], legal, actions, first)
}

/// One tree and what its current search keeps about the root.
struct TreeSearch<G: Game> {
    tree: Tree,
    rng: Xoshiro256PlusPlus,
    /// The root position; during a wave, the last leaf selected (the live
    /// leaf), reached from the root by the actions undone by `undo`.
    work: G,
    undo: Vec<G::Undo>,
    /// PUCT: the noised root priors (empty: none).
    noisy: Vec<f64>,
    /// Gumbel: the root Gumbel numbers and logits (`ln P - max ln P`).
    gumbel: Vec<f64>,
    logits: Vec<f64>,
    /// Gumbel: the root edges with a child node (increasing, with the child
    /// and the edge's prior), every root edge by decreasing gumbel + logit
    /// (`keys`: those sums), and how many of those have a child
    /// ([`select::gumbel_root_listed`]).
    kids: Vec<RootKid>,
    order: Vec<u32>,
    keys: Vec<f64>,
    cursor: usize,
    /// Root child visits in the current search, and their sum.
    calls: Vec<u32>,
    done: usize,
    /// Gumbel: root-child simulations of the current search.
    budget: usize,
    remaining: u64,
    leaves: Vec<Leaf>,
    paths: Vec<u32>,
    legal: Vec<Action>,
    /// Observations of the leaves of this wave that are not live.
    stash: Vec<f32>,
    /// Working space of the observation writer and of `legal_actions`.
    grid: Vec<u8>,
    buf: Vec<Action>,
    scratch: (Vec<f64>, Vec<f64>),
    cands: Vec<(usize, u32, f64, f64)>,
}

enum Step {
    Leaf,
    Done,
    Collision,
}

/// Write `g`'s observation into `out`: straight from its cells through
/// `layout` when the game has a direct writer, else [`Game::observation`].
fn observe<G: BatchGame>(g: &G, layout: Option<&CellLayout>, out: &mut [f32], scratch: &mut Vec<u8>) {
    match layout {
        Some(l) => g.write_observation(l, out, scratch),
        None => g.observation(out),
    }
}

impl<G: BatchGame> TreeSearch<G> {
    fn new(seed: u64, index: usize, root: &G) -> Self {
        TreeSearch {
            tree: spare_tree(),
            rng: rng_for(seed, index as u64),
            work: root.clone(),
            undo: Vec::new(),
            noisy: Vec::new(),
            gumbel: Vec::new(),
            logits: Vec::new(),
            kids: Vec::new(),
            order: Vec::new(),
            keys: Vec::new(),
            cursor: 0,
            calls: Vec::new(),
            done: 0,
            budget: 0,
            remaining: 0,
            leaves: Vec::new(),
            paths: Vec::new(),
            legal: Vec::new(),
            stash: Vec::new(),
            grid: Vec::new(),
            buf: Vec::new(),
            scratch: (Vec::new(), Vec::new()),
            cands: Vec::new(),
        }
    }

    /// Take back the actions from the root to where `work` stands.
    fn rewind(&mut self) {
        while let Some(u) = self.undo.pop() {
            self.work.undo_action(u);
        }
    }

    /// Draw the root's noise (the root is expanded).
    fn root_noise(&mut self, opts: &BatchedOptions) {
        let edges = self.tree.edges_of(0);
        let k = edges.len();
        self.calls.clear();
        self.calls.resize(k, 0);
        self.done = 0;
        self.noisy.clear();
        self.gumbel.clear();
        match opts.algorithm {
            Algorithm::Puct if opts.dirichlet_fraction > 0.0 && k > 0 => {
                self.noisy.resize(k, 0.0);
                select::dirichlet(&mut self.rng, opts.dirichlet_alpha, &mut self.noisy);
                let f = opts.dirichlet_fraction;
                for (x, e) in self.noisy.iter_mut().zip(edges) {
                    *x = (1.0 - f) * e.prior + f * *x;
                }
            }
            Algorithm::Puct => {}
            Algorithm::Gumbel => {
                select::root_logits(&self.tree, &mut self.logits);
                for _ in 0..k {
                    let g = select::gumbel(&mut self.rng);
                    self.gumbel.push(opts.gumbel_scale * g);
                }
                self.keys.clear();
                self.keys.extend(self.gumbel.iter().zip(&self.logits).map(|(g, l)| g + l));
                let key = &self.keys;
                self.order.clear();
                self.order.extend(0..k as u32);
                // A total order (ties by edge), so an unstable sort gives the one order.
                self.order.sort_unstable_by(|&x, &y| key[y as usize].total_cmp(&key[x as usize]).then(x.cmp(&y)));
                self.kids.clear();
                self.kids.extend(edges.iter().enumerate().filter(|(_, e)| e.child != NONE).map(|(i, e)| RootKid {
                    edge: i as u32,
                    node: e.child,
                    prior: e.prior,
                }));
                self.cursor = 0;
            }
        }
    }

    /// Start a search of `sims` simulations of games with `actions` actions.
    fn start(&mut self, sims: u64, actions: usize, opts: &BatchedOptions) {
        self.remaining = sims;
        // Room for the nodes and edges this search will probably make
        // (bounded: the arenas still grow past it when needed).
        let more = (sims as usize).min(1 << 12);
        self.tree.nodes.reserve(more);
        self.tree.edges.reserve(more * actions.min(1 << 8));
        if self.tree.nodes[0].state == State::Expanded {
            self.budget = sims as usize;
            self.root_noise(opts);
        } else {
            self.budget = sims as usize - 1;
            self.calls.clear();
            self.done = 0;
            self.noisy.clear();
            self.gumbel.clear();
        }
    }

    /// The root edge a Gumbel simulation takes.
    fn gumbel_root(&mut self, seat: usize, opts: &BatchedOptions) -> usize {
        let considered = opts.max_considered.min(self.calls.len());
        let visit = select::considered_visit(considered, self.budget.max(1), self.done);
        let (kids, order) = (&self.kids, &self.order);
        select::gumbel_root_listed(&self.tree, seat, &self.gumbel, &self.logits, &self.calls, visit, kids, order, &mut self.cursor, &mut self.cands)
    }

    /// Count a simulation through root edge `root_edge` (if any).
    fn count_call(&mut self, root_edge: u32) {
        if root_edge != NONE {
            self.calls[root_edge as usize] += 1;
            self.done += 1;
        }
    }

    /// Keep the live leaf's observation in the stash and go back to the
    /// root.
    fn stash_live(&mut self, obs_len: usize, layout: Option<&CellLayout>) {
        if let Some(leaf) = self.leaves.last_mut().filter(|l| l.stash == NONE) {
            let row = self.stash.len() / obs_len.max(1);
            self.stash.resize(self.stash.len() + obs_len, 0.0);
            let s = self.stash.len() - obs_len;
            observe(&self.work, layout, &mut self.stash[s..], &mut self.grid);
            leaf.stash = row as u32;
        }
        self.rewind();
    }

    /// Select one leaf, walking `work` down from the root.
    fn descend(&mut self, players: usize, obs_len: usize, layout: Option<&CellLayout>, opts: &BatchedOptions) -> Step {
        self.stash_live(obs_len, layout);
        let start = self.paths.len();
        self.paths.push(0);
        let mut node = 0u32;
        let mut root_edge = NONE;
        loop {
            let state = self.tree.nodes[node as usize].state;
            match state {
                State::New | State::Terminal if state == State::Terminal || self.work.is_over() => {
                    self.tree.nodes[node as usize].state = State::Terminal;
                    let v = scores(self.work.winner_mask(), true, players);
                    let path = &self.paths[start..];
                    self.tree.visit(path);
                    self.tree.backup(path, &v);
                    self.count_call(root_edge);
                    self.paths.truncate(start);
                    self.rewind();
                    return Step::Done;
                }
                State::New | State::Terminal => {
                    self.tree.nodes[node as usize].state = State::Pending;
                    self.tree.visit(&self.paths[start..]);
                    self.count_call(root_edge);
                    self.buf.clear();
                    self.work.legal_actions(&mut self.buf);
                    if !self.buf.is_sorted() {
                        self.buf.sort_unstable();
                    }
                    let s = self.legal.len();
                    self.legal.extend_from_slice(&self.buf);
                    let seat = self.work.to_move() - 1;
                    self.leaves.push(Leaf { node, path: start..self.paths.len(), legal: s..self.legal.len(), root_edge, seat, stash: NONE });
                    return Step::Leaf;
                }
                State::Pending => {
                    self.paths.truncate(start);
                    self.rewind();
                    return Step::Collision;
                }
                State::Expanded => {
                    let seat = self.work.to_move() - 1;
                    let i = match (opts.algorithm, node) {
                        (Algorithm::Puct, 0) => {
                            select::puct(&self.tree, 0, seat, opts.c_puct, if self.noisy.is_empty() { None } else { Some(&self.noisy) })
                        }
                        (Algorithm::Puct, _) => select::puct(&self.tree, node, seat, opts.c_puct, None),
                        (Algorithm::Gumbel, 0) => self.gumbel_root(seat, opts),
                        (Algorithm::Gumbel, _) => select::gumbel_interior(&self.tree, node, seat, &mut self.cands),
                    };
                    let e = self.tree.edges_of(node)[i];
                    self.undo.push(self.work.apply_action_undoable(e.action));
                    let child = self.tree.child(node, i);
                    if node == 0 {
                        root_edge = i as u32;
                        if e.child == NONE && opts.algorithm == Algorithm::Gumbel {
                            let at = self.kids.partition_point(|k| k.edge < i as u32);
                            self.kids.insert(at, RootKid { edge: i as u32, node: child, prior: e.prior });
                        }
                    }
                    node = child;
                    self.paths.push(node);
                }
            }
        }
    }

    /// Select this tree's leaves of a wave (the last one stays live).
    fn select_wave(&mut self, players: usize, obs_len: usize, layout: Option<&CellLayout>, opts: &BatchedOptions) {
        self.leaves.clear();
        self.paths.clear();
        self.legal.clear();
        self.stash.clear();
        let mut taken = 0;
        while taken < opts.leaves_per_tree && self.remaining > 0 {
            match self.descend(players, obs_len, layout, opts) {
                Step::Leaf | Step::Done => {
                    taken += 1;
                    self.remaining -= 1;
                }
                Step::Collision => break,
            }
        }
    }

    /// Write the leaves' observations and masks (`obs_len` and `actions` per
    /// leaf), then take `work` back to the root.
    fn write(&mut self, obs: &mut [f32], masks: &mut [bool], obs_len: usize, actions: usize, layout: Option<&CellLayout>) {
        for (j, leaf) in self.leaves.iter().enumerate() {
            let o = &mut obs[j * obs_len..(j + 1) * obs_len];
            if leaf.stash == NONE {
                observe(&self.work, layout, o, &mut self.grid);
            } else {
                let s = leaf.stash as usize * obs_len;
                o.copy_from_slice(&self.stash[s..s + obs_len]);
            }
            let m = &mut masks[j * actions..(j + 1) * actions];
            m.fill(false);
            for &a in &self.legal[leaf.legal.clone()] {
                m[a as usize] = true;
            }
        }
        self.rewind();
    }

    /// Expand the leaves with their rows of `priors` (checked, normalised)
    /// and `values`, from row `first` on, and back the values up.
    fn finish_wave(&mut self, first: usize, priors: &[f64], values: &[f64], actions: usize, players: usize, opts: &BatchedOptions) {
        self.rewind();
        let leaves = std::mem::take(&mut self.leaves);
        for (j, leaf) in leaves.iter().enumerate() {
            let r = first + j;
            let mut v = [0.0; MAX_SEATS];
            let row_v = &values[r * players..(r + 1) * players];
            if opts.relative_values {
                // column k is the k-th seat after the mover
                for (k, &x) in row_v.iter().enumerate() {
                    v[(leaf.seat + k) % players] = x;
                }
            } else {
                v[..players].copy_from_slice(row_v);
            }
            let legal = &self.legal[leaf.legal.clone()];
            let row = &priors[r * actions..(r + 1) * actions];
            self.tree.expand(leaf.node, legal, legal.iter().map(|&a| row[a as usize]), v[leaf.seat]);
            if leaf.node == 0 {
                self.root_noise(opts);
            }
            self.tree.backup(&self.paths[leaf.path.clone()], &v);
        }
        self.leaves = leaves;
        self.leaves.clear();
    }

    /// Take back the leaves of a wave that failed.
    fn abandon_wave(&mut self) {
        self.rewind();
        for leaf in self.leaves.drain(..) {
            self.tree.unvisit(&self.paths[leaf.path.clone()]);
            self.tree.nodes[leaf.node as usize].state = State::New;
            if leaf.root_edge != NONE {
                self.calls[leaf.root_edge as usize] -= 1;
                self.done -= 1;
            }
            self.remaining += 1;
        }
    }

    /// The root's row of the result.
    fn report(&mut self, root: &G, opts: &BatchedOptions, r: &mut BatchedResult, b: usize, actions: usize, players: usize) {
        let seat = root.to_move() - 1;
        let (a, p) = &mut self.scratch;
        let mixed = select::completed_q(&self.tree, 0, seat, a);
        let edges = self.tree.edges_of(0);
        let node = &self.tree.nodes[0];
        for s in 0..players {
            r.root_values[b * players + s] = (node.w[s] / node.n.max(1) as f64) as f32;
        }
        let total: u64 = edges.iter().map(|e| self.tree.child_stats(e, seat).0 as u64).sum();
        let row = b * actions..(b + 1) * actions;
        let (visits, policy, q) = (&mut r.visits[row.clone()], &mut r.policies[row.clone()], &mut r.q_values[row]);
        for e in edges {
            let (n, w) = self.tree.child_stats(e, seat);
            visits[e.action as usize] = n;
            q[e.action as usize] = if n > 0 { (w / n as f64) as f32 } else { mixed as f32 };
        }
        let prior = |i: usize| if self.noisy.is_empty() { edges[i].prior } else { self.noisy[i] };
        r.actions[b] = match opts.algorithm {
            Algorithm::Puct => {
                for (i, e) in edges.iter().enumerate() {
                    let n = self.tree.child_stats(e, seat).0;
                    policy[e.action as usize] = if total > 0 { (n as f64 / total as f64) as f32 } else { prior(i) as f32 };
                }
                let best = (0..edges.len()).max_by(|&i, &j| {
                    let (ni, nj) = (self.tree.child_stats(&edges[i], seat).0, self.tree.child_stats(&edges[j], seat).0);
                    ni.cmp(&nj).then(prior(i).total_cmp(&prior(j))).then(j.cmp(&i))
                });
                best.map_or(0, |i| edges[i].action)
            }
            Algorithm::Gumbel => {
                select::improved_policy(&self.tree, 0, a, p);
                for (e, &x) in edges.iter().zip(p.iter()) {
                    policy[e.action as usize] = x as f32;
                }
                // Root noise is drawn when the root is expanded, so these
                // have one entry per edge.
                let considered = self.calls.iter().copied().max().unwrap_or(0);
                let i = select::gumbel_root(&self.tree, seat, &self.gumbel, &self.logits, &self.calls, considered, &mut self.cands);
                edges.get(i).map_or(0, |e| e.action)
            }
        };
    }
}

/// The arenas of dropped searches, kept (up to [`SPARE_BYTES`]) for the
/// next one: a search then grows its trees in memory it has touched before
/// rather than in fresh pages from the system, which cost as much as the
/// search itself when one-off searches follow each other.
static SPARE: Mutex<Vec<Tree>> = Mutex::new(Vec::new());
const SPARE_BYTES: usize = 1 << 27;

/// An empty tree, its memory taken from [`SPARE`] when there is some.
fn spare_tree() -> Tree {
    let t = SPARE.lock().ok().and_then(|mut s| s.pop());
    t.map_or_else(Tree::new, |mut t| {
        t.clear();
        t
    })
}

/// Batched searches of many games that keep their trees between calls
/// (see the module documentation). [`batched_search`] is one call of a
/// fresh one.
pub struct BatchedMcts<G: Game> {
    roots: Vec<G>,
    /// Where the direct observation writer puts the cells (`None`: the game
    /// has none).
    layout: Option<CellLayout>,
    trees: Vec<TreeSearch<G>>,
    opts: BatchedOptions,
    obs_len: usize,
    actions: usize,
    players: usize,
    priors: Vec<f64>,
    values: Vec<f64>,
}

/// Run `work` on every item (one per tree, in tree order) over `threads`
/// ([`share_out`]: each thread takes the same contiguous share of the trees
/// in every step of a wave, so a tree's memory stays in one core's cache).
fn each<I: Send>(threads: usize, items: impl Iterator<Item = I>, work: impl Fn(I) + Sync) {
    if threads <= 1 {
        items.for_each(work);
    } else {
        share_out(items.collect(), threads, work);
    }
}

impl<G: Game> Drop for BatchedMcts<G> {
    fn drop(&mut self) {
        let Ok(mut spare) = SPARE.lock() else { return };
        let mut bytes: usize = spare.iter().map(Tree::capacity_bytes).sum();
        for t in &mut self.trees {
            let b = t.tree.capacity_bytes();
            if bytes + b > SPARE_BYTES {
                break;
            }
            bytes += b;
            spare.push(std::mem::take(&mut t.tree));
        }
    }
}

impl<G: BatchGame> BatchedMcts<G> {
    /// Searches of `roots` (at least one, all of one spec, none finished).
    pub fn new(roots: Vec<G>, opts: &BatchedOptions) -> Result<Self, BatchError<std::convert::Infallible>> {
        opts.check().map_err(BatchError::Invalid)?;
        let Some(first) = roots.first() else {
            return Err(BatchError::Invalid(OptionsError::new("games", "games must not be empty")));
        };
        let spec = first.spec();
        if let Some(i) = roots.iter().position(|g| g.spec() != spec) {
            let message = format!("games must all have the same type and spec; game {i} is {:?}, game 0 is {spec:?}", roots[i].spec());
            return Err(BatchError::Invalid(OptionsError::new("games", message)));
        }
        let players = first.num_players();
        if !(1..=MAX_SEATS).contains(&players) {
            return Err(BatchError::Players(players));
        }
        if let Some(i) = roots.iter().position(|g| g.is_over()) {
            return Err(BatchError::GameOver(i));
        }
        let [c, h, w] = first.observation_shape();
        let trees = roots.iter().enumerate().map(|(i, g)| TreeSearch::new(opts.seed, i, g)).collect();
        Ok(BatchedMcts {
            layout: first.direct_observation().then(|| CellLayout::of(first.board())),
            obs_len: c * h * w,
            actions: first.num_actions(),
            players,
            roots,
            trees,
            opts: opts.clone(),
            priors: Vec::new(),
            values: Vec::new(),
        })
    }

    /// The current roots.
    pub fn games(&self) -> &[G] {
        &self.roots
    }

    pub fn options(&self) -> &BatchedOptions {
        &self.opts
    }

    /// Simulations through each root (those kept by `advance` included).
    pub fn root_visits(&self) -> Vec<u32> {
        self.trees.iter().map(|t| t.tree.nodes[0].n).collect()
    }

    /// Nodes in all trees.
    pub fn nodes(&self) -> usize {
        self.trees.iter().map(|t| t.tree.nodes.len()).sum()
    }

    /// Run `simulations` more simulations in every tree and report the roots.
    pub fn search<E: Evaluator>(&mut self, simulations: u64, ev: &mut E) -> Result<BatchedResult, BatchError<E::Error>> {
        limits::simulations(simulations).map_err(BatchError::Invalid)?;
        if let Some(i) = self.roots.iter().position(|g| g.is_over()) {
            return Err(BatchError::GameOver(i));
        }
        let threads = self.opts.threads;
        if threads > 1 {
            // Started now, so that a failure is an error rather than a slower search.
            pool(threads).map_err(|e| BatchError::Threads(e.to_string()))?;
        }
        let (players, actions, obs_len) = (self.players, self.actions, self.obs_len);
        let opts = &self.opts;
        let layout = self.layout.as_ref();
        for t in &mut self.trees {
            t.start(simulations, actions, opts);
        }
        let mut evaluations = 0;
        let mut firsts = Vec::with_capacity(self.trees.len());
        loop {
            if let Err(e) = ev.check() {
                return Err(BatchError::Evaluator(e));
            }
            let trees = &mut self.trees;
            if trees.iter().all(|t| t.remaining == 0) {
                break;
            }
            ev.run(|| each(threads, trees.iter_mut(), |t| t.select_wave(players, obs_len, layout, opts)));
            // Each tree's first row in the wave.
            firsts.clear();
            let mut total = 0;
            for t in trees.iter() {
                firsts.push(total);
                total += t.leaves.len();
            }
            if total == 0 {
                continue;
            }
            let mut fill = |obs: &mut [f32], masks: &mut [bool]| {
                let (mut obs, mut masks) = (obs, masks);
                let mut parts = Vec::with_capacity(trees.len());
                for t in trees.iter_mut() {
                    let k = t.leaves.len();
                    let (o, orest) = std::mem::take(&mut obs).split_at_mut(k * obs_len);
                    let (m, mrest) = std::mem::take(&mut masks).split_at_mut(k * actions);
                    parts.push((t, o, m));
                    (obs, masks) = (orest, mrest);
                }
                each(threads, parts.into_iter(), |(t, o, m): (&mut TreeSearch<G>, &mut [f32], &mut [bool])| t.write(o, m, obs_len, actions, layout));
            };
            let answered = ev.evaluate(total, &mut fill, &mut self.priors, &mut self.values);
            let checked = match answered {
                Err(e) => Err(BatchError::Evaluator(e)),
                Ok(()) if self.priors.len() != total * actions || self.values.len() != total * players => {
                    Err(BatchError::Output(OutputError::Size {
                        priors: total * actions,
                        values: total * players,
                        got: (self.priors.len(), self.values.len()),
                    }))
                }
                Ok(()) => {
                    // Every tree checks and renormalises its own rows; the
                    // first error in tree order is the answer.
                    let (priors, values) = (&mut self.priors[..], &self.values[..]);
                    let mut rows = Vec::with_capacity(trees.len());
                    let mut rest = priors;
                    for (t, &first) in trees.iter().zip(firsts.iter()) {
                        let (p, r) = std::mem::take(&mut rest).split_at_mut(t.leaves.len() * actions);
                        rows.push((&t.leaves[..], &t.legal[..], first, p));
                        rest = r;
                    }
                    let mut errors: Vec<Result<(), OutputError>> = vec![Ok(()); rows.len()];
                    ev.run(|| {
                        each(threads, rows.into_iter().zip(errors.iter_mut()), |((l, a, first, p), slot)| {
                            *slot = check_rows(l, a, first, p, values, actions, players);
                        })
                    });
                    errors.into_iter().collect::<Result<(), OutputError>>().map_err(BatchError::Output)
                }
            };
            if let Err(e) = checked {
                for t in trees.iter_mut() {
                    t.abandon_wave();
                }
                return Err(e);
            }
            evaluations += 1;
            let (priors, values) = (&self.priors[..], &self.values[..]);
            let work = |(t, &first): (&mut TreeSearch<G>, &usize)| t.finish_wave(first, priors, values, actions, players, opts);
            ev.run(|| each(threads, trees.iter_mut().zip(firsts.iter()), work));
        }
        let b = self.roots.len();
        let mut r = BatchedResult {
            actions: vec![0; b],
            policies: vec![0.0; b * actions],
            visits: vec![0; b * actions],
            root_values: vec![0.0; b * players],
            q_values: vec![0.0; b * actions],
            simulations,
            evaluations,
        };
        for (i, (t, g)) in self.trees.iter_mut().zip(&self.roots).enumerate() {
            t.report(g, opts, &mut r, i, actions, players);
        }
        Ok(r)
    }

    /// Check that `actions` (one per root) are legal; the first bad one is
    /// returned with its index.
    pub fn check_actions(&self, actions: &[i64]) -> Result<Vec<Action>, (usize, MoveError)> {
        if actions.len() != self.roots.len() {
            return Err((
                actions.len().min(self.roots.len()),
                MoveError::new(
                    crate::Reason::IllegalAction,
                    format!("give one action per game: {} games, {} actions", self.roots.len(), actions.len()),
                ),
            ));
        }
        self.roots.iter().zip(actions).enumerate().map(|(i, (g, &a))| g.check_action(a).map_err(|e| (i, e))).collect()
    }

    /// Play `actions` (one per root, legal: see [`BatchedMcts::check_actions`])
    /// and keep each subtree below them.
    pub fn advance(&mut self, actions: &[Action]) {
        for ((t, g), &a) in self.trees.iter_mut().zip(&mut self.roots).zip(actions) {
            let child = t.tree.root_child(a);
            t.tree.reroot(child);
            t.calls.clear();
            t.noisy.clear();
            t.gumbel.clear();
            t.done = 0;
            t.rewind();
            t.work.apply_action(a);
            g.apply_action(a);
        }
    }
}

impl<G: Game> BatchedMcts<G> {
    /// Put `game` (the roots' spec, not finished) in place of root `index`
    /// with a fresh tree, leaving the other trees as they are: self-play
    /// starts a new game in the slot of one that finished and keeps the
    /// trees of the others. The slot's random numbers go on from its own
    /// stream, so results stay the same for any thread count.
    pub fn replace(&mut self, index: usize, game: G) -> Result<(), BatchError<std::convert::Infallible>> {
        let b = self.roots.len();
        limits::in_range("index", index, 0, b as i64 - 1).map_err(BatchError::Invalid)?;
        let spec = self.roots[0].spec();
        if game.spec() != spec {
            return Err(BatchError::Invalid(OptionsError::new("game", format!("game must have the roots' spec {spec:?}, got {:?}", game.spec()))));
        }
        if game.is_over() {
            return Err(BatchError::GameOver(index));
        }
        let t = &mut self.trees[index];
        t.tree.clear();
        t.calls.clear();
        t.noisy.clear();
        t.gumbel.clear();
        t.logits.clear();
        t.done = 0;
        // the tree's working game walks down from its root: it becomes the new root
        t.undo.clear();
        t.work = game.clone();
        self.roots[index] = game;
        Ok(())
    }
}

/// One batched search of `roots` with `simulations` per tree.
pub fn batched_search<G: BatchGame, E: Evaluator>(
    roots: Vec<G>,
    simulations: u64,
    opts: &BatchedOptions,
    ev: &mut E,
) -> Result<BatchedResult, BatchError<E::Error>> {
    BatchedMcts::new(roots, opts).map_err(BatchError::never)?.search(simulations, ev)
}

#[cfg(test)]
mod tests;
