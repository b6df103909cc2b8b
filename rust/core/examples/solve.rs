//! `cargo run --release --example solve -- churn 3 [pie] [threads]`: solve an
//! empty Churn board and print each move's value.
use std::sync::Arc;

use hexcore_core::solve::{solve, Monitor, SolveOptions};
use hexcore_core::{Board, Churn};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let board = if let Ok(n) = args.get(2).map_or("3", |s| s.as_str()).parse::<usize>() {
        Board::hexhex(n).unwrap()
    } else {
        Board::named(&args[2]).unwrap()
    };
    let pie = args.get(3).is_some_and(|s| s == "pie");
    let threads = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let g = Churn::new(Arc::new(board), pie);
    let dist = std::env::var("NODIST").is_err();
    let mb: usize = std::env::var("TABLE_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(256);
    let opts = SolveOptions {
        threads,
        table_bytes: mb << 20,
        distances: dist,
        ..Default::default()
    };
    let s = solve(&g, &opts, &Monitor::default()).unwrap();
    for m in &s.moves {
        println!("{} {:?}", m.text, m.value);
    }
    println!(
        "value {:?} best {:?} plies {:?} nodes {} secs {:.2} nps {:.0} entries {} / {} syms {}",
        s.value,
        s.best.map(|i| &s.moves[i].text),
        s.plies_to_end,
        s.nodes,
        s.seconds,
        s.nodes as f64 / s.seconds,
        s.table_entries,
        s.table_capacity,
        s.symmetries
    );
}
