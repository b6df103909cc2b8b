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

use std::sync::{Arc, OnceLock};

use rand::Rng;
use smallvec::{smallvec, SmallVec};

use crate::bitset::FixedSet;
use crate::board::Board;
use crate::game::{uniform_action, Action, Game, MoveActions, MoveError, WinnerMask};
use crate::groups::Groups;
use crate::playout::below;
use crate::zobrist;

/// How the game starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Start {
    /// Abstract Play's layouts, one chunk per colour.
    Standard,
    /// Two players: empty board, four-stone setup, then pass or swap.
    Open,
}

/// The first-player balance rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Balance {
    /// Colour 1's second regular turn must leave colour 1 with <= 1 chunk.
    Ap,
    /// Two players: after a first-move placement the second player may swap.
    Pie,
    None,
}

impl Start {
    pub fn name(self) -> &'static str {
        match self {
            Start::Standard => "standard",
            Start::Open => "open",
        }
    }
    pub fn parse(s: &str) -> Option<Start> {
        match s {
            "standard" => Some(Start::Standard),
            "open" => Some(Start::Open),
            _ => None,
        }
    }
}

impl Balance {
    pub fn name(self) -> &'static str {
        match self {
            Balance::Ap => "ap",
            Balance::Pie => "pie",
            Balance::None => "none",
        }
    }
    pub fn parse(s: &str) -> Option<Balance> {
        match s {
            "ap" => Some(Balance::Ap),
            "pie" => Some(Balance::Pie),
            "none" => Some(Balance::None),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Phase {
    /// Open start, ply 1: two adjacent stones of each colour.
    Setup,
    /// Open start, ply 2: `pass` or `swap`.
    Choose,
    Play,
}

/// Abstract Play's start layouts; 3 and 4 players on side 7 reuse the side-8 labels.
fn start_layout(players: usize, size: usize) -> &'static [(&'static str, u8)] {
    match (players, size) {
        (2, 5) => &[("f4", 1), ("f5", 1), ("d4", 2), ("d5", 2)],
        (2, 6) => &[("g5", 1), ("g6", 1), ("e5", 2), ("e6", 2)],
        (2, 7) => &[("h6", 1), ("h7", 1), ("f6", 2), ("f7", 2)],
        (2, 8) => &[("i7", 1), ("i8", 1), ("g7", 2), ("g8", 2)],
        (3, _) => &[("i7", 1), ("h7", 1), ("g7", 2), ("g8", 2), ("h9", 3), ("i8", 3)],
        _ => &[("j8", 1), ("i9", 1), ("j6", 2), ("i6", 2), ("g6", 3), ("f6", 3), ("g9", 4), ("f8", 4)],
    }
}

fn shared_board(size: usize) -> Arc<Board> {
    static BOARDS: [OnceLock<Arc<Board>>; 4] = [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    BOARDS[size - 5].get_or_init(|| Arc::new(Board::hexhex(size).expect("sizes 5-8 are valid"))).clone()
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

/// Undo record for one Wunchunk action.
#[derive(Debug, Clone)]
pub struct WunchunkUndo {
    action: Action,
    st: Status,
}

const KIND_TO_MOVE: u64 = 10;
const KIND_PHASE: u64 = 11;
const KIND_PASSES: u64 = 12;
const KIND_C1: u64 = 13;
const KIND_SWAP_READY: u64 = 14;
const KIND_SWAPPED: u64 = 15;
const KIND_TURN: u64 = 16;

/// Why the options are invalid: (argument, message).
pub type OptionError = (&'static str, String);

impl Wunchunk {
    /// A new game; errors name the offending argument.
    pub fn new(size: usize, players: usize, start: Start, balance: Balance) -> Result<Wunchunk, OptionError> {
        if !(2..=4).contains(&players) {
            return Err(("players", format!("players must be 2, 3 or 4, got {players}")));
        }
        let sizes: &[usize] = if players == 2 { &[5, 6, 7, 8] } else { &[7, 8] };
        if !sizes.contains(&size) {
            return Err(("size", format!("size must be one of {sizes:?} for {players} players, got {size}")));
        }
        if start == Start::Open && players != 2 {
            return Err(("start", "start='open' needs exactly 2 players".into()));
        }
        if balance == Balance::Pie && players != 2 {
            return Err(("balance", "balance='pie' needs exactly 2 players".into()));
        }
        let board = shared_board(size);
        let n = board.num_cells();
        let mut g = Wunchunk {
            groups: Groups::new(n, players),
            empty: Cells::default(),
            num_empty: n as u16,
            st: Status {
                swapped: false,
                to_move: 1,
                phase: if start == Start::Open { Phase::Setup } else { Phase::Play },
                passes: 0,
                c1_turns: 0,
                swap_ready: false,
                first_turn: true,
                plies: 0,
                allot: 0,
                placed: 0,
                last: 0,
                over: false,
                winners: 0,
            },
            hash: 0,
            players: players as u8,
            start,
            balance,
            board,
        };
        let mut cells = vec![0u8; n];
        if start == Start::Standard {
            for &(label, colour) in start_layout(players, size) {
                cells[g.board.index(label).expect("layout labels exist")] = colour;
            }
        }
        g.set_cells(&cells);
        g.begin_turn();
        Ok(g)
    }

    /// A test position: the given cell colours, regular play, seats owning
    /// their own colours, the balance rule behind (colour 1 has had two
    /// turns), no pass made, no swap on offer. A full board is a finished game.
    pub fn from_cells(size: usize, players: usize, start: Start, balance: Balance, cells: &[u8], to_move: usize) -> Result<Wunchunk, OptionError> {
        Wunchunk::from_cells_with_turns(size, players, start, balance, cells, to_move, 2, 0)
    }

    /// `from_cells`, with the number of regular turns colour 1 has completed
    /// (1: the next colour-1 turn is the balance turn) and the number of
    /// consecutive passes just made (below the number of players).
    #[allow(clippy::too_many_arguments)]
    pub fn from_cells_with_turns(size: usize, players: usize, start: Start, balance: Balance, cells: &[u8], to_move: usize,
                                 colour1_turns: u8, passes: u8) -> Result<Wunchunk, OptionError> {
        let mut g = Wunchunk::new(size, players, start, balance)?;
        let n = g.board.num_cells();
        if cells.len() != n {
            return Err(("cells", format!("expected {n} cells, got {}", cells.len())));
        }
        if let Some(c) = cells.iter().find(|&&c| c as usize > players) {
            return Err(("cells", format!("cell value {c} is not a colour 0..={players}")));
        }
        if !(1..=players).contains(&to_move) {
            return Err(("to_move", format!("to_move must be in 1..={players}, got {to_move}")));
        }
        g.set_cells(cells);
        g.st.phase = Phase::Play;
        if passes as usize >= players {
            return Err(("passes", format!("passes must be in 0..{}, got {passes}", players - 1)));
        }
        g.st.c1_turns = colour1_turns.min(2);
        g.st.passes = passes;
        g.st.first_turn = false;
        g.st.to_move = to_move as u8;
        g.begin_turn();
        if g.num_empty == 0 {
            g.finish();
        }
        Ok(g)
    }

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
        let n = self.players as u8;
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
        if self.st.placed >= self.st.allot || self.empty.from(cell + 1).len() == 0 {
            self.end_placement_turn();
        }
    }

    fn full_hash(&self) -> u64 {
        let s = &self.st;
        let mut h = self.hash ^ zobrist::flag(KIND_TO_MOVE, s.to_move as u64);
        h ^= zobrist::flag(KIND_PHASE, s.phase as u64);
        h ^= zobrist::flag(KIND_PASSES, s.passes as u64);
        h ^= zobrist::flag(KIND_C1, s.c1_turns as u64);
        if s.swap_ready {
            h ^= zobrist::flag(KIND_SWAP_READY, 1);
        }
        if s.swapped {
            h ^= zobrist::flag(KIND_SWAPPED, 1);
        }
        if s.over {
            h ^= zobrist::flag(KIND_PHASE, 99);
        }
        if s.placed > 0 {
            let turn = (s.placed as u64) << 32 | (s.last as u64) << 16 | s.allot as u64;
            h ^= zobrist::flag(KIND_TURN, turn);
        }
        h
    }

    // ------------------------------------------------- look-ahead legality

    /// Open setup: after colour `colour` at `x` (x above every stone of this
    /// turn), can the setup still be completed with cells above `x`?
    fn setup_completable(&self, x: usize, colour: u8) -> bool {
        let board = &*self.board;
        let mut mine: [SmallVec<[usize; 3]>; 2] = [SmallVec::new(), SmallVec::new()];
        for c in 0..=x {
            let col = if c == x { colour } else { self.groups.colour(c) };
            if col == 1 || col == 2 {
                mine[col as usize - 1].push(c);
            }
        }
        for m in &mine {
            if m.len() > 2 || (m.len() == 2 && !board.neighbors(m[0]).contains(&(m[1] as u16))) {
                return false;
            }
        }
        let free = |c: usize| c > x && self.empty.contains(c);
        let open_nbs = |s: usize| -> SmallVec<[usize; 6]> { board.neighbors(s).iter().map(|&w| w as usize).filter(|&w| free(w)).collect() };
        let edge_avoiding = |avoid: usize| -> bool {
            (x + 1..board.num_cells()).any(|u| free(u) && u != avoid && board.neighbors(u).iter().any(|&w| (w as usize) > u && free(w as usize) && w as usize != avoid))
        };
        match (mine[0].len(), mine[1].len()) {
            (2, 2) => true,
            (2, 1) => !open_nbs(mine[1][0]).is_empty(),
            (1, 2) => !open_nbs(mine[0][0]).is_empty(),
            (2, 0) | (0, 2) => edge_avoiding(usize::MAX),
            (1, 1) => {
                let a = open_nbs(mine[0][0]);
                let b = open_nbs(mine[1][0]);
                !a.is_empty() && !b.is_empty() && !(a.len() == 1 && b.len() == 1 && a[0] == b[0])
            }
            (1, 0) => open_nbs(mine[0][0]).iter().any(|&w| edge_avoiding(w)),
            (0, 1) => open_nbs(mine[1][0]).iter().any(|&w| edge_avoiding(w)),
            _ => false,
        }
    }

    /// Colour 1's chunk count after a colour-1 stone at empty `x`.
    fn chunks_after_colour1(&self, x: usize) -> usize {
        let mut roots: SmallVec<[usize; 6]> = SmallVec::new();
        let mut formed = 1;
        let mut touched_chunks = 0;
        for &w in self.board.neighbors(x) {
            let w = w as usize;
            if self.groups.colour(w) == 1 {
                let r = self.groups.root(w).expect("stone");
                if !roots.contains(&r) {
                    roots.push(r);
                    let s = self.groups.group_size(r);
                    formed += s;
                    touched_chunks += (s >= 2) as usize;
                }
            }
        }
        self.groups.chunk_count(1) as usize - touched_chunks + (formed >= 2) as usize
    }

    /// Can at most `r` more colour-1 stones on empty cells above `thr` leave
    /// colour 1 with at most one chunk?
    fn joinable(&self, r: usize, thr: usize) -> bool {
        let chunks = self.groups.chunk_count(1) as usize;
        if chunks <= 1 {
            return true;
        }
        if r == 0 {
            return false;
        }
        if r == 1 {
            return self.last_joiner().is_some_and(|y| y > thr);
        }
        let n = self.board.num_cells();
        let ones: Vec<bool> = (0..n).map(|c| self.groups.colour(c) == 1).collect();
        let usable: Vec<bool> = (0..n).map(|c| c > thr && self.empty.contains(c)).collect();
        ChunkJoiner::new(&self.board, &ones, &usable).can_join(r)
    }

    /// The highest empty cell touching every colour-1 chunk, if any.
    fn last_joiner(&self) -> Option<usize> {
        let chunks = self.groups.chunk_count(1) as usize;
        let board = &*self.board;
        // a joiner touches every chunk, so it lies next to the first one
        let first = (0..board.num_cells()).find(|&c| self.groups.colour(c) == 1 && self.groups.group_size(c) >= 2)?;
        let mut best = None;
        for m in self.groups.members(first) {
            for &y in board.neighbors(m) {
                let y = y as usize;
                if !self.empty.contains(y) || best.is_some_and(|b| b >= y) {
                    continue;
                }
                let mut roots: SmallVec<[usize; 6]> = SmallVec::new();
                for &w in board.neighbors(y) {
                    let w = w as usize;
                    if self.groups.colour(w) == 1 && self.groups.group_size(w) >= 2 {
                        let r = self.groups.root(w).expect("stone");
                        if !roots.contains(&r) {
                            roots.push(r);
                        }
                    }
                }
                if roots.len() == chunks {
                    best = Some(y);
                }
            }
        }
        best
    }

    /// Balance turn: stones of colours other than 1 at cells below the
    /// returned limit keep the turn completable (the test is monotone in
    /// the cell, so one search serves every such stone).
    fn other_colour_limit(&self) -> usize {
        let r = self.st.allot as usize - self.st.placed as usize - 1;
        let n = self.board.num_cells();
        if self.groups.chunk_count(1) <= 1 {
            return n;
        }
        if r == 0 {
            return 0;
        }
        if r == 1 {
            return self.last_joiner().unwrap_or(0);
        }
        // smallest x with !joinable(r, x); joinable(r, x) holds for x below it
        let (mut lo, mut hi) = (0usize, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.joinable(r, mid) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Balance turn: after a colour-1 stone at `x`, can colour 1 still end
    /// the turn with at most one chunk?
    fn colour1_completable(&self, x: usize) -> bool {
        if self.chunks_after_colour1(x) <= 1 {
            return true;
        }
        let r = self.st.allot as usize - self.st.placed as usize - 1;
        if r == 0 {
            return false;
        }
        if r == 1 {
            return self.one_more_joins(x);
        }
        let mut g = self.clone();
        g.put(x, 1);
        g.joinable(r, x)
    }

    /// After a colour-1 stone at `x`: is there an empty cell above `x` where
    /// one more colour-1 stone leaves a single chunk?
    fn one_more_joins(&self, x: usize) -> bool {
        let board = &*self.board;
        // groups merged with x, and the chunks x leaves alone
        let mut touched: SmallVec<[usize; 6]> = SmallVec::new();
        let mut formed = 1;
        for &w in board.neighbors(x) {
            let w = w as usize;
            if self.groups.colour(w) == 1 {
                let r = self.groups.root(w).expect("stone");
                if !touched.contains(&r) {
                    touched.push(r);
                    formed += self.groups.group_size(r);
                }
            }
        }
        let touched_chunks = touched.iter().filter(|&&r| self.groups.group_size(r) >= 2).count();
        let others = self.groups.chunk_count(1) as usize - touched_chunks;
        let need_m = formed >= 2;
        // y must touch every chunk x leaves alone (there is one: two or more
        // chunks remain), so it lies next to the first of them
        let Some(other) = (0..board.num_cells()).find(|&c| {
            self.groups.colour(c) == 1
                && self.groups.group_size(c) >= 2
                && !touched.contains(&self.groups.root(c).expect("stone"))
        }) else {
            return false;
        };
        let mut seen: SmallVec<[usize; 32]> = SmallVec::new();
        for m in self.groups.members(other) {
            for &y in board.neighbors(m) {
                let y = y as usize;
                if y <= x || !self.empty.contains(y) || seen.contains(&y) {
                    continue;
                }
                seen.push(y);
                let mut roots: SmallVec<[usize; 6]> = SmallVec::new();
                let mut touches_m = false;
                for &w in board.neighbors(y) {
                    let w = w as usize;
                    if w == x {
                        touches_m = true;
                    } else if self.groups.colour(w) == 1 {
                        let r = self.groups.root(w).expect("stone");
                        if touched.contains(&r) {
                            touches_m = true;
                        } else if self.groups.group_size(r) >= 2 && !roots.contains(&r) {
                            roots.push(r);
                        }
                    }
                }
                // the stone at y must join every remaining chunk (and M, if M is one)
                if roots.len() == others && (touches_m || !need_m) {
                    return true;
                }
            }
        }
        false
    }

    /// Balance turn: after colour `colour` at `x`, can colour 1 still end the
    /// turn with at most one chunk?
    fn balance_completable(&self, x: usize, colour: u8) -> bool {
        if colour == 1 {
            self.colour1_completable(x)
        } else {
            let r = self.st.allot as usize - self.st.placed as usize - 1;
            self.joinable(r, x)
        }
    }

    fn placement_ok(&self, cell: usize, colour: u8) -> bool {
        match self.st.phase {
            Phase::Setup => colour <= 2 && self.setup_completable(cell, colour),
            Phase::Choose => false,
            Phase::Play => !self.balance_turn() || self.balance_completable(cell, colour),
        }
    }

    fn end_ok(&self) -> bool {
        self.st.phase == Phase::Play && self.st.placed > 0 && (!self.balance_turn() || self.groups.chunk_count(1) <= 1)
    }

    // -------------------------------------------------------------- counting

    /// Number of legal moves as a big number.
    fn count_big(&self) -> Big {
        if self.st.over {
            return Big::from(0);
        }
        match self.st.phase {
            Phase::Choose => return Big::from(2),
            Phase::Setup => return Big::from(self.count_setup()),
            Phase::Play => {}
        }
        let e = self.num_empty as usize;
        let kmax = (self.st.allot as usize).min(e);
        let extra = 1 + self.swap_legal() as u128;
        let n = self.ncol() as u32;
        let mut total = Big::from(extra);
        if !self.balance_turn() {
            total.add(&free_sets(e, kmax, n));
        } else {
            total.add(&balanced_sets(&self.colour1_sets(kmax, None), e, kmax, n, 1));
        }
        total
    }

    /// Ways to finish the turn in progress (placements above the last one,
    /// then the end of the turn).
    fn count_completions(&self) -> u128 {
        if self.st.placed == 0 {
            return self.count_moves();
        }
        if self.st.phase == Phase::Setup {
            let mut out = Vec::new();
            self.enumerate_checked(&mut MoveActions::new(), &mut out);
            return out.len() as u128;
        }
        let above = self.empty.from(self.st.last as usize + 1);
        let e = above.len();
        let r = (self.st.allot - self.st.placed) as usize;
        let kmax = r.min(e);
        let n = self.ncol() as u32;
        let total = if !self.balance_turn() {
            // END, or k more stones on the cells above
            let mut t = Big::from(1);
            t.add(&free_sets(e, kmax, n));
            t
        } else {
            // k = 0 is END, allowed when colour 1 already has one chunk
            balanced_sets(&self.colour1_sets(kmax, Some(self.st.last as usize)), e, kmax, n, 0)
        };
        total.to_u128()
    }

    /// Open setup: `pass` plus ordered pairs of disjoint adjacent empty pairs.
    fn count_setup(&self) -> u128 {
        let board = &*self.board;
        let mut edges: u128 = 0;
        let mut sq: u128 = 0;
        for v in self.empty.iter() {
            let d = board.neighbors(v).iter().filter(|&&w| self.empty.contains(w as usize)).count() as u128;
            edges += d;
            sq += d * d;
        }
        let edges = edges / 2;
        1 + edges * edges + edges - sq
    }

    /// `f[j]` = number of j-sets S of empty cells such that colour 1 with S
    /// added has at most one chunk (j = 0..=jmax). S splits into T (stones
    /// touching colour 1 afterwards: all in the one chunk, enumerated as
    /// connected extensions of a chunk) and U (isolated new crumbs: an
    /// independent set of cells not next to colour 1 or T).
    fn colour1_sets(&self, jmax: usize, above: Option<usize>) -> Vec<u128> {
        let n = self.board.num_cells();
        let ones: Vec<bool> = (0..n).map(|c| self.groups.colour(c) == 1).collect();
        let usable: Vec<bool> = (0..n).map(|c| self.empty.contains(c) && above.is_none_or(|a| c > a)).collect();
        let mut f = vec![0u128; jmax + 1];
        let joiner = ChunkJoiner::new(&self.board, &ones, &usable);
        let mut add_t = |t: &[bool], tsize: usize| {
            let ind = independent_counts(&self.board, &ones, &usable, t, jmax - tsize);
            for (m, x) in ind.into_iter().enumerate() {
                f[tsize + m] = f[tsize + m].saturating_add(x);
            }
        };
        let none = vec![false; n];
        if joiner.num_chunks <= 1 {
            add_t(&none, 0);
        }
        if jmax == 0 || joiner.num_chunks == 0 {
            return f;
        }
        joiner.for_each_joining_set(jmax, &mut |t: &[bool], tsize| add_t(t, tsize));
        f
    }

    // ------------------------------------------------------------- moves

    fn enumerate_plain(&self, from: usize, k: usize, cur: &mut MoveActions, out: &mut Vec<MoveActions>) {
        let n = self.ncol();
        let kmax = self.st.allot as usize;
        for x in self.empty.from(from).iter() {
            for c in 1..=n {
                cur.push(self.place_action(x, c));
                let more = k + 1 < kmax && self.empty.from(x + 1).len() > 0;
                if more {
                    let mut m = cur.clone();
                    m.push(self.end_action());
                    out.push(m);
                    self.enumerate_plain(x + 1, k + 1, cur, out);
                } else {
                    out.push(cur.clone());
                }
                cur.pop();
            }
        }
    }

    fn enumerate_checked(&self, cur: &mut MoveActions, out: &mut Vec<MoveActions>) {
        let n = self.ncol();
        for x in self.open_cells().iter() {
            for c in 1..=n {
                if !self.placement_ok(x, c as u8) {
                    continue;
                }
                let a = self.place_action(x, c);
                let mut child = self.clone();
                child.apply_action(a);
                cur.push(a);
                if !child.mid_turn() {
                    out.push(cur.clone());
                } else {
                    if child.end_ok() {
                        let mut m = cur.clone();
                        m.push(self.end_action());
                        out.push(m);
                    }
                    child.enumerate_checked(cur, out);
                }
                cur.pop();
            }
        }
    }

    /// Parse the placements of a move (AP's checks, in AP's order).
    fn parse_placements(&self, text: &str, original: &str) -> Result<SmallVec<[(usize, u8); 8]>, MoveError> {
        let steps: Vec<&str> = text.split(',').filter(|s| !s.is_empty()).collect();
        if steps.is_empty() {
            return Err(MoveError::new("syntax", format!("{original:?} is not a move")));
        }
        let allot = self.st.allot as usize;
        if steps.len() > allot {
            return Err(MoveError::new(
                "too_many_stones",
                format!("{original:?}: {} stones, but only {allot} allowed", steps.len()),
            ));
        }
        if steps.len() > self.num_empty as usize {
            return Err(MoveError::new(
                "more_than_empty",
                format!("{original:?}: {} stones, but only {} empty cells", steps.len(), self.num_empty),
            ));
        }
        let mut placed: SmallVec<[(usize, u8); 8]> = SmallVec::new();
        for step in steps {
            let mut chars = step.chars();
            let ch = chars.next().expect("non-empty step");
            let colour = match ch.to_digit(10) {
                Some(d) if d >= 1 && d as usize <= self.ncol() => d as u8,
                Some(_) => {
                    return Err(MoveError::new(
                        "bad_colour",
                        format!("{step:?}: colour {ch:?} is not one of 1..{}", self.ncol()),
                    ))
                }
                None => {
                    return Err(MoveError::new(
                        "syntax",
                        format!("{step:?}: a step is a colour digit and a cell, like 1g7"),
                    ))
                }
            };
            let label = chars.as_str();
            if label.is_empty() {
                return Err(MoveError::new("syntax", format!("{step:?}: a colour without a cell")));
            }
            let cell = self
                .board
                .index(label)
                .ok_or_else(|| MoveError::new("unknown_cell", format!("{step:?}: no cell {label:?} on this board")))?;
            if !self.empty.contains(cell) {
                return Err(MoveError::new("occupied", format!("{step:?}: cell {label} is occupied")));
            }
            if placed.iter().any(|&(c, _)| c == cell) {
                return Err(MoveError::new("duplicate_cell", format!("{step:?}: cell {label} is used twice in one move")));
            }
            placed.push((cell, colour));
        }
        Ok(placed)
    }

    fn check_setup(&self, placed: &[(usize, u8)], original: &str) -> Result<(), MoveError> {
        for colour in 1..=2u8 {
            let mine: SmallVec<[usize; 4]> = placed.iter().filter(|p| p.1 == colour).map(|p| p.0).collect();
            if mine.len() >= 2 && !self.board.neighbors(mine[0]).contains(&(mine[1] as u16)) {
                return Err(MoveError::new(
                    "open_setup",
                    format!("{original:?}: the two colour-{colour} setup stones must be adjacent"),
                ));
            }
            if mine.len() > 2 {
                return Err(MoveError::new("open_setup", format!("{original:?}: at most two colour-{colour} stones in the setup")));
            }
        }
        if placed.len() < 4 {
            return Err(MoveError::new(
                "open_setup",
                format!("{original:?}: the setup is exactly two adjacent stones of each colour"),
            ));
        }
        Ok(())
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

    fn is_legal_action(&self, action: Action, buf: &mut Vec<Action>) -> bool {
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
        let _ = buf;
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

    fn undo_action(&mut self, undo: WunchunkUndo) {
        if undo.action < self.end_action() {
            let n = self.ncol();
            let cell = undo.action as usize / n;
            let mut cells: Vec<u8> = self.groups.colours().to_vec();
            cells[cell] = 0;
            self.set_cells(&cells);
        }
        self.st = undo.st;
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
        self.count_big().to_u128()
    }

    fn count_turn_completions(&self) -> Option<u128> {
        if self.st.over && self.st.placed == 0 {
            return Some(0);
        }
        Some(self.count_completions())
    }

    fn count_moves_decimal(&self) -> String {
        self.count_big().to_string()
    }

    fn parse_move(&self, text: &str) -> Result<MoveActions, MoveError> {
        if self.st.over {
            return Err(MoveError::new("game_over", format!("the game is over; {text:?} cannot be played")));
        }
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_lowercase();
        if t.is_empty() {
            return Err(MoveError::new("syntax", "empty move"));
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
            return Err(MoveError::new("swap_not_allowed", format!("swap is not allowed here: {why}")));
        }
        if self.st.phase == Phase::Choose {
            return Err(MoveError::new(
                "open_choice",
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
                    "balance",
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

// ------------------------------------------------------------------ helpers

/// Joining all colour-1 chunks into one with new colour-1 stones on usable
/// cells: the connected extensions of one chunk (each set once).
struct ChunkJoiner<'a> {
    board: &'a Board,
    usable: &'a [bool],
    /// Colour-1 component id per cell (u16::MAX elsewhere).
    comp: Vec<u16>,
    comp_cells: Vec<Vec<usize>>,
    comp_is_chunk: Vec<bool>,
    num_chunks: usize,
    root: Option<usize>,
}

impl<'a> ChunkJoiner<'a> {
    fn new(board: &'a Board, ones: &[bool], usable: &'a [bool]) -> ChunkJoiner<'a> {
        let n = board.num_cells();
        let mut comp = vec![u16::MAX; n];
        let mut comp_cells: Vec<Vec<usize>> = Vec::new();
        for s in 0..n {
            if !ones[s] || comp[s] != u16::MAX {
                continue;
            }
            let id = comp_cells.len() as u16;
            let mut cells = vec![s];
            comp[s] = id;
            let mut i = 0;
            while i < cells.len() {
                let v = cells[i];
                i += 1;
                for &w in board.neighbors(v) {
                    let w = w as usize;
                    if ones[w] && comp[w] == u16::MAX {
                        comp[w] = id;
                        cells.push(w);
                    }
                }
            }
            comp_cells.push(cells);
        }
        let comp_is_chunk: Vec<bool> = comp_cells.iter().map(|c| c.len() >= 2).collect();
        let num_chunks = comp_is_chunk.iter().filter(|&&b| b).count();
        let root = comp_is_chunk.iter().position(|&b| b);
        ChunkJoiner { board, usable, comp, comp_cells, comp_is_chunk, num_chunks, root }
    }

    /// Start state: (region mask, absorbed components, chunks still outside).
    fn start(&self) -> (Vec<bool>, Vec<bool>, usize) {
        let n = self.board.num_cells();
        let mut region = vec![false; n];
        let mut absorbed = vec![false; self.comp_cells.len()];
        let r = self.root.expect("a chunk");
        absorbed[r] = true;
        for &c in &self.comp_cells[r] {
            region[c] = true;
        }
        (region, absorbed, self.num_chunks - 1)
    }

    /// Add a new stone at `x` to the region; returns chunks absorbed.
    fn absorb(&self, x: usize, region: &mut [bool], absorbed: &mut [bool]) -> usize {
        region[x] = true;
        let mut got = 0;
        for &w in self.board.neighbors(x) {
            let w = w as usize;
            let id = self.comp[w];
            if id != u16::MAX && !absorbed[id as usize] {
                absorbed[id as usize] = true;
                got += self.comp_is_chunk[id as usize] as usize;
                for &c in &self.comp_cells[id as usize] {
                    region[c] = true;
                }
            }
        }
        got
    }

    fn frontier(&self, region: &[bool]) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for v in 0..region.len() {
            if region[v] {
                for &w in self.board.neighbors(v) {
                    let w = w as usize;
                    if self.usable[w] && !region[w] && !out.contains(&w) {
                        out.push(w);
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// Fewest new stones that would connect the region to its farthest
    /// outside chunk, avoiding `banned` cells (0-1 BFS).
    fn lower_bound(&self, region: &[bool], absorbed: &[bool], banned: &[bool]) -> usize {
        let n = region.len();
        let mut dist = vec![usize::MAX; n];
        let mut dq = std::collections::VecDeque::new();
        for v in 0..n {
            if region[v] {
                dist[v] = 0;
                dq.push_back(v);
            }
        }
        while let Some(v) = dq.pop_front() {
            let d = dist[v];
            for &w in self.board.neighbors(v) {
                let w = w as usize;
                let step = if self.comp[w] != u16::MAX {
                    0
                } else if self.usable[w] && !banned[w] {
                    1
                } else {
                    continue;
                };
                if d + step < dist[w] {
                    dist[w] = d + step;
                    if step == 0 {
                        dq.push_front(w);
                    } else {
                        dq.push_back(w);
                    }
                }
            }
        }
        let mut worst = 0;
        for (id, cells) in self.comp_cells.iter().enumerate() {
            if self.comp_is_chunk[id] && !absorbed[id] {
                worst = worst.max(dist[cells[0]]);
            }
        }
        worst
    }

    /// Can all chunks be joined with at most `r` new stones?
    fn can_join(&self, r: usize) -> bool {
        if self.num_chunks <= 1 {
            return true;
        }
        let (mut region, mut absorbed, left) = self.start();
        let cand = self.frontier(&region);
        let mut banned = vec![false; region.len()];
        self.search(&mut region, &mut absorbed, left, r, cand, &mut banned)
    }

    fn search(&self, region: &mut Vec<bool>, absorbed: &mut Vec<bool>, left: usize, r: usize, cand: Vec<usize>, banned: &mut Vec<bool>) -> bool {
        if left == 0 {
            return true;
        }
        if r == 0 || self.lower_bound(region, absorbed, banned) > r {
            return false;
        }
        let mut newly_banned = Vec::new();
        let mut found = false;
        for (i, &x) in cand.iter().enumerate() {
            let mut reg = region.clone();
            let mut abs = absorbed.clone();
            let got = self.absorb(x, &mut reg, &mut abs);
            banned[x] = true;
            newly_banned.push(x);
            let mut next: Vec<usize> = cand[i + 1..].to_vec();
            for w in self.frontier(&reg) {
                if !banned[w] && !next.contains(&w) {
                    next.push(w);
                }
            }
            if self.search(&mut reg, &mut abs, left - got, r - 1, next, banned) {
                found = true;
                break;
            }
        }
        for x in newly_banned {
            banned[x] = false;
        }
        found
    }

    /// Calls `f(T, |T|)` for every non-empty set T of at most `tmax` usable
    /// cells whose addition joins every chunk into one region.
    fn for_each_joining_set(&self, tmax: usize, f: &mut dyn FnMut(&[bool], usize)) {
        let (region, absorbed, left) = self.start();
        let cand = self.frontier(&region);
        let n = region.len();
        let mut t = vec![false; n];
        let mut excluded = vec![false; n];
        self.grow(&region, &absorbed, left, tmax, 0, &cand, &mut excluded, &mut t, f);
    }

    #[allow(clippy::too_many_arguments)]
    fn grow(&self, region: &[bool], absorbed: &[bool], left: usize, tmax: usize, tsize: usize, cand: &[usize],
            excluded: &mut Vec<bool>, t: &mut Vec<bool>, f: &mut dyn FnMut(&[bool], usize)) {
        if tsize > 0 && left == 0 {
            f(t, tsize);
        }
        if tsize == tmax {
            return;
        }
        if left > 0 && self.lower_bound(region, absorbed, excluded) > tmax - tsize {
            return;
        }
        let mut newly = Vec::new();
        for (i, &x) in cand.iter().enumerate() {
            excluded[x] = true;
            newly.push(x);
            let mut reg = region.to_vec();
            let mut abs = absorbed.to_vec();
            let got = self.absorb(x, &mut reg, &mut abs);
            let mut next: Vec<usize> = cand[i + 1..].to_vec();
            for w in self.frontier(&reg) {
                if !excluded[w] && !next.contains(&w) {
                    next.push(w);
                }
            }
            t[x] = true;
            self.grow(&reg, &abs, left - got, tmax, tsize + 1, &next, excluded, t, f);
            t[x] = false;
        }
        for x in newly {
            excluded[x] = false;
        }
    }
}

/// `ind[m]` = number of m-sets of pairwise non-adjacent usable cells that are
/// not in T and have no neighbour that is colour 1 or in T (m = 0..=mmax).
fn independent_counts(board: &Board, ones: &[bool], usable: &[bool], t: &[bool], mmax: usize) -> Vec<u128> {
    let n = board.num_cells();
    let free: Vec<bool> = (0..n)
        .map(|v| usable[v] && !t[v] && board.neighbors(v).iter().all(|&w| !ones[w as usize] && !t[w as usize]))
        .collect();
    let nf = free.iter().filter(|&&b| b).count() as u128;
    if mmax <= 3 {
        // closed forms: |F|, edges, paths of length two, triangles
        let mut edges = 0u128;
        let mut paths2 = 0u128;
        let mut tri = 0u128;
        for v in 0..n {
            if !free[v] {
                continue;
            }
            let nb: SmallVec<[usize; 6]> = board.neighbors(v).iter().map(|&w| w as usize).filter(|&w| free[w]).collect();
            let d = nb.len() as u128;
            edges += d;
            paths2 += d * d.saturating_sub(1) / 2;
            for (i, &a) in nb.iter().enumerate() {
                for &b in &nb[i + 1..] {
                    if a > v && b > v && board.neighbors(a).contains(&(b as u16)) {
                        tri += 1;
                    }
                }
            }
        }
        let edges = edges / 2;
        let mut out = vec![1u128, nf, 0, 0];
        if nf >= 2 {
            out[2] = nf * (nf - 1) / 2 - edges;
        }
        if nf >= 3 {
            out[3] = nf * (nf - 1) * (nf - 2) / 6 + paths2 - edges * (nf - 2) - tri;
        }
        out.truncate(mmax + 1);
        return out;
    }
    // row-by-row DP: state = chosen cells among the last `win` ones, count
    let win = 2 * board.side_lengths()[0] as usize + 1;
    let wmask: u64 = (1u64 << win) - 1;
    let mut states: std::collections::HashMap<(u64, usize), u128> = std::collections::HashMap::new();
    states.insert((0, 0), 1);
    for v in 0..n {
        let mut next: std::collections::HashMap<(u64, usize), u128> = std::collections::HashMap::new();
        for (&(mask, m), &ways) in &states {
            let skip = (mask << 1) & wmask;
            *next.entry((skip, m)).or_insert(0) += ways;
            if free[v] && m < mmax {
                let clash = board.neighbors(v).iter().any(|&w| {
                    let w = w as usize;
                    w < v && v - w <= win && mask >> (v - w - 1) & 1 != 0
                });
                if !clash {
                    let e = next.entry((skip | 1, m + 1)).or_insert(0);
                    *e = e.saturating_add(ways);
                }
            }
        }
        states = next;
    }
    let mut out = vec![0u128; mmax + 1];
    for (&(_, m), &ways) in &states {
        out[m] = out[m].saturating_add(ways);
    }
    out
}

/// `sum over k = 1..=kmax of C(e, k) n^k`: the sets of 1 to `kmax` stones,
/// each of `n` colours, on `e` cells.
fn free_sets(e: usize, kmax: usize, n: u32) -> Big {
    let mut total = Big::from(0);
    let mut term = Big::from(1);
    for k in 1..=kmax {
        term.mul_small((e - k + 1) as u32 * n);
        term.div_small(k as u32);
        total.add(&term);
    }
    total
}

/// `sum over k = from..=kmax, j <= k of f[j] C(e - j, k - j) (n - 1)^(k - j)`:
/// sets of k stones on `e` cells whose j colour-1 stones form one of the
/// `f[j]` allowed sets, the other k - j stones being of the other `n - 1`
/// colours.
fn balanced_sets(f: &[u128], e: usize, kmax: usize, n: u32, from: usize) -> Big {
    let mut total = Big::from(0);
    for k in from..=kmax {
        for (j, &fj) in f.iter().enumerate().take(k + 1) {
            if fj == 0 {
                continue;
            }
            let mut t = Big::from(fj);
            t.mul_big(&binomial(e - j, k - j));
            for _ in 0..(k - j) {
                t.mul_small(n - 1);
            }
            total.add(&t);
        }
    }
    total
}

fn binomial(n: usize, k: usize) -> Big {
    let mut b = Big::from(1);
    if k > n {
        return Big::from(0);
    }
    for i in 0..k {
        b.mul_small((n - i) as u32);
        b.div_small((i + 1) as u32);
    }
    b
}

/// A small unsigned big integer (base 2^32 limbs, little endian) for exact
/// move counts beyond u128.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from(x: u128) -> Big {
        let mut v = Vec::new();
        let mut x = x;
        while x > 0 {
            v.push(x as u32);
            x >>= 32;
        }
        Big(v)
    }
    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for d in self.0.iter_mut() {
            let t = *d as u64 * m as u64 + carry;
            *d = t as u32;
            carry = t >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }
    /// Divide by `m`, returning the remainder.
    fn div_small(&mut self, m: u32) -> u32 {
        let mut rem = 0u64;
        for d in self.0.iter_mut().rev() {
            let cur = rem << 32 | *d as u64;
            *d = (cur / m as u64) as u32;
            rem = cur % m as u64;
        }
        self.trim();
        rem as u32
    }
    fn add(&mut self, o: &Big) {
        if self.0.len() < o.0.len() {
            self.0.resize(o.0.len(), 0);
        }
        let mut carry = 0u64;
        for i in 0..self.0.len() {
            let t = self.0[i] as u64 + *o.0.get(i).unwrap_or(&0) as u64 + carry;
            self.0[i] = t as u32;
            carry = t >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }
    fn mul_big(&mut self, o: &Big) {
        let mut out = vec![0u32; self.0.len() + o.0.len() + 1];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in o.0.iter().enumerate() {
                let t = out[i + j] as u64 + a as u64 * b as u64 + carry;
                out[i + j] = t as u32;
                carry = t >> 32;
            }
            let mut k = i + o.0.len();
            while carry > 0 {
                let t = out[k] as u64 + carry;
                out[k] = t as u32;
                carry = t >> 32;
                k += 1;
            }
        }
        self.0 = out;
        self.trim();
    }
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    fn to_u128(&self) -> u128 {
        if self.0.len() > 4 {
            return u128::MAX;
        }
        self.0.iter().rev().fold(0u128, |acc, &d| acc << 32 | d as u128)
    }
    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::fmt::Display for Big {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_zero() {
            return f.write_str("0");
        }
        let mut x = self.clone();
        let mut chunks = Vec::new();
        while !x.is_zero() {
            chunks.push(x.div_small(1_000_000_000));
        }
        let mut s = chunks.pop().expect("non-zero").to_string();
        for c in chunks.iter().rev() {
            s.push_str(&format!("{c:09}"));
        }
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
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
        g.parse_move(m).err().map(|e| e.reason).unwrap_or("ok")
    }

    #[test]
    fn options_are_checked() {
        assert_eq!(Wunchunk::new(6, 5, Start::Standard, Balance::Ap).unwrap_err().0, "players");
        assert_eq!(Wunchunk::new(6, 3, Start::Standard, Balance::Ap).unwrap_err().0, "size");
        assert_eq!(Wunchunk::new(9, 2, Start::Standard, Balance::Ap).unwrap_err().0, "size");
        assert_eq!(Wunchunk::new(8, 3, Start::Open, Balance::Ap).unwrap_err().0, "start");
        assert_eq!(Wunchunk::new(8, 4, Start::Standard, Balance::Pie).unwrap_err().0, "balance");
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
                assert!(g.is_legal_action(a, &mut buf), "{}", g.action_to_string(a));
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
        let variants = [
            (5, 2, Start::Standard, Balance::Ap),
            (5, 2, Start::Open, Balance::Ap),
            (7, 3, Start::Standard, Balance::Ap),
        ];
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

#[cfg(test)]
mod bench {
    use super::*;

    /// `cargo test --release -p hexcore-core wunchunk_playout_speed -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn wunchunk_playout_speed() {
        let g = Wunchunk::new(6, 2, Start::Standard, Balance::Ap).unwrap();
        for _ in 0..3 {
            let t = std::time::Instant::now();
            let r = crate::playout::playouts(&g, 200_000, 1, 1, u64::MAX);
            let dt = t.elapsed().as_secs_f64();
            let plies: u64 = r.iter().map(|x| x.plies).sum();
            println!("{:.0} games/s ({} plies)", 200_000.0 / dt, plies);
        }
    }
}

#[cfg(test)]
mod cells_tests {
    use super::*;

    #[test]
    fn select_from_len() {
        let mut c = Cells::default();
        let xs = [0usize, 3, 9, 17, 31, 32, 40, 63, 64, 65, 100, 127, 128, 150, 191];
        for &x in &xs {
            c.insert(x);
        }
        assert_eq!(c.len(), xs.len());
        for (k, &x) in xs.iter().enumerate() {
            assert_eq!(c.select(k), x);
            assert_eq!(c.from(x).len(), xs.len() - k);
            assert_eq!(c.from(x + 1).len(), xs.len() - k - 1);
        }
        assert_eq!(c.select(xs.len()), usize::MAX);
        assert_eq!(c.iter().collect::<Vec<_>>(), xs.to_vec());
        c.remove(64);
        assert!(!c.contains(64) && c.contains(65));
    }
}
