//! Hex's batch observation writer: the planes of [`Game::observation`]
//! written straight into the batch buffers.

use crate::game::{Action, Game};
use crate::unchecked::prefetch_slice;
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

    /// The empty cells' bits spread over the mask eight cells a store
    /// ([`spread_byte`]), then the swap flag.
    fn write_legal_mask(&self, mask: &mut [bool]) -> Option<usize> {
        let n = self.board().num_cells();
        if self.is_over() {
            mask.fill(false);
            return Some(0);
        }
        let (cells, swap) = mask.split_at_mut(n);
        let words = self.empty_words();
        // Byte `q` of the empty cells' bits: cells 8q..8q+8.
        let byte = |q: usize| words.get(q / 8).map_or(0, |w| (w >> (8 * (q % 8))) as u8);
        let mut eights = cells.chunks_exact_mut(8);
        for (q, m) in (&mut eights).enumerate() {
            let m: &mut [bool; 8] = m.try_into().expect("eight cells");
            *m = spread_byte(byte(q)).to_le_bytes().map(|b| b != 0);
        }
        let last = byte(n / 8);
        for (t, m) in eights.into_remainder().iter_mut().enumerate() {
            *m = last >> t & 1 != 0;
        }
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

/// The eight bits of `b` as eight bytes (0 or 1), bit `t` in byte `t`: the
/// low seven bits multiplied into place (no carries: the copies do not
/// overlap), the top bit shifted.
#[inline(always)]
fn spread_byte(b: u8) -> u64 {
    let b = b as u64;
    ((b & 0x7f).wrapping_mul(0x0002_0408_1020_4081) & 0x0101_0101_0101_0101) | (b & 0x80) << 49
}

#[cfg(test)]
mod tests {
    #[test]
    fn spread_byte_puts_each_bit_in_its_byte() {
        for b in 0..=255u8 {
            let s = super::spread_byte(b).to_le_bytes();
            for (t, &v) in s.iter().enumerate() {
                assert_eq!(v, b >> t & 1, "byte {b:#010b}, bit {t}");
            }
        }
    }
}
