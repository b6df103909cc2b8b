//! Hex (Piet Hein 1942, John Nash 1948), with the rules, notation and action
//! ids of OpenSpiel's `hex`.
//!
//! The board is an `rows` x `cols` rhombus ([`Board::rhombus`]). The first
//! player, x (1, Black in OpenSpiel), places first and wins by joining the
//! top row to the bottom row with a chain of x stones; the second player,
//! o (2, White), joins the left column to the right column. Players
//! alternate placing one stone on an empty cell; there are no captures and
//! no draws (a full board always holds exactly one winning chain).
//!
//! With `swap`, o's first turn may be `swap` instead of a stone: x's stone
//! on (row r, col c) is replaced by an o stone on the mirrored cell (row c,
//! col r), and x moves next ("swap pieces", as OpenSpiel and pgx play it).
//! The mirror needs a square board, so `swap` is only offered on one.
//!
//! Actions: cell `row * cols + col` places a stone there (cells are
//! labelled column letter + row number: `a1` top left, `b1` to its right,
//! `a2` below it); `num_cells` is `swap`.
//!
//! Boards one cell wide: a stone in the only row touches the top and the
//! bottom (an x stone there wins at once), a stone in the only column
//! touches the left and the right (an o stone there wins at once). So the
//! 1 x 1 game ends after x's first stone, x winning. OpenSpiel counts a
//! cell as touching one edge only, so its games on such boards never end.
//!
//! Win detection: the stones are kept in the shared union-find
//! ([`UnionFind`]), each group carrying two edge bits (touches the player's
//! first edge, touches the second); a stone that makes a group with both
//! bits wins, in O(alpha) per stone. [`Game::apply_action`] joins groups
//! with path halving; [`Game::apply_action_undoable`] joins them without
//! compressing, and undo takes the stone back with [`UnionFind::unplace`].
//!
//! Random playouts ([`Game::play_random`]) draw from a list of the empty
//! cells (swap-remove), built from the position at the start, so a playout
//! allocates nothing and its result depends only on the position and the
//! generator.

mod game;
mod inferior;
mod observation;
mod options;
mod pairing;
mod solver;
#[cfg(test)]
mod tests;
mod vc;

use std::sync::Arc;

use crate::bitset::BitSet;
use crate::board::Board;
use crate::facts::Facts;
#[cfg(doc)]
use crate::game::Game;
use crate::game::{Action, MoveError, OptionsError, Reason, WinnerMask};
use crate::limits::{self, IntArg};
use crate::unchecked::get;
use crate::union_find::{Placed, UnionFind};
use crate::zobrist;

/// What the crate root re-exports.
pub mod public {
    pub use super::solver::{
        hex_knowledge, set_hex_knowledge, HEX_KNOW_ALL, HEX_KNOW_CAPTURED, HEX_KNOW_DEAD,
        HEX_KNOW_DOMINATED, HEX_KNOW_MUSTPLAY,
    };
    pub use super::{Hex, HexUndo, HEX_MAX_SIZE, HEX_OBSERVATION_PLANES};
}

/// Largest number of rows or columns.
pub const HEX_MAX_SIZE: usize = crate::board::MAX_RHOMBUS;

/// Planes of [`Hex`]'s observation.
pub const HEX_OBSERVATION_PLANES: usize = 4;

/// The side information Hex hashes besides the stones, each kind with its
/// fixed code in the key ([`zobrist::flag`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The player to move.
    ToMove = 1,
    /// The swap is on offer.
    Swap = 2,
}

const X: u8 = 1;
const O: u8 = 2;
/// Edge bits of a group: it touches the player's first edge (top for x,
/// left for o), its second (bottom for x, right for o).
const BOTH_EDGES: u8 = 3;

#[derive(Debug)]
pub struct Hex {
    board: Arc<Board>,
    /// Per cell: the edge bits of an x stone there (bits 0-1) and of an o
    /// stone (bits 2-3).
    edges: Arc<[u8]>,
    rows: u16,
    cols: u16,
    swap: bool,
    /// Colour per cell: 0 empty, 1 x, 2 o.
    colour: Vec<u8>,
    /// The stones' groups; each group's payload is its edge bits.
    links: UnionFind,
    empty: BitSet,
    num_empty: u16,
    to_move: u8,
    /// Whole turns played (the swap is one).
    ply: u32,
    /// The cell of x's first stone, while a swap may take it.
    first: u16,
    swap_available: bool,
    winners: WinnerMask,
    /// The stones' keys.
    hash: u64,
}

impl Clone for Hex {
    fn clone(&self) -> Self {
        Hex {
            board: self.board.clone(),
            edges: self.edges.clone(),
            colour: self.colour.clone(),
            links: self.links.clone(),
            empty: self.empty.clone(),
            ..*self
        }
    }

    /// Reuses this state's allocations (playouts keep one scratch state).
    fn clone_from(&mut self, s: &Self) {
        self.board.clone_from(&s.board);
        self.edges.clone_from(&s.edges);
        self.colour.clone_from(&s.colour);
        self.links.clone_from(&s.links);
        self.empty.clone_from(&s.empty);
        let Hex {
            rows,
            cols,
            swap,
            num_empty,
            to_move,
            ply,
            first,
            swap_available,
            winners,
            hash,
            ..
        } = *s;
        (
            self.rows,
            self.cols,
            self.swap,
            self.num_empty,
            self.to_move,
            self.ply,
        ) = (rows, cols, swap, num_empty, to_move, ply);
        (self.first, self.swap_available, self.winners, self.hash) =
            (first, swap_available, winners, hash);
    }
}

/// Undo record for one Hex action.
#[derive(Debug, Clone, Copy)]
pub struct HexUndo {
    action: Action,
    /// How the stone joined its group (for a swap: o's stone).
    placed: Placed,
    swap_available: bool,
    first: u16,
}

impl Hex {
    /// An empty `rows` x `cols` board (each 1 to [`HEX_MAX_SIZE`]); `swap`
    /// needs a square board.
    pub fn new(rows: usize, cols: usize, swap: bool) -> Result<Hex, OptionsError> {
        let board = Board::rhombus(rows, cols).map_err(|e| {
            OptionsError::new(
                if e.0.starts_with("rows") {
                    "rows"
                } else {
                    "cols"
                },
                e.0,
            )
        })?;
        if swap && rows != cols {
            return Err(OptionsError::new(
                "swap",
                format!("swap mirrors the first stone across the long diagonal, so it needs a square board; got {rows} rows and {cols} columns"),
            ));
        }
        let n = rows * cols;
        let edges: Arc<[u8]> = (0..n)
            .map(|c| {
                let (r, q) = (c / cols, c % cols);
                let x = (r == 0) as u8 | ((r == rows - 1) as u8) << 1;
                let o = (q == 0) as u8 | ((q == cols - 1) as u8) << 1;
                x | o << 2
            })
            .collect();
        let mut empty = BitSet::new(n);
        (0..n).for_each(|c| empty.insert(c));
        Ok(Hex {
            board: Arc::new(board),
            edges,
            rows: rows as u16,
            cols: cols as u16,
            swap,
            colour: vec![0; n],
            links: UnionFind::new(n),
            empty,
            num_empty: n as u16,
            to_move: X,
            ply: 0,
            first: 0,
            swap_available: false,
            winners: 0,
            hash: 0,
        })
    }

    /// A position from cell values (0 empty, 1 x, 2 o, in cell order) and
    /// the player to move, both checked here as given. A set-up position
    /// never offers the swap; it is over when it holds a winning chain.
    pub fn from_cells(
        rows: usize,
        cols: usize,
        swap: bool,
        cells: &[i8],
        to_move: impl Into<IntArg>,
    ) -> Result<Hex, OptionsError> {
        let mut g = Hex::new(rows, cols, swap)?;
        let to_move = limits::to_move(to_move)?;
        let cells = limits::colours(cells, Hex::FACTS.player_names)?;
        let n = rows * cols;
        if cells.len() != n {
            return Err(OptionsError::new(
                "position",
                format!("expected {n} cells, got {}", cells.len()),
            ));
        }
        for (cell, &c) in cells.iter().enumerate() {
            if c != 0 {
                g.put(cell, c, false);
                g.ply += 1;
            }
        }
        g.to_move = to_move;
        Ok(g)
    }

    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    pub fn swap(&self) -> bool {
        self.swap
    }

    pub fn board_arc(&self) -> &Arc<Board> {
        &self.board
    }

    /// Colour per cell: 0 empty, 1 x, 2 o.
    pub fn colours(&self) -> &[u8] {
        &self.colour
    }

    /// The empty cells, 64 a word.
    pub(crate) fn empty_words(&self) -> &[u64] {
        self.empty.words()
    }

    /// The `k`-th empty cell (increasing), if there are more than `k`.
    pub(crate) fn empty_select(&self, k: usize) -> Option<usize> {
        self.empty.select(k)
    }

    /// Prefetch the groups' links ([`UnionFind::prefetch`]).
    #[inline(always)]
    pub(crate) fn links_prefetch(&self) {
        self.links.prefetch()
    }

    pub(crate) fn num_empty(&self) -> usize {
        self.num_empty as usize
    }

    /// The swap is a legal action now.
    pub fn swap_available(&self) -> bool {
        self.swap_available
    }

    /// The cell a swap puts o's stone on when x's stone is on `cell`: the
    /// mirror image across the long diagonal (row and column exchanged).
    pub fn mirror(&self, cell: usize) -> usize {
        let c = self.cols as usize;
        (cell % c) * c + cell / c
    }

    /// The edge bits a stone of `colour` on `cell` touches.
    #[inline(always)]
    fn edge_bits(&self, cell: usize, colour: u8) -> u8 {
        self.edges[cell] >> (2 * (colour - 1)) & 3
    }

    /// Put a stone of `colour` on empty `cell`, joining its group by
    /// [`UnionFind::place`] when `undoable` (the record is returned), by
    /// [`UnionFind::link`] otherwise. Records the win if the group touches
    /// both edges.
    #[inline(always)]
    fn put(&mut self, cell: usize, colour: u8, undoable: bool) -> Option<Placed> {
        self.hash ^= self.board.zobrist_key(cell, colour as usize);
        self.empty.remove(cell);
        self.num_empty -= 1;
        self.colour[cell] = colour;
        let bits = self.edge_bits(cell, colour);
        // The neighbours of the same colour, gathered without a branch per
        // neighbour (whether a neighbour is a friend is a coin toss).
        let mut found = [0u16; 6];
        let mut k = 0;
        for &nb in self.board.neighbors(cell) {
            found[k] = nb;
            // SAFETY: neighbours are cells; `k` stays below the degree (<= 6).
            k += unsafe { get(&self.colour, nb as usize) == colour } as usize;
        }
        let friends = found[..k].iter().map(|&nb| nb as usize);
        let (root, placed) = if undoable {
            let p = self.links.place(cell, bits, friends);
            (p.root(), Some(p))
        } else {
            (self.links.link(cell, bits, friends), None)
        };
        if self.links.payload(root) == BOTH_EDGES {
            self.winners = 1 << (colour - 1);
        }
        placed
    }

    /// Take back the stone on `cell` put last (see [`Hex::put`]).
    #[inline]
    fn take(&mut self, cell: usize, placed: Placed) {
        self.lift(cell);
        self.links.unplace(cell, placed);
    }

    /// Clear `cell`'s colour, hash and emptiness (not its group).
    #[inline]
    fn lift(&mut self, cell: usize) {
        let colour = self.colour[cell];
        self.hash ^= self.board.zobrist_key(cell, colour as usize);
        self.colour[cell] = 0;
        self.empty.insert(cell);
        self.num_empty += 1;
        self.winners = 0;
    }

    /// Whether a stone of the player to move on empty `cell` would win.
    #[inline]
    fn wins_at(&self, cell: usize) -> bool {
        let colour = self.to_move;
        let mut bits = self.edge_bits(cell, colour);
        for &nb in self.board.neighbors(cell) {
            if self.colour[nb as usize] == colour {
                bits |= self.links.payload(self.links.find(nb as usize));
            }
        }
        bits == BOTH_EDGES
    }

    #[inline(always)]
    fn do_place(&mut self, cell: usize, undoable: bool) -> Option<Placed> {
        let colour = self.to_move;
        let r = self.put(cell, colour, undoable);
        self.swap_available = self.swap && self.ply == 0 && colour == X && self.winners == 0;
        self.first = cell as u16;
        self.ply += 1;
        self.to_move = 3 - colour;
        r
    }

    /// Lift x's lone first stone and put o's on the mirrored cell.
    fn do_swap(&mut self, undoable: bool) -> Option<Placed> {
        let x_cell = self.first as usize;
        let o_cell = self.mirror(x_cell);
        self.lift(x_cell);
        self.links.clear(x_cell);
        let r = self.put(o_cell, O, undoable);
        self.swap_available = false;
        self.ply += 1;
        self.to_move = X;
        r
    }

    /// The hash of the side information (player to move, swap offer).
    pub(crate) fn flags_hash(&self) -> u64 {
        let mut h = zobrist::flag(Kind::ToMove as u64, self.to_move as u64);
        if self.swap_available {
            h ^= zobrist::flag(Kind::Swap as u64, 1);
        }
        h
    }

    fn swap_error(&self) -> MoveError {
        let why = if !self.swap {
            "the swap rule is off"
        } else {
            "swap is only allowed as o's first move"
        };
        MoveError::new(
            Reason::SwapNotAllowed,
            format!("swap is not allowed here: {why}"),
        )
    }
}

impl Hex {
    /// Apply a legal action, undoably or not (see [`Hex::put`]).
    #[inline(always)]
    fn apply(&mut self, action: Action, undoable: bool) -> Option<Placed> {
        if action as usize == self.board.num_cells() {
            self.do_swap(undoable)
        } else {
            self.do_place(action as usize, undoable)
        }
    }
}
