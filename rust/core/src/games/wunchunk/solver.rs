//! Wunchunk's keys for the exact solver ([`Solvable`]): two bits a cell
//! (three past three players), an action `players cell + k` names its cell
//! and the colour it places there (`k + 1`).

use crate::game::{Action, Game};
use crate::solve::Solvable;

use super::Wunchunk;

impl Solvable for Wunchunk {
    fn cell_bits(&self) -> u32 {
        if self.players() <= 3 {
            2
        } else {
            3
        }
    }
    fn action_cell(&self, action: Action) -> Option<(usize, u32)> {
        let n = self.players();
        ((action as usize) < n * self.board().num_cells())
            .then(|| (action as usize / n, action % n as u32))
    }
    fn cell_action(&self, cell: usize, rest: u32) -> Action {
        (cell * self.players()) as Action + rest
    }
}
