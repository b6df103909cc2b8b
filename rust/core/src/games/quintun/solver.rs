//! Quintun's keys for the exact solver ([`Solvable`]): three bits a cell,
//! an action `6 cell + k` names its cell and what it places there (`k`).

use crate::game::{Action, Game};
use crate::solve::Solvable;

use super::Quintun;

impl Solvable for Quintun {
    fn cell_bits(&self) -> u32 {
        3
    }
    fn action_cell(&self, action: Action) -> Option<(usize, u32)> {
        ((action as usize) < 6 * self.board().num_cells())
            .then_some((action as usize / 6, action % 6))
    }
    fn cell_action(&self, cell: usize, rest: u32) -> Action {
        (cell * 6) as Action + rest
    }
}
