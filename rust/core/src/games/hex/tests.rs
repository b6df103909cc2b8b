use std::collections::HashMap;

use super::*;
use crate::game::{Game, Reason};
use crate::rng::{below, rng_for};
use crate::solve::{solve, Monitor, Outcome, Solvable, SolveOptions};
use crate::{perft, Unit};

/// The winner by flood fill from each player's first edge, from scratch.
fn flood_winner(g: &Hex) -> WinnerMask {
    let (rows, cols) = (g.rows(), g.cols());
    let mut mask = 0;
    for colour in [X, O] {
        let starts: Vec<usize> = if colour == X {
            (0..cols).collect()
        } else {
            (0..rows).map(|r| r * cols).collect()
        };
        let at_far = |c: usize| {
            if colour == X {
                c / cols == rows - 1
            } else {
                c % cols == cols - 1
            }
        };
        let mut seen = vec![false; rows * cols];
        let mut stack: Vec<usize> = starts
            .into_iter()
            .filter(|&c| g.colour[c] == colour)
            .collect();
        stack.iter().for_each(|&c| seen[c] = true);
        while let Some(c) = stack.pop() {
            if at_far(c) {
                mask |= 1 << (colour - 1);
                break;
            }
            for &nb in g.board.neighbors(c) {
                let nb = nb as usize;
                if !seen[nb] && g.colour[nb] == colour {
                    seen[nb] = true;
                    stack.push(nb);
                }
            }
        }
    }
    mask
}

#[test]
fn wins_agree_with_flood_fill() {
    let mut buf = Vec::new();
    let mut ends = [0usize; 3];
    for (rows, cols, swap) in [
        (1, 1, false),
        (1, 3, false),
        (3, 1, false),
        (2, 2, true),
        (3, 4, false),
        (5, 5, true),
        (7, 3, false),
        (11, 11, true),
        (13, 13, false),
    ] {
        for i in 0..200 {
            let mut rng = rng_for(rows as u64 * 100 + cols as u64, i);
            let mut g = Hex::new(rows, cols, swap).unwrap();
            while let Some(a) = g.random_action(&mut rng, &mut buf) {
                assert_eq!(g.winner_mask(), 0);
                assert_eq!(flood_winner(&g), 0, "{}", g.diagram());
                g.apply_action(a);
            }
            assert_eq!(g.winner_mask(), flood_winner(&g), "{}", g.diagram());
            assert!(g.winner_mask() == 1 || g.winner_mask() == 2);
            ends[g.winner_mask() as usize] += 1;
        }
    }
    assert!(ends[1] > 300 && ends[2] > 300, "{ends:?}");
}

#[test]
fn one_wide_boards_end_with_the_first_stone_across() {
    let mut g = Hex::new(1, 1, false).unwrap();
    assert_eq!(g.count_moves(), 1);
    g.apply_action(0);
    assert!(g.is_over());
    assert_eq!(g.winner_mask(), 1);
    // One column: o's first stone touches both sides.
    let mut g = Hex::new(3, 1, false).unwrap();
    g.try_play("a1").unwrap();
    g.try_play("a3").unwrap();
    assert_eq!(g.winner_mask(), 2);
    // One row: x's first stone wins.
    let mut g = Hex::new(1, 4, false).unwrap();
    g.try_play("c1").unwrap();
    assert_eq!(g.winner_mask(), 1);
}

#[test]
fn swap_mirrors_and_changes_colour() {
    let mut g = Hex::new(5, 5, true).unwrap();
    assert!(!g.is_legal_action(25));
    assert_eq!(
        g.parse_move("swap").unwrap_err().reason,
        Reason::SwapNotAllowed
    );
    let u1 = g.apply_action_undoable(g.parse_move("b1").unwrap()[0]); // row 0, col 1
    assert!(g.swap_available());
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert_eq!(legal.len(), 25);
    assert_eq!(*legal.last().unwrap(), 25);
    assert_eq!(g.action_to_string(25), "swap");
    let before = g.zobrist();
    let u2 = g.apply_action_undoable(25);
    // o's stone on a2 (row 1, col 0), x to move, no more swap.
    assert_eq!(g.cell_value(g.board.index("a2").unwrap()), 2);
    assert_eq!(g.cell_value(g.board.index("b1").unwrap()), 0);
    assert_eq!(
        (g.to_move(), g.swap_available(), g.count_moves()),
        (1, false, 24)
    );
    assert_eq!(
        g.parse_move("swap").unwrap_err().reason,
        Reason::SwapNotAllowed
    );
    // An o stone on a2 touches the left edge: o's group there carries it.
    let a2 = g.board.index("a2").unwrap();
    assert_eq!(g.links.payload(g.links.find(a2)), 1);
    g.undo_action(u2);
    assert_eq!(
        (g.zobrist(), g.to_move(), g.swap_available()),
        (before, 2, true)
    );
    g.undo_action(u1);
    assert_eq!(g.zobrist(), Hex::new(5, 5, true).unwrap().zobrist());
    // Off the diagonal and on it, and no swap without the option.
    let mut g = Hex::new(3, 3, true).unwrap();
    g.try_play("b2").unwrap();
    g.try_play("swap").unwrap();
    assert_eq!(g.cell_value(4), 2);
    let mut g = Hex::new(3, 3, false).unwrap();
    g.try_play("b2").unwrap();
    assert!(!g.is_legal_action(9));
    assert_eq!(
        g.parse_move("swap").unwrap_err().reason,
        Reason::SwapNotAllowed
    );
    assert_eq!(Hex::new(3, 4, true).unwrap_err().argument, "swap");
}

#[test]
fn notation_and_options() {
    let g = Hex::new(11, 11, false).unwrap();
    assert_eq!(g.spec(), "hex(size=11)");
    assert_eq!(Hex::new(3, 5, false).unwrap().spec(), "hex(rows=3,cols=5)");
    assert_eq!(
        Hex::new(7, 7, true).unwrap().spec(),
        "hex(size=7,swap=true)"
    );
    assert_eq!(g.action_to_string(0), "a1");
    assert_eq!(g.action_to_string(12), "b2");
    assert_eq!(g.action_to_string(120), "k11");
    assert_eq!(g.parse_move(" K11 ").unwrap()[0], 120);
    assert_eq!(g.parse_move("l1").unwrap_err().reason, Reason::UnknownCell);
    assert_eq!(g.parse_move("a12").unwrap_err().reason, Reason::UnknownCell);
    assert_eq!(g.parse_move("").unwrap_err().reason, Reason::Syntax);
    assert_eq!(g.parse_move("1a").unwrap_err().reason, Reason::Syntax);
    assert_eq!(
        g.parse_move("zz99").unwrap_err().reason,
        Reason::UnknownCell
    );
    assert_eq!(g.parse_move("b").unwrap_err().reason, Reason::Syntax);
    assert_eq!(Hex::new(0, 3, false).unwrap_err().argument, "rows");
    assert_eq!(Hex::new(3, 26, false).unwrap_err().argument, "cols");
    assert!(Hex::new(25, 25, true).is_ok());
    let mut g = Hex::new(2, 2, false).unwrap();
    g.try_play("a1").unwrap();
    assert_eq!(g.try_play("a1").unwrap_err().reason, Reason::Occupied);
    g.try_play("b1").unwrap();
    g.try_play("a2").unwrap();
    assert!(g.is_over());
    assert_eq!(g.try_play("b2").unwrap_err().reason, Reason::GameOver);
    assert_eq!(g.diagram(), "  a b\n1 x o\n2  x .\n");
}

#[test]
fn observation_planes() {
    let mut g = Hex::new(2, 3, false).unwrap();
    g.try_play("c1").unwrap(); // x on cell 2
    g.try_play("a2").unwrap(); // o on cell 3
    g.try_play("b2").unwrap(); // x on cell 4, o to move
    assert_eq!(g.observation_shape(), [4, 2, 3]);
    let mut obs = vec![9.0; 24];
    g.observation(&mut obs);
    assert_eq!(&obs[..6], &[0., 0., 0., 1., 0., 0.]); // o's stones (to move)
    assert_eq!(&obs[6..12], &[0., 0., 1., 0., 1., 0.]); // x's
    assert!(obs[12..18].iter().all(|&v| v == 1.0));
    assert!(obs[18..24].iter().all(|&v| v == 0.0));
    let mut s = Hex::new(3, 3, true).unwrap();
    s.try_play("a1").unwrap();
    let mut obs = vec![0.0; 36];
    s.observation(&mut obs);
    assert!(obs[27..].iter().all(|&v| v == 1.0));
}

#[test]
fn count_after_matches_the_child() {
    let mut buf = Vec::new();
    let mut wins = 0;
    for (rows, cols, swap) in [(2, 2, true), (3, 3, true), (4, 5, false), (6, 6, true)] {
        for i in 0..40 {
            let mut rng = rng_for(9, i);
            let mut g = Hex::new(rows, cols, swap).unwrap();
            while !g.is_over() {
                let mut acts = Vec::new();
                g.legal_actions(&mut acts);
                for &a in &acts {
                    if a as usize == g.board.num_cells() {
                        continue;
                    }
                    let mut c = g.clone();
                    c.apply_action(a);
                    wins += c.is_over() as usize;
                    assert_eq!(g.count_moves_after(a), Some(c.count_moves()));
                }
                let a = g.random_action(&mut rng, &mut buf).unwrap();
                g.apply_action(a);
            }
        }
    }
    assert!(wins > 100);
}

#[test]
fn set_up_positions() {
    // x's chain a1-a2-a3 down the left column wins.
    let cells = [1, 2, 0, 1, 2, 0, 1, 0, 0];
    let g = Hex::from_cells(3, 3, true, &cells, 2).unwrap();
    assert_eq!(
        (g.is_over(), g.winner_mask(), g.swap_available()),
        (true, 1, false)
    );
    let g = Hex::from_cells(3, 3, true, &[0, 0, 0, 0, 1, 0, 0, 0, 0], 2).unwrap();
    assert!(!g.is_over() && !g.swap_available());
    assert_eq!(g.zobrist(), {
        let mut h = Hex::new(3, 3, false).unwrap();
        h.apply_action(4);
        h.zobrist()
    });
    assert_eq!(
        Hex::from_cells(3, 3, false, &[0; 8], 1)
            .unwrap_err()
            .argument,
        "position"
    );
    assert_eq!(
        Hex::from_cells(3, 3, false, &[3; 9], 1)
            .unwrap_err()
            .argument,
        "position"
    );
    assert_eq!(
        Hex::from_cells(3, 3, false, &[0; 9], 3)
            .unwrap_err()
            .argument,
        "to_move"
    );
    // The values are checked as given, the cells' named by colour.
    let wide = crate::limits::IntArg::Wide("123456789012345678901234567890".into());
    assert_eq!(
        Hex::from_cells(3, 3, false, &[0; 9], wide)
            .unwrap_err()
            .message,
        "to_move must be 1 or 2, got 123456789012345678901234567890"
    );
    assert_eq!(
        Hex::from_cells(3, 3, false, &[0, -7, 0, 0, 0, 0, 0, 0, 0], 1)
            .unwrap_err()
            .message,
        "cell value -7 is not 0 (empty), 1 (x) or 2 (o)"
    );
}

/// Perft counts: without a win before the last ply, the count is the
/// falling factorial of the cells (plus the swap at depth 2); small boards
/// end early, and these counts come from OpenSpiel's `hex` (pyspiel).
#[test]
fn perft_counts() {
    let g = Hex::new(11, 11, false).unwrap();
    assert_eq!(perft(&g, 3, Unit::Move, 1), 121 * 120 * 119);
    let g = Hex::new(11, 11, true).unwrap();
    assert_eq!(perft(&g, 2, Unit::Action, 1), 121 * 121);
    assert_eq!(perft(&g, 3, Unit::Action, 1), 121 * 120 * 119 + 121 * 120);
    let small: [((usize, usize, bool), &[u128]); 6] = [
        ((2, 2, false), &[4, 12, 24, 12, 0]),
        ((2, 2, true), &[4, 16, 36, 36, 12]),
        ((3, 3, false), &[9, 72, 504, 3024, 15120, 54720]),
        ((3, 3, true), &[9, 81, 576, 3528, 18144]),
        ((2, 3, false), &[6, 30, 120, 240, 480, 144]),
        ((3, 2, false), &[6, 30, 120, 360, 480, 336]),
    ];
    for ((r, c, s), counts) in small {
        let g = Hex::new(r, c, s).unwrap();
        for (d, &want) in counts.iter().enumerate() {
            assert_eq!(
                perft(&g, d as u32 + 1, Unit::Move, 1),
                want,
                "{} depth {}",
                g.spec(),
                d + 1
            );
            assert_eq!(
                perft(&g, d as u32 + 1, Unit::Action, 2),
                want,
                "{} depth {}",
                g.spec(),
                d + 1
            );
        }
    }
}

/// Plain minimax with a memo on the cells and the swap offer: true when
/// the player to move wins.
fn minimax(g: &mut Hex, memo: &mut HashMap<(u64, bool, u8), bool>) -> bool {
    let key = (
        g.colour.iter().fold(0u64, |k, &c| k * 3 + c as u64),
        g.swap_available(),
        g.to_move,
    );
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut acts = Vec::new();
    g.legal_actions(&mut acts);
    let me = g.to_move;
    let win = acts.iter().any(|&a| {
        let u = g.apply_action_undoable(a);
        // The mover wins, or the player to move next loses.
        let w = g.winner_mask() == 1 << (me - 1)
            || (!g.is_over() && (minimax(g, memo) != (g.to_move != me)));
        g.undo_action(u);
        w
    });
    memo.insert(key, win);
    win
}

/// Every opening of 3x3 (with and without swap) and 4x4 solved, the
/// solver's value equal to plain minimax, with the symmetry (and without
/// it on 2x2, 3x3 and some 4x4 openings).
#[test]
fn solver_matches_minimax() {
    let mut checked = 0;
    for (size, swap) in [(3, false), (3, true), (4, false), (2, true)] {
        let g = Hex::new(size, size, swap).unwrap();
        let mut memo = HashMap::new();
        let mut acts = Vec::new();
        g.legal_actions(&mut acts);
        for &a in &acts {
            let mut c = g.clone();
            c.apply_action(a);
            if c.is_over() {
                continue;
            }
            let want = if minimax(&mut c.clone(), &mut memo) {
                Outcome::Win
            } else {
                Outcome::Loss
            };
            // Without the symmetry on a few 4x4 openings only (time).
            let plain = size < 4 || a < 3;
            for symmetry in [true, false].into_iter().filter(|&s| s || plain) {
                let opts = SolveOptions {
                    symmetry,
                    distances: false,
                    table_bytes: 8 << 20,
                    ..SolveOptions::default()
                };
                let s = solve(&c, &opts, &Monitor::default()).unwrap();
                assert!(s.complete);
                assert_eq!(
                    s.value,
                    Some(want),
                    "{} after {}",
                    g.spec(),
                    g.action_to_string(a)
                );
                assert_eq!(s.symmetries, if symmetry { 2 } else { 1 });
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 9 + 9 + 16 + 4);
}

/// The 180-degree turn is the only symmetry: openings related by it have
/// equal values, and the empty square boards are first-player wins without
/// swap (the first player wins Hex) and second-player wins with it.
#[test]
fn half_turn_symmetry_and_values() {
    for size in [3, 4] {
        let g = Hex::new(size, size, false).unwrap();
        assert_eq!(g.symmetries().len(), 2);
        let s = solve(&g, &SolveOptions::default(), &Monitor::default()).unwrap();
        assert_eq!(s.value, Some(Outcome::Win));
        let n = size * size;
        for m in &s.moves {
            let a = m.actions[0] as usize;
            let twin = &s
                .moves
                .iter()
                .find(|o| o.actions[0] as usize == n - 1 - a)
                .unwrap();
            assert_eq!(m.value, twin.value);
        }
        let g = Hex::new(size, size, true).unwrap();
        let s = solve(&g, &SolveOptions::default(), &Monitor::default()).unwrap();
        assert_eq!(
            s.value,
            Some(Outcome::Loss),
            "with swap every opening is answered"
        );
    }
}

/// Everything a Hex state holds, to compare states exactly.
fn everything(g: &Hex) -> impl PartialEq + std::fmt::Debug {
    (
        (
            g.colour.clone(),
            g.links.clone(),
            g.empty.iter().collect::<Vec<_>>(),
            g.num_empty,
        ),
        (
            g.to_move,
            g.ply,
            g.first,
            g.swap_available,
            g.winners,
            g.hash,
        ),
    )
}

/// Stones joined with path halving (`apply_action`), then undoable ones:
/// unwinding the undoable ones restores every link exactly.
#[test]
fn undo_after_fast_moves_restores_exactly() {
    let mut buf = Vec::new();
    for i in 0..150 {
        let mut rng = rng_for(31, i);
        let mut g = Hex::new(9, 9, i % 2 == 0).unwrap();
        for _ in 0..below(&mut rng, 45) {
            if let Some(a) = g.random_action(&mut rng, &mut buf) {
                g.apply_action(a);
            }
        }
        let before = everything(&g);
        let mut undos = Vec::new();
        let mut snaps = Vec::new();
        while let Some(a) = g.random_action(&mut rng, &mut buf) {
            snaps.push(everything(&g));
            undos.push(g.apply_action_undoable(a));
        }
        assert_eq!(g.winner_mask(), flood_winner(&g));
        while let Some(u) = undos.pop() {
            g.undo_action(u);
            assert_eq!(everything(&g), snaps.pop().unwrap());
        }
        assert_eq!(everything(&g), before);
    }
}

/// `play_random` draws uniformly: after x's first stone on 3x3 with swap,
/// its first action is each of the 8 empty cells and the swap about a ninth
/// of the time.
#[test]
fn play_random_is_uniform() {
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut start = Hex::new(3, 3, true).unwrap();
    start.apply_action(1); // b1
    let mut counts = [0usize; 10];
    let mut buf = Vec::new();
    let trials = 18_000;
    for i in 0..trials {
        let mut g = start.clone();
        assert_eq!(
            g.play_random(&mut rng_for(5, i), 1, &mut buf, &stop)
                .unwrap(),
            (1, 1)
        );
        let taken = if g.colour[1] == 0 {
            assert_eq!((g.colour[3], g.to_move), (O, X));
            9
        } else {
            let o: Vec<usize> = (0..9).filter(|&c| g.colour[c] == O).collect();
            assert_eq!(o.len(), 1);
            o[0]
        };
        counts[taken] += 1;
    }
    assert_eq!(counts[1], 0);
    for (a, &n) in counts.iter().enumerate().filter(|&(a, _)| a != 1) {
        assert!((1_700..=2_300).contains(&n), "action {a}: {n} of {trials}");
    }
}

/// `play_random` leaves a true state (winner by flood fill, hash from
/// scratch, the empty cells), stops at `max_plies`, and its result depends
/// only on the position and the generator, not on the moves that led there.
#[test]
fn play_random_leaves_a_true_state() {
    use crate::testing::FreshHash;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut buf = Vec::new();
    let mut a = Hex::new(5, 5, false).unwrap();
    let mut b = a.clone();
    for m in ["a1", "b2", "c3", "d4"] {
        a.try_play(m).unwrap();
    }
    for m in ["c3", "d4", "a1", "b2"] {
        b.try_play(m).unwrap();
    }
    for (rows, cols, swap) in [
        (1, 1, false),
        (2, 3, false),
        (5, 5, true),
        (11, 11, true),
        (13, 7, false),
    ] {
        for i in 0..100 {
            let mut g = Hex::new(rows, cols, swap).unwrap();
            let cap = if i % 3 == 0 { 1 + i / 3 } else { u64::MAX };
            let (plies, actions) = g
                .play_random(&mut rng_for(3, i), cap, &mut buf, &stop)
                .unwrap();
            assert_eq!((plies, actions), (g.ply as u64, g.ply as u64));
            assert!(g.is_over() || plies == cap);
            assert_eq!(g.winner_mask(), flood_winner(&g), "{}", g.diagram());
            assert_eq!(g.zobrist(), g.fresh_zobrist());
            let empty: Vec<usize> = (0..rows * cols).filter(|&c| g.colour[c] == 0).collect();
            assert_eq!(g.empty.iter().collect::<Vec<_>>(), empty);
            assert_eq!(g.num_empty as usize, empty.len());
        }
    }
    for i in 0..50 {
        let (mut x, mut y) = (a.clone(), b.clone());
        let rx = x
            .play_random(&mut rng_for(8, i), u64::MAX, &mut buf, &stop)
            .unwrap();
        let ry = y
            .play_random(&mut rng_for(8, i), u64::MAX, &mut buf, &stop)
            .unwrap();
        assert_eq!(
            (rx, &x.colour, x.winner_mask()),
            (ry, &y.colour, y.winner_mask())
        );
    }
}

impl crate::testing::FreshHash for Hex {
    fn fresh_zobrist(&self) -> u64 {
        crate::testing::board_stones_zobrist(self, self.flags_hash())
    }
}

#[test]
fn hex_conforms() {
    for (rows, cols, swap, games) in [
        (1, 1, false, 2),
        (1, 4, false, 5),
        (4, 1, false, 5),
        (2, 2, true, 30),
        (3, 3, true, 20),
        (3, 5, false, 10),
        (5, 5, true, 6),
        (11, 11, true, 2),
    ] {
        crate::testing::conformance(&Hex::new(rows, cols, swap).unwrap(), games, 400);
    }
}
