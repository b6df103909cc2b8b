//! Tests of Churn: rules, notation, undo and counts on chosen positions;
//! the conformance run, with the hash recomputed from the cells.

use super::*;
use crate::testing::{conformance, FreshHash};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn legal_labels(g: &Churn) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    let mut l: Vec<String> = v.iter().map(|&a| g.action_to_string(a)).collect();
    l.sort();
    l
}

fn setup(red: &[&str], blue: &[&str]) -> Churn {
    let b = Arc::new(Board::hexhex(3).unwrap());
    let mut cells = vec![0i8; b.num_cells()];
    for l in red {
        cells[b.index(l).unwrap()] = 1;
    }
    for l in blue {
        cells[b.index(l).unwrap()] = 2;
    }
    Churn::from_cells(b, false, &cells, 1).unwrap()
}

#[test]
fn isolation_figure() {
    let g = setup(
        &["b1", "c1", "d4", "e1", "e2"],
        &["a1", "a2", "c3", "c5", "d2"],
    );
    assert_eq!(legal_labels(&g), vec!["a3", "b3", "b4"]);
}

#[test]
fn smallest_group_figure() {
    let g = setup(
        &["a3", "b1", "b3", "b4", "c2", "d3", "e1"],
        &["a1", "a2", "c3", "c5", "d1", "d2", "d4", "e3"],
    );
    assert_eq!(legal_labels(&g), vec!["c1", "e2"]);
}

#[test]
fn undo_restores_everything() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut buf = Vec::new();
    let mut merges_undone = 0;
    for (sides, pie) in [
        ([3usize; 6], true),
        ([3, 4, 3, 4, 3, 4], false),
        ([4; 6], true),
    ] {
        for _ in 0..20 {
            let mut g = Churn::new(Arc::new(Board::from_sides(sides).unwrap()), pie);
            let n = g.board.num_cells();
            let mut stack = Vec::new();
            let mut snapshots = Vec::new();
            for _ in 0..400 {
                if g.is_over() {
                    break;
                }
                let a = g.random_action(&mut rng, &mut buf).unwrap();
                let mut legal = Vec::new();
                g.legal_actions(&mut legal);
                snapshots.push((
                    g.zobrist(),
                    (0..n).map(|c| g.cell_value(c)).collect::<Vec<_>>(),
                    g.to_move(),
                    legal,
                ));
                stack.push(g.apply_action_undoable(a));
            }
            while let Some(u) = stack.pop() {
                merges_undone +=
                    (u.action as usize != n && g.groups.group_size(u.action as usize) > 1) as usize;
                g.undo_action(u);
                let mut legal = Vec::new();
                g.legal_actions(&mut legal);
                let s = snapshots.pop().unwrap();
                assert_eq!(
                    s,
                    (
                        g.zobrist(),
                        (0..n).map(|c| g.cell_value(c)).collect::<Vec<_>>(),
                        g.to_move(),
                        legal
                    )
                );
                // every derived table is as a fresh build makes it
                let mut fresh = g.clone();
                fresh.rebuild();
                for k in 0..2 {
                    assert_eq!(fresh.nmask[k][..n], g.nmask[k][..n]);
                }
                assert_eq!(
                    (&fresh.iso, &fresh.empty, fresh.hash, fresh.num_empty),
                    (&g.iso, &g.empty, g.hash, g.num_empty)
                );
                for c in 0..n {
                    assert_eq!(fresh.groups.group_size(c), g.groups.group_size(c));
                }
                assert_eq!(fresh.stone_counts(), g.stone_counts());
            }
        }
    }
    assert!(merges_undone > 1000, "{merges_undone}");
}

#[test]
fn count_after_matches_the_child_position() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut buf = Vec::new();
    let mut checked = 0;
    for (sides, pie) in [
        ([3usize; 6], true),
        ([3, 4, 3, 4, 3, 4], false),
        ([4; 6], true),
        ([2; 6], false),
    ] {
        for _ in 0..20 {
            let mut g = Churn::new(Arc::new(Board::from_sides(sides).unwrap()), pie);
            while !g.is_over() {
                let mut acts = Vec::new();
                g.legal_actions(&mut acts);
                for &a in &acts {
                    if a as usize == g.board.num_cells() {
                        assert_eq!(g.count_moves_after(a), None);
                        continue;
                    }
                    let mut child = g.clone();
                    child.apply_action(a);
                    assert_eq!(
                        g.count_moves_after(a),
                        Some(child.count_moves()),
                        "{}",
                        g.diagram()
                    );
                    checked += 1;
                }
                let a = g.random_action(&mut rng, &mut buf).unwrap();
                g.apply_action(a);
            }
        }
    }
    assert!(checked > 10_000);
}

#[test]
fn pair_cells_are_the_legal_cells_when_there_are_any() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let mut buf = Vec::new();
    let (mut used, mut fell_back) = (0, 0);
    for sides in [[3usize; 6], [3, 4, 3, 4, 3, 4], [5; 6]] {
        for _ in 0..10 {
            let mut g = Churn::new(Arc::new(Board::from_sides(sides).unwrap()), false);
            while let Some(a) = g.random_action(&mut rng, &mut buf) {
                if !g.iso[g.to_move as usize - 1].is_empty() {
                    g.apply_action(a);
                    continue;
                }
                let mut pairs = Vec::new();
                if g.pair_cells(&mut pairs) {
                    pairs.sort();
                    let mut legal = Vec::new();
                    g.legal_cells(&mut legal);
                    assert_eq!(pairs, legal, "{}", g.diagram());
                    used += 1;
                } else {
                    assert!(pairs.is_empty());
                    fell_back += 1;
                }
                g.apply_action(a);
            }
        }
    }
    assert!(used > 1000 && fell_back > 100, "{used} {fell_back}");
}

#[test]
fn incremental_tables_match_rebuild() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let mut buf = Vec::new();
    for sides in [[3usize; 6], [3, 4, 3, 4, 3, 4], [4; 6]] {
        let mut g = Churn::new(Arc::new(Board::from_sides(sides).unwrap()), true);
        while let Some(a) = g.random_action(&mut rng, &mut buf) {
            g.apply_action(a);
            let mut fresh = g.clone();
            fresh.rebuild();
            for k in 0..2 {
                let n = g.board.num_cells();
                assert_eq!(fresh.nmask[k][..n], g.nmask[k][..n]);
            }
            assert_eq!(fresh.iso, g.iso);
            assert_eq!(fresh.empty, g.empty);
            assert_eq!(fresh.hash, g.hash);
            assert_eq!(fresh.num_empty, g.num_empty);
        }
    }
}

impl FreshHash for Churn {
    fn fresh_zobrist(&self) -> u64 {
        crate::testing::board_stones_zobrist(self, self.flags_hash())
    }
}

#[test]
fn churn_conforms() {
    let churn = |board, pie| Churn::new(Arc::new(board), pie);
    for pie in [true, false] {
        conformance(&churn(Board::hexhex(2).unwrap(), pie), 20, 400);
        conformance(&churn(Board::hexhex(3).unwrap(), pie), 10, 400);
        conformance(&churn(Board::hexhex(4).unwrap(), pie), 3, 300);
        conformance(
            &churn(Board::from_sides([3, 4, 3, 4, 3, 4]).unwrap(), pie),
            3,
            300,
        );
    }
}
