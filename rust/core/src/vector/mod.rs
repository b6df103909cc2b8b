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
//! * The envs are split into chunks shared out over the calling thread and
//!   the workers of the shared pool ([`crate::parallel::share_out`]).
//!
//! Files: `env.rs` (one env and its step), `observe.rs` (observation
//! layouts and the direct writers' trait), `slots.rs` (the output buffers,
//! split per chunk), `errors.rs`; this file holds the batch.

mod env;
mod errors;
mod observe;
mod slots;
#[cfg(test)]
mod tests;

pub use env::Env;
pub use errors::{BatchError, Fit, Given, Length, StepError};
pub use observe::{
    fill_plane, mask_equal_each, mask_where, write_bits, write_equal, write_legal_mask,
    write_mask_of, write_masks, write_plane, BatchGame, CellLayout, ObsElem,
};
pub(crate) use observe::{write_cells_mask, write_f32_observation, write_planes_by_action};
pub use slots::{Obs, Out};

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use env::{check_position, fresh_draw, step_env, write_mask, Scratch, NO_DRAW, SCRATCH};
use observe::{layout_index, NO_LAYOUT};
use slots::Dims;

use crate::board::Board;
use crate::game::{Action, MoveError, OptionsError, Reason};
use crate::limits::IntArg;
use crate::parallel::share_out;
use crate::rng::rng_for;

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
/// A step prefetches the memory of the env this many places ahead (see
/// [`Env::prefetch`]), so that its cache lines arrive while others are stepped.
const AHEAD: usize = 3;
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
    /// env waiting to be reset), kept to check actions without regenerating
    /// them; empty when the game writes its masks directly (`direct_mask`).
    legal: Vec<bool>,
    /// The game has a direct mask writer ([`BatchGame::write_legal_mask`]):
    /// actions are checked with [`is_legal_action`](crate::Game::is_legal_action) and the masks go
    /// straight to the caller's buffer.
    direct_mask: bool,
    /// Each env's next sampled action (drawn at the end of each step, while
    /// the state is in cache, once sampling is in use), or [`NO_DRAW`] when
    /// it has none (`sample_actions` gives 0 then). A drawn action is legal,
    /// so a step given it needs no other check.
    next: Vec<i64>,
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

impl<G: BatchGame> VecGames<G> {
    /// One env per start position. Every start must have the same observation
    /// shape, number of actions and number of players, be between turns and
    /// not be over.
    pub fn new(starts: Vec<G>, seed: u64, max_plies: u64) -> Result<VecGames<G>, BatchError> {
        let start_of = (0..starts.len() as u32).collect();
        VecGames::build(starts, start_of, seed, max_plies, &AtomicBool::new(false))
    }

    /// One env per entry of `start_of`, which indexes `starts` (the distinct
    /// start positions: each is kept once however many envs start there).
    /// The memory is checked before anything is built (a
    /// [`BatchError::Memory`] rather than an abort); raising `stop` ends
    /// the building with [`BatchError::Cancelled`].
    pub fn build(
        starts: Vec<G>,
        start_of: Vec<u32>,
        seed: u64,
        max_plies: u64,
        stop: &AtomicBool,
    ) -> Result<VecGames<G>, BatchError> {
        let Some(first) = starts.first() else {
            return Err(BatchError::NoEnvs);
        };
        if start_of.is_empty() {
            return Err(BatchError::NoEnvs);
        }
        if let Some(&k) = start_of.iter().find(|&&k| k as usize >= starts.len()) {
            return Err(BatchError::StartIndex {
                index: k,
                starts: starts.len(),
            });
        }
        // The first env of each start, to name it in messages.
        let mut first_env = vec![usize::MAX; starts.len()];
        for (i, &k) in start_of.iter().enumerate().rev() {
            first_env[k as usize] = i;
        }
        let fit = Fit::of(first);
        let (obs_shape, num_actions, num_players) = (fit.observation, fit.actions, fit.players);
        for (k, g) in starts.iter().enumerate() {
            let i = first_env[k];
            if g.observation_shape() != obs_shape
                || g.num_actions() != num_actions
                || g.num_players() != num_players
            {
                return Err(BatchError::Misfit {
                    env: i,
                    given: Given::Start,
                    game: Box::new(Fit::of(g)),
                    first: Box::new(fit),
                });
            }
            check_position(i, g, Given::Start)?;
        }
        // Everything a batch holds grows with the number of envs: check the
        // whole (with an estimate of each game's tables) before building.
        let n = start_of.len();
        let per_env = (std::mem::size_of::<Env<G>>() + num_actions) as u128
            + heap_estimate(obs_shape[1] * obs_shape[2]);
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
        let direct_mask = first
            .write_legal_mask(&mut vec![false; num_actions])
            .is_some();
        let mut legal: Vec<bool> = Vec::new();
        legal
            .try_reserve_exact(if direct_mask { 0 } else { n * num_actions })
            .map_err(|_| memory())?;
        let mut next: Vec<i64> = Vec::new();
        next.try_reserve_exact(n).map_err(|_| memory())?;
        let dims = Dims {
            obs: obs_shape.iter().product(),
            actions: num_actions,
            players: num_players,
        };
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
                *by_board
                    .entry(g.board() as *const Board as usize)
                    .or_insert_with(|| layout_index(&mut layouts, g.board()))
            })
            .collect::<Vec<_>>();
        // The masks of the starts, copied into each env's row.
        let mut scratch = Scratch::default();
        let masks: Vec<Vec<bool>> = starts
            .iter()
            .filter(|_| !direct_mask)
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
                layout: start_layout[k],
            });
            if !direct_mask {
                legal.extend_from_slice(&masks[k]);
            }
            next.push(NO_DRAW);
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
            direct_mask,
            next,
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

    /// The index of env `i`'s start among the distinct starts it was built with.
    pub fn start_index(&self, i: usize) -> usize {
        self.start_of[i] as usize
    }

    fn check_out(&self, out: &Out<'_>) -> Result<(), StepError> {
        let n = self.envs.len();
        let d = self.dims;
        let bad = |what: &'static str, got: usize, expected: usize| {
            Err(StepError::Shape {
                what: Length::Buffer(what),
                got,
                expected,
            })
        };
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
    pub fn reset(
        &mut self,
        seed: Option<u64>,
        out: Out<'_>,
        threads: usize,
    ) -> Result<(), StepError> {
        self.reset_until(seed, out, threads, &AtomicBool::new(false))
            .map(|_| ())
    }

    /// [`reset`](Self::reset) that stops early when `stop` is raised;
    /// returns whether every env was reset (if not, the batch steps no more
    /// until a reset ends).
    pub fn reset_until(
        &mut self,
        seed: Option<u64>,
        out: Out<'_>,
        threads: usize,
        stop: &AtomicBool,
    ) -> Result<bool, StepError> {
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
            return Err(StepError::Shape {
                what: Length::PerEnv("actions"),
                got: actions.len(),
                expected: n,
            });
        }
        if let Some(act) = active {
            if act.len() != n {
                return Err(StepError::Shape {
                    what: Length::PerEnv("active flags"),
                    got: act.len(),
                    expected: n,
                });
            }
        }
        let na = self.dims.actions;
        for (i, ((&a, env), &next)) in actions.iter().zip(&self.envs).zip(&self.next).enumerate() {
            // A sampled action is legal (and an env that gets one is not done).
            if (a == next && next != NO_DRAW) || env.done || active.is_some_and(|act| !act[i]) {
                continue;
            }
            if a < 0 || a as u64 >= na as u64 {
                let error = MoveError::new(
                    Reason::ActionOutOfRange,
                    format!("env {i}: action {a} is out of range 0..{na}"),
                );
                return Err(StepError::Illegal {
                    env: i,
                    action: a,
                    error,
                });
            }
            let legal = if self.direct_mask {
                env.game.is_legal_action(a as Action)
            } else {
                self.legal[i * na + a as usize]
            };
            if !legal {
                let why = if env.game.mid_turn() {
                    " (a turn is in progress)"
                } else {
                    ""
                };
                let error = MoveError::new(
                    Reason::IllegalAction,
                    format!("env {i}: action {a} is not legal in its position{why}"),
                );
                return Err(StepError::Illegal {
                    env: i,
                    action: a,
                    error,
                });
            }
        }
        Ok(())
    }

    /// Step every env with its action (see the module doc for autoreset). On
    /// an error nothing has been stepped. With `active`, only the envs flagged
    /// true move; the others keep their state, get reward 0, not terminated,
    /// not truncated, length 0, and their observation and mask rows are left
    /// as they were.
    pub fn step(
        &mut self,
        actions: &[i64],
        active: Option<&[bool]>,
        out: Out<'_>,
        threads: usize,
    ) -> Result<(), StepError> {
        self.step_until(actions, active, out, threads, &AtomicBool::new(false))
            .map(|_| ())
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
        self.check_out(&out)?;
        self.check_actions(actions, active)?;
        let whole = self.run(Some(actions), active, out, threads, stop);
        self.interrupted = !whole;
        Ok(whole)
    }

    /// Step (or reset) every env; false when `stop` cut it short.
    fn run(
        &mut self,
        actions: Option<&[i64]>,
        active: Option<&[bool]>,
        out: Out<'_>,
        threads: usize,
        stop: &AtomicBool,
    ) -> bool {
        let n = self.envs.len();
        let dims = self.dims;
        let (starts, start_of, max_plies, presample, autoplay) = (
            &self.starts,
            &self.start_of,
            self.max_plies,
            self.presample,
            self.autoplay,
        );
        let cut = AtomicBool::new(false);
        let (layouts, start_layout) = (&self.layouts[..], &self.start_layout[..]);
        let chunk = chunk_size(n, threads);
        // Split the envs, the masks we keep, the actions and the output
        // buffers into matching chunks.
        let mut items = Vec::with_capacity(n.div_ceil(chunk));
        let kept = if self.direct_mask { 0 } else { dims.actions };
        let (mut envs, mut legal, mut next, mut out, mut start) = (
            &mut self.envs[..],
            &mut self.legal[..],
            &mut self.next[..],
            out,
            0,
        );
        while !envs.is_empty() {
            let k = chunk.min(envs.len());
            let (e1, e2) = envs.split_at_mut(k);
            let (l1, l2) = legal.split_at_mut(k * kept);
            let (n1, n2) = next.split_at_mut(k);
            let (o1, o2) = out.split(k, dims);
            items.push((start, e1, l1, n1, o1));
            (envs, legal, next, out, start) = (e2, l2, n2, o2, start + k);
        }
        type Item<'a, G> = (
            usize,
            &'a mut [Env<G>],
            &'a mut [bool],
            &'a mut [i64],
            Out<'a>,
        );
        let work = |(first, envs, legal, next, mut out): Item<'_, G>| {
            let mut scratch = SCRATCH.with(|s| s.take());
            for j in 0..envs.len() {
                // Not the output rows: they are written in order, which the
                // CPU's own prefetcher follows (prefetching them too cost
                // 3-7% of a Hex step, measured).
                if let Some(e) = envs.get(j + AHEAD) {
                    e.prefetch();
                }
                let env = &mut envs[j];
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
                    (kept > 0).then(|| &mut legal[j * kept..(j + 1) * kept]),
                    &mut next[j],
                    &mut out,
                );
            }
            SCRATCH.with(|s| s.set(scratch));
        };
        share_out(items, threads, work);
        !cut.load(Ordering::Relaxed)
    }

    /// A uniformly random legal action for every env (uniform over
    /// `legal_actions`, drawn from the env's generator), written to `out`;
    /// envs waiting to be reset, or without a legal action, get 0 (ignored by
    /// `step`). The draw for a state is made once: calling this again before
    /// the next step gives the same actions.
    pub fn sample_actions(&mut self, out: &mut [i64], threads: usize) -> Result<(), StepError> {
        let n = self.envs.len();
        if out.len() != n {
            return Err(StepError::Shape {
                what: Length::Buffer("action"),
                got: out.len(),
                expected: n,
            });
        }
        if !self.presample {
            // From now on every step draws the next action while the env's
            // state is in cache; this first draw walks the envs once.
            self.presample = true;
            let chunk = chunk_size(n, threads);
            let work = |(envs, next): (&mut [Env<G>], &mut [i64])| {
                let mut buf = Vec::new();
                for (env, next) in envs.iter_mut().zip(next) {
                    *next = fresh_draw(env, &mut buf);
                }
            };
            share_out(
                self.envs
                    .chunks_mut(chunk)
                    .zip(self.next.chunks_mut(chunk))
                    .collect(),
                threads,
                work,
            );
        }
        for (o, &next) in out.iter_mut().zip(&self.next) {
            *o = next.max(0);
        }
        Ok(())
    }

    /// Let every step (and reset) play the seats other than `seat` with
    /// uniformly random legal actions, until `seat` is to move or the episode
    /// ends; `None` turns it off. Takes effect from the next step.
    pub fn set_autoplay(&mut self, seat: Option<impl Into<IntArg>>) -> Result<(), OptionsError> {
        let players = self.dims.players;
        self.autoplay = match seat.map(Into::into) {
            None => None,
            Some(IntArg::Int(s)) if (1..=players as i64).contains(&s) => Some(s as usize),
            Some(s) => {
                return Err(OptionsError::new(
                    "player",
                    format!("player must be a seat 1..{players}, got {s}"),
                ))
            }
        };
        Ok(())
    }

    pub fn autoplay(&self) -> Option<usize> {
        self.autoplay
    }

    /// Replace env `i`'s game by `game` (same shape rules as the starts), with
    /// `plies` complete moves counted towards `max_plies`; its episode goes on
    /// from there. The env's start position stays as it was.
    pub fn set_env(&mut self, i: usize, game: G, plies: u64) -> Result<(), BatchError> {
        let n = self.envs.len();
        if i >= n {
            return Err(BatchError::EnvIndex { index: i, envs: n });
        }
        if game.mid_turn() {
            return Err(BatchError::Position {
                env: i,
                given: Given::SetEnv,
                spec: game.spec(),
                reason: Reason::MidTurn,
            });
        }
        if game.observation_shape() != self.obs_shape
            || game.num_actions() != self.dims.actions
            || game.num_players() != self.dims.players
        {
            return Err(BatchError::Misfit {
                env: i,
                given: Given::SetEnv,
                game: Box::new(Fit::of(&game)),
                first: Box::new(Fit::of(&self.starts[0])),
            });
        }
        let na = self.dims.actions;
        let layout = if game.direct_observation() {
            layout_index(&mut self.layouts, game.board())
        } else {
            NO_LAYOUT
        };
        let env = &mut self.envs[i];
        env.layout = layout;
        env.done = game.is_over() && !game.mid_turn();
        env.game = game;
        env.plies = plies;
        env.episode += 1;
        env.actions.clear();
        let mut buf = Vec::new();
        if !self.direct_mask {
            write_mask(
                &env.game,
                env.done,
                &mut self.legal[i * na..(i + 1) * na],
                &mut buf,
            );
        }
        self.next[i] = if self.presample {
            fresh_draw(env, &mut buf)
        } else {
            NO_DRAW
        };
        Ok(())
    }
}
