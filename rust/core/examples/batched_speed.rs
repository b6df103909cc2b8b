//! The batched search bench's workload without Python: 256 trees, 32
//! Gumbel (or PUCT) simulations each, a trivial evaluator (uniform priors over the
//! legal actions, every seat worth 1/2) answering in float32 from buffers it
//! keeps, as the numpy evaluator of `benches/batched_search_bench.py` does.
//! Prints simulations per second (wall time, best of `repeats` searches).
//!
//! `cargo run --release -p hexcore-core --example batched_speed [churn|quintun] [threads] [repeats] [gumbel|puct]`

mod common;

use std::sync::Arc;
use std::time::Instant;

use common::Trivial;
use hexcore_core::search::{batched_search, Algorithm, BatchedOptions};
use hexcore_core::*;

/// CPU time of this thread, in seconds (Linux).
fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    s.split_whitespace()
        .next()
        .and_then(|t| t.parse::<f64>().ok())
        .unwrap_or(0.0)
        * 1e-9
}

fn run<G: vector::BatchGame>(
    name: &str,
    g: &G,
    threads: usize,
    repeats: usize,
    algorithm: Algorithm,
) {
    let [c, h, w] = g.observation_shape();
    let (batch, sims) = (256, 32);
    let mut best = 0.0f64;
    let mut share = 0.0;
    let mut cpus = Vec::new();
    for seed in 0..=repeats as u64 {
        let mut ev = Trivial::new(c * h * w, g.num_actions(), g.num_players());
        let opts = BatchedOptions {
            algorithm,
            threads,
            seed,
            ..Default::default()
        };
        let (t, c0) = (Instant::now(), cpu());
        let r = batched_search(vec![g.clone(); batch], sims, &opts, &mut ev).unwrap();
        if seed == repeats as u64 {
            // A checksum of the whole result, to compare builds.
            let bits = r
                .policies
                .iter()
                .chain(&r.q_values)
                .chain(&r.root_values)
                .map(|x| u64::from(x.to_bits()));
            let all = bits.chain(r.visits.iter().chain(&r.actions).map(|&v| u64::from(v)));
            let sum = all.fold(0xcbf2_9ce4_8422_2325u64, |h, x| {
                (h ^ x).wrapping_mul(0x100_0000_01b3)
            });
            println!("{name}, seed {seed}: result checksum {sum:016x}");
        }
        let dt = t.elapsed().as_secs_f64();
        let rate = (batch * sims as usize) as f64 / dt;
        if seed > 0 {
            cpus.push((batch * sims as usize) as f64 / (cpu() - c0));
        }
        if seed > 0 && rate > best {
            best = rate;
            share = ev.seconds / dt;
        }
    }
    cpus.sort_by(f64::total_cmp);
    let median = cpus[cpus.len() / 2];
    println!(
        "{name}, {threads} thread(s): {best:.0} simulations/s (evaluator {:.0}%); per CPU second of the calling thread: best {:.0}, median {median:.0}",
        share * 100.0,
        cpus[cpus.len() - 1]
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).cloned().unwrap_or_default();
    let threads = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let repeats = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let algorithm = if args.get(4).is_some_and(|a| a == "puct") {
        Algorithm::Puct
    } else {
        Algorithm::Gumbel
    };
    if which.is_empty() || which == "churn" {
        run(
            "churn(size=7)",
            &Churn::new(Arc::new(Board::hexhex(7).unwrap()), true),
            threads,
            repeats,
            algorithm,
        );
    }
    if which.is_empty() || which == "quintun" {
        run(
            "quintun(size=7)",
            &Quintun::new(7, QuintunPlacement::Side, true).unwrap(),
            threads,
            repeats,
            algorithm,
        );
    }
}
