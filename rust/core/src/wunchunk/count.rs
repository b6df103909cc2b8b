//! Move counting and enumeration: exact counts of the legal moves (with a
//! small big integer beyond u128) and the move lists behind `legal_moves`.

use smallvec::SmallVec;

use crate::board::Board;
use crate::game::{Game, MoveActions};

use super::balance::ChunkJoiner;
use super::{Phase, Wunchunk};

impl Wunchunk {
    /// Number of legal moves as a big number.
    pub(super) fn count_big(&self) -> Big {
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
    pub(super) fn count_completions(&self) -> u128 {
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

    pub(super) fn enumerate_plain(&self, from: usize, k: usize, cur: &mut MoveActions, out: &mut Vec<MoveActions>) {
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

    pub(super) fn enumerate_checked(&self, cur: &mut MoveActions, out: &mut Vec<MoveActions>) {
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
pub(super) struct Big(Vec<u32>);

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
    pub(super) fn to_u128(&self) -> u128 {
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
