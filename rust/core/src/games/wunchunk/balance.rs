//! Look-ahead legality: every offered placement can be completed to a legal
//! move (the open setup and the balance rule are checked ahead).

use smallvec::SmallVec;

use crate::board::Board;

use super::{Phase, Wunchunk};

impl Wunchunk {
    /// Open setup: after colour `colour` at `x` (x above every stone of this
    /// turn), can the setup still be completed with cells above `x`?
    fn setup_completable(&self, x: usize, colour: u8) -> bool {
        let board = &*self.board;
        let mut mine: [SmallVec<[usize; 3]>; 2] = [SmallVec::new(), SmallVec::new()];
        for c in 0..=x {
            let col = if c == x {
                colour
            } else {
                self.groups.colour(c)
            };
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
        let open_nbs = |s: usize| -> SmallVec<[usize; 6]> {
            board
                .neighbors(s)
                .iter()
                .map(|&w| w as usize)
                .filter(|&w| free(w))
                .collect()
        };
        let edge_avoiding = |avoid: usize| -> bool {
            (x + 1..board.num_cells()).any(|u| {
                free(u)
                    && u != avoid
                    && board
                        .neighbors(u)
                        .iter()
                        .any(|&w| (w as usize) > u && free(w as usize) && w as usize != avoid)
            })
        };
        match (mine[0].len(), mine[1].len()) {
            (2, 2) => true,
            (2, 1) => !open_nbs(mine[1][0]).is_empty(),
            (1, 2) => !open_nbs(mine[0][0]).is_empty(),
            (2, 0) | (0, 2) => edge_avoiding(usize::MAX),
            (1, 1) => {
                let a = open_nbs(mine[0][0]);
                let b = open_nbs(mine[1][0]);
                !(a.is_empty() || b.is_empty() || (a.len() == 1 && b.len() == 1 && a[0] == b[0]))
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

    /// The number of legal moves of a balance turn that has room for one
    /// stone only (allotment 1, or one empty cell), counted cell by cell;
    /// `None` for every other position. The moves are the extra actions,
    /// a stone of another colour anywhere (when colour 1 has at most one
    /// chunk) and a colour-1 stone wherever it leaves at most one chunk:
    /// `count_big`'s sum for at most one stone, without its set search.
    pub(super) fn count_single_stone_balance(&self) -> Option<u128> {
        if self.st.over || self.st.placed > 0 || !self.balance_turn() {
            return None;
        }
        let e = self.num_empty as usize;
        if (self.st.allot as usize).min(e) != 1 {
            return None;
        }
        let chunks = self.groups.chunk_count(1) as usize;
        let board = &*self.board;
        let mut colour1 = 0u128;
        for x in self.empty.iter() {
            // a stone touching no colour-1 stone leaves the chunks as they are
            let touches = board
                .neighbors(x)
                .iter()
                .any(|&w| self.groups.colour(w as usize) == 1);
            let after = if touches {
                self.chunks_after_colour1(x)
            } else {
                chunks
            };
            colour1 += (after <= 1) as u128;
        }
        let others = if chunks <= 1 {
            e as u128 * (self.ncol() as u128 - 1)
        } else {
            0
        };
        Some(1 + self.swap_legal() as u128 + others + colour1)
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
        let first = (0..board.num_cells())
            .find(|&c| self.groups.colour(c) == 1 && self.groups.group_size(c) >= 2)?;
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
    pub(super) fn other_colour_limit(&self) -> usize {
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
    pub(super) fn colour1_completable(&self, x: usize) -> bool {
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
        // joinable(r, x) after the stone, without making it: x joins the
        // colour-1 stones and leaves the usable cells (all above x)
        let n = self.board.num_cells();
        let ones: Vec<bool> = (0..n)
            .map(|c| c == x || self.groups.colour(c) == 1)
            .collect();
        let usable: Vec<bool> = (0..n).map(|c| c > x && self.empty.contains(c)).collect();
        ChunkJoiner::new(&self.board, &ones, &usable).can_join(r)
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
        let touched_chunks = touched
            .iter()
            .filter(|&&r| self.groups.group_size(r) >= 2)
            .count();
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
    pub(super) fn balance_completable(&self, x: usize, colour: u8) -> bool {
        if colour == 1 {
            self.colour1_completable(x)
        } else {
            let r = self.st.allot as usize - self.st.placed as usize - 1;
            self.joinable(r, x)
        }
    }

    pub(super) fn placement_ok(&self, cell: usize, colour: u8) -> bool {
        match self.st.phase {
            Phase::Setup => colour <= 2 && self.setup_completable(cell, colour),
            Phase::Choose => false,
            Phase::Play => !self.balance_turn() || self.balance_completable(cell, colour),
        }
    }

    pub(super) fn end_ok(&self) -> bool {
        self.st.phase == Phase::Play
            && self.st.placed > 0
            && (!self.balance_turn() || self.groups.chunk_count(1) <= 1)
    }
}

/// Joining all colour-1 chunks into one with new colour-1 stones on usable
/// cells: the connected extensions of one chunk (each set once).
pub(super) struct ChunkJoiner<'a> {
    board: &'a Board,
    usable: &'a [bool],
    /// Colour-1 component id per cell (u16::MAX elsewhere).
    comp: Vec<u16>,
    comp_cells: Vec<Vec<usize>>,
    comp_is_chunk: Vec<bool>,
    pub(super) num_chunks: usize,
    root: Option<usize>,
}

impl<'a> ChunkJoiner<'a> {
    pub(super) fn new(board: &'a Board, ones: &[bool], usable: &'a [bool]) -> ChunkJoiner<'a> {
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
        ChunkJoiner {
            board,
            usable,
            comp,
            comp_cells,
            comp_is_chunk,
            num_chunks,
            root,
        }
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

    fn search(
        &self,
        region: &mut [bool],
        absorbed: &mut [bool],
        left: usize,
        r: usize,
        cand: Vec<usize>,
        banned: &mut [bool],
    ) -> bool {
        if left == 0 {
            return true;
        }
        if r == 0 || self.lower_bound(region, absorbed, banned) > r {
            return false;
        }
        let mut newly_banned = Vec::new();
        let mut found = false;
        for (i, &x) in cand.iter().enumerate() {
            let mut reg = region.to_vec();
            let mut abs = absorbed.to_vec();
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
    pub(super) fn for_each_joining_set(&self, tmax: usize, f: &mut dyn FnMut(&[bool], usize)) {
        let (region, absorbed, left) = self.start();
        let cand = self.frontier(&region);
        let n = region.len();
        let mut t = vec![false; n];
        let mut excluded = vec![false; n];
        self.grow(
            &region,
            &absorbed,
            left,
            tmax,
            0,
            &cand,
            &mut excluded,
            &mut t,
            f,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn grow(
        &self,
        region: &[bool],
        absorbed: &[bool],
        left: usize,
        tmax: usize,
        tsize: usize,
        cand: &[usize],
        excluded: &mut Vec<bool>,
        t: &mut Vec<bool>,
        f: &mut dyn FnMut(&[bool], usize),
    ) {
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
            self.grow(
                &reg,
                &abs,
                left - got,
                tmax,
                tsize + 1,
                &next,
                excluded,
                t,
                f,
            );
            t[x] = false;
        }
        for x in newly {
            excluded[x] = false;
        }
    }
}
