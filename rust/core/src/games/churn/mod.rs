//! Churn (Mark Steere, 2024).
//!
//! Red (1) and Blue (2) alternate placing one stone of their own colour. If
//! some empty cell has no friendly neighbour the stone must go on such a cell;
//! otherwise it must form the smallest possible friendly group. A placement
//! that joins friendly stones removes every friendly group strictly smaller
//! than the group formed. When the board is full at the end of a turn, the
//! player with more stones wins. Pie rule: Blue's first turn may be `swap`.
//!
//! Actions: `cell` (0..N) places a stone, `N` is `swap`.

use std::sync::Arc;

use rand::Rng;
use smallvec::smallvec;

use crate::bitset::{append_members, BitIter, BitSet};
use crate::board::{Board, NO_CELL};
use crate::game::{Action, Game, MoveActions, MoveError, WinnerMask};
use crate::groups::Groups;
use crate::rng::below;
use crate::unchecked::{get, get_mut};
use crate::zobrist;

mod game;
mod observation;
mod options;
mod solver;

/// The names Churn adds to the crate root.
pub mod public {
    pub use super::{Churn, ChurnUndo};
}

/// The side information Churn hashes besides the stones, each kind with its
/// fixed code in the key ([`zobrist::flag`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The swap is on offer.
    Swap = 1,
    /// The player to move.
    ToMove = 2,
}

#[derive(Debug)]
pub struct Churn {
    board: Arc<Board>,
    pie: bool,
    groups: Groups,
    /// `nmask[colour - 1][cell]`: bit j set when the neighbour of `cell` in
    /// cyclic direction j holds `colour`. One spare entry at index `n` takes
    /// the writes for off-board neighbours.
    nmask: [Vec<u8>; 2],
    /// Per colour: empty cells with no neighbour of that colour. Like `empty`,
    /// sized for `n + 1` cells; the sentinel `n` is never a member.
    iso: [BitSet; 2],
    empty: BitSet,
    num_empty: usize,
    to_move: u8,
    ply: u32,
    swap_available: bool,
    over: bool,
    winners: WinnerMask,
    hash: u64,
    /// Cells removed by the undoable moves made so far, oldest first.
    removal_log: Vec<u16>,
}

impl Clone for Churn {
    fn clone(&self) -> Self {
        Churn {
            board: self.board.clone(),
            pie: self.pie,
            groups: self.groups.clone(),
            nmask: self.nmask.clone(),
            iso: self.iso.clone(),
            empty: self.empty.clone(),
            num_empty: self.num_empty,
            to_move: self.to_move,
            ply: self.ply,
            swap_available: self.swap_available,
            over: self.over,
            winners: self.winners,
            hash: self.hash,
            removal_log: self.removal_log.clone(),
        }
    }

    /// Reuses this value's allocations.
    fn clone_from(&mut self, s: &Self) {
        if !Arc::ptr_eq(&self.board, &s.board) {
            self.board = s.board.clone();
        }
        self.pie = s.pie;
        self.groups.clone_from(&s.groups);
        self.nmask[0].clone_from(&s.nmask[0]);
        self.nmask[1].clone_from(&s.nmask[1]);
        self.iso[0].clone_from(&s.iso[0]);
        self.iso[1].clone_from(&s.iso[1]);
        self.empty.clone_from(&s.empty);
        self.num_empty = s.num_empty;
        self.to_move = s.to_move;
        self.ply = s.ply;
        self.swap_available = s.swap_available;
        self.over = s.over;
        self.winners = s.winners;
        self.hash = s.hash;
        self.removal_log.clone_from(&s.removal_log);
    }
}

/// Undo record for one Churn action. The cells a placement removed are
/// kept on the game's removal log (the record holds their number), so
/// records are plain values and a history copies as one block.
#[derive(Debug, Clone, Copy)]
pub struct ChurnUndo {
    action: Action,
    removed: u32,
    swap_available: bool,
}

/// `HEADS[m]`: for a 6-bit mask of friendly neighbour directions, the first
/// direction of each cyclic run of set bits (at most three), padded by
/// repeating the first. Neighbours in one run share a group, so these are
/// the only neighbours whose groups need a look. For `m = 63` (one closed
/// ring) it is direction 0; for `m = 0` it is unused.
static HEADS: [[u8; 3]; 64] = {
    let mut t = [[0u8; 3]; 64];
    let mut m = 1;
    while m < 64 {
        let prev = ((m << 1) | (m >> 5)) & 0x3f;
        let heads = m & !prev;
        let mut out = [0u8; 3];
        let mut k = 0;
        let mut j = 0;
        while j < 6 {
            if heads >> j & 1 != 0 {
                out[k] = j as u8;
                k += 1;
            }
            j += 1;
        }
        while k > 0 && k < 3 {
            out[k] = out[0];
            k += 1;
        }
        t[m] = out;
        m += 1;
    }
    t
};

/// Table bookkeeping for a stone of colour index `k` that left `cell`. When
/// a group goes its cells are lifted one by one (each already marked empty
/// in the groups); a cell's isolation is settled at its own turn or at a
/// later neighbour's.
#[inline(always)]
fn lift(
    board: &Board,
    nmask: &mut [Vec<u8>; 2],
    iso: &mut [BitSet; 2],
    empty: &mut BitSet,
    cell: usize,
    k: usize,
) {
    // Checked: `cell` is a cell, so every index below is at most `n`, which
    // the tables and bit sets (sized `n + 1`) hold.
    let cy = board.cyclic_neighbors_padded(cell);
    // SAFETY: indices are cells or the sentinel `n`; see above.
    unsafe {
        empty.insert_if_unchecked(cell, true);
        iso[0].insert_if_unchecked(cell, get(&nmask[0], cell) == 0);
        iso[1].insert_if_unchecked(cell, get(&nmask[1], cell) == 0);
        let (nmask, iso) = (&mut nmask[k], &mut iso[k]);
        if let [e] = *empty.words() {
            // Boards of up to 63 cells (sentinel included) fit one word:
            // collect the newly isolated neighbours in a register and write
            // them once, rather than reading back each write.
            let mut free = 0u64;
            for (j, &nb) in cy.iter().enumerate() {
                let m = get_mut(nmask, nb as usize);
                *m &= !(1 << ((j + 3) % 6));
                free |= ((*m == 0) as u64 & e >> nb) << nb;
            }
            iso.insert_word_bits_unchecked(0, free);
            return;
        }
        for (j, &nb) in cy.iter().enumerate() {
            let nb = nb as usize;
            let m = get_mut(nmask, nb);
            *m &= !(1 << ((j + 3) % 6));
            let free = (*m == 0) & empty.contains_unchecked(nb);
            iso.insert_if_unchecked(nb, free);
        }
    }
}

/// The roots of the friendly groups next to `cell` (one per run of friendly
/// neighbours, repeats allowed; every touching group is among them), from
/// the raw tables: `nmask` of the mover, the board's padded cyclic
/// neighbours, and the groups. `None` when no neighbour is friendly.
///
/// # Safety
/// `cell` is a cell of the board the tables belong to.
#[inline(always)]
unsafe fn head_roots(
    nmask: &[u8],
    cyt: &[[u16; 6]],
    groups: &Groups,
    cell: usize,
) -> Option<[u16; 3]> {
    // SAFETY: `cell` is a cell of the tables' board (this function's
    // contract); `HEADS` has 64 entries; directions are below 6.
    unsafe {
        let m = get(nmask, cell);
        if m == 0 {
            return None;
        }
        let heads = get(&HEADS, m as usize & 63);
        let cy: &[u16; 6] = cyt.get_unchecked(cell);
        // Head directions hold friendly stones, so these are cells.
        let roots = groups.root_table();
        Some(heads.map(|d| get(roots, get(cy, d as usize) as usize)))
    }
}

/// [`Churn::formed_size`] on the raw tables (see [`head_roots`]).
///
/// # Safety
/// `cell` is a cell of the board the tables belong to.
#[inline(always)]
unsafe fn formed_size_at(nmask: &[u8], cyt: &[[u16; 6]], groups: &Groups, cell: usize) -> usize {
    // SAFETY: `cell` is a cell (this function's contract), and the roots
    // `head_roots` gives are cells.
    unsafe {
        let Some([r0, r1, r2]) = head_roots(nmask, cyt, groups, cell) else {
            return 1;
        };
        let sizes = groups.size_table();
        // Load all three sizes and mask out repeats: no data-dependent branch.
        let keep1 = 0u32.wrapping_sub((r1 != r0) as u32);
        let keep2 = 0u32.wrapping_sub(((r2 != r0) & (r2 != r1)) as u32);
        let s0 = get(sizes, r0 as usize) as u32;
        let s1 = get(sizes, r1 as usize) as u32 & keep1;
        let s2 = get(sizes, r2 as usize) as u32 & keep2;
        (1 + s0 + s1 + s2) as usize
    }
}

/// How many of `cells` give the smallest formed size (see
/// [`formed_size_at`]), counted without storing them.
///
/// # Safety
/// Every item of `cells` is a cell of the board the tables belong to.
#[inline]
unsafe fn count_smallest(
    nmask: &[u8],
    cyt: &[[u16; 6]],
    groups: &Groups,
    cells: impl Iterator<Item = usize>,
) -> usize {
    let (mut best, mut count) = (usize::MAX, 0);
    for cell in cells {
        // SAFETY: every item of `cells` is a cell (this function's contract).
        let s = unsafe { formed_size_at(nmask, cyt, groups, cell) };
        if s < best {
            (best, count) = (s, 0);
        }
        count += (s == best) as usize;
    }
    count
}

impl Churn {
    /// An empty board.
    pub fn new(board: Arc<Board>, pie: bool) -> Churn {
        let n = board.num_cells();
        let mut g = Churn {
            groups: Groups::without_histograms(n, 2),
            nmask: [vec![0; n + 1], vec![0; n + 1]],
            iso: [BitSet::new(n + 1), BitSet::new(n + 1)],
            empty: BitSet::new(n + 1),
            num_empty: n,
            to_move: 1,
            ply: 0,
            swap_available: false,
            over: false,
            winners: 0,
            hash: 0,
            removal_log: Vec::new(),
            pie,
            board,
        };
        g.rebuild();
        g
    }

    /// A position from cell colours (0 empty, 1 red, 2 blue) and the player
    /// to move, both checked here as given. A set-up position never offers
    /// the pie swap.
    pub fn from_cells(
        board: Arc<Board>,
        pie: bool,
        cells: &[i8],
        to_move: impl Into<crate::limits::IntArg>,
    ) -> Result<Churn, crate::game::OptionsError> {
        let to_move = crate::limits::to_move(to_move)?;
        let cells =
            crate::limits::colours(cells, <Churn as crate::facts::Facts>::FACTS.player_names)?;
        let n = board.num_cells();
        if cells.len() != n {
            return Err(crate::game::OptionsError::new(
                "position",
                format!("expected {n} cells, got {}", cells.len()),
            ));
        }
        let mut g = Churn::new(board, pie);
        for (cell, &c) in cells.iter().enumerate() {
            if c != 0 {
                g.groups.place(&g.board.clone(), cell, c);
            }
        }
        g.to_move = to_move;
        let stones = n - cells.iter().filter(|&&c| c == 0).count();
        g.ply = stones as u32;
        g.swap_available = false;
        g.rebuild();
        g.check_end();
        Ok(g)
    }

    pub fn pie(&self) -> bool {
        self.pie
    }

    pub fn board_arc(&self) -> &Arc<Board> {
        &self.board
    }

    pub fn groups(&self) -> &Groups {
        &self.groups
    }

    pub fn swap_available(&self) -> bool {
        self.swap_available && !self.over
    }

    /// Stones on the board per player (red, blue).
    pub fn stone_counts(&self) -> (u32, u32) {
        (self.groups.stone_count(1), self.groups.stone_count(2))
    }

    /// Recompute every derived table from the cell colours.
    fn rebuild(&mut self) {
        let board = self.board.clone();
        let n = board.num_cells();
        let colours: Vec<u8> = self.groups.colours().to_vec();
        self.groups.rebuild(&board, &colours);
        self.nmask
            .iter_mut()
            .for_each(|v| v.iter_mut().for_each(|x| *x = 0));
        self.empty.clear();
        self.iso[0].clear();
        self.iso[1].clear();
        self.num_empty = 0;
        let mut hash = 0;
        for cell in 0..n {
            let c = colours[cell];
            if c == 0 {
                self.empty.insert(cell);
                self.num_empty += 1;
            } else {
                hash ^= board.zobrist_key(cell, c as usize);
                for (j, &nb) in board.cyclic_neighbors(cell).iter().enumerate() {
                    if nb != NO_CELL {
                        self.nmask[c as usize - 1][nb as usize] |= 1 << ((j + 3) % 6);
                    }
                }
            }
        }
        for cell in 0..n {
            if colours[cell] == 0 {
                for k in 0..2 {
                    if self.nmask[k][cell] == 0 {
                        self.iso[k].insert(cell);
                    }
                }
            }
        }
        self.hash = hash;
    }

    #[cfg(test)]
    pub(crate) fn flags_hash(&self) -> u64 {
        self.full_hash() ^ self.hash
    }

    #[inline]
    fn full_hash(&self) -> u64 {
        let mut h = self.hash ^ zobrist::flag(Kind::ToMove as u64, self.to_move as u64);
        if self.swap_available {
            h ^= zobrist::flag(Kind::Swap as u64, 1);
        }
        h
    }

    /// Put a stone of `colour` on empty `cell`, keeping the tables current.
    /// Returns the size of the group formed.
    #[inline]
    fn put(&mut self, cell: usize, colour: u8) -> usize {
        let k = colour as usize - 1;
        let board = &*self.board;
        // Checked: `cell` is a cell, so every index below is at most `n`,
        // which the tables and bit sets (sized `n + 1`) hold.
        let cy = board.cyclic_neighbors_padded(cell);
        self.hash ^= board.zobrist_key(cell, colour as usize);
        self.num_empty -= 1;
        let nmask = &mut self.nmask[k];
        // SAFETY: indices are cells or the sentinel `n`; see above.
        unsafe {
            self.empty.remove_unchecked(cell);
            self.iso[0].remove_unchecked(cell);
            self.iso[1].remove_unchecked(cell);
            for (j, &nb) in cy.iter().enumerate() {
                *get_mut(nmask, nb as usize) |= 1 << ((j + 3) % 6);
            }
            // The neighbours now touch this colour: none is isolated for it.
            for &(w, mask) in board.neighbor_words(cell) {
                self.iso[k].remove_word_mask_unchecked(w as usize, mask);
            }
            if get(nmask, cell) == 0 {
                self.groups.place_alone(cell, colour);
                return 1;
            }
        }
        let root = self.groups.place(board, cell, colour);
        self.groups.size_at_root(root)
    }

    /// Size of the group a stone of the player to move at empty `cell` would
    /// form: 1 + the sizes of the distinct friendly groups it touches.
    #[inline]
    fn formed_size(&self, cell: usize) -> usize {
        assert!(cell < self.board.num_cells());
        let k = self.to_move as usize - 1;
        // SAFETY: `cell` is a cell.
        unsafe {
            formed_size_at(
                &self.nmask[k],
                self.board.cyclic_padded_table(),
                &self.groups,
                cell,
            )
        }
    }

    /// Remove every group of `colour` strictly smaller than `size`; the
    /// removed cells are appended to `removed` when given.
    fn remove_smaller(&mut self, colour: u8, size: usize, mut removed: Option<&mut Vec<u16>>) {
        for wi in 0..self.groups.root_set(colour).words().len() {
            let w = self.groups.root_set(colour).words()[wi];
            let sizes = self.groups.size_table();
            let mut doomed = 0u64;
            for t in BitIter(w) {
                // SAFETY: roots are cells.
                let s = unsafe { get(sizes, wi * 64 + t as usize) } as usize;
                doomed |= ((s < size) as u64) << t;
            }
            for t in BitIter(doomed) {
                self.take_group(wi * 64 + t as usize, colour, removed.as_deref_mut());
            }
        }
    }

    /// Lift the whole group of `colour` holding `cell` off the board,
    /// appending its cells to `removed` when given.
    fn take_group(&mut self, cell: usize, colour: u8, mut removed: Option<&mut Vec<u16>>) {
        let k = colour as usize - 1;
        let board = &*self.board;
        let (nmask, iso, empty) = (&mut self.nmask, &mut self.iso, &mut self.empty);
        let mut hash = 0;
        let mut count = 0;
        self.groups.remove_group(cell, |c| {
            hash ^= board.zobrist_key(c, colour as usize);
            count += 1;
            lift(board, nmask, iso, empty, c, k);
            if let Some(r) = removed.as_deref_mut() {
                r.push(c as u16);
            }
        });
        self.hash ^= hash;
        self.num_empty += count;
    }

    fn check_end(&mut self) {
        if self.num_empty == 0 {
            self.over = true;
            let (r, b) = self.stone_counts();
            self.winners = match r.cmp(&b) {
                std::cmp::Ordering::Greater => 1,
                std::cmp::Ordering::Less => 2,
                std::cmp::Ordering::Equal => 3,
            };
        } else {
            self.over = false;
            self.winners = 0;
        }
    }

    /// Legal cells for the player to move (not including `swap`).
    pub fn legal_cells(&self, out: &mut Vec<Action>) {
        if self.over {
            return;
        }
        let k = self.to_move as usize - 1;
        if !self.iso[k].is_empty() {
            // A byte of the set at a time, every set bit's cell from a table
            // (`append_members`: about two instructions a cell, where a loop
            // over the bits took about ten an action; callgrind, the batched
            // search).
            append_members(self.iso[k].words(), 1, 0, out);
            return;
        }
        // Every empty cell touches a friendly stone: keep the smallest. The
        // first pass stores `size << 16 | cell` (cells are below 2^16), the
        // second keeps the cells of the smallest size, without branching.
        let start = out.len();
        let count = self.empty.len();
        out.reserve(count);
        let (nmask, cyt) = (&self.nmask[k][..], self.board.cyclic_padded_table());
        let mut best = u32::MAX;
        for (wi, &w) in self.empty.words().iter().enumerate() {
            for t in BitIter(w) {
                let cell = wi * 64 + t as usize;
                // SAFETY: members of `empty` are cells. Kept unchecked: see
                // `crate::unchecked` for the measured gain.
                let s = unsafe { formed_size_at(nmask, cyt, &self.groups, cell) } as u32;
                best = best.min(s);
                out.push(s << 16 | cell as u32);
            }
        }
        let mut w = start;
        for i in start..out.len() {
            let key = out[i];
            out[w] = key & 0xffff;
            w += (key >> 16 == best) as usize;
        }
        out.truncate(w);
    }

    /// When no isolated cell is left, 2 is the smallest group a placement can
    /// form, and it is formed exactly at the empty cells whose only friendly
    /// neighbour is a lone stone. Appends those cells (in cell order), found
    /// from the mover's lone stones rather than by sizing every
    /// empty cell, and returns whether there were any; if not, the smallest
    /// group is larger and `legal_cells` has to look at every cell.
    fn pair_cells(&self, out: &mut Vec<Action>) -> bool {
        let k = self.to_move as usize - 1;
        debug_assert!(self.iso[k].is_empty());
        let start = out.len();
        // Every neighbour is written at `len` and kept only if it qualifies,
        // so one slot beyond the possible results is needed.
        // The slots are zeroed first (`resize`) and written through a checked
        // slice: writing the spare capacity uninitialised measured no faster
        // (Churn playouts, `cargo bench -p hexcore-core --bench playouts`: within
        // the spread between two builds of unchanged code).
        out.resize(start + self.empty.len() + 1, 0);
        let (nmask, cyt) = (&self.nmask[k][..], self.board.cyclic_padded_table());
        let sizes = self.groups.size_table();
        let dst = &mut out[start..];
        let mut len = 0;
        for (wi, &w) in self
            .groups
            .root_set(self.to_move)
            .words()
            .iter()
            .enumerate()
        {
            let mut lone = 0u64;
            for t in BitIter(w) {
                // SAFETY: roots are cells.
                lone |= ((unsafe { get(sizes, wi * 64 + t as usize) } == 1) as u64) << t;
            }
            for t in BitIter(lone) {
                let stone = wi * 64 + t as usize;
                // SAFETY: `stone` is a cell (a root), and its padded
                // neighbours are cells or the sentinel `n`, which the tables
                // and bit sets hold. (`dst` is checked: a cell with one
                // friendly neighbour is kept from that neighbour only, so at
                // most one kept entry per empty cell, within its length.)
                // Kept unchecked: see `crate::unchecked` for the measured gain.
                unsafe {
                    for &nb in cyt.get_unchecked(stone) {
                        let m = get(nmask, nb as usize);
                        let single = (m & m.wrapping_sub(1)) == 0;
                        dst[len] = nb as Action;
                        len += (single & self.empty.contains_unchecked(nb as usize)) as usize;
                    }
                }
            }
        }
        out.truncate(start + len);
        // Cell order, so the pick depends on the position alone (not on
        // which stone happens to be each group's root).
        out[start..].sort_unstable();
        len > 0
    }

    /// Why placing on `cell` is illegal, if it is.
    fn cell_error(&self, cell: usize) -> Option<MoveError> {
        let label = self.board.label(cell);
        if self.groups.colour(cell) != 0 {
            return Some(MoveError::new(
                crate::game::Reason::Occupied,
                format!("cell {label} is occupied"),
            ));
        }
        let k = self.to_move as usize - 1;
        if !self.iso[k].is_empty() {
            if !self.iso[k].contains(cell) {
                return Some(MoveError::new(
                    crate::game::Reason::Isolation,
                    format!("{label} touches a friendly stone, but an isolated placement is available (isolation rule)"),
                ));
            }
            return None;
        }
        let mut v = Vec::new();
        self.legal_cells(&mut v);
        if !v.contains(&(cell as Action)) {
            let s = self.formed_size(cell);
            let best = self.formed_size(v[0] as usize);
            return Some(MoveError::new(
                crate::game::Reason::SmallestGroup,
                format!("{label} would form a group of {s}, but a group of {best} is possible (smallest-group rule)"),
            ));
        }
        None
    }

    fn do_place(&mut self, cell: usize, removed: Option<&mut Vec<u16>>) {
        let colour = self.to_move;
        let size = self.put(cell, colour);
        if size > 1 {
            self.remove_smaller(colour, size, removed);
        }
        self.swap_available = self.pie && self.ply == 0 && colour == 1;
        self.ply += 1;
        self.to_move = 3 - colour;
        self.check_end();
    }

    fn do_swap(&mut self) {
        let n = self.board.num_cells();
        let cell = (0..n)
            .find(|&c| self.groups.colour(c) == 1)
            .expect("swap needs the red stone");
        let mut colours = self.groups.colours().to_vec();
        colours[cell] = 2;
        let board = self.board.clone();
        self.groups.rebuild(&board, &colours);
        self.rebuild();
        self.swap_available = false;
        self.ply += 1;
        self.to_move = 1;
    }
}

#[cfg(test)]
mod tests;
