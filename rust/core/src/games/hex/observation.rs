//! Hex's batch observation writer: the planes of [`Game::observation`]
//! written straight into the batch buffers.

use crate::game::{Action, Game};
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

    /// The empty cells' bits spread over the mask, then the swap flag.
    fn write_legal_mask(&self, mask: &mut [bool]) -> Option<usize> {
        let n = self.board().num_cells();
        if self.is_over() {
            mask.fill(false);
            return Some(0);
        }
        let words = self.empty_words();
        for (chunk, &w) in mask[..n].chunks_mut(64).zip(words) {
            for (t, m) in chunk.iter_mut().enumerate() {
                *m = (w >> t) & 1 != 0;
            }
        }
        mask[n] = self.swap_available();
        Some(self.num_empty() + self.swap_available() as usize)
    }

    /// The `k`-th empty cell (increasing), or the swap after them.
    fn nth_legal(&self, k: usize) -> Action {
        let mut k = k;
        for (wi, &w) in self.empty_words().iter().enumerate() {
            let c = w.count_ones() as usize;
            if k < c {
                let mut w = w;
                for _ in 0..k {
                    w &= w - 1;
                }
                return (wi * 64 + w.trailing_zeros() as usize) as Action;
            }
            k -= c;
        }
        self.board().num_cells() as Action
    }
}
