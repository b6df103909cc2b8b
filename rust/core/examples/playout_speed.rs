//! Seeded single-thread random playouts, in plies per second of the
//! thread's own CPU time (read from `/proc/thread-self/schedstat`, so other
//! work on a shared machine skews it less than wall time): the best of seven
//! batches per game.
//!
//! `cargo run --release -p hexcore-core --example playout_speed [hex|quintun]`

use hexcore_core::*;

/// CPU time of this thread, in nanoseconds (Linux).
fn cpu_ns() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").expect("Linux /proc");
    s.split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .expect("schedstat's first field")
}

fn run<G: Game>(name: &str, g: &G, games: usize) {
    let mut best = f64::MAX;
    let mut plies = 0;
    for _ in 0..7 {
        let t = cpu_ns();
        let r = playouts(g, games, 1, 1, u64::MAX);
        best = best.min((cpu_ns() - t) * 1e-9);
        plies = r.iter().map(|x| x.plies).sum::<u64>();
    }
    println!("{name}: {:.1} M plies/s of CPU time (best of 7 batches of {games} games, {plies} plies each)", plies as f64 / best / 1e6);
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    if which.is_empty() || which == "hex" {
        run("hex(size=11)", &Hex::new(11, 11, false).unwrap(), 20_000);
        run("hex(size=7)", &Hex::new(7, 7, false).unwrap(), 20_000);
    }
    if which.is_empty() || which == "quintun" {
        run(
            "quintun(size=7)",
            &Quintun::new(7, QuintunPlacement::Side, true).unwrap(),
            2_000,
        );
        run(
            "quintun(size=5)",
            &Quintun::new(5, QuintunPlacement::Side, true).unwrap(),
            2_000,
        );
    }
}
