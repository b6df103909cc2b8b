use super::*;
use crate::game::Game;
use crate::rng::rng_for;
use crate::{perft, Unit};

/// The structures the stones of `colour` hold, from scratch: bit 1 a
/// ring (some cell, of any colour, cut off from the board's edge by
/// stones of `colour` other than it), bit 2 a bridge, bit 4 a fork (by
/// flood fill of its groups).
fn structures(g: &Havannah, colour: u8) -> u8 {
    let b = &g.board;
    let n = b.num_cells();
    let mut out = 0;
    let mut seen = vec![false; n];
    for s in 0..n {
        if g.colour[s] != colour || seen[s] {
            continue;
        }
        let (mut stack, mut bits) = (vec![s], 0u16);
        seen[s] = true;
        while let Some(c) = stack.pop() {
            bits |= g.marks[c];
            for &nb in b.neighbors(c) {
                if !seen[nb as usize] && g.colour[nb as usize] == colour {
                    seen[nb as usize] = true;
                    stack.push(nb as usize);
                }
            }
        }
        out |= (((bits & CORNERS).count_ones() >= 2) as u8) << 1
            | (((bits >> 6).count_ones() >= 3) as u8) << 2;
    }
    // Cells not of `colour` reachable from the edge through such cells.
    let mut free = vec![false; n];
    let mut stack: Vec<usize> = (0..n)
        .filter(|&c| b.is_ring(c) && g.colour[c] != colour)
        .collect();
    stack.iter().for_each(|&c| free[c] = true);
    while let Some(c) = stack.pop() {
        for &nb in b.neighbors(c) {
            if !free[nb as usize] && g.colour[nb as usize] != colour {
                free[nb as usize] = true;
                stack.push(nb as usize);
            }
        }
    }
    // A loop of `colour` encloses a cell when that cell, let through, is
    // still cut off from the edge: a cell of another colour that is not
    // free, or an inner stone of `colour` with no free neighbour.
    let enclosed = |c: usize| {
        if g.colour[c] != colour {
            !free[c]
        } else {
            !b.is_ring(c) && b.neighbors(c).iter().all(|&nb| !free[nb as usize])
        }
    };
    out | (0..n).any(enclosed) as u8
}

#[test]
fn wins_agree_with_a_recount() {
    let mut buf = Vec::new();
    let mut kinds = [0usize; 8];
    let mut draws = 0;
    for (size, swap) in [(2, false), (3, true), (4, false), (5, true), (8, false)] {
        for i in 0..300 {
            let mut rng = rng_for(size as u64 * 2 + swap as u64, i);
            let mut g = Havannah::new(size, swap).unwrap();
            while let Some(a) = g.random_action(&mut rng, &mut buf) {
                assert_eq!(structures(&g, X) | structures(&g, O), 0, "{}", g.diagram());
                g.apply_action(a);
            }
            let mover = 3 - g.to_move;
            if g.winner_mask() == 3 {
                draws += 1;
                assert_eq!(structures(&g, X) | structures(&g, O), 0);
            } else {
                assert_eq!(g.winner_mask(), 1 << (mover - 1));
                assert_eq!(structures(&g, mover), g.win_kinds, "{}", g.diagram());
                assert_eq!(structures(&g, 3 - mover), 0, "{}", g.diagram());
                kinds[g.win_kinds as usize] += 1;
            }
        }
    }
    assert!(
        kinds[1] > 10 && kinds[2] > 10 && kinds[4] > 10,
        "{kinds:?} {draws}"
    );
}

#[test]
fn actions_are_openspiel_ids() {
    let g = Havannah::new(3, false).unwrap();
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    assert_eq!(
        v,
        vec![0, 1, 2, 5, 6, 7, 8, 10, 11, 12, 13, 14, 16, 17, 18, 19, 22, 23, 24]
    );
    let names: Vec<String> = v.iter().map(|&a| g.action_to_string(a)).collect();
    assert_eq!(
        names.join(" "),
        "a1 b1 c1 a2 b2 c2 d2 a3 b3 c3 d3 e3 b4 c4 d4 e4 c5 d5 e5"
    );
    assert_eq!(perft(&g, 2, Unit::Move, 1), 19 * 18);
    let mut s = Havannah::new(3, true).unwrap();
    s.apply_action(12);
    v.clear();
    s.legal_actions(&mut v);
    assert_eq!(v.len(), 19);
    assert!(v.contains(&12) && s.swap_available());
    let u = s.apply_action_undoable(12);
    assert_eq!(
        (
            s.colour[s.cells[12] as usize],
            s.to_move,
            s.swap_available()
        ),
        (O, X, false)
    );
    s.undo_action(u);
    assert_eq!(
        (
            s.colour[s.cells[12] as usize],
            s.to_move,
            s.swap_available()
        ),
        (X, O, true)
    );
}

/// The direct mask writer gives the mask, the count and the order of
/// `legal_actions` at every ply, games over included.
#[test]
fn direct_mask_matches_legal_actions() {
    use crate::vector::BatchGame;
    let mut rng = rng_for(5, 0);
    let mut list = Vec::new();
    for size in [2usize, 3, 4, 5, 8] {
        for _ in 0..4 {
            let mut g = Havannah::new(size, size % 2 == 0).unwrap();
            loop {
                list.clear();
                g.legal_actions(&mut list);
                let mut want = vec![false; g.num_actions()];
                list.iter().for_each(|&a| want[a as usize] = true);
                let mut got = vec![true; g.num_actions()];
                assert_eq!(g.write_legal_mask(&mut got), Some(list.len()));
                assert_eq!(got, want);
                for (k, &a) in list.iter().enumerate() {
                    assert_eq!(g.nth_legal(k), a);
                }
                if g.is_over() {
                    break;
                }
                g.apply_action(list[crate::rng::below(&mut rng, list.len())]);
            }
        }
    }
}

impl crate::testing::FreshHash for Havannah {
    fn fresh_zobrist(&self) -> u64 {
        crate::testing::board_stones_zobrist(self, self.flags_hash())
    }
}

#[test]
fn havannah_conforms() {
    for (size, swap, games) in [
        (2, true, 20),
        (3, false, 20),
        (3, true, 20),
        (4, true, 10),
        (8, true, 3),
    ] {
        crate::testing::conformance(&Havannah::new(size, swap).unwrap(), games, 400);
    }
}
