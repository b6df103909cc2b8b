//! Quintun (after Martin Windischer's Quintus, 2003; published as Quintun).
//!
//! Black (1) and White (2) take turns; a turn is one of
//!
//! * **STONE** — a stone of the mover's colour on an empty Interior cell;
//! * **NEW** — a neutral stone of the lowest colour letter not yet on the
//!   board on an empty Ring cell, restricted by the placement rule (`side`:
//!   on a side holding no stone, if there is one; `gap`: at least five empty
//!   ring cells to the nearest neutral both ways, if possible);
//! * **EXTEND** — two neutral stones of colours already on the board on two
//!   empty Ring cells, every neutral colour staying one connected block;
//! * **SWAP** — the pie rule: White's first move takes over Black's first
//!   stone, and Black moves again.
//!
//! After every move, the mover wins if it qualifies, else the opponent if it
//! qualifies: one group touching four or five neutral colours, or two groups
//! touching three each. A player with no legal move draws the game.
//!
//! Notation: the sample game's doubled-column layout (columns `a, b, ...,
//! z, aa, ...` from the left, rows 1.. from the top); see `seeds/quintun.md`.
//!
//! Actions: `6*cell` places the mover's stone, `6*cell + k` (k = 1..5) a
//! neutral of colour k, `6*N` is `swap`. A NEW move is one neutral action of
//! the colour not yet on the board; an EXTEND is two neutral actions of
//! colours already on the board, in increasing cell order, and only first
//! halves that can be completed are offered.
//!
//! Ring bookkeeping uses bit masks over ring positions (clockwise from the
//! top-left corner; at most 54 for side 10). Each player group carries a
//! bit mask of the neutral colours it touches (merged on union, updated when
//! a neutral lands next to it), and the number of groups touching at least
//! three and four colours is kept per player, so the win test is O(1).
//!
//! Undo is in place: the record holds the action and the small values it
//! changed; the ring tables of a turn that recomputed them and the colour
//! sets a neutral changed go on logs kept by the game, and a stone is taken
//! back with [`Groups::unplace`].

use std::fmt::Write as _;
use std::sync::Arc;

use rand::Rng;
use smallvec::{smallvec, SmallVec};

use crate::bitset::select64;
use crate::board::Board;
use crate::game::{Action, Game, MoveActions, MoveError, WinnerMask};
use crate::groups::Groups;
use crate::rng::below;
use crate::zobrist::{self, Kind};

mod board;
mod notation;

use board::CellSet;
pub use board::{column_name, QuintunBoard, MAX_SIZE, MIN_SIZE};
pub use notation::record_moves;
use notation::{Parsed, LETTERS};

/// Number of neutral colours (A..E).
pub const NUM_COLOURS: usize = 5;
/// Action kinds per cell: the mover's stone, then neutral colours A..E.
const KINDS: usize = 6;
/// The `gap` rule: empty ring cells needed to the nearest neutral, both ways.
pub const GAP_MIN: u32 = 5;

/// Where a NEW neutral may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// On a side with no stone, if there is one (the default).
    Side,
    /// At least five empty ring cells from the nearest neutral both ways, if possible.
    Gap,
}

impl Placement {
    /// `s.parse().ok()`, for callers that want an `Option`.
    pub fn parse(s: &str) -> Option<Placement> {
        s.parse().ok()
    }

    pub fn name(self) -> &'static str {
        match self {
            Placement::Side => "side",
            Placement::Gap => "gap",
        }
    }
}

impl std::fmt::Display for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Placement {
    type Err = String;
    fn from_str(s: &str) -> Result<Placement, String> {
        match s {
            "side" => Ok(Placement::Side),
            "gap" => Ok(Placement::Gap),
            _ => Err(format!("placement must be 'side' or 'gap', got {s:?}")),
        }
    }
}

/// Count a group's colour mask into the per-player tallies of groups
/// touching >= 3 and >= 4 colours (`sign` +1 to add, -1 to remove).
#[inline]
fn tally(n3: &mut [u16; 2], n4: &mut [u16; 2], p: u8, mask: u32, sign: i16) {
    let k = p as usize - 1;
    let pc = (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1) + (mask >> 4 & 1);
    if pc >= 3 {
        n3[k] = (n3[k] as i16 + sign) as u16;
        if pc >= 4 {
            n4[k] = (n4[k] as i16 + sign) as u16;
        }
    }
}

/// A neutral stone: (cell, colour 1..5).
type Neutral = (u16, u8);

/// A Quintun state.
#[derive(Debug)]
pub struct Quintun {
    geo: Arc<QuintunBoard>,
    placement: Placement,
    swap: bool,
    /// 0 empty, 1 Black, 2 White, -k neutral colour k.
    cells: Vec<i8>,
    /// Player groups; the payload is the set of neutral colours touched.
    groups: Groups,
    /// Per player: groups touching >= 3 and >= 4 colours.
    n3: [u16; 2],
    n4: [u16; 2],
    ring_empty: u64,
    colour_ring: [u64; NUM_COLOURS + 1],
    /// Bit k-1 for each colour k on the board.
    present: u8,
    interior_empty: CellSet,
    num_interior_empty: u32,
    /// The empty Interior cells in no particular order (for random picks),
    /// and where each cell stands in that list.
    free: Vec<u16>,
    free_at: Vec<u16>,
    to_move: u8,
    ply: u32,
    /// Black's first stone while the swap is on offer.
    swap_cell: Option<u16>,
    /// False for set-up positions, which never offer the swap.
    from_start: bool,
    /// First half of an EXTEND in progress.
    pending: Option<Neutral>,
    over: bool,
    winners: WinnerMask,
    hash: u64,
    /// What the ring allows this turn (recomputed after a turn that changed the ring).
    ring: RingTables,
    // Undo logs (the variable-size parts of undo records, last in first out).
    /// The ring tables above as they were before each undoable turn that
    /// recomputed them.
    ring_log: Vec<RingTables>,
    /// (root, colours) of each group an undoable neutral added a colour to.
    mask_log: Vec<(u16, u32)>,
}

/// What the ring allows in one turn; copied onto the ring log for undo.
#[derive(Debug, Clone, Copy)]
struct RingTables {
    /// Ring positions a NEW move may use (0 if all colours are out).
    new_mask: u64,
    /// Colour of a NEW move (0 if none is left).
    new_colour: u8,
    num_new: u32,
    /// Per colour: empty ring positions next to its block.
    adj: [u64; NUM_COLOURS + 1],
    /// Per colour: empty ring positions within two steps of its block.
    near: [u64; NUM_COLOURS + 1],
    /// Per colour: ring positions that can start an EXTEND (the first,
    /// lower-numbered cell of at least one legal EXTEND).
    first: [u64; NUM_COLOURS + 1],
    num_first: u32,
    /// Number of legal EXTEND moves.
    num_extends: u32,
    /// The Ring cells of NEW moves and EXTEND first halves.
    neutral_cells: CellSet,
}

impl Clone for Quintun {
    fn clone(&self) -> Self {
        Quintun {
            geo: self.geo.clone(),
            cells: self.cells.clone(),
            groups: self.groups.clone(),
            free: self.free.clone(),
            free_at: self.free_at.clone(),
            ring_log: self.ring_log.clone(),
            mask_log: self.mask_log.clone(),
            ..*self
        }
    }

    /// Reuses this value's allocations.
    fn clone_from(&mut self, s: &Self) {
        if !Arc::ptr_eq(&self.geo, &s.geo) {
            self.geo = s.geo.clone();
        }
        self.cells.clone_from(&s.cells);
        self.groups.clone_from(&s.groups);
        self.free.clone_from(&s.free);
        self.free_at.clone_from(&s.free_at);
        self.ring_log.clone_from(&s.ring_log);
        self.mask_log.clone_from(&s.mask_log);
        self.placement = s.placement;
        self.swap = s.swap;
        self.n3 = s.n3;
        self.n4 = s.n4;
        self.ring_empty = s.ring_empty;
        self.colour_ring = s.colour_ring;
        self.present = s.present;
        self.interior_empty = s.interior_empty;
        self.num_interior_empty = s.num_interior_empty;
        self.to_move = s.to_move;
        self.ply = s.ply;
        self.swap_cell = s.swap_cell;
        self.from_start = s.from_start;
        self.pending = s.pending;
        self.over = s.over;
        self.winners = s.winners;
        self.hash = s.hash;
        self.ring = s.ring;
    }
}

impl Quintun {
    /// An empty board of side `size` (4..=10).
    pub fn new(size: usize, placement: Placement, swap: bool) -> Result<Quintun, crate::game::OptionsError> {
        let geo = QuintunBoard::shared(size).map_err(|e| crate::game::OptionsError::new("size", e))?;
        Ok(Quintun::with_geometry(geo, placement, swap))
    }

    pub fn with_geometry(geo: Arc<QuintunBoard>, placement: Placement, swap: bool) -> Quintun {
        let n = geo.board.num_cells();
        let mut g = Quintun {
            placement,
            swap,
            cells: vec![0; n],
            groups: Groups::without_histograms(n, 2),
            n3: [0; 2],
            n4: [0; 2],
            ring_empty: geo.full,
            colour_ring: [0; NUM_COLOURS + 1],
            present: 0,
            interior_empty: geo.interior,
            num_interior_empty: geo.num_interior,
            free: geo.interior.iter().map(|c| c as u16).collect(),
            free_at: {
                let mut at = vec![u16::MAX; n];
                for (i, c) in geo.interior.iter().enumerate() {
                    at[c] = i as u16;
                }
                at
            },
            to_move: 1,
            ply: 0,
            swap_cell: None,
            from_start: true,
            pending: None,
            over: false,
            winners: 0,
            hash: 0,
            ring: RingTables {
                new_mask: 0,
                new_colour: 0,
                num_new: 0,
                adj: [0; NUM_COLOURS + 1],
                near: [0; NUM_COLOURS + 1],
                first: [0; NUM_COLOURS + 1],
                num_first: 0,
                num_extends: 0,
                neutral_cells: CellSet::default(),
            },
            ring_log: Vec::new(),
            mask_log: Vec::new(),
            geo,
        };
        g.refresh_ring();
        g
    }

    /// A position from cell values (0 empty, 1 Black, 2 White, -1..-5
    /// neutral A..E) in cell order. Player stones must be Interior, neutrals
    /// on the Ring, each colour one block. No swap is offered. If a player
    /// already qualifies the game is over (the player not to move first).
    pub fn from_cells(
        geo: Arc<QuintunBoard>,
        placement: Placement,
        swap: bool,
        cells: &[i8],
        to_move: u8,
    ) -> Result<Quintun, crate::game::OptionsError> {
        let n = geo.board.num_cells();
        if cells.len() != n {
            return Err(crate::game::OptionsError::new("position", format!("expected {n} cells, got {}", cells.len())));
        }
        if !(1..=2).contains(&to_move) {
            return Err(crate::game::OptionsError::new("to_move", format!("to_move must be 1 or 2, got {to_move}")));
        }
        for (c, &v) in cells.iter().enumerate() {
            if !(-5..=2).contains(&v) {
                return Err(crate::game::OptionsError::new("position", format!("cell value {v} at {} is not 0, 1, 2 or -1..-5", geo.label(c))));
            }
            if v > 0 && geo.is_ring(c) {
                return Err(crate::game::OptionsError::new("position", format!("player stone on ring cell {}", geo.label(c))));
            }
            if v < 0 && !geo.is_ring(c) {
                return Err(crate::game::OptionsError::new("position", format!("neutral stone on interior cell {}", geo.label(c))));
            }
        }
        let mut g = Quintun::with_geometry(geo, placement, swap);
        for (c, &v) in cells.iter().enumerate() {
            if v > 0 {
                g.put_stone(c, v as u8);
            } else if v < 0 {
                g.put_neutral(c, (-v) as u8, false);
            }
        }
        for k in 1..=NUM_COLOURS {
            let m = g.colour_ring[k];
            if m != 0 && !g.geo.is_arc(m) {
                return Err(crate::game::OptionsError::new("position", format!("neutral colour {} is split into several blocks", LETTERS[k - 1])));
            }
        }
        g.to_move = to_move;
        g.from_start = false;
        g.refresh_ring();
        g.settle(3 - to_move);
        Ok(g)
    }

    pub fn geometry(&self) -> &Arc<QuintunBoard> {
        &self.geo
    }

    pub fn size(&self) -> usize {
        self.geo.n
    }

    pub fn placement(&self) -> Placement {
        self.placement
    }

    pub fn swap_rule(&self) -> bool {
        self.swap
    }

    pub fn swap_available(&self) -> bool {
        self.swap_cell.is_some() && !self.over
    }

    /// Whether each player (Black, White) meets a win condition now.
    pub fn qualified(&self) -> (bool, bool) {
        (self.qualifies(1), self.qualifies(2))
    }

    #[inline]
    fn qualifies(&self, p: u8) -> bool {
        let k = p as usize - 1;
        self.n4[k] > 0 || self.n3[k] >= 2
    }

    /// Per player (Black, White): the most neutral colours that one of its
    /// groups touches (four or more wins, as do two groups with three).
    pub fn best_colours(&self) -> (u32, u32) {
        let mut best = [0u32; 2];
        for c in 0..self.cells.len() {
            let p = self.cells[c];
            if p > 0 && self.groups.root(c) == Some(c) {
                let k = p as usize - 1;
                best[k] = best[k].max(self.groups.group_mask(c).count_ones());
            }
        }
        (best[0], best[1])
    }

    /// Legal moves by kind: (stone, new, extend, swap).
    pub fn count_by_kind(&self) -> (usize, usize, usize, usize) {
        if self.over || self.pending.is_some() {
            return (0, 0, 0, 0);
        }
        (self.num_interior_empty as usize, self.ring.num_new as usize, self.ring.num_extends as usize, self.swap_available() as usize)
    }

    // ------------------------------------------------------------------ placing

    /// Put a stone of player `p` on empty Interior `cell`.
    fn put_stone(&mut self, cell: usize, p: u8) {
        let board = &self.geo.board;
        let mut roots: SmallVec<[usize; 6]> = SmallVec::new();
        let mut bits = 0u32;
        for &nb in board.neighbors(cell) {
            let nb = nb as usize;
            let v = self.cells[nb];
            if v == p as i8 {
                let r = self.groups.root(nb).expect("stone has a group");
                if !roots.contains(&r) {
                    roots.push(r);
                }
            } else if v < 0 {
                bits |= 1 << (-v - 1);
            }
        }
        let (n3, n4) = (&mut self.n3, &mut self.n4);
        for &r in &roots {
            tally(n3, n4, p, self.groups.group_mask(r), -1);
        }
        let root = self.groups.place(board, cell, p);
        self.groups.add_mask(root, bits);
        tally(n3, n4, p, self.groups.group_mask(root), 1);
        self.cells[cell] = p as i8;
        self.interior_empty.remove(cell);
        self.num_interior_empty -= 1;
        let i = self.free_at[cell] as usize;
        let last = self.free.pop().expect("an empty interior cell");
        if last as usize != cell {
            self.free[i] = last;
            self.free_at[last as usize] = i as u16;
        }
        self.free_at[cell] = u16::MAX;
        self.hash ^= zobrist::piece(cell, p as u64);
    }

    /// Put a neutral of colour `k` on empty Ring `cell`; with `log`, the
    /// groups' colour sets it changes go on the mask log first. Returns the
    /// number of log entries.
    #[inline]
    fn put_neutral(&mut self, cell: usize, k: u8, log: bool) -> u8 {
        let geo = &*self.geo;
        let bit = 1u32 << (k - 1);
        let mut roots: SmallVec<[usize; 4]> = SmallVec::new();
        for &nb in geo.board.neighbors(cell) {
            let nb = nb as usize;
            if self.cells[nb] > 0 {
                let r = self.groups.root(nb).expect("stone has a group");
                if !roots.contains(&r) {
                    roots.push(r);
                }
            }
        }
        let mut logged = 0;
        for &r in &roots {
            let m = self.groups.group_mask(r);
            if m & bit == 0 {
                if log {
                    self.mask_log.push((r as u16, m));
                    logged += 1;
                }
                let p = self.cells[r] as u8;
                tally(&mut self.n3, &mut self.n4, p, m, -1);
                self.groups.add_mask(r, bit);
                tally(&mut self.n3, &mut self.n4, p, m | bit, 1);
            }
        }
        let pos = geo.pos_of(cell);
        self.cells[cell] = -(k as i8);
        self.ring_empty &= !(1u64 << pos);
        self.colour_ring[k as usize] |= 1u64 << pos;
        self.present |= 1 << (k - 1);
        self.hash ^= zobrist::piece(cell, 2 + k as u64);
        logged
    }

    /// Recompute what the ring allows: NEW cells and every EXTEND.
    fn refresh_ring(&mut self) {
        let geo = &*self.geo;
        let empty = self.ring_empty;
        // NEW
        self.ring.new_colour = if self.present == 0x1f { 0 } else { (!self.present).trailing_zeros() as u8 + 1 };
        self.ring.new_mask = if self.ring.new_colour == 0 || empty == 0 {
            0
        } else {
            let preferred = match self.placement {
                Placement::Side => {
                    let occupied = geo.full & !empty;
                    geo.side_masks.iter().filter(|&&s| s & occupied == 0).fold(0, |a, &s| a | s) & empty
                }
                Placement::Gap => {
                    let neutrals = geo.full & !empty;
                    if neutrals == 0 {
                        empty
                    } else {
                        let mut near = 0;
                        for d in 1..=GAP_MIN {
                            near |= geo.cw(neutrals, d) | geo.ccw(neutrals, d);
                        }
                        empty & !near
                    }
                }
            };
            if preferred != 0 {
                preferred
            } else {
                empty
            }
        };
        self.ring.num_new = self.ring.new_mask.count_ones();
        // EXTEND. Two colours: each stone next to its own block. One colour:
        // both stones within two steps of the block, and the block stays an arc.
        // Every empty cell has two ring neighbours, so it is next to at most
        // two blocks: `twice` holds the cells next to two of them.
        let (mut all, mut twice, mut sum, mut sum_sq) = (0u64, 0u64, 0u32, 0u32);
        for k in 1..=NUM_COLOURS {
            if self.present >> (k - 1) & 1 != 0 {
                self.ring.adj[k] = geo.around(self.colour_ring[k]) & empty;
                self.ring.near[k] = (self.ring.adj[k] | geo.around(self.ring.adj[k])) & empty;
            } else {
                self.ring.adj[k] = 0;
                self.ring.near[k] = 0;
            }
            let c = self.ring.adj[k].count_ones();
            sum += c;
            sum_sq += c * c;
            twice |= all & self.ring.adj[k];
            all |= self.ring.adj[k];
        }
        // EXTENDs with two colours: one stone next to each block, on two cells.
        let mut num_extends = (sum * sum - sum_sq) / 2 - twice.count_ones();
        let mut num_first = 0;
        for k in 1..=NUM_COLOURS {
            self.ring.first[k] = 0;
            if self.ring.adj[k] == 0 {
                continue;
            }
            // cells next to another colour's block
            let others = all & (!self.ring.adj[k] | twice);
            let block = self.colour_ring[k];
            let mut a = self.ring.near[k];
            while a != 0 {
                let p = a.trailing_zeros();
                a &= a - 1;
                let later = geo.later[p as usize];
                let mut starts = self.ring.adj[k] >> p & 1 != 0 && others & later & !(1u64 << p) != 0;
                // EXTENDs with one colour, checked as an arc
                let mut b = self.ring.near[k] & later;
                while b != 0 {
                    let q = b.trailing_zeros();
                    b &= b - 1;
                    if geo.is_arc(block | 1u64 << p | 1u64 << q) {
                        starts = true;
                        num_extends += 1;
                    }
                }
                if starts {
                    self.ring.first[k] |= 1u64 << p;
                    num_first += 1;
                }
            }
        }
        self.ring.num_first = num_first;
        self.ring.num_extends = num_extends;
        let mut cells = CellSet::default();
        let mut any = self.ring.first.iter().fold(self.ring.new_mask, |a, &m| a | m);
        while any != 0 {
            let p = any.trailing_zeros();
            any &= any - 1;
            cells.insert(geo.cell_at(p));
        }
        self.ring.neutral_cells = cells;
    }

    /// The second halves of the EXTENDs starting with neutral `(cell, k)`,
    /// from the ring as it was at the start of the turn.
    fn completions(&self, first: Neutral, out: &mut SmallVec<[Neutral; 32]>) {
        let geo = &*self.geo;
        let (cell, k) = (first.0 as usize, first.1 as usize);
        let p = geo.pos_of(cell);
        let bit = 1u64 << p;
        let later = geo.later[p as usize];
        if self.ring.adj[k] & bit != 0 {
            for k2 in 1..=NUM_COLOURS {
                if k2 != k {
                    let mut b = self.ring.adj[k2] & later & !bit;
                    while b != 0 {
                        let q = b.trailing_zeros();
                        b &= b - 1;
                        out.push((geo.cell_at(q) as u16, k2 as u8));
                    }
                }
            }
        }
        // the block without the first half, should it already be placed
        let block = self.colour_ring[k] & !bit;
        let mut b = self.ring.near[k] & later;
        while b != 0 {
            let q = b.trailing_zeros();
            b &= b - 1;
            if geo.is_arc(block | bit | 1u64 << q) {
                out.push((geo.cell_at(q) as u16, k as u8));
            }
        }
        out.sort_unstable();
    }

    /// Whether neutral `(cell, k)` completes the EXTEND begun with `first`
    /// (membership in `completions`, without listing them).
    fn completes(&self, first: Neutral, cell: usize, k: u8) -> bool {
        let geo = &*self.geo;
        if !geo.is_ring(cell) {
            return false;
        }
        let (p, q) = (geo.pos_of(first.0 as usize), geo.pos_of(cell));
        let (bit, qbit) = (1u64 << p, 1u64 << q);
        if geo.later[p as usize] & qbit == 0 {
            return false;
        }
        let k1 = first.1 as usize;
        if k as usize != k1 {
            self.ring.adj[k1] & bit != 0 && self.ring.adj[k as usize] & qbit != 0
        } else {
            self.ring.near[k1] & qbit != 0 && geo.is_arc(self.colour_ring[k1] | bit | qbit)
        }
    }

    /// Whether two neutrals (on empty ring cells, of colours on the board)
    /// make a legal EXTEND.
    fn extend_ok(&self, a: Neutral, b: Neutral) -> bool {
        let geo = &*self.geo;
        let (pa, pb) = (1u64 << geo.pos_of(a.0 as usize), 1u64 << geo.pos_of(b.0 as usize));
        if a.1 == b.1 {
            geo.is_arc(self.colour_ring[a.1 as usize] | pa | pb)
        } else {
            self.ring.adj[a.1 as usize] & pa != 0 && self.ring.adj[b.1 as usize] & pb != 0
        }
    }

    /// After a move by `mover`: the win test, then the draw test.
    fn settle(&mut self, mover: u8) {
        let other = 3 - mover;
        if self.qualifies(mover) {
            self.over = true;
            self.winners = 1 << (mover - 1);
        } else if self.qualifies(other) {
            self.over = true;
            self.winners = 1 << (other - 1);
        } else if self.num_interior_empty == 0 && self.ring.new_mask == 0 && self.ring.num_extends == 0 {
            // a draw: every seat is a winner (the one rule of `Game::winner_mask`)
            self.over = true;
            self.winners = 0b11;
        } else {
            self.over = false;
            self.winners = 0;
        }
    }

    fn end_turn(&mut self, mover: u8, ring_changed: bool) {
        self.ply += 1;
        self.to_move = 3 - mover;
        if ring_changed {
            self.refresh_ring();
        }
        self.settle(mover);
    }

    fn do_swap(&mut self) {
        let cell = self.swap_cell.take().expect("swap needs Black's first stone") as usize;
        // Black's first stone is the only stone, and no neutral is on the
        // board yet: it becomes a White group of one touching no colour.
        debug_assert_eq!(self.present, 0);
        self.groups.unplace(cell);
        self.groups.place_alone(cell, 2);
        self.cells[cell] = 2;
        self.hash ^= zobrist::piece(cell, 1) ^ zobrist::piece(cell, 2);
        self.ply += 1;
        self.to_move = 1;
        self.settle(2);
    }

    fn decode(&self, a: Action) -> Decoded {
        let n = self.geo.board.num_cells();
        let a = a as usize;
        if a == KINDS * n {
            Decoded::Swap
        } else if a.is_multiple_of(KINDS) {
            Decoded::Stone(a / KINDS)
        } else {
            Decoded::Neutral(a / KINDS, (a % KINDS) as u8)
        }
    }

    #[inline]
    fn swap_action(&self) -> Action {
        (KINDS * self.geo.board.num_cells()) as Action
    }

    #[inline]
    fn neutral_action(s: Neutral) -> Action {
        (s.0 as usize * KINDS + s.1 as usize) as Action
    }

    #[cfg(test)]
    pub(crate) fn flags_hash(&self) -> u64 {
        self.full_hash() ^ self.hash
    }

    #[inline]
    fn full_hash(&self) -> u64 {
        let mut h = self.hash ^ zobrist::flag(Kind::QuintunToMove, self.to_move as u64);
        if self.swap_cell.is_some() {
            h ^= zobrist::flag(Kind::QuintunSwap, 1);
        }
        if let Some(s) = self.pending {
            h ^= zobrist::flag(Kind::QuintunPending, Quintun::neutral_action(s) as u64);
        }
        h
    }

    fn apply(&mut self, a: Action) {
        match self.decode(a) {
            Decoded::Swap => self.do_swap(),
            Decoded::Stone(c) => self.stone_move(c),
            Decoded::Neutral(c, k) => {
                self.neutral_move(c, k, false);
            }
        }
    }

    #[inline]
    fn stone_move(&mut self, c: usize) {
        let mover = self.to_move;
        self.put_stone(c, mover);
        self.swap_cell = (self.swap && self.from_start && self.ply == 0).then_some(c as u16);
        self.end_turn(mover, false);
    }

    /// A NEW move or half an EXTEND. With `log`, what undo needs goes on the
    /// logs: returns the number of mask log entries and whether the ring
    /// tables were logged.
    #[inline]
    fn neutral_move(&mut self, c: usize, k: u8, log: bool) -> (u8, bool) {
        let mover = self.to_move;
        let was_present = self.present >> (k - 1) & 1 != 0;
        let masks = self.put_neutral(c, k, log);
        self.swap_cell = None;
        if was_present && self.pending.is_none() {
            self.pending = Some((c as u16, k));
            return (masks, false);
        }
        self.pending = None;
        if log {
            let t = self.ring;
            self.ring_log.push(t);
        }
        self.end_turn(mover, true);
        (masks, log)
    }
}

#[derive(Debug, Clone, Copy)]
enum Decoded {
    Stone(usize),
    Neutral(usize, u8),
    Swap,
}

/// Undo record: the action and the small values it changed. Ring tables
/// and group colour sets go on the game's logs (`ring` and `masks` say
/// how many entries this action put there).
#[derive(Debug, Clone, Copy)]
pub struct QuintunUndo {
    action: Action,
    hash: u64,
    ply: u32,
    n3: [u16; 2],
    n4: [u16; 2],
    /// Where a STONE's cell stood in the free list.
    free_index: u16,
    swap_cell: Option<u16>,
    pending: Option<Neutral>,
    to_move: u8,
    over: bool,
    winners: WinnerMask,
    masks: u8,
    ring: bool,
}

impl Game for Quintun {
    type Undo = QuintunUndo;
    const NAME: &'static str = "quintun";

    fn board(&self) -> &Board {
        &self.geo.board
    }

    fn spec(&self) -> String {
        let mut s = format!("quintun(size={}", self.geo.n);
        if self.placement != Placement::Side {
            let _ = write!(s, ",placement={}", self.placement.name());
        }
        if !self.swap {
            s.push_str(",swap=false");
        }
        s.push(')');
        s
    }

    fn num_players(&self) -> usize {
        2
    }

    fn num_actions(&self) -> usize {
        KINDS * self.geo.board.num_cells() + 1
    }

    fn to_move(&self) -> usize {
        self.to_move as usize
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn winner_mask(&self) -> WinnerMask {
        self.winners
    }

    fn zobrist(&self) -> u64 {
        self.full_hash()
    }

    fn cell_value(&self, cell: usize) -> i8 {
        self.cells[cell]
    }

    fn mid_turn(&self) -> bool {
        self.pending.is_some()
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        if let Some(first) = self.pending {
            let mut v = SmallVec::new();
            self.completions(first, &mut v);
            out.extend(v.into_iter().map(Quintun::neutral_action));
            return;
        }
        if self.over {
            return;
        }
        // In increasing action order (OpenSpiel expects it), a word of
        // cells at a time: the empty Interior cells and the Ring cells that
        // have neutral actions (each colour's in turn). The count is known,
        // so the actions are written into place.
        let geo = &*self.geo;
        let mut by_kind = self.ring.first;
        by_kind[self.ring.new_colour as usize] |= self.ring.new_mask;
        let swap = self.swap_available();
        let total = (self.num_interior_empty + self.ring.num_new + self.ring.num_first) as usize + swap as usize;
        let start = out.len();
        out.resize(start + total, 0);
        let dst = &mut out[start..];
        let mut i = 0;
        for (wi, (&inner, &edge)) in self.interior_empty.0.iter().zip(&self.ring.neutral_cells.0).enumerate() {
            let mut w = inner | edge;
            while w != 0 {
                let t = w.trailing_zeros();
                w &= w - 1;
                let c = wi * 64 + t as usize;
                if edge >> t & 1 == 0 {
                    dst[i] = (c * KINDS) as Action;
                    i += 1;
                } else {
                    let bit = 1u64 << geo.pos_of(c);
                    for (k, &m) in by_kind.iter().enumerate().skip(1) {
                        if m & bit != 0 {
                            dst[i] = (c * KINDS + k) as Action;
                            i += 1;
                        }
                    }
                }
            }
        }
        if swap {
            dst[i] = self.swap_action();
            i += 1;
        }
        debug_assert_eq!(i, total, "legal actions miscounted");
    }

    fn is_legal_action(&self, action: Action) -> bool {
        if action as usize >= self.num_actions() {
            return false;
        }
        if let Some(first) = self.pending {
            return match self.decode(action) {
                Decoded::Neutral(c, k) => self.completes(first, c, k),
                _ => false,
            };
        }
        if self.over {
            return false;
        }
        match self.decode(action) {
            Decoded::Swap => self.swap_available(),
            Decoded::Stone(c) => self.interior_empty.contains(c),
            Decoded::Neutral(c, k) => {
                if k == self.ring.new_colour {
                    self.geo.is_ring(c) && self.ring.new_mask >> self.geo.pos_of(c) & 1 != 0
                } else {
                    self.geo.is_ring(c) && self.ring.first[k as usize] >> self.geo.pos_of(c) & 1 != 0
                }
            }
        }
    }

    fn apply_action(&mut self, action: Action) {
        self.apply(action);
    }

    fn apply_action_undoable(&mut self, action: Action) -> QuintunUndo {
        let mut u = QuintunUndo {
            action,
            hash: self.hash,
            ply: self.ply,
            n3: self.n3,
            n4: self.n4,
            free_index: 0,
            swap_cell: self.swap_cell,
            pending: self.pending,
            to_move: self.to_move,
            over: self.over,
            winners: self.winners,
            masks: 0,
            ring: false,
        };
        match self.decode(action) {
            Decoded::Swap => self.do_swap(),
            Decoded::Stone(c) => {
                u.free_index = self.free_at[c];
                self.stone_move(c);
            }
            Decoded::Neutral(c, k) => (u.masks, u.ring) = self.neutral_move(c, k, true),
        }
        u
    }

    /// Undoes an action in place, from the record and the logs.
    fn undo_action(&mut self, u: QuintunUndo) {
        match self.decode(u.action) {
            Decoded::Swap => {
                let cell = u.swap_cell.expect("a swap had Black's first stone") as usize;
                self.groups.unplace(cell);
                self.groups.place_alone(cell, 1);
                self.cells[cell] = 1;
            }
            Decoded::Stone(c) => {
                self.groups.unplace(c);
                self.cells[c] = 0;
                self.interior_empty.insert(c);
                self.num_interior_empty += 1;
                // put back into the free list where it stood
                let i = u.free_index as usize;
                if i < self.free.len() {
                    let moved = self.free[i];
                    self.free_at[moved as usize] = self.free.len() as u16;
                    self.free.push(moved);
                    self.free[i] = c as u16;
                } else {
                    self.free.push(c as u16);
                }
                self.free_at[c] = i as u16;
            }
            Decoded::Neutral(c, k) => {
                if u.ring {
                    let t = self.ring_log.pop().expect("ring log entry");
                    self.ring = t;
                }
                for _ in 0..u.masks {
                    let (r, m) = self.mask_log.pop().expect("mask log entry");
                    self.groups.set_root_mask(r as usize, m);
                }
                let bit = 1u64 << self.geo.pos_of(c);
                self.cells[c] = 0;
                self.ring_empty |= bit;
                self.colour_ring[k as usize] &= !bit;
                if self.colour_ring[k as usize] == 0 {
                    self.present &= !(1 << (k - 1));
                }
            }
        }
        self.hash = u.hash;
        self.ply = u.ply;
        self.n3 = u.n3;
        self.n4 = u.n4;
        self.swap_cell = u.swap_cell;
        self.pending = u.pending;
        self.to_move = u.to_move;
        self.over = u.over;
        self.winners = u.winners;
    }

    fn cheap_undo(&self) -> bool {
        true
    }

    fn action_to_string(&self, action: Action) -> String {
        match self.decode(action) {
            Decoded::Swap => "swap".to_string(),
            Decoded::Stone(c) => self.geo.label(c).to_string(),
            Decoded::Neutral(c, k) => self.format_neutral((c as u16, k)),
        }
    }

    fn single_action_turns(&self) -> bool {
        self.pending.is_none() && self.ring.num_extends == 0
    }

    fn random_action<R: Rng>(&self, rng: &mut R, _buf: &mut Vec<Action>) -> Option<Action> {
        if let Some(first) = self.pending {
            let mut v = SmallVec::new();
            self.completions(first, &mut v);
            return Some(Quintun::neutral_action(v[below(rng, v.len())]));
        }
        if self.over {
            return None;
        }
        let stones = self.num_interior_empty as usize;
        let news = self.ring.num_new as usize;
        let exts = self.ring.num_first as usize;
        let total = stones + news + exts + self.swap_available() as usize;
        if total == 0 {
            return None;
        }
        let mut i = below(rng, total);
        if i < stones {
            return Some((self.free[i] as usize * KINDS) as Action);
        }
        i -= stones;
        if i < news {
            let cell = self.geo.cell_at(select64(self.ring.new_mask, i as u32));
            return Some(Quintun::neutral_action((cell as u16, self.ring.new_colour)));
        }
        i -= news;
        if i < exts {
            for k in 1..=NUM_COLOURS {
                let c = self.ring.first[k].count_ones() as usize;
                if i < c {
                    let p = select64(self.ring.first[k], i as u32);
                    return Some(Quintun::neutral_action((self.geo.cell_at(p) as u16, k as u8)));
                }
                i -= c;
            }
            unreachable!("first halves counted");
        }
        Some(self.swap_action())
    }

    fn legal_moves(&self, _limit: u128, out: &mut Vec<MoveActions>) -> Result<(), u128> {
        if self.over || self.pending.is_some() {
            return Ok(());
        }
        out.extend(self.interior_empty.iter().map(|c| -> MoveActions { smallvec![(c * KINDS) as Action] }));
        let mut m = self.ring.new_mask;
        while m != 0 {
            let p = m.trailing_zeros();
            m &= m - 1;
            out.push(smallvec![Quintun::neutral_action((self.geo.cell_at(p) as u16, self.ring.new_colour))]);
        }
        let mut v = SmallVec::new();
        for k in 1..=NUM_COLOURS {
            let mut m = self.ring.first[k];
            while m != 0 {
                let p = m.trailing_zeros();
                m &= m - 1;
                let first = (self.geo.cell_at(p) as u16, k as u8);
                v.clear();
                self.completions(first, &mut v);
                for &second in &v {
                    out.push(smallvec![Quintun::neutral_action(first), Quintun::neutral_action(second)]);
                }
            }
        }
        if self.swap_available() {
            out.push(smallvec![self.swap_action()]);
        }
        Ok(())
    }

    fn count_moves(&self) -> u128 {
        let (a, b, c, d) = self.count_by_kind();
        (a + b + c + d) as u128
    }

    fn parse_move(&self, text: &str) -> Result<MoveActions, MoveError> {
        if self.over {
            return Err(MoveError::new(crate::game::Reason::GameOver, "the game is over"));
        }
        let mv = self.read_move(text)?;
        // The record's swap: White's first move repeating Black's first cell.
        if let (Parsed::Stone(c), Some(s)) = (mv, self.swap_cell) {
            if c == s as usize && self.swap_available() {
                return Ok(smallvec![self.swap_action()]);
            }
        }
        self.check(&mv)
    }

    fn format_move(&self, actions: &[Action]) -> String {
        match actions {
            [a] => self.action_to_string(*a),
            [a, b] => match (self.decode(*a), self.decode(*b)) {
                (Decoded::Neutral(c1, k1), Decoded::Neutral(c2, k2)) => self.format_extend((c1 as u16, k1), (c2 as u16, k2)),
                _ => format!("{},{}", self.action_to_string(*a), self.action_to_string(*b)),
            },
            _ => actions.iter().map(|&a| self.action_to_string(a)).collect::<Vec<_>>().join(","),
        }
    }

    fn observation_shape(&self) -> [usize; 3] {
        let (h, w) = self.geo.board.grid_shape();
        [11, h, w]
    }

    /// Planes: the mover's stones, the opponent's, neutral colours A..E (5),
    /// Ring cells, cells on the board, the pending EXTEND stone, and a
    /// constant plane equal to 1 when White is to move.
    fn observation(&self, out: &mut [f32]) {
        let (h, w) = self.geo.board.grid_shape();
        let plane = h * w;
        out.iter_mut().for_each(|x| *x = 0.0);
        let white = (self.to_move == 2) as u8 as f32;
        for p in 0..plane {
            out[10 * plane + p] = white;
        }
        for cell in 0..self.cells.len() {
            let (r, c) = self.geo.board.grid_pos(cell);
            let i = r * w + c;
            let v = self.cells[cell];
            if v == self.to_move as i8 {
                out[i] = 1.0;
            } else if v > 0 {
                out[plane + i] = 1.0;
            } else if v < 0 {
                out[(1 + (-v) as usize) * plane + i] = 1.0;
            }
            if self.geo.is_ring(cell) {
                out[7 * plane + i] = 1.0;
            }
            out[8 * plane + i] = 1.0;
        }
        if let Some((c, _)) = self.pending {
            let (r, col) = self.geo.board.grid_pos(c as usize);
            out[9 * plane + r * w + col] = 1.0;
        }
    }

    /// The sample game's picture: `o` Black, `x` White, letters for neutrals,
    /// `,` empty Ring, `.` empty Interior; column names above and below,
    /// row numbers on the right.
    fn diagram(&self) -> String {
        let geo = &*self.geo;
        let width = geo.num_columns;
        let names: Vec<String> = (0..width).map(column_name).collect();
        let deep = names.iter().map(|s| s.len()).max().unwrap_or(1);
        let header: Vec<String> = (0..deep)
            .map(|k| {
                names
                    .iter()
                    .map(|s| {
                        let pad = deep - s.len();
                        if k < pad {
                            ' '
                        } else {
                            s.as_bytes()[k - pad] as char
                        }
                    })
                    .collect()
            })
            .collect();
        let rows = 2 * geo.n - 1;
        let mut grid = vec![vec![' '; width]; rows];
        for cell in 0..self.cells.len() {
            let (x, r) = geo.record_xy(cell);
            let v = self.cells[cell];
            grid[r - 1][x] = match v {
                1 => 'o',
                2 => 'x',
                0 if geo.is_ring(cell) => ',',
                0 => '.',
                _ => LETTERS[(-v) as usize - 1],
            };
        }
        let mut lines: Vec<String> = header.clone();
        for (k, line) in grid.iter().enumerate() {
            lines.push(format!("{}  {}", line.iter().collect::<String>(), k + 1));
        }
        lines.extend(header);
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn play(g: &mut Quintun, mv: &str) {
        let acts = g.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {}", e.message));
        g.play_move(&acts);
    }

    fn reason(g: &Quintun, mv: &str) -> &'static str {
        g.parse_move(mv).expect_err(mv).reason.code()
    }

    fn moves(g: &Quintun) -> Vec<String> {
        let mut v = Vec::new();
        g.legal_moves(u128::MAX, &mut v).unwrap();
        v.iter().map(|m| g.format_move(m)).collect()
    }

    const SAMPLE: &str = "j4 j4 m5 j6 m7 p8 m9 p10 m11 Ai1 i3 k3 j2 l2 Bf2 h4 p4 s7 p12 s5 s11 s3 p2 Cb8 j8 g7 g9 Dt2 Akm1";

    #[test]
    fn sample_game() {
        let mut g = Quintun::new(7, Placement::Side, true).unwrap();
        let mut history = Vec::new();
        for mv in SAMPLE.split_whitespace() {
            let acts = g.parse_move(mv).unwrap();
            history.push(g.format_move(&acts));
            g.play_move(&acts);
            assert_eq!(g.qualified(), (false, false));
        }
        assert_eq!(history[1], "swap");
        assert_eq!(history.last().unwrap(), "Akm1");
        assert!(!g.is_over());
        assert_eq!(g.to_move(), 2);
        let d = g.diagram();
        assert_eq!(d.lines().nth(1).unwrap(), "      , A A A , , ,        1");
        assert_eq!(d.lines().nth(8).unwrap(), " C . . . o . . x . . . ,   8");
        // move 8 Bf2 is illegal under the gap rule
        let mut g = Quintun::new(7, Placement::Gap, true).unwrap();
        for mv in SAMPLE.split_whitespace().take(14) {
            play(&mut g, mv);
        }
        assert_eq!(reason(&g, "Bf2"), "placement_gap");
    }

    #[test]
    fn counts_by_kind() {
        let mut g = Quintun::new(7, Placement::Side, true).unwrap();
        assert_eq!(g.count_by_kind(), (91, 36, 0, 0));
        play(&mut g, "Am1");
        assert_eq!(g.count_by_kind(), (91, 31, 3, 0));
        play(&mut g, "Bw5");
        assert_eq!(g.count_by_kind(), (91, 25, 10, 0));
        let mut g = Quintun::new(7, Placement::Side, true).unwrap();
        play(&mut g, "f6");
        assert_eq!(g.count_by_kind(), (90, 36, 0, 1));
    }

    #[test]
    fn rejection_reasons() {
        let mut g = Quintun::new(7, Placement::Side, true).unwrap();
        for (mv, why) in [
            ("g1", "stone_on_ring"),
            ("Aj4", "neutral_in_interior"),
            ("z4", "unknown_cell"),
            ("j5", "unknown_cell"),
            ("j0", "syntax"),
            ("Bi1", "wrong_new_colour"),
            ("Fi1", "bad_colour"),
            ("", "syntax"),
            ("é", "syntax"),
            ("swap", "swap_not_allowed"),
            ("Aik1", "extend_absent_colour"),
            ("Akk1", "extend_same_cell"),
        ] {
            assert_eq!(reason(&g, mv), why, "{mv}");
        }
        play(&mut g, "j4");
        play(&mut g, "j4");
        play(&mut g, "Ai1");
        for (mv, why) in [
            ("Ai1", "occupied"),
            ("Ak1", "wrong_new_colour"),
            ("Bk1", "placement_side"),
            ("Ao1,Aq1", "extend_splits_colour"),
            ("Ak1,Bm1", "extend_absent_colour"),
            ("Ak1,Aj4", "neutral_in_interior"),
            ("Ai1,Ak1,Am1", "syntax"),
        ] {
            assert_eq!(reason(&g, mv), why, "{mv}");
        }
        let acts = g.parse_move("Ak1 , Ag1").unwrap();
        assert_eq!(g.format_move(&acts), "Agk1");
    }

    #[test]
    fn draw_when_no_move_is_left() {
        let geo = Arc::new(QuintunBoard::new(4).unwrap());
        let n = geo.board.num_cells();
        let mut cells = vec![0i8; n];
        let interior: Vec<usize> = (0..n).filter(|&c| !geo.is_ring(c)).collect();
        for c in 0..n {
            if geo.is_ring(c) {
                cells[c] = -1;
            }
        }
        for (i, &c) in interior[..interior.len() - 1].iter().enumerate() {
            cells[c] = 1 + (i % 2) as i8;
        }
        let mut g = Quintun::from_cells(geo.clone(), Placement::Side, true, &cells, 1).unwrap();
        assert_eq!(g.count_moves(), 1);
        g.apply_action((interior[interior.len() - 1] * KINDS) as Action);
        assert!(g.is_over());
        assert_eq!(g.winner_mask(), 0b11, "a draw: every seat is a winner");
    }

    /// Random games: tables kept incrementally equal a fresh set-up from the
    /// cells, every legal action completes, undo restores, move and action
    /// perft agree.
    #[test]
    fn incremental_state_matches_rebuild() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut buf = Vec::new();
        for &(size, placement) in &[(4, Placement::Side), (5, Placement::Gap), (7, Placement::Side), (10, Placement::Gap)] {
            for _ in 0..20 {
                let mut g = Quintun::new(size, placement, true).unwrap();
                while let Some(a) = g.random_action(&mut rng, &mut buf) {
                    let before = g.clone();
                    let u = g.apply_action_undoable(a);
                    if !g.mid_turn() && g.ply > 1 {
                        let fresh = Quintun::from_cells(g.geo.clone(), placement, true, &g.cells, g.to_move).unwrap();
                        assert_eq!(fresh.n3, g.n3);
                        assert_eq!(fresh.n4, g.n4);
                        assert_eq!(fresh.ring.first, g.ring.first);
                        assert_eq!(fresh.ring.num_extends, g.ring.num_extends);
                        assert_eq!(fresh.ring.new_mask, g.ring.new_mask);
                        assert_eq!(fresh.over, g.over);
                        assert_eq!(fresh.hash, g.hash);
                        if !g.over {
                            assert_eq!(fresh.winners, g.winners);
                        }
                    }
                    let mut back = Quintun::new(4, Placement::Gap, false).unwrap();
                    back.clone_from(&g);
                    assert_eq!(back.zobrist(), g.zobrist());
                    assert_eq!(back.count_moves(), g.count_moves());
                    back.undo_action(u);
                    assert_eq!(back.zobrist(), before.zobrist());
                    assert_eq!(back.cells, before.cells);
                }
            }
        }
    }

    /// Every field of the state but the shared geometry, as text (the
    /// groups in full, stale slots included).
    fn state_text(g: &Quintun) -> String {
        format!(
            "{:?}",
            (
                (g.placement, g.swap, &g.cells, &g.groups, g.n3, g.n4, g.ring_empty, g.colour_ring, g.present),
                (g.interior_empty, g.num_interior_empty, &g.free, &g.free_at, g.to_move, g.ply, g.swap_cell),
                (g.from_start, g.pending, g.over, g.winners, g.hash, g.ring, &g.ring_log, &g.mask_log),
            )
        )
    }

    /// The Zobrist hash straight from the cells and flags.
    fn fresh_hash(g: &Quintun) -> u64 {
        let mut h = zobrist::flag(Kind::QuintunToMove, g.to_move as u64);
        for (c, &v) in g.cells.iter().enumerate() {
            if v > 0 {
                h ^= zobrist::piece(c, v as u64);
            } else if v < 0 {
                h ^= zobrist::piece(c, 2 + (-v) as u64);
            }
        }
        if g.swap_available() {
            h ^= zobrist::flag(Kind::QuintunSwap, 1);
        }
        if let Some((c, k)) = g.pending {
            h ^= zobrist::flag(Kind::QuintunPending, (c as usize * KINDS + k as usize) as u64);
        }
        h
    }

    /// Random walks that apply and undo random actions: undo restores the
    /// state exactly (the whole state, legal actions and counts included),
    /// the hash always equals a fresh recomputation, and `is_legal_action`
    /// agrees with `legal_actions` on every action id at every ply.
    #[test]
    fn undo_restores_state_and_legality_agrees() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
        let (mut undone, mut merges, mut ring_undos, mut swaps) = (0usize, 0usize, 0usize, 0usize);
        for size in MIN_SIZE..=7 {
            for placement in [Placement::Side, Placement::Gap] {
                for swap in [true, false] {
                    for game in 0..12 {
                        let start = Quintun::new(size, placement, swap).unwrap();
                        let mut g = start.clone();
                        // (record, state text, legal actions, move count) before each action
                        let mut stack: Vec<(QuintunUndo, String, Vec<Action>, u128)> = Vec::new();
                        let mut steps = 0;
                        loop {
                            let mut legal = Vec::new();
                            g.legal_actions(&mut legal);
                            assert!(legal.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
                            assert_eq!(g.zobrist(), fresh_hash(&g));
                            let mut is_legal = vec![false; g.num_actions() + 7];
                            for &a in &legal {
                                is_legal[a as usize] = true;
                            }
                            for (a, &want) in is_legal.iter().enumerate() {
                                assert_eq!(g.is_legal_action(a as Action), want, "action {a}\n{}", g.diagram());
                            }
                            if !g.mid_turn() {
                                let mut mv = Vec::new();
                                g.legal_moves(u128::MAX, &mut mv).unwrap();
                                assert_eq!(mv.len() as u128, g.count_moves());
                            }
                            steps += 1;
                            // undo now and then (more often late, to unwind merges and EXTENDs)
                            let back = !stack.is_empty() && (legal.is_empty() || rng.random_bool(if game % 2 == 0 { 0.3 } else { 0.1 }));
                            if back {
                                let (u, text, legal_before, count) = stack.pop().unwrap();
                                let is_stone = u.action % KINDS as Action == 0 && (u.action as usize) < KINDS * g.cells.len();
                                merges += (is_stone && g.groups.root(u.action as usize / KINDS) != Some(u.action as usize / KINDS)) as usize;
                                ring_undos += u.ring as usize;
                                swaps += (u.action as usize == KINDS * g.cells.len()) as usize;
                                g.undo_action(u);
                                undone += 1;
                                assert_eq!(state_text(&g), text);
                                let mut again = Vec::new();
                                g.legal_actions(&mut again);
                                assert_eq!(again, legal_before);
                                assert_eq!(g.count_moves(), count);
                            } else if legal.is_empty() || steps > 400 {
                                break;
                            } else {
                                let mut a = legal[below(&mut rng, legal.len())];
                                if g.swap_available() && rng.random_bool(0.5) {
                                    a = g.swap_action();
                                }
                                let text = state_text(&g);
                                let count = g.count_moves();
                                let u = g.apply_action_undoable(a);
                                stack.push((u, text, legal, count));
                            }
                        }
                        while let Some((u, text, _, _)) = stack.pop() {
                            g.undo_action(u);
                            assert_eq!(state_text(&g), text);
                        }
                        assert_eq!(state_text(&g), state_text(&start));
                    }
                }
            }
        }
        assert!(undone > 5000 && merges > 200 && ring_undos > 500 && swaps > 5, "{undone} {merges} {ring_undos} {swaps}");
    }

    /// Every neutral colour one block, by flood fill over the board.
    fn blocks_ok(geo: &QuintunBoard, cells: &[i8]) -> bool {
        (1..=5i8).all(|k| {
            let members: Vec<usize> = (0..cells.len()).filter(|&c| cells[c] == -k).collect();
            if members.is_empty() {
                return true;
            }
            let mut seen = vec![members[0]];
            let mut stack = vec![members[0]];
            while let Some(c) = stack.pop() {
                for &d in geo.board.neighbors(c) {
                    let d = d as usize;
                    if cells[d] == -k && !seen.contains(&d) {
                        seen.push(d);
                        stack.push(d);
                    }
                }
            }
            seen.len() == members.len()
        })
    }

    /// NEW cells and EXTENDs straight from the card, by brute force.
    fn brute_neutral_moves(g: &Quintun) -> Vec<String> {
        let geo = &*g.geo;
        let ring = geo.ring();
        let len = ring.len();
        let empty: Vec<usize> = ring.iter().map(|&c| c as usize).filter(|&c| g.cells[c] == 0).collect();
        let present: Vec<u8> = (1..=5u8).filter(|&k| g.cells.contains(&-(k as i8))).collect();
        let mut out = Vec::new();
        if let Some(new) = (1..=5u8).find(|k| !present.contains(k)) {
            let preferred: Vec<usize> = match g.placement {
                Placement::Side => empty
                    .iter()
                    .copied()
                    .filter(|&c| geo.board.sides().iter().any(|side| side.contains(&(c as u16)) && side.iter().all(|&d| g.cells[d as usize] == 0)))
                    .collect(),
                Placement::Gap => empty
                    .iter()
                    .copied()
                    .filter(|&c| {
                        let p = ring.iter().position(|&d| d as usize == c).unwrap();
                        [1, len - 1].iter().all(|&step| {
                            for (run, j) in (1..len).enumerate() {
                                if g.cells[ring[(p + step * j) % len] as usize] != 0 {
                                    return run as u32 >= GAP_MIN;
                                }
                            }
                            true
                        })
                    })
                    .collect(),
            };
            let cells = if preferred.is_empty() { &empty } else { &preferred };
            out.extend(cells.iter().map(|&c| g.format_neutral((c as u16, new))));
        }
        for (i, &a) in empty.iter().enumerate() {
            for &b in &empty[i + 1..] {
                for &ka in &present {
                    for &kb in &present {
                        let mut cells = g.cells.clone();
                        cells[a] = -(ka as i8);
                        cells[b] = -(kb as i8);
                        if blocks_ok(geo, &cells) {
                            out.push(g.format_extend((a as u16, ka), (b as u16, kb)));
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn neutral_moves_match_brute_force() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut buf = Vec::new();
        for &(size, placement) in &[(4, Placement::Side), (4, Placement::Gap), (6, Placement::Side), (7, Placement::Gap)] {
            for _ in 0..4 {
                let mut g = Quintun::new(size, placement, true).unwrap();
                let mut k = 0;
                while let Some(a) = g.random_action(&mut rng, &mut buf) {
                    k += 1;
                    if !g.mid_turn() && k % 3 == 0 {
                        let mut fast: Vec<String> = moves(&g).into_iter().filter(|m| m.starts_with(|c: char| c.is_ascii_uppercase())).collect();
                        fast.sort();
                        assert_eq!(fast, brute_neutral_moves(&g), "{}", g.diagram());
                        let (_, new, ext, _) = g.count_by_kind();
                        assert_eq!(new + ext, fast.len());
                    }
                    g.apply_action(a);
                }
            }
        }
    }

    #[test]
    fn perft_units_agree() {
        use crate::perft::{perft, Unit};
        let mut g = Quintun::new(5, Placement::Side, true).unwrap();
        for mv in ["Ae1", "g3", "Bq5", "Ad2,Bp6"] {
            play(&mut g, mv);
        }
        for d in 1..=2 {
            assert_eq!(perft(&g, d, Unit::Move, 1), perft(&g, d, Unit::Action, 1));
        }
        let g = Quintun::new(4, Placement::Gap, true).unwrap();
        assert_eq!(perft(&g, 2, Unit::Move, 1), perft(&g, 2, Unit::Action, 1));
    }

    #[test]
    fn every_legal_move_round_trips() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut buf = Vec::new();
        for size in MIN_SIZE..=MAX_SIZE {
            let mut g = Quintun::new(size, Placement::Side, true).unwrap();
            let mut seen = 0;
            while let Some(a) = g.random_action(&mut rng, &mut buf) {
                if !g.mid_turn() && seen % 5 == 0 {
                    for (text, m) in moves(&g).iter().zip({
                        let mut v = Vec::new();
                        g.legal_moves(u128::MAX, &mut v).unwrap();
                        v
                    }) {
                        assert_eq!(g.parse_move(text).unwrap(), m, "{text}");
                    }
                }
                seen += 1;
                g.apply_action(a);
            }
        }
    }
}
