//! Havannah's keys for the exact solver ([`Solvable`]): two bits a cell,
//! an action names its cell (the swap, x's stone's); the hexagon's twelve
//! symmetries all keep the rules.

use crate::game::Action;
use crate::solve::Solvable;

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
