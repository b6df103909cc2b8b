//! What the shared engines need of Y beyond [`Game`]: solver keys
//! ([`Solvable`]; the triangle's six symmetries all keep the rules), the
//! batch observation (through [`Game::observation`]), and in tests the
//! recomputed hash and the conformance run.

use crate::bitset::BitIter;
use crate::game::{Action, Game};
use crate::solve::Solvable;
use crate::vector::BatchGame;

use super::Y;

impl Solvable for Y {
    fn cell_bits(&self) -> u32 {
        2
    }

    fn action_cell(&self, action: Action) -> Option<(usize, u32)> {
        self.action_to_cell(action).map(|c| (c, 0))
    }

    fn cell_action(&self, cell: usize, _rest: u32) -> Action {
        self.cell_to_action(cell)
    }
}

/// The observation goes through [`Game::observation`]; the legal-action
/// mask is written straight from the empty cells.
impl BatchGame for Y {
    /// The empty cells' action ids.
    fn write_legal_mask(&self, mask: &mut [bool]) -> Option<usize> {
        mask.fill(false);
        if self.is_over() {
            return Some(0);
        }
        let mut count = 0;
        for (wi, &w) in self.empty_words().iter().enumerate() {
            for t in BitIter(w) {
                mask[self.cell_to_action(wi * 64 + t as usize) as usize] = true;
                count += 1;
            }
        }
        Some(count)
    }

    /// The `k`-th empty cell's action id (cells and ids increase together).
    fn nth_legal(&self, k: usize) -> Action {
        self.cell_to_action(self.empty_select(k).expect("k below the number of legal actions"))
    }
}

#[cfg(test)]
impl crate::testing::FreshHash for Y {
    fn fresh_zobrist(&self) -> u64 {
        let b = self.board();
        (0..b.num_cells()).filter(|&c| self.cell_value(c) > 0).fold(self.flags_hash(), |h, c| h ^ b.zobrist_key(c, self.cell_value(c) as usize))
    }
}

#[cfg(test)]
mod conformance {
    use super::*;
    use crate::testing::conformance;

    #[test]
    fn y_conforms() {
        for (size, games) in [(1, 2), (2, 10), (3, 20), (5, 20), (8, 6), (19, 2)] {
            conformance(&Y::new(size).unwrap(), games, 400);
        }
    }
}
