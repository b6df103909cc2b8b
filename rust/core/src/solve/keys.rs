//! Position keys for the solver's table: the board's symmetries, the
//! canonical packed cells of a position, and the side information (player to
//! move, rule flags, a turn in progress) that the cells do not show.

use crate::board::Board;
use crate::game::{Action, Game};
use crate::zobrist;

/// What the solver needs from a game beyond [`Game`]. Each game implements
/// it in its folder (`games/<game>/solver.rs`); the defaults fit all of them.
pub trait Solvable: Game {
    /// Bits needed for one cell's code (see [`cell_code`]).
    fn cell_bits(&self) -> u32;

    /// The hash of everything in the state except the stones: the game's
    /// Zobrist key with the stones' keys taken out. Every game hashes a
    /// stone as `zobrist::piece(cell, cell_code(value))`, so what is left
    /// depends only on the side information (player to move, swap offer,
    /// pass count, phase, the turn in progress...). Tested in `tests` below.
    fn side_hash(&self, cells_hash: u64) -> u64 {
        self.zobrist() ^ cells_hash
    }

    /// The cell an action places on and the rest of the action that a
    /// symmetry leaves alone (`None` for actions naming no cell, e.g. swap).
    fn action_cell(&self, action: Action) -> Option<(usize, u32)>;
    /// The action placing `rest` on `cell` (inverse of `action_cell`).
    fn cell_action(&self, cell: usize, rest: u32) -> Action;

    /// Game knowledge for the search, given the legal actions of an
    /// unfinished position: it may drop actions that are no better for the
    /// player to move than one it keeps (by value, and unless
    /// `values_only` by distance to the end too), and it orders them, most
    /// promising first (the search keeps this order among actions of
    /// equal history score). It may change the position meanwhile but
    /// leaves it as it was. The default keeps them all, in the game's order.
    fn solver_actions(&mut self, _acts: &mut Vec<Action>, _values_only: bool) {}

    /// Game knowledge for the values pass: the value of the current
    /// position (unfinished, between turns or not) for the player to move
    /// when the game can tell it without search, else `None` (the default).
    fn solver_value(&self) -> Option<super::Outcome> {
        None
    }

    /// The algorithm `solve` uses for the values when none is asked for
    /// and no distances are (alpha-beta proves those): alpha-beta by
    /// default; a game where depth-first proof-number search is faster
    /// chooses it (docs/solved.md has the measurements).
    fn solver_algorithm(&self) -> super::Algorithm {
        super::Algorithm::AlphaBeta
    }

    /// The cell permutations that map every position to an equivalent one
    /// (`image[s][c]` is where cell `c` goes): by default the board's
    /// [`symmetries`]; a game whose rules tell the board's sides apart
    /// keeps fewer.
    fn symmetries(&self) -> Vec<Vec<u16>> {
        symmetries(self.board())
    }

    /// A proof without search that `player` wins the unfinished position
    /// against any play, for the certificates' pairing leaves: disjoint
    /// pairs of empty cells (Hex's pairing strategies); `None` (the
    /// default) when the game has none or finds none.
    fn pairing(&self, _player: usize) -> Option<Vec<[usize; 2]>> {
        None
    }

    /// Empty cells that the opponent of `player` may be given while
    /// `player` still wins the unfinished position against any play, with
    /// the position after the opponent's stones are put on them (the same
    /// player to move), for the certificates' fill nodes: the proof goes on
    /// from there, where the opponent's replies are fewer (Hex: the cells
    /// outside a virtual connection's carrier, a stone never helping the
    /// other player). `None` (the default) when the game has none.
    fn concession(&self, _player: usize) -> Option<(Vec<usize>, Self)> {
        None
    }
}

/// A cell value as the games' Zobrist keys number it: 0 empty, k for
/// colour k, 2 + k for neutral colour k (stored as -k).
#[inline]
pub fn cell_code(v: i8) -> u32 {
    if v >= 0 {
        v as u32
    } else {
        2 + (-(v as i32)) as u32
    }
}

/// The cell permutations that map the board onto itself: up to the 12
/// symmetries of a regular hexagon (rotations by 60 degrees, with and
/// without a reflection), each followed by the translation that brings
/// the image back onto the board. `image[s][c]` is where cell `c` goes.
pub fn symmetries(board: &Board) -> Vec<Vec<u16>> {
    let n = board.num_cells();
    let coords: Vec<(i32, i32)> = (0..n).map(|c| board.axial(c)).collect();
    let min_orig = *coords.iter().min().expect("a board has cells");
    let mut out: Vec<Vec<u16>> = Vec::new();
    for reflect in [false, true] {
        for rot in 0..6 {
            let map = |(q, r): (i32, i32)| {
                let (mut q, mut r) = if reflect { (r, q) } else { (q, r) };
                for _ in 0..rot {
                    (q, r) = (-r, q + r);
                }
                (q, r)
            };
            let mapped: Vec<(i32, i32)> = coords.iter().map(|&p| map(p)).collect();
            let min_m = *mapped.iter().min().expect("a board has cells");
            let (dq, dr) = (min_orig.0 - min_m.0, min_orig.1 - min_m.1);
            let image: Option<Vec<u16>> = mapped
                .iter()
                .map(|&(q, r)| board.at_axial(q + dq, r + dr).map(|c| c as u16))
                .collect();
            if let Some(image) = image {
                if !out.contains(&image) {
                    out.push(image);
                }
            }
        }
    }
    out
}

/// A table key: the packed cells of the canonical image of the position
/// (or, on boards too large to pack into 128 bits, two independent 64-bit
/// hashes of the cells) and the side hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub cells: u128,
    pub side: u64,
    /// The symmetry that gives the canonical image.
    pub sym: u8,
}

impl Key {
    /// Index bits for the table.
    #[inline]
    pub fn index_hash(&self) -> u64 {
        zobrist::mix(
            (self.cells as u64)
                ^ zobrist::mix((self.cells >> 64) as u64)
                ^ self.side.rotate_left(17),
        )
    }
}

/// Precomputed key tables for one board and game.
#[derive(Debug, Clone)]
pub struct Keyer {
    n: usize,
    /// Cells fit in 128 bits, so keys are exact.
    packed: bool,
    /// Symmetries applied between turns (identity first).
    image: Vec<Vec<u16>>,
    /// `preimage[s][i]`: the cell that symmetry `s` sends to `i`.
    preimage: Vec<Vec<u16>>,
    /// `shifted[(s * n + c) * 8 + code]`: `code` at cell `c`'s place in the
    /// packed image under symmetry `s`, as (low, high) words.
    shifted: Vec<(u64, u64)>,
    /// `zobrist::piece(cell, code)` per cell and code (8 codes).
    piece: Vec<u64>,
    /// Scratch: the occupied cells and their codes.
    occ: Vec<(u16, u32)>,
}

impl Keyer {
    pub fn new<G: Solvable>(g: &G, use_symmetry: bool) -> Keyer {
        let board = g.board();
        let n = board.num_cells();
        let bits = g.cell_bits();
        let packed = n as u32 * bits <= 128;
        let mut image = g.symmetries();
        let identity: Vec<u16> = (0..n as u16).collect();
        image.retain(|p| *p != identity);
        image.insert(0, identity);
        if !use_symmetry || !packed {
            image.truncate(1);
        }
        let preimage = image
            .iter()
            .map(|p| {
                let mut inv = vec![0u16; n];
                for (c, &i) in p.iter().enumerate() {
                    inv[i as usize] = c as u16;
                }
                inv
            })
            .collect();
        let piece = (0..n * 8)
            .map(|i| zobrist::piece(i / 8, (i % 8) as u64))
            .collect();
        let mut shifted = vec![(0u64, 0u64); image.len() * n * 8];
        if packed {
            for (s, img) in image.iter().enumerate() {
                for c in 0..n {
                    for code in 0..8u32 {
                        if code < 1 << bits {
                            let k = (code as u128) << (bits * img[c] as u32);
                            shifted[(s * n + c) * 8 + code as usize] = (k as u64, (k >> 64) as u64);
                        }
                    }
                }
            }
        }
        Keyer {
            n,
            packed,
            image,
            preimage,
            shifted,
            piece,
            occ: Vec::with_capacity(n),
        }
    }

    pub fn num_symmetries(&self) -> usize {
        self.image.len()
    }

    /// Keys are exact: equal keys are the same position up to symmetry
    /// (the cells fit in 128 bits; the side information is hashed).
    pub fn exact(&self) -> bool {
        self.packed
    }

    /// The key of `g`'s position. Symmetries are used between turns only (a
    /// turn in progress orders its placements by cell index).
    #[inline]
    pub fn key<G: Solvable>(&mut self, g: &G) -> Key {
        let mut cells_hash = 0u64;
        self.occ.clear();
        for c in 0..self.n {
            let v = g.cell_value(c);
            if v != 0 {
                let code = cell_code(v) & 7;
                cells_hash ^= self.piece[c * 8 + code as usize];
                self.occ.push((c as u16, code));
            }
        }
        let side = g.side_hash(cells_hash);
        if !self.packed {
            let mut h2 = 0u64;
            for &(c, code) in &self.occ {
                h2 ^= zobrist::mix(((c as u64) << 8 | code as u64) ^ 0xA5A5_0F0F_1234_5678);
            }
            return Key {
                cells: (cells_hash as u128) << 64 | h2 as u128,
                side,
                sym: 0,
            };
        }
        let nsym = if g.mid_turn() { 1 } else { self.image.len() };
        let mut best = (u64::MAX, u64::MAX);
        let mut best_s = 0;
        let n = self.n;
        for s in 0..nsym {
            let t = &self.shifted[s * n * 8..(s + 1) * n * 8];
            let (mut lo, mut hi) = (0u64, 0u64);
            for &(c, code) in &self.occ {
                let (a, b) = t[c as usize * 8 + code as usize];
                lo |= a;
                hi |= b;
            }
            if (hi, lo) < best {
                best = (hi, lo);
                best_s = s;
            }
        }
        let best = (best.0 as u128) << 64 | best.1 as u128;
        Key {
            cells: best,
            side,
            sym: best_s as u8,
        }
    }

    /// An action of the position in the frame of its canonical image.
    #[inline]
    pub fn to_canonical<G: Solvable>(&self, g: &G, sym: u8, a: Action) -> Action {
        match g.action_cell(a) {
            Some((c, rest)) if sym != 0 => {
                g.cell_action(self.image[sym as usize][c] as usize, rest)
            }
            _ => a,
        }
    }

    /// Inverse of `to_canonical`.
    #[inline]
    pub fn from_canonical<G: Solvable>(&self, g: &G, sym: u8, a: Action) -> Action {
        match g.action_cell(a) {
            Some((c, rest)) if sym != 0 => {
                g.cell_action(self.preimage[sym as usize][c] as usize, rest)
            }
            _ => a,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for;
    use crate::Churn;
    use std::collections::HashSet;
    use std::sync::Arc;

    #[test]
    fn symmetry_counts() {
        assert_eq!(symmetries(&Board::hexhex(3).unwrap()).len(), 12);
        assert_eq!(symmetries(&Board::named("limping-34").unwrap()).len(), 6);
    }

    #[test]
    fn side_hash_ignores_the_stones() {
        // Churn's side state is (to move, swap offer): at most 4 side hashes
        // however the stones lie.
        let mut seen = HashSet::new();
        let mut buf = Vec::new();
        for seed in 0..20 {
            let mut rng = rng_for(seed, 0);
            let mut g = Churn::new(Arc::new(Board::hexhex(3).unwrap()), true);
            let mut k = Keyer::new(&g, true);
            while !g.is_over() {
                seen.insert(k.key(&g).side);
                let a = g.random_action(&mut rng, &mut buf).unwrap();
                g.apply_action(a);
            }
        }
        assert!(seen.len() <= 4, "{}", seen.len());
    }
}
