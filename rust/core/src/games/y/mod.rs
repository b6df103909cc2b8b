//! Y (Claude Shannon, 1950s; Craige Schensted and Charles Titus, 1953),
//! with the rules, notation and action ids of OpenSpiel's `y`.
//!
//! The board is a triangle of `size` cells a side ([`Board::triangle`]).
//! The first player, x (1), and the second, o (2), alternate placing one
//! stone on an empty cell; a player wins by joining all three sides with
//! one group of their stones (a corner belongs to both its sides). There
//! are no captures and no draws: a full board always holds exactly one
//! such group.
//!
//! Actions: OpenSpiel's ids, `x + y * size` for the cell in column `x` of
//! row `y` (row 0 is the top, `size` cells wide; row `y` has `size - y`
//! cells), so `num_actions` is `size * size` and the ids of the cells off
//! the triangle are never legal. Cells are labelled column letter + row
//! number: `a1` top left, `b1` to its right, `a2` below it.
//!
//! Win detection: the stones are kept in the shared union-find
//! ([`UnionFind`]), each group carrying three side bits (touches the left
//! column, the top row, the long diagonal); a stone that makes a group
//! with all three wins. [`Game::apply_action`] joins groups with path
//! halving; [`Game::apply_action_undoable`] joins them without compressing,
//! and undo takes the stone back with [`UnionFind::unplace`].

mod game;
mod observation;
mod options;
mod solver;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::bitset::BitSet;
use crate::board::{Board, NO_CELL};
use crate::facts::Facts;
#[cfg(doc)]
use crate::game::Game;
use crate::game::{Action, OptionsError, WinnerMask};
use crate::limits::{self, IntArg};
use crate::unchecked::get;
use crate::union_find::{Placed, UnionFind};
use crate::zobrist;

/// What the crate root re-exports.
pub mod public {
    pub use super::{YUndo, Y, Y_MAX_SIZE, Y_OBSERVATION_PLANES};
}

/// Largest side of the triangle.
pub const Y_MAX_SIZE: usize = crate::board::MAX_TRIANGLE;

/// Planes of [`Y`]'s observation (OpenSpiel's: the mover's stones, the
/// opponent's, the empty cells).
pub const Y_OBSERVATION_PLANES: usize = 3;

/// The side information Y hashes besides the stones ([`zobrist::flag`]).
const TO_MOVE: u64 = 1;

const X: u8 = 1;
/// All three side bits.
const ALL_SIDES: u8 = 7;

#[derive(Debug)]
pub struct Y {
    board: Arc<Board>,
    /// Per cell: its side bits (1 left column, 2 top row, 4 long diagonal).
    sides: Arc<[u8]>,
    /// Per cell: its action id.
    actions: Arc<[u16]>,
    /// Per action id: its cell, or `NO_CELL` off the triangle.
    cells: Arc<[u16]>,
    size: u16,
    /// Colour per cell: 0 empty, 1 x, 2 o.
    colour: Vec<u8>,
    /// The stones' groups; each group's payload is its side bits.
    links: UnionFind,
    empty: BitSet,
    num_empty: u16,
    to_move: u8,
    winners: WinnerMask,
    /// The stones' keys.
    hash: u64,
}

impl Clone for Y {
    fn clone(&self) -> Self {
        Y {
            board: self.board.clone(),
            sides: self.sides.clone(),
            actions: self.actions.clone(),
            cells: self.cells.clone(),
            colour: self.colour.clone(),
            links: self.links.clone(),
            empty: self.empty.clone(),
            ..*self
        }
    }

    /// Reuses this state's allocations (playouts keep one scratch state).
    fn clone_from(&mut self, s: &Self) {
        self.board.clone_from(&s.board);
        self.sides.clone_from(&s.sides);
        self.actions.clone_from(&s.actions);
        self.cells.clone_from(&s.cells);
        self.colour.clone_from(&s.colour);
        self.links.clone_from(&s.links);
        self.empty.clone_from(&s.empty);
        (
            self.size,
            self.num_empty,
            self.to_move,
            self.winners,
            self.hash,
        ) = (s.size, s.num_empty, s.to_move, s.winners, s.hash);
    }
}

/// Undo record for one Y action.
#[derive(Debug, Clone, Copy)]
pub struct YUndo {
    cell: u16,
    placed: Placed,
}

impl Y {
    /// An empty triangle of side `size` (1 to [`Y_MAX_SIZE`]).
    pub fn new(size: usize) -> Result<Y, OptionsError> {
        let board = Board::triangle(size).map_err(|e| OptionsError::new("size", e.0))?;
        let n = board.num_cells();
        let xy = |c: usize| {
            let (x, y) = board.axial(c);
            (x as usize, y as usize)
        };
        let sides: Arc<[u8]> = (0..n)
            .map(|c| {
                let (x, y) = xy(c);
                (x == 0) as u8 | ((y == 0) as u8) << 1 | ((x + y == size - 1) as u8) << 2
            })
            .collect();
        let actions: Arc<[u16]> = (0..n).map(|c| (xy(c).0 + xy(c).1 * size) as u16).collect();
        let mut cells = vec![NO_CELL; size * size];
        for (c, &a) in actions.iter().enumerate() {
            cells[a as usize] = c as u16;
        }
        let mut empty = BitSet::new(n);
        (0..n).for_each(|c| empty.insert(c));
        Ok(Y {
            board: Arc::new(board),
            sides,
            actions,
            cells: cells.into(),
            size: size as u16,
            colour: vec![0; n],
            links: UnionFind::new(n),
            empty,
            num_empty: n as u16,
            to_move: X,
            winners: 0,
            hash: 0,
        })
    }

    /// A position from cell values (0 empty, 1 x, 2 o, in cell order) and
    /// the player to move, both checked here as given; it is over when it
    /// holds a winning group.
    pub fn from_cells(
        size: usize,
        cells: &[i8],
        to_move: impl Into<IntArg>,
    ) -> Result<Y, OptionsError> {
        let mut g = Y::new(size)?;
        let to_move = limits::to_move(to_move)?;
        let cells = limits::colours(cells, Y::FACTS.player_names)?;
        let n = g.board.num_cells();
        if cells.len() != n {
            return Err(OptionsError::new(
                "position",
                format!("expected {n} cells, got {}", cells.len()),
            ));
        }
        for (cell, &c) in cells.iter().enumerate() {
            if c != 0 {
                g.put(cell, c, false);
            }
        }
        g.to_move = to_move;
        Ok(g)
    }

    pub fn size(&self) -> usize {
        self.size as usize
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

    /// The action id of a cell.
    pub fn cell_to_action(&self, cell: usize) -> Action {
        self.actions[cell] as Action
    }

    /// The cell of an action id, if it is on the triangle.
    pub fn action_to_cell(&self, action: Action) -> Option<usize> {
        self.cells
            .get(action as usize)
            .filter(|&&c| c != NO_CELL)
            .map(|&c| c as usize)
    }

    /// Put a stone of `colour` on empty `cell`, joining its group by
    /// [`UnionFind::place`] when `undoable` (the record is returned), by
    /// [`UnionFind::link`] otherwise. Records the win if the group touches
    /// all three sides.
    #[inline(always)]
    fn put(&mut self, cell: usize, colour: u8, undoable: bool) -> Option<Placed> {
        self.hash ^= self.board.zobrist_key(cell, colour as usize);
        self.empty.remove(cell);
        self.num_empty -= 1;
        self.colour[cell] = colour;
        let bits = self.sides[cell];
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
        if self.links.payload(root) == ALL_SIDES {
            self.winners = 1 << (colour - 1);
        }
        placed
    }

    /// Take back the stone on `cell` put last (see [`Y::put`]).
    #[inline]
    fn take(&mut self, cell: usize, placed: Placed) {
        let colour = self.colour[cell];
        self.hash ^= self.board.zobrist_key(cell, colour as usize);
        self.colour[cell] = 0;
        self.empty.insert(cell);
        self.num_empty += 1;
        self.winners = 0;
        self.links.unplace(cell, placed);
    }

    /// Whether a stone of the player to move on empty `cell` would win.
    #[inline]
    fn wins_at(&self, cell: usize) -> bool {
        let colour = self.to_move;
        let mut bits = self.sides[cell];
        for &nb in self.board.neighbors(cell) {
            if self.colour[nb as usize] == colour {
                bits |= self.links.payload(self.links.find(nb as usize));
            }
        }
        bits == ALL_SIDES
    }

    /// Place the mover's stone on empty `cell`.
    #[inline(always)]
    fn do_place(&mut self, cell: usize, undoable: bool) -> Option<Placed> {
        let colour = self.to_move;
        let r = self.put(cell, colour, undoable);
        self.to_move = 3 - colour;
        r
    }

    /// The hash of the side information (the player to move).
    pub(crate) fn flags_hash(&self) -> u64 {
        zobrist::flag(TO_MOVE, self.to_move as u64)
    }
}
