//! Virtual connections by H-search (Anshelevich's AND and OR rules), for
//! the solver's values pass ([`super::solver`]); boards of at most 64
//! cells, cells as bits.
//!
//! For one player, the *points* are their two edges, their groups and the
//! empty cells. A *full connection* (VC) between two points with carrier
//! `C` (a set of empty cells, never holding an end) means: the two are
//! joined, or can be joined by the player answering each opponent stone in
//! `C` inside `C`, whoever moves first (an empty end counts as the
//! player's stone). A *semi connection* (SC) with carrier `C` (its key, the
//! move that makes it, included) means the same when the player moves
//! first. The rules, each sound by itself:
//! - base: neighbouring points have a VC with an empty carrier (a cell on
//!   an edge row is next to that edge, a group next to the edges it
//!   touches);
//! - AND: VCs `x-z` and `z-y` with disjoint carriers, neither holding the
//!   other's far end, give `x-y`: a VC when `z` is a group, an SC with key
//!   `z` (carrier `C1 | C2 | {z}`) when `z` is empty;
//! - OR: SCs of `x-y` whose carriers have no cell in common give a VC
//!   with the union of the carriers (the opponent's stone misses one of
//!   them, whose key the player then takes).
//!
//! A player with a VC between their edges wins whoever moves; with an SC,
//! they win if they move. When the opponent has SCs between their edges,
//! the player to move must play in the intersection of their carriers
//! (the *mustplay*): any other move leaves one of them whole, and its key
//! wins for the opponent. Lists are capped per pair (a connection may be
//! missed, never made up).

use super::{Hex, O, X};

/// Most VCs / SCs kept per pair of points.
const MAX_VC: usize = 4;
const MAX_SC: usize = 8;
/// Most SCs combined by one use of the OR rule.
const OR_DEPTH: usize = 4;
/// Points: two edges and at most 64 cells.
const MAX_POINTS: usize = 66;

/// What H-search found for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct EdgeLinks {
    /// A VC between the player's edges.
    pub full: bool,
    /// The smallest carrier of the VCs between the player's edges (0
    /// when there is none).
    pub carrier: u64,
    /// An SC between the player's edges.
    pub semi: bool,
    /// The intersection of the carriers of the SCs between the player's
    /// edges (all empty cells when there is none).
    pub must: u64,
}

struct Scratch {
    np: usize,
    /// Per point: its cell bit (empty cells), 0 for edges and groups.
    bit: [u64; MAX_POINTS],
    /// Per point: a group (VCs through it), not an edge nor an empty cell.
    group: [bool; MAX_POINTS],
    vc: Vec<u64>,
    nvc: Vec<u8>,
    sc: Vec<u64>,
    nsc: Vec<u8>,
    /// Per point: the points it has a VC with.
    linked: [u128; MAX_POINTS],
    queue: Vec<(u8, u8, u64)>,
}

impl Scratch {
    fn new() -> Scratch {
        let pairs = MAX_POINTS * MAX_POINTS;
        Scratch {
            np: 0,
            bit: [0; MAX_POINTS],
            group: [false; MAX_POINTS],
            vc: vec![0; pairs * MAX_VC],
            nvc: vec![0; pairs],
            sc: vec![0; pairs * MAX_SC],
            nsc: vec![0; pairs],
            linked: [0; MAX_POINTS],
            queue: Vec::new(),
        }
    }

    #[inline]
    fn pair(&self, a: usize, b: usize) -> usize {
        if a < b {
            a * self.np + b
        } else {
            b * self.np + a
        }
    }

    fn add_vc(&mut self, a: usize, b: usize, c: u64) {
        let p = self.pair(a, b);
        let k = self.nvc[p] as usize;
        let list = &mut self.vc[p * MAX_VC..p * MAX_VC + k];
        if list.iter().any(|&x| subset(x, c)) {
            return;
        }
        // replace a superset, else append while there is room
        if let Some(x) = list.iter_mut().find(|x| subset(c, **x)) {
            *x = c;
        } else if k < MAX_VC {
            self.vc[p * MAX_VC + k] = c;
            self.nvc[p] += 1;
        } else {
            return;
        }
        self.linked[a] |= 1 << b;
        self.linked[b] |= 1 << a;
        self.queue.push((a as u8, b as u8, c));
    }

    fn add_sc(&mut self, a: usize, b: usize, c: u64) {
        let p = self.pair(a, b);
        if self.vc[p * MAX_VC..p * MAX_VC + self.nvc[p] as usize]
            .iter()
            .any(|&x| subset(x, c))
        {
            return;
        }
        let k = self.nsc[p] as usize;
        if self.sc[p * MAX_SC..p * MAX_SC + k]
            .iter()
            .any(|&x| subset(x, c))
        {
            return;
        }
        // OR rule: the new SC with some of the others, intersection empty
        let others: [u64; MAX_SC] =
            std::array::from_fn(|i| if i < k { self.sc[p * MAX_SC + i] } else { 0 });
        if let Some(u) = or_rule(&others[..k], c, c, 0, 1) {
            self.add_vc(a, b, u);
        }
        if let Some(x) = self.sc[p * MAX_SC..p * MAX_SC + k]
            .iter_mut()
            .find(|x| subset(c, **x))
        {
            *x = c;
        } else if k < MAX_SC {
            self.sc[p * MAX_SC + k] = c;
            self.nsc[p] += 1;
        }
    }
}

/// Whether carrier `a` lies inside carrier `b`.
#[inline]
fn subset(a: u64, b: u64) -> bool {
    a & !b == 0
}

/// A union of `union` with some of `scs[from..]` whose intersection with
/// `inter` is empty (at most [`OR_DEPTH`] SCs in all).
fn or_rule(scs: &[u64], inter: u64, union: u64, from: usize, depth: usize) -> Option<u64> {
    if depth >= OR_DEPTH {
        return None;
    }
    for j in from..scs.len() {
        let i2 = inter & scs[j];
        if i2 == inter {
            continue;
        }
        if i2 == 0 {
            return Some(union | scs[j]);
        }
        if let Some(u) = or_rule(scs, i2, union | scs[j], j + 1, depth + 1) {
            return Some(u);
        }
    }
    None
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::new());
}

impl Hex {
    /// H-search for `colour` on the current position (at most 64 cells,
    /// unfinished): see the module documentation.
    /// With `any_semi`, it stops at the first SC between the edges (its
    /// `must` is then not the full intersection).
    pub(super) fn edge_links(&self, colour: u8, any_semi: bool) -> EdgeLinks {
        debug_assert!(colour == X || colour == O);
        let empty = self.empty.words()[0];
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            self.h_search(&mut s, colour, empty, any_semi)
        })
    }

    fn h_search(&self, s: &mut Scratch, colour: u8, empty: u64, any_semi: bool) -> EdgeLinks {
        let n = self.board.num_cells();
        // points: 0, 1 the edges, then the groups' roots and the empty cells
        let mut point = [u8::MAX; 64];
        let mut np = 2;
        s.bit[0] = 0;
        s.bit[1] = 0;
        s.group[0] = false;
        s.group[1] = false;
        for c in 0..n {
            let v = self.colour[c];
            if v == 0 || (v == colour && self.links.find(c) == c) {
                point[c] = np as u8;
                s.bit[np] = if v == 0 { 1 << c } else { 0 };
                s.group[np] = v != 0;
                np += 1;
            }
        }
        s.np = np;
        s.nvc[..np * np].fill(0);
        s.nsc[..np * np].fill(0);
        s.linked[..np].fill(0);
        s.queue.clear();
        let point_of = |c: usize| -> Option<usize> {
            match self.colour[c] {
                0 => Some(point[c] as usize),
                v if v == colour => Some(point[self.links.find(c)] as usize),
                _ => None,
            }
        };
        // base connections
        for c in 0..n {
            let Some(p) = point_of(c) else { continue };
            let bits = self.edge_bits(c, colour);
            for k in 0..2 {
                if bits >> k & 1 != 0 {
                    s.add_vc(p, k, 0);
                }
            }
            if self.colour[c] == 0 {
                for &nb in self.board.neighbors(c) {
                    if let Some(q) = point_of(nb as usize) {
                        if q != p {
                            s.add_vc(p, q, 0);
                        }
                    }
                }
            }
        }
        // AND rule over each new VC, both of its ends as the middle
        let mut head = 0;
        while head < s.queue.len() {
            let (x, y, c) = s.queue[head];
            head += 1;
            let goal = s.pair(0, 1);
            if s.nvc[goal] > 0 || (any_semi && s.nsc[goal] > 0) {
                break;
            }
            for (mid, end) in [(x as usize, y as usize), (y as usize, x as usize)] {
                if mid < 2 {
                    continue;
                }
                let mbit = s.bit[mid];
                let mut others = s.linked[mid] & !(1u128 << end);
                while others != 0 {
                    let z = others.trailing_zeros() as usize;
                    others &= others - 1;
                    if c & s.bit[z] != 0 {
                        continue;
                    }
                    let p = s.pair(mid, z);
                    for i in 0..s.nvc[p] as usize {
                        let c2 = s.vc[p * MAX_VC + i];
                        if c2 & c != 0 || c2 & s.bit[end] != 0 {
                            continue;
                        }
                        if s.group[mid] {
                            s.add_vc(end, z, c | c2);
                        } else {
                            s.add_sc(end, z, c | c2 | mbit);
                        }
                    }
                }
            }
        }
        let p = s.pair(0, 1);
        let full = s.nvc[p] > 0;
        let carrier = s.vc[p * MAX_VC..p * MAX_VC + s.nvc[p] as usize]
            .iter()
            .copied()
            .min_by_key(|c| c.count_ones())
            .unwrap_or(0);
        let k = s.nsc[p] as usize;
        let must = s.sc[p * MAX_SC..p * MAX_SC + k]
            .iter()
            .fold(empty, |m, &c| m & c);
        EdgeLinks {
            full,
            carrier,
            semi: k > 0,
            must,
        }
    }
}
