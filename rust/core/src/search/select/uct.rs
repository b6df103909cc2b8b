//! UCT (UCB1) over the [`UctTree`]: the untried children first, in the
//! order fixed when the node was expanded; then `argmax mean + c * sqrt(ln N
//! / n)` in f32, `mean` the child's mean value for the seat choosing at the
//! node, `N` the node's visits; ties go to the first child in the order
//! they were tried ([`uct`]). With
//! the solver on (MCTS-Solver), children proven a loss for the chooser are
//! passed over ([`uct_solver`]).

use crate::search::tree::{Proof, UctTree};

/// The UCT choice at `node` for `seat`, as an edge index: the first
/// untried edge (index `tried`) while there is one, else the UCB1 maximum.
#[inline]
pub fn uct(tree: &UctTree, node: u32, seat: usize, c: f32) -> usize {
    ucb1::<false>(tree, node, seat, c)
}

/// [`uct`] with the proven values of the solver (MCTS-Solver) at a node
/// not proven itself: the UCB1 maximum over the children not proven a loss
/// for `seat` (proven draws are scored as the others); a child proven a win
/// for `seat` is taken at once (the backup proves its parent as soon as it
/// is proven, so a search does not meet one). An untried child has no proof.
#[inline]
pub fn uct_solver(tree: &UctTree, node: u32, seat: usize, c: f32) -> usize {
    ucb1::<true>(tree, node, seat, c)
}

/// The loop both rules share: the first untried edge while there is one,
/// else the first child of the highest UCB1 score; with `SOLVER`, the
/// children's proofs first ([`uct_solver`]). A constant, so that [`uct`]
/// compiles to the loop without the proof test.
#[inline(always)]
fn ucb1<const SOLVER: bool>(tree: &UctTree, node: u32, seat: usize, c: f32) -> usize {
    let n = &tree.nodes[node as usize];
    if n.tried < n.len || n.len == 0 {
        return n.tried as usize;
    }
    let log_n = (n.n.max(1) as f32).ln();
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (i, &child) in tree.children(node).iter().enumerate() {
        let ch = &tree.nodes[child as usize];
        if SOLVER {
            match ch.proof() {
                Some(Proof::Win(s)) if s == seat => return i,
                Some(Proof::Win(_)) => continue,
                _ => {}
            }
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
