//! Incremental connectivity by union-find, the part of the shared group
//! code for games that only ask "which group is this stone in, and what
//! does that group touch" (Hex: which edges): every set keeps a rank and an
//! eight-bit payload, ORed together when sets join. A cell takes four
//! bytes, so a batch of boards stays small in cache.
//!
//! Sets join by rank (the lower root goes under the higher, as union by
//! size does with sizes), so a find without compression walks at most
//! log2(n) links. A stone is added in one of two ways:
//!
//! - [`UnionFind::link`] finds with path halving: O(alpha(n)) amortised per
//!   stone, not undoable. Playouts and searches that copy positions use it.
//! - [`UnionFind::place`] finds without changing any link and returns a
//!   [`Placed`] record; [`UnionFind::unplace`] takes the stone back exactly.
//!   Tree walks that make and unmake moves use it.
//!
//! [`Groups`](crate::groups::Groups) is the other part: member lists,
//! O(1) root lookups, size histograms and whole-group removal, for games
//! whose rules count or capture groups.

use crate::board::NO_CELL;
use crate::unchecked::{get, get_mut};

/// One cell's link: its parent (itself at a root), and at roots the set's
/// rank (an upper bound on its height; 0 for a cell without a stone, 1 for
/// a lone stone) and payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    parent: u16,
    rank: u8,
    payload: u8,
}

/// Disjoint sets of cells (stones) with a payload per set. Cells that hold
/// no stone are sets of size 0 that nothing links to.
#[derive(Debug, PartialEq, Eq)]
pub struct UnionFind {
    nodes: Vec<Node>,
}

impl Clone for UnionFind {
    fn clone(&self) -> Self {
        UnionFind { nodes: self.nodes.clone() }
    }

    /// Reuses this value's allocation (playouts keep one scratch state).
    fn clone_from(&mut self, s: &Self) {
        self.nodes.clone_from(&s.nodes);
    }
}

/// What [`UnionFind::unplace`] needs to take a stone back: the root of the
/// set the stone ended in, that root's rank and payload before, and the
/// other roots it absorbed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    root: u16,
    old_rank: u8,
    old_payload: u8,
    joined: [u16; 6],
    count: u8,
}

impl Placed {
    /// The root of the set the stone joined (the stone itself when alone).
    #[inline]
    pub fn root(&self) -> usize {
        self.root as usize
    }
}

/// The most sets one stone can join at once (a cell's neighbours).
const MAX_JOINED: usize = 6;

impl UnionFind {
    /// `num_cells` cells, none holding a stone.
    pub fn new(num_cells: usize) -> UnionFind {
        assert!(num_cells < NO_CELL as usize, "too many cells for 16-bit links");
        UnionFind { nodes: (0..num_cells).map(|c| Node { parent: c as u16, rank: 0, payload: 0 }).collect() }
    }

    #[inline]
    pub fn num_cells(&self) -> usize {
        self.nodes.len()
    }

    /// The root of the set holding the stone on `cell`, without changing
    /// any link (at most log2(n) steps).
    #[inline]
    pub fn find(&self, cell: usize) -> usize {
        assert!(cell < self.nodes.len(), "cell {cell} out of range");
        let mut x = cell;
        // SAFETY: `cell` checked; parents are cells (set only by this type).
        unsafe {
            loop {
                let p = get(&self.nodes, x).parent as usize;
                if p == x {
                    return x;
                }
                x = p;
            }
        }
    }

    /// The root of the set holding the stone on `cell`, pointing every other
    /// cell on the way at its grandparent (path halving).
    #[inline]
    pub fn find_halving(&mut self, cell: usize) -> usize {
        assert!(cell < self.nodes.len(), "cell {cell} out of range");
        let mut x = cell;
        // SAFETY: as in `find`.
        unsafe {
            loop {
                let p = get(&self.nodes, x).parent as usize;
                if p == x {
                    return x;
                }
                let gp = get(&self.nodes, p).parent;
                get_mut(&mut self.nodes, x).parent = gp;
                x = gp as usize;
            }
        }
    }

    /// Prefetch every cache line of the links (a hint, for a batch that
    /// is about to use them).
    #[inline(always)]
    pub fn prefetch(&self) {
        crate::unchecked::prefetch_slice(&self.nodes);
    }

    /// Payload of the set whose root is `root`.
    #[inline]
    pub fn payload(&self, root: usize) -> u8 {
        self.nodes[root].payload
    }

    /// A stone on the empty `cell` with `payload`, joined with the sets of
    /// the stones on `friends` (path halving; not undoable). Returns the
    /// root of the set it ends in.
    #[inline]
    pub fn link(&mut self, cell: usize, payload: u8, friends: impl IntoIterator<Item = usize>) -> usize {
        self.nodes[cell] = Node { parent: cell as u16, rank: 1, payload };
        let mut root = cell;
        for f in friends {
            let r = self.find_halving(f);
            if r != root {
                root = self.union_roots(root, r);
            }
        }
        root
    }

    /// Join the sets of the distinct roots `a` and `b` (the lower rank
    /// under the higher, `a` under `b` on a tie); returns the new root.
    #[inline(always)]
    fn union_roots(&mut self, a: usize, b: usize) -> usize {
        // SAFETY: roots come from `find_halving` on checked cells.
        unsafe {
            let (na, nb) = (get(&self.nodes, a), get(&self.nodes, b));
            let (high, low, nl) = if na.rank > nb.rank { (a, b, nb) } else { (b, a, na) };
            get_mut(&mut self.nodes, low).parent = high as u16;
            let n = get_mut(&mut self.nodes, high);
            n.rank += (n.rank == nl.rank) as u8;
            n.payload |= nl.payload;
            high
        }
    }

    /// A stone on the empty `cell` with `payload`, joined with the sets of
    /// the stones on `friends` (at most six distinct sets), changing no
    /// link but the ones [`UnionFind::unplace`] restores.
    pub fn place(&mut self, cell: usize, payload: u8, friends: impl IntoIterator<Item = usize>) -> Placed {
        let mut roots = [NO_CELL; MAX_JOINED];
        let mut count = 0;
        let mut best = NO_CELL as usize;
        for f in friends {
            let r = self.find(f);
            if roots[..count].contains(&(r as u16)) {
                continue;
            }
            assert!(count < MAX_JOINED, "a stone joins at most {MAX_JOINED} sets");
            roots[count] = r as u16;
            count += 1;
            if best == NO_CELL as usize || self.nodes[r].rank > self.nodes[best].rank {
                best = r;
            }
        }
        if count == 0 {
            self.nodes[cell] = Node { parent: cell as u16, rank: 1, payload };
            return Placed { root: cell as u16, old_rank: 0, old_payload: 0, joined: roots, count: 0 };
        }
        let old = self.nodes[best];
        let mut joined = [NO_CELL; MAX_JOINED];
        let mut k = 0;
        // The stone (rank 1) goes under `best` (rank >= 1), as do the others.
        let (mut rank, mut bits) = (old.rank + (old.rank == 1) as u8, old.payload | payload);
        for &r in &roots[..count] {
            if r as usize == best {
                continue;
            }
            let n = &mut self.nodes[r as usize];
            n.parent = best as u16;
            rank = rank.max(n.rank + 1);
            bits |= n.payload;
            joined[k] = r;
            k += 1;
        }
        self.nodes[cell] = Node { parent: best as u16, rank: 1, payload };
        let b = &mut self.nodes[best];
        b.rank = rank;
        b.payload = bits;
        Placed { root: best as u16, old_rank: old.rank, old_payload: old.payload, joined, count: k as u8 }
    }

    /// Take back the stone on `cell` added by the [`UnionFind::place`] that
    /// returned `placed`; every `place` since must have been taken back and
    /// no [`UnionFind::link`] or [`UnionFind::find_halving`] run since.
    pub fn unplace(&mut self, cell: usize, placed: Placed) {
        let root = placed.root as usize;
        if root != cell {
            let b = &mut self.nodes[root];
            b.rank = placed.old_rank;
            b.payload = placed.old_payload;
            for &r in &placed.joined[..placed.count as usize] {
                self.nodes[r as usize].parent = r;
            }
        }
        // The stone may hang under `root`: reset it directly (`clear` is for
        // a stone that is a set of its own).
        self.nodes[cell] = Node { parent: cell as u16, rank: 0, payload: 0 };
    }

    /// Take a stone that is a set of its own off `cell`.
    pub fn clear(&mut self, cell: usize) {
        debug_assert!(self.nodes[cell].parent as usize == cell && self.nodes[cell].rank <= 1);
        self.nodes[cell] = Node { parent: cell as u16, rank: 0, payload: 0 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Per cell, the smallest cell of its group and the OR of the group's
    /// payloads, by flood fill.
    fn flood(board: &Board, colours: &[u8], payloads: &[u8]) -> Vec<(usize, u8)> {
        let n = colours.len();
        let mut out = vec![(usize::MAX, 0); n];
        for s in 0..n {
            if colours[s] == 0 || out[s].0 != usize::MAX {
                continue;
            }
            let (mut stack, mut comp) = (vec![s], vec![s]);
            out[s].0 = s;
            while let Some(c) = stack.pop() {
                for &nb in board.neighbors(c) {
                    let nb = nb as usize;
                    if out[nb].0 == usize::MAX && colours[nb] == colours[s] {
                        out[nb].0 = s;
                        stack.push(nb);
                        comp.push(nb);
                    }
                }
            }
            let bits = comp.iter().fold(0, |b, &c| b | payloads[c]);
            comp.iter().for_each(|&c| out[c] = (*comp.iter().min().unwrap(), bits));
        }
        out
    }

    /// What the structure says of every stone: its group's smallest cell
    /// (by comparing roots) and the group's payload.
    fn observed(u: &UnionFind, colours: &[u8]) -> Vec<(usize, u8)> {
        let n = colours.len();
        let roots: Vec<usize> = (0..n).map(|c| if colours[c] == 0 { usize::MAX } else { u.find(c) }).collect();
        let mut smallest = vec![usize::MAX; n];
        for c in (0..n).rev().filter(|&c| colours[c] != 0) {
            smallest[roots[c]] = c;
        }
        (0..n).map(|c| if colours[c] == 0 { (usize::MAX, 0) } else { (smallest[roots[c]], u.payload(roots[c])) }).collect()
    }

    /// Both ways of adding stones give the flood fill's groups and payloads;
    /// `unplace` restores every link exactly.
    #[test]
    fn agrees_with_flood_fill_and_unplaces_exactly() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut merges = 0;
        for board in [Board::hexhex(3).unwrap(), Board::hexhex(5).unwrap(), Board::rhombus(6, 9).unwrap(), Board::rhombus(11, 11).unwrap()] {
            let n = board.num_cells();
            for round in 0..60 {
                let fast = round % 2 == 0;
                let mut u = UnionFind::new(n);
                let mut colours = vec![0u8; n];
                let mut payloads = vec![0u8; n];
                let mut stack = Vec::new();
                for _ in 0..2 * n {
                    let cell = rng.random_range(0..n);
                    if colours[cell] == 0 && (fast || rng.random_bool(0.7)) {
                        let colour = rng.random_range(1..=2u8);
                        let bits = 1u8 << rng.random_range(0..8);
                        let friends: Vec<usize> = board.neighbors(cell).iter().map(|&c| c as usize).filter(|&c| colours[c] == colour).collect();
                        colours[cell] = colour;
                        payloads[cell] = bits;
                        if fast {
                            let root = u.link(cell, bits, friends.iter().copied());
                            assert_eq!(u.find(cell), root);
                        } else {
                            let before = u.clone();
                            let placed = u.place(cell, bits, friends.iter().copied());
                            assert_eq!(u.find(cell), placed.root());
                            merges += placed.count as usize;
                            stack.push((cell, placed, before));
                        }
                        let fl = flood(&board, &colours, &payloads);
                        let seen = observed(&u, &colours);
                        for c in 0..n {
                            if colours[c] != 0 {
                                assert_eq!(seen[c], fl[c]);
                            }
                        }
                    } else if let Some((cell, placed, before)) = stack.pop() {
                        u.unplace(cell, placed);
                        colours[cell] = 0;
                        payloads[cell] = 0;
                        assert_eq!(u, before);
                    }
                }
                while let Some((cell, placed, before)) = stack.pop() {
                    u.unplace(cell, placed);
                    assert_eq!(u, before);
                }
            }
        }
        assert!(merges > 300, "{merges}");
    }

    /// Union by rank keeps every find short even without compression.
    #[test]
    fn finds_stay_short() {
        let board = Board::rhombus(19, 19).unwrap();
        let n = board.num_cells();
        let mut u = UnionFind::new(n);
        for cell in 0..n {
            let friends: Vec<usize> = board.neighbors(cell).iter().map(|&c| c as usize).filter(|&c| c < cell).collect();
            u.place(cell, 0, friends);
        }
        let depth = |mut c: usize| {
            let mut d = 0;
            while u.nodes[c].parent as usize != c {
                c = u.nodes[c].parent as usize;
                d += 1;
            }
            d
        };
        let deepest = (0..n).map(depth).max().unwrap();
        assert!(deepest <= (n as f64).log2() as usize, "{deepest}");
        assert!((0..n).all(|c| u.find(c) == u.find(0)));
    }
}
