//! Churn's observation: one writer of its planes ([`BatchGame`]), for the
//! batch buffers of every element type and for [`Game::observation`]
//! (float32, through [`crate::vector::write_f32_observation`]).

use crate::game::Game;
use crate::vector::{
    fill_plane, mask_where, write_masks, write_plane, BatchGame, CellLayout, ObsElem,
};

use super::Churn;

impl BatchGame for Churn {
    fn direct_observation(&self) -> bool {
        true
    }

    /// The planes of [`Game::observation`] (described there), in any
    /// element type.
    fn write_observation<T: ObsElem>(
        &self,
        layout: &CellLayout,
        out: &mut [T],
        scratch: &mut Vec<u8>,
    ) {
        let plane = layout.plane;
        let (stones, rest) = out.split_at_mut(2 * plane);
        let (cells, blue) = rest.split_at_mut(plane);
        let to_move_blue = self.to_move() == 2;
        let (me, them) = if to_move_blue { (2u8, 1u8) } else { (1u8, 2u8) };
        // The cell colours spread over the plane, then masked to the board;
        // the two stone planes (consecutive) go out in one write.
        let (grid, masks) = layout.spaces(scratch, 2);
        layout.spread_into(self.groups().colours(), grid);
        let on = &layout.mask[..plane];
        let (m_mine, m_theirs) = masks.split_at_mut(plane);
        mask_where(grid, on, m_mine, |g, o| (g & o).min(2) == me);
        mask_where(grid, on, m_theirs, |g, o| (g & o).min(2) == them);
        write_masks(masks, stones);
        // The cell plane is the same in every state, the last constant.
        write_plane(on, &layout.mask_f32, cells);
        fill_plane(to_move_blue, &layout.ones, &mut blue[..plane]);
    }
}
