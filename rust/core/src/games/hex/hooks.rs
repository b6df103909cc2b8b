//! Hex's hooks into the shared machinery: its Zobrist kinds, the solver's
//! keys (the rhombus's 180-degree turn), the batched observation writer and
//! the conformance harness.

use crate::game::{Action, Game};
use crate::solve::Solvable;
use crate::vector::{BatchGame, CellLayout, ObsElem};

use super::Hex;

/// The side information Hex hashes besides the stones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The player to move.
    ToMove,
    /// The swap is on offer.
    Swap,
}

impl Kind {
    /// The kind's code in the key.
    pub const fn code(self) -> u64 {
        match self {
            Kind::ToMove => 1,
            Kind::Swap => 2,
        }
    }
}

/// The key of side information `what` with `value`.
#[inline]
pub(super) fn flag(what: Kind, value: u64) -> u64 {
    crate::zobrist::mix((what.code() << 32 | (value & 0xFFFF_FFFF)) ^ 0xF1A6_0000_0000_0001)
}

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

impl BatchGame for Hex {
    fn direct_observation(&self) -> bool {
        true
    }

    /// [`Hex`]'s planes (see [`Game::observation`]); the rhombus fills its
    /// grid, cell `c` at plane index `c`.
    fn write_observation<T: ObsElem>(&self, _layout: &CellLayout, out: &mut [T], _scratch: &mut Vec<u8>) {
        let n = self.board().num_cells();
        let me = self.to_move() as u8;
        let colours = self.groups().colours();
        let (mine, rest) = out.split_at_mut(n);
        let (theirs, rest) = rest.split_at_mut(n);
        let (o_to_move, swap) = rest.split_at_mut(n);
        for (m, &c) in mine.iter_mut().zip(colours) {
            *m = T::from_bool(c == me);
        }
        for (t, &c) in theirs.iter_mut().zip(colours) {
            *t = T::from_bool(c == 3 - me);
        }
        o_to_move.fill(T::from_bool(me == 2));
        swap[..n].fill(T::from_bool(self.swap_available()));
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
