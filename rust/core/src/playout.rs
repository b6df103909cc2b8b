//! Seeded random playouts.
//!
//! Game `i` of a batch uses its own generator, Xoshiro256++ seeded with
//! SplitMix64(`seed` + `i`), so results do not depend on the number of
//! threads. The policy is the game's `random_action` (uniform over the legal
//! actions unless the game documents otherwise).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::game::{Game, WinnerMask};
use crate::perft::pool;
use crate::zobrist::mix;

/// A uniform integer in `0..n` (`n > 0`): Lemire's multiply-and-reject
/// method, exact and small enough to inline into the playout loops.
#[inline]
pub fn below<R: rand::RngCore + ?Sized>(rng: &mut R, n: usize) -> usize {
    debug_assert!(n > 0);
    let n = n as u64;
    let mut m = rng.next_u64() as u128 * n as u128;
    if (m as u64) < n {
        // Reject the few low products that would over-represent some values.
        let t = n.wrapping_neg() % n;
        while (m as u64) < t {
            m = rng.next_u64() as u128 * n as u128;
        }
    }
    (m >> 64) as usize
}

/// Outcome of one playout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayoutResult {
    /// Complete moves (turns) played.
    pub plies: u64,
    /// Actions applied.
    pub actions: u64,
    pub winners: WinnerMask,
    /// False when the playout stopped at `max_plies` before the end.
    pub finished: bool,
}

/// The generator of game `index` in a batch seeded with `seed`.
pub fn rng_for(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(mix(seed.wrapping_add(index)))
}

/// Play one game to the end (or `max_plies` moves) from `start`.
pub fn playout<G: Game>(start: &G, rng: &mut Xoshiro256PlusPlus, max_plies: u64) -> PlayoutResult {
    let mut g = start.clone();
    let mut buf = Vec::new();
    let mut plies = 0;
    let mut actions = 0;
    while plies < max_plies {
        let Some(a) = g.random_action(rng, &mut buf) else { break };
        g.apply_action(a);
        actions += 1;
        if !g.mid_turn() {
            plies += 1;
        }
    }
    PlayoutResult { plies, actions, winners: g.winner_mask(), finished: g.is_over() }
}

/// `n` seeded playouts on `threads` threads; identical for any thread count.
pub fn playouts<G: Game>(start: &G, n: usize, seed: u64, threads: usize, max_plies: u64) -> Vec<PlayoutResult> {
    let one = |i: usize| playout(start, &mut rng_for(seed, i as u64), max_plies);
    if threads <= 1 {
        (0..n).map(one).collect()
    } else {
        pool(threads).install(|| (0..n).into_par_iter().map(one).collect())
    }
}
