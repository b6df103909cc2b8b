//! Churn's keys for the exact solver ([`Solvable`]): two bits a cell, an
//! action names its cell.

use crate::game::{Action, Game};
use crate::solve::Solvable;

use super::Churn;

impl Solvable for Churn {
    fn cell_bits(&self) -> u32 {
        2
    }
    fn action_cell(&self, action: Action) -> Option<(usize, u32)> {
        ((action as usize) < self.board().num_cells()).then_some((action as usize, 0))
    }
    fn cell_action(&self, cell: usize, _rest: u32) -> Action {
        cell as Action
    }
}
