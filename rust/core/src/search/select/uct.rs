//! UCT (UCB1) over the [`UctTree`]: the untried children first, in the
//! order fixed when the node was expanded; then `argmax mean + c * sqrt(ln N
//! / n)` in f32, `mean` the child's mean value for the seat choosing at the
//! node, `N` the node's visits; ties go to the first edge ([`uct`]). With
//! the solver on (MCTS-Solver), children proven a loss for the chooser are
//! passed over ([`uct_solver`]).

use crate::search::tree::{Proof, UctTree};

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
