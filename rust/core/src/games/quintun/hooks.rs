//! What the shared engines need of Quintun beyond [`Game`]: solver keys
//! ([`Solvable`]), the batch observation ([`BatchGame`]: a direct writer
//! of the planes of [`Game::observation`]), and in tests the recomputed hash ([`FreshHash`])
//! and the conformance run.

use crate::game::{Action, Game};
use crate::solve::Solvable;
use crate::vector::{fill_plane, mask_equal_each, mask_where, write_masks, write_plane, BatchGame, CellLayout, ObsElem};

use super::Quintun;

impl Solvable for Quintun {
    fn cell_bits(&self) -> u32 {
        3
    }
    fn action_cell(&self, action: Action) -> Option<(usize, u32)> {
        ((action as usize) < 6 * self.board().num_cells()).then_some((action as usize / 6, action % 6))
    }
    fn cell_action(&self, cell: usize, rest: u32) -> Action {
        (cell * 6) as Action + rest
    }
}

impl BatchGame for Quintun {
    fn direct_observation(&self) -> bool {
        true
    }

    /// [`Quintun`]'s planes: the mover's stones, the opponent's, neutral
    /// colours A..E (5), Ring cells, cells on the board, the pending EXTEND
    /// stone, and a constant plane equal to 1 when White is to move;
    /// straight from its cells spread over the plane by `layout`.
    fn write_observation<T: ObsElem>(&self, layout: &CellLayout, out: &mut [T], scratch: &mut Vec<u8>) {
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
        let bytes = unsafe { std::slice::from_raw_parts(self.cells.as_ptr().cast::<u8>(), self.cells.len()) };
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
            let ((r, col), (_, w)) = (self.geo.board.grid_pos(c as usize), self.geo.board.grid_shape());
            pending[r * w + col] = T::from_bool(true);
        }
        fill_plane(self.to_move == 2, &layout.ones, &mut white[..plane]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{conformance, FreshHash};
    use crate::zobrist;
    use crate::QuintunPlacement;

    impl FreshHash for Quintun {
        /// Players' stones are kinds 1..=2, neutral colour k is kind 2 + k.
        fn fresh_zobrist(&self) -> u64 {
            (0..self.board().num_cells()).fold(self.flags_hash(), |h, c| match self.cell_value(c) {
                0 => h,
                v if v > 0 => h ^ zobrist::piece(c, v as u64),
                v => h ^ zobrist::piece(c, 2 + (-v) as u64),
            })
        }
    }

    #[test]
    fn quintun_conforms() {
        for (size, placement, swap, games) in [
            (4, QuintunPlacement::Side, true, 6),
            (4, QuintunPlacement::Gap, false, 6),
            (5, QuintunPlacement::Gap, true, 3),
            (7, QuintunPlacement::Side, true, 2),
        ] {
            conformance(&Quintun::new(size, placement, swap).unwrap(), games, 400);
        }
    }
}
