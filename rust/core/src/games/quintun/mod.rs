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

use std::sync::Arc;

use rand::Rng;
use smallvec::{smallvec, SmallVec};

use crate::bitset::{select64, write_members};
use crate::board::Board;
use crate::game::{Action, Game, MoveActions, MoveError, WinnerMask};
use crate::groups::Groups;
use crate::rng::below;
use crate::zobrist;

/// The side information Quintun hashes besides the stones, each kind with its
/// fixed code in the key ([`zobrist::flag`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The player to move.
    ToMove = 1,
    /// The swap is on offer.
    Swap = 2,
    /// The neutral placed in the turn in progress.
    Pending = 3,
}

mod board;
mod game;
mod notation;
mod observation;
mod options;
mod solver;

/// The names Quintun adds to the crate root.
pub mod public {
    pub use super::{
        column_name as quintun_column_name, record_moves as quintun_record_moves,
        Placement as QuintunPlacement, Quintun, QuintunBoard, QuintunUndo,
        MAX_SIZE as QUINTUN_MAX_SIZE, MIN_SIZE as QUINTUN_MIN_SIZE,
    };
}

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

crate::choice! {
    /// Where a NEW neutral may go.
    pub enum Placement("placement") {
        /// On a side with no stone, if there is one (the default).
        Side = "side",
        /// At least five empty ring cells from the nearest neutral both ways, if possible.
        Gap = "gap",
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
    pub fn new(
        size: usize,
        placement: Placement,
        swap: bool,
    ) -> Result<Quintun, crate::game::OptionsError> {
        let geo = QuintunBoard::shared(size)?;
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
    /// The values and the player to move are checked here as given.
    pub fn from_cells(
        geo: Arc<QuintunBoard>,
        placement: Placement,
        swap: bool,
        cells: &[i8],
        to_move: impl Into<crate::limits::IntArg>,
    ) -> Result<Quintun, crate::game::OptionsError> {
        let to_move = crate::limits::to_move(to_move)?;
        let n = geo.board.num_cells();
        if cells.len() != n {
            return Err(crate::game::OptionsError::new(
                "position",
                format!("expected {n} cells, got {}", cells.len()),
            ));
        }
        let names = <Quintun as crate::facts::Facts>::FACTS.player_names;
        for (c, &v) in cells.iter().enumerate() {
            if !(-5..=2).contains(&v) {
                return Err(crate::game::OptionsError::new(
                    "position",
                    format!(
                        "cell value {v} at {} is not 0 (empty), 1 ({}), 2 ({}) or -1..-5 (neutral A..E)",
                        geo.label(c),
                        names[0],
                        names[1]
                    ),
                ));
            }
            if v > 0 && geo.is_ring(c) {
                return Err(crate::game::OptionsError::new(
                    "position",
                    format!("player stone on ring cell {}", geo.label(c)),
                ));
            }
            if v < 0 && !geo.is_ring(c) {
                return Err(crate::game::OptionsError::new(
                    "position",
                    format!("neutral stone on interior cell {}", geo.label(c)),
                ));
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
                return Err(crate::game::OptionsError::new(
                    "position",
                    format!(
                        "neutral colour {} is split into several blocks",
                        LETTERS[k - 1]
                    ),
                ));
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
        (
            self.num_interior_empty as usize,
            self.ring.num_new as usize,
            self.ring.num_extends as usize,
            self.swap_available() as usize,
        )
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
        self.ring.new_colour = if self.present == 0x1f {
            0
        } else {
            (!self.present).trailing_zeros() as u8 + 1
        };
        self.ring.new_mask = if self.ring.new_colour == 0 || empty == 0 {
            0
        } else {
            let preferred = match self.placement {
                Placement::Side => {
                    let occupied = geo.full & !empty;
                    geo.side_masks
                        .iter()
                        .filter(|&&s| s & occupied == 0)
                        .fold(0, |a, &s| a | s)
                        & empty
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
                let mut starts =
                    self.ring.adj[k] >> p & 1 != 0 && others & later & !(1u64 << p) != 0;
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
        let any = self
            .ring
            .first
            .iter()
            .fold(self.ring.new_mask, |a, &m| a | m);
        self.ring.neutral_cells = geo.cells_at(any);
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
        let (pa, pb) = (
            1u64 << geo.pos_of(a.0 as usize),
            1u64 << geo.pos_of(b.0 as usize),
        );
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
        } else if self.num_interior_empty == 0
            && self.ring.new_mask == 0
            && self.ring.num_extends == 0
        {
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
        let cell = self
            .swap_cell
            .take()
            .expect("swap needs Black's first stone") as usize;
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
        let mut h = self.hash ^ zobrist::flag(Kind::ToMove as u64, self.to_move as u64);
        if self.swap_cell.is_some() {
            h ^= zobrist::flag(Kind::Swap as u64, 1);
        }
        if let Some(s) = self.pending {
            h ^= zobrist::flag(Kind::Pending as u64, Quintun::neutral_action(s) as u64);
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

#[cfg(test)]
mod tests;
