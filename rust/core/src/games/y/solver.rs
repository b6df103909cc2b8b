//! Y's keys for the exact solver ([`Solvable`]): two bits a cell,
//! an action names its cell; the triangle's six symmetries all keep the
//! rules.

use crate::game::Action;
use crate::solve::Solvable;

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
