//! What the shared engines need of Wunchunk beyond [`Game`]: solver keys
//! ([`Solvable`]), the batch observation ([`BatchGame`], through
//! [`Game::observation`]), and in tests the recomputed hash ([`FreshHash`])
//! and the conformance run.

use crate::game::{Action, Game};
use crate::solve::Solvable;
use crate::vector::BatchGame;

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
        ((action as usize) < n * self.board().num_cells()).then(|| (action as usize / n, action % n as u32))
    }
    fn cell_action(&self, cell: usize, rest: u32) -> Action {
        (cell * self.players()) as Action + rest
    }
}

impl BatchGame for Wunchunk {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{conformance, FreshHash};
    use crate::zobrist;
    use crate::{WunchunkBalance, WunchunkStart};

    impl FreshHash for Wunchunk {
        fn fresh_zobrist(&self) -> u64 {
            let cells = 0..self.board().num_cells();
            cells.filter(|&c| self.cell_value(c) > 0).fold(self.flags_hash(), |h, c| h ^ zobrist::piece(c, self.cell_value(c) as u64))
        }
    }

    #[test]
    fn wunchunk_conforms() {
        use WunchunkBalance as B;
        use WunchunkStart as S;
        for (size, players, start, balance, games) in [
            (5, 2, S::Standard, B::Ap, 6),
            (5, 2, S::Standard, B::Pie, 4),
            (5, 2, S::Standard, B::None, 4),
            (5, 2, S::Open, B::Ap, 4),
            (5, 2, S::Open, B::Pie, 3),
            (6, 2, S::Standard, B::Ap, 2),
            (7, 3, S::Standard, B::Ap, 2),
            (7, 4, S::Standard, B::Ap, 2),
        ] {
            conformance(&Wunchunk::new(size, players, start, balance).unwrap(), games, 200);
        }
    }
}
