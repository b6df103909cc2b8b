//! Churn's observation written straight into a batch buffer ([`BatchGame`]):
//! the same values as [`Game::observation`] without the float32 planes in
//! between.

use crate::game::Game;
use crate::vector::{mask_where, write_masks, BatchGame, CellLayout, ObsElem};

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
        let (grid, masks) = layout.spaces(scratch);
        layout.spread_into(self.groups().colours(), grid);
        let on = &layout.mask[..plane];
        mask_where(grid, on, masks, |g, o| (g & o).min(2) == me);
        write_masks(masks, mine);
        mask_where(grid, on, masks, |g, o| (g & o).min(2) == them);
        write_masks(masks, theirs);
        write_masks(on, cells);
    }
}
