//! Fixed, seeded, one-thread workloads whose instructions
//! `scripts/check_instructions.py` counts under `valgrind --tool=callgrind`
//! (collecting only inside [`hexcore_measured`]): the jobs of the benches,
//! made small. Prints the work units the measured part did, as
//! `units <count> <unit>`.
//!
//! `cargo run --release -p hexcore-core --example instructions WORKLOAD`, one of
//! `playouts-churn5`, `playouts-hex11`, `perft-churn3`, `vecgame-hex11`,
//! `batched-gumbel-churn7`, `batched-puct-churn7`, `batched-gumbel-quintun7`,
//! `batched-puct-quintun7`, `uct-churn4`.

mod common;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use common::Trivial;
use hexcore_core::search::{batched_search, search, Algorithm, BatchedOptions, SearchOptions};
use hexcore_core::vector::{BatchGame, Obs, Out, VecGames};
use hexcore_core::*;

/// The measured part: callgrind collects from the entry of this function to
/// its return (`--toggle-collect=hexcore_measured`).
#[no_mangle]
#[inline(never)]
pub extern "Rust" fn hexcore_measured(work: &mut dyn FnMut() -> u64) -> u64 {
    work()
}

fn measure(mut work: impl FnMut() -> u64) -> u64 {
    hexcore_measured(&mut work)
}

fn churn(size: usize, pie: bool) -> Churn {
    Churn::new(Arc::new(Board::hexhex(size).expect("a board")), pie)
}

/// Seeded random playouts on one thread (`BENCH_PLAYOUTS`): plies.
fn playouts_of<G: Game>(g: &G, games: usize) -> u64 {
    measure(|| {
        playouts(g, games, 1, 1, u64::MAX)
            .iter()
            .map(|r| r.plies)
            .sum()
    })
}

/// `sample_actions` + `step` of a `VecGames` on one thread, masks and bool
/// observations (`vector_speed`): env-steps.
fn vecgame<G: BatchGame>(g: &G, envs: usize, calls: usize) -> u64 {
    let mut v = VecGames::new(vec![g.clone(); envs], 1, u64::MAX).expect("a batch");
    let o: usize = v.observation_shape().iter().product();
    let (na, np) = (v.num_actions(), v.num_players());
    let (mut obs, mut mask, mut rewards) = (
        vec![false; envs * o],
        vec![false; envs * na],
        vec![0f32; envs * np],
    );
    let (mut term, mut trunc, mut to_move, mut lengths) = (
        vec![false; envs],
        vec![false; envs],
        vec![0i32; envs],
        vec![0i64; envs],
    );
    let mut acts = vec![0i64; envs];
    macro_rules! out {
        () => {
            Out {
                obs: Obs::Bool(&mut obs),
                mask: Some(&mut mask),
                rewards: &mut rewards,
                terminated: &mut term,
                truncated: &mut trunc,
                to_move: &mut to_move,
                lengths: &mut lengths,
            }
        };
    }
    v.reset(None, out!(), 1).expect("reset");
    measure(|| {
        for _ in 0..calls {
            v.sample_actions(&mut acts, 1).expect("sample");
            v.step(&acts, None, out!(), 1).expect("step");
        }
        (envs * calls) as u64
    })
}

/// Three searches (seeds 0, 1, 2) of 256 trees, 32 simulations each, with
/// the trivial evaluator (`batched_speed G 1 2`): simulations.
fn batched<G: BatchGame>(g: &G, algorithm: Algorithm) -> u64 {
    let [c, h, w] = g.observation_shape();
    let (batch, sims) = (256, 32);
    measure(|| {
        for seed in 0..3 {
            let mut ev = Trivial::new(c * h * w, g.num_actions(), g.num_players());
            let opts = BatchedOptions {
                algorithm,
                threads: 1,
                seed,
                ..Default::default()
            };
            batched_search(vec![g.clone(); batch], sims, &opts, &mut ev).expect("a search");
        }
        3 * batch as u64 * sims
    })
}

/// One UCT search with random rollouts on one thread (`BENCH_SEARCH`): simulations.
fn uct<G: Game>(g: &G, simulations: u64) -> u64 {
    let opts = SearchOptions {
        simulations: Some(simulations),
        threads: 1,
        seed: 1,
        ..Default::default()
    };
    measure(|| {
        search(g, &opts, &AtomicBool::new(false))
            .expect("a search")
            .simulations
    })
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let (units, unit) = match which.as_str() {
        "playouts-churn5" => (playouts_of(&churn(5, false), 40), "plies"),
        "playouts-hex11" => (
            playouts_of(&Hex::new(11, 11, false).expect("hex"), 1000),
            "plies",
        ),
        "perft-churn3" => {
            let g = churn(3, true);
            (measure(|| perft(&g, 6, Unit::Move, 1) as u64), "nodes")
        }
        "vecgame-hex11" => (
            vecgame(&Hex::new(11, 11, false).expect("hex"), 64, 200),
            "env-steps",
        ),
        "batched-gumbel-churn7" => (batched(&churn(7, true), Algorithm::Gumbel), "simulations"),
        "batched-puct-churn7" => (batched(&churn(7, true), Algorithm::Puct), "simulations"),
        "batched-gumbel-quintun7" => (
            batched(
                &Quintun::new(7, QuintunPlacement::Side, true).expect("quintun"),
                Algorithm::Gumbel,
            ),
            "simulations",
        ),
        "batched-puct-quintun7" => (
            batched(
                &Quintun::new(7, QuintunPlacement::Side, true).expect("quintun"),
                Algorithm::Puct,
            ),
            "simulations",
        ),
        "uct-churn4" => (uct(&churn(4, true), 500), "simulations"),
        _ => {
            eprintln!(
                "unknown workload {which:?}: see the top of rust/core/examples/instructions.rs"
            );
            std::process::exit(2);
        }
    };
    println!("units {units} {unit}");
}
