//! What the shared engines need of Churn beyond [`Game`]: solver keys
//! ([`Solvable`]), the batch observation writer ([`BatchGame`], in
//! `observation.rs`), and in tests the recomputed hash ([`FreshHash`]) and
//! the conformance run.

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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::board::Board;
    use crate::testing::{conformance, FreshHash};

    impl FreshHash for Churn {
        fn fresh_zobrist(&self) -> u64 {
            let b = self.board();
            (0..b.num_cells()).filter(|&c| self.cell_value(c) > 0).fold(self.flags_hash(), |h, c| h ^ b.zobrist_key(c, self.cell_value(c) as usize))
        }
    }

    fn churn(board: Board, pie: bool) -> Churn {
        Churn::new(Arc::new(board), pie)
    }

    #[test]
    fn churn_conforms() {
        for pie in [true, false] {
            conformance(&churn(Board::hexhex(2).unwrap(), pie), 20, 400);
            conformance(&churn(Board::hexhex(3).unwrap(), pie), 10, 400);
            conformance(&churn(Board::hexhex(4).unwrap(), pie), 3, 300);
            conformance(&churn(Board::from_sides([3, 4, 3, 4, 3, 4]).unwrap(), pie), 3, 300);
        }
    }
}
