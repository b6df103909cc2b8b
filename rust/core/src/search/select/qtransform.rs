//! mctx's `qtransform_completed_by_mix_value`: Q-values are *completed* (an
//! unvisited action gets the mixed value of the node, [`completed_q`]) and
//! transformed by `sigma(q) = (50 + max n) * 0.1 * (q - min) / (max - min)`;
//! and the small float helpers the Gumbel rules share with it.

use crate::search::tree::{Edge, Tree, NONE};

/// mctx's `qtransform_completed_by_mix_value` defaults.
const VALUE_SCALE: f64 = 0.1;
const MAXVISIT_INIT: f64 = 50.0;
const EPSILON: f64 = 1e-8;

/// A prior floored at the smallest positive normal number.
#[inline]
pub(super) fn floor(p: f64) -> f64 {
    greater(p, f64::MIN_POSITIVE)
}

/// The lesser of two numbers that are not NaN (checked evaluator output
/// and the values made of it): one instruction, where `f64::min`'s care
/// for NaN takes several, in loops over every edge or child.
#[inline]
pub(super) fn lesser(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

/// The greater of two numbers that are not NaN ([`lesser`]).
#[inline]
pub(super) fn greater(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// What the completed-Q transform of one node needs (mctx
/// `qtransform_completed_by_mix_value`): the mixed value that unvisited
/// actions get, `(raw + N * sum_visited(P q) / sum_visited(P)) / (N + 1)`,
/// and the rescaling of the completed values to `[0, 1]` over the node's
/// actions times `(50 + max n) * 0.1`.
#[derive(Debug, Clone, Copy)]
pub struct QStats {
    /// The completed Q of unvisited actions (before the transform).
    pub mixed: f64,
    /// Visits of all children (`N`).
    pub visits: u64,
    lo: f64,
    span: f64,
    scale: f64,
}

impl QStats {
    /// `sigma(q)` for a completed value `q` of this node.
    #[inline]
    pub fn sigma(&self, q: f64) -> f64 {
        self.scale * ((q - self.lo) / self.span)
    }
}

/// The [`QStats`] of `node`'s edges for `seat`: one pass over the edges,
/// child lookups only for edges followed.
pub fn q_stats(tree: &Tree, node: u32, seat: usize) -> QStats {
    let mut sums = Sums::new();
    let d = tree.divisor(node);
    for e in tree.edges_of(node) {
        let (n, w) = if e.child == NONE {
            (0, 0.0)
        } else {
            tree.child_stats(e, seat)
        };
        if n == 0 {
            sums.unvisited = true;
        } else {
            sums.add(floor(e.prior(d)), n, w / n as f64);
        }
    }
    sums.stats(tree.nodes[node as usize].raw)
}

/// The completed Q-value of edge `e` (its mean value for `seat`, or the
/// mixed value of `st` when unvisited).
#[inline]
fn completed(tree: &Tree, e: &Edge, seat: usize, st: &QStats) -> f64 {
    let (n, w) = if e.child == NONE {
        (0, 0.0)
    } else {
        tree.child_stats(e, seat)
    };
    if n == 0 {
        st.mixed
    } else {
        w / n as f64
    }
}

/// The completed and transformed Q-values `sigma(q)` of `node`'s edges for
/// `seat` into `out` ([`QStats`]). Returns the mixed value (the completed Q
/// of unvisited actions, before the transform).
pub fn completed_q(tree: &Tree, node: u32, seat: usize, out: &mut Vec<f64>) -> f64 {
    let st = q_stats(tree, node, seat);
    out.clear();
    out.extend(
        tree.edges_of(node)
            .iter()
            .map(|e| st.sigma(completed(tree, e, seat, &st))),
    );
    st.mixed
}

/// Running sums of one pass over a node's edges for [`QStats`].
#[derive(Default)]
pub(super) struct Sums {
    sum_n: u64,
    max_n: u32,
    sum_p: f64,
    sum_pq: f64,
    lo: f64,
    hi: f64,
    pub(super) unvisited: bool,
}

impl Sums {
    pub(super) fn new() -> Sums {
        Sums {
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
            ..Default::default()
        }
    }

    /// A visited edge with prior `p` (floored), `n` visits and mean `q`.
    #[inline]
    pub(super) fn add(&mut self, p: f64, n: u32, q: f64) {
        self.sum_n += n as u64;
        self.max_n = self.max_n.max(n);
        self.sum_p += p;
        self.sum_pq += p * q;
        self.lo = lesser(self.lo, q);
        self.hi = greater(self.hi, q);
    }

    pub(super) fn stats(mut self, raw: f64) -> QStats {
        let weighted = if self.sum_p > 0.0 {
            self.sum_pq / self.sum_p
        } else {
            0.0
        };
        let mixed = (raw + self.sum_n as f64 * weighted) / (self.sum_n as f64 + 1.0);
        if self.unvisited {
            self.lo = lesser(self.lo, mixed);
            self.hi = greater(self.hi, mixed);
        }
        let scale = (MAXVISIT_INIT + self.max_n as f64) * VALUE_SCALE;
        QStats {
            mixed,
            visits: self.sum_n,
            lo: self.lo,
            span: (self.hi - self.lo).max(EPSILON),
            scale,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completed_q_fills_unvisited_with_the_mixed_value() {
        let mut t = Tree::new();
        t.visit(&[0]);
        t.expand(0, &[0, 1, 2], [0.5, 0.25, 0.25].into_iter(), 1.0, 0.4);
        let c = t.child(0, 0);
        t.visit(&[0, c]);
        t.backup(&[0, c], &[1.0, 0.0, 0.0, 0.0]);
        let mut out = Vec::new();
        let mixed = completed_q(&t, 0, 0, &mut out);
        // (0.4 + 1 * 1.0) / 2
        assert!((mixed - 0.7).abs() < 1e-12);
        let scale = (50.0 + 1.0) * 0.1;
        assert!((out[0] - scale).abs() < 1e-12 && out[1] == 0.0 && out[2] == 0.0);
    }
}
