//! Hex's batch observation writer: the planes of [`Game::observation`]
//! written straight into the batch buffers.

use crate::game::Game;
use crate::vector::{BatchGame, CellLayout, ObsElem};

use super::Hex;

impl BatchGame for Hex {
    fn direct_observation(&self) -> bool {
        true
    }

    /// [`Hex`]'s planes (see [`Game::observation`]); the rhombus fills its
    /// grid, cell `c` at plane index `c`.
    fn write_observation<T: ObsElem>(&self, _layout: &CellLayout, out: &mut [T], _scratch: &mut Vec<u8>) {
        let n = self.board().num_cells();
        let me = self.to_move() as u8;
        let colours = self.colours();
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
