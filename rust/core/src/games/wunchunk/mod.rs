//! Wunchunk (Craig Duncan, 2019), as played on Abstract Play.
//!
//! Two to four players on a hexhex board of side 5-8. A *chunk* is a
//! connected one-colour group of two or more stones. On a turn the mover
//! places 1..=A stones of any colours on distinct empty cells (A = chunks of
//! the mover's own colour at the start of the turn) or passes. The game ends
//! when the board is full or after N consecutive passes; the seats whose
//! colour has the lexicographically smallest vector
//! `[chunks, #size-1 groups, #size-2 groups, ...]` win. Variants: the open
//! start (two players: a four-stone setup, then `pass` / `swap`, after which
//! a pass for seat 1 is inserted), the balance rule `ap` (on colour 1's second
//! regular turn colour 1 must end with at most one chunk) and the pie swap.
//! The rules, with every decision, are in `seeds/wunchunk.md`.
//!
//! Actions: `cell * N + (colour - 1)` places a stone (placements of one turn
//! come in increasing cell order), then `END_TURN`, `PASS` and `SWAP`
//! (`N * cells + 0, 1, 2`). A turn ends by itself once the allotment is used
//! or no empty cell is left above the last placement; otherwise `END_TURN`
//! closes it. Every legal action can be completed to a legal move (the open
//! setup and the balance rule are checked ahead), so each move has exactly
//! one action sequence.

use std::sync::Arc;

use rand::Rng;
use smallvec::smallvec;

use crate::bitset::FixedSet;
use crate::board::Board;
use crate::game::{uniform_action, Action, Game, MoveActions, MoveError, WinnerMask};
use crate::groups::Groups;
use crate::rng::below;
use crate::zobrist;

/// The side information Wunchunk hashes besides the stones, each kind with its
/// fixed code in the key ([`zobrist::flag`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The seat to move.
    ToMove = 10,
    /// The phase (or the game being over).
    Phase = 11,
    /// Consecutive passes.
    Passes = 12,
    /// Regular turns colour 1 has completed (balance rule).
    Colour1Turns = 13,
    /// The swap is on offer.
    SwapReady = 14,
    /// The seats have swapped.
    Swapped = 15,
    /// The turn in progress (placed, last cell, allotment).
    Turn = 16,
}

mod balance;
mod count;
mod game;
mod notation;
mod observation;
mod options;
mod solver;

pub use options::{Balance, OptionError, Start};

/// The names Wunchunk adds to the crate root.
pub mod public {
    pub use super::{
        Balance as WunchunkBalance, OptionError as WunchunkOptionError, Start as WunchunkStart,
        Wunchunk, WunchunkUndo,
    };
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Phase {
    /// Open start, ply 1: two adjacent stones of each colour.
    Setup,
    /// Open start, ply 2: `pass` or `swap`.
    Choose,
    Play,
}

/// Up to 192 cells (side 8 has 169).
type Cells = FixedSet<3>;

/// The scalar part of the state (saved whole by undo records).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Status {
    /// Seats 1 and 2 have exchanged colours (open start or pie swap).
    swapped: bool,
    to_move: u8,
    phase: Phase,
    /// Consecutive passes (the pass inserted after an open-start swap counts).
    passes: u8,
    /// Regular turns colour 1 has completed (saturates at 2).
    c1_turns: u8,
    /// The pie swap is legal now.
    swap_ready: bool,
    /// No turn has ended yet (a placement now would open the pie swap).
    first_turn: bool,
    /// Complete moves played.
    plies: u32,
    /// Allotment of the turn in progress (fixed when it starts).
    allot: u16,
    /// Stones placed so far in this turn.
    placed: u16,
    /// Last cell placed in this turn (valid when `placed > 0`).
    last: u16,
    over: bool,
    winners: WinnerMask,
}

#[derive(Debug, Clone)]
pub struct Wunchunk {
    board: Arc<Board>,
    players: u8,
    start: Start,
    balance: Balance,
    groups: Groups,
    empty: Cells,
    num_empty: u16,
    st: Status,
    /// Zobrist key of the stones.
    hash: u64,
}

/// Undo record for one Wunchunk action: the action and the status before
/// it (plain values; the stone, if any, is taken back from the groups).
#[derive(Debug, Clone, Copy)]
pub struct WunchunkUndo {
    action: Action,
    st: Status,
}

impl Wunchunk {
    fn set_cells(&mut self, cells: &[u8]) {
        let board = self.board.clone();
        self.groups.rebuild(&board, cells);
        self.empty = Cells::default();
        self.num_empty = 0;
        self.hash = 0;
        for (cell, &c) in cells.iter().enumerate() {
            if c == 0 {
                self.empty.insert(cell);
                self.num_empty += 1;
            } else {
                self.hash ^= zobrist::piece(cell, c as u64);
            }
        }
    }

    // ------------------------------------------------------------ accessors

    pub fn size(&self) -> usize {
        self.board.side_lengths()[0] as usize
    }
    pub fn players(&self) -> usize {
        self.players as usize
    }
    pub fn start(&self) -> Start {
        self.start
    }
    pub fn balance(&self) -> Balance {
        self.balance
    }
    pub fn groups(&self) -> &Groups {
        &self.groups
    }
    /// The colour played by `seat` (1-based).
    #[inline]
    pub fn seat_colour(&self, seat: usize) -> usize {
        if self.st.swapped && seat <= 2 {
            3 - seat
        } else {
            seat
        }
    }
    #[inline]
    fn mover_colour(&self) -> u8 {
        self.seat_colour(self.st.to_move as usize) as u8
    }
    /// Stones the mover may place in this turn (fixed at its start).
    pub fn allotment(&self) -> usize {
        self.st.allot as usize
    }
    /// Stones placed so far in the turn in progress.
    pub fn placed_this_turn(&self) -> usize {
        self.st.placed as usize
    }
    /// Consecutive passes made.
    pub fn passes(&self) -> usize {
        self.st.passes as usize
    }
    /// True on the turn the balance rule checks.
    #[inline]
    pub fn balance_turn(&self) -> bool {
        self.balance == Balance::Ap
            && self.st.phase == Phase::Play
            && self.mover_colour() == 1
            && self.st.c1_turns == 1
    }
    pub fn in_setup(&self) -> bool {
        self.st.phase == Phase::Setup
    }
    pub fn in_choice(&self) -> bool {
        self.st.phase == Phase::Choose
    }
    pub fn swap_legal(&self) -> bool {
        !self.st.over
            && self.st.placed == 0
            && (self.st.phase == Phase::Choose || self.st.swap_ready)
    }
    /// `[chunks, #size 1, ..., #size M]` per colour (index 0 = colour 1), M the
    /// largest group on the board.
    pub fn colour_vectors(&self) -> Vec<Vec<u32>> {
        let n = self.players;
        let m = (1..=n).map(|c| self.groups.largest(c)).max().unwrap_or(0);
        (1..=n)
            .map(|c| {
                let mut v = Vec::with_capacity(m + 1);
                v.push(self.groups.chunk_count(c));
                v.extend((1..=m).map(|s| self.groups.histogram(c, s)));
                v
            })
            .collect()
    }
    /// The vector of each seat's colour, in seat order.
    pub fn scores(&self) -> Vec<Vec<u32>> {
        let v = self.colour_vectors();
        (1..=self.players as usize)
            .map(|s| v[self.seat_colour(s) - 1].clone())
            .collect()
    }

    #[inline]
    fn ncol(&self) -> usize {
        self.players as usize
    }
    #[inline]
    fn end_action(&self) -> Action {
        (self.board.num_cells() * self.ncol()) as Action
    }
    #[inline]
    fn pass_action(&self) -> Action {
        self.end_action() + 1
    }
    #[inline]
    fn swap_action(&self) -> Action {
        self.end_action() + 2
    }
    /// (cell, colour) of a placement action.
    #[inline]
    fn decode(&self, action: usize) -> (usize, u8) {
        match self.players {
            2 => (action >> 1, (action & 1) as u8 + 1),
            4 => (action >> 2, (action & 3) as u8 + 1),
            _ => (action / 3, (action % 3) as u8 + 1),
        }
    }
    #[inline]
    fn place_action(&self, cell: usize, colour: usize) -> Action {
        (cell * self.ncol() + colour - 1) as Action
    }
    /// Empty cells a placement may use now (above the last one of this turn).
    #[inline]
    fn open_cells(&self) -> Cells {
        if self.st.placed == 0 {
            self.empty
        } else {
            self.empty.from(self.st.last as usize + 1)
        }
    }

    // ------------------------------------------------------------- turn flow

    fn begin_turn(&mut self) {
        self.st.placed = 0;
        self.st.last = 0;
        self.st.allot = if self.st.phase == Phase::Setup {
            4
        } else {
            self.groups.chunk_count(self.mover_colour()) as u16
        };
    }

    fn end_turn(&mut self, passed: bool) {
        if self.st.phase == Phase::Play && self.mover_colour() == 1 && self.st.c1_turns < 2 {
            self.st.c1_turns += 1;
        }
        self.st.phase = match self.st.phase {
            Phase::Setup => Phase::Choose,
            _ => Phase::Play,
        };
        self.st.passes = if passed { self.st.passes + 1 } else { 0 };
        self.st.first_turn = false;
        self.st.to_move = self.st.to_move % self.players + 1;
        self.st.plies += 1;
        if self.st.passes >= self.players || self.num_empty == 0 {
            self.finish();
        }
        self.begin_turn();
    }

    fn end_placement_turn(&mut self) {
        let swap_next =
            self.balance == Balance::Pie && self.start == Start::Standard && self.st.first_turn;
        self.end_turn(false);
        self.st.swap_ready = swap_next;
    }

    fn do_swap(&mut self) {
        self.st.swapped = !self.st.swapped;
        if self.st.phase == Phase::Choose {
            // seat 2 takes colour 1; the pass AP inserts for seat 1 is made here
            self.st.phase = Phase::Play;
            self.st.passes = 1;
            self.st.to_move = 2;
        } else {
            self.st.passes = 0;
            self.st.to_move = 1;
        }
        self.st.swap_ready = false;
        self.st.plies += 1;
        self.begin_turn();
    }

    fn finish(&mut self) {
        self.st.over = true;
        // lexicographic minimum of the seats' vectors, entry by entry
        let n = self.players as usize;
        let m = (1..=n as u8)
            .map(|c| self.groups.largest(c))
            .max()
            .unwrap_or(0);
        let entry = |seat: usize, i: usize| -> u32 {
            let c = self.seat_colour(seat) as u8;
            if i == 0 {
                self.groups.chunk_count(c)
            } else {
                self.groups.histogram(c, i)
            }
        };
        let mut cand: u8 = (1u8 << n) - 1;
        for i in 0..=m {
            let low = (1..=n)
                .filter(|&s| cand >> (s - 1) & 1 != 0)
                .map(|s| entry(s, i))
                .min()
                .expect("a candidate");
            for s in 1..=n {
                if entry(s, i) != low {
                    cand &= !(1 << (s - 1));
                }
            }
            if cand.count_ones() == 1 {
                break;
            }
        }
        self.st.winners = cand;
    }

    #[inline]
    fn put(&mut self, cell: usize, colour: u8) {
        self.empty.remove(cell);
        self.num_empty -= 1;
        self.hash ^= zobrist::piece(cell, colour as u64);
        let board = &*self.board;
        self.groups.place(board, cell, colour);
    }

    #[inline]
    fn do_place(&mut self, cell: usize, colour: u8) {
        self.put(cell, colour);
        self.st.placed += 1;
        self.st.last = cell as u16;
        if self.st.placed >= self.st.allot || self.empty.from(cell + 1).is_empty() {
            self.end_placement_turn();
        }
    }

    #[cfg(test)]
    pub(crate) fn flags_hash(&self) -> u64 {
        self.full_hash() ^ self.hash
    }

    fn full_hash(&self) -> u64 {
        let s = &self.st;
        let mut h = self.hash ^ zobrist::flag(Kind::ToMove as u64, s.to_move as u64);
        h ^= zobrist::flag(Kind::Phase as u64, s.phase as u64);
        h ^= zobrist::flag(Kind::Passes as u64, s.passes as u64);
        h ^= zobrist::flag(Kind::Colour1Turns as u64, s.c1_turns as u64);
        if s.swap_ready {
            h ^= zobrist::flag(Kind::SwapReady as u64, 1);
        }
        if s.swapped {
            h ^= zobrist::flag(Kind::Swapped as u64, 1);
        }
        if s.over {
            h ^= zobrist::flag(Kind::Phase as u64, 99);
        }
        if s.placed > 0 {
            let turn = (s.placed as u64) << 32 | (s.last as u64) << 16 | s.allot as u64;
            h ^= zobrist::flag(Kind::Turn as u64, turn);
        }
        h
    }
}

#[cfg(test)]
mod tests;
