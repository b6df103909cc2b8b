//! Tests of Wunchunk: rules, notation, undo and counts on chosen positions;
//! the conformance run, with the hash recomputed from the cells.

use super::options::shared_board;
use super::*;
use crate::testing::{conformance, FreshHash};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn game(size: usize, players: usize, start: Start, balance: Balance) -> Wunchunk {
    Wunchunk::new(size, players, start, balance).unwrap()
}

fn play(g: &mut Wunchunk, m: &str) {
    let acts = g.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    g.play_move(&acts);
}

fn reason(g: &Wunchunk, m: &str) -> &'static str {
    g.parse_move(m)
        .err()
        .map(|e| e.reason.code())
        .unwrap_or("ok")
}

#[test]
fn options_are_checked() {
    assert_eq!(
        Wunchunk::new(6, 5, Start::Standard, Balance::Ap)
            .unwrap_err()
            .argument,
        "players"
    );
    assert_eq!(
        Wunchunk::new(6, 3, Start::Standard, Balance::Ap)
            .unwrap_err()
            .argument,
        "size"
    );
    assert_eq!(
        Wunchunk::new(9, 2, Start::Standard, Balance::Ap)
            .unwrap_err()
            .argument,
        "size"
    );
    assert_eq!(
        Wunchunk::new(8, 3, Start::Open, Balance::Ap)
            .unwrap_err()
            .argument,
        "start"
    );
    assert_eq!(
        Wunchunk::new(8, 4, Start::Standard, Balance::Pie)
            .unwrap_err()
            .argument,
        "balance"
    );
    for (p, sizes) in [(2, vec![5, 6, 7, 8]), (3, vec![7, 8]), (4, vec![7, 8])] {
        for s in sizes {
            let g = game(s, p, Start::Standard, Balance::Ap);
            assert!(g.colour_vectors().iter().all(|v| v[0] == 1));
            assert_eq!(g.allotment(), 1);
        }
    }
}

#[test]
fn set_up_values_are_checked_as_given() {
    use crate::limits::IntArg;
    let empty = vec![0i8; 127];
    let err = |cells: &[i8], to_move: IntArg, c1: IntArg, passes: IntArg| {
        let e = Wunchunk::from_cells_with_turns(
            7,
            3,
            Start::Standard,
            Balance::Ap,
            cells,
            to_move,
            c1,
            passes,
        )
        .unwrap_err();
        (e.argument, e.message)
    };
    let (one, zero) = (IntArg::Int(1), IntArg::Int(0));
    let wide = IntArg::Wide("-99999999999999999999".into());
    let mut four = empty.clone();
    four[3] = 4;
    assert_eq!(
        err(&four, one.clone(), zero.clone(), zero.clone()),
        (
            "position",
            "cell value 4 is not a colour 1..3 (or 0 for empty)".into()
        )
    );
    assert_eq!(
        err(&empty, wide.clone(), zero.clone(), zero.clone()),
        (
            "to_move",
            "to_move must be in 1..3, got -99999999999999999999".into()
        )
    );
    assert_eq!(
        err(&empty, one.clone(), wide.clone(), zero.clone()),
        (
            "colour1_turns",
            "colour1_turns must be a non-negative int, got -99999999999999999999".into()
        )
    );
    assert_eq!(
        err(&empty, one.clone(), zero.clone(), IntArg::Int(3)),
        ("passes", "passes must be in 0..2, got 3".into())
    );
    assert_eq!(
        err(&empty[1..], one.clone(), zero.clone(), zero.clone()),
        ("position", "expected 127 cells, got 126".into())
    );
    // A colour1_turns past 2 is 2 (the balance rule behind), however wide.
    let far = Wunchunk::from_cells_with_turns(
        7,
        3,
        Start::Standard,
        Balance::Ap,
        &empty,
        one,
        IntArg::Wide("99999999999999999999".into()),
        zero,
    )
    .unwrap();
    assert_eq!(far.st.c1_turns, 2);
}

#[test]
fn card_balance_examples() {
    let mut g = game(6, 2, Start::Standard, Balance::Ap);
    play(&mut g, "1g8");
    play(&mut g, "1g9");
    assert!(g.balance_turn());
    assert_eq!(reason(&g, "1g7"), "ok");
    assert_eq!(reason(&g, "1a1"), "balance");
    assert_eq!(reason(&g, "2g7"), "balance");
    assert_eq!(reason(&g, "pass"), "ok");
    let mut h = game(6, 2, Start::Standard, Balance::Ap);
    play(&mut h, "1a4");
    play(&mut h, "2k4");
    assert_eq!(reason(&h, "1b4"), "balance");
}

#[test]
fn open_start_and_swap() {
    let mut g = game(5, 2, Start::Open, Balance::Ap);
    assert_eq!(g.allotment(), 4);
    assert_eq!(reason(&g, "1a1,1a2,2e1"), "open_setup");
    assert_eq!(reason(&g, "1a1,1b1,2e1,2e3"), "open_setup");
    assert_eq!(reason(&g, "swap"), "swap_not_allowed");
    play(&mut g, "2e2,1a1,1a2,2e1");
    assert_eq!(g.count_moves(), 2);
    assert_eq!(reason(&g, "2c1"), "open_choice");
    let mut kept = g.clone();
    play(&mut kept, "pass");
    play(&mut kept, "pass");
    assert!(kept.is_over());
    play(&mut g, "swap");
    assert_eq!((g.to_move(), g.seat_colour(1), g.seat_colour(2)), (2, 2, 1));
    let mut over = g.clone();
    play(&mut over, "pass");
    assert!(over.is_over());
}

#[test]
fn reasons_follow_ap_order() {
    let mut cells = vec![0i8; 91];
    let b = shared_board(6);
    for (l, c) in [
        ("a1", 1),
        ("a2", 1),
        ("c1", 1),
        ("c2", 1),
        ("k1", 2),
        ("k2", 2),
    ] {
        cells[b.index(l).unwrap()] = c;
    }
    let g = Wunchunk::from_cells(6, 2, Start::Standard, Balance::Ap, &cells, 1).unwrap();
    assert_eq!(g.allotment(), 2);
    for (m, r) in [
        ("", "syntax"),
        (",", "syntax"),
        ("1", "syntax"),
        ("1e1,1e2,1e3", "too_many_stones"),
        ("3e1", "bad_colour"),
        ("xe1", "syntax"),
        ("0e1", "bad_colour"),
        ("1z9", "unknown_cell"),
        ("1a1", "occupied"),
        ("1e1,2e1", "duplicate_cell"),
        (" 2E2 , 1e1 ", "ok"),
    ] {
        assert_eq!(reason(&g, m), r, "{m}");
    }
    assert_eq!(g.format_move(&g.parse_move("2e2,1e1").unwrap()), "1e1,2e2");
}

/// Every turn: count == number of enumerated moves, actions agree with
/// moves, undo restores everything.
#[test]
fn random_games_are_consistent() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut buf = Vec::new();
    let variants = [
        (5, 2, Start::Standard, Balance::Ap),
        (5, 2, Start::Open, Balance::Ap),
        (5, 2, Start::Standard, Balance::Pie),
        (7, 3, Start::Standard, Balance::Ap),
        (7, 4, Start::Standard, Balance::None),
    ];
    for i in 0..40 {
        let (s, p, st, bal) = variants[i % variants.len()];
        let mut g = game(s, p, st, bal);
        let mut undo = Vec::new();
        let mut snaps = Vec::new();
        while !g.is_over() {
            if !g.mid_turn() {
                let c = g.count_moves();
                if c < 40_000 {
                    let mut moves = Vec::new();
                    g.legal_moves(u128::MAX, &mut moves).unwrap();
                    assert_eq!(moves.len() as u128, c);
                    let mut acts = Vec::new();
                    g.legal_actions(&mut acts);
                    let firsts: std::collections::BTreeSet<Action> =
                        moves.iter().map(|m| m[0]).collect();
                    assert_eq!(firsts.into_iter().collect::<Vec<_>>(), acts);
                }
            }
            let a = g.random_action(&mut rng, &mut buf).unwrap();
            assert!(g.is_legal_action(a), "{}", g.action_to_string(a));
            snaps.push((g.full_hash(), g.groups.colours().to_vec(), g.st));
            undo.push(g.apply_action_undoable(a));
        }
        while let Some(u) = undo.pop() {
            g.undo_action(u);
            let s = snaps.pop().unwrap();
            assert_eq!((g.full_hash(), g.groups.colours().to_vec(), g.st), s);
        }
    }
}

/// What an undo must restore, with the counts derived from it.
#[derive(Debug, PartialEq)]
struct Snapshot {
    groups: Groups,
    empty: Cells,
    num_empty: u16,
    st: Status,
    zobrist: u64,
    actions: Vec<Action>,
    completions: Option<u128>,
}

fn snapshot(g: &Wunchunk) -> Snapshot {
    let mut actions = Vec::new();
    g.legal_actions(&mut actions);
    let completions = g.count_turn_completions().filter(|&c| c < u128::MAX);
    Snapshot {
        groups: g.groups.clone(),
        empty: g.empty,
        num_empty: g.num_empty,
        st: g.st,
        zobrist: g.zobrist(),
        actions,
        completions,
    }
}

/// The state agrees with one recomputed from its cells.
fn check_fresh(g: &Wunchunk) {
    let mut fresh = g.clone();
    let cells = g.groups.colours().to_vec();
    fresh.set_cells(&cells);
    assert_eq!(
        (fresh.hash, fresh.empty, fresh.num_empty),
        (g.hash, g.empty, g.num_empty)
    );
    assert_eq!(fresh.zobrist(), g.zobrist());
    assert_eq!(fresh.colour_vectors(), g.colour_vectors());
    for c in 1..=g.players {
        assert_eq!(fresh.groups.group_count(c), g.groups.group_count(c));
        assert_eq!(fresh.groups.stone_count(c), g.groups.stone_count(c));
    }
    for cell in 0..g.board.num_cells() {
        let mut a: Vec<usize> = g.groups.members(cell).collect();
        let mut b: Vec<usize> = fresh.groups.members(cell).collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
    }
    if !g.mid_turn() {
        assert_eq!(fresh.count_moves(), g.count_moves());
    }
}

/// Random walks that apply and undo random actions (2-4 players, every
/// start and balance variant): each undo restores the state exactly.
#[test]
fn undo_restores_exactly() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    let mut buf = Vec::new();
    let variants = [
        (5, 2, Start::Standard, Balance::Ap),
        (6, 2, Start::Standard, Balance::Pie),
        (5, 2, Start::Standard, Balance::None),
        (5, 2, Start::Open, Balance::Ap),
        (6, 2, Start::Open, Balance::Pie),
        (5, 2, Start::Open, Balance::None),
        (7, 3, Start::Standard, Balance::Ap),
        (7, 3, Start::Standard, Balance::None),
        (7, 4, Start::Standard, Balance::Ap),
        (8, 4, Start::Standard, Balance::None),
    ];
    let mut undone = 0;
    let mut merges_undone = 0;
    for i in 0..60 {
        let (s, p, st, bal) = variants[i % variants.len()];
        let mut g = game(s, p, st, bal);
        let mut stack: Vec<(WunchunkUndo, Snapshot)> = Vec::new();
        for _ in 0..400 {
            let back = !stack.is_empty() && (g.is_over() || rng.random_bool(0.35));
            if back {
                let (u, snap) = stack.pop().unwrap();
                let merged = u.action < g.end_action()
                    && g.groups.group_size(u.action as usize / g.ncol()) > 1;
                g.undo_action(u);
                assert_eq!(snapshot(&g), snap, "{}", g.diagram());
                check_fresh(&g);
                undone += 1;
                merges_undone += merged as usize;
            } else if let Some(a) = g.random_action(&mut rng, &mut buf) {
                let snap = snapshot(&g);
                stack.push((g.apply_action_undoable(a), snap));
                check_fresh(&g);
            }
        }
        while let Some((u, snap)) = stack.pop() {
            g.undo_action(u);
            assert_eq!(snapshot(&g), snap);
        }
        check_fresh(&g);
    }
    assert!(
        undone > 5000 && merges_undone > 1000,
        "{undone} {merges_undone}"
    );
}

/// Action sequences that finish the current turn, by walking them.
fn walk_completions(g: &Wunchunk) -> u128 {
    let mut acts = Vec::new();
    g.legal_actions(&mut acts);
    acts.iter()
        .map(|&a| {
            let mut c = g.clone();
            c.apply_action(a);
            if c.mid_turn() {
                walk_completions(&c)
            } else {
                1
            }
        })
        .sum()
}

#[test]
fn turn_completions_match_walk() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut buf = Vec::new();
    let variants = [
        (5, 2, Start::Standard, Balance::Ap),
        (5, 2, Start::Open, Balance::Ap),
        (7, 3, Start::Standard, Balance::Ap),
    ];
    let mut checked = 0;
    for i in 0..60 {
        let (s, p, st, bal) = variants[i % variants.len()];
        let mut g = game(s, p, st, bal);
        while !g.is_over() {
            if g.mid_turn() || g.balance_turn() || g.in_setup() {
                let c = g.count_turn_completions().unwrap();
                if c < 20_000 {
                    assert_eq!(c, walk_completions(&g), "{}", g.diagram());
                    checked += 1;
                }
            }
            let a = g.random_action(&mut rng, &mut buf).unwrap();
            g.apply_action(a);
        }
    }
    assert!(checked > 100);
}

/// Balance turns with several colour-1 chunks close together: exact
/// count == enumerated moves, first actions == legal actions, and every
/// turn in progress counts its completions right.
#[test]
fn crowded_balance_turns() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    let mut buf = Vec::new();
    let mut allots = std::collections::BTreeSet::new();
    for i in 0..150 {
        let (size, players) = [(5, 2), (7, 3), (7, 4)][i % 3];
        let board = shared_board(size);
        let n = board.num_cells();
        let mut cells = vec![0i8; n];
        // colour-1 pairs and crumbs around one spot, a few other stones
        let centre = rng.random_range(0..n);
        let mut near: Vec<usize> = vec![centre];
        for _ in 0..3 {
            let more: Vec<usize> = near
                .iter()
                .flat_map(|&v| board.neighbors(v).iter().map(|&w| w as usize))
                .collect();
            near.extend(more);
            near.sort_unstable();
            near.dedup();
        }
        for &v in &near {
            let r: f64 = rng.random();
            if r < 0.35 {
                cells[v] = 1;
            } else if r < 0.45 {
                cells[v] = rng.random_range(2..=players as i8);
            }
        }
        let g = Wunchunk::from_cells_with_turns(
            size,
            players,
            Start::Standard,
            Balance::Ap,
            &cells,
            1,
            1,
            0,
        )
        .unwrap();
        if g.is_over() || !g.balance_turn() {
            continue;
        }
        allots.insert(g.allotment());
        let c = g.count_moves();
        if c > 300_000 {
            continue;
        }
        let mut moves = Vec::new();
        g.legal_moves(u128::MAX, &mut moves).unwrap();
        // legal_moves walks the actions here (balance turn), so this
        // compares the look-ahead with the counting
        assert_eq!(moves.len() as u128, c, "{}", g.diagram());
        for m in moves.iter().take(50) {
            let text = g.format_move(m);
            assert_eq!(&g.parse_move(&text).unwrap(), m, "{text}");
        }
        let mut acts = Vec::new();
        g.legal_actions(&mut acts);
        let firsts: std::collections::BTreeSet<Action> = moves.iter().map(|m| m[0]).collect();
        assert_eq!(firsts.into_iter().collect::<Vec<_>>(), acts);
        let mut h = g.clone();
        while h.mid_turn() || !h.is_over() && h.st.plies == 0 {
            let comp = h.count_turn_completions().unwrap();
            if comp < 50_000 {
                assert_eq!(comp, walk_completions(&h));
            }
            let a = h.random_action(&mut rng, &mut buf).unwrap();
            h.apply_action(a);
        }
    }
    assert!(allots.iter().any(|&a| a >= 3), "{allots:?}");
}

/// The one-stone balance count agrees with the general count (random
/// boards with colour-1 crumbs around one chunk, and random games).
#[test]
fn single_stone_balance_count() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
    let mut buf = Vec::new();
    let mut fast = 0;
    for i in 0..300 {
        let (size, players) = [(5, 2), (6, 2), (7, 3), (7, 4)][i % 4];
        let board = shared_board(size);
        let n = board.num_cells();
        let density = [0.1, 0.3, 0.6][i % 3];
        let cells: Vec<i8> = (0..n)
            .map(|_| {
                if rng.random_bool(density) {
                    rng.random_range(1..=players as i8)
                } else {
                    0
                }
            })
            .collect();
        let g = Wunchunk::from_cells_with_turns(
            size,
            players,
            Start::Standard,
            Balance::Ap,
            &cells,
            1,
            1,
            0,
        )
        .unwrap();
        if let Some(c) = g.count_single_stone_balance() {
            assert_eq!(c, u128::try_from(g.count_big()).unwrap(), "{}", g.diagram());
            fast += 1;
        }
    }
    for i in 0..200 {
        let (s, p) = [(5, 2), (7, 3)][i % 2];
        let mut g = game(s, p, Start::Standard, Balance::Ap);
        for _ in 0..3 {
            let a = g.random_action(&mut rng, &mut buf).unwrap();
            g.apply_action(a);
        }
        if let Some(c) = g.count_single_stone_balance() {
            assert_eq!(c, u128::try_from(g.count_big()).unwrap(), "{}", g.diagram());
            fast += 1;
        }
    }
    assert!(fast > 100, "{fast}");
}

#[test]
fn big_counts() {
    let mut cells = vec![0i8; 169];
    // many colour-2 chunks: pairs on every third row
    let b = shared_board(8);
    let mut k = 0;
    for cell in 0..169 {
        let (q, r) = b.axial(cell);
        if r.rem_euclid(2) == 0 && q.rem_euclid(3) != 2 {
            cells[cell] = 2;
            k += 1;
        }
    }
    assert!(k > 30);
    let g = Wunchunk::from_cells(8, 4, Start::Standard, Balance::Ap, &cells, 2).unwrap();
    assert!(g.allotment() > 20);
    let d = g.count_moves_decimal();
    assert!(d.len() > 39, "{d}");
    assert_eq!(g.count_moves(), u128::MAX);
    // check the bignum against a direct sum in f64
    let e = g.num_empty as f64;
    let mut term = 1.0f64;
    let mut total = 1.0f64;
    for kk in 1..=g.allotment().min(g.num_empty as usize) {
        term *= (e - kk as f64 + 1.0) * 4.0 / kk as f64;
        total += term;
    }
    let got: f64 = d.parse().unwrap();
    assert!((got / total - 1.0).abs() < 1e-9);
}

impl FreshHash for Wunchunk {
    fn fresh_zobrist(&self) -> u64 {
        let cells = 0..self.board().num_cells();
        cells
            .filter(|&c| self.cell_value(c) > 0)
            .fold(self.flags_hash(), |h, c| {
                h ^ zobrist::piece(c, self.cell_value(c) as u64)
            })
    }
}

#[test]
fn wunchunk_conforms() {
    use Balance as B;
    use Start as S;
    for (size, players, start, balance, games) in [
        (5, 2, S::Standard, B::Ap, 6),
        (5, 2, S::Standard, B::Pie, 4),
        (5, 2, S::Standard, B::None, 4),
        (5, 2, S::Open, B::Ap, 4),
        (5, 2, S::Open, B::Pie, 3),
        (6, 2, S::Standard, B::Ap, 2),
        (7, 3, S::Standard, B::Ap, 2),
        (7, 4, S::Standard, B::Ap, 2),
    ] {
        conformance(
            &Wunchunk::new(size, players, start, balance).unwrap(),
            games,
            200,
        );
    }
}
