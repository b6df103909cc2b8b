//! `cargo run --release --example hex_knowledge_sound -- [count]`: the
//! soundness check of the Hex knowledge at scale. `count` (default 1000)
//! random midgames of each of Hex 4x4, 5x5 and 6x6 are solved by df-pn and
//! by alpha-beta's values pass with each rule of the knowledge alone, none
//! and all (`set_hex_knowledge`: 1 the mustplay, 2 dead cells, 4 captured
//! pairs, 8 dominated moves), and every root move's value is compared with a reference that
//! uses none of it: plain minimax over every move (with a memo of the
//! positions, no cuts) on 4x4 and 5x5, alpha-beta's distance pass (which
//! uses no Hex knowledge) on 6x6. Prints the counts and exits non-zero on
//! the first disagreement.
use std::collections::HashMap;
use std::time::Instant;

use hexcore_core::solve::{solve, Algorithm, Monitor, Outcome, SolveOptions};
use hexcore_core::{
    set_hex_knowledge, Action, Game, Hex, HEX_KNOW_ALL, HEX_KNOW_CAPTURED, HEX_KNOW_DEAD,
    HEX_KNOW_DOMINATED, HEX_KNOW_MUSTPLAY,
};

/// A small seeded generator (xorshift64*), so the midgames are the same on
/// every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// A random position of an n x n board with `empty` empty cells, not over.
fn midgame(n: usize, empty: usize, rng: &mut Rng) -> Hex {
    loop {
        let mut g = Hex::new(n, n, false).unwrap();
        let mut acts = Vec::new();
        while !g.is_over() && acts.len() != empty {
            acts.clear();
            g.legal_actions(&mut acts);
            if acts.len() == empty {
                break;
            }
            let a = acts[rng.below(acts.len())];
            g.apply_action(a);
        }
        if !g.is_over() {
            return g;
        }
    }
}

fn key(g: &Hex) -> (u64, u64) {
    let (mut xs, mut os) = (0u64, 0u64);
    for c in 0..64.min(g.board().num_cells()) {
        match g.cell_value(c) {
            1 => xs |= 1 << c,
            2 => os |= 1 << c,
            _ => {}
        }
    }
    (xs, os)
}

/// Whether the player to move wins: plain minimax over every move.
fn wins(g: &mut Hex, memo: &mut HashMap<(u64, u64), bool>) -> bool {
    let k = key(g);
    if let Some(&w) = memo.get(&k) {
        return w;
    }
    let mut acts = Vec::new();
    g.legal_actions(&mut acts);
    debug_assert!(acts.len() <= 64);
    let w = acts.iter().any(|&a| {
        let u = g.apply_action_undoable(a);
        let w = g.is_over() || !wins(g, memo);
        g.undo_action(u);
        w
    });
    memo.insert(k, w);
    w
}

/// Every move's value for the mover, by minimax.
fn minimax_moves(g: &Hex, memo: &mut HashMap<(u64, u64), bool>) -> Vec<(Action, bool)> {
    let mut acts = Vec::new();
    g.legal_actions(&mut acts);
    acts.iter()
        .map(|&a| {
            let mut c = g.clone();
            c.apply_action(a);
            (a, c.is_over() || !wins(&mut c, memo))
        })
        .collect()
}

fn solved_moves(g: &Hex, algorithm: Algorithm, distances: bool) -> Vec<(Action, bool)> {
    let opts = SolveOptions {
        threads: 1,
        table_bytes: 16 << 20,
        distances,
        algorithm: Some(algorithm),
        ..Default::default()
    };
    let s = solve(g, &opts, &Monitor::default()).unwrap();
    assert!(s.complete);
    s.moves
        .iter()
        .map(|m| {
            let a = m.actions[0];
            (a, m.value == Some(Outcome::Win))
        })
        .collect()
}

fn main() {
    let count: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let masks = [
        0,
        HEX_KNOW_MUSTPLAY,
        HEX_KNOW_DEAD,
        HEX_KNOW_CAPTURED,
        HEX_KNOW_DOMINATED,
        HEX_KNOW_ALL,
    ];
    for (n, empties) in [(4, &[6, 8, 10][..]), (5, &[10, 12, 14]), (6, &[16, 18, 20])] {
        let t0 = Instant::now();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ n as u64);
        let mut memo = HashMap::new();
        let (mut wins_seen, mut moves_checked) = (0usize, 0usize);
        for i in 0..count {
            let g = midgame(n, empties[i % empties.len()], &mut rng);
            let want = if n <= 5 {
                set_hex_knowledge(0);
                minimax_moves(&g, &mut memo)
            } else {
                set_hex_knowledge(0);
                solved_moves(&g, Algorithm::AlphaBeta, true)
            };
            wins_seen += want.iter().any(|m| m.1) as usize;
            for &mask in &masks {
                set_hex_knowledge(mask);
                for algorithm in [Algorithm::Dfpn, Algorithm::AlphaBeta] {
                    let t = Instant::now();
                    let got = solved_moves(&g, algorithm, false);
                    if std::env::var("VERBOSE").is_ok() {
                        eprintln!(
                            "{n} {i} {mask} {algorithm:?} {:.3}",
                            t.elapsed().as_secs_f64()
                        );
                    }
                    let mut got_sorted = got.clone();
                    got_sorted.sort();
                    let mut want_sorted = want.clone();
                    want_sorted.sort();
                    if got_sorted != want_sorted {
                        eprintln!(
                            "{n}x{n} midgame {i} ({algorithm:?}, knowledge {mask}): {} to move, \
                             cells {:?}: got {got:?}, want {want:?}",
                            g.to_move(),
                            (0..g.board().num_cells())
                                .map(|c| g.cell_value(c))
                                .collect::<Vec<_>>()
                        );
                        std::process::exit(1);
                    }
                    moves_checked += got.len();
                }
            }
            if n <= 5 && memo.len() > 20_000_000 {
                memo.clear();
            }
        }
        set_hex_knowledge(HEX_KNOW_ALL);
        println!(
            "Hex {n}x{n}: {count} midgames ({} won by the mover), {moves_checked} move values \
             (df-pn and alpha-beta, knowledge none, each rule alone, all) equal to {}; {:.1} s",
            wins_seen,
            if n <= 5 {
                "plain minimax"
            } else {
                "the distance pass"
            },
            t0.elapsed().as_secs_f64()
        );
    }
}
