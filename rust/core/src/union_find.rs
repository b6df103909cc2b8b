//! Incremental connectivity by union-find, the part of the shared group
//! code for games that only ask "which group is this stone in, and what
//! does that group touch" (Hex and Y: which edges; Havannah: which edges
//! and corners): every set keeps a rank and a payload of bits ([`Payload`]:
//! eight by default, sixteen for Havannah), ORed together when sets join. A
//! cell takes four bytes with the eight-bit payload, so a batch of boards
//! stays small in cache.
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
//! Havannah's rings are found here too ([`ring_trigger`], [`ring_walk`]):
//! a ring can only close where a stone joins its group at two places that
//! are not adjacent around it, and only then is the group walked.
//!
//! [`Groups`](crate::groups::Groups) is the other part: member lists,
//! O(1) root lookups, size histograms and whole-group removal, for games
//! whose rules count or capture groups.

use std::fmt::Debug;
use std::ops::{BitOr, BitOrAssign};

use crate::bitset::BitIter;
use crate::board::{Board, NO_CELL};
use crate::unchecked::{get, get_mut};

/// The bits a set carries (`u8` or `u16`), ORed when sets join.
pub trait Payload:
    Copy + Default + Eq + Debug + BitOr<Output = Self> + BitOrAssign + Send + Sync + 'static
{
}

impl<P: Copy + Default + Eq + Debug + BitOr<Output = P> + BitOrAssign + Send + Sync + 'static>
    Payload for P
{
}

/// One cell's link: its parent (itself at a root), and at roots the set's
/// rank (an upper bound on its height; 0 for a cell without a stone, 1 for
/// a lone stone) and payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node<P> {
    parent: u16,
    rank: u8,
    payload: P,
}

/// Disjoint sets of cells (stones) with a payload per set. Cells that hold
/// no stone are sets of size 0 that nothing links to.
#[derive(Debug, PartialEq, Eq)]
pub struct UnionFind<P: Payload = u8> {
    nodes: Vec<Node<P>>,
}

impl<P: Payload> Clone for UnionFind<P> {
    fn clone(&self) -> Self {
        UnionFind {
            nodes: self.nodes.clone(),
        }
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
pub struct Placed<P: Payload = u8> {
    root: u16,
    old_rank: u8,
    old_payload: P,
    joined: [u16; 6],
    count: u8,
}

impl<P: Payload> Placed<P> {
    /// The root of the set the stone joined (the stone itself when alone).
    #[inline]
    pub fn root(&self) -> usize {
        self.root as usize
    }
}

/// The most sets one stone can join at once (a cell's neighbours).
const MAX_JOINED: usize = 6;

impl<P: Payload> UnionFind<P> {
    /// `num_cells` cells, none holding a stone.
    pub fn new(num_cells: usize) -> UnionFind<P> {
        assert!(
            num_cells < NO_CELL as usize,
            "too many cells for 16-bit links"
        );
        UnionFind {
            nodes: (0..num_cells)
                .map(|c| Node {
                    parent: c as u16,
                    rank: 0,
                    payload: P::default(),
                })
                .collect(),
        }
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
    pub fn payload(&self, root: usize) -> P {
        self.nodes[root].payload
    }

    /// A stone on the empty `cell` with `payload`, joined with the sets of
    /// the stones on `friends` (path halving; not undoable). Returns the
    /// root of the set it ends in.
    #[inline]
    pub fn link(
        &mut self,
        cell: usize,
        payload: P,
        friends: impl IntoIterator<Item = usize>,
    ) -> usize {
        self.nodes[cell] = Node {
            parent: cell as u16,
            rank: 1,
            payload,
        };
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
            let (high, low, nl) = if na.rank > nb.rank {
                (a, b, nb)
            } else {
                (b, a, na)
            };
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
    pub fn place(
        &mut self,
        cell: usize,
        payload: P,
        friends: impl IntoIterator<Item = usize>,
    ) -> Placed<P> {
        let mut roots = [NO_CELL; MAX_JOINED];
        let mut count = 0;
        let mut best = NO_CELL as usize;
        for f in friends {
            let r = self.find(f);
            if roots[..count].contains(&(r as u16)) {
                continue;
            }
            assert!(
                count < MAX_JOINED,
                "a stone joins at most {MAX_JOINED} sets"
            );
            roots[count] = r as u16;
            count += 1;
            if best == NO_CELL as usize || self.nodes[r].rank > self.nodes[best].rank {
                best = r;
            }
        }
        if count == 0 {
            self.nodes[cell] = Node {
                parent: cell as u16,
                rank: 1,
                payload,
            };
            return Placed {
                root: cell as u16,
                old_rank: 0,
                old_payload: P::default(),
                joined: roots,
                count: 0,
            };
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
        self.nodes[cell] = Node {
            parent: best as u16,
            rank: 1,
            payload,
        };
        let b = &mut self.nodes[best];
        b.rank = rank;
        b.payload = bits;
        Placed {
            root: best as u16,
            old_rank: old.rank,
            old_payload: old.payload,
            joined,
            count: k as u8,
        }
    }

    /// Take back the stone on `cell` added by the [`UnionFind::place`] that
    /// returned `placed`; every `place` since must have been taken back and
    /// no [`UnionFind::link`] or [`UnionFind::find_halving`] run since.
    pub fn unplace(&mut self, cell: usize, placed: Placed<P>) {
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
        self.nodes[cell] = Node {
            parent: cell as u16,
            rank: 0,
            payload: P::default(),
        };
    }

    /// Take a stone that is a set of its own off `cell`.
    pub fn clear(&mut self, cell: usize) {
        debug_assert!(self.nodes[cell].parent as usize == cell && self.nodes[cell].rank <= 1);
        self.nodes[cell] = Node {
            parent: cell as u16,
            rank: 0,
            payload: P::default(),
        };
    }
}

/// OpenSpiel's order of the six directions around a cell (Havannah's
/// `neighbor_offsets`), as indices into [`crate::board::CYCLIC_DIRECTIONS`]:
/// up-left, up-right, right, down-right, down-left, left, each adjacent to
/// the next.
const RING_DIRECTIONS: [usize; 6] = [2, 1, 0, 5, 4, 3];

/// For each set of friendly neighbours (bit `p` for the neighbour in
/// direction `RING_DIRECTIONS[p]`), the ones [`ring_trigger`]'s walk round
/// the cell joins: a friend joins unless the one before it (not wrapping
/// round) joined.
const JOINS: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut f = 0;
    while f < 64 {
        let mut joined = 0u8;
        let mut p = 0;
        while p < 6 {
            if f >> p & 1 != 0 && (p == 0 || joined >> (p - 1) & 1 == 0) {
                joined |= 1 << p;
            }
            p += 1;
        }
        t[f] = joined;
        f += 1;
    }
    t
};

/// The neighbours of `colour` among `around` (a cell's
/// [`Board::cyclic_neighbors`]) as bits in OpenSpiel's order round the
/// cell (bit `p` for direction `RING_DIRECTIONS[p]`), read without a branch
/// each (their colours are what a random game cannot predict).
#[inline(always)]
pub fn ring_friends(around: &[u16; 6], colours: &[u8], colour: u8) -> u8 {
    let mut friends = 0;
    for (p, &d) in RING_DIRECTIONS.iter().enumerate() {
        friends |= ((colours.get(around[d] as usize).copied() == Some(colour)) as u8) << p;
    }
    friends
}

/// The cells of the neighbours `friends` ([`ring_friends`]) among `around`,
/// in OpenSpiel's order.
#[inline(always)]
pub fn ring_cells(around: &[u16; 6], friends: u8) -> impl Iterator<Item = usize> + '_ {
    BitIter(friends as u64).map(|p| around[RING_DIRECTIONS[p as usize]] as usize)
}

/// Whether a stone put on a cell with neighbours `around` (its
/// [`Board::cyclic_neighbors`]), of which `friends` ([`ring_friends`]) are
/// of its colour, may close a ring: walking round the cell, each friend
/// that does not directly follow another one (a run of adjacent friends is
/// one group already, and the cell on a sharp corner closes nothing) joins
/// the stone's group, and the trigger is a second join into a group
/// already joined. `root` gives the group of a stone before the new one.
/// This is OpenSpiel's test (`alreadyjoined` in `havannah.cc`, with its
/// neighbour order): a ring through the new stone needs two of its
/// neighbours that are not adjacent around it to be joined already. The
/// joins come from a table ([`JOINS`]), and groups are looked up only when
/// two or more join.
#[inline(always)]
pub fn ring_trigger(around: &[u16; 6], friends: u8, root: impl Fn(usize) -> usize) -> bool {
    let joins = JOINS[friends as usize];
    if joins.count_ones() < 2 {
        return false;
    }
    let mut roots = [NO_CELL as usize; 3];
    for (k, c) in ring_cells(around, joins).enumerate() {
        let r = root(c);
        if roots[..k].contains(&r) {
            return true;
        }
        roots[k] = r;
    }
    false
}

/// Whether the stones of `colour` (the stone on `cell` among them) hold a
/// ring through `cell`: OpenSpiel's walk (`CheckRingDFS` in
/// `havannah.cc`) along stones of that colour, leaving `cell` in one of
/// four directions and turning at most 60 degrees at each step, that comes
/// back to a stone already on its path. Stones on the path are marked by
/// bit 7 of `colours` while the walk is on them; all marks are gone when
/// it returns.
pub fn ring_walk(board: &Board, colours: &mut [u8], cell: usize, colour: u8) -> bool {
    const MARK: u8 = 0x80;
    /// Whether a walk on the stone on `cell` (unmarked, of `colour`),
    /// going on in the `COUNT` directions from `first` (mod 6), meets its
    /// path.
    fn walk<const COUNT: usize>(
        board: &Board,
        colours: &mut [u8],
        cell: usize,
        colour: u8,
        first: usize,
    ) -> bool {
        colours[cell] |= MARK;
        let around = board.cyclic_neighbors(cell);
        // The neighbours of `colour` ahead, and those on the path, read
        // without a branch each.
        let (mut same, mut marked) = (0u8, 0u8);
        for k in 0..COUNT {
            let p = (first + k) % 6;
            let v = colours
                .get(around[RING_DIRECTIONS[p]] as usize)
                .copied()
                .unwrap_or(0);
            same |= ((v & !MARK == colour) as u8) << p;
            marked |= ((v & MARK != 0) as u8) << p;
        }
        // A walk that can step back onto its path has found a ring, whatever
        // order the directions are tried in (the answer is whether one exists).
        let found = same & marked != 0
            || BitIter(same as u64).any(|p| {
                walk::<3>(
                    board,
                    colours,
                    around[RING_DIRECTIONS[p as usize]] as usize,
                    colour,
                    p as usize + 5,
                )
            });
        colours[cell] &= !MARK;
        found
    }
    let v = colours[cell];
    if v & !MARK != colour {
        return false;
    }
    if v & MARK != 0 {
        return true;
    }
    walk::<4>(board, colours, cell, colour, 0)
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
            comp.iter()
                .for_each(|&c| out[c] = (*comp.iter().min().unwrap(), bits));
        }
        out
    }

    /// What the structure says of every stone: its group's smallest cell
    /// (by comparing roots) and the group's payload.
    fn observed(u: &UnionFind<u8>, colours: &[u8]) -> Vec<(usize, u8)> {
        let n = colours.len();
        let roots: Vec<usize> = (0..n)
            .map(|c| {
                if colours[c] == 0 {
                    usize::MAX
                } else {
                    u.find(c)
                }
            })
            .collect();
        let mut smallest = vec![usize::MAX; n];
        for c in (0..n).rev().filter(|&c| colours[c] != 0) {
            smallest[roots[c]] = c;
        }
        (0..n)
            .map(|c| {
                if colours[c] == 0 {
                    (usize::MAX, 0)
                } else {
                    (smallest[roots[c]], u.payload(roots[c]))
                }
            })
            .collect()
    }

    /// Both ways of adding stones give the flood fill's groups and payloads;
    /// `unplace` restores every link exactly.
    #[test]
    fn agrees_with_flood_fill_and_unplaces_exactly() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut merges = 0;
        for board in [
            Board::hexhex(3).unwrap(),
            Board::hexhex(5).unwrap(),
            Board::rhombus(6, 9).unwrap(),
            Board::rhombus(11, 11).unwrap(),
        ] {
            let n = board.num_cells();
            for round in 0..60 {
                let fast = round % 2 == 0;
                let mut u = UnionFind::<u8>::new(n);
                let mut colours = vec![0u8; n];
                let mut payloads = vec![0u8; n];
                let mut stack = Vec::new();
                for _ in 0..2 * n {
                    let cell = rng.random_range(0..n);
                    if colours[cell] == 0 && (fast || rng.random_bool(0.7)) {
                        let colour = rng.random_range(1..=2u8);
                        let bits = 1u8 << rng.random_range(0..8);
                        let friends: Vec<usize> = board
                            .neighbors(cell)
                            .iter()
                            .map(|&c| c as usize)
                            .filter(|&c| colours[c] == colour)
                            .collect();
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
        let mut u = UnionFind::<u8>::new(n);
        for cell in 0..n {
            let friends: Vec<usize> = board
                .neighbors(cell)
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| c < cell)
                .collect();
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

    /// [`ring_trigger`] as OpenSpiel writes it (`alreadyjoined`): round the
    /// cell in its order, skipping the neighbour after each join.
    fn ring_trigger_reference(
        board: &Board,
        colours: &[u8],
        cell: usize,
        colour: u8,
        root: impl Fn(usize) -> usize,
    ) -> bool {
        let around = board.cyclic_neighbors(cell);
        let mut roots = Vec::new();
        let mut skip = false;
        for d in RING_DIRECTIONS {
            if skip {
                skip = false;
                continue;
            }
            let nb = around[d];
            if nb != NO_CELL && colours[nb as usize] == colour {
                let r = root(nb as usize);
                if roots.contains(&r) {
                    return true;
                }
                roots.push(r);
                skip = true;
            }
        }
        false
    }

    /// [`ring_walk`] as OpenSpiel writes it (`CheckRingDFS`): depth first,
    /// by recursion, the directions in its order.
    fn ring_walk_reference(board: &Board, colours: &mut [u8], cell: usize, colour: u8) -> bool {
        fn walk(
            board: &Board,
            colours: &mut [u8],
            cell: usize,
            colour: u8,
            left: usize,
            right: usize,
        ) -> bool {
            const MARK: u8 = 0x80;
            let v = colours[cell];
            if v & !MARK != colour {
                return false;
            }
            if v & MARK != 0 {
                return true;
            }
            colours[cell] = v | MARK;
            let mut found = false;
            for i in left..=right {
                let dir = i % 6;
                let nb = board.cyclic_neighbors(cell)[RING_DIRECTIONS[dir]];
                if nb != NO_CELL && walk(board, colours, nb as usize, colour, dir + 5, dir + 7) {
                    found = true;
                    break;
                }
            }
            colours[cell] = v;
            found
        }
        walk(board, colours, cell, colour, 0, 3)
    }

    /// The trigger and the walk answer as OpenSpiel's forms of them from
    /// every cell of random fillings of Havannah boards (sides 2 to 13;
    /// groups by flood fill), and the walk leaves the colours as they were.
    #[test]
    fn ring_trigger_and_walk_match_openspiel() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let (mut rings, mut triggers, mut walks) = (0, 0, 0);
        for side in 2..=13 {
            let board = Board::hexhex(side).unwrap().top_down();
            let n = board.num_cells();
            for _ in 0..30 {
                let fill = rng.random_range(0.2..0.95);
                let mut colours: Vec<u8> = (0..n)
                    .map(|_| {
                        if rng.random_bool(fill) {
                            rng.random_range(1..=2u8)
                        } else {
                            0
                        }
                    })
                    .collect();
                let before = colours.clone();
                let groups = flood(&board, &colours, &vec![0; n]);
                for cell in 0..n {
                    for colour in 1..=2u8 {
                        let root = |c: usize| groups[c].0;
                        let t = ring_trigger_reference(&board, &colours, cell, colour, root);
                        let around = board.cyclic_neighbors(cell);
                        assert_eq!(
                            ring_trigger(around, ring_friends(around, &colours, colour), root),
                            t,
                            "side {side} cell {cell}"
                        );
                        triggers += t as usize;
                    }
                    let colour = colours[cell].max(1);
                    let expected = ring_walk_reference(&board, &mut colours, cell, colour);
                    assert_eq!(
                        ring_walk(&board, &mut colours, cell, colour),
                        expected,
                        "side {side} cell {cell}"
                    );
                    assert_eq!(colours, before);
                    rings += expected as usize;
                    walks += 1;
                }
            }
        }
        assert!(
            rings > walks / 20 && rings < walks / 2 && triggers > walks / 20,
            "{rings} rings, {triggers} triggers in {walks} walks"
        );
    }
}
