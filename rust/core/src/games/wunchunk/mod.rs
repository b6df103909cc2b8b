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
mod hooks;
mod notation;
mod options;

pub use options::{Balance, OptionError, Start};

/// The names Wunchunk adds to the crate root.
pub mod public {
    pub use super::{Balance as WunchunkBalance, OptionError as WunchunkOptionError, Start as WunchunkStart, Wunchunk, WunchunkUndo};
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
        self.balance == Balance::Ap && self.st.phase == Phase::Play && self.mover_colour() == 1 && self.st.c1_turns == 1
    }
    pub fn in_setup(&self) -> bool {
        self.st.phase == Phase::Setup
    }
    pub fn in_choice(&self) -> bool {
        self.st.phase == Phase::Choose
    }
    pub fn swap_legal(&self) -> bool {
        !self.st.over && self.st.placed == 0 && (self.st.phase == Phase::Choose || self.st.swap_ready)
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
        (1..=self.players as usize).map(|s| v[self.seat_colour(s) - 1].clone()).collect()
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
        self.st.allot = if self.st.phase == Phase::Setup { 4 } else { self.groups.chunk_count(self.mover_colour()) as u16 };
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
        let swap_next = self.balance == Balance::Pie && self.start == Start::Standard && self.st.first_turn;
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
        let m = (1..=n as u8).map(|c| self.groups.largest(c)).max().unwrap_or(0);
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
            let low = (1..=n).filter(|&s| cand >> (s - 1) & 1 != 0).map(|s| entry(s, i)).min().expect("a candidate");
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

impl Game for Wunchunk {
    type Undo = WunchunkUndo;
    const NAME: &'static str = "wunchunk";

    fn board(&self) -> &Board {
        &self.board
    }

    fn spec(&self) -> String {
        // 'none' is quoted: a bare `none` reads as Python's None in spec strings
        let balance = match self.balance {
            Balance::None => "'none'".to_string(),
            b => b.name().to_string(),
        };
        format!("wunchunk(size={},players={},start={},balance={balance})", self.size(), self.players, self.start.name())
    }

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn num_actions(&self) -> usize {
        self.board.num_cells() * self.ncol() + 3
    }

    fn to_move(&self) -> usize {
        self.st.to_move as usize
    }

    fn is_over(&self) -> bool {
        self.st.over
    }

    fn winner_mask(&self) -> WinnerMask {
        self.st.winners
    }

    fn zobrist(&self) -> u64 {
        self.full_hash()
    }

    fn cell_value(&self, cell: usize) -> i8 {
        self.groups.colour(cell) as i8
    }

    fn mid_turn(&self) -> bool {
        self.st.placed > 0
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.st.over {
            return;
        }
        if self.st.phase == Phase::Choose {
            out.push(self.pass_action());
            out.push(self.swap_action());
            return;
        }
        let n = self.ncol();
        if self.st.allot > self.st.placed {
            if self.st.phase == Phase::Play && self.balance_turn() {
                let limit = self.other_colour_limit();
                for x in self.open_cells().iter() {
                    for c in 1..=n {
                        if if c == 1 { self.colour1_completable(x) } else { x < limit } {
                            out.push(self.place_action(x, c));
                        }
                    }
                }
            } else {
                let plain = self.st.phase == Phase::Play;
                for x in self.open_cells().iter() {
                    for c in 1..=n {
                        if plain || self.placement_ok(x, c as u8) {
                            out.push(self.place_action(x, c));
                        }
                    }
                }
            }
        }
        if self.end_ok() {
            out.push(self.end_action());
        }
        if self.st.placed == 0 {
            out.push(self.pass_action());
            if self.swap_legal() {
                out.push(self.swap_action());
            }
        }
    }

    fn is_legal_action(&self, action: Action) -> bool {
        if self.st.over || action as usize >= self.num_actions() {
            return false;
        }
        let end = self.end_action();
        if action == end {
            return self.end_ok();
        }
        if action == end + 1 {
            return self.st.placed == 0;
        }
        if action == end + 2 {
            return self.swap_legal();
        }
        if self.st.phase == Phase::Choose || self.st.placed >= self.st.allot {
            return false;
        }
        let cell = action as usize / self.ncol();
        let colour = (action as usize % self.ncol() + 1) as u8;
        if !self.open_cells().contains(cell) {
            return false;
        }
        self.placement_ok(cell, colour)
    }

    fn apply_action(&mut self, action: Action) {
        let end = self.end_action();
        if action == end {
            self.end_placement_turn();
        } else if action == end + 1 {
            self.end_turn(true);
            self.st.swap_ready = false;
        } else if action == end + 2 {
            self.do_swap();
        } else {
            let (cell, colour) = self.decode(action as usize);
            self.do_place(cell, colour);
        }
    }

    fn apply_action_undoable(&mut self, action: Action) -> WunchunkUndo {
        let undo = WunchunkUndo { action, st: self.st };
        self.apply_action(action);
        undo
    }

    /// Undoes in place: an action changes the status and at most one stone,
    /// which `Groups::unplace` takes back (undos come in reverse order).
    fn undo_action(&mut self, undo: WunchunkUndo) {
        if undo.action < self.end_action() {
            let (cell, colour) = self.decode(undo.action as usize);
            self.groups.unplace(cell);
            self.empty.insert(cell);
            self.num_empty += 1;
            self.hash ^= zobrist::piece(cell, colour as u64);
        }
        self.st = undo.st;
    }

    fn cheap_undo(&self) -> bool {
        true
    }

    fn action_to_string(&self, action: Action) -> String {
        let end = self.end_action();
        if action == end {
            "end".to_string()
        } else if action == end + 1 {
            "pass".to_string()
        } else if action == end + 2 {
            "swap".to_string()
        } else if action > end + 2 {
            format!("action{action}")
        } else {
            let n = self.ncol();
            format!("{}{}", action as usize % n + 1, self.board.label(action as usize / n))
        }
    }

    fn random_action<R: Rng>(&self, rng: &mut R, buf: &mut Vec<Action>) -> Option<Action> {
        if self.st.over {
            return None;
        }
        if self.st.phase == Phase::Play && !self.balance_turn() {
            // placements on open cells x colours, then END (mid-turn) or PASS (+ SWAP)
            let n = self.ncol();
            let open = if self.st.allot > self.st.placed { self.open_cells() } else { Cells::default() };
            let places = open.len() * n;
            let extra = if self.st.placed > 0 { 1 } else { 1 + self.swap_legal() as usize };
            let i = below(rng, places + extra);
            if i < places {
                let (k, c) = self.decode(i);
                return Some(self.place_action(open.select(k), c as usize));
            }
            let e = self.end_action();
            return Some(if self.st.placed > 0 {
                e
            } else if i == places {
                e + 1
            } else {
                e + 2
            });
        }
        if self.st.phase == Phase::Play {
            // balance turn: rejection sampling over the same candidates
            // (uniform over the legal ones), then the full list if unlucky
            let n = self.ncol();
            let open = if self.st.allot > self.st.placed { self.open_cells() } else { Cells::default() };
            let places = open.len() * n;
            let extra = if self.st.placed > 0 { 1 } else { 1 + self.swap_legal() as usize };
            let e = self.end_action();
            for _ in 0..32 {
                let i = below(rng, places + extra);
                let a = if i < places {
                    let (x, c) = (open.select(i / n), i % n + 1);
                    if !self.balance_completable(x, c as u8) {
                        continue;
                    }
                    self.place_action(x, c)
                } else if self.st.placed > 0 {
                    if !self.end_ok() {
                        continue;
                    }
                    e
                } else if i == places {
                    e + 1
                } else {
                    e + 2
                };
                return Some(a);
            }
        }
        uniform_action(self, rng, buf)
    }

    fn legal_moves(&self, limit: u128, out: &mut Vec<MoveActions>) -> Result<(), u128> {
        if self.st.over {
            return Ok(());
        }
        let count = self.count_moves();
        if count > limit {
            return Err(count);
        }
        debug_assert_eq!(self.st.placed, 0, "legal_moves between turns");
        out.reserve(count.min(1 << 20) as usize);
        if self.st.phase != Phase::Choose && self.st.allot > 0 {
            let mut cur = MoveActions::new();
            if self.st.phase == Phase::Play && !self.balance_turn() {
                self.enumerate_plain(0, 0, &mut cur, out);
            } else {
                self.enumerate_checked(&mut cur, out);
            }
        }
        out.push(smallvec![self.pass_action()]);
        if self.swap_legal() {
            out.push(smallvec![self.swap_action()]);
        }
        Ok(())
    }

    fn count_moves(&self) -> u128 {
        if let Some(c) = self.count_single_stone_balance() {
            return c;
        }
        self.count_saturating()
    }

    fn count_turn_completions(&self) -> Option<u128> {
        if self.st.over && self.st.placed == 0 {
            return Some(0);
        }
        Some(self.count_completions())
    }

    fn count_moves_big(&self) -> num_bigint::BigUint {
        self.count_big()
    }

    fn parse_move(&self, text: &str) -> Result<MoveActions, MoveError> {
        if self.st.over {
            return Err(MoveError::new(crate::game::Reason::GameOver, format!("the game is over; {text:?} cannot be played")));
        }
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_lowercase();
        if t.is_empty() {
            return Err(MoveError::new(crate::game::Reason::Syntax, "empty move"));
        }
        if t == "pass" {
            return Ok(smallvec![self.pass_action()]);
        }
        if t == "swap" {
            if self.swap_legal() {
                return Ok(smallvec![self.swap_action()]);
            }
            let why = match (self.balance, self.start) {
                (_, Start::Open) => "in the open start only the second player's first move may be swap",
                (Balance::Pie, _) => "swap is only allowed right after the first move placed a stone",
                _ => "this game has no swap (use balance='pie' or start='open')",
            };
            return Err(MoveError::new(crate::game::Reason::SwapNotAllowed, format!("swap is not allowed here: {why}")));
        }
        if self.st.phase == Phase::Choose {
            return Err(MoveError::new(
                crate::game::Reason::OpenChoice,
                format!("{text:?}: in the open start the second player must answer 'pass' or 'swap'"),
            ));
        }
        let mut placed = self.parse_placements(&t, text)?;
        if self.st.phase == Phase::Setup {
            self.check_setup(&placed, text)?;
        }
        placed.sort_unstable();
        if self.balance_turn() {
            let mut g = self.clone();
            for &(cell, colour) in &placed {
                g.put(cell, colour);
            }
            if g.groups.chunk_count(1) > 1 {
                return Err(MoveError::new(
                    crate::game::Reason::Balance,
                    format!("{text:?}: on colour 1's second turn colour 1 must end with at most one chunk (balance rule)"),
                ));
            }
        }
        let mut acts: MoveActions = placed.iter().map(|&(c, col)| self.place_action(c, col as usize)).collect();
        let last = placed.last().expect("placements").0;
        let more_room = (last + 1..self.board.num_cells()).any(|c| self.empty.contains(c) && !placed.iter().any(|p| p.0 == c));
        if placed.len() < self.st.allot as usize && more_room {
            acts.push(self.end_action());
        }
        Ok(acts)
    }

    fn format_move(&self, actions: &[Action]) -> String {
        let end = self.end_action();
        let parts: Vec<String> = actions.iter().filter(|&&a| a != end).map(|&a| self.action_to_string(a)).collect();
        if parts.is_empty() && actions.contains(&end) {
            return "end".into();
        }
        parts.join(",")
    }

    fn observation_shape(&self) -> [usize; 3] {
        let (h, w) = self.board.grid_shape();
        [self.ncol() + 2, h, w]
    }

    /// Planes: one per colour, starting with the mover's colour and going on
    /// in colour order; the cells of the board; a constant plane holding the
    /// stones the mover may still place this turn, divided by the number of
    /// cells (so every value lies in [0, 1]).
    fn observation(&self, out: &mut [f32]) {
        let (h, w) = self.board.grid_shape();
        let plane = h * w;
        let n = self.ncol();
        out.iter_mut().for_each(|x| *x = 0.0);
        let me = self.mover_colour() as usize;
        let left = (self.st.allot - self.st.placed.min(self.st.allot)) as f32 / self.board.num_cells() as f32;
        for p in 0..plane {
            out[(n + 1) * plane + p] = left;
        }
        for cell in 0..self.board.num_cells() {
            let (r, c) = self.board.grid_pos(cell);
            let i = r * w + c;
            let v = self.groups.colour(cell) as usize;
            if v != 0 {
                let k = (v + n - me) % n;
                out[k * plane + i] = 1.0;
            }
            out[n * plane + i] = 1.0;
        }
    }

    fn diagram(&self) -> String {
        self.board.diagram(|c| match self.groups.colour(c) {
            0 => '.',
            k => (b'0' + k) as char,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::options::shared_board;
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn game(size: usize, players: usize, start: Start, balance: Balance) -> Wunchunk {
        Wunchunk::new(size, players, start, balance).unwrap()
    }

    fn play(g: &mut Wunchunk, m: &str) {
        let acts = g.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        g.play_move(&acts);
    }

    fn reason(g: &Wunchunk, m: &str) -> &'static str {
        g.parse_move(m).err().map(|e| e.reason.code()).unwrap_or("ok")
    }

    #[test]
    fn options_are_checked() {
        assert_eq!(Wunchunk::new(6, 5, Start::Standard, Balance::Ap).unwrap_err().argument, "players");
        assert_eq!(Wunchunk::new(6, 3, Start::Standard, Balance::Ap).unwrap_err().argument, "size");
        assert_eq!(Wunchunk::new(9, 2, Start::Standard, Balance::Ap).unwrap_err().argument, "size");
        assert_eq!(Wunchunk::new(8, 3, Start::Open, Balance::Ap).unwrap_err().argument, "start");
        assert_eq!(Wunchunk::new(8, 4, Start::Standard, Balance::Pie).unwrap_err().argument, "balance");
        for (p, sizes) in [(2, vec![5, 6, 7, 8]), (3, vec![7, 8]), (4, vec![7, 8])] {
            for s in sizes {
                let g = game(s, p, Start::Standard, Balance::Ap);
                assert!(g.colour_vectors().iter().all(|v| v[0] == 1));
                assert_eq!(g.allotment(), 1);
            }
        }
    }

    #[test]
    fn card_balance_examples() {
        let mut g = game(6, 2, Start::Standard, Balance::Ap);
        play(&mut g, "1g8");
        play(&mut g, "1g9");
        assert!(g.balance_turn());
        assert_eq!(reason(&g, "1g7"), "ok");
        assert_eq!(reason(&g, "1a1"), "balance");
        assert_eq!(reason(&g, "2g7"), "balance");
        assert_eq!(reason(&g, "pass"), "ok");
        let mut h = game(6, 2, Start::Standard, Balance::Ap);
        play(&mut h, "1a4");
        play(&mut h, "2k4");
        assert_eq!(reason(&h, "1b4"), "balance");
    }

    #[test]
    fn open_start_and_swap() {
        let mut g = game(5, 2, Start::Open, Balance::Ap);
        assert_eq!(g.allotment(), 4);
        assert_eq!(reason(&g, "1a1,1a2,2e1"), "open_setup");
        assert_eq!(reason(&g, "1a1,1b1,2e1,2e3"), "open_setup");
        assert_eq!(reason(&g, "swap"), "swap_not_allowed");
        play(&mut g, "2e2,1a1,1a2,2e1");
        assert_eq!(g.count_moves(), 2);
        assert_eq!(reason(&g, "2c1"), "open_choice");
        let mut kept = g.clone();
        play(&mut kept, "pass");
        play(&mut kept, "pass");
        assert!(kept.is_over());
        play(&mut g, "swap");
        assert_eq!((g.to_move(), g.seat_colour(1), g.seat_colour(2)), (2, 2, 1));
        let mut over = g.clone();
        play(&mut over, "pass");
        assert!(over.is_over());
    }

    #[test]
    fn reasons_follow_ap_order() {
        let mut cells = vec![0u8; 91];
        let b = shared_board(6);
        for (l, c) in [("a1", 1), ("a2", 1), ("c1", 1), ("c2", 1), ("k1", 2), ("k2", 2)] {
            cells[b.index(l).unwrap()] = c;
        }
        let g = Wunchunk::from_cells(6, 2, Start::Standard, Balance::Ap, &cells, 1).unwrap();
        assert_eq!(g.allotment(), 2);
        for (m, r) in [
            ("", "syntax"),
            (",", "syntax"),
            ("1", "syntax"),
            ("1e1,1e2,1e3", "too_many_stones"),
            ("3e1", "bad_colour"),
            ("xe1", "syntax"),
            ("0e1", "bad_colour"),
            ("1z9", "unknown_cell"),
            ("1a1", "occupied"),
            ("1e1,2e1", "duplicate_cell"),
            (" 2E2 , 1e1 ", "ok"),
        ] {
            assert_eq!(reason(&g, m), r, "{m}");
        }
        assert_eq!(g.format_move(&g.parse_move("2e2,1e1").unwrap()), "1e1,2e2");
    }

    /// Every turn: count == number of enumerated moves, actions agree with
    /// moves, undo restores everything.
    #[test]
    fn random_games_are_consistent() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut buf = Vec::new();
        let variants = [
            (5, 2, Start::Standard, Balance::Ap),
            (5, 2, Start::Open, Balance::Ap),
            (5, 2, Start::Standard, Balance::Pie),
            (7, 3, Start::Standard, Balance::Ap),
            (7, 4, Start::Standard, Balance::None),
        ];
        for i in 0..40 {
            let (s, p, st, bal) = variants[i % variants.len()];
            let mut g = game(s, p, st, bal);
            let mut undo = Vec::new();
            let mut snaps = Vec::new();
            while !g.is_over() {
                if !g.mid_turn() {
                    let c = g.count_moves();
                    if c < 40_000 {
                        let mut moves = Vec::new();
                        g.legal_moves(u128::MAX, &mut moves).unwrap();
                        assert_eq!(moves.len() as u128, c);
                        let mut acts = Vec::new();
                        g.legal_actions(&mut acts);
                        let firsts: std::collections::BTreeSet<Action> = moves.iter().map(|m| m[0]).collect();
                        assert_eq!(firsts.into_iter().collect::<Vec<_>>(), acts);
                    }
                }
                let a = g.random_action(&mut rng, &mut buf).unwrap();
                assert!(g.is_legal_action(a), "{}", g.action_to_string(a));
                snaps.push((g.full_hash(), g.groups.colours().to_vec(), g.st));
                undo.push(g.apply_action_undoable(a));
            }
            while let Some(u) = undo.pop() {
                g.undo_action(u);
                let s = snaps.pop().unwrap();
                assert_eq!((g.full_hash(), g.groups.colours().to_vec(), g.st), s);
            }
        }
    }

    /// What an undo must restore, with the counts derived from it.
    #[derive(Debug, PartialEq)]
    struct Snapshot {
        groups: Groups,
        empty: Cells,
        num_empty: u16,
        st: Status,
        zobrist: u64,
        actions: Vec<Action>,
        completions: Option<u128>,
    }

    fn snapshot(g: &Wunchunk) -> Snapshot {
        let mut actions = Vec::new();
        g.legal_actions(&mut actions);
        let completions = g.count_turn_completions().filter(|&c| c < u128::MAX);
        Snapshot { groups: g.groups.clone(), empty: g.empty, num_empty: g.num_empty, st: g.st, zobrist: g.zobrist(), actions, completions }
    }

    /// The state agrees with one recomputed from its cells.
    fn check_fresh(g: &Wunchunk) {
        let mut fresh = g.clone();
        let cells = g.groups.colours().to_vec();
        fresh.set_cells(&cells);
        assert_eq!((fresh.hash, fresh.empty, fresh.num_empty), (g.hash, g.empty, g.num_empty));
        assert_eq!(fresh.zobrist(), g.zobrist());
        assert_eq!(fresh.colour_vectors(), g.colour_vectors());
        for c in 1..=g.players {
            assert_eq!(fresh.groups.group_count(c), g.groups.group_count(c));
            assert_eq!(fresh.groups.stone_count(c), g.groups.stone_count(c));
        }
        for cell in 0..g.board.num_cells() {
            let mut a: Vec<usize> = g.groups.members(cell).collect();
            let mut b: Vec<usize> = fresh.groups.members(cell).collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b);
        }
        if !g.mid_turn() {
            assert_eq!(fresh.count_moves(), g.count_moves());
        }
    }

    /// Random walks that apply and undo random actions (2-4 players, every
    /// start and balance variant): each undo restores the state exactly.
    #[test]
    fn undo_restores_exactly() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
        let mut buf = Vec::new();
        let variants = [
            (5, 2, Start::Standard, Balance::Ap),
            (6, 2, Start::Standard, Balance::Pie),
            (5, 2, Start::Standard, Balance::None),
            (5, 2, Start::Open, Balance::Ap),
            (6, 2, Start::Open, Balance::Pie),
            (5, 2, Start::Open, Balance::None),
            (7, 3, Start::Standard, Balance::Ap),
            (7, 3, Start::Standard, Balance::None),
            (7, 4, Start::Standard, Balance::Ap),
            (8, 4, Start::Standard, Balance::None),
        ];
        let mut undone = 0;
        let mut merges_undone = 0;
        for i in 0..60 {
            let (s, p, st, bal) = variants[i % variants.len()];
            let mut g = game(s, p, st, bal);
            let mut stack: Vec<(WunchunkUndo, Snapshot)> = Vec::new();
            for _ in 0..400 {
                let back = !stack.is_empty() && (g.is_over() || rng.random_bool(0.35));
                if back {
                    let (u, snap) = stack.pop().unwrap();
                    let merged = u.action < g.end_action() && g.groups.group_size(u.action as usize / g.ncol()) > 1;
                    g.undo_action(u);
                    assert_eq!(snapshot(&g), snap, "{}", g.diagram());
                    check_fresh(&g);
                    undone += 1;
                    merges_undone += merged as usize;
                } else if let Some(a) = g.random_action(&mut rng, &mut buf) {
                    let snap = snapshot(&g);
                    stack.push((g.apply_action_undoable(a), snap));
                    check_fresh(&g);
                }
            }
            while let Some((u, snap)) = stack.pop() {
                g.undo_action(u);
                assert_eq!(snapshot(&g), snap);
            }
            check_fresh(&g);
        }
        assert!(undone > 5000 && merges_undone > 1000, "{undone} {merges_undone}");
    }

    /// Action sequences that finish the current turn, by walking them.
    fn walk_completions(g: &Wunchunk) -> u128 {
        let mut acts = Vec::new();
        g.legal_actions(&mut acts);
        acts.iter()
            .map(|&a| {
                let mut c = g.clone();
                c.apply_action(a);
                if c.mid_turn() {
                    walk_completions(&c)
                } else {
                    1
                }
            })
            .sum()
    }

    #[test]
    fn turn_completions_match_walk() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut buf = Vec::new();
        let variants = [(5, 2, Start::Standard, Balance::Ap), (5, 2, Start::Open, Balance::Ap), (7, 3, Start::Standard, Balance::Ap)];
        let mut checked = 0;
        for i in 0..60 {
            let (s, p, st, bal) = variants[i % variants.len()];
            let mut g = game(s, p, st, bal);
            while !g.is_over() {
                if g.mid_turn() || g.balance_turn() || g.in_setup() {
                    let c = g.count_turn_completions().unwrap();
                    if c < 20_000 {
                        assert_eq!(c, walk_completions(&g), "{}", g.diagram());
                        checked += 1;
                    }
                }
                let a = g.random_action(&mut rng, &mut buf).unwrap();
                g.apply_action(a);
            }
        }
        assert!(checked > 100);
    }

    /// Balance turns with several colour-1 chunks close together: exact
    /// count == enumerated moves, first actions == legal actions, and every
    /// turn in progress counts its completions right.
    #[test]
    fn crowded_balance_turns() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
        let mut buf = Vec::new();
        let mut allots = std::collections::BTreeSet::new();
        for i in 0..150 {
            let (size, players) = [(5, 2), (7, 3), (7, 4)][i % 3];
            let board = shared_board(size);
            let n = board.num_cells();
            let mut cells = vec![0u8; n];
            // colour-1 pairs and crumbs around one spot, a few other stones
            let centre = rng.random_range(0..n);
            let mut near: Vec<usize> = vec![centre];
            for _ in 0..3 {
                let more: Vec<usize> = near.iter().flat_map(|&v| board.neighbors(v).iter().map(|&w| w as usize)).collect();
                near.extend(more);
                near.sort_unstable();
                near.dedup();
            }
            for &v in &near {
                let r: f64 = rng.random();
                if r < 0.35 {
                    cells[v] = 1;
                } else if r < 0.45 {
                    cells[v] = rng.random_range(2..=players as u8);
                }
            }
            let g = Wunchunk::from_cells_with_turns(size, players, Start::Standard, Balance::Ap, &cells, 1, 1, 0).unwrap();
            if g.is_over() || !g.balance_turn() {
                continue;
            }
            allots.insert(g.allotment());
            let c = g.count_moves();
            if c > 300_000 {
                continue;
            }
            let mut moves = Vec::new();
            g.legal_moves(u128::MAX, &mut moves).unwrap();
            // legal_moves walks the actions here (balance turn), so this
            // compares the look-ahead with the counting
            assert_eq!(moves.len() as u128, c, "{}", g.diagram());
            for m in moves.iter().take(50) {
                let text = g.format_move(m);
                assert_eq!(&g.parse_move(&text).unwrap(), m, "{text}");
            }
            let mut acts = Vec::new();
            g.legal_actions(&mut acts);
            let firsts: std::collections::BTreeSet<Action> = moves.iter().map(|m| m[0]).collect();
            assert_eq!(firsts.into_iter().collect::<Vec<_>>(), acts);
            let mut h = g.clone();
            while h.mid_turn() || !h.is_over() && h.st.plies == 0 {
                let comp = h.count_turn_completions().unwrap();
                if comp < 50_000 {
                    assert_eq!(comp, walk_completions(&h));
                }
                let a = h.random_action(&mut rng, &mut buf).unwrap();
                h.apply_action(a);
            }
        }
        assert!(allots.iter().any(|&a| a >= 3), "{allots:?}");
    }

    /// The one-stone balance count agrees with the general count (random
    /// boards with colour-1 crumbs around one chunk, and random games).
    #[test]
    fn single_stone_balance_count() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
        let mut buf = Vec::new();
        let mut fast = 0;
        for i in 0..300 {
            let (size, players) = [(5, 2), (6, 2), (7, 3), (7, 4)][i % 4];
            let board = shared_board(size);
            let n = board.num_cells();
            let density = [0.1, 0.3, 0.6][i % 3];
            let cells: Vec<u8> = (0..n).map(|_| if rng.random_bool(density) { rng.random_range(1..=players as u8) } else { 0 }).collect();
            let g = Wunchunk::from_cells_with_turns(size, players, Start::Standard, Balance::Ap, &cells, 1, 1, 0).unwrap();
            if let Some(c) = g.count_single_stone_balance() {
                assert_eq!(c, u128::try_from(g.count_big()).unwrap(), "{}", g.diagram());
                fast += 1;
            }
        }
        for i in 0..200 {
            let (s, p) = [(5, 2), (7, 3)][i % 2];
            let mut g = game(s, p, Start::Standard, Balance::Ap);
            for _ in 0..3 {
                let a = g.random_action(&mut rng, &mut buf).unwrap();
                g.apply_action(a);
            }
            if let Some(c) = g.count_single_stone_balance() {
                assert_eq!(c, u128::try_from(g.count_big()).unwrap(), "{}", g.diagram());
                fast += 1;
            }
        }
        assert!(fast > 100, "{fast}");
    }

    #[test]
    fn big_counts() {
        let mut cells = vec![0u8; 169];
        // many colour-2 chunks: pairs on every third row
        let b = shared_board(8);
        let mut k = 0;
        for cell in 0..169 {
            let (q, r) = b.axial(cell);
            if r.rem_euclid(2) == 0 && q.rem_euclid(3) != 2 {
                cells[cell] = 2;
                k += 1;
            }
        }
        assert!(k > 30);
        let g = Wunchunk::from_cells(8, 4, Start::Standard, Balance::Ap, &cells, 2).unwrap();
        assert!(g.allotment() > 20);
        let d = g.count_moves_decimal();
        assert!(d.len() > 39, "{d}");
        assert_eq!(g.count_moves(), u128::MAX);
        // check the bignum against a direct sum in f64
        let e = g.num_empty as f64;
        let mut term = 1.0f64;
        let mut total = 1.0f64;
        for kk in 1..=g.allotment().min(g.num_empty as usize) {
            term *= (e - kk as f64 + 1.0) * 4.0 / kk as f64;
            total += term;
        }
        let got: f64 = d.parse().unwrap();
        assert!((got / total - 1.0).abs() < 1e-9);
    }
}
