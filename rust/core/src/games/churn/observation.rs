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
        let (planes, blue) = out.split_at_mut(3 * plane);
        let to_move_blue = self.to_move() == 2;
        blue[..plane].fill(T::from_bool(to_move_blue));
        let (me, them) = if to_move_blue { (2u8, 1u8) } else { (1u8, 2u8) };
        // The cell colours spread over the plane, then masked to the board;
        // the three indicator planes (consecutive) go out in one write.
        let (grid, masks) = layout.spaces(scratch, 3);
        layout.spread_into(self.groups().colours(), grid);
        let on = &layout.mask[..plane];
        let (m_mine, rest) = masks.split_at_mut(plane);
        let (m_theirs, m_cells) = rest.split_at_mut(plane);
        mask_where(grid, on, m_mine, |g, o| (g & o).min(2) == me);
        mask_where(grid, on, m_theirs, |g, o| (g & o).min(2) == them);
        m_cells.copy_from_slice(on);
        write_masks(masks, planes);
    }
}
