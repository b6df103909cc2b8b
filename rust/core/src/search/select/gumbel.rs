//! Gumbel (Danihelka et al., "Policy improvement by planning with Gumbel",
//! ICLR 2022, as mctx's `gumbel_muzero_policy`): logits are `ln P`, Q-values
//! completed and transformed ([`completed_q`](super::completed_q)). The root
//! runs sequential halving ([`considered_visit`](super::considered_visit))
//! over the Gumbel-top-k of `max_considered` actions ([`gumbel_root`]);
//! below the root the deterministic rule
//! `argmax softmax(logits + sigma(q)) - n / (1 + N)` ([`gumbel_interior`]).
//! With more than two players every node uses its chooser's own seat values.

use super::qtransform::{floor, greater, Sums};
use crate::search::tree::{Edge, Tree, NONE};

/// mctx's `score_considered` floor.
const LOW_LOGIT: f64 = -1e9;

/// `ln P` as mctx takes the log of a probability (`P` floored at the
/// smallest positive normal number).
#[inline]
pub fn logit(p: f64) -> f64 {
    p.max(f64::MIN_POSITIVE).ln()
}

/// softmax(logits + sigma) over `node`'s edges into `out` (`sigma` from
/// [`completed_q`]): the Gumbel improved policy, computed as
/// `P exp(sigma - max sigma)` normalised (the same numbers without a log).
pub fn improved_policy(tree: &Tree, node: u32, sigma: &[f64], out: &mut Vec<f64>) {
    let (edges, d) = (tree.edges_of(node), tree.divisor(node));
    out.clear();
    let m = sigma.iter().copied().fold(f64::NEG_INFINITY, greater);
    // The unvisited edges share one sigma (the mixed value's): its `exp`
    // is taken once (the same number, without a call per edge).
    let mut last = (f64::NAN, f64::NAN);
    out.extend(edges.iter().zip(sigma).map(|(e, &s)| {
        if s.to_bits() != last.0.to_bits() {
            last = (s, (s - m).exp());
        }
        floor(e.prior(d)) * last.1
    }));
    let sum: f64 = out.iter().sum();
    for x in out.iter_mut() {
        *x /= sum;
    }
}

/// The sum of `edges`' priors, each floored at the smallest positive
/// normal number (the prior mass [`gumbel_interior`] takes the visited
/// edges' from), in four partial sums: a pass the processor pipelines.
pub fn prior_mass(edges: &[Edge], divisor: f64) -> f64 {
    let mut acc = [0.0f64; 4];
    let mut chunks = edges.chunks_exact(4);
    for ch in &mut chunks {
        for (a, e) in acc.iter_mut().zip(ch) {
            *a += floor(e.prior(divisor));
        }
    }
    let rest: f64 = chunks
        .remainder()
        .iter()
        .map(|e| floor(e.prior(divisor)))
        .sum();
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + rest
}

/// `a` beats `b` as (score, edge index): a higher score, or the same score
/// and a lower index.
#[inline]
fn beats(a: (f64, usize), b: (f64, usize)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// The deterministic Gumbel choice below the root: `argmax pi - n / (1 + N)`
/// with `pi = softmax(logits + sigma(completed Q))` the improved policy
/// (ties: the lowest action). Unvisited edges share their sigma, so among
/// them only the highest prior can win (`open`, the node's best edge
/// without a child ([`Tree::open`]), or a child not visited), and their
/// share of the softmax sum is their summed prior (all the priors less the
/// visited ones') times one `exp`; the visited edges are the node's
/// children, walked through its list. `visited` is scratch space.
/// `mass` is the node's [`prior_mass`] ([`Tree::mass`] keeps it).
pub fn gumbel_interior(
    tree: &Tree,
    node: u32,
    seat: usize,
    open: u32,
    mass: f64,
    visited: &mut Vec<(usize, u32, f64, f64)>,
) -> usize {
    let edges = tree.edges_of(node);
    let d = tree.divisor(node);
    let floor_at = |i: usize| floor(edges[i].prior(d));
    visited.clear();
    let mut sums = Sums::new();
    // The best unvisited edge (highest prior, then lowest index), the prior
    // mass of the visited edges and how many there are.
    let (mut best_u, mut best_pu) = (usize::MAX, f64::NEG_INFINITY);
    if open != NONE {
        (best_u, best_pu) = (open as usize, floor_at(open as usize));
    }
    let mut kid = tree.nodes[node as usize].kids;
    while kid != NONE {
        let c = &tree.nodes[kid as usize];
        let (i, p) = (c.slot as usize, floor_at(c.slot as usize));
        if c.n > 0 {
            let q = c.w[seat] / c.n as f64;
            sums.add(p, c.n, q);
            visited.push((i, c.n, p, q));
        } else if beats((p, i), (best_pu, best_u)) {
            (best_u, best_pu) = (i, p);
        }
        kid = c.next;
    }
    let sum_pu = if visited.len() < edges.len() {
        let seen: f64 = visited.iter().map(|v| v.2).sum();
        (mass - seen).max(0.0)
    } else {
        0.0
    };
    sums.unvisited = best_u != usize::MAX;
    let st = sums.stats(tree.nodes[node as usize].raw);
    let s_u = st.sigma(st.mixed);
    let mut m = if best_u != usize::MAX {
        s_u
    } else {
        f64::NEG_INFINITY
    };
    for v in visited.iter_mut() {
        v.3 = st.sigma(v.3);
        m = greater(m, v.3);
    }
    let e_u = (s_u - m).exp();
    let mut sum = sum_pu * e_u;
    for v in visited.iter_mut() {
        // From here on v.3 holds P exp(sigma - m).
        v.3 = v.2 * (v.3 - m).exp();
        sum += v.3;
    }
    let denom = 1.0 + st.visits as f64;
    let mut best = (f64::NEG_INFINITY, usize::MAX);
    if best_u != usize::MAX {
        best = (best_pu * e_u / sum, best_u);
    }
    for &(i, n, _, x) in visited.iter() {
        let s = (x / sum - n as f64 / denom, i);
        if beats(s, best) {
            best = s;
        }
    }
    best.1.min(edges.len().saturating_sub(1))
}

/// The root logits `ln P - max ln P` that [`gumbel_root`] takes, into `out`.
pub fn root_logits(tree: &Tree, out: &mut Vec<f64>) {
    out.clear();
    let d = tree.divisor(0);
    // Runs of equal priors (uniform ones, say) take one logarithm.
    let mut last = (f32::NAN, f64::NAN);
    out.extend(tree.edges_of(0).iter().map(|e| {
        if e.prior32.to_bits() != last.0.to_bits() {
            last = (e.prior32, logit(e.prior(d)));
        }
        last.1
    }));
    let m = out.iter().copied().fold(f64::NEG_INFINITY, greater);
    out.iter_mut().for_each(|x| *x -= m);
}

/// mctx's `score_considered` argmax at the root (for `seat`) before the
/// current search has visited any root edge (so every edge is considered):
/// the highest `gumbel + logit - max logit + sigma` (floored at -1e9; ties:
/// the lowest action); `logits` from [`root_logits`]. One pass over the
/// edges: the unvisited ones share their sigma, so among them the highest
/// `gumbel + logit` wins. `cands` is scratch space. Once edges have been
/// visited, [`gumbel_root_listed`] chooses.
pub fn gumbel_root(
    tree: &Tree,
    seat: usize,
    gumbel: &[f64],
    logits: &[f64],
    cands: &mut Vec<(usize, u32, f64, f64)>,
) -> usize {
    let (edges, d) = (tree.edges_of(0), tree.divisor(0));
    cands.clear();
    let mut sums = Sums::new();
    let (mut best_u, mut best_gu) = (usize::MAX, f64::NEG_INFINITY);
    for (i, e) in edges.iter().enumerate().take(logits.len()) {
        let (n, w) = if e.child == NONE {
            (0, 0.0)
        } else {
            tree.child_stats(e, seat)
        };
        if n == 0 {
            sums.unvisited = true;
            let g = gumbel[i] + logits[i];
            if g > best_gu {
                (best_u, best_gu) = (i, g);
            }
            continue;
        }
        let q = w / n as f64;
        sums.add(floor(e.prior(d)), n, q);
        cands.push((i, n, 0.0, q));
    }
    let st = sums.stats(tree.nodes[0].raw);
    let mut best = (f64::NEG_INFINITY, 0usize);
    if best_u != usize::MAX {
        best = ((best_gu + st.sigma(st.mixed)).max(LOW_LOGIT), best_u);
    }
    for &(i, _, _, q) in cands.iter() {
        let s = ((gumbel[i] + logits[i] + st.sigma(q)).max(LOW_LOGIT), i);
        if beats(s, best) {
            best = s;
        }
    }
    best.1
}

/// A root edge with a child node, as [`gumbel_root_listed`] reads it: edge
/// index, child, prior, `gumbel + logit`, simulations through it in the
/// current search (`calls`), and copies of the child's visits `n` and value
/// sum `w` for the root's mover, kept equal to the child's (the same
/// additions in the same order), so that a root choice reads nothing else:
/// the children's nodes, far apart, were a third of the search's reads
/// missing a 2 MiB cache (cachegrind, Churn side 7).
#[derive(Debug, Clone, Copy)]
pub struct RootKid {
    pub edge: u32,
    pub n: u32,
    pub calls: u32,
    pub node: u32,
    pub prior: f64,
    pub key: f64,
    pub w: f64,
}

impl RootKid {
    /// Root child `node` behind root edge `edge`, its statistics for `seat`.
    pub fn of(
        tree: &Tree,
        edge: u32,
        node: u32,
        prior: f64,
        key: f64,
        seat: usize,
        calls: u32,
    ) -> RootKid {
        let c = &tree.nodes[node as usize];
        RootKid {
            edge,
            n: c.n,
            calls,
            node,
            prior,
            key,
            w: c.w[seat],
        }
    }
}

/// [`gumbel_root`] without a pass over every edge, for a root whose
/// children are listed: `kids` holds the edges with a child node, in
/// increasing order (their `key` is their edge's in `keys`), `keys` the
/// `gumbel + logit` of every edge, and `order`
/// every edge by decreasing key (ties: lower edge first), of which the
/// first `*cursor` have a child. Unvisited edges share their sigma, so the
/// best of them is the first in `order` without a child. Gives the edge
/// [`gumbel_root`] gives, up to ties within rounding. Reads the root's own
/// edges only through `kids` (the tree's arena is not in the cache by the
/// time a wave comes back to a tree).
pub fn gumbel_root_listed(
    tree: &Tree,
    seat: usize,
    keys: &[f64],
    considered: u32,
    kids: &[RootKid],
    order: &[u32],
    cursor: &mut usize,
    cands: &mut Vec<(usize, u32, f64, f64)>,
) -> usize {
    // The best edge without a child when unvisited edges qualify: the first
    // in `order` that is not listed.
    let mut open = None;
    if considered == 0 {
        let listed = |e: u32| kids.binary_search_by_key(&e, |k| k.edge).is_ok();
        while *cursor < order.len() && listed(order[*cursor]) {
            *cursor += 1;
        }
        open = order.get(*cursor).map(|&i| i as usize);
    }
    // A lone candidate wins whatever its score (it is floored at
    // `LOW_LOGIT`): no statistics are needed, as in the first phase of a
    // new search, where no listed child qualifies (half of its root
    // choices).
    let mut hits = kids
        .iter()
        .filter(|k| k.calls == considered)
        .map(|k| k.edge as usize);
    match (open, hits.next(), hits.next()) {
        (None, None, _) => return 0,
        (Some(i), None, _) | (None, Some(i), None) => return i,
        _ => {}
    }
    cands.clear();
    let mut sums = Sums::new();
    sums.unvisited = kids.len() < keys.len();
    for k in kids {
        let i = k.edge as usize;
        let (n, w) = (k.n, k.w);
        debug_assert_eq!(
            (n, w.to_bits()),
            (
                tree.nodes[k.node as usize].n,
                tree.nodes[k.node as usize].w[seat].to_bits()
            )
        );
        let hit = k.calls == considered;
        if n == 0 {
            sums.unvisited = true;
            if hit {
                cands.push((i, 0, k.key, f64::NAN));
            }
            continue;
        }
        let q = w / n as f64;
        sums.add(floor(k.prior), n, q);
        if hit {
            cands.push((i, n, k.key, q));
        }
    }
    let st = sums.stats(tree.nodes[0].raw);
    let mut best = (f64::NEG_INFINITY, 0usize);
    if let Some(i) = open {
        best = ((keys[i] + st.sigma(st.mixed)).max(LOW_LOGIT), i);
    }
    for &(i, _, key, q) in cands.iter() {
        let q = if q.is_nan() { st.mixed } else { q };
        let s = ((key + st.sigma(q)).max(LOW_LOGIT), i);
        if beats(s, best) {
            best = s;
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for;
    use crate::search::select::fixtures::random_tree;
    use crate::search::select::{completed_q, gumbel};

    #[test]
    fn gumbel_rules_equal_the_full_formulas() {
        let (mut a, mut b, mut sc) = (Vec::new(), Vec::new(), Vec::new());
        for seed in 0..300u64 {
            let k = 1 + (seed as usize % 23);
            let t = random_tree(seed, k);
            for seat in 0..2 {
                // Below the root: argmax pi - n / (1 + N), the first on ties.
                let node = t.edges_of(0)[0].child;
                completed_q(&t, node, seat, &mut a);
                improved_policy(&t, node, &a, &mut b);
                let edges = t.edges_of(node);
                let total: u64 = edges.iter().map(|e| t.child_stats(e, seat).0 as u64).sum();
                let scores: Vec<f64> = edges
                    .iter()
                    .zip(&b)
                    .map(|(e, &p)| p - t.child_stats(e, seat).0 as f64 / (1.0 + total as f64))
                    .collect();
                let best = (0..k).fold(0, |m, i| if scores[i] > scores[m] { i } else { m });
                let got = gumbel_interior(
                    &t,
                    node,
                    seat,
                    t.nodes[node as usize].open,
                    prior_mass(t.edges_of(node), t.divisor(node)),
                    &mut sc,
                );
                assert!(
                    (scores[got] - scores[best]).abs() < 1e-12,
                    "seed {seed}: {got} vs {best} in {scores:?}"
                );
                // The root: argmax gumbel + logit + sigma over the edges with
                // `considered` visits in this search.
                let mut rng = rng_for(seed, 9);
                let g: Vec<f64> = (0..k)
                    .map(|_| if seed % 3 == 0 { 0.0 } else { gumbel(&mut rng) })
                    .collect();
                let mut logits = Vec::new();
                root_logits(&t, &mut logits);
                let calls: Vec<u32> = (0..k)
                    .map(|i| t.child_stats(&t.edges_of(0)[i], seat).0.min(2))
                    .collect();
                completed_q(&t, 0, seat, &mut a);
                // Before any visit of this search: every edge qualifies.
                let s: Vec<f64> = (0..k).map(|i| g[i] + logits[i] + a[i]).collect();
                let best = (0..k).fold(0, |m, i| if s[i] > s[m] { i } else { m });
                let got = gumbel_root(&t, seat, &g, &logits, &mut sc);
                assert!(
                    (s[got] - s[best]).abs() < 1e-9,
                    "seed {seed} root: {got} vs {best} in {s:?}"
                );
                for considered in 0..3 {
                    let s: Vec<f64> = (0..k)
                        .map(|i| {
                            if calls[i] == considered {
                                g[i] + logits[i] + a[i]
                            } else {
                                f64::NEG_INFINITY
                            }
                        })
                        .collect();
                    let best = (0..k).fold(0, |m, i| if s[i] > s[m] { i } else { m });
                    let edges = t.edges_of(0);
                    let kids: Vec<RootKid> = (0..k as u32)
                        .filter(|&i| edges[i as usize].child != NONE)
                        .map(|i| {
                            let (e, key) = (&edges[i as usize], g[i as usize] + logits[i as usize]);
                            RootKid::of(
                                &t,
                                i,
                                e.child,
                                e.prior(t.divisor(0)),
                                key,
                                seat,
                                calls[i as usize],
                            )
                        })
                        .collect();
                    let mut order: Vec<u32> = (0..k as u32).collect();
                    order.sort_by(|&x, &y| {
                        (g[y as usize] + logits[y as usize])
                            .total_cmp(&(g[x as usize] + logits[x as usize]))
                            .then(x.cmp(&y))
                    });
                    let mut cursor = 0;
                    let keys: Vec<f64> = (0..k).map(|i| g[i] + logits[i]).collect();
                    let listed = gumbel_root_listed(
                        &t,
                        seat,
                        &keys,
                        considered,
                        &kids,
                        &order,
                        &mut cursor,
                        &mut sc,
                    );
                    if s[best] > f64::NEG_INFINITY {
                        assert!(
                            (s[listed] - s[best]).abs() < 1e-9,
                            "seed {seed} listed root: {listed} vs {best} in {s:?}"
                        );
                    }
                }
            }
        }
    }
}
