//! Random numbers shared by the games and the playouts: the seeded generator
//! of each game of a batch and an exact uniform draw below a bound.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

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

/// The generator of game `index` in a batch seeded with `seed`:
/// Xoshiro256++ seeded with SplitMix64(`seed` + `index`).
pub fn rng_for(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(mix(seed.wrapping_add(index)))
}
