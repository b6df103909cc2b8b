//! Single-thread UCT from the empty board in simulations per second of the
//! thread's own CPU time (`/proc/thread-self/schedstat`, so other work on a
//! shared machine skews it less than wall time), beside the same game's
//! rollouts alone (the search's evaluator from the empty board, as many as
//! the simulations) and its `random_playouts`: the first search of the
//! process (its tree on memory fresh from the system) and the best of five
//! runs each.
//!
//! `cargo run --release -p hexcore-core --example uct_speed [havannah|y|hex] [simulations]`

use std::sync::atomic::AtomicBool;

use hexcore_core::search::{search, LeafEvaluator, RandomRollouts, SearchOptions};
use hexcore_core::*;

/// CPU time of this thread, in nanoseconds (Linux).
fn cpu_ns() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").expect("Linux /proc");
    s.split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .expect("schedstat's first field")
}

/// (first, best) CPU seconds of `runs` calls of `f`, and what the last returned.
fn best_of(runs: usize, mut f: impl FnMut() -> u64) -> (f64, f64, u64) {
    let (mut first, mut best) = (0.0, f64::MAX);
    let mut units = 0;
    for i in 0..runs {
        let t = cpu_ns();
        units = f();
        let dt = (cpu_ns() - t) * 1e-9;
        if i == 0 {
            first = dt;
        }
        best = best.min(dt);
    }
    (first, best, units)
}

fn run<G: Game>(name: &str, g: &G, sims: u64) {
    let never = AtomicBool::new(false);
    let opts = SearchOptions {
        simulations: Some(sims),
        seed: 1,
        c: 1.4,
        ..Default::default()
    };
    let mut nodes = 0;
    let (first, t, _) = best_of(5, || {
        let r = search(g, &opts, &never).unwrap();
        nodes = r.nodes;
        r.simulations
    });
    println!(
        "{name}: UCT {:.0} simulations/s of CPU time, first search {:.0} ({sims} simulations, {nodes} nodes)",
        sims as f64 / t,
        sims as f64 / first
    );
    let (_, t, _) = best_of(5, || {
        let mut rng = rng_for(1, 0);
        let (mut buf, mut ev) = (Vec::new(), RandomRollouts { max_plies: 1000 });
        for _ in 0..sims {
            std::hint::black_box(ev.evaluate(&mut g.clone(), &mut rng, &mut buf));
        }
        sims
    });
    println!("{name}: rollouts alone {:.0} /s", sims as f64 / t);
    let (_, t, plies) = best_of(5, || {
        playouts(g, sims as usize, 1, 1, u64::MAX)
            .iter()
            .map(|x| x.plies)
            .sum()
    });
    println!(
        "{name}: random_playouts {:.0} /s, {:.1} M plies/s",
        sims as f64 / t,
        plies as f64 / t / 1e6
    );
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let sims: u64 = std::env::args()
        .nth(2)
        .map_or(50_000, |s| s.parse().expect("a number of simulations"));
    if which.is_empty() || which == "havannah" {
        run("havannah(size=8)", &Havannah::new(8, false).unwrap(), sims);
    }
    if which.is_empty() || which == "y" {
        run("y(size=19)", &Y::new(19).unwrap(), sims);
    }
    if which.is_empty() || which == "hex" {
        run("hex(size=11)", &Hex::new(11, 11, false).unwrap(), sims);
    }
}
