//! `VecGames` of Hex 11x11 (or Churn side 7) stepped with sampled actions,
//! masks and bool observations, as `benches/hex_peers.py` drives it from
//! Python: microseconds per call of `sample_actions` + `step` over 1024
//! envs (or the number given), in wall time and in CPU time of the process (all its threads), the best
//! of five rounds.
//!
//! `cargo run --release -p hexcore-core --example vector_speed [hex|churn] [threads] [calls] [envs]`

use std::time::Instant;

use hexcore_core::vector::{BatchGame, Obs, Out, VecGames};
use hexcore_core::*;

/// CPU time of this process (all its threads), in nanoseconds (Linux:
/// the first field of each thread's `schedstat`).
fn cpu_ns() -> f64 {
    let tasks = std::fs::read_dir("/proc/self/task").expect("Linux /proc");
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .sum()
}

fn run<G: BatchGame>(name: &str, g: &G, n: usize, threads: usize, calls: usize) {
    let mut v = VecGames::new(vec![g.clone(); n], 1, u64::MAX).expect("a batch");
    let o: usize = v.observation_shape().iter().product();
    let (na, np) = (v.num_actions(), v.num_players());
    let (mut obs, mut mask, mut rewards) =
        (vec![false; n * o], vec![false; n * na], vec![0f32; n * np]);
    let (mut term, mut trunc, mut to_move, mut lengths) =
        (vec![false; n], vec![false; n], vec![0i32; n], vec![0i64; n]);
    let mut acts = vec![0i64; n];
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
    v.reset(None, out!(), threads).expect("reset");
    let (mut best_wall, mut best_cpu) = (f64::MAX, f64::MAX);
    for _ in 0..5 {
        let (t, c) = (Instant::now(), cpu_ns());
        for _ in 0..calls {
            v.sample_actions(&mut acts, threads).expect("sample");
            v.step(&acts, None, out!(), threads).expect("step");
        }
        best_wall = best_wall.min(t.elapsed().as_secs_f64() * 1e6 / calls as f64);
        best_cpu = best_cpu.min((cpu_ns() - c) * 1e-3 / calls as f64);
    }
    println!("{name} x {n}, {threads} thread(s): {best_wall:.1} us/call wall ({:.2} M steps/s), {best_cpu:.1} us/call CPU", n as f64 / best_wall);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map(String::as_str).unwrap_or("hex");
    let threads = args.get(2).and_then(|t| t.parse().ok()).unwrap_or(1);
    let calls = args.get(3).and_then(|t| t.parse().ok()).unwrap_or(2000);
    let n = args.get(4).and_then(|t| t.parse().ok()).unwrap_or(1024);
    match which {
        "churn" => run(
            "churn(size=7,pie=false)",
            &Churn::new(std::sync::Arc::new(Board::hexhex(7).expect("board")), false),
            n,
            threads,
            calls,
        ),
        _ => run(
            "hex(size=11)",
            &Hex::new(11, 11, false).expect("hex"),
            n,
            threads,
            calls,
        ),
    }
}
