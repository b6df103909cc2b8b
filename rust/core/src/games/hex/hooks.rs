//! What the shared engines need of Hex beyond [`Game`]: solver keys
//! ([`Solvable`], with the rhombus's half turn), the batch observation
//! writer ([`crate::vector::BatchGame`], in `observation.rs`), and in tests
//! the recomputed hash and the conformance run.

use crate::game::{Action, Game};
use crate::solve::{Outcome, Solvable};

use super::Hex;

impl Solvable for Hex {
    fn cell_bits(&self) -> u32 {
        2
    }

    fn action_cell(&self, action: Action) -> Option<(usize, u32)> {
        ((action as usize) < self.board().num_cells()).then_some((action as usize, 0))
    }

    fn cell_action(&self, cell: usize, _rest: u32) -> Action {
        cell as Action
    }

    /// Immediate wins, forced blocks, centre first (`solver.rs`).
    fn solver_actions(&mut self, acts: &mut Vec<Action>, values_only: bool) {
        self.solver_action_list(acts, values_only)
    }

    /// A player virtually connected (`solver.rs`).
    fn solver_value(&self) -> Option<Outcome> {
        self.virtual_outcome()
    }

    /// Only the half turn maps the rhombus onto itself with each player's
    /// edges kept: the reflections of a square board exchange x's edges
    /// with o's.
    fn symmetries(&self) -> Vec<Vec<u16>> {
        let n = self.board().num_cells();
        let half_turn: Vec<u16> = (0..n).rev().map(|c| c as u16).collect();
        let identity: Vec<u16> = (0..n as u16).collect();
        if n > 1 {
            vec![identity, half_turn]
        } else {
            vec![identity]
        }
    }
}

#[cfg(test)]
impl crate::testing::FreshHash for Hex {
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
    fn hex_conforms() {
        for (rows, cols, swap, games) in [
            (1, 1, false, 2),
            (1, 4, false, 5),
            (4, 1, false, 5),
            (2, 2, true, 30),
            (3, 3, true, 20),
            (3, 5, false, 10),
            (5, 5, true, 6),
            (11, 11, true, 2),
        ] {
            conformance(&Hex::new(rows, cols, swap).unwrap(), games, 400);
        }
    }
}
