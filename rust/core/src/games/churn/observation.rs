//! Churn's observation written straight into a batch buffer ([`BatchGame`]):
//! the same values as [`Game::observation`] without the float32 planes in
//! between.

use crate::game::Game;
use crate::vector::{BatchGame, CellLayout, ObsElem};

use super::Churn;

impl BatchGame for Churn {
    fn direct_observation(&self) -> bool {
        true
    }

    /// [`Churn`]'s planes: stones of the player to move, opponent stones,
    /// cells on the board, and a constant plane equal to 1 when Blue is to
    /// move.
    fn write_observation<T: ObsElem>(&self, layout: &CellLayout, out: &mut [T], scratch: &mut Vec<u8>) {
        let plane = layout.plane;
        let (mine, rest) = out.split_at_mut(plane);
        let (theirs, rest) = rest.split_at_mut(plane);
        let (cells, blue) = rest.split_at_mut(plane);
        let to_move_blue = self.to_move() == 2;
        blue[..plane].fill(T::from_bool(to_move_blue));
        let (me, them) = if to_move_blue { (2u8, 1u8) } else { (1u8, 2u8) };
        // The cell colours spread over the plane, then masked to the board.
        let grid = layout.spread(self.groups().colours(), scratch);
        let (grid, on) = (&grid[..plane], &layout.mask[..plane]);
        for p in 0..plane {
            mine[p] = T::from_bool((grid[p] & on[p]).min(2) == me);
        }
        for p in 0..plane {
            theirs[p] = T::from_bool((grid[p] & on[p]).min(2) == them);
        }
        for p in 0..plane {
            cells[p] = T::from_bool(on[p] != 0);
        }
    }
}
