//! Tree-search primitives: apply + undo per action, and move-level perft.
//!
//! `cargo bench -p hexcore-core --bench undo` (add `-- --sample-count 20`
//! for a quick run). `apply_undo` replays seeded random games action by
//! action with `apply_action_undoable`, then undoes them all; divan's
//! items are actions (each applied once and undone once).

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use hexcore_core::{perft_moves, Action, Game, Wunchunk};
use hexcore_core::{WunchunkBalance as Balance, WunchunkStart as Start};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn main() {
    divan::main();
}

/// The actions of `games` seeded random games from `g`.
fn random_games<G: Game>(g: &G, games: usize, seed: u64) -> Vec<Vec<Action>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut buf = Vec::new();
    (0..games)
        .map(|_| {
            let mut s = g.clone();
            let mut acts = Vec::new();
            while let Some(a) = s.random_action(&mut rng, &mut buf) {
                s.apply_action(a);
                acts.push(a);
            }
            acts
        })
        .collect()
}

fn bench_apply_undo<G: Game>(bencher: Bencher, g: &G, games: usize) {
    let lines = random_games(g, games, 1);
    let actions: usize = lines.iter().map(|l| l.len()).sum();
    bencher
        .counter(ItemsCount::new(actions))
        .with_inputs(|| g.clone())
        .bench_local_refs(|s| {
            let mut undos = Vec::with_capacity(256);
            for line in &lines {
                for &a in line {
                    undos.push(s.apply_action_undoable(a));
                }
                while let Some(u) = undos.pop() {
                    s.undo_action(u);
                }
            }
            black_box(s.zobrist())
        });
}

/// Side 6, two players, standard start, balance `ap`.
#[divan::bench]
fn apply_undo_6x2(bencher: Bencher) {
    bench_apply_undo(
        bencher,
        &Wunchunk::new(6, 2, Start::Standard, Balance::Ap).unwrap(),
        20,
    );
}

/// Side 7, three players, standard start, balance `ap`.
#[divan::bench]
fn apply_undo_7x3(bencher: Bencher) {
    bench_apply_undo(
        bencher,
        &Wunchunk::new(7, 3, Start::Standard, Balance::Ap).unwrap(),
        20,
    );
}

/// Move-level perft of side 5 (two players) to depth 3, counting leaves.
#[divan::bench(sample_count = 10)]
fn perft3_5x2(bencher: Bencher) {
    let g = Wunchunk::new(5, 2, Start::Standard, Balance::Ap).unwrap();
    let n = perft_moves(&g, 3);
    bencher
        .counter(ItemsCount::new(n as u64))
        .bench(|| black_box(perft_moves(black_box(&g), 3)));
}
