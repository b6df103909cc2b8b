//! Incremental connected groups of same-coloured stones.
//!
//! Every group is a circular linked list of its member cells with one root
//! cell that holds the group's size and a small payload (a bitmask games can
//! use, e.g. "neutral colours touched"). Placing a stone merges the groups it
//! touches (the smaller lists are relabelled into the largest, so a game of n
//! placements costs O(n log n)); a whole group can be removed by walking its
//! list. A per-colour histogram of group sizes is kept current, so "how many
//! groups of colour c have size s" is O(1).
//!
//! Removing an arbitrary stone from the middle of a group is not supported
//! incrementally. Games undo placements either in reverse order with
//! [`Groups::unplace`] (Wunchunk), by [`Groups::rebuild`], or, as Churn does,
//! by removing the whole group and placing its other stones again.
//!
//! Games that only ask which group a stone is in and what the group touches
//! (Hex) use the other part of the group code, [`UnionFind`](crate::UnionFind):
//! no member lists, and O(alpha) per stone.

use crate::bitset::BitSet;
use crate::board::{Board, NO_CELL};
use crate::unchecked::{get, get_mut};

#[derive(Debug, PartialEq, Eq)]
pub struct Groups {
    /// Colour per cell (0 = empty). Colours are `1..=num_colours`.
    colour: Vec<u8>,
    /// Root cell of each stone's group (`NO_CELL` for empty cells).
    root: Vec<u16>,
    /// Next member in the circular member list.
    next: Vec<u16>,
    /// Group size, valid at roots.
    size: Vec<u16>,
    /// Payload bitmask, valid at roots.
    mask: Vec<u32>,
    /// `hist[colour * (n + 1) + s]` = number of groups of that colour with size s.
    hist: Vec<u32>,
    /// Number of groups per colour.
    count: Vec<u32>,
    /// Number of groups of size >= 2 per colour.
    chunks: Vec<u32>,
    /// Number of stones per colour.
    stones: Vec<u32>,
    /// Root cells per colour.
    roots: Vec<BitSet>,
    num_colours: usize,
    /// Keep `hist`, `count` and `chunks` current (games that never ask for
    /// them turn this off and save the bookkeeping).
    histograms: bool,
}

impl Clone for Groups {
    fn clone(&self) -> Self {
        let mut g = Groups::new(0, 0);
        g.clone_from(self);
        g
    }

    /// Reuses this value's allocations (perft keeps one scratch state per depth).
    fn clone_from(&mut self, s: &Self) {
        self.colour.clone_from(&s.colour);
        self.root.clone_from(&s.root);
        self.next.clone_from(&s.next);
        self.size.clone_from(&s.size);
        self.mask.clone_from(&s.mask);
        self.hist.clone_from(&s.hist);
        self.count.clone_from(&s.count);
        self.chunks.clone_from(&s.chunks);
        self.stones.clone_from(&s.stones);
        self.roots.clone_from(&s.roots);
        self.num_colours = s.num_colours;
        self.histograms = s.histograms;
    }
}

impl Groups {
    pub fn new(num_cells: usize, num_colours: usize) -> Groups {
        Groups {
            colour: vec![0; num_cells],
            root: vec![NO_CELL; num_cells],
            next: vec![NO_CELL; num_cells],
            size: vec![0; num_cells],
            mask: vec![0; num_cells],
            hist: vec![0; (num_colours + 1) * (num_cells + 1)],
            count: vec![0; num_colours + 1],
            chunks: vec![0; num_colours + 1],
            stones: vec![0; num_colours + 1],
            roots: vec![BitSet::new(num_cells); num_colours + 1],
            num_colours,
            histograms: true,
        }
    }

    /// Groups that do not keep the size histogram, group counts or chunk
    /// counts ([`Groups::histogram`], [`Groups::largest`],
    /// [`Groups::group_count`] and [`Groups::chunk_count`] panic).
    pub fn without_histograms(num_cells: usize, num_colours: usize) -> Groups {
        Groups {
            histograms: false,
            hist: Vec::new(),
            ..Groups::new(num_cells, num_colours)
        }
    }

    #[inline(always)]
    fn check_histograms(&self) {
        assert!(self.histograms, "these groups do not keep histograms");
    }

    #[inline]
    pub fn num_cells(&self) -> usize {
        self.colour.len()
    }

    #[inline]
    pub fn num_colours(&self) -> usize {
        self.num_colours
    }

    /// Colour of a cell (0 = empty).
    #[inline]
    pub fn colour(&self, cell: usize) -> u8 {
        self.colour[cell]
    }

    pub fn colours(&self) -> &[u8] {
        &self.colour
    }

    /// Root cell of the group holding `cell`, or `None` for an empty cell.
    #[inline]
    pub fn root(&self, cell: usize) -> Option<usize> {
        let r = self.root[cell];
        (r != NO_CELL).then_some(r as usize)
    }

    /// Root of the group of an occupied cell (unspecified for empty cells).
    #[inline]
    pub fn root_of_stone(&self, cell: usize) -> usize {
        self.root[cell] as usize
    }

    /// Root per cell (`NO_CELL` for empty cells), for hot loops.
    #[inline]
    pub fn root_table(&self) -> &[u16] {
        &self.root
    }

    /// Group size per root cell (other entries unspecified), for hot loops.
    #[inline]
    pub fn size_table(&self) -> &[u16] {
        &self.size
    }

    /// Size of the group whose root is `root`.
    #[inline]
    pub fn size_at_root(&self, root: usize) -> usize {
        self.size[root] as usize
    }

    /// Size of the group holding `cell` (0 for an empty cell).
    #[inline]
    pub fn group_size(&self, cell: usize) -> usize {
        match self.root(cell) {
            Some(r) => self.size[r] as usize,
            None => 0,
        }
    }

    /// Payload bitmask of the group holding `cell` (0 for an empty cell).
    #[inline]
    pub fn group_mask(&self, cell: usize) -> u32 {
        match self.root(cell) {
            Some(r) => self.mask[r],
            None => 0,
        }
    }

    /// OR bits into the payload of the group holding `cell`.
    #[inline]
    pub fn add_mask(&mut self, cell: usize, bits: u32) {
        if let Some(r) = self.root(cell) {
            self.mask[r] |= bits;
        }
    }

    /// Number of groups of `colour` with exactly `size` stones.
    #[inline]
    pub fn histogram(&self, colour: u8, size: usize) -> u32 {
        self.check_histograms();
        self.hist[colour as usize * (self.num_cells() + 1) + size]
    }

    /// The largest group size present for `colour` (0 if none).
    pub fn largest(&self, colour: u8) -> usize {
        self.check_histograms();
        let n = self.num_cells();
        let base = colour as usize * (n + 1);
        (1..=n)
            .rev()
            .find(|&s| self.hist[base + s] > 0)
            .unwrap_or(0)
    }

    /// Number of groups of `colour`.
    #[inline]
    pub fn group_count(&self, colour: u8) -> u32 {
        self.check_histograms();
        self.count[colour as usize]
    }

    /// Number of groups of `colour` with two or more stones.
    #[inline]
    pub fn chunk_count(&self, colour: u8) -> u32 {
        self.check_histograms();
        self.chunks[colour as usize]
    }

    /// Number of stones of `colour`.
    #[inline]
    pub fn stone_count(&self, colour: u8) -> u32 {
        self.stones[colour as usize]
    }

    /// Members of the group whose root (or any member) is `cell`.
    pub fn members(&self, cell: usize) -> MemberIter<'_> {
        MemberIter {
            groups: self,
            start: cell as u16,
            cur: cell as u16,
            done: self.root[cell] == NO_CELL,
        }
    }

    /// Count `delta` more groups of `colour` with `size` stones.
    ///
    /// # Safety
    /// `1 <= colour <= num_colours` and `size <= num_cells`.
    #[inline(always)]
    unsafe fn hist_add(&mut self, colour: u8, size: usize, delta: i32) {
        if !self.histograms {
            return;
        }
        let n = self.num_cells();
        let c = colour as usize;
        // SAFETY: `colour <= num_colours` and `size <= num_cells` (this
        // function's contract) index the histograms (`num_colours + 1` rows
        // of `num_cells + 1`) and the per-colour counts.
        unsafe {
            let h = get_mut(&mut self.hist, c * (n + 1) + size);
            *h = h.wrapping_add_signed(delta);
            let k = get_mut(&mut self.count, c);
            *k = k.wrapping_add_signed(delta);
            let k = get_mut(&mut self.chunks, c);
            *k = k.wrapping_add_signed(delta & -((size >= 2) as i32));
        }
    }

    #[inline(always)]
    fn check_colour(&self, colour: u8) {
        assert!(
            colour >= 1 && colour as usize <= self.num_colours,
            "colour {colour} out of range"
        );
    }

    /// Place a stone that touches no stone of its colour (caller's promise):
    /// a new group of one.
    #[inline]
    pub fn place_alone(&mut self, cell: usize, colour: u8) {
        self.check_colour(colour);
        debug_assert_eq!(self.colour[cell], 0, "place on an occupied cell");
        self.colour[cell] = colour;
        // SAFETY: colour checked; `cell` indexed `colour` above.
        unsafe {
            *get_mut(&mut self.stones, colour as usize) += 1;
            self.start_group(cell, colour);
        }
    }

    /// Make the stone already on `cell` a group of its own.
    ///
    /// # Safety
    /// `cell` is a cell and `colour` a valid colour.
    #[inline(always)]
    unsafe fn start_group(&mut self, cell: usize, colour: u8) {
        // SAFETY: `cell` is a cell and `colour` a valid colour (this
        // function's contract); a group of one has size 1 <= num_cells.
        unsafe {
            *get_mut(&mut self.root, cell) = cell as u16;
            *get_mut(&mut self.next, cell) = cell as u16;
            *get_mut(&mut self.size, cell) = 1;
            *get_mut(&mut self.mask, cell) = 0;
            self.hist_add(colour, 1, 1);
            get_mut(&mut self.roots, colour as usize).insert_if_unchecked(cell, true);
        }
    }

    /// Place a stone and merge it with the friendly groups it touches.
    /// Returns the root of the resulting group.
    pub fn place(&mut self, board: &Board, cell: usize, colour: u8) -> usize {
        self.check_colour(colour);
        assert_eq!(
            board.num_cells(),
            self.num_cells(),
            "groups of another board"
        );
        debug_assert_eq!(self.colour[cell], 0, "place on an occupied cell");
        self.colour[cell] = colour;
        self.stones[colour as usize] += 1;
        // The largest neighbouring group absorbs the others.
        // SAFETY from here on: `cell` indexed `colour` above; neighbours,
        // roots and list links are cells of this board (checked above);
        // sizes are at most the number of cells.
        let nbs = board.neighbors(cell);
        let mut best = NO_CELL;
        let mut best_size = 0;
        for &nb in nbs {
            let nb = nb as usize;
            // SAFETY: `nb` is a cell (a neighbour from the board's table),
            // and so is the root of a stone's group.
            if unsafe { get(&self.colour, nb) } == colour {
                // SAFETY: as above.
                let r = unsafe { get(&self.root, nb) };
                // SAFETY: as above.
                let rs = unsafe { get(&self.size, r as usize) };
                if rs > best_size {
                    best = r;
                    best_size = rs;
                }
            }
        }
        if best == NO_CELL {
            // SAFETY: `cell` is a cell and `colour` was checked (above).
            unsafe { self.start_group(cell, colour) };
            return cell;
        }
        // SAFETY: `cell`, `best` (a root) and `nbs` (the board's neighbours
        // of `cell`) are cells, and `colour` was checked.
        unsafe { self.merge_into(cell, colour, best as usize, nbs) }
    }

    /// Join the stone on `cell` and the groups of its neighbours `nbs` of
    /// the same colour into the group rooted at `b` (the largest of them).
    /// A neighbour whose group is already joined has root `b`, so each group
    /// is taken once without a list of roots.
    ///
    /// # Safety
    /// As in `place`: every index is a cell, `colour` is valid.
    #[inline(always)]
    unsafe fn merge_into(&mut self, cell: usize, colour: u8, b: usize, nbs: &[u16]) -> usize {
        let best = b as u16;
        // SAFETY: every index is a cell of this board (this function's
        // contract: `cell`, `b`, `nbs`, and the roots and list links reached
        // from them), `colour` is valid, and a group's size is at most
        // the number of cells.
        unsafe {
            let mut new_size = get(&self.size, b) as usize + 1;
            let mut mask = get(&self.mask, b);
            // The new stone is no root: its size and payload slots keep b's
            // old values for `unplace`.
            *get_mut(&mut self.size, cell) = new_size as u16 - 1;
            *get_mut(&mut self.mask, cell) = mask;
            self.hist_add(colour, new_size - 1, -1);
            // Add the new stone to b's list.
            *get_mut(&mut self.root, cell) = best;
            *get_mut(&mut self.next, cell) = get(&self.next, b);
            *get_mut(&mut self.next, b) = cell as u16;
            for &nb in nbs {
                if get(&self.colour, nb as usize) != colour {
                    continue;
                }
                let r = get(&self.root, nb as usize);
                if r == best {
                    continue;
                }
                let r = r as usize;
                let rs = get(&self.size, r) as usize;
                self.hist_add(colour, rs, -1);
                new_size += rs;
                mask |= get(&self.mask, r);
                get_mut(&mut self.roots, colour as usize).remove_unchecked(r);
                // Relabel r's members, then splice r's circular list after b.
                let mut c = r;
                loop {
                    *get_mut(&mut self.root, c) = best;
                    let nx = get(&self.next, c) as usize;
                    if nx == r {
                        break;
                    }
                    c = nx;
                }
                // c is the last member of r's list (its next is r).
                *get_mut(&mut self.next, c) = get(&self.next, b);
                *get_mut(&mut self.next, b) = r as u16;
            }
            *get_mut(&mut self.size, b) = new_size as u16;
            *get_mut(&mut self.mask, b) = mask;
            self.hist_add(colour, new_size, 1);
        }
        b
    }

    /// Take back the stone on `cell` placed by the last [`Groups::place`] or
    /// [`Groups::place_alone`] still standing (undo in reverse order of
    /// placement; payload bits added since must be taken back first). The
    /// groups it merged split again as they were, payloads included: `place`
    /// relabels the smaller groups and splices their member lists right
    /// after the root's, and leaves their sizes and payloads at their old
    /// roots, so this walks only the stones it relabels back.
    pub fn unplace(&mut self, cell: usize) {
        let colour = self.colour[cell];
        assert!(colour != 0, "unplace on an empty cell");
        let b = self.root[cell] as usize;
        // SAFETY: `cell` is a stone (checked), so its colour, root, list and
        // the lists of the groups it joined are cells of this board.
        unsafe {
            *get_mut(&mut self.stones, colour as usize) -= 1;
            if b == cell {
                // it started a group of its own
                self.hist_add(colour, 1, -1);
                get_mut(&mut self.roots, colour as usize).remove_unchecked(cell);
            } else {
                self.hist_add(colour, get(&self.size, b) as usize, -1);
                // Absorbed groups follow b in the list, the last absorbed
                // first, then the new stone.
                loop {
                    let r = get(&self.next, b) as usize;
                    if r == cell {
                        break;
                    }
                    let rs = get(&self.size, r) as usize;
                    let mut c = r;
                    *get_mut(&mut self.root, c) = r as u16;
                    for _ in 1..rs {
                        c = get(&self.next, c) as usize;
                        *get_mut(&mut self.root, c) = r as u16;
                    }
                    *get_mut(&mut self.next, b) = get(&self.next, c);
                    *get_mut(&mut self.next, c) = r as u16;
                    get_mut(&mut self.roots, colour as usize).insert_if_unchecked(r, true);
                    self.hist_add(colour, rs, 1);
                }
                *get_mut(&mut self.next, b) = get(&self.next, cell);
                let old_size = get(&self.size, cell);
                *get_mut(&mut self.size, b) = old_size;
                *get_mut(&mut self.mask, b) = get(&self.mask, cell);
                self.hist_add(colour, old_size as usize, 1);
            }
            *get_mut(&mut self.colour, cell) = 0;
            *get_mut(&mut self.root, cell) = NO_CELL;
            *get_mut(&mut self.next, cell) = NO_CELL;
            *get_mut(&mut self.size, cell) = 0;
            *get_mut(&mut self.mask, cell) = 0;
        }
    }

    /// Set the payload of the group whose root is `root` (to take back
    /// [`Groups::add_mask`]).
    #[inline]
    pub fn set_root_mask(&mut self, root: usize, mask: u32) {
        debug_assert_eq!(self.root[root] as usize, root, "not a root");
        self.mask[root] = mask;
    }

    /// Remove the whole group holding `cell`; calls `f` on every removed cell.
    pub fn remove_group(&mut self, cell: usize, mut f: impl FnMut(usize)) {
        let r = match self.root(cell) {
            Some(r) => r,
            None => return,
        };
        // SAFETY: `cell` is a stone, so its root, colour and list are valid.
        unsafe {
            let colour = get(&self.colour, r);
            let size = get(&self.size, r) as usize;
            self.hist_add(colour, size, -1);
            *get_mut(&mut self.stones, colour as usize) -= size as u32;
            get_mut(&mut self.roots, colour as usize).remove_unchecked(r);
            let mut c = r;
            loop {
                let nx = get(&self.next, c) as usize;
                *get_mut(&mut self.colour, c) = 0;
                *get_mut(&mut self.root, c) = NO_CELL;
                *get_mut(&mut self.next, c) = NO_CELL;
                f(c);
                if nx == r {
                    break;
                }
                c = nx;
            }
            *get_mut(&mut self.size, r) = 0;
            *get_mut(&mut self.mask, r) = 0;
        }
    }

    /// Recompute everything from a colour array (masks reset to 0).
    pub fn rebuild(&mut self, board: &Board, colours: &[u8]) {
        let n = self.num_cells();
        debug_assert_eq!(colours.len(), n);
        *self = if self.histograms {
            Groups::new(n, self.num_colours)
        } else {
            Groups::without_histograms(n, self.num_colours)
        };
        for (cell, &c) in colours.iter().enumerate() {
            if c != 0 {
                self.place(board, cell, c);
            }
        }
    }

    /// Roots of all groups of `colour`, in cell order.
    pub fn roots_of(&self, colour: u8) -> impl Iterator<Item = usize> + '_ {
        self.roots[colour as usize].iter()
    }

    /// The root set of `colour`.
    pub fn root_set(&self, colour: u8) -> &BitSet {
        &self.roots[colour as usize]
    }
}

pub struct MemberIter<'a> {
    groups: &'a Groups,
    start: u16,
    cur: u16,
    done: bool,
}

impl Iterator for MemberIter<'_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.done {
            return None;
        }
        let c = self.cur;
        self.cur = self.groups.next[c as usize];
        if self.cur == self.start {
            self.done = true;
        }
        Some(c as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Groups by flood fill: per cell, the sorted member list of its group.
    fn flood(board: &Board, colours: &[u8]) -> Vec<Vec<usize>> {
        let n = colours.len();
        let mut out = vec![Vec::new(); n];
        let mut seen = vec![false; n];
        for s in 0..n {
            if colours[s] == 0 || seen[s] {
                continue;
            }
            let mut stack = vec![s];
            let mut comp = vec![];
            seen[s] = true;
            while let Some(c) = stack.pop() {
                comp.push(c);
                for &nb in board.neighbors(c) {
                    let nb = nb as usize;
                    if !seen[nb] && colours[nb] == colours[s] {
                        seen[nb] = true;
                        stack.push(nb);
                    }
                }
            }
            comp.sort();
            for &c in &comp {
                out[c] = comp.clone();
            }
        }
        out
    }

    /// Placing stones and taking them back in reverse order restores every
    /// table exactly (sizes, lists, histograms, root sets).
    #[test]
    fn unplace_restores_exactly() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for &(sides, colours) in &[
            ([3usize; 6], 1usize),
            ([4; 6], 2),
            ([3, 4, 3, 4, 3, 4], 3),
            ([5; 6], 4),
        ] {
            let board = Board::from_sides(sides).unwrap();
            let n = board.num_cells();
            for round in 0..100 {
                let mut g = if round % 2 == 0 {
                    Groups::new(n, colours)
                } else {
                    Groups::without_histograms(n, colours)
                };
                let mut order: Vec<usize> = (0..n).collect();
                for i in (1..n).rev() {
                    order.swap(i, rng.random_range(0..=i));
                }
                let mut snaps = Vec::new();
                let mut placed = Vec::new();
                for &cell in &order {
                    if rng.random_bool(0.3) && !placed.is_empty() {
                        let c = placed.pop().unwrap();
                        g.unplace(c);
                        assert_eq!(g, snaps.pop().unwrap());
                    }
                    snaps.push(g.clone());
                    g.place(&board, cell, rng.random_range(1..=colours) as u8);
                    placed.push(cell);
                }
                while let Some(c) = placed.pop() {
                    g.unplace(c);
                    assert_eq!(g, snaps.pop().unwrap());
                }
            }
        }
    }

    #[test]
    fn agrees_with_flood_fill() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for &(sides, colours) in &[
            ([3usize; 6], 2usize),
            ([3, 4, 3, 4, 3, 4], 3),
            ([5; 6], 4),
            ([6, 4, 4, 6, 4, 4], 2),
        ] {
            let board = Board::from_sides(sides).unwrap();
            let n = board.num_cells();
            for _ in 0..200 {
                let mut g = Groups::new(n, colours);
                for _ in 0..3 * n {
                    let cell = rng.random_range(0..n);
                    if g.colour(cell) == 0 {
                        g.place(&board, cell, rng.random_range(1..=colours) as u8);
                    } else if rng.random_bool(0.3) {
                        g.remove_group(cell, |_| {});
                    }
                    let fl = flood(&board, g.colours());
                    for c in 0..n {
                        let mut m: Vec<usize> = g.members(c).collect();
                        m.sort();
                        assert_eq!(m, fl[c]);
                        assert_eq!(g.group_size(c), fl[c].len());
                    }
                    for col in 1..=colours as u8 {
                        let mut hist = vec![0u32; n + 1];
                        let mut seen = std::collections::HashSet::new();
                        for c in 0..n {
                            if g.colour(c) == col && seen.insert(fl[c][0]) {
                                hist[fl[c].len()] += 1;
                            }
                        }
                        for s in 1..=n {
                            assert_eq!(g.histogram(col, s), hist[s]);
                        }
                        assert_eq!(g.group_count(col), hist.iter().sum::<u32>());
                        assert_eq!(g.chunk_count(col), hist[2..].iter().sum::<u32>());
                        let roots: Vec<usize> = g.roots_of(col).collect();
                        let mut expect: Vec<usize> = (0..n)
                            .filter(|&c| g.colour(c) == col && g.root(c) == Some(c))
                            .collect();
                        expect.sort();
                        assert_eq!(roots, expect);
                    }
                }
            }
        }
    }

    /// Everything a game can observe of the groups.
    fn observed(
        g: &Groups,
        colours: usize,
    ) -> (
        Vec<u8>,
        Vec<Option<usize>>,
        Vec<usize>,
        Vec<u32>,
        Vec<Vec<usize>>,
        Vec<Vec<usize>>,
        Vec<u32>,
    ) {
        let n = g.num_cells();
        let members = (0..n)
            .map(|c| {
                let mut m: Vec<usize> = g.members(c).collect();
                m.sort();
                m
            })
            .collect();
        let roots = (1..=colours as u8)
            .map(|k| g.roots_of(k).collect())
            .collect();
        let mut counts: Vec<u32> = (1..=colours as u8).map(|k| g.stone_count(k)).collect();
        if g.histograms {
            for k in 1..=colours as u8 {
                counts.extend((1..=n).map(|s| g.histogram(k, s)));
                counts.push(g.group_count(k));
                counts.push(g.chunk_count(k));
            }
        }
        (
            g.colours().to_vec(),
            (0..n).map(|c| g.root(c)).collect(),
            (0..n).map(|c| g.group_size(c)).collect(),
            (0..n).map(|c| g.group_mask(c)).collect(),
            members,
            roots,
            counts,
        )
    }

    #[test]
    fn unplace_undoes_place() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        let mut merges = 0;
        for &(sides, colours, hist) in &[
            ([3usize; 6], 2usize, true),
            ([4, 5, 4, 5, 4, 5], 3, false),
            ([6; 6], 2, false),
        ] {
            let board = Board::from_sides(sides).unwrap();
            let n = board.num_cells();
            for _ in 0..40 {
                let mut g = if hist {
                    Groups::new(n, colours)
                } else {
                    Groups::without_histograms(n, colours)
                };
                let mut stack: Vec<(usize, Vec<(usize, u32)>, _)> = Vec::new();
                for _ in 0..2 * n {
                    let cell = rng.random_range(0..n);
                    if g.colour(cell) == 0 && rng.random_bool(0.7) {
                        let before = observed(&g, colours);
                        let root = g.place(&board, cell, rng.random_range(1..=colours) as u8);
                        merges += (root != cell) as usize;
                        // a payload bit, to be taken back before the stone
                        let bit = 1u32 << rng.random_range(0..5);
                        let old = g.group_mask(root);
                        g.add_mask(root, bit);
                        stack.push((cell, vec![(root, old)], before));
                    } else if let Some((cell, masks, before)) = stack.pop() {
                        for &(r, m) in masks.iter().rev() {
                            g.set_root_mask(r, m);
                        }
                        g.unplace(cell);
                        assert_eq!(observed(&g, colours), before);
                    }
                }
                while let Some((cell, masks, before)) = stack.pop() {
                    for &(r, m) in masks.iter().rev() {
                        g.set_root_mask(r, m);
                    }
                    g.unplace(cell);
                    assert_eq!(observed(&g, colours), before);
                }
                assert_eq!(g.colours().iter().filter(|&&c| c != 0).count(), 0);
            }
        }
        assert!(merges > 1000, "{merges}");
    }
}
