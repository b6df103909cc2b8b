//! Selection rules over the batched search [`Tree`]: which edge a
//! simulation follows, and what the root reports.
//!
//! * **PUCT** (AlphaZero): `argmax Q + c * P * sqrt(N) / (1 + n)`, where `Q`
//!   is the child's mean value for the seat choosing at the node (0 before
//!   its first visit), `P` the prior, `N` the visits of all children and `n`
//!   this child's (`sqrt(max(N, 1))`, so the first choice follows the
//!   prior). Ties go to the lowest action. The root's priors may be mixed
//!   with Dirichlet noise.
//! * **Gumbel** (Danihelka et al., "Policy improvement by planning with
//!   Gumbel", ICLR 2022, as mctx's `gumbel_muzero_policy`): logits are
//!   `ln P`; Q-values are *completed* (an unvisited action gets the mixed
//!   value of the node, [`completed_q`]) and transformed by
//!   `sigma(q) = (50 + max n) * 0.1 * (q - min) / (max - min)`. The root
//!   runs sequential halving over the Gumbel-top-k of `max_considered`
//!   actions ([`considered_visits`], [`gumbel_root`]); below the root the
//!   deterministic rule `argmax softmax(logits + sigma(q)) - n / (1 + N)`
//!   ([`gumbel_interior`]). With more than two players every node uses its
//!   chooser's own seat values.
//! * **UCT** (UCB1, over the [`UctTree`]): the untried children first, in
//!   the order fixed when the node was expanded; then
//!   `argmax mean + c * sqrt(ln N / n)` in f32, `mean` the child's mean value
//!   for the seat choosing at the node, `N` the node's visits; ties go to the
//!   first edge ([`uct`]).

use rand::RngCore;

use super::tree::{Edge, Tree, UctTree};

/// mctx's `qtransform_completed_by_mix_value` defaults.
const VALUE_SCALE: f64 = 0.1;
const MAXVISIT_INIT: f64 = 50.0;
const EPSILON: f64 = 1e-8;
/// mctx's `score_considered` floor.
const LOW_LOGIT: f64 = -1e9;

/// The child visits of `edges` and their mean values for `seat`.
fn stats(tree: &Tree, edges: &[Edge], seat: usize, i: usize) -> (u32, f64) {
    let (n, w) = tree.child_stats(&edges[i], seat);
    (n, if n > 0 { w / n as f64 } else { 0.0 })
}

/// The PUCT choice at `node` for `seat`, as an edge index; `priors`
/// replaces the edges' priors (the noised root priors).
pub fn puct(tree: &Tree, node: u32, seat: usize, c: f64, priors: Option<&[f64]>) -> usize {
    let edges = tree.edges_of(node);
    let total = tree.nodes[node as usize].n.saturating_sub(1).max(1);
    let sq = (total as f64).sqrt();
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for (i, e) in edges.iter().enumerate() {
        let p = priors.map_or(e.prior, |p| p[i]);
        // An edge never followed: q = 0 and n = 0, the same numbers as below.
        let s = if e.child == super::tree::NONE {
            0.0 + c * p * sq / 1.0
        } else {
            let (n, q) = stats(tree, edges, seat, i);
            q + c * p * sq / (1.0 + n as f64)
        };
        if s > best_score {
            best_score = s;
            best = i;
        }
    }
    best
}

/// The UCT choice at `node` for `seat`, as an edge index: the first
/// untried edge (index `tried`) while there is one, else the UCB1 maximum.
#[inline]
pub fn uct(tree: &UctTree, node: u32, seat: usize, c: f32) -> usize {
    let n = &tree.nodes[node as usize];
    if n.tried < n.len || n.len == 0 {
        return n.tried as usize;
    }
    let log_n = (n.n.max(1) as f32).ln();
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    // The children are consecutive nodes (see `UctNode`).
    let first = tree.edges[n.edges as usize].child as usize;
    debug_assert!(tree.edges_of(node).iter().enumerate().all(|(i, e)| e.child as usize == first + i));
    for (i, ch) in tree.nodes[first..first + n.len as usize].iter().enumerate() {
        let v = ch.n as f32;
        let s = ch.w[seat] / v + c * (log_n / v).sqrt();
        if s > best_score {
            best_score = s;
            best = i;
        }
    }
    best
}

/// `ln P` as mctx takes the log of a probability (`P` floored at the
/// smallest positive normal number).
#[inline]
pub fn logit(p: f64) -> f64 {
    p.max(f64::MIN_POSITIVE).ln()
}

/// The completed and transformed Q-values `sigma(q)` of `node`'s edges for
/// `seat` into `out` (mctx `qtransform_completed_by_mix_value`): visited
/// actions keep their mean value, unvisited ones get the mixed value
/// `(raw + N * sum_visited(P q) / sum_visited(P)) / (N + 1)`; then rescaled
/// to `[0, 1]` over the node's actions and scaled by `(50 + max n) * 0.1`.
/// Returns the mixed value (the completed Q of unvisited actions, before
/// the transform).
pub fn completed_q(tree: &Tree, node: u32, seat: usize, out: &mut Vec<f64>) -> f64 {
    let edges = tree.edges_of(node);
    out.clear();
    // One pass for the sums (edges never followed skip the child lookup),
    // one for the transform.
    let (mut sum_n, mut max_n, mut sum_p, mut sum_pq) = (0u64, 0u32, 0.0f64, 0.0f64);
    let (mut lo, mut hi, mut unvisited) = (f64::INFINITY, f64::NEG_INFINITY, false);
    for e in edges {
        let (n, w) = if e.child == super::tree::NONE { (0, 0.0) } else { tree.child_stats(e, seat) };
        if n == 0 {
            unvisited = true;
            out.push(f64::NAN);
            continue;
        }
        let q = w / n as f64;
        sum_n += n as u64;
        max_n = max_n.max(n);
        let p = e.prior.max(f64::MIN_POSITIVE);
        sum_p += p;
        sum_pq += p * q;
        lo = lo.min(q);
        hi = hi.max(q);
        out.push(q);
    }
    let weighted = if sum_p > 0.0 { sum_pq / sum_p } else { 0.0 };
    let raw = tree.nodes[node as usize].raw;
    let mixed = (raw + sum_n as f64 * weighted) / (sum_n as f64 + 1.0);
    if unvisited {
        lo = lo.min(mixed);
        hi = hi.max(mixed);
    }
    let scale = (MAXVISIT_INIT + max_n as f64) * VALUE_SCALE;
    let span = (hi - lo).max(EPSILON);
    for q in out.iter_mut() {
        let v = if q.is_nan() { mixed } else { *q };
        *q = scale * ((v - lo) / span);
    }
    mixed
}

/// softmax(logits + sigma) over `node`'s edges into `out` (`sigma` from
/// [`completed_q`]): the Gumbel improved policy, computed as
/// `P exp(sigma - max sigma)` normalised (the same numbers without a log).
pub fn improved_policy(tree: &Tree, node: u32, sigma: &[f64], out: &mut Vec<f64>) {
    let edges = tree.edges_of(node);
    out.clear();
    let m = sigma.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    out.extend(edges.iter().zip(sigma).map(|(e, s)| e.prior.max(f64::MIN_POSITIVE) * (s - m).exp()));
    let sum: f64 = out.iter().sum();
    for x in out.iter_mut() {
        *x /= sum;
    }
}

/// The deterministic Gumbel choice below the root: `argmax pi - n / (1 + N)`
/// with `pi` the improved policy (scratch space in `a`, `b`).
pub fn gumbel_interior(tree: &Tree, node: u32, seat: usize, a: &mut Vec<f64>, b: &mut Vec<f64>) -> usize {
    completed_q(tree, node, seat, a);
    improved_policy(tree, node, a, b);
    let edges = tree.edges_of(node);
    let total: u64 = edges.iter().map(|e| tree.child_stats(e, seat).0 as u64).sum();
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for (i, e) in edges.iter().enumerate() {
        let n = tree.child_stats(e, seat).0;
        let s = b[i] - n as f64 / (1.0 + total as f64);
        if s > best_score {
            best_score = s;
            best = i;
        }
    }
    best
}

/// The root logits `ln P - max ln P` that [`gumbel_root`] takes, into `out`.
pub fn root_logits(tree: &Tree, out: &mut Vec<f64>) {
    out.clear();
    out.extend(tree.edges_of(0).iter().map(|e| logit(e.prior)));
    let m = out.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    out.iter_mut().for_each(|x| *x -= m);
}

/// mctx's `score_considered` argmax at the root: among the edges whose visits
/// in this search (`visits`) equal `considered`, the highest
/// `gumbel + logit - max logit + sigma` (floored at -1e9); `logits` from
/// [`root_logits`].
pub fn gumbel_root(gumbel: &[f64], logits: &[f64], sigma: &[f64], visits: &[u32], considered: u32) -> usize {
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for i in 0..logits.len() {
        if visits[i] != considered {
            continue;
        }
        let s = (gumbel[i] + logits[i] + sigma[i]).max(LOW_LOGIT);
        if s > best_score {
            best_score = s;
            best = i;
        }
    }
    best
}

/// mctx's `get_sequence_of_considered_visits`: the visit count that the
/// root's `k`-th simulation goes to (sequential halving of `simulations`
/// among `considered` actions, halving down to 2).
pub fn considered_visits(considered: usize, simulations: usize) -> Vec<u32> {
    if considered <= 1 {
        return (0..simulations as u32).collect();
    }
    let log2max = (considered as f64).log2().ceil() as usize;
    let mut seq = Vec::with_capacity(simulations);
    let mut visits = vec![0u32; considered];
    let mut num = considered;
    while seq.len() < simulations {
        let extra = ((simulations as f64 / (log2max * num) as f64) as usize).max(1);
        for _ in 0..extra {
            seq.extend_from_slice(&visits[..num]);
            for v in visits.iter_mut().take(num) {
                *v += 1;
            }
        }
        num = (num / 2).max(2);
    }
    seq.truncate(simulations);
    seq
}

/// Element `index` of [`considered_visits`]`(considered, simulations)`,
/// computed without making the sequence: within a halving phase every
/// considered action has the same count, so the phases can be skipped
/// whole.
pub fn considered_visit(considered: usize, simulations: usize, index: usize) -> u32 {
    if considered <= 1 {
        return index as u32;
    }
    let log2max = (considered as f64).log2().ceil() as usize;
    let (mut pos, mut num, mut visit) = (0usize, considered, 0u32);
    loop {
        let extra = ((simulations as f64 / (log2max * num) as f64) as usize).max(1);
        if index < pos + extra * num {
            return visit + ((index - pos) / num) as u32;
        }
        pos += extra * num;
        visit += extra as u32;
        num = (num / 2).max(2);
    }
}

/// A uniform number in the open interval (0, 1).
fn uniform<R: RngCore>(rng: &mut R) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
}

/// A standard normal number (Box-Muller).
fn normal<R: RngCore>(rng: &mut R) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A Gamma(`alpha`, 1) number (Marsaglia and Tsang; `alpha < 1` boosted).
fn gamma<R: RngCore>(rng: &mut R, alpha: f64) -> f64 {
    if alpha < 1.0 {
        let u = uniform(rng);
        return gamma(rng, alpha + 1.0) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = 1.0 + c * x;
        if v <= 0.0 {
            continue;
        }
        let v = v * v * v;
        let u = uniform(rng);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// `out.len()` numbers from Dirichlet(`alpha`, ..., `alpha`) into `out`.
pub fn dirichlet<R: RngCore>(rng: &mut R, alpha: f64, out: &mut [f64]) {
    for x in out.iter_mut() {
        *x = gamma(rng, alpha);
    }
    let sum: f64 = out.iter().sum();
    if sum > 0.0 && sum.is_finite() {
        out.iter_mut().for_each(|x| *x /= sum);
    } else if !out.is_empty() {
        // Every draw underflowed (a tiny alpha): all the mass on one action.
        let k = crate::rng::below(rng, out.len());
        out.iter_mut().enumerate().for_each(|(i, x)| *x = f64::from(u8::from(i == k)));
    }
}

/// A standard Gumbel number.
pub fn gumbel<R: RngCore>(rng: &mut R) -> f64 {
    -(-uniform(rng).ln()).ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for;

    #[test]
    fn sequential_halving_matches_mctx() {
        // mctx seq_halving_test: get_sequence_of_considered_visits(4, 8) and (2, 8)...
        assert_eq!(considered_visits(4, 8), vec![0, 0, 0, 0, 1, 1, 2, 2]);
        assert_eq!(considered_visits(2, 8), vec![0, 0, 1, 1, 2, 2, 3, 3]);
        assert_eq!(considered_visits(1, 4), vec![0, 1, 2, 3]);
        assert_eq!(considered_visits(16, 32).len(), 32);
        assert_eq!(considered_visits(16, 32)[..16], [0; 16]);
        for m in 0..20 {
            for n in [1, 2, 3, 7, 8, 16, 31, 32, 50, 200] {
                let seq = considered_visits(m, n);
                for (k, &v) in seq.iter().enumerate() {
                    assert_eq!(considered_visit(m, n, k), v, "m {m} n {n} k {k}");
                }
            }
        }
    }

    #[test]
    fn noise_is_a_distribution() {
        let mut rng = rng_for(1, 2);
        let mut d = [0.0; 7];
        for alpha in [0.03, 0.3, 1.0, 5.0] {
            dirichlet(&mut rng, alpha, &mut d);
            assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{d:?}");
            assert!(d.iter().all(|x| (0.0..=1.0).contains(x)));
        }
        let g: Vec<f64> = (0..20000).map(|_| gumbel(&mut rng)).collect();
        let mean = g.iter().sum::<f64>() / g.len() as f64;
        // The Gumbel mean is the Euler-Mascheroni constant.
        assert!((mean - 0.5772).abs() < 0.03, "{mean}");
        let mut m = 0.0;
        for _ in 0..20000 {
            m += gamma(&mut rng, 2.5);
        }
        assert!((m / 20000.0 - 2.5).abs() < 0.05);
    }

    #[test]
    fn completed_q_fills_unvisited_with_the_mixed_value() {
        let mut t = Tree::new();
        t.visit(&[0]);
        t.expand(0, &[0, 1, 2], [0.5, 0.25, 0.25].into_iter(), 0.4);
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
