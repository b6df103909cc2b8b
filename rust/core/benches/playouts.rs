//! Seeded single-thread random playouts from the start position.
//!
//! `cargo bench -p hexcore-core --bench playouts` (add `-- --sample-count 3`
//! for a quick run). Each iteration plays a fixed number of seeded games;
//! divan reports the time per iteration and plies per second. Churn games
//! grow fast with the side (side 8 takes minutes per hundred games), so the
//! Churn sides stay small.

use std::sync::Arc;

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use hexcore_core::{playouts, Board, Churn, Game, Wunchunk};
use hexcore_core::{WunchunkBalance as Balance, WunchunkStart as Start};

fn main() {
    divan::main();
}

/// `games` seeded playouts per iteration, counting plies.
fn bench_playouts<G: Game>(bencher: Bencher, g: &G, games: usize) {
    // plies of the same seeded games, counted once up front
    let plies: u64 = playouts(g, games, 1, 1, u64::MAX)
        .iter()
        .map(|r| r.plies)
        .sum();
    bencher
        .counter(ItemsCount::new(plies))
        .bench(|| black_box(playouts(black_box(g), games, 1, 1, u64::MAX)));
}

/// Churn on the empty hexhex board of the given side.
#[divan::bench(args = [4, 5])]
fn churn(bencher: Bencher, size: usize) {
    let g = Churn::new(Arc::new(Board::hexhex(size).unwrap()), false);
    bench_playouts(bencher, &g, 100);
}

/// Wunchunk, side 6, two players, standard start, balance rule `ap`.
#[divan::bench]
fn wunchunk(bencher: Bencher) {
    let g = Wunchunk::new(6, 2, Start::Standard, Balance::Ap).unwrap();
    bench_playouts(bencher, &g, 1000);
}

/// Hex on the empty rhombus of the given size, no swap (pgx and OpenSpiel
/// play the same game).
#[divan::bench(args = [7, 11])]
fn hex(bencher: Bencher, size: usize) {
    let g = hexcore_core::Hex::new(size, size, false).unwrap();
    bench_playouts(bencher, &g, 1000);
}

/// Quintun on the empty board of the given side, `side` placement, the
/// default options (it shares the group code with Hex and Wunchunk).
#[divan::bench(args = [5, 7])]
fn quintun(bencher: Bencher, size: usize) {
    let g = hexcore_core::Quintun::new(size, hexcore_core::QuintunPlacement::Side, true).unwrap();
    bench_playouts(bencher, &g, 200);
}
