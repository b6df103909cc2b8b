//! What the shared engines need of Havannah beyond [`Game`]: solver keys
//! ([`Solvable`]; the hexagon's twelve symmetries all keep the rules), the
//! batch observation (through [`Game::observation`]), and in tests the
//! recomputed hash and the conformance run.

use crate::game::Action;
#[cfg(test)]
use crate::game::Game;
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

impl BatchGame for Havannah {}

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
