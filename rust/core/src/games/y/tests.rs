use super::*;
use crate::game::{Game, Reason};
use crate::rng::rng_for;
use crate::{perft, Unit};

/// The winner by flood fill of each colour's groups, from scratch.
fn flood_winner(g: &Y) -> WinnerMask {
    let n = g.board.num_cells();
    let mut mask = 0;
    let mut seen = vec![false; n];
    for s in 0..n {
        let colour = g.colour[s];
        if colour == 0 || seen[s] {
            continue;
        }
        let (mut stack, mut bits) = (vec![s], 0);
        seen[s] = true;
        while let Some(c) = stack.pop() {
            bits |= g.sides[c];
            for &nb in g.board.neighbors(c) {
                let nb = nb as usize;
                if !seen[nb] && g.colour[nb] == colour {
                    seen[nb] = true;
                    stack.push(nb);
                }
            }
        }
        if bits == ALL_SIDES {
            mask |= 1 << (colour - 1);
        }
    }
    mask
}

#[test]
fn wins_agree_with_flood_fill() {
    let mut buf = Vec::new();
    let mut ends = [0usize; 3];
    for size in [1, 2, 3, 4, 7, 11, 19] {
        for i in 0..200 {
            let mut rng = rng_for(size as u64, i);
            let mut g = Y::new(size).unwrap();
            while let Some(a) = g.random_action(&mut rng, &mut buf) {
                assert_eq!(flood_winner(&g), 0, "{}", g.diagram());
                g.apply_action(a);
            }
            assert_eq!(g.winner_mask(), flood_winner(&g), "{}", g.diagram());
            ends[g.winner_mask() as usize] += 1;
        }
    }
    assert_eq!(ends[0], 0);
    assert!(ends[1] > 300 && ends[2] > 300, "{ends:?}");
}

#[test]
fn actions_are_openspiel_ids() {
    let g = Y::new(4).unwrap();
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    assert_eq!(v, vec![0, 1, 2, 3, 4, 5, 6, 8, 9, 12]);
    let names: Vec<String> = v.iter().map(|&a| g.action_to_string(a)).collect();
    assert_eq!(
        names,
        ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3", "a4"]
    );
    assert!(!g.is_legal_action(7) && !g.is_legal_action(15) && !g.is_legal_action(16));
    assert_eq!(g.parse_move("b3").unwrap().as_slice(), &[9]);
    assert_eq!(g.parse_move("c3").unwrap_err().reason, Reason::UnknownCell);
    assert_eq!(perft(&g, 2, Unit::Move, 1), 90);
}

#[test]
fn the_one_cell_triangle_ends_at_once() {
    let mut g = Y::new(1).unwrap();
    g.apply_action(0);
    assert_eq!(g.winner_mask(), 1);
}

/// The direct mask writer gives the mask, the count and the order of
/// `legal_actions` at every ply, games over included.
#[test]
fn direct_mask_matches_legal_actions() {
    use crate::vector::BatchGame;
    let mut rng = rng_for(5, 0);
    let mut list = Vec::new();
    for size in [1usize, 2, 5, 11, 19] {
        for _ in 0..4 {
            let mut g = Y::new(size).unwrap();
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

impl crate::testing::FreshHash for Y {
    fn fresh_zobrist(&self) -> u64 {
        crate::testing::board_stones_zobrist(self, self.flags_hash())
    }
}

#[test]
fn y_conforms() {
    for (size, games) in [(1, 2), (2, 10), (3, 20), (5, 20), (8, 6), (19, 2)] {
        crate::testing::conformance(&Y::new(size).unwrap(), games, 400);
    }
}
