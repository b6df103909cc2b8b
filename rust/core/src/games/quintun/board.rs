//! Quintun's board: the hexhex board with record labels (`j4`), its ring
//! (positions clockwise from the top-left corner, side masks) and the ring
//! mask arithmetic.

use std::sync::{Arc, OnceLock};

use crate::bitset::BitIter;
use crate::board::{row_name, Board};
use crate::game::OptionsError;

/// Smallest and largest supported board side.
pub const MIN_SIZE: usize = 4;
pub const MAX_SIZE: usize = 10;

/// Words of a cell set: side 10 has 271 cells.
const WORDS: usize = 5;

/// A set of cells of one board (at most 320), with its words open to
/// word-at-a-time loops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct CellSet(pub(super) [u64; WORDS]);

impl CellSet {
    #[inline]
    pub(super) fn insert(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    #[inline]
    pub(super) fn remove(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    #[inline]
    pub(super) fn contains(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    pub(super) fn iter(self) -> impl Iterator<Item = usize> {
        self.0
            .into_iter()
            .enumerate()
            .flat_map(|(wi, w)| BitIter(w).map(move |t| wi * 64 + t as usize))
    }
}

/// Column name in the record notation: 0 -> `a`, 25 -> `z`, 26 -> `aa`.
pub fn column_name(x: usize) -> String {
    row_name(x)
}

/// The board of one size with Quintun's extras: ring positions and side
/// masks. Its cell labels are the record labels (`j4`); cell indices are the
/// usual ones (Abstract Play label order). Shared (behind an `Arc`) by every
/// state.
#[derive(Debug, Clone)]
pub struct QuintunBoard {
    /// Shared by the copies `new` hands out, so a copy is cheap.
    pub board: Arc<Board>,
    pub(super) n: usize,
    /// Record coordinates per cell: (column from 0, row from 1 at the top).
    xy: Vec<(u16, u16)>,
    /// Ring cells clockwise from the top-left corner.
    ring: Vec<u16>,
    /// Ring position of each cell (`u8::MAX` for Interior cells).
    ring_pos: Vec<u8>,
    /// The Ring plane of the observation as masks: 0xff at the Ring cells'
    /// places in the board's grid, 0 elsewhere (the same in every state),
    /// and as float32 values.
    ring_plane: Vec<u8>,
    ring_plane_f32: Vec<f32>,
    /// Per four ring positions (4q to 4q + 3) and each subset of them (bit
    /// j for position 4q + j): the set of their cells.
    ring_cells: Vec<[CellSet; 16]>,
    ring_len: u32,
    /// All ring positions.
    pub(super) full: u64,
    /// Ring positions of each side (corners on two sides).
    pub(super) side_masks: [u64; 6],
    /// Interior cells as a set.
    pub(super) interior: CellSet,
    pub(super) num_interior: u32,
    pub(super) num_columns: usize,
    /// Per ring position p: the ring positions whose cell index is larger
    /// (an EXTEND lists its stones in increasing cell order).
    pub(super) later: Vec<u64>,
}

/// The board of each size, built once.
static SHARED: [OnceLock<Arc<QuintunBoard>>; MAX_SIZE + 1] =
    [const { OnceLock::new() }; MAX_SIZE + 1];

impl QuintunBoard {
    /// The board of side `n` (a copy of the shared one; see
    /// [`QuintunBoard::shared`], which saves the copy).
    pub fn new(n: usize) -> Result<QuintunBoard, OptionsError> {
        Ok(QuintunBoard::clone(&*QuintunBoard::shared(n)?))
    }

    /// The board of side `n`, built on first use and then shared by every
    /// state of that size.
    pub fn shared(n: usize) -> Result<Arc<QuintunBoard>, OptionsError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(OptionsError::new(
                "size",
                format!("size must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {n}"),
            ));
        }
        Ok(SHARED[n]
            .get_or_init(|| Arc::new(QuintunBoard::build(n)))
            .clone())
    }

    fn build(n: usize) -> QuintunBoard {
        let hexhex = Board::hexhex(n).expect("sides 4 to 10 are valid hexhex boards");
        let board = &hexhex;
        let cells = board.num_cells();
        let m = n as i32 - 1;
        let mut xy = Vec::with_capacity(cells);
        let mut labels = Vec::with_capacity(cells);
        for c in 0..cells {
            let (q, r) = board.axial(c);
            let x = (2 * q + r + 2 * m) as u16;
            let row = (r + m + 1) as u16;
            xy.push((x, row));
            labels.push(format!("{}{}", column_name(x as usize), row));
        }
        let board = hexhex
            .with_labels(labels)
            .expect("record labels are distinct");
        let ring: Vec<u16> = board.ring().to_vec();
        let ring_len = ring.len() as u32;
        debug_assert!(ring_len <= 64);
        let mut ring_pos = vec![u8::MAX; cells];
        for (p, &c) in ring.iter().enumerate() {
            ring_pos[c as usize] = p as u8;
        }
        let mut side_masks = [0u64; 6];
        for (k, side) in board.sides().iter().enumerate() {
            for &c in side {
                side_masks[k] |= 1u64 << ring_pos[c as usize];
            }
        }
        let mut interior = CellSet::default();
        let mut num_interior = 0;
        for c in 0..cells {
            if !board.is_ring(c) {
                interior.insert(c);
                num_interior += 1;
            }
        }
        let (_, w) = board.grid_shape();
        let mut ring_plane = vec![0u8; board.grid_shape().0 * w];
        for &c in &ring {
            let (r, col) = board.grid_pos(c as usize);
            ring_plane[r * w + col] = 0xff;
        }
        let ring_cells = (0..ring.len().div_ceil(4))
            .map(|q| {
                std::array::from_fn(|v| {
                    let mut set = CellSet::default();
                    for j in (0..4).filter(|&j| v >> j & 1 != 0 && 4 * q + j < ring.len()) {
                        set.insert(ring[4 * q + j] as usize);
                    }
                    set
                })
            })
            .collect();
        let full = if ring_len == 64 {
            u64::MAX
        } else {
            (1u64 << ring_len) - 1
        };
        let later = (0..ring.len())
            .map(|p| {
                (0..ring.len())
                    .filter(|&q| ring[q] > ring[p])
                    .fold(0u64, |m, q| m | 1u64 << q)
            })
            .collect();
        QuintunBoard {
            board: Arc::new(board),
            n,
            xy,
            ring,
            ring_pos,
            ring_plane_f32: ring_plane
                .iter()
                .map(|&m| f32::from(u8::from(m != 0)))
                .collect(),
            ring_plane,
            ring_cells,
            ring_len,
            full,
            side_masks,
            interior,
            num_interior,
            num_columns: 4 * n - 3,
            later,
        }
    }

    pub fn size(&self) -> usize {
        self.n
    }

    /// The record label of a cell (`j4`).
    pub fn label(&self, cell: usize) -> &str {
        self.board.label(cell)
    }

    /// The cell of a record label.
    pub fn index(&self, label: &str) -> Option<usize> {
        self.board.index(label)
    }

    /// (column from 0, row from 1 at the top) of a cell.
    pub fn record_xy(&self, cell: usize) -> (usize, usize) {
        let (x, r) = self.xy[cell];
        (x as usize, r as usize)
    }

    pub fn is_ring(&self, cell: usize) -> bool {
        self.ring_pos[cell] != u8::MAX
    }

    /// The Ring plane of the observation as masks (0xff on Ring cells, 0
    /// elsewhere) and as float32 values, in the board's grid.
    pub(crate) fn ring_plane(&self) -> (&[u8], &[f32]) {
        (&self.ring_plane, &self.ring_plane_f32)
    }

    /// Ring cells clockwise from the top-left corner.
    pub fn ring(&self) -> &[u16] {
        &self.ring
    }

    /// Whether EXTEND has the compact one-row form (`Akm1`): boards of at
    /// most 26 columns (sides 4 to 7).
    pub fn compact_extend(&self) -> bool {
        self.num_columns <= 26
    }

    /// Ring mask rotated one step clockwise (bit p moves to p+1).
    #[inline]
    pub(super) fn cw(&self, m: u64, d: u32) -> u64 {
        ((m << d) | (m >> (self.ring_len - d))) & self.full
    }

    /// Ring mask rotated one step anticlockwise.
    #[inline]
    pub(super) fn ccw(&self, m: u64, d: u32) -> u64 {
        ((m >> d) | (m << (self.ring_len - d))) & self.full
    }

    /// Ring positions next to `m`.
    #[inline]
    pub(super) fn around(&self, m: u64) -> u64 {
        self.cw(m, 1) | self.ccw(m, 1)
    }

    /// Whether the ring positions in `m` form one connected block (an arc or
    /// the whole ring). The empty set is not connected.
    #[inline]
    pub(super) fn is_arc(&self, m: u64) -> bool {
        let starts = m & !self.cw(m, 1);
        m != 0 && starts & starts.wrapping_sub(1) == 0
    }

    /// The cells at the ring positions in `m`: a table entry per four
    /// positions, ORed (no loop over the positions).
    #[inline]
    pub(super) fn cells_at(&self, m: u64) -> CellSet {
        let mut out = [0u64; WORDS];
        for (q, table) in self.ring_cells.iter().enumerate() {
            let set = &table[(m >> (4 * q)) as usize & 15];
            for (o, &w) in out.iter_mut().zip(&set.0) {
                *o |= w;
            }
        }
        CellSet(out)
    }

    #[inline]
    pub(super) fn cell_at(&self, pos: u32) -> usize {
        self.ring[pos as usize] as usize
    }

    #[inline]
    pub(super) fn pos_of(&self, cell: usize) -> u32 {
        self.ring_pos[cell] as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_labels() {
        let geo = QuintunBoard::new(7).unwrap();
        let corners: Vec<&str> = geo
            .board
            .corners()
            .iter()
            .map(|&c| geo.label(c as usize))
            .collect();
        assert_eq!(corners, ["g1", "s1", "y7", "s13", "g13", "a7"]);
        assert_eq!(geo.label(0), "g13");
        assert_eq!(geo.board.label(0), "g13");
        assert_eq!(geo.board.index("j4"), geo.index("j4"));
        assert_eq!(geo.index("m7").map(|c| geo.board.axial(c)), Some((0, 0)));
        for c in 0..geo.board.num_cells() {
            let (x, r) = geo.record_xy(c);
            for &nb in geo.board.neighbors(c) {
                let (x2, r2) = geo.record_xy(nb as usize);
                let d = ((x2 as i32 - x as i32).abs(), (r2 as i32 - r as i32).abs());
                assert!(d == (2, 0) || d == (1, 1));
            }
        }
        let big = QuintunBoard::new(10).unwrap();
        assert!(big.index("ak10").is_some() && big.index("ab1").is_some() && !big.compact_extend());
    }
}
