//! Tests of Quintun: rules, notation, undo and counts on chosen positions;
//! the conformance run, with the hash recomputed from the cells.

use super::*;
use crate::testing::{conformance, FreshHash};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn play(g: &mut Quintun, mv: &str) {
    let acts = g
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv}: {}", e.message));
    g.play_move(&acts);
}

fn reason(g: &Quintun, mv: &str) -> &'static str {
    g.parse_move(mv).expect_err(mv).reason.code()
}

fn moves(g: &Quintun) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(u128::MAX, &mut v).unwrap();
    v.iter().map(|m| g.format_move(m)).collect()
}

const SAMPLE: &str = "j4 j4 m5 j6 m7 p8 m9 p10 m11 Ai1 i3 k3 j2 l2 Bf2 h4 p4 s7 p12 s5 s11 s3 p2 Cb8 j8 g7 g9 Dt2 Akm1";

#[test]
fn sample_game() {
    let mut g = Quintun::new(7, Placement::Side, true).unwrap();
    let mut history = Vec::new();
    for mv in SAMPLE.split_whitespace() {
        let acts = g.parse_move(mv).unwrap();
        history.push(g.format_move(&acts));
        g.play_move(&acts);
        assert_eq!(g.qualified(), (false, false));
    }
    assert_eq!(history[1], "swap");
    assert_eq!(history.last().unwrap(), "Akm1");
    assert!(!g.is_over());
    assert_eq!(g.to_move(), 2);
    let d = g.diagram();
    assert_eq!(d.lines().nth(1).unwrap(), "      , A A A , , ,        1");
    assert_eq!(d.lines().nth(8).unwrap(), " C . . . o . . x . . . ,   8");
    // move 8 Bf2 is illegal under the gap rule
    let mut g = Quintun::new(7, Placement::Gap, true).unwrap();
    for mv in SAMPLE.split_whitespace().take(14) {
        play(&mut g, mv);
    }
    assert_eq!(reason(&g, "Bf2"), "placement_gap");
}

#[test]
fn counts_by_kind() {
    let mut g = Quintun::new(7, Placement::Side, true).unwrap();
    assert_eq!(g.count_by_kind(), (91, 36, 0, 0));
    play(&mut g, "Am1");
    assert_eq!(g.count_by_kind(), (91, 31, 3, 0));
    play(&mut g, "Bw5");
    assert_eq!(g.count_by_kind(), (91, 25, 10, 0));
    let mut g = Quintun::new(7, Placement::Side, true).unwrap();
    play(&mut g, "f6");
    assert_eq!(g.count_by_kind(), (90, 36, 0, 1));
}

#[test]
fn rejection_reasons() {
    let mut g = Quintun::new(7, Placement::Side, true).unwrap();
    for (mv, why) in [
        ("g1", "stone_on_ring"),
        ("Aj4", "neutral_in_interior"),
        ("z4", "unknown_cell"),
        ("j5", "unknown_cell"),
        ("j0", "syntax"),
        ("Bi1", "wrong_new_colour"),
        ("Fi1", "bad_colour"),
        ("", "syntax"),
        ("é", "syntax"),
        ("swap", "swap_not_allowed"),
        ("Aik1", "extend_absent_colour"),
        ("Akk1", "extend_same_cell"),
    ] {
        assert_eq!(reason(&g, mv), why, "{mv}");
    }
    play(&mut g, "j4");
    play(&mut g, "j4");
    play(&mut g, "Ai1");
    for (mv, why) in [
        ("Ai1", "occupied"),
        ("Ak1", "wrong_new_colour"),
        ("Bk1", "placement_side"),
        ("Ao1,Aq1", "extend_splits_colour"),
        ("Ak1,Bm1", "extend_absent_colour"),
        ("Ak1,Aj4", "neutral_in_interior"),
        ("Ai1,Ak1,Am1", "syntax"),
    ] {
        assert_eq!(reason(&g, mv), why, "{mv}");
    }
    let acts = g.parse_move("Ak1 , Ag1").unwrap();
    assert_eq!(g.format_move(&acts), "Agk1");
}

#[test]
fn draw_when_no_move_is_left() {
    let geo = Arc::new(QuintunBoard::new(4).unwrap());
    let n = geo.board.num_cells();
    let mut cells = vec![0i8; n];
    let interior: Vec<usize> = (0..n).filter(|&c| !geo.is_ring(c)).collect();
    for c in 0..n {
        if geo.is_ring(c) {
            cells[c] = -1;
        }
    }
    for (i, &c) in interior[..interior.len() - 1].iter().enumerate() {
        cells[c] = 1 + (i % 2) as i8;
    }
    let mut g = Quintun::from_cells(geo.clone(), Placement::Side, true, &cells, 1).unwrap();
    assert_eq!(g.count_moves(), 1);
    g.apply_action((interior[interior.len() - 1] * KINDS) as Action);
    assert!(g.is_over());
    assert_eq!(g.winner_mask(), 0b11, "a draw: every seat is a winner");
}

/// Random games: tables kept incrementally equal a fresh set-up from the
/// cells, every legal action completes, undo restores, move and action
/// perft agree.
#[test]
fn incremental_state_matches_rebuild() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut buf = Vec::new();
    for &(size, placement) in &[
        (4, Placement::Side),
        (5, Placement::Gap),
        (7, Placement::Side),
        (10, Placement::Gap),
    ] {
        for _ in 0..20 {
            let mut g = Quintun::new(size, placement, true).unwrap();
            while let Some(a) = g.random_action(&mut rng, &mut buf) {
                let before = g.clone();
                let u = g.apply_action_undoable(a);
                if !g.mid_turn() && g.ply > 1 {
                    let fresh =
                        Quintun::from_cells(g.geo.clone(), placement, true, &g.cells, g.to_move)
                            .unwrap();
                    assert_eq!(fresh.n3, g.n3);
                    assert_eq!(fresh.n4, g.n4);
                    assert_eq!(fresh.ring.first, g.ring.first);
                    assert_eq!(fresh.ring.num_extends, g.ring.num_extends);
                    assert_eq!(fresh.ring.new_mask, g.ring.new_mask);
                    assert_eq!(fresh.over, g.over);
                    assert_eq!(fresh.hash, g.hash);
                    if !g.over {
                        assert_eq!(fresh.winners, g.winners);
                    }
                }
                let mut back = Quintun::new(4, Placement::Gap, false).unwrap();
                back.clone_from(&g);
                assert_eq!(back.zobrist(), g.zobrist());
                assert_eq!(back.count_moves(), g.count_moves());
                back.undo_action(u);
                assert_eq!(back.zobrist(), before.zobrist());
                assert_eq!(back.cells, before.cells);
            }
        }
    }
}

/// Every field of the state but the shared geometry, as text (the
/// groups in full, stale slots included).
fn state_text(g: &Quintun) -> String {
    format!(
        "{:?}",
        (
            (
                g.placement,
                g.swap,
                &g.cells,
                &g.groups,
                g.n3,
                g.n4,
                g.ring_empty,
                g.colour_ring,
                g.present
            ),
            (
                g.interior_empty,
                g.num_interior_empty,
                &g.free,
                &g.free_at,
                g.to_move,
                g.ply,
                g.swap_cell
            ),
            (
                g.from_start,
                g.pending,
                g.over,
                g.winners,
                g.hash,
                g.ring,
                &g.ring_log,
                &g.mask_log
            ),
        )
    )
}

/// The Zobrist hash straight from the cells and flags.
fn fresh_hash(g: &Quintun) -> u64 {
    let mut h = zobrist::flag(Kind::ToMove as u64, g.to_move as u64);
    for (c, &v) in g.cells.iter().enumerate() {
        if v > 0 {
            h ^= zobrist::piece(c, v as u64);
        } else if v < 0 {
            h ^= zobrist::piece(c, 2 + (-v) as u64);
        }
    }
    if g.swap_available() {
        h ^= zobrist::flag(Kind::Swap as u64, 1);
    }
    if let Some((c, k)) = g.pending {
        h ^= zobrist::flag(
            Kind::Pending as u64,
            (c as usize * KINDS + k as usize) as u64,
        );
    }
    h
}

/// Random walks that apply and undo random actions: undo restores the
/// state exactly (the whole state, legal actions and counts included),
/// the hash always equals a fresh recomputation, and `is_legal_action`
/// agrees with `legal_actions` on every action id at every ply.
#[test]
fn undo_restores_state_and_legality_agrees() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    let (mut undone, mut merges, mut ring_undos, mut swaps) = (0usize, 0usize, 0usize, 0usize);
    for size in MIN_SIZE..=7 {
        for placement in [Placement::Side, Placement::Gap] {
            for swap in [true, false] {
                for game in 0..12 {
                    let start = Quintun::new(size, placement, swap).unwrap();
                    let mut g = start.clone();
                    // (record, state text, legal actions, move count) before each action
                    let mut stack: Vec<(QuintunUndo, String, Vec<Action>, u128)> = Vec::new();
                    let mut steps = 0;
                    loop {
                        let mut legal = Vec::new();
                        g.legal_actions(&mut legal);
                        assert!(legal.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
                        assert_eq!(g.zobrist(), fresh_hash(&g));
                        let mut is_legal = vec![false; g.num_actions() + 7];
                        for &a in &legal {
                            is_legal[a as usize] = true;
                        }
                        for (a, &want) in is_legal.iter().enumerate() {
                            assert_eq!(
                                g.is_legal_action(a as Action),
                                want,
                                "action {a}\n{}",
                                g.diagram()
                            );
                        }
                        if !g.mid_turn() {
                            let mut mv = Vec::new();
                            g.legal_moves(u128::MAX, &mut mv).unwrap();
                            assert_eq!(mv.len() as u128, g.count_moves());
                        }
                        steps += 1;
                        // undo now and then (more often late, to unwind merges and EXTENDs)
                        let back = !stack.is_empty()
                            && (legal.is_empty()
                                || rng.random_bool(if game % 2 == 0 { 0.3 } else { 0.1 }));
                        if back {
                            let (u, text, legal_before, count) = stack.pop().unwrap();
                            let is_stone = u.action % KINDS as Action == 0
                                && (u.action as usize) < KINDS * g.cells.len();
                            merges += (is_stone
                                && g.groups.root(u.action as usize / KINDS)
                                    != Some(u.action as usize / KINDS))
                                as usize;
                            ring_undos += u.ring as usize;
                            swaps += (u.action as usize == KINDS * g.cells.len()) as usize;
                            g.undo_action(u);
                            undone += 1;
                            assert_eq!(state_text(&g), text);
                            let mut again = Vec::new();
                            g.legal_actions(&mut again);
                            assert_eq!(again, legal_before);
                            assert_eq!(g.count_moves(), count);
                        } else if legal.is_empty() || steps > 400 {
                            break;
                        } else {
                            let mut a = legal[below(&mut rng, legal.len())];
                            if g.swap_available() && rng.random_bool(0.5) {
                                a = g.swap_action();
                            }
                            let text = state_text(&g);
                            let count = g.count_moves();
                            let u = g.apply_action_undoable(a);
                            stack.push((u, text, legal, count));
                        }
                    }
                    while let Some((u, text, _, _)) = stack.pop() {
                        g.undo_action(u);
                        assert_eq!(state_text(&g), text);
                    }
                    assert_eq!(state_text(&g), state_text(&start));
                }
            }
        }
    }
    assert!(
        undone > 5000 && merges > 200 && ring_undos > 500 && swaps > 5,
        "{undone} {merges} {ring_undos} {swaps}"
    );
}

/// Every neutral colour one block, by flood fill over the board.
fn blocks_ok(geo: &QuintunBoard, cells: &[i8]) -> bool {
    (1..=5i8).all(|k| {
        let members: Vec<usize> = (0..cells.len()).filter(|&c| cells[c] == -k).collect();
        if members.is_empty() {
            return true;
        }
        let mut seen = vec![members[0]];
        let mut stack = vec![members[0]];
        while let Some(c) = stack.pop() {
            for &d in geo.board.neighbors(c) {
                let d = d as usize;
                if cells[d] == -k && !seen.contains(&d) {
                    seen.push(d);
                    stack.push(d);
                }
            }
        }
        seen.len() == members.len()
    })
}

/// NEW cells and EXTENDs straight from the card, by brute force.
fn brute_neutral_moves(g: &Quintun) -> Vec<String> {
    let geo = &*g.geo;
    let ring = geo.ring();
    let len = ring.len();
    let empty: Vec<usize> = ring
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| g.cells[c] == 0)
        .collect();
    let present: Vec<u8> = (1..=5u8)
        .filter(|&k| g.cells.contains(&-(k as i8)))
        .collect();
    let mut out = Vec::new();
    if let Some(new) = (1..=5u8).find(|k| !present.contains(k)) {
        let preferred: Vec<usize> = match g.placement {
            Placement::Side => empty
                .iter()
                .copied()
                .filter(|&c| {
                    geo.board.sides().iter().any(|side| {
                        side.contains(&(c as u16)) && side.iter().all(|&d| g.cells[d as usize] == 0)
                    })
                })
                .collect(),
            Placement::Gap => empty
                .iter()
                .copied()
                .filter(|&c| {
                    let p = ring.iter().position(|&d| d as usize == c).unwrap();
                    [1, len - 1].iter().all(|&step| {
                        for (run, j) in (1..len).enumerate() {
                            if g.cells[ring[(p + step * j) % len] as usize] != 0 {
                                return run as u32 >= GAP_MIN;
                            }
                        }
                        true
                    })
                })
                .collect(),
        };
        let cells = if preferred.is_empty() {
            &empty
        } else {
            &preferred
        };
        out.extend(cells.iter().map(|&c| g.format_neutral((c as u16, new))));
    }
    for (i, &a) in empty.iter().enumerate() {
        for &b in &empty[i + 1..] {
            for &ka in &present {
                for &kb in &present {
                    let mut cells = g.cells.clone();
                    cells[a] = -(ka as i8);
                    cells[b] = -(kb as i8);
                    if blocks_ok(geo, &cells) {
                        out.push(g.format_extend((a as u16, ka), (b as u16, kb)));
                    }
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn neutral_moves_match_brute_force() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut buf = Vec::new();
    for &(size, placement) in &[
        (4, Placement::Side),
        (4, Placement::Gap),
        (6, Placement::Side),
        (7, Placement::Gap),
    ] {
        for _ in 0..4 {
            let mut g = Quintun::new(size, placement, true).unwrap();
            let mut k = 0;
            while let Some(a) = g.random_action(&mut rng, &mut buf) {
                k += 1;
                if !g.mid_turn() && k % 3 == 0 {
                    let mut fast: Vec<String> = moves(&g)
                        .into_iter()
                        .filter(|m| m.starts_with(|c: char| c.is_ascii_uppercase()))
                        .collect();
                    fast.sort();
                    assert_eq!(fast, brute_neutral_moves(&g), "{}", g.diagram());
                    let (_, new, ext, _) = g.count_by_kind();
                    assert_eq!(new + ext, fast.len());
                }
                g.apply_action(a);
            }
        }
    }
}

#[test]
fn perft_units_agree() {
    use crate::perft::{perft, Unit};
    let mut g = Quintun::new(5, Placement::Side, true).unwrap();
    for mv in ["Ae1", "g3", "Bq5", "Ad2,Bp6"] {
        play(&mut g, mv);
    }
    for d in 1..=2 {
        assert_eq!(perft(&g, d, Unit::Move, 1), perft(&g, d, Unit::Action, 1));
    }
    let g = Quintun::new(4, Placement::Gap, true).unwrap();
    assert_eq!(perft(&g, 2, Unit::Move, 1), perft(&g, 2, Unit::Action, 1));
}

#[test]
fn every_legal_move_round_trips() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let mut buf = Vec::new();
    for size in MIN_SIZE..=MAX_SIZE {
        let mut g = Quintun::new(size, Placement::Side, true).unwrap();
        let mut seen = 0;
        while let Some(a) = g.random_action(&mut rng, &mut buf) {
            if !g.mid_turn() && seen % 5 == 0 {
                for (text, m) in moves(&g).iter().zip({
                    let mut v = Vec::new();
                    g.legal_moves(u128::MAX, &mut v).unwrap();
                    v
                }) {
                    assert_eq!(g.parse_move(text).unwrap(), m, "{text}");
                }
            }
            seen += 1;
            g.apply_action(a);
        }
    }
}

impl FreshHash for Quintun {
    /// Players' stones are kinds 1..=2, neutral colour k is kind 2 + k.
    fn fresh_zobrist(&self) -> u64 {
        (0..self.board().num_cells()).fold(self.flags_hash(), |h, c| match self.cell_value(c) {
            0 => h,
            v if v > 0 => h ^ zobrist::piece(c, v as u64),
            v => h ^ zobrist::piece(c, 2 + (-v) as u64),
        })
    }
}

#[test]
fn quintun_conforms() {
    for (size, placement, swap, games) in [
        (4, Placement::Side, true, 6),
        (4, Placement::Gap, false, 6),
        (5, Placement::Gap, true, 3),
        (7, Placement::Side, true, 2),
    ] {
        conformance(&Quintun::new(size, placement, swap).unwrap(), games, 400);
    }
}
