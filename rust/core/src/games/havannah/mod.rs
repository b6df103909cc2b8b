//! Havannah (Christian Freeling, 1979), with the rules, notation and
//! action ids of OpenSpiel's `havannah`.
//!
//! The board is the hexagon of side `size` ([`Board::hexhex`], its cells
//! numbered from the top row down, [`Board::top_down`]). The first
//! player, x (1), and the second, o (2), alternate placing one stone on an
//! empty cell. A player wins by a stone that completes one of three
//! structures of their stones:
//!
//! - a **ring**: a loop around at least one cell (occupied or not);
//! - a **bridge**: a group touching two of the six corners;
//! - a **fork**: a group touching three of the six sides, the corners
//!   belonging to no side.
//!
//! A full board with no such structure is a draw. With `swap`, o's first
//! move may be x's stone's cell: the stone changes colour (OpenSpiel's
//! swap; its action id is that cell's).
//!
//! Actions: OpenSpiel's ids on the `(2 size - 1)`-square grid of `(x, y)`,
//! `x + y * (2 size - 1)`, row `y` (0 at the top) holding the cells from
//! `x = max(0, y - size + 1)` to `x = min(2 size - 2, size - 1 + y)`; the
//! ids of the grid's two empty corners are never legal. Cells are
//! labelled column letter + row number (`a1` top left, `b1` to its right,
//! `a2` below it, `b2` below `b1`).
//!
//! Win detection: the stones are kept in the shared union-find
//! ([`UnionFind`]), each group carrying its corner and side bits (a
//! bridge or a fork is a look at the new stone's group). Rings are found
//! as OpenSpiel finds them: only when the stone joins its group at two
//! places not adjacent around it ([`ring_trigger`]) is the group walked
//! from the stone ([`ring_walk`]).

mod game;
mod observation;
mod options;
mod solver;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::bitset::BitSet;
use crate::board::{row_name, Board, NO_CELL};
use crate::facts::Facts;
#[cfg(doc)]
use crate::game::Game;
use crate::game::{Action, OptionsError, WinnerMask};
use crate::limits::{self, IntArg};
use crate::union_find::{ring_cells, ring_friends, ring_trigger, ring_walk, Placed, UnionFind};
use crate::zobrist;

/// What the crate root re-exports.
pub mod public {
    pub use super::{
        Havannah, HavannahUndo, WinKind, HAVANNAH_MAX_SIZE, HAVANNAH_OBSERVATION_PLANES,
    };
}

/// Largest side of the hexagon (its columns are lettered `a` to `y`).
pub const HAVANNAH_MAX_SIZE: usize = 13;

/// Planes of [`Havannah`]'s observation (OpenSpiel's: the mover's stones,
/// the opponent's, the empty cells).
pub const HAVANNAH_OBSERVATION_PLANES: usize = 3;

/// The side information Havannah hashes besides the stones
/// ([`zobrist::flag`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The player to move.
    ToMove = 1,
    /// The swap is on offer.
    Swap = 2,
}

const X: u8 = 1;
const O: u8 = 2;
/// A group's corner bits (bits 0-5) and side bits (bits 6-11).
const CORNERS: u16 = 0x3f;

/// How a finished game was won (a stone may complete several at once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WinKind {
    Ring,
    Bridge,
    Fork,
}

impl WinKind {
    pub fn name(self) -> &'static str {
        match self {
            WinKind::Ring => "ring",
            WinKind::Bridge => "bridge",
            WinKind::Fork => "fork",
        }
    }
}

#[derive(Debug)]
pub struct Havannah {
    board: Arc<Board>,
    /// Per cell: its corner bit (bits 0-5) or side bit (bits 6-11).
    marks: Arc<[u16]>,
    /// Per cell: its action id.
    actions: Arc<[u16]>,
    /// Per action id: its cell, or `NO_CELL` off the board.
    cells: Arc<[u16]>,
    size: u16,
    swap: bool,
    /// Colour per cell: 0 empty, 1 x, 2 o.
    colour: Vec<u8>,
    /// The stones' groups; each group's payload is its corner and side bits.
    links: UnionFind<u16>,
    empty: BitSet,
    num_empty: u16,
    to_move: u8,
    /// Whole turns played (the swap is one).
    ply: u32,
    /// The cell of x's first stone, while a swap may take it.
    first: u16,
    swap_available: bool,
    winners: WinnerMask,
    /// The structures the last stone completed (bits 1 ring, 2 bridge, 4 fork).
    win_kinds: u8,
    /// The stones' keys.
    hash: u64,
}

impl Clone for Havannah {
    fn clone(&self) -> Self {
        Havannah {
            board: self.board.clone(),
            marks: self.marks.clone(),
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
        self.marks.clone_from(&s.marks);
        self.actions.clone_from(&s.actions);
        self.cells.clone_from(&s.cells);
        self.colour.clone_from(&s.colour);
        self.links.clone_from(&s.links);
        self.empty.clone_from(&s.empty);
        let Havannah {
            size,
            swap,
            num_empty,
            to_move,
            ply,
            first,
            swap_available,
            winners,
            win_kinds,
            hash,
            ..
        } = *s;
        (self.size, self.swap, self.num_empty, self.to_move, self.ply) =
            (size, swap, num_empty, to_move, ply);
        (
            self.first,
            self.swap_available,
            self.winners,
            self.win_kinds,
            self.hash,
        ) = (first, swap_available, winners, win_kinds, hash);
    }
}

/// Undo record for one Havannah action.
#[derive(Debug, Clone, Copy)]
pub struct HavannahUndo {
    cell: u16,
    /// How the stone joined its group (`None` for a swap).
    placed: Option<Placed<u16>>,
    swap_available: bool,
    first: u16,
}

impl Havannah {
    /// An empty hexagon of side `size` (2 to [`HAVANNAH_MAX_SIZE`]); `swap`
    /// lets o's first move take x's stone.
    pub fn new(size: usize, swap: bool) -> Result<Havannah, OptionsError> {
        if !(2..=HAVANNAH_MAX_SIZE).contains(&size) {
            return Err(OptionsError::new(
                "size",
                format!("size must be an integer from 2 to {HAVANNAH_MAX_SIZE}, got {size}"),
            ));
        }
        let (m, d) = (size as i32 - 1, 2 * size as i32 - 1);
        let plain = Board::hexhex(size)
            .map_err(|e| OptionsError::new("size", e.0))?
            .top_down();
        let n = plain.num_cells();
        // OpenSpiel's (x, y) of a cell: y the row from the top, x = q + y.
        let xy: Vec<(i32, i32)> = (0..n)
            .map(|c| {
                let (q, r) = plain.axial(c);
                let y = r + m;
                (q + y, y)
            })
            .collect();
        let labels = xy
            .iter()
            .map(|&(x, y)| format!("{}{}", row_name(x as usize), y + 1))
            .collect();
        let rows = (0..d).rev().map(|y| (y + 1).to_string()).collect();
        let grid = xy.iter().map(|&(x, y)| (y as usize, x as usize)).collect();
        let board = plain
            .with_labels(labels)
            .and_then(|b| b.with_row_names(rows))
            .and_then(|b| b.with_observation_grid(grid, (d as usize, d as usize)))
            .map_err(|e| OptionsError::new("size", e.0))?;
        let e = 2 * m;
        let marks: Arc<[u16]> = xy
            .iter()
            .map(|&(x, y)| {
                let corner = [(0, 0), (m, 0), (e, m), (e, e), (m, e), (0, m)]
                    .iter()
                    .position(|&p| p == (x, y));
                if let Some(k) = corner {
                    return 1 << k;
                }
                let side = [y == 0, x - y == m, x == e, y == e, y - x == m, x == 0]
                    .iter()
                    .position(|&b| b);
                side.map_or(0, |k| 1 << (6 + k))
            })
            .collect();
        let actions: Arc<[u16]> = xy.iter().map(|&(x, y)| (x + y * d) as u16).collect();
        let mut cells = vec![NO_CELL; (d * d) as usize];
        for (c, &a) in actions.iter().enumerate() {
            cells[a as usize] = c as u16;
        }
        let mut empty = BitSet::new(n);
        (0..n).for_each(|c| empty.insert(c));
        Ok(Havannah {
            board: Arc::new(board),
            marks,
            actions,
            cells: cells.into(),
            size: size as u16,
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
            win_kinds: 0,
            hash: 0,
        })
    }

    /// A position from cell values (0 empty, 1 x, 2 o, in cell order) and
    /// the player to move, both checked here as given. A set-up position
    /// never offers the swap; it is over when a stone completes a structure
    /// as the stones are put in cell order, or when it is full.
    pub fn from_cells(
        size: usize,
        swap: bool,
        cells: &[i8],
        to_move: impl Into<IntArg>,
    ) -> Result<Havannah, OptionsError> {
        let mut g = Havannah::new(size, swap)?;
        let to_move = limits::to_move(to_move)?;
        let cells = limits::colours(cells, Havannah::FACTS.player_names)?;
        let n = g.board.num_cells();
        if cells.len() != n {
            return Err(OptionsError::new(
                "position",
                format!("expected {n} cells, got {}", cells.len()),
            ));
        }
        for (cell, &c) in cells.iter().enumerate() {
            if c != 0 {
                // The first structure completed decides; later stones join
                // their groups all the same.
                let decided = (g.winners, g.win_kinds);
                g.put(cell, c, false);
                if decided.0 != 0 {
                    (g.winners, g.win_kinds) = decided;
                }
                g.ply += 1;
            }
        }
        g.to_move = to_move;
        Ok(g)
    }

    pub fn size(&self) -> usize {
        self.size as usize
    }

    pub fn swap(&self) -> bool {
        self.swap
    }

    /// The swap is a legal action now.
    pub fn swap_available(&self) -> bool {
        self.swap_available
    }

    /// Colour per cell: 0 empty, 1 x, 2 o.
    pub fn colours(&self) -> &[u8] {
        &self.colour
    }

    /// The structures the winning stone completed (none while the game goes
    /// on or after a draw), ring first.
    pub fn win_kinds(&self) -> Vec<WinKind> {
        [WinKind::Ring, WinKind::Bridge, WinKind::Fork]
            .into_iter()
            .enumerate()
            .filter(|(k, _)| self.win_kinds >> k & 1 != 0)
            .map(|(_, w)| w)
            .collect()
    }

    /// The empty cells, 64 a word.
    pub(crate) fn empty_words(&self) -> &[u64] {
        self.empty.words()
    }

    /// The `k`-th empty cell (increasing), if there are more than `k`.
    pub(crate) fn empty_select(&self, k: usize) -> Option<usize> {
        self.empty.select(k)
    }

    /// The cell of x's stone while o may swap it.
    pub(crate) fn swap_cell(&self) -> Option<usize> {
        self.swap_available.then_some(self.first as usize)
    }

    /// The action id of a cell.
    pub fn cell_to_action(&self, cell: usize) -> Action {
        self.actions[cell] as Action
    }

    /// The cell of an action id, if it is on the board.
    pub fn action_to_cell(&self, action: Action) -> Option<usize> {
        self.cells
            .get(action as usize)
            .filter(|&&c| c != NO_CELL)
            .map(|&c| c as usize)
    }

    /// Put a stone of `colour` on empty `cell`, joining its group by
    /// [`UnionFind::place`] when `undoable` (the record is returned), by
    /// [`UnionFind::link`] otherwise. Records a win (ring, bridge, fork) or,
    /// on a full board, the draw.
    #[inline(always)]
    fn put(&mut self, cell: usize, colour: u8, undoable: bool) -> Option<Placed<u16>> {
        self.hash ^= self.board.zobrist_key(cell, colour as usize);
        self.empty.remove(cell);
        self.num_empty -= 1;
        let links = &self.links;
        // The stone's neighbours of its colour, read once for the ring
        // trigger and the joins.
        let around = self.board.cyclic_neighbors(cell);
        let mine = ring_friends(around, &self.colour, colour);
        let may_ring = ring_trigger(around, mine, |c| links.find(c));
        self.colour[cell] = colour;
        let bits = self.marks[cell];
        let friends = ring_cells(around, mine);
        let (root, placed) = if undoable {
            let p = self.links.place(cell, bits, friends);
            (p.root(), Some(p))
        } else {
            (self.links.link(cell, bits, friends), None)
        };
        let p = self.links.payload(root);
        let bridge = (p & CORNERS).count_ones() >= 2;
        let fork = (p >> 6).count_ones() >= 3;
        let ring = may_ring && ring_walk(&self.board, &mut self.colour, cell, colour);
        self.win_kinds = ring as u8 | (bridge as u8) << 1 | (fork as u8) << 2;
        if self.win_kinds != 0 {
            self.winners = 1 << (colour - 1);
        } else if self.num_empty == 0 {
            self.winners = 3;
        }
        placed
    }

    /// Take back the stone on `cell` put last (see [`Havannah::put`]).
    #[inline]
    fn take(&mut self, cell: usize, placed: Placed<u16>) {
        let colour = self.colour[cell];
        self.hash ^= self.board.zobrist_key(cell, colour as usize);
        self.colour[cell] = 0;
        self.empty.insert(cell);
        self.num_empty += 1;
        self.winners = 0;
        self.win_kinds = 0;
        self.links.unplace(cell, placed);
    }

    #[inline(always)]
    fn do_place(&mut self, cell: usize, undoable: bool) -> Option<Placed<u16>> {
        let colour = self.to_move;
        let r = self.put(cell, colour, undoable);
        self.swap_available = self.swap && self.ply == 0 && colour == X && self.winners == 0;
        self.first = cell as u16;
        self.ply += 1;
        self.to_move = 3 - colour;
        r
    }

    /// o takes x's lone first stone: it changes colour, in a group of its
    /// own as before.
    fn do_swap(&mut self) {
        let cell = self.first as usize;
        self.hash ^=
            self.board.zobrist_key(cell, X as usize) ^ self.board.zobrist_key(cell, O as usize);
        self.colour[cell] = O;
        self.swap_available = false;
        self.ply += 1;
        self.to_move = X;
    }

    /// Apply a legal action, undoably or not.
    #[inline(always)]
    fn apply(&mut self, action: Action, undoable: bool) -> (usize, Option<Placed<u16>>) {
        let cell = self.cells[action as usize] as usize;
        if self.swap_available && cell == self.first as usize {
            self.do_swap();
            (cell, None)
        } else {
            (cell, self.do_place(cell, undoable))
        }
    }

    /// The hash of the side information (player to move, swap offer).
    pub(crate) fn flags_hash(&self) -> u64 {
        let mut h = zobrist::flag(Kind::ToMove as u64, self.to_move as u64);
        if self.swap_available {
            h ^= zobrist::flag(Kind::Swap as u64, 1);
        }
        h
    }
}
