//! PUCT (AlphaZero): `argmax Q + c * P * sqrt(N) / (1 + n)`, where `Q` is
//! the child's mean value for the seat choosing at the node (0 before its
//! first visit), `P` the prior, `N` the visits of all children and `n` this
//! child's (`sqrt(max(N, 1))`, so the first choice follows the prior). Ties
//! go to the lowest action. The root's priors may be mixed with Dirichlet
//! noise ([`dirichlet`](super::dirichlet)).

use crate::search::tree::{Edge, Tree, NONE};

/// The PUCT choice at `node` for `seat`, as an edge index; `priors`
/// replaces the edges' priors (the noised root priors); `open` is the edge
/// without a child of the highest prior (the first of equals, [`NONE`]:
/// none), which the caller keeps: [`Tree::open`] for the edges' priors,
/// [`best_open`](super::best_open) and [`next_open`](super::next_open) for
/// others. `c` is at least 0 (checked with the options).
///
/// A score for the node's children only (its list of children), and one for
/// the edges without a child: such an edge scores `c * p * sqrt(N)`, which
/// never decreases with `p`, so the best of them is the first whose score
/// equals that of the open edge. That is the open edge itself unless a
/// lower prior can round to the same score (the float below its prior
/// does), when a pass from the front finds it. The choice is
/// [`puct_reference`]'s: the first edge of the highest score.
pub fn puct(
    tree: &Tree,
    node: u32,
    seat: usize,
    c: f64,
    priors: Option<&[f64]>,
    open: u32,
) -> usize {
    match priors {
        None => {
            let d = tree.divisor(node);
            puct_with(tree, node, seat, c, open, |_, e: &Edge| e.prior(d))
        }
        Some(p) => puct_with(tree, node, seat, c, open, |i, _: &Edge| p[i]),
    }
}

/// [`puct`] with the prior of edge `i` given by `prior` (one loop per kind
/// of prior, no test per edge) and `open` the edge without a child of the
/// highest prior.
#[inline(always)]
fn puct_with(
    tree: &Tree,
    node: u32,
    seat: usize,
    c: f64,
    open: u32,
    prior: impl Fn(usize, &Edge) -> f64,
) -> usize {
    debug_assert!(c >= 0.0);
    let at = &tree.nodes[node as usize];
    let edges = tree.edges_of(node);
    let sq = (at.n.saturating_sub(1).max(1) as f64).sqrt();
    // An edge never followed: q = 0 and n = 0, the same numbers as below.
    let unvisited = |p: f64| 0.0 + c * p * sq / 1.0;
    // The first of the highest score above minus infinity (edge 0 if none).
    let (mut best, mut best_score) = (usize::MAX, f64::NEG_INFINITY);
    let mut kid = at.kids;
    while kid != NONE {
        let k = &tree.nodes[kid as usize];
        let i = k.slot as usize;
        let q = if k.n > 0 { k.w[seat] / k.n as f64 } else { 0.0 };
        let s = q + c * prior(i, &edges[i]) * sq / (1.0 + k.n as f64);
        if s > best_score || (s == best_score && i < best) {
            best_score = s;
            best = i;
        }
        kid = k.next;
    }
    if best_score == f64::NEG_INFINITY {
        best = 0;
    }
    if open != NONE {
        let mut u = open as usize;
        let top = prior(u, &edges[u]);
        let target = unvisited(top);
        // Every lower prior scores below `target` when the float below `top`
        // does (the score never decreases with the prior); else (or with a
        // NaN) a lower prior may score the same: the first edge without a
        // child that scores `target` (`u` does, so the search ends; none
        // for a NaN `target`, as no edge then scores it).
        if unvisited(top.next_down()).partial_cmp(&target) != Some(std::cmp::Ordering::Less) {
            u = (0..=u)
                .find(|&i| edges[i].child == NONE && unvisited(prior(i, &edges[i])) == target)
                .unwrap_or(usize::MAX);
        }
        if u != usize::MAX && (target > best_score || (target == best_score && u < best)) {
            best = u;
        }
    }
    best
}

/// The child visits of `edges` and their mean values for `seat`.
#[cfg(test)]
fn stats(tree: &Tree, edges: &[Edge], seat: usize, i: usize) -> (u32, f64) {
    let (n, w) = tree.child_stats(&edges[i], seat);
    (n, if n > 0 { w / n as f64 } else { 0.0 })
}

/// PUCT as one score per edge, in edge order (the first of the highest
/// score): the rule [`puct`] gives, kept to test it against.
#[cfg(test)]
fn puct_reference(tree: &Tree, node: u32, seat: usize, c: f64, priors: Option<&[f64]>) -> usize {
    let edges = tree.edges_of(node);
    let total = tree.nodes[node as usize].n.saturating_sub(1).max(1);
    let sq = (total as f64).sqrt();
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for (i, e) in edges.iter().enumerate() {
        let p = priors.map_or(e.prior(tree.divisor(node)), |p| p[i]);
        let s = if e.child == NONE {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for;
    use crate::search::select::fixtures::{check_lists, random_tree, uniform};
    use crate::search::tree::best_open;

    #[test]
    fn puct_is_the_first_of_the_highest_score() {
        let mut rng = rng_for(5, 1);
        for seed in 0..400u64 {
            let k = 1 + (seed as usize % 29);
            let t = random_tree(seed, k);
            let node = t.edges_of(0)[0].child;
            // equal priors, tiny differences, zeros: ties of every kind
            let noisy: Vec<f64> = (0..k)
                .map(|i| match seed % 4 {
                    0 => 1.0 / k as f64,
                    1 => (1.0 + (i % 3) as f64 * f64::EPSILON) / k as f64,
                    2 => f64::from(u8::from(i % 2 == 0)),
                    _ => uniform(&mut rng),
                })
                .collect();
            for seat in 0..2 {
                for c in [0.0, 1.25, 3.0, 1e-300] {
                    for n in [0, node] {
                        for pri in [None, Some(&noisy[..])] {
                            let edges = t.edges_of(n);
                            let open = match pri {
                                None => t.nodes[n as usize].open,
                                Some(p) => best_open(edges, |j| p[j]),
                            };
                            assert_eq!(
                                puct(&t, n, seat, c, pri, open),
                                puct_reference(&t, n, seat, c, pri),
                                "seed {seed} node {n} seat {seat} c {c}"
                            );
                        }
                    }
                    // The subtree below the root's first edge, its lists
                    // made again.
                    let mut sub = t.clone();
                    sub.reroot(Some(node));
                    check_lists(&sub);
                    let open = sub.open(0);
                    assert_eq!(
                        puct(&sub, 0, seat, c, None, open),
                        puct_reference(&sub, 0, seat, c, None),
                        "seed {seed} rerooted seat {seat} c {c}"
                    );
                }
            }
        }
    }
}
