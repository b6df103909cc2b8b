//! Random Churn playouts from the empty board: `cargo run --release --example churn_playouts -- SIZE GAMES`.
use std::sync::Arc;
use std::time::Instant;

use hexcore_core::{playouts, Board, Churn};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let games: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let g = Churn::new(Arc::new(Board::hexhex(size).unwrap()), false);
    let t = Instant::now();
    let res = playouts(&g, games, 1, 1, u64::MAX);
    let dt = t.elapsed().as_secs_f64();
    let plies: u64 = res.iter().map(|r| r.plies).sum();
    println!("side {size}: {games} games, mean {:.1} plies, {:.2} M plies/s", plies as f64 / games as f64, plies as f64 / dt / 1e6);
}
