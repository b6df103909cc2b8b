//! Quintun's observation: one writer of its planes ([`BatchGame`]), for the
//! batch buffers of every element type and for
//! [`crate::game::Game::observation`] (float32, through
//! [`crate::vector::write_f32_observation`]).

use crate::vector::{
    fill_plane, mask_equal_each, mask_where, write_masks, write_plane, BatchGame, CellLayout,
    ObsElem,
};

use super::Quintun;

impl BatchGame for Quintun {
    fn direct_observation(&self) -> bool {
        true
    }

    /// The planes of [`crate::game::Game::observation`] (described there),
    /// in any element type, straight from its cells spread over the plane
    /// by `layout`.
    fn write_observation<T: ObsElem>(
        &self,
        layout: &CellLayout,
        out: &mut [T],
        scratch: &mut Vec<u8>,
    ) {
        let plane = layout.plane;
        let on = &layout.mask[..plane];
        // The stone planes (consecutive) as masks, then out in one write;
        // the Ring and cell planes are the same in every state.
        let (stones, rest) = out.split_at_mut(7 * plane);
        let (ring, rest) = rest.split_at_mut(plane);
        let (cells, rest) = rest.split_at_mut(plane);
        let (pending, white) = rest.split_at_mut(plane);
        let (ring_masks, ring_floats) = self.geo.ring_plane();
        write_plane(ring_masks, ring_floats, ring);
        write_plane(on, &layout.mask_f32, cells);
        let (grid, m_stones) = layout.spaces(scratch, 7);
        // SAFETY: `i8` and `u8` have the same size and alignment and every
        // bit pattern is valid for both; the slice borrows `self.cells`.
        let bytes = unsafe {
            std::slice::from_raw_parts(self.cells.as_ptr().cast::<u8>(), self.cells.len())
        };
        layout.spread_into(bytes, grid);
        let me = self.to_move as i8;
        // Off the board the spread bytes are masked to 0 (empty).
        let v = |g: u8, o: u8| (g & o) as i8;
        let (m_mine, rest) = m_stones.split_at_mut(plane);
        let (m_theirs, m_neutral) = rest.split_at_mut(plane);
        mask_where(grid, on, m_mine, |g, o| v(g, o) == me);
        mask_where(grid, on, m_theirs, |g, o| (v(g, o) > 0) & (v(g, o) != me));
        // The five neutral colours (-1..-5 as bytes) in one pass.
        mask_equal_each(grid, on, [1, 2, 3, 4, 5].map(|k: i8| -k as u8), m_neutral);
        write_masks(m_stones, stones);
        fill_plane(false, &layout.ones, pending);
        if let Some((c, _)) = self.pending {
            let ((r, col), (_, w)) = (
                self.geo.board.grid_pos(c as usize),
                self.geo.board.grid_shape(),
            );
            pending[r * w + col] = T::from_bool(true);
        }
        fill_plane(self.to_move == 2, &layout.ones, &mut white[..plane]);
    }
}
