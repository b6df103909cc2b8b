//! Move counting and enumeration: exact counts of the legal moves and the
//! move lists behind `legal_moves`.
//!
//! A count is a sum of products of binomials and powers. It is evaluated in
//! `u128` with overflow checks (the fast path perft uses at every leaf
//! parent) and, only when that overflows, again in `BigUint`.

use num_bigint::BigUint;
use smallvec::SmallVec;

use crate::board::Board;
use crate::game::{Game, MoveActions};

use super::balance::ChunkJoiner;
use super::{Phase, Wunchunk};

impl Wunchunk {
    /// The terms of the number of legal moves (between turns).
    fn move_terms(&self) -> Terms {
        if self.st.over {
            return Terms {
                extra: 0,
                sets: Sets::None,
            };
        }
        match self.st.phase {
            Phase::Choose => {
                return Terms {
                    extra: 2,
                    sets: Sets::None,
                }
            }
            Phase::Setup => {
                return Terms {
                    extra: self.count_setup(),
                    sets: Sets::None,
                }
            }
            Phase::Play => {}
        }
        let e = self.num_empty as usize;
        let kmax = (self.st.allot as usize).min(e);
        let extra = 1 + self.swap_legal() as u128;
        let n = self.ncol() as u32;
        let sets = if !self.balance_turn() {
            Sets::Free { e, kmax, n }
        } else {
            Sets::Balanced {
                f: self.colour1_sets(kmax, None),
                e,
                kmax,
                n,
                from: 1,
            }
        };
        Terms { extra, sets }
    }

    /// Number of legal moves, exact.
    pub(super) fn count_big(&self) -> BigUint {
        self.move_terms().exact()
    }

    /// Number of legal moves, saturating at `u128::MAX`.
    pub(super) fn count_saturating(&self) -> u128 {
        self.move_terms().saturating()
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
        let terms = if !self.balance_turn() {
            // END, or k more stones on the cells above
            Terms {
                extra: 1,
                sets: Sets::Free { e, kmax, n },
            }
        } else {
            // k = 0 is END, allowed when colour 1 already has one chunk
            Terms {
                extra: 0,
                sets: Sets::Balanced {
                    f: self.colour1_sets(kmax, Some(self.st.last as usize)),
                    e,
                    kmax,
                    n,
                    from: 0,
                },
            }
        };
        terms.saturating()
    }

    /// Open setup: `pass` plus ordered pairs of disjoint adjacent empty pairs.
    fn count_setup(&self) -> u128 {
        let board = &*self.board;
        let mut edges: u128 = 0;
        let mut sq: u128 = 0;
        for v in self.empty.iter() {
            let d = board
                .neighbors(v)
                .iter()
                .filter(|&&w| self.empty.contains(w as usize))
                .count() as u128;
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
        let usable: Vec<bool> = (0..n)
            .map(|c| self.empty.contains(c) && above.is_none_or(|a| c > a))
            .collect();
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

    pub(super) fn enumerate_plain(
        &self,
        from: usize,
        k: usize,
        cur: &mut MoveActions,
        out: &mut Vec<MoveActions>,
    ) {
        let n = self.ncol();
        let kmax = self.st.allot as usize;
        for x in self.empty.from(from).iter() {
            for c in 1..=n {
                cur.push(self.place_action(x, c));
                let more = k + 1 < kmax && !self.empty.from(x + 1).is_empty();
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
fn independent_counts(
    board: &Board,
    ones: &[bool],
    usable: &[bool],
    t: &[bool],
    mmax: usize,
) -> Vec<u128> {
    let n = board.num_cells();
    let free: Vec<bool> = (0..n)
        .map(|v| {
            usable[v]
                && !t[v]
                && board
                    .neighbors(v)
                    .iter()
                    .all(|&w| !ones[w as usize] && !t[w as usize])
        })
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
            let nb: SmallVec<[usize; 6]> = board
                .neighbors(v)
                .iter()
                .map(|&w| w as usize)
                .filter(|&w| free[w])
                .collect();
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
    let mut states: std::collections::HashMap<(u64, usize), u128> =
        std::collections::HashMap::new();
    states.insert((0, 0), 1);
    for v in 0..n {
        let mut next: std::collections::HashMap<(u64, usize), u128> =
            std::collections::HashMap::new();
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

/// A count: `extra` plus the placement sets.
struct Terms {
    extra: u128,
    sets: Sets,
}

enum Sets {
    None,
    /// [`free_sets`]
    Free {
        e: usize,
        kmax: usize,
        n: u32,
    },
    /// [`balanced_sets`]
    Balanced {
        f: Vec<u128>,
        e: usize,
        kmax: usize,
        n: u32,
        from: usize,
    },
}

impl Terms {
    fn eval<T: Exact>(&self) -> Option<T> {
        let sets = match &self.sets {
            Sets::None => T::of(0),
            Sets::Free { e, kmax, n } => free_sets(*e, *kmax, *n)?,
            Sets::Balanced {
                f,
                e,
                kmax,
                n,
                from,
            } => balanced_sets(f, *e, *kmax, *n, *from)?,
        };
        sets.add(&T::of(self.extra))
    }

    fn saturating(&self) -> u128 {
        self.eval::<u128>().unwrap_or(u128::MAX)
    }

    fn exact(&self) -> BigUint {
        match self.eval::<u128>() {
            Some(n) => BigUint::from(n),
            None => self
                .eval::<BigUint>()
                .expect("big integers do not overflow"),
        }
    }
}

/// Exact unsigned arithmetic: `None` on overflow.
trait Exact: Sized + Clone {
    fn of(x: u128) -> Self;
    fn add(self, o: &Self) -> Option<Self>;
    fn mul(self, o: &Self) -> Option<Self>;
    fn mul_small(self, m: u32) -> Option<Self>;
    /// Division by `m`, exact in every use here.
    fn div_small(self, m: u32) -> Self;
}

impl Exact for u128 {
    fn of(x: u128) -> u128 {
        x
    }
    fn add(self, o: &u128) -> Option<u128> {
        self.checked_add(*o)
    }
    fn mul(self, o: &u128) -> Option<u128> {
        self.checked_mul(*o)
    }
    fn mul_small(self, m: u32) -> Option<u128> {
        self.checked_mul(m as u128)
    }
    fn div_small(self, m: u32) -> u128 {
        self / m as u128
    }
}

impl Exact for BigUint {
    fn of(x: u128) -> BigUint {
        BigUint::from(x)
    }
    fn add(self, o: &BigUint) -> Option<BigUint> {
        Some(self + o)
    }
    fn mul(self, o: &BigUint) -> Option<BigUint> {
        Some(self * o)
    }
    fn mul_small(self, m: u32) -> Option<BigUint> {
        Some(self * m)
    }
    fn div_small(self, m: u32) -> BigUint {
        self / m
    }
}

/// `sum over k = 1..=kmax of C(e, k) n^k`: the sets of 1 to `kmax` stones,
/// each of `n` colours, on `e` cells.
fn free_sets<T: Exact>(e: usize, kmax: usize, n: u32) -> Option<T> {
    let mut total = T::of(0);
    let mut term = T::of(1);
    for k in 1..=kmax {
        // term = C(e, k) n^k; C(e, k-1) (e-k+1) n / k is exact.
        term = term.mul_small((e - k + 1) as u32 * n)?.div_small(k as u32);
        total = total.add(&term)?;
    }
    Some(total)
}

/// `sum over k = from..=kmax, j <= k of f[j] C(e - j, k - j) (n - 1)^(k - j)`:
/// sets of k stones on `e` cells whose j colour-1 stones form one of the
/// `f[j]` allowed sets, the other k - j stones being of the other `n - 1`
/// colours.
fn balanced_sets<T: Exact>(f: &[u128], e: usize, kmax: usize, n: u32, from: usize) -> Option<T> {
    let mut total = T::of(0);
    for k in from..=kmax {
        for (j, &fj) in f.iter().enumerate().take(k + 1) {
            if fj == 0 {
                continue;
            }
            let mut t = T::of(fj).mul(&binomial::<T>(e - j, k - j)?)?;
            for _ in 0..(k - j) {
                t = t.mul_small(n - 1)?;
            }
            total = total.add(&t)?;
        }
    }
    Some(total)
}

fn binomial<T: Exact>(n: usize, k: usize) -> Option<T> {
    if k > n {
        return Some(T::of(0));
    }
    let mut b = T::of(1);
    for i in 0..k {
        // b = C(n, i) becomes C(n, i + 1): exact.
        b = b.mul_small((n - i) as u32)?.div_small((i + 1) as u32);
    }
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn u128_and_big_agree() {
        for (e, kmax, n) in [
            (0, 0, 2),
            (10, 3, 2),
            (61, 6, 4),
            (120, 40, 4),
            (200, 60, 4),
        ] {
            let big: BigUint = free_sets(e, kmax, n).unwrap();
            match free_sets::<u128>(e, kmax, n) {
                Some(x) => assert_eq!(BigUint::from(x), big),
                None => assert!(big > BigUint::from(u128::MAX)),
            }
        }
        let f = [1u128, 5, 7, 3];
        for (e, kmax) in [(20, 3), (100, 30), (150, 50)] {
            let big: BigUint = balanced_sets(&f, e, kmax, 3, 1).unwrap();
            match balanced_sets::<u128>(&f, e, kmax, 3, 1) {
                Some(x) => assert_eq!(BigUint::from(x), big),
                None => assert!(big > BigUint::from(u128::MAX)),
            }
        }
        assert_eq!(binomial::<u128>(10, 3), Some(120));
        assert_eq!(
            binomial::<BigUint>(100, 50).unwrap().to_string(),
            "100891344545564193334812497256"
        );
        // sum over k=1..3 of C(5,k) 2^k = 10 + 40 + 80
        assert_eq!(free_sets::<u128>(5, 3, 2), Some(130));
    }
}
