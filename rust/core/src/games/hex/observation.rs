//! Hex's observation: one writer of its planes ([`BatchGame`]), for the
//! batch buffers of every element type and for [`Game::observation`]
//! (float32, through [`crate::vector::write_f32_observation`]); and the
//! legal-action mask written straight from the empty cells.

use crate::game::{Action, Game};
use crate::unchecked::prefetch_slice;
use crate::vector::{write_bits, write_equal, BatchGame, CellLayout, ObsElem};

use super::Hex;

impl BatchGame for Hex {
    fn direct_observation(&self) -> bool {
        true
    }

    /// The planes of [`Game::observation`] (described there), in any
    /// element type; the rhombus fills its grid, cell `c` at plane index
    /// `c` (no layout needed).
    fn write_observation<T: ObsElem>(
        &self,
        _layout: &CellLayout,
        out: &mut [T],
        _scratch: &mut Vec<u8>,
    ) {
        let n = self.board().num_cells();
        let me = self.to_move() as u8;
        let colours = self.colours();
        let (mine, rest) = out.split_at_mut(n);
        let (theirs, rest) = rest.split_at_mut(n);
        let (o_to_move, swap) = rest.split_at_mut(n);
        write_equal(colours, me, mine);
        write_equal(colours, 3 - me, theirs);
        o_to_move.fill(T::from_bool(me == 2));
        swap[..n].fill(T::from_bool(self.swap_available()));
    }

    /// The empty cells' bits ([`write_bits`]), then the swap flag.
    fn write_legal_mask(&self, mask: &mut [bool]) -> Option<usize> {
        let n = self.board().num_cells();
        if self.is_over() {
            mask.fill(false);
            return Some(0);
        }
        let (cells, swap) = mask.split_at_mut(n);
        write_bits(self.empty_words(), cells);
        swap[0] = self.swap_available();
        Some(self.num_empty() + self.swap_available() as usize)
    }

    /// The colours, the groups and the empty cells.
    #[inline(always)]
    fn prefetch(&self) {
        prefetch_slice(self.colours());
        prefetch_slice(self.empty_words());
        self.links_prefetch();
    }

    /// The `k`-th empty cell (increasing), or the swap after them.
    fn nth_legal(&self, k: usize) -> Action {
        match self.empty_select(k) {
            Some(cell) => cell as Action,
            None => self.board().num_cells() as Action,
        }
    }
}
