//! What the shared engines need of Havannah beyond [`Game`]: solver keys
//! ([`Solvable`]; the hexagon's twelve symmetries all keep the rules), the
//! batch observation (through [`Game::observation`]), and in tests the
//! recomputed hash and the conformance run.

use crate::bitset::BitIter;
use crate::game::{Action, Game};
use crate::solve::Solvable;
use crate::vector::BatchGame;

use super::Havannah;

impl Solvable for Havannah {
    fn cell_bits(&self) -> u32 {
        2
    }

    /// Every action names a cell (the swap names x's stone's); a symmetry
    /// maps the swap to the swap, since it maps x's stone to itself.
    fn action_cell(&self, action: Action) -> Option<(usize, u32)> {
        self.action_to_cell(action).map(|c| (c, 0))
    }

    fn cell_action(&self, cell: usize, _rest: u32) -> Action {
        self.cell_to_action(cell)
    }
}

/// The observation goes through [`Game::observation`]; the legal-action
/// mask is written straight from the empty cells.
impl BatchGame for Havannah {
    /// The empty cells' action ids, and x's stone's while the swap is on
    /// offer.
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
        if let Some(cell) = self.swap_cell() {
            mask[self.cell_to_action(cell) as usize] = true;
            count += 1;
        }
        Some(count)
    }

    /// The `k`-th of [`Game::legal_actions`]: the `k`-th empty cell's id
    /// (cells and ids increase together), with x's stone's in its place in
    /// that order while the swap is on offer.
    fn nth_legal(&self, k: usize) -> Action {
        if self.swap_cell().is_some() {
            let mut v = Vec::new();
            self.legal_actions(&mut v);
            return v[k];
        }
        self.cell_to_action(self.empty_select(k).expect("k below the number of legal actions"))
    }
}

#[cfg(test)]
impl crate::testing::FreshHash for Havannah {
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
    fn havannah_conforms() {
        for (size, swap, games) in [(2, true, 20), (3, false, 20), (3, true, 20), (4, true, 10), (8, true, 3)] {
            conformance(&Havannah::new(size, swap).unwrap(), games, 400);
        }
    }
}
