//! Batched games: `N` games of one type stepped together, writing legal
//! masks, observations and rewards straight into caller-owned buffers (the
//! numpy arrays of `hexcore.vector`).
//!
//! * Every env has its own generator (Xoshiro256++ seeded with
//!   SplitMix64(`seed` + `i`), as in [`crate::playout`]) and its own state, so
//!   a batch split over any number of threads gives identical results.
//! * [`VecGames::step`] checks every action before it changes anything: on an
//!   error no env has been stepped.
//! * Autoreset is Gymnasium's next-step mode: the step that ends an env
//!   (terminated, or truncated at `max_plies` complete moves) reports the final
//!   observation, the rewards and the episode length; the *next* step ignores
//!   that env's action and puts it back at its start position (reward 0, not
//!   terminated, not truncated).
//! * A batch is allocated fallibly ([`BatchError::Memory`]), and building,
//!   resetting and stepping it stop early when the caller's stop flag is
//!   raised. A reset or step cut short leaves every env either stepped or
//!   not; the batch then refuses to step until it is reset.

use rand_xoshiro::Xoshiro256PlusPlus;

use std::collections::HashMap;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::board::Board;
use crate::game::{Action, Game, MoveError, Reason};
use crate::outcome::terminal_rewards;
use crate::parallel::pool;
use crate::rng::{below, rng_for};

/// An observation element type of the batch buffers. A `u8` holds a plane
/// value `v` in [0, 1] as `round(255 v)` (an indicator is 0 or 255).
pub trait ObsElem: Copy {
    fn from_bool(b: bool) -> Self;
}

impl ObsElem for bool {
    #[inline(always)]
    fn from_bool(b: bool) -> bool {
        b
    }
}

impl ObsElem for u8 {
    #[inline(always)]
    fn from_bool(b: bool) -> u8 {
        if b {
            255
        } else {
            0
        }
    }
}

impl ObsElem for f32 {
    #[inline(always)]
    fn from_bool(b: bool) -> f32 {
        b as u8 as f32
    }
}

/// Where a board's cells sit in an observation plane: runs of cells with
/// consecutive numbers on consecutive plane indices, and which grid points
/// are cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellLayout {
    pub(crate) plane: usize,
    /// (first cell, its index in the plane, length), by plane index.
    runs: Vec<(usize, usize, usize)>,
    /// 0xff on cells, 0 elsewhere (one per plane index).
    pub(crate) mask: Vec<u8>,
}

/// Bytes per block copy in [`CellLayout::spread`].
const BLOCK: usize = 16;

impl CellLayout {
    pub fn of(board: &Board) -> CellLayout {
        let (h, w) = board.grid_shape();
        let plane = h * w;
        let mut runs: Vec<(usize, usize, usize)> = Vec::new();
        let mut on_board = vec![false; plane];
        for cell in 0..board.num_cells() {
            let (r, c) = board.grid_pos(cell);
            let i = r * w + c;
            on_board[i] = true;
            match runs.last_mut() {
                Some((c0, i0, len)) if *c0 + *len == cell && *i0 + *len == i => *len += 1,
                _ => runs.push((cell, i, 1)),
            }
        }
        runs.sort_by_key(|r| r.1);
        let mask = on_board.iter().map(|&b| if b { 0xff } else { 0 }).collect();
        CellLayout { plane, runs, mask }
    }

    /// `values` (one byte per cell) placed on the plane: the returned slice
    /// (of `scratch`) holds `values[cell]` at each cell's index and
    /// unspecified bytes elsewhere (to be masked by `self.mask`). Runs are
    /// copied in whole blocks of [`BLOCK`] bytes, by increasing plane index,
    /// so a block's spill past its run is overwritten by the next run or
    /// lands off the board.
    pub(crate) fn spread<'s>(&self, values: &[u8], scratch: &'s mut Vec<u8>) -> &'s [u8] {
        if scratch.len() < self.plane + BLOCK {
            scratch.resize(self.plane + BLOCK, 0);
        }
        for &(c0, i0, len) in &self.runs {
            let (mut c, mut i) = (c0, i0);
            let end = c0 + len;
            while c < end {
                match values.get(c..c + BLOCK) {
                    Some(src) => {
                        let src: &[u8; BLOCK] = src.try_into().expect("a block");
                        let dst: &mut [u8; BLOCK] = (&mut scratch[i..i + BLOCK]).try_into().expect("a block");
                        *dst = *src;
                    }
                    None => {
                        let k = end - c;
                        scratch[i..i + k].copy_from_slice(&values[c..end]);
                    }
                }
                c += BLOCK;
                i += BLOCK;
            }
        }
        &scratch[..self.plane]
    }
}

/// What a batch needs of a game beyond [`Game`]: an optional direct writer
/// of its observation (same values as [`Game::observation`], without the
/// float32 planes in between).
pub trait BatchGame: Game {
    /// True when [`BatchGame::write_observation`] is implemented.
    fn direct_observation(&self) -> bool {
        false
    }

    /// Write the observation into `out` (`observation_shape` values), the
    /// board's cells placed by `layout` (made by [`CellLayout::of`] from this
    /// game's board).
    /// `scratch` is working space.
    fn write_observation<T: ObsElem>(&self, _layout: &CellLayout, _out: &mut [T], _scratch: &mut Vec<u8>) {
        unreachable!("no direct observation writer")
    }
}

/// No direct layout: the env's observation goes through [`Game::observation`].
const NO_LAYOUT: u32 = u32::MAX;

/// One env of a batch.
#[derive(Clone)]
pub struct Env<G: Game> {
    pub game: G,
    rng: Xoshiro256PlusPlus,
    /// Complete moves played in this episode.
    pub plies: u64,
    /// True after the step that ended the episode, until the next step resets it.
    pub done: bool,
    /// Episodes started so far (0 for the first).
    pub episode: u64,
    /// Actions applied in this episode (for rebuilding the game elsewhere).
    pub actions: Vec<Action>,
    /// The action `sample_actions` gives next (drawn at the end of each step,
    /// while the state is in cache, once sampling is in use).
    next: i64,
    /// Index of the game's [`CellLayout`] in the batch (or `NO_LAYOUT`).
    layout: u32,
}

/// Where a step writes its results: slices of `n` envs each (`obs` holds
/// `n * C * H * W` values, `mask` `n * num_actions`, `rewards` `n * num_players`).
pub struct Out<'a> {
    pub obs: Obs<'a>,
    pub mask: Option<&'a mut [bool]>,
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub to_move: &'a mut [i32],
    pub lengths: &'a mut [i64],
}

/// The observation buffer and its element type (`None`: not written).
pub enum Obs<'a> {
    None,
    F32(&'a mut [f32]),
    U8(&'a mut [u8]),
    Bool(&'a mut [bool]),
}

impl<'a> Obs<'a> {
    fn len(&self) -> Option<usize> {
        match self {
            Obs::None => None,
            Obs::F32(s) => Some(s.len()),
            Obs::U8(s) => Some(s.len()),
            Obs::Bool(s) => Some(s.len()),
        }
    }

    fn split_at(self, at: usize) -> (Obs<'a>, Obs<'a>) {
        match self {
            Obs::None => (Obs::None, Obs::None),
            Obs::F32(s) => {
                let (a, b) = s.split_at_mut(at);
                (Obs::F32(a), Obs::F32(b))
            }
            Obs::U8(s) => {
                let (a, b) = s.split_at_mut(at);
                (Obs::U8(a), Obs::U8(b))
            }
            Obs::Bool(s) => {
                let (a, b) = s.split_at_mut(at);
                (Obs::Bool(a), Obs::Bool(b))
            }
        }
    }
}

fn split2<T>(s: &mut [T], at: usize) -> (&mut [T], &mut [T]) {
    s.split_at_mut(at)
}

impl<'a> Out<'a> {
    /// Split off the first `k` envs.
    fn split(self, k: usize, dims: Dims) -> (Out<'a>, Out<'a>) {
        let (o1, o2) = self.obs.split_at(k * dims.obs);
        let (m1, m2) = match self.mask {
            Some(m) => {
                let (a, b) = split2(m, k * dims.actions);
                (Some(a), Some(b))
            }
            None => (None, None),
        };
        let (r1, r2) = split2(self.rewards, k * dims.players);
        let (t1, t2) = split2(self.terminated, k);
        let (u1, u2) = split2(self.truncated, k);
        let (p1, p2) = split2(self.to_move, k);
        let (l1, l2) = split2(self.lengths, k);
        (
            Out { obs: o1, mask: m1, rewards: r1, terminated: t1, truncated: u1, to_move: p1, lengths: l1 },
            Out { obs: o2, mask: m2, rewards: r2, terminated: t2, truncated: u2, to_move: p2, lengths: l2 },
        )
    }
}

/// Why a batch could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchError {
    /// The starts do not fit together (the message says why).
    Invalid(String),
    /// The batch needs about this many bytes, which could not be allocated.
    Memory { envs: usize, bytes: u128 },
    /// The stop flag was raised.
    Cancelled,
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Invalid(m) => f.write_str(m),
            BatchError::Memory { envs, bytes } => write!(f, "cannot allocate a batch of {envs} envs (about {bytes} bytes)"),
            BatchError::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for BatchError {}

/// Heap bytes a game's clone is assumed to take (its tables grow with the
/// board: `cells` of its observation grid), for the up-front check of
/// [`VecGames::build`]. Measured per env, all included, in batches of 2^14
/// to 2^16 envs: 1.3 kB for Churn side 3, 2.7 kB side 8, 4.4 kB for
/// Wunchunk side 8 (6.8 kB with 4 players), 3.3 kB for Quintun side 7 and
/// 6.2 kB side 10; this estimate is above each.
fn heap_estimate(cells: usize) -> u128 {
    1024 + 24 * cells as u128
}

/// Envs handled between two looks at the stop flag.
const STOP_EVERY: usize = 1024;

/// Why a step was refused (nothing was stepped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepError {
    /// Arguments or buffers of the wrong length (the message says which).
    Shape(String),
    /// A reset or step of the batch was cut short: it steps no more until
    /// a reset ends.
    Interrupted,
    /// An action env `env` cannot take (`error.reason` is
    /// [`Reason::ActionOutOfRange`] or [`Reason::IllegalAction`]).
    Illegal { env: usize, action: i64, error: MoveError },
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::Shape(m) => f.write_str(m),
            StepError::Interrupted => f.write_str("a reset or step of this batch was interrupted: reset() it before stepping"),
            StepError::Illegal { error, .. } => f.write_str(&error.message),
        }
    }
}

impl std::error::Error for StepError {}

#[derive(Debug, Clone, Copy)]
struct Dims {
    obs: usize,
    actions: usize,
    players: usize,
}

/// Per-thread scratch space.
#[derive(Default)]
struct Scratch {
    planes: Vec<f32>,
    bytes: Vec<u8>,
    legal: Vec<Action>,
}

thread_local! {
    /// Each thread's [`Scratch`], kept from one work item to the next so a
    /// step allocates nothing once the buffers have grown (taken while in
    /// use; a nested use starts from an empty one).
    static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
}

/// `N` games of type `G` with their start positions.
pub struct VecGames<G: BatchGame> {
    /// The distinct start positions, and the one of each env.
    starts: Vec<G>,
    start_of: Vec<u32>,
    /// The layouts of the boards in play, and the one of each start.
    layouts: Vec<CellLayout>,
    start_layout: Vec<u32>,
    envs: Vec<Env<G>>,
    dims: Dims,
    obs_shape: [usize; 3],
    max_plies: u64,
    /// The legal-action mask of every env's current state (all false for an
    /// env waiting to be reset), kept to check actions without regenerating them.
    legal: Vec<bool>,
    /// True once `sample_actions` has been called: steps then draw each env's
    /// next random action.
    presample: bool,
    /// With `Some(seat)`, every step also plays the other seats' moves
    /// (uniformly random legal actions) until `seat` is to move again.
    autoplay: Option<usize>,
    /// True after a reset or step was stopped part-way, until a reset ends.
    interrupted: bool,
}

/// Envs per parallel work item: small enough to balance the threads, large
/// enough that scheduling costs little.
fn chunk_size(n: usize, threads: usize) -> usize {
    if threads <= 1 {
        n.max(1)
    } else {
        n.div_ceil(threads * 8).max(16)
    }
}

/// Run `work` on every item: on this thread when one thread is asked for or
/// the pool cannot be made (threads out of range, no OS threads left), else
/// on this thread and `threads - 1` of the pool's workers. Each takes the
/// items of its own share first (one of `threads` contiguous shares; this
/// thread always the first, so those envs' states stay in its core's cache
/// from one call to the next), then helps with the others' remaining items.
/// Every item runs once: the same results either way.
fn run_items<I: Send>(items: Vec<I>, threads: usize, work: impl Fn(I) + Sync + Send) {
    if threads <= 1 || items.len() <= 1 {
        items.into_iter().for_each(work);
        return;
    }
    let Ok(p) = pool(threads.min(crate::MAX_THREADS)) else {
        items.into_iter().for_each(work);
        return;
    };
    let (t, m) = (threads.min(items.len()), items.len());
    let slots: Vec<Mutex<Option<I>>> = items.into_iter().map(|x| Mutex::new(Some(x))).collect();
    let next: Vec<AtomicUsize> = (0..t).map(|k| AtomicUsize::new(k * m / t)).collect();
    let share = |me: usize| {
        for d in 0..t {
            let k = (me + d) % t;
            let end = (k + 1) * m / t;
            loop {
                let i = next[k].fetch_add(1, Ordering::Relaxed);
                if i >= end {
                    break;
                }
                let item = slots[i].lock().unwrap_or_else(|e| e.into_inner()).take();
                if let Some(item) = item {
                    work(item);
                }
            }
        }
    };
    if rayon::current_thread_index().is_some() {
        // On a worker of some pool: a scope, which helps rather than waits.
        p.in_place_scope(|s| {
            for k in 1..t {
                let share = &share;
                s.spawn(move |_| share(k));
            }
            share(0);
        });
        return;
    }
    // This thread takes share 0, then waits for the helpers by spinning
    // (a blocking wait costs a wake-up, which on a VM is a good part of a
    // step), and helpers that have not started by the time every item is
    // taken are called off instead of waited for.
    let share_dyn: &(dyn Fn(usize) + Sync) = &share;
    // SAFETY: a helper calls `share` only after moving its state from
    // PENDING to RUNNING, and its last access to anything borrowed here is
    // the store that leaves RUNNING; this function does not return (nor
    // unwind) before every helper's state has left PENDING and RUNNING, so
    // `share` and what it borrows outlive every call.
    let share_static: &'static (dyn Fn(usize) + Sync) =
        unsafe { std::mem::transmute::<&(dyn Fn(usize) + Sync), &'static (dyn Fn(usize) + Sync)>(share_dyn) };
    let states: Vec<Arc<AtomicU8>> = (1..t)
        .map(|k| {
            let st = Arc::new(AtomicU8::new(PENDING));
            let mine = st.clone();
            p.spawn(move || {
                if mine.compare_exchange(PENDING, RUNNING, Ordering::AcqRel, Ordering::Acquire).is_ok() {
                    let ok = catch_unwind(AssertUnwindSafe(|| share_static(k))).is_ok();
                    mine.store(if ok { DONE } else { PANICKED }, Ordering::Release);
                }
            });
            st
        })
        .collect();
    let mine = catch_unwind(AssertUnwindSafe(|| share(0)));
    // Every item is taken now (each share ends by helping with the others).
    let mut panicked = false;
    for st in &states {
        if st.compare_exchange(PENDING, CALLED_OFF, Ordering::AcqRel, Ordering::Acquire).is_ok() {
            continue;
        }
        let mut spins = 0u32;
        loop {
            match st.load(Ordering::Acquire) {
                RUNNING => {}
                PANICKED => {
                    panicked = true;
                    break;
                }
                _ => break,
            }
            spins += 1;
            if spins < 1 << 14 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
    if let Err(e) = mine {
        resume_unwind(e);
    }
    if panicked {
        panic!("a batch worker panicked");
    }
}

/// States of a helper of [`run_items`].
const PENDING: u8 = 0;
const RUNNING: u8 = 1;
const DONE: u8 = 2;
const PANICKED: u8 = 3;
const CALLED_OFF: u8 = 4;

impl<G: BatchGame> VecGames<G> {
    /// One env per start position. Every start must have the same observation
    /// shape, number of actions and number of players, be between turns and
    /// not be over.
    pub fn new(starts: Vec<G>, seed: u64, max_plies: u64) -> Result<VecGames<G>, String> {
        let start_of = (0..starts.len() as u32).collect();
        VecGames::build(starts, start_of, seed, max_plies, &AtomicBool::new(false)).map_err(|e| e.to_string())
    }

    /// One env per entry of `start_of`, which indexes `starts` (the distinct
    /// start positions: each is kept once however many envs start there).
    /// The memory is checked before anything is built (a
    /// [`BatchError::Memory`] rather than an abort); raising `stop` ends
    /// the building with [`BatchError::Cancelled`].
    pub fn build(starts: Vec<G>, start_of: Vec<u32>, seed: u64, max_plies: u64, stop: &AtomicBool) -> Result<VecGames<G>, BatchError> {
        let Some(first) = starts.first() else { return Err(BatchError::Invalid("num_envs must be at least 1, got 0".into())) };
        if start_of.is_empty() {
            return Err(BatchError::Invalid("num_envs must be at least 1, got 0".into()));
        }
        if let Some(&k) = start_of.iter().find(|&&k| k as usize >= starts.len()) {
            return Err(BatchError::Invalid(format!("start index {k} is out of range 0..{}", starts.len())));
        }
        // The first env of each start, to name it in messages.
        let mut first_env = vec![usize::MAX; starts.len()];
        for (i, &k) in start_of.iter().enumerate().rev() {
            first_env[k as usize] = i;
        }
        let obs_shape = first.observation_shape();
        let (num_actions, num_players) = (first.num_actions(), first.num_players());
        for (k, g) in starts.iter().enumerate() {
            let i = first_env[k];
            if g.observation_shape() != obs_shape || g.num_actions() != num_actions || g.num_players() != num_players {
                let s = g.observation_shape();
                return Err(BatchError::Invalid(format!(
                    "env {i} ({}) does not fit env 0 ({}): observations {:?} vs {:?}, {} vs {} actions, {} vs {} players; \
                     envs of one batch need the same observation shape, number of actions and number of players",
                    g.spec(),
                    first.spec(),
                    s,
                    obs_shape,
                    g.num_actions(),
                    num_actions,
                    g.num_players(),
                    num_players
                )));
            }
            check_start(i, g).map_err(BatchError::Invalid)?;
        }
        // Everything a batch holds grows with the number of envs: check the
        // whole (with an estimate of each game's tables) before building.
        let n = start_of.len();
        let per_env = (std::mem::size_of::<Env<G>>() + num_actions) as u128 + heap_estimate(obs_shape[1] * obs_shape[2]);
        let bytes = per_env * n as u128;
        let memory = || BatchError::Memory { envs: n, bytes };
        let fits = usize::try_from(bytes).ok().is_some_and(|b| {
            let mut probe = Vec::<u8>::new();
            let ok = probe.try_reserve_exact(b).is_ok();
            std::hint::black_box(&probe); // an allocation, not optimised away
            ok
        });
        if !fits {
            return Err(memory());
        }
        let mut envs: Vec<Env<G>> = Vec::new();
        envs.try_reserve_exact(n).map_err(|_| memory())?;
        let mut legal: Vec<bool> = Vec::new();
        legal.try_reserve_exact(n * num_actions).map_err(|_| memory())?;
        let dims = Dims { obs: obs_shape.iter().product(), actions: num_actions, players: num_players };
        // Starts sharing a board (by address: the starts keep their boards
        // alive) share its layout.
        let mut layouts = Vec::new();
        let mut by_board: HashMap<usize, u32> = HashMap::new();
        let start_layout = starts
            .iter()
            .map(|g| {
                if !g.direct_observation() {
                    return NO_LAYOUT;
                }
                *by_board.entry(g.board() as *const Board as usize).or_insert_with(|| layout_index(&mut layouts, g.board()))
            })
            .collect::<Vec<_>>();
        // The masks of the starts, copied into each env's row.
        let mut scratch = Scratch::default();
        let masks: Vec<Vec<bool>> = starts
            .iter()
            .map(|g| {
                let mut m = vec![false; num_actions];
                write_mask(g, false, &mut m, &mut scratch.legal);
                m
            })
            .collect();
        for (i, &k) in start_of.iter().enumerate() {
            if i % STOP_EVERY == 0 && stop.load(Ordering::Relaxed) {
                return Err(BatchError::Cancelled);
            }
            let k = k as usize;
            envs.push(Env {
                game: starts[k].clone(),
                rng: rng_for(seed, i as u64),
                plies: 0,
                done: false,
                episode: 0,
                actions: Vec::new(),
                next: 0,
                layout: start_layout[k],
            });
            legal.extend_from_slice(&masks[k]);
        }
        Ok(VecGames {
            starts,
            start_of,
            layouts,
            start_layout,
            envs,
            dims,
            obs_shape,
            max_plies,
            legal,
            presample: false,
            autoplay: None,
            interrupted: false,
        })
    }

    pub fn num_envs(&self) -> usize {
        self.envs.len()
    }
    pub fn num_actions(&self) -> usize {
        self.dims.actions
    }
    pub fn num_players(&self) -> usize {
        self.dims.players
    }
    pub fn observation_shape(&self) -> [usize; 3] {
        self.obs_shape
    }
    pub fn max_plies(&self) -> u64 {
        self.max_plies
    }
    pub fn env(&self, i: usize) -> &Env<G> {
        &self.envs[i]
    }
    pub fn start(&self, i: usize) -> &G {
        &self.starts[self.start_of[i] as usize]
    }

    fn check_out(&self, out: &Out<'_>) -> Result<(), String> {
        let n = self.envs.len();
        let d = self.dims;
        let bad = |what: &str, got: usize, want: usize| Err(format!("{what} buffer holds {got} values, expected {want}"));
        if let Some(l) = out.obs.len() {
            if l != n * d.obs {
                return bad("observation", l, n * d.obs);
            }
        }
        if let Some(m) = &out.mask {
            if m.len() != n * d.actions {
                return bad("mask", m.len(), n * d.actions);
            }
        }
        if out.rewards.len() != n * d.players {
            return bad("rewards", out.rewards.len(), n * d.players);
        }
        for (what, l) in [
            ("terminated", out.terminated.len()),
            ("truncated", out.truncated.len()),
            ("to_move", out.to_move.len()),
            ("episode_lengths", out.lengths.len()),
        ] {
            if l != n {
                return bad(what, l, n);
            }
        }
        Ok(())
    }

    /// Put every env back at its start (reseeding the generators when `seed`
    /// is given) and write the start observations and masks.
    pub fn reset(&mut self, seed: Option<u64>, out: Out<'_>, threads: usize) -> Result<(), String> {
        self.reset_until(seed, out, threads, &AtomicBool::new(false)).map(|_| ())
    }

    /// [`reset`](Self::reset) that stops early when `stop` is raised;
    /// returns whether every env was reset (if not, the batch steps no more
    /// until a reset ends).
    pub fn reset_until(&mut self, seed: Option<u64>, out: Out<'_>, threads: usize, stop: &AtomicBool) -> Result<bool, String> {
        self.check_out(&out)?;
        for (i, env) in self.envs.iter_mut().enumerate() {
            if let Some(s) = seed {
                env.rng = rng_for(s, i as u64);
            }
            env.done = true; // so the step below resets it
        }
        let whole = self.run(None, None, out, threads, stop);
        self.interrupted = !whole;
        Ok(whole)
    }

    /// Check `actions` (one per env) without changing anything. Envs waiting
    /// to be reset take any action.
    pub fn check_actions(&self, actions: &[i64], active: Option<&[bool]>) -> Result<(), StepError> {
        let n = self.envs.len();
        if actions.len() != n {
            return Err(StepError::Shape(format!("expected {n} actions (one per env), got {}", actions.len())));
        }
        if let Some(act) = active {
            if act.len() != n {
                return Err(StepError::Shape(format!("expected {n} active flags (one per env), got {}", act.len())));
            }
        }
        let na = self.dims.actions;
        for (i, (&a, env)) in actions.iter().zip(&self.envs).enumerate() {
            if env.done || active.is_some_and(|act| !act[i]) {
                continue;
            }
            if a < 0 || a as u64 >= na as u64 {
                let error = MoveError::new(Reason::ActionOutOfRange, format!("env {i}: action {a} is out of range 0..{na}"));
                return Err(StepError::Illegal { env: i, action: a, error });
            }
            if !self.legal[i * na + a as usize] {
                let why = if env.game.mid_turn() { " (a turn is in progress)" } else { "" };
                let error = MoveError::new(Reason::IllegalAction, format!("env {i}: action {a} is not legal in its position{why}"));
                return Err(StepError::Illegal { env: i, action: a, error });
            }
        }
        Ok(())
    }

    /// Step every env with its action (see the module doc for autoreset). On
    /// an error nothing has been stepped. With `active`, only the envs flagged
    /// true move; the others keep their state, get reward 0, not terminated,
    /// not truncated, length 0, and their observation and mask rows are left
    /// as they were.
    pub fn step(&mut self, actions: &[i64], active: Option<&[bool]>, out: Out<'_>, threads: usize) -> Result<(), StepError> {
        self.step_until(actions, active, out, threads, &AtomicBool::new(false)).map(|_| ())
    }

    /// [`step`](Self::step) that stops early when `stop` is raised; returns
    /// whether every env was stepped (if not, each env was stepped or left
    /// as it was, and the batch steps no more until a reset ends).
    pub fn step_until(
        &mut self,
        actions: &[i64],
        active: Option<&[bool]>,
        out: Out<'_>,
        threads: usize,
        stop: &AtomicBool,
    ) -> Result<bool, StepError> {
        if self.interrupted {
            return Err(StepError::Interrupted);
        }
        self.check_out(&out).map_err(StepError::Shape)?;
        self.check_actions(actions, active)?;
        let whole = self.run(Some(actions), active, out, threads, stop);
        self.interrupted = !whole;
        Ok(whole)
    }

    /// Step (or reset) every env; false when `stop` cut it short.
    fn run(&mut self, actions: Option<&[i64]>, active: Option<&[bool]>, out: Out<'_>, threads: usize, stop: &AtomicBool) -> bool {
        let n = self.envs.len();
        let dims = self.dims;
        let (starts, start_of, max_plies, presample, autoplay) = (&self.starts, &self.start_of, self.max_plies, self.presample, self.autoplay);
        let cut = AtomicBool::new(false);
        let (layouts, start_layout) = (&self.layouts[..], &self.start_layout[..]);
        let chunk = chunk_size(n, threads);
        // Split the envs, the masks we keep, the actions and the output
        // buffers into matching chunks.
        let mut items = Vec::with_capacity(n.div_ceil(chunk));
        let (mut envs, mut legal, mut out, mut start) = (&mut self.envs[..], &mut self.legal[..], out, 0);
        while !envs.is_empty() {
            let k = chunk.min(envs.len());
            let (e1, e2) = envs.split_at_mut(k);
            let (l1, l2) = legal.split_at_mut(k * dims.actions);
            let (o1, o2) = out.split(k, dims);
            items.push((start, e1, l1, o1));
            (envs, legal, out, start) = (e2, l2, o2, start + k);
        }
        let work = |(first, envs, legal, mut out): (usize, &mut [Env<G>], &mut [bool], Out<'_>)| {
            let mut scratch = SCRATCH.with(|s| s.take());
            for (j, env) in envs.iter_mut().enumerate() {
                if j % STOP_EVERY == 0 && stop.load(Ordering::Relaxed) {
                    cut.store(true, Ordering::Relaxed);
                    break;
                }
                let i = first + j;
                let k = start_of[i] as usize;
                let action = actions.map(|a| a[i]);
                if active.is_some_and(|act| !act[i]) {
                    let p = dims.players;
                    out.rewards[j * p..(j + 1) * p].fill(0.0);
                    (out.terminated[j], out.truncated[j], out.lengths[j]) = (false, false, 0);
                    continue;
                }
                step_env(
                    env,
                    &starts[k],
                    start_layout[k],
                    layouts,
                    action,
                    max_plies,
                    presample,
                    autoplay,
                    dims,
                    &mut scratch,
                    j,
                    &mut legal[j * dims.actions..(j + 1) * dims.actions],
                    &mut out,
                );
            }
            SCRATCH.with(|s| s.set(scratch));
        };
        run_items(items, threads, work);
        !cut.load(Ordering::Relaxed)
    }

    /// A uniformly random legal action for every env (uniform over
    /// `legal_actions`, drawn from the env's generator), written to `out`;
    /// envs waiting to be reset, or without a legal action, get 0 (ignored by
    /// `step`). The draw for a state is made once: calling this again before
    /// the next step gives the same actions.
    pub fn sample_actions(&mut self, out: &mut [i64], threads: usize) -> Result<(), String> {
        let n = self.envs.len();
        if out.len() != n {
            return Err(format!("action buffer holds {} values, expected {n}", out.len()));
        }
        if !self.presample {
            // From now on every step draws the next action while the env's
            // state is in cache; this first draw walks the envs once.
            self.presample = true;
            let chunk = chunk_size(n, threads);
            let work = |envs: &mut [Env<G>]| {
                let mut buf = Vec::new();
                for env in envs.iter_mut() {
                    env.next = if env.done { 0 } else { fresh_draw(env, &mut buf) };
                }
            };
            run_items(self.envs.chunks_mut(chunk).collect(), threads, work);
        }
        for (o, env) in out.iter_mut().zip(&self.envs) {
            *o = env.next;
        }
        Ok(())
    }

    /// Let every step (and reset) play the seats other than `seat` with
    /// uniformly random legal actions, until `seat` is to move or the episode
    /// ends; `None` turns it off. Takes effect from the next step.
    pub fn set_autoplay(&mut self, seat: Option<usize>) -> Result<(), String> {
        if let Some(s) = seat {
            if !(1..=self.dims.players).contains(&s) {
                return Err(format!("player must be a seat 1..{}, got {s}", self.dims.players));
            }
        }
        self.autoplay = seat;
        Ok(())
    }

    pub fn autoplay(&self) -> Option<usize> {
        self.autoplay
    }

    /// Replace env `i`'s game by `game` (same shape rules as the starts), with
    /// `plies` complete moves counted towards `max_plies`; its episode goes on
    /// from there. The env's start position stays as it was.
    pub fn set_env(&mut self, i: usize, game: G, plies: u64) -> Result<(), String> {
        let n = self.envs.len();
        if i >= n {
            return Err(format!("env index {i} is out of range 0..{n}"));
        }
        if game.mid_turn() {
            return Err(format!("env {i}: the position ({}) is in the middle of a turn; finish or undo it", game.spec()));
        }
        let first = &self.starts[0];
        if game.observation_shape() != self.obs_shape || game.num_actions() != self.dims.actions || game.num_players() != self.dims.players {
            return Err(format!("{} does not fit this batch ({}): observations and actions must have the same shape", game.spec(), first.spec()));
        }
        let na = self.dims.actions;
        let layout = if game.direct_observation() { layout_index(&mut self.layouts, game.board()) } else { NO_LAYOUT };
        let env = &mut self.envs[i];
        env.layout = layout;
        env.done = game.is_over() && !game.mid_turn();
        env.game = game;
        env.plies = plies;
        env.episode += 1;
        env.actions.clear();
        let mut buf = Vec::new();
        write_mask(&env.game, env.done, &mut self.legal[i * na..(i + 1) * na], &mut buf);
        if self.presample {
            env.next = if env.done { 0 } else { fresh_draw(env, &mut buf) };
        }
        Ok(())
    }
}

/// The index of `board`'s layout in `layouts`, added when new.
fn layout_index(layouts: &mut Vec<CellLayout>, board: &Board) -> u32 {
    let l = CellLayout::of(board);
    match layouts.iter().position(|x| *x == l) {
        Some(k) => k as u32,
        None => {
            layouts.push(l);
            (layouts.len() - 1) as u32
        }
    }
}

/// A uniform draw from `legal` (0 when empty).
fn draw(rng: &mut Xoshiro256PlusPlus, legal: &[Action]) -> i64 {
    if legal.is_empty() {
        0
    } else {
        legal[below(rng, legal.len())] as i64
    }
}

fn fresh_draw<G: Game>(env: &mut Env<G>, buf: &mut Vec<Action>) -> i64 {
    buf.clear();
    env.game.legal_actions(buf);
    draw(&mut env.rng, buf)
}

/// A start position must leave something to play.
fn check_start<G: Game>(i: usize, g: &G) -> Result<(), String> {
    if g.is_over() {
        return Err(format!("env {i}: the start position ({}) is already over", g.spec()));
    }
    if g.mid_turn() {
        return Err(format!("env {i}: the start position ({}) is in the middle of a turn; finish or undo it", g.spec()));
    }
    Ok(())
}

/// The legal-action mask of `g` (all false when `done`).
fn write_mask<G: Game>(g: &G, done: bool, mask: &mut [bool], buf: &mut Vec<Action>) {
    mask.fill(false);
    if done {
        return;
    }
    buf.clear();
    g.legal_actions(buf);
    for &a in buf.iter() {
        mask[a as usize] = true;
    }
}

/// Apply a legal action to an env; returns (terminated, truncated).
fn apply<G: Game>(env: &mut Env<G>, a: Action, max_plies: u64) -> (bool, bool) {
    env.game.apply_action(a);
    env.actions.push(a);
    if env.game.mid_turn() {
        return (false, false);
    }
    env.plies += 1;
    if env.game.is_over() {
        (true, false)
    } else {
        (false, env.plies >= max_plies)
    }
}

#[allow(clippy::too_many_arguments)]
fn step_env<G: BatchGame>(
    env: &mut Env<G>,
    start: &G,
    start_layout: u32,
    layouts: &[CellLayout],
    action: Option<i64>,
    max_plies: u64,
    presample: bool,
    autoplay: Option<usize>,
    dims: Dims,
    scratch: &mut Scratch,
    j: usize,
    legal: &mut [bool],
    out: &mut Out<'_>,
) {
    let rewards = &mut out.rewards[j * dims.players..(j + 1) * dims.players];
    let (mut terminated, mut truncated) = (false, false);
    if env.done {
        env.game.clone_from(start);
        env.layout = start_layout;
        env.plies = 0;
        env.done = false;
        env.episode += 1;
        env.actions.clear();
    } else {
        // Checked legal by `check_actions`.
        (terminated, truncated) = apply(env, action.unwrap_or(0) as Action, max_plies);
    }
    // The other seats' moves, drawn uniformly from their legal actions.
    if let Some(seat) = autoplay {
        while !(terminated || truncated) && env.game.to_move() != seat {
            scratch.legal.clear();
            env.game.legal_actions(&mut scratch.legal);
            if scratch.legal.is_empty() {
                break;
            }
            let a = scratch.legal[below(&mut env.rng, scratch.legal.len())];
            (terminated, truncated) = apply(env, a, max_plies);
        }
    }
    env.done = terminated || truncated;
    if terminated {
        terminal_rewards(env.game.winner_mask(), dims.players, rewards);
    } else {
        rewards.fill(0.0);
    }
    out.terminated[j] = terminated;
    out.truncated[j] = truncated;
    out.lengths[j] = if env.done { env.plies as i64 } else { 0 };
    out.to_move[j] = env.game.to_move() as i32;
    // The mask of the new state: nothing is legal in a finished game (and a
    // truncated one takes no action before its reset either).
    write_mask(&env.game, terminated, legal, &mut scratch.legal);
    if truncated {
        legal.fill(false);
    }
    if presample {
        env.next = if env.done { 0 } else { draw(&mut env.rng, &scratch.legal) };
    }
    if let Some(m) = out.mask.as_deref_mut() {
        m[j * dims.actions..(j + 1) * dims.actions].copy_from_slice(legal);
    }
    let o = dims.obs;
    if env.layout != NO_LAYOUT {
        let layout = &layouts[env.layout as usize];
        match &mut out.obs {
            Obs::None => {}
            Obs::F32(buf) => env.game.write_observation(layout, &mut buf[j * o..(j + 1) * o], &mut scratch.bytes),
            Obs::U8(buf) => env.game.write_observation(layout, &mut buf[j * o..(j + 1) * o], &mut scratch.bytes),
            Obs::Bool(buf) => env.game.write_observation(layout, &mut buf[j * o..(j + 1) * o], &mut scratch.bytes),
        }
        return;
    }
    match &mut out.obs {
        Obs::None => {}
        Obs::F32(buf) => env.game.observation(&mut buf[j * o..(j + 1) * o]),
        Obs::U8(buf) => {
            scratch.planes.resize(o, 0.0);
            env.game.observation(&mut scratch.planes);
            for (d, &s) in buf[j * o..(j + 1) * o].iter_mut().zip(&scratch.planes) {
                *d = (s.clamp(0.0, 1.0) * 255.0).round() as u8;
            }
        }
        Obs::Bool(buf) => {
            scratch.planes.resize(o, 0.0);
            env.game.observation(&mut scratch.planes);
            for (d, &s) in buf[j * o..(j + 1) * o].iter_mut().zip(&scratch.planes) {
                *d = s != 0.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::{Churn, Quintun, Wunchunk};
    use std::sync::Arc;

    struct Bufs {
        obs: Vec<f32>,
        mask: Vec<bool>,
        rewards: Vec<f32>,
        term: Vec<bool>,
        trunc: Vec<bool>,
        to_move: Vec<i32>,
        lengths: Vec<i64>,
    }

    impl Bufs {
        fn new<G: BatchGame>(v: &VecGames<G>) -> Bufs {
            let n = v.num_envs();
            let s = v.observation_shape();
            Bufs {
                obs: vec![0.0; n * s[0] * s[1] * s[2]],
                mask: vec![false; n * v.num_actions()],
                rewards: vec![0.0; n * v.num_players()],
                term: vec![false; n],
                trunc: vec![false; n],
                to_move: vec![0; n],
                lengths: vec![0; n],
            }
        }
        fn out(&mut self) -> Out<'_> {
            Out {
                obs: Obs::F32(&mut self.obs),
                mask: Some(&mut self.mask),
                rewards: &mut self.rewards,
                terminated: &mut self.term,
                truncated: &mut self.trunc,
                to_move: &mut self.to_move,
                lengths: &mut self.lengths,
            }
        }
    }

    fn run_batch<G: BatchGame>(start: &G, n: usize, threads: usize, steps: usize, max_plies: u64) -> (Vec<f32>, Vec<bool>, Vec<f32>, u64) {
        let mut v = VecGames::new(vec![start.clone(); n], 5, max_plies).unwrap();
        let mut b = Bufs::new(&v);
        v.reset(None, b.out(), threads).unwrap();
        let mut acts = vec![0i64; n];
        let mut ended = 0;
        let mut rsum = vec![0f32; v.num_players()];
        for _ in 0..steps {
            v.sample_actions(&mut acts, threads).unwrap();
            v.step(&acts, None, b.out(), threads).unwrap();
            ended += b.term.iter().zip(&b.trunc).filter(|(a, b)| **a || **b).count() as u64;
            for (k, r) in b.rewards.iter().enumerate() {
                rsum[k % v.num_players()] += r;
            }
        }
        (b.obs, b.mask, rsum, ended)
    }

    #[test]
    fn thread_count_does_not_change_results() {
        let c = Churn::new(Arc::new(Board::hexhex(3).unwrap()), true);
        let one = run_batch(&c, 100, 1, 200, u64::MAX);
        assert!(one.3 > 0);
        assert_eq!(one, run_batch(&c, 100, 2, 200, u64::MAX));
        assert_eq!(one, run_batch(&c, 100, 3, 200, u64::MAX));
        let w = Wunchunk::new(5, 2, crate::WunchunkStart::Standard, crate::WunchunkBalance::Ap).unwrap();
        assert_eq!(run_batch(&w, 40, 1, 100, 10), run_batch(&w, 40, 2, 100, 10));
        let q = Quintun::new(4, crate::QuintunPlacement::Side, true).unwrap();
        assert_eq!(run_batch(&q, 40, 1, 100, u64::MAX), run_batch(&q, 40, 2, 100, u64::MAX));
    }

    /// The direct writer gives `Game::observation`'s values in every element
    /// type (a `u8` holds `round(255 v)`).
    #[test]
    fn direct_observations_match_the_game() {
        let boards =
            [Board::hexhex(2).unwrap(), Board::hexhex(4).unwrap(), Board::hexhex(7).unwrap(), Board::from_sides([2, 3, 4, 2, 3, 4]).unwrap()];
        for board in boards {
            let layout = CellLayout::of(&board);
            for pie in [false, true] {
                let mut g = Churn::new(Arc::new(board.clone()), pie);
                let mut rng = rng_for(9, board.num_cells() as u64);
                let o: usize = g.observation_shape().iter().product();
                let (mut want, mut f, mut u, mut b) = (vec![0f32; o], vec![7f32; o], vec![7u8; o], vec![true; o]);
                let (mut buf, mut scratch) = (Vec::new(), Vec::new());
                for _ in 0..400 {
                    g.observation(&mut want);
                    g.write_observation(&layout, &mut f, &mut scratch);
                    g.write_observation(&layout, &mut u, &mut scratch);
                    g.write_observation(&layout, &mut b, &mut scratch);
                    assert_eq!(f, want);
                    assert!(u.iter().zip(&want).all(|(&x, &y)| x as f32 == (y * 255.0).round()));
                    assert!(b.iter().zip(&want).all(|(&x, &y)| x == (y != 0.0)));
                    if g.is_over() {
                        g = Churn::new(Arc::new(board.clone()), pie);
                        continue;
                    }
                    buf.clear();
                    g.legal_actions(&mut buf);
                    g.apply_action(buf[below(&mut rng, buf.len())]);
                }
            }
        }
    }

    /// Batches draw from `legal_actions`, so its order matters: for Churn it
    /// is `legal_cells` (cell order) then `swap`.
    #[test]
    fn churn_legal_actions_are_the_legal_cells_in_order() {
        let mut rng = rng_for(3, 0);
        let (mut got, mut want) = (Vec::new(), Vec::new());
        for board in [Board::hexhex(3).unwrap(), Board::hexhex(7).unwrap(), Board::from_sides([3, 4, 3, 4, 3, 4]).unwrap()] {
            for pie in [false, true] {
                for _ in 0..5 {
                    let mut g = Churn::new(Arc::new(board.clone()), pie);
                    loop {
                        got.clear();
                        g.legal_actions(&mut got);
                        want.clear();
                        g.legal_cells(&mut want);
                        if g.swap_available() {
                            want.push(board.num_cells() as Action);
                        }
                        assert_eq!(got, want, "{}", g.diagram());
                        if g.is_over() {
                            break;
                        }
                        g.apply_action(got[below(&mut rng, got.len())]);
                    }
                }
            }
        }
    }

    #[test]
    fn bad_actions_step_nothing() {
        let c = Churn::new(Arc::new(Board::hexhex(3).unwrap()), true);
        let mut v = VecGames::new(vec![c.clone(); 3], 0, u64::MAX).unwrap();
        let mut b = Bufs::new(&v);
        v.reset(None, b.out(), 1).unwrap();
        let refused = |e: StepError| match e {
            StepError::Illegal { env, action, error } => (env, action, error.reason),
            e => panic!("{e:?}"),
        };
        let e = v.step(&[0, 1, 99], None, b.out(), 1).unwrap_err();
        assert_eq!(refused(e), (2, 99, Reason::ActionOutOfRange));
        let e = v.step(&[0, 1, 19], None, b.out(), 1).unwrap_err(); // swap before any stone
        assert_eq!(refused(e), (2, 19, Reason::IllegalAction));
        assert!(v.step(&[0, 1], None, b.out(), 1).is_err());
        assert!((0..3).all(|i| v.env(i).actions.is_empty()));
        v.step(&[0, 1, 2], None, b.out(), 1).unwrap();
        assert_eq!(v.env(2).actions, vec![2]);
        assert!(VecGames::<Churn>::new(vec![], 0, 1).is_err());
    }

    #[test]
    fn truncation_and_autoreset() {
        let c = Churn::new(Arc::new(Board::hexhex(3).unwrap()), false);
        let mut v = VecGames::new(vec![c.clone(); 2], 0, 2).unwrap();
        let mut b = Bufs::new(&v);
        v.reset(None, b.out(), 1).unwrap();
        let mut acts = vec![0; 2];
        v.sample_actions(&mut acts, 1).unwrap();
        v.step(&acts, None, b.out(), 1).unwrap();
        assert_eq!(b.trunc, vec![false, false]);
        v.sample_actions(&mut acts, 1).unwrap();
        v.step(&acts, None, b.out(), 1).unwrap();
        assert_eq!(b.trunc, vec![true, true]);
        assert_eq!(b.lengths, vec![2, 2]);
        assert!(b.mask.iter().all(|m| !m));
        v.step(&[-7, 12345], None, b.out(), 1).unwrap(); // ignored: the envs reset
        assert_eq!(b.trunc, vec![false, false]);
        assert_eq!(b.lengths, vec![0, 0]);
        assert_eq!(v.env(0).plies, 0);
        assert_eq!(v.env(0).episode, 2); // the reset, then the autoreset
        assert_eq!(b.mask.iter().filter(|m| **m).count(), 2 * 19);
    }

    #[test]
    fn autoplay_hands_the_move_back() {
        let c = Churn::new(Arc::new(Board::hexhex(3).unwrap()), true);
        let mut v = VecGames::new(vec![c.clone(); 20], 3, u64::MAX).unwrap();
        v.set_autoplay(Some(2)).unwrap();
        assert!(v.set_autoplay(Some(3)).is_err());
        let mut b = Bufs::new(&v);
        v.reset(None, b.out(), 1).unwrap();
        assert!(b.to_move.iter().all(|&p| p == 2));
        let mut acts = vec![0; 20];
        let mut ends = 0;
        for _ in 0..300 {
            v.sample_actions(&mut acts, 1).unwrap();
            v.step(&acts, None, b.out(), 1).unwrap();
            for i in 0..20 {
                if b.term[i] {
                    ends += 1;
                    assert_eq!(b.rewards[2 * i] + b.rewards[2 * i + 1], 0.0);
                } else {
                    assert_eq!(b.to_move[i], 2);
                }
            }
        }
        assert!(ends > 0);
    }
}
