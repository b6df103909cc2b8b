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
use std::sync::Mutex;

use super::evaluate::{Evaluator, OutputError, Rows};
use crate::game::{Action, Game, MoveError, OptionsError};
use crate::limits;
use crate::outcome::MAX_SEATS;
use crate::parallel::{phased, pool, team, Team};
use crate::vector::{BatchGame, CellLayout};
use wave::{give_spare, take_spare, RootRow, TreeSearch};

mod wave;

pub use crate::limits::{MAX_LEAVES_PER_TREE, MAX_SIMULATIONS};
pub use wave::SPARE_BYTES;

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
        let finite = |name: &'static str, x: f64| {
            if x.is_finite() {
                Ok(())
            } else {
                bad(name, format!("{name} must be finite, got {x}"))
            }
        };
        let nonneg = |name: &'static str, x: f64| {
            finite(name, x).and_then(|()| {
                if x < 0.0 {
                    bad(name, format!("{name} must be >= 0, got {x}"))
                } else {
                    Ok(())
                }
            })
        };
        nonneg("c_puct", self.c_puct)?;
        finite("dirichlet_alpha", self.dirichlet_alpha)?;
        finite("dirichlet_fraction", self.dirichlet_fraction)?;
        if !(0.0..=1.0).contains(&self.dirichlet_fraction) {
            return bad(
                "dirichlet_fraction",
                format!(
                    "dirichlet_fraction must be between 0 and 1, got {}",
                    self.dirichlet_fraction
                ),
            );
        }
        if self.dirichlet_fraction > 0.0 && self.dirichlet_alpha <= 0.0 {
            return bad(
                "dirichlet_alpha",
                format!("dirichlet_alpha must be > 0, got {}", self.dirichlet_alpha),
            );
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

/// Why [`BatchedMcts::check_actions`] refused the actions of an advance.
#[derive(Debug, Clone, PartialEq)]
pub enum ActionsError {
    /// Not one action per root: a bad argument, named `actions`.
    Length(OptionsError),
    /// Root `index` cannot take its action.
    Illegal { index: usize, error: MoveError },
}

impl fmt::Display for ActionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionsError::Length(e) => f.write_str(&e.message),
            ActionsError::Illegal { index, error } => write!(f, "game {index}: {}", error.message),
        }
    }
}

impl std::error::Error for ActionsError {}

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
            BatchError::Players(n) => write!(
                f,
                "search handles 1 to {MAX_SEATS} players, this game has {n}"
            ),
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

/// Batched searches of many games that keep their trees between calls
/// (see the module documentation). [`batched_search`] is one call of a
/// fresh one.
pub struct BatchedMcts<G: Game> {
    /// Where the direct observation writer puts the cells (`None`: the game
    /// has none).
    layout: Option<CellLayout>,
    trees: Vec<TreeSearch<G>>,
    opts: BatchedOptions,
    obs_len: usize,
    actions: usize,
    players: usize,
}

/// Trees per work item of a wave step.
const CHUNK: usize = 4;

/// What a wave step needs besides the trees.
struct Shape<'a> {
    players: usize,
    actions: usize,
    obs_len: usize,
    layout: Option<&'a CellLayout>,
    opts: &'a BatchedOptions,
}

/// Lock `m`, whether or not a panicking thread left it poisoned (a panic
/// reaches the caller anyway).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The work of all trees between two evaluator calls, in two phases over
/// the `team`'s threads ([`phased`]: at most one wake-up per wave): check the evaluator's
/// `answer` for the leaves of the wave (if any); expand them, back their
/// values up, select the next wave's leaves and write their observations
/// and masks into `obs` and `masks`, each tree at rows of its own
/// (`leaves_per_tree` of them), then moved up over the rows of trees that
/// took fewer leaves, so that the wave's rows follow each other in tree
/// order. Returns the next wave's number of leaves, or the first error in
/// tree order (the wave's leaves are then still pending: see
/// [`TreeSearch::abandon_wave`]).
fn step<G: BatchGame>(
    trees: &mut [TreeSearch<G>],
    answer: Option<(Rows<'_>, Rows<'_>)>,
    obs: &mut [f32],
    masks: &mut [bool],
    team: &Team,
    sh: &Shape<'_>,
) -> Result<usize, OutputError> {
    let (players, actions, obs_len) = (sh.players, sh.actions, sh.obs_len);
    let k = sh.opts.leaves_per_tree;
    let (room_o, room_m) = (CHUNK * k * obs_len, CHUNK * k * actions);
    let (mut o, mut m) = (&mut obs[..], &mut masks[..]);
    let mut chunks: Vec<Mutex<(&mut [TreeSearch<G>], &mut [f32], &mut [bool])>> =
        Vec::with_capacity(trees.len().div_ceil(CHUNK));
    for t in trees.chunks_mut(CHUNK) {
        let (at_o, at_m) = (room_o.min(o.len()), room_m.min(m.len()));
        let (co, ro) = std::mem::take(&mut o).split_at_mut(at_o);
        let (cm, rm) = std::mem::take(&mut m).split_at_mut(at_m);
        chunks.push(Mutex::new((t, co, cm)));
        (o, m) = (ro, rm);
    }
    let failed = Mutex::new(None);
    let work = |phase: usize, i: usize| {
        let mut chunk = lock(&chunks[i]);
        let (chunk, o, m) = &mut *chunk;
        match phase {
            0 => {
                if let Some((p, v)) = answer {
                    chunk
                        .iter_mut()
                        .for_each(|t| t.check(p, v, actions, players));
                }
            }
            _ => {
                let (mut o, mut m) = (&mut o[..], &mut m[..]);
                for t in chunk.iter_mut() {
                    if let Some((p, v)) = answer {
                        t.finish_wave(p, v, actions, players, sh.opts);
                    }
                    t.select_wave(players, actions, obs_len, sh.layout, sh.opts);
                    let (to, ro) = std::mem::take(&mut o).split_at_mut(k * obs_len);
                    let (tm, rm) = std::mem::take(&mut m).split_at_mut(k * actions);
                    let n = t.leaves.len();
                    t.write(
                        &mut to[..n * obs_len],
                        &mut tm[..n * actions],
                        obs_len,
                        actions,
                        sh.layout,
                    );
                    (o, m) = (ro, rm);
                }
            }
        }
    };
    let after = |phase: usize| match phase {
        0 if answer.is_none() => true,
        0 => {
            let first = chunks
                .iter()
                .find_map(|c| lock(c).0.iter().find_map(|t| t.checked.clone().err()));
            let ok = first.is_none();
            *lock(&failed) = first;
            ok
        }
        _ => true,
    };
    phased(team, chunks.len(), 2, work, after);
    drop(chunks);
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    // The rows in tree order: tree `i` wrote its leaves at row `i * k`.
    let mut n = 0;
    for (i, t) in trees.iter_mut().enumerate() {
        let (from, len) = (i * k, t.leaves.len());
        if from != n && len > 0 {
            obs.copy_within(from * obs_len..(from + len) * obs_len, n * obs_len);
            masks.copy_within(from * actions..(from + len) * actions, n * actions);
        }
        t.first = n;
        n += len;
    }
    Ok(n)
}

/// Every tree's row of the result `r`, over the `team`'s threads.
fn report<G: BatchGame>(
    trees: &mut [TreeSearch<G>],
    r: &mut BatchedResult,
    team: &Team,
    sh: &Shape<'_>,
) {
    let (a, p) = (sh.actions, sh.players);
    let rows = trees
        .chunks_mut(CHUNK)
        .zip(r.actions.chunks_mut(CHUNK))
        .zip(
            r.policies
                .chunks_mut(CHUNK * a)
                .zip(r.visits.chunks_mut(CHUNK * a)),
        )
        .zip(
            r.q_values
                .chunks_mut(CHUNK * a)
                .zip(r.root_values.chunks_mut(CHUNK * p)),
        )
        .map(|(((t, actions), (policies, visits)), (q, v))| {
            Mutex::new((t, actions, policies, visits, q, v))
        })
        .collect::<Vec<_>>();
    let work = |_: usize, i: usize| {
        let mut row = lock(&rows[i]);
        let (t, actions, policies, visits, q, v) = &mut *row;
        for (j, t) in t.iter_mut().enumerate() {
            let out = RootRow {
                action: &mut actions[j],
                policy: &mut policies[j * a..(j + 1) * a],
                visits: &mut visits[j * a..(j + 1) * a],
                q: &mut q[j * a..(j + 1) * a],
                values: &mut v[j * p..(j + 1) * p],
            };
            t.report(sh.opts, out);
        }
    };
    phased(team, rows.len(), 1, work, |_| true);
}

impl<G: Game> Drop for BatchedMcts<G> {
    fn drop(&mut self) {
        give_spare(std::mem::take(&mut self.trees));
    }
}

impl<G: BatchGame> BatchedMcts<G> {
    /// Searches of `roots` (at least one, all of one spec, none finished).
    pub fn new(
        roots: Vec<G>,
        opts: &BatchedOptions,
    ) -> Result<Self, BatchError<std::convert::Infallible>> {
        Self::of(&roots.iter().collect::<Vec<_>>(), opts)
    }

    /// [`BatchedMcts::new`] over copies of `roots`, made in the memory of
    /// the last search of this game type when there is one.
    pub fn of(
        roots: &[&G],
        opts: &BatchedOptions,
    ) -> Result<Self, BatchError<std::convert::Infallible>> {
        opts.check().map_err(BatchError::Invalid)?;
        let Some(first) = roots.first() else {
            return Err(BatchError::Invalid(OptionsError::new(
                "games",
                "games must not be empty",
            )));
        };
        if let Some(i) = roots.iter().position(|g| !g.same_spec(first)) {
            let message = format!(
                "games must all have the same type and spec; game {i} is {:?}, game 0 is {:?}",
                roots[i].spec(),
                first.spec()
            );
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
        let layout = first
            .direct_observation()
            .then(|| CellLayout::of(first.board()));
        let actions = first.num_actions();
        // Each tree keeps its root as its working position (between waves).
        let mut spare = take_spare::<G>();
        let trees = roots
            .iter()
            .enumerate()
            .map(|(i, &g)| match spare.pop() {
                Some(mut t) => {
                    t.reset(opts.seed, i, g);
                    t
                }
                None => TreeSearch::new(opts.seed, i, g.clone()),
            })
            .collect();
        Ok(BatchedMcts {
            layout,
            obs_len: c * h * w,
            actions,
            players,
            trees,
            opts: opts.clone(),
        })
    }

    /// The current roots.
    pub fn games(&self) -> impl ExactSizeIterator<Item = &G> + '_ {
        self.trees.iter().map(|t| t.root())
    }

    /// Players of the games.
    pub fn num_players(&self) -> usize {
        self.players
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
    pub fn search<E: Evaluator>(
        &mut self,
        simulations: u64,
        ev: &mut E,
    ) -> Result<BatchedResult, BatchError<E::Error>> {
        limits::simulations(simulations).map_err(BatchError::Invalid)?;
        if let Some(i) = self.games().position(|g| g.is_over()) {
            return Err(BatchError::GameOver(i));
        }
        let threads = self.opts.threads;
        if threads > 1 {
            // Started now, so that a failure is an error rather than a slower search.
            pool(threads).map_err(|e| BatchError::Threads(e.to_string()))?;
        }
        let (players, actions) = (self.players, self.actions);
        let opts = &self.opts;
        let sh = Shape {
            players,
            actions,
            obs_len: self.obs_len,
            layout: self.layout.as_ref(),
            opts,
        };
        let trees = &mut self.trees;
        for t in trees.iter_mut() {
            t.start(simulations, actions, opts);
        }
        // Room for the largest wave.
        let rows = trees.len() * opts.leaves_per_tree;
        let abandon = |trees: &mut [TreeSearch<G>]| trees.iter_mut().for_each(|t| t.abandon_wave());
        // One team of threads for the whole search: its workers wait for
        // the next wave while the evaluator runs.
        let b = trees.len();
        let mut r = BatchedResult {
            actions: vec![0; b],
            policies: vec![0.0; b * actions],
            visits: vec![0; b * actions],
            root_values: vec![0.0; b * players],
            q_values: vec![0.0; b * actions],
            simulations,
            evaluations: 0,
        };
        let evaluations = team(threads, |tm| -> Result<u64, BatchError<E::Error>> {
            let mut evaluations = 0;
            // The leaves of the selected wave (`None`: none selected yet).
            let mut total: Option<usize> = None;
            loop {
                if let Err(e) = ev.check() {
                    abandon(trees);
                    return Err(BatchError::Evaluator(e));
                }
                let next = match total {
                    Some(0) if trees.iter().all(|t| t.remaining == 0) => break,
                    // The first wave, or after one whose leaves were all finished games.
                    None | Some(0) => ev.inputs(rows, |o, m| step(trees, None, o, m, tm, &sh)),
                    Some(n) => ev.evaluate(n, |p, v, o, m| {
                        if p.len() != n * actions || v.len() != n * players {
                            return Err(OutputError::Size {
                                priors: n * actions,
                                values: n * players,
                                got: (p.len(), v.len()),
                            });
                        }
                        step(trees, Some((p, v)), o, m, tm, &sh)
                    }),
                };
                match next {
                    Ok(Ok(n)) => {
                        evaluations += u64::from(total.unwrap_or(0) > 0);
                        total = Some(n);
                    }
                    Ok(Err(e)) => {
                        abandon(trees);
                        return Err(BatchError::Output(e));
                    }
                    Err(e) => {
                        abandon(trees);
                        return Err(BatchError::Evaluator(e));
                    }
                }
            }
            report(trees, &mut r, tm, &sh);
            Ok(evaluations)
        })?;
        r.evaluations = evaluations;
        Ok(r)
    }

    /// Check that `actions` are one per root ([`ActionsError::Length`]: a
    /// bad argument) and legal ([`ActionsError::Illegal`]: the first bad
    /// one, with its index).
    pub fn check_actions(&self, actions: &[i64]) -> Result<Vec<Action>, ActionsError> {
        let b = self.trees.len();
        if actions.len() != b {
            let message = format!(
                "actions must have shape ({b},) (one per game), got ({},)",
                actions.len()
            );
            return Err(ActionsError::Length(OptionsError::new("actions", message)));
        }
        self.games()
            .zip(actions)
            .enumerate()
            .map(|(i, (g, &a))| {
                g.check_action(a)
                    .map_err(|error| ActionsError::Illegal { index: i, error })
            })
            .collect()
    }

    /// Play `actions` (one per root, legal: see [`BatchedMcts::check_actions`])
    /// and keep each subtree below them.
    pub fn advance(&mut self, actions: &[Action]) {
        for (t, &a) in self.trees.iter_mut().zip(actions) {
            t.advance(a);
        }
    }
}

impl<G: Game> BatchedMcts<G> {
    /// Put `game` (the roots' spec, not finished) in place of root `index`
    /// with a fresh tree, leaving the other trees as they are: self-play
    /// starts a new game in the slot of one that finished and keeps the
    /// trees of the others. The slot's random numbers go on from its own
    /// stream, so results stay the same for any thread count.
    pub fn replace(
        &mut self,
        index: usize,
        game: G,
    ) -> Result<(), BatchError<std::convert::Infallible>> {
        let b = self.trees.len();
        limits::in_range("index", index, 0, b as i64 - 1).map_err(BatchError::Invalid)?;
        let root = self.trees[0].root();
        if !game.same_spec(root) {
            let message = format!(
                "game must have the roots' spec {:?}, got {:?}",
                root.spec(),
                game.spec()
            );
            return Err(BatchError::Invalid(OptionsError::new("game", message)));
        }
        if game.is_over() {
            return Err(BatchError::GameOver(index));
        }
        self.trees[index].replace(game);
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
    BatchedMcts::new(roots, opts)
        .map_err(BatchError::never)?
        .search(simulations, ev)
}

#[cfg(test)]
mod tests;
