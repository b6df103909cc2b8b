//! What the shared engines need of Quintun beyond [`Game`]: solver keys
//! ([`Solvable`]), the batch observation ([`BatchGame`], through
//! [`Game::observation`]), and in tests the recomputed hash ([`FreshHash`])
//! and the conformance run.

use crate::game::{Action, Game};
use crate::solve::Solvable;
use crate::vector::BatchGame;

use super::Quintun;

impl Solvable for Quintun {
    fn cell_bits(&self) -> u32 {
        3
    }
    fn action_cell(&self, action: Action) -> Option<(usize, u32)> {
        ((action as usize) < 6 * self.board().num_cells()).then_some((action as usize / 6, action % 6))
    }
    fn cell_action(&self, cell: usize, rest: u32) -> Action {
        (cell * 6) as Action + rest
    }
}

impl BatchGame for Quintun {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{conformance, FreshHash};
    use crate::zobrist;
    use crate::QuintunPlacement;

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
            (4, QuintunPlacement::Side, true, 6),
            (4, QuintunPlacement::Gap, false, 6),
            (5, QuintunPlacement::Gap, true, 3),
            (7, QuintunPlacement::Side, true, 2),
        ] {
            conformance(&Quintun::new(size, placement, swap).unwrap(), games, 400);
        }
    }
}
