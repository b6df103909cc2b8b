//! `cargo run --release --example solve_hex -- 5 [seconds] [cells...]`:
//! solve every opening of Hex on the empty n x n board (no swap), or only
//! the named ones (`c3 d2`), one after another on one thread, and print
//! each opening's value for x and the totals; stops starting new openings
//! after `seconds` (default 600). `ALGORITHM=dfpn` solves with df-pn
//! (alpha-beta by default); `HEX_KNOWLEDGE=MASK` switches the values pass's
//! Hex knowledge (bits: 1 the mustplay, 2 dead cells, 4 captured pairs,
//! 8 dominated moves; default 15, all) to measure what each rule saves.
use std::time::Instant;

use hexcore_core::solve::{solve, Algorithm, Monitor, SolveOptions};
use hexcore_core::{set_hex_knowledge, Game, Hex};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let budget: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(600.0);
    let mb: usize = std::env::var("TABLE_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1024);
    let algorithm = match std::env::var("ALGORITHM").as_deref() {
        Ok("dfpn") => Some(Algorithm::Dfpn),
        _ => Some(Algorithm::AlphaBeta),
    };
    if let Some(mask) = std::env::var("HEX_KNOWLEDGE")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        set_hex_knowledge(mask);
    }
    let g = Hex::new(n, n, false).unwrap();
    let t0 = Instant::now();
    let (mut solved, mut nodes, mut wins) = (0, 0u64, 0);
    let mut acts = Vec::new();
    g.legal_actions(&mut acts);
    let only: Vec<&String> = args.iter().skip(3).collect();
    for &a in &acts {
        if !only.is_empty() && !only.iter().any(|&c| *c == g.action_to_string(a)) {
            continue;
        }
        let left = budget - t0.elapsed().as_secs_f64();
        if left <= 0.0 {
            break;
        }
        let mut c = g.clone();
        c.apply_action(a);
        let opts = SolveOptions {
            threads: 1,
            table_bytes: mb << 20,
            distances: false,
            max_seconds: Some(left),
            algorithm,
            ..Default::default()
        };
        let s = solve(&c, &opts, &Monitor::default()).unwrap();
        nodes += s.nodes;
        if !s.complete {
            println!("{} unsolved after {:.1}s", g.action_to_string(a), s.seconds);
            break;
        }
        // The value is o's (to move): x's opening wins when o loses.
        let x_wins = s.value == Some(hexcore_core::solve::Outcome::Loss);
        wins += x_wins as usize;
        solved += 1;
        println!(
            "{} {} ({} nodes, {:.2}s)",
            g.action_to_string(a),
            if x_wins { "x wins" } else { "o wins" },
            s.nodes,
            s.seconds
        );
    }
    println!(
        "{n}x{n}: {solved} of {} openings solved in {:.1}s, {wins} winning for x, {nodes} nodes",
        acts.len(),
        t0.elapsed().as_secs_f64()
    );
}
