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
//!   first edge ([`uct`]). With the solver on, children proven a loss for
//!   the chooser are passed over ([`uct_solver`]).

use rand::RngCore;
use rand_distr::Distribution;

pub use super::tree::{best_open, next_open};
use super::tree::{Edge, Proof, Tree, UctTree, NONE};

/// mctx's `qtransform_completed_by_mix_value` defaults.
const VALUE_SCALE: f64 = 0.1;
const MAXVISIT_INIT: f64 = 50.0;
const EPSILON: f64 = 1e-8;
/// mctx's `score_considered` floor.
const LOW_LOGIT: f64 = -1e9;

/// The child visits of `edges` and their mean values for `seat`.
#[cfg(test)]
fn stats(tree: &Tree, edges: &[Edge], seat: usize, i: usize) -> (u32, f64) {
    let (n, w) = tree.child_stats(&edges[i], seat);
    (n, if n > 0 { w / n as f64 } else { 0.0 })
}

/// The PUCT choice at `node` for `seat`, as an edge index; `priors`
/// replaces the edges' priors (the noised root priors); `open` is the edge
/// without a child of the highest prior (the first of equals, [`NONE`]:
/// none), which the caller keeps: [`Tree::open`] for the edges' priors,
/// [`best_open`] and [`next_open`] for others. `c` is at least 0 (checked
/// with the options).
///
/// A score for the node's children only (its list of children), and one for
/// the edges without a child: such an edge scores `c * p * sqrt(N)`, which
/// never decreases with `p`, so the best of them is the first whose score
/// equals that of the open edge. That is the open edge itself unless a
/// lower prior can round to the same score (the float below its prior
/// does), when a pass from the front finds it. The choice is
/// [`puct_reference`]'s: the first edge of the highest score.
pub fn puct(tree: &Tree, node: u32, seat: usize, c: f64, priors: Option<&[f64]>, open: u32) -> usize {
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
fn puct_with(tree: &Tree, node: u32, seat: usize, c: f64, open: u32, prior: impl Fn(usize, &Edge) -> f64) -> usize {
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
            u = (0..=u).find(|&i| edges[i].child == NONE && unvisited(prior(i, &edges[i])) == target).unwrap_or(usize::MAX);
        }
        if u != usize::MAX && (target > best_score || (target == best_score && u < best)) {
            best = u;
        }
    }
    best
}

/// PUCT as one score per edge, in edge order (the first of the highest
/// score): the rule [`puct`] gives, kept to test it against.
#[cfg(test)]
pub fn puct_reference(tree: &Tree, node: u32, seat: usize, c: f64, priors: Option<&[f64]>) -> usize {
    let edges = tree.edges_of(node);
    let total = tree.nodes[node as usize].n.saturating_sub(1).max(1);
    let sq = (total as f64).sqrt();
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for (i, e) in edges.iter().enumerate() {
        let p = priors.map_or(e.prior(tree.divisor(node)), |p| p[i]);
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

/// [`uct`] with the proven values of the solver (MCTS-Solver) at a node
/// not proven itself: the untried edges first (an untried child has no
/// proof), then the UCB1 maximum over the children that are not proven a
/// loss for `seat` (proven draws are scored as the others); a child proven
/// a win for `seat` is taken at once (the backup proves its parent as soon
/// as it is proven, so a search does not meet one).
#[inline]
pub fn uct_solver(tree: &UctTree, node: u32, seat: usize, c: f32) -> usize {
    let n = &tree.nodes[node as usize];
    if n.tried < n.len || n.len == 0 {
        return n.tried as usize;
    }
    let log_n = (n.n.max(1) as f32).ln();
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    let first = tree.edges[n.edges as usize].child as usize;
    for (i, ch) in tree.nodes[first..first + n.len as usize].iter().enumerate() {
        match ch.proof() {
            Some(Proof::Win(s)) if s == seat => return i,
            Some(Proof::Win(_)) => continue,
            _ => {}
        }
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

/// A prior floored at the smallest positive normal number.
#[inline]
fn floor(p: f64) -> f64 {
    greater(p, f64::MIN_POSITIVE)
}

/// The lesser of two numbers that are not NaN (checked evaluator output
/// and the values made of it): one instruction, where `f64::min`'s care
/// for NaN takes several, in loops over every edge or child.
#[inline]
fn lesser(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

/// The greater of two numbers that are not NaN ([`lesser`]).
#[inline]
fn greater(a: f64, b: f64) -> f64 {
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
        let (n, w) = if e.child == super::tree::NONE { (0, 0.0) } else { tree.child_stats(e, seat) };
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
    let (n, w) = if e.child == super::tree::NONE { (0, 0.0) } else { tree.child_stats(e, seat) };
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
    out.extend(tree.edges_of(node).iter().map(|e| st.sigma(completed(tree, e, seat, &st))));
    st.mixed
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

/// Running sums of one pass over a node's edges for [`QStats`].
#[derive(Default)]
struct Sums {
    sum_n: u64,
    max_n: u32,
    sum_p: f64,
    sum_pq: f64,
    lo: f64,
    hi: f64,
    unvisited: bool,
}

impl Sums {
    fn new() -> Sums {
        Sums { lo: f64::INFINITY, hi: f64::NEG_INFINITY, ..Default::default() }
    }

    /// A visited edge with prior `p` (floored), `n` visits and mean `q`.
    #[inline]
    fn add(&mut self, p: f64, n: u32, q: f64) {
        self.sum_n += n as u64;
        self.max_n = self.max_n.max(n);
        self.sum_p += p;
        self.sum_pq += p * q;
        self.lo = lesser(self.lo, q);
        self.hi = greater(self.hi, q);
    }

    fn stats(mut self, raw: f64) -> QStats {
        let weighted = if self.sum_p > 0.0 { self.sum_pq / self.sum_p } else { 0.0 };
        let mixed = (raw + self.sum_n as f64 * weighted) / (self.sum_n as f64 + 1.0);
        if self.unvisited {
            self.lo = lesser(self.lo, mixed);
            self.hi = greater(self.hi, mixed);
        }
        let scale = (MAXVISIT_INIT + self.max_n as f64) * VALUE_SCALE;
        QStats { mixed, visits: self.sum_n, lo: self.lo, span: (self.hi - self.lo).max(EPSILON), scale }
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
    let rest: f64 = chunks.remainder().iter().map(|e| floor(e.prior(divisor))).sum();
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
pub fn gumbel_interior(tree: &Tree, node: u32, seat: usize, open: u32, mass: f64, visited: &mut Vec<(usize, u32, f64, f64)>) -> usize {
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
    let mut m = if best_u != usize::MAX { s_u } else { f64::NEG_INFINITY };
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
pub fn gumbel_root(tree: &Tree, seat: usize, gumbel: &[f64], logits: &[f64], cands: &mut Vec<(usize, u32, f64, f64)>) -> usize {
    let (edges, d) = (tree.edges_of(0), tree.divisor(0));
    cands.clear();
    let mut sums = Sums::new();
    let (mut best_u, mut best_gu) = (usize::MAX, f64::NEG_INFINITY);
    for (i, e) in edges.iter().enumerate().take(logits.len()) {
        let (n, w) = if e.child == super::tree::NONE { (0, 0.0) } else { tree.child_stats(e, seat) };
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
    pub fn of(tree: &Tree, edge: u32, node: u32, prior: f64, key: f64, seat: usize, calls: u32) -> RootKid {
        let c = &tree.nodes[node as usize];
        RootKid { edge, n: c.n, calls, node, prior, key, w: c.w[seat] }
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
    let mut hits = kids.iter().filter(|k| k.calls == considered).map(|k| k.edge as usize);
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
        debug_assert_eq!((n, w.to_bits()), (tree.nodes[k.node as usize].n, tree.nodes[k.node as usize].w[seat].to_bits()));
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
/// In integers (no logarithm or division of floats per call): `ceil(log2
/// n)` is the bit length of `n - 1`, and the floor of a quotient of
/// integers below 2^53 is the integer quotient (checked against the
/// sequence in the tests).
pub fn considered_visit(considered: usize, simulations: usize, index: usize) -> u32 {
    if considered <= 1 {
        return index as u32;
    }
    let log2max = (usize::BITS - (considered - 1).leading_zeros()) as usize;
    let (mut pos, mut num, mut visit) = (0usize, considered, 0u32);
    loop {
        let extra = (simulations / (log2max * num)).max(1);
        if index < pos + extra * num {
            return visit + ((index - pos) / num) as u32;
        }
        pos += extra * num;
        visit += extra as u32;
        num = (num / 2).max(2);
    }
}

/// `out.len()` numbers from Dirichlet(`alpha`, ..., `alpha`) into `out`:
/// Gamma(`alpha`, 1) numbers from rand_distr, divided by their sum. Panics
/// unless `alpha > 0` (the options' check comes first).
pub fn dirichlet<R: RngCore>(rng: &mut R, alpha: f64, out: &mut [f64]) {
    let gamma = rand_distr::Gamma::new(alpha, 1.0).expect("a Dirichlet alpha > 0");
    for x in out.iter_mut() {
        *x = gamma.sample(rng);
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

/// A standard Gumbel number: `-ln E` for a standard exponential `E`
/// (drawn by rand_distr's ziggurat, which takes a logarithm only in its
/// rare tail: one logarithm a number instead of the two of `-ln(-ln U)`).
pub fn gumbel<R: RngCore>(rng: &mut R) -> f64 {
    let e: f64 = rand_distr::Exp1.sample(rng);
    // The ziggurat can give exactly 0 (about once in 2^53 draws).
    -e.max(f64::MIN_POSITIVE).ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for;
    use crate::search::tree::NONE;

    /// A uniform number in the open interval (0, 1).
    fn uniform<R: RngCore>(rng: &mut R) -> f64 {
        ((rng.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
    }

    #[test]
    fn sequential_halving_matches_mctx() {
        // mctx seq_halving_test: get_sequence_of_considered_visits(4, 8) and (2, 8)...
        assert_eq!(considered_visits(4, 8), vec![0, 0, 0, 0, 1, 1, 2, 2]);
        assert_eq!(considered_visits(2, 8), vec![0, 0, 1, 1, 2, 2, 3, 3]);
        assert_eq!(considered_visits(1, 4), vec![0, 1, 2, 3]);
        assert_eq!(considered_visits(16, 32).len(), 32);
        assert_eq!(considered_visits(16, 32)[..16], [0; 16]);
        for m in (0..70).chain([127, 128, 129, 255, 256, 257, 763, 1024, 1025]) {
            for n in [1, 2, 3, 7, 8, 16, 31, 32, 50, 200, 1000, 4099] {
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
        // A component of Dirichlet(alpha, ..., alpha) over k actions has
        // mean 1/k and variance (1/k)(1 - 1/k)/(k alpha + 1).
        for alpha in [0.3, 2.5] {
            let (mut m, mut m2) = (0.0, 0.0);
            for _ in 0..20000 {
                dirichlet(&mut rng, alpha, &mut d);
                (m, m2) = (m + d[3], m2 + d[3] * d[3]);
            }
            let (mean, var) = (m / 20000.0, m2 / 20000.0 - (m / 20000.0) * (m / 20000.0));
            let want = (1.0 / 7.0) * (6.0 / 7.0) / (7.0 * alpha + 1.0);
            assert!((mean - 1.0 / 7.0).abs() < 0.01, "alpha {alpha}: mean {mean}");
            assert!((var / want - 1.0).abs() < 0.1, "alpha {alpha}: variance {var}, want {want}");
        }
    }

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

    /// A random expanded tree: root and one interior node with `k` edges
    /// each, random priors (some zero), some children visited with random
    /// values, some made but pending (visited, no value yet), some made and
    /// never visited. The root keeps its priors as they came, with their
    /// sum; the interior node normalised ones (the two ways
    /// [`Edge::prior32`] holds them).
    fn random_tree(seed: u64, k: usize) -> Tree {
        let mut rng = rng_for(seed, 7);
        let mut t = Tree::new();
        let acts: Vec<u32> = (0..k as u32).collect();
        let priors: Vec<f32> = (0..k).map(|_| if uniform(&mut rng) < 0.2 { 0.0 } else { uniform(&mut rng) as f32 }).collect();
        let sum: f64 = priors.iter().map(|&p| f64::from(p)).sum::<f64>().max(1e-9);
        t.visit(&[0]);
        t.expand(0, &acts, priors.iter().copied(), sum, uniform(&mut rng));
        // The best edge without a child found before the children are made
        // (then kept as they are) or after.
        if !seed.is_multiple_of(3) {
            t.open(0);
        }
        let kid = t.child(0, 0);
        t.visit(&[0, kid]);
        t.expand(kid, &acts, priors.iter().rev().map(|&p| (f64::from(p) / sum) as f32), 1.0, uniform(&mut rng));
        if seed % 3 != 1 {
            t.open(kid);
        }
        check_lists(&t);
        for node in [0, kid] {
            for i in 0..k {
                let r = uniform(&mut rng);
                if r < 0.35 {
                    continue;
                }
                let c = t.child(node, i);
                if r < 0.4 {
                    // A child never visited (its wave failed and was taken back).
                    continue;
                }
                let path = if node == 0 { vec![0, c] } else { vec![0, kid, c] };
                for _ in 0..crate::rng::below(&mut rng, 4) + 1 {
                    t.visit(&path);
                    // Values in a few levels, so that ties happen.
                    let v = (crate::rng::below(&mut rng, 3) as f64) / 2.0;
                    if r > 0.5 {
                        t.backup(&path, &[v, 1.0 - v, 0.0, 0.0]);
                    }
                }
            }
        }
        check_lists(&t);
        t.open(0);
        t.open(kid);
        check_lists(&t);
        t
    }

    /// Every expanded node of `t` lists exactly its children, each with its
    /// edge, and keeps the best edge without a child ([`best_open`]).
    fn check_lists(t: &Tree) {
        for (v, node) in t.nodes.iter().enumerate() {
            let edges = t.edges_of(v as u32);
            let mut listed = Vec::new();
            let mut kid = node.kids;
            while kid != NONE {
                let k = &t.nodes[kid as usize];
                assert_eq!(edges[k.slot as usize].child, kid);
                listed.push(k.slot as usize);
                kid = k.next;
            }
            listed.sort_unstable();
            let have: Vec<usize> = (0..edges.len()).filter(|&i| edges[i].child != NONE).collect();
            assert_eq!(listed, have);
            if node.open != crate::search::tree::UNKNOWN {
                assert_eq!(node.open, best_open(edges, |j| edges[j].prior(node.divisor)));
            }
        }
    }

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
                    assert_eq!(puct(&sub, 0, seat, c, None, open), puct_reference(&sub, 0, seat, c, None), "seed {seed} rerooted seat {seat} c {c}");
                }
            }
        }
    }

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
                let scores: Vec<f64> = edges.iter().zip(&b).map(|(e, &p)| p - t.child_stats(e, seat).0 as f64 / (1.0 + total as f64)).collect();
                let best = (0..k).fold(0, |m, i| if scores[i] > scores[m] { i } else { m });
                let got = gumbel_interior(&t, node, seat, t.nodes[node as usize].open, prior_mass(t.edges_of(node), t.divisor(node)), &mut sc);
                assert!((scores[got] - scores[best]).abs() < 1e-12, "seed {seed}: {got} vs {best} in {scores:?}");
                // The root: argmax gumbel + logit + sigma over the edges with
                // `considered` visits in this search.
                let mut rng = rng_for(seed, 9);
                let g: Vec<f64> = (0..k).map(|_| if seed % 3 == 0 { 0.0 } else { gumbel(&mut rng) }).collect();
                let mut logits = Vec::new();
                root_logits(&t, &mut logits);
                let calls: Vec<u32> = (0..k).map(|i| t.child_stats(&t.edges_of(0)[i], seat).0.min(2)).collect();
                completed_q(&t, 0, seat, &mut a);
                // Before any visit of this search: every edge qualifies.
                let s: Vec<f64> = (0..k).map(|i| g[i] + logits[i] + a[i]).collect();
                let best = (0..k).fold(0, |m, i| if s[i] > s[m] { i } else { m });
                let got = gumbel_root(&t, seat, &g, &logits, &mut sc);
                assert!((s[got] - s[best]).abs() < 1e-9, "seed {seed} root: {got} vs {best} in {s:?}");
                for considered in 0..3 {
                    let s: Vec<f64> = (0..k).map(|i| if calls[i] == considered { g[i] + logits[i] + a[i] } else { f64::NEG_INFINITY }).collect();
                    let best = (0..k).fold(0, |m, i| if s[i] > s[m] { i } else { m });
                    let edges = t.edges_of(0);
                    let kids: Vec<RootKid> = (0..k as u32)
                        .filter(|&i| edges[i as usize].child != NONE)
                        .map(|i| {
                            let (e, key) = (&edges[i as usize], g[i as usize] + logits[i as usize]);
                            RootKid::of(&t, i, e.child, e.prior(t.divisor(0)), key, seat, calls[i as usize])
                        })
                        .collect();
                    let mut order: Vec<u32> = (0..k as u32).collect();
                    order.sort_by(|&x, &y| (g[y as usize] + logits[y as usize]).total_cmp(&(g[x as usize] + logits[x as usize])).then(x.cmp(&y)));
                    let mut cursor = 0;
                    let keys: Vec<f64> = (0..k).map(|i| g[i] + logits[i]).collect();
                    let listed = gumbel_root_listed(&t, seat, &keys, considered, &kids, &order, &mut cursor, &mut sc);
                    if s[best] > f64::NEG_INFINITY {
                        assert!((s[listed] - s[best]).abs() < 1e-9, "seed {seed} listed root: {listed} vs {best} in {s:?}");
                    }
                }
            }
        }
    }
}
