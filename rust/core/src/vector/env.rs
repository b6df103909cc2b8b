//! One env of a batch and how it takes a step: apply the action (or the
//! autoreset), play the other seats when autoplay is on, then write the
//! rewards, flags, mask and observation of the new state.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::errors::{BatchError, Given};
use super::observe::{write_legal_mask, BatchGame, CellLayout, NO_LAYOUT};
use super::slots::{Dims, Obs, Out};
use crate::game::{Action, Game, Reason};
use crate::outcome::terminal_rewards;
use crate::rng::below;
use crate::unchecked::{prefetch, prefetch_slice};

/// One env of a batch.
#[derive(Clone)]
pub struct Env<G: Game> {
    pub game: G,
    pub(super) rng: Xoshiro256PlusPlus,
    /// Complete moves played in this episode.
    pub plies: u64,
    /// True after the step that ended the episode, until the next step resets it.
    pub done: bool,
    /// Episodes started so far (0 for the first).
    pub episode: u64,
    /// Actions applied in this episode (for rebuilding the game elsewhere).
    pub actions: Vec<Action>,
    /// Index of the game's [`CellLayout`] in the batch (or `NO_LAYOUT`).
    pub(super) layout: u32,
}

impl<G: BatchGame> Env<G> {
    /// Prefetch the cache lines a step of this env uses: its own, the
    /// game's ([`BatchGame::prefetch`]) and the end of its action list
    /// (done a few envs ahead, so they are in cache by its step).
    #[inline(always)]
    pub(super) fn prefetch(&self) {
        prefetch_slice(std::slice::from_ref(self));
        self.game.prefetch();
        prefetch(self.actions.as_ptr().wrapping_add(self.actions.len()));
    }
}

/// Per-thread scratch space.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) planes: Vec<f32>,
    pub(super) bytes: Vec<u8>,
    pub(super) legal: Vec<Action>,
    /// The mask of an env whose mask is neither kept nor asked for.
    pub(super) mask: Vec<bool>,
}

thread_local! {
    /// Each thread's [`Scratch`], kept from one work item to the next so a
    /// step allocates nothing once the buffers have grown (taken while in
    /// use; a nested use starts from an empty one).
    pub(super) static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
}

/// The next sampled action of an env that has none (waiting for its reset,
/// or without a legal action): `sample_actions` gives 0 for it.
pub(super) const NO_DRAW: i64 = -1;

/// A uniform draw from `legal` ([`NO_DRAW`] when empty).
pub(super) fn draw(rng: &mut Xoshiro256PlusPlus, legal: &[Action]) -> i64 {
    if legal.is_empty() {
        NO_DRAW
    } else {
        legal[below(rng, legal.len())] as i64
    }
}

/// The next sampled action of `env` ([`NO_DRAW`] when it is done).
pub(super) fn fresh_draw<G: Game>(env: &mut Env<G>, buf: &mut Vec<Action>) -> i64 {
    if env.done {
        return NO_DRAW;
    }
    buf.clear();
    env.game.legal_actions(buf);
    draw(&mut env.rng, buf)
}

/// A start position must leave something to play, between turns.
pub(super) fn check_position<G: Game>(env: usize, g: &G, given: Given) -> Result<(), BatchError> {
    let reason = if g.is_over() {
        Reason::GameOver
    } else if g.mid_turn() {
        Reason::MidTurn
    } else {
        return Ok(());
    };
    Err(BatchError::Position {
        env,
        given,
        spec: g.spec(),
        reason,
    })
}

/// The legal-action mask of `g` (all false when `done`), and its legal
/// actions in `buf` (left empty when `done`).
pub(super) fn write_mask<G: Game>(g: &G, done: bool, mask: &mut [bool], buf: &mut Vec<Action>) {
    buf.clear();
    if done {
        mask.fill(false);
        return;
    }
    g.legal_actions(buf);
    write_legal_mask(buf, mask);
}

/// The legal actions of `g` as [`write_mask`] gives them: from the game's
/// direct mask writer when it has one, without making the list.
pub(super) enum Legal<'a> {
    /// `count` legal actions, the `k`-th from [`BatchGame::nth_legal`].
    Direct(usize),
    /// The list.
    Listed(&'a [Action]),
}

impl Legal<'_> {
    /// A uniform draw among them ([`draw`]'s numbers: [`NO_DRAW`] when there is none).
    fn draw<G: BatchGame>(&self, g: &G, rng: &mut Xoshiro256PlusPlus) -> i64 {
        match *self {
            Legal::Listed(l) => draw(rng, l),
            Legal::Direct(0) => NO_DRAW,
            Legal::Direct(n) => g.nth_legal(below(rng, n)) as i64,
        }
    }
}

/// [`write_mask`] through the game's direct mask writer when it has one.
fn write_mask_fast<'b, G: BatchGame>(
    g: &G,
    done: bool,
    mask: &mut [bool],
    buf: &'b mut Vec<Action>,
) -> Legal<'b> {
    if !done {
        if let Some(n) = g.write_legal_mask(mask) {
            return Legal::Direct(n);
        }
    }
    write_mask(g, done, mask, buf);
    Legal::Listed(buf)
}

/// Apply a legal action to an env; returns (terminated, truncated).
pub(super) fn apply<G: Game>(env: &mut Env<G>, a: Action, max_plies: u64) -> (bool, bool) {
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
pub(super) fn step_env<G: BatchGame>(
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
    kept: Option<&mut [bool]>,
    next: &mut i64,
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
    // truncated one takes no action before its reset either). A batch that
    // keeps the masks writes them there and copies them out; else straight
    // into the caller's buffer (or scratch space when there is none).
    let na = dims.actions;
    let mask_out = out
        .mask
        .as_deref_mut()
        .map(|m| &mut m[j * na..(j + 1) * na]);
    let (row, copy_to): (&mut [bool], Option<&mut [bool]>) = match (kept, mask_out) {
        (Some(legal), m) => (legal, m),
        (None, Some(m)) => (m, None),
        (None, None) => {
            scratch.mask.resize(na, false);
            (&mut scratch.mask[..], None)
        }
    };
    let listed = write_mask_fast(&env.game, terminated, row, &mut scratch.legal);
    if presample {
        *next = if env.done {
            NO_DRAW
        } else {
            listed.draw(&env.game, &mut env.rng)
        };
    }
    if truncated {
        row.fill(false);
    }
    if let Some(m) = copy_to {
        m.copy_from_slice(row);
    }
    let o = dims.obs;
    if env.layout != NO_LAYOUT {
        let layout = &layouts[env.layout as usize];
        match &mut out.obs {
            Obs::None => {}
            Obs::F32(buf) => {
                env.game
                    .write_observation(layout, &mut buf[j * o..(j + 1) * o], &mut scratch.bytes)
            }
            Obs::U8(buf) => {
                env.game
                    .write_observation(layout, &mut buf[j * o..(j + 1) * o], &mut scratch.bytes)
            }
            Obs::Bool(buf) => {
                env.game
                    .write_observation(layout, &mut buf[j * o..(j + 1) * o], &mut scratch.bytes)
            }
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
