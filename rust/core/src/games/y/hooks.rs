//! What the shared engines need of Y beyond [`Game`]: solver keys
//! ([`Solvable`]; the triangle's six symmetries all keep the rules), the
//! batch observation (through [`Game::observation`]), and in tests the
//! recomputed hash and the conformance run.

use crate::game::Action;
#[cfg(test)]
use crate::game::Game;
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

impl BatchGame for Y {}

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
