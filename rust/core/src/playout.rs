//! Seeded random playouts.
//!
//! Game `i` of a batch uses its own generator, [`rng_for`]`(seed, i)`
//! (Xoshiro256++ seeded with SplitMix64(`seed` + `i`)), so results do not
//! depend on the number of threads. The policy is the game's
//! `play_random` (by default `random_action` at every ply: uniform over
//! the legal actions unless the game documents otherwise).
//!
//! [`playouts_into`] fills a caller's slice with games `first_index..` of a
//! batch, so a long batch can be run in bounded chunks, and stops early
//! (with [`RunError::Cancelled`]) when its stop flag is raised; the flag is
//! read before every game and every few thousand actions.

use std::sync::atomic::{AtomicBool, Ordering};

use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::game::{Action, Game, WinnerMask};
use crate::parallel::{clamp_threads, install, RunError};
use crate::rng::rng_for;

/// Outcome of one playout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlayoutResult {
    /// Complete moves (turns) played.
    pub plies: u64,
    /// Actions applied.
    pub actions: u64,
    pub winners: WinnerMask,
    /// False when the playout stopped at `max_plies` before the end.
    pub finished: bool,
}

/// Play one game to the end (or `max_plies` moves) from `start`.
pub fn playout<G: Game>(start: &G, rng: &mut Xoshiro256PlusPlus, max_plies: u64) -> PlayoutResult {
    static NEVER: AtomicBool = AtomicBool::new(false);
    playout_until(
        start,
        &mut (start.clone(), Vec::new()),
        rng,
        max_plies,
        &NEVER,
    )
    .expect("never stopped")
}

fn playout_until<G: Game>(
    start: &G,
    scratch: &mut (G, Vec<Action>),
    rng: &mut Xoshiro256PlusPlus,
    max_plies: u64,
    stop: &AtomicBool,
) -> Result<PlayoutResult, RunError> {
    let (g, buf) = scratch;
    g.clone_from(start);
    let (plies, actions) = g
        .play_random(rng, max_plies, buf, stop)
        .ok_or(RunError::Cancelled)?;
    Ok(PlayoutResult {
        plies,
        actions,
        winners: g.winner_mask(),
        finished: g.is_over(),
    })
}

/// Games `first_index..first_index + out.len()` of the batch seeded with
/// `seed`, written to `out`, on `threads` threads (`1..=MAX_THREADS`); the
/// results are the same for any thread count and any chunking. When `stop`
/// is raised the call returns `Err(Cancelled)` and `out` is partly written.
pub fn playouts_into<G: Game>(
    start: &G,
    seed: u64,
    first_index: u64,
    out: &mut [PlayoutResult],
    threads: usize,
    max_plies: u64,
    stop: &AtomicBool,
) -> Result<(), RunError> {
    // One scratch state and buffer per worker, copied into for each game.
    let scratch = || (start.clone(), Vec::new());
    let one = |scratch: &mut (G, Vec<Action>),
               (i, r): (usize, &mut PlayoutResult)|
     -> Result<(), RunError> {
        if stop.load(Ordering::Relaxed) {
            return Err(RunError::Cancelled);
        }
        let index = first_index.wrapping_add(i as u64);
        *r = playout_until(start, scratch, &mut rng_for(seed, index), max_plies, stop)?;
        Ok(())
    };
    if threads <= 1 {
        let mut s = scratch();
        out.iter_mut().enumerate().try_for_each(|x| one(&mut s, x))
    } else {
        install(threads, || {
            out.par_iter_mut()
                .enumerate()
                .try_for_each_init(scratch, one)
        })?
    }
}

/// `n` seeded playouts (games `0..n` of the batch), stopped by `stop`.
pub fn try_playouts<G: Game>(
    start: &G,
    n: usize,
    seed: u64,
    threads: usize,
    max_plies: u64,
    stop: &AtomicBool,
) -> Result<Vec<PlayoutResult>, RunError> {
    let mut out = vec![PlayoutResult::default(); n];
    playouts_into(start, seed, 0, &mut out, threads, max_plies, stop)?;
    Ok(out)
}

/// `n` seeded playouts on `threads` threads (clamped to `1..=MAX_THREADS`;
/// on the calling thread if the workers cannot be started); identical for
/// any thread count.
pub fn playouts<G: Game>(
    start: &G,
    n: usize,
    seed: u64,
    threads: usize,
    max_plies: u64,
) -> Vec<PlayoutResult> {
    static NEVER: AtomicBool = AtomicBool::new(false);
    let threads = clamp_threads(threads);
    match try_playouts(start, n, seed, threads, max_plies, &NEVER) {
        Ok(v) => v,
        Err(_) => try_playouts(start, n, seed, 1, max_plies, &NEVER).expect("never stopped"),
    }
}

/// A game that places one stone a ply on any empty cell (Hex, Havannah, Y),
/// for [`play_random_stones`], the random playout they share.
pub(crate) trait StonePlacing {
    /// Whether the game has ended (a win, or a draw where there are draws).
    fn ended(&self) -> bool;
    /// The empty cells, as bit-set words.
    fn empty_cells(&self) -> &[u64];
    /// Whether the swap is on offer now (one more choice at this ply).
    fn swap_open(&self) -> bool {
        false
    }
    /// Takes the swap (not undoable); true when that changed the empty
    /// cells (Hex's swap moves the stone), false when it only recoloured it.
    fn take_swap(&mut self) -> bool {
        false
    }
    /// Places the mover's stone on an empty `cell` (not undoable).
    fn place_stone(&mut self, cell: usize);
}

/// The random playout of a [`StonePlacing`] game: uniform over the legal
/// moves at every ply (the empty cells, and the swap while it is on
/// offer), drawn from a list of the empty cells in cell order shrunk by
/// swap-remove (built again after a swap that moves a stone). A game lasts
/// at most its cell count of plies (and one swap), so no stop flag is
/// polled. Returns the plies played.
pub(crate) fn play_random_stones<G: StonePlacing, R: rand::Rng>(
    g: &mut G,
    rng: &mut R,
    max_plies: u64,
    buf: &mut Vec<Action>,
) -> u64 {
    let fill = |g: &G, buf: &mut Vec<Action>| {
        buf.clear();
        for (wi, &w) in g.empty_cells().iter().enumerate() {
            buf.extend(crate::bitset::BitIter(w).map(|t| (wi * 64 + t as usize) as Action));
        }
    };
    fill(g, buf);
    let mut plies = 0;
    while plies < max_plies && !g.ended() {
        let count = buf.len();
        let i = crate::rng::below(rng, count + g.swap_open() as usize);
        if i == count {
            if g.take_swap() {
                fill(g, buf);
            }
        } else {
            let cell = buf.swap_remove(i);
            g.place_stone(cell as usize);
        }
        plies += 1;
    }
    plies
}
