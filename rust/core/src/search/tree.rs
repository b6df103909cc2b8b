//! The tree of the batched searches: an arena of nodes (the positions
//! visited) and of edges (the legal actions of an expanded node, with their
//! priors), both indexed by `u32`.
//!
//! A node's statistics are those of the edge that leads to it: `n`
//! simulations through it and `w`, their value sums per seat. `n` counts a
//! simulation from the moment its leaf is selected (a *virtual visit*,
//! valued 0 for every seat until the evaluation arrives), so several leaves
//! selected in one wave spread out; the value is added when the simulation
//! is backed up. An expanded node's own evaluation is its first simulation,
//! so the visits of its children sum to `n - 1`.
//!
//! Edges are made when a node is expanded, in increasing action order;
//! child nodes only when an edge is first followed, so the memory grows with
//! the simulations plus the legal actions of the expanded nodes.

use crate::game::Action;
use crate::outcome::MAX_SEATS;

/// "No node" (an edge never followed).
pub const NONE: u32 = u32::MAX;

/// Where a node stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Made, never evaluated.
    New,
    /// Selected as a leaf, its evaluation not back yet.
    Pending,
    /// Evaluated; its edges are made.
    Expanded,
    /// A finished game.
    Terminal,
}

/// A position in the tree.
#[derive(Debug, Clone)]
pub struct Node {
    /// Value sums per seat of the simulations backed up through this node.
    pub w: [f64; MAX_SEATS],
    /// The evaluator's value of this position for the seat to move here.
    pub raw: f64,
    /// Simulations through this node, those still waiting for their value
    /// included.
    pub n: u32,
    /// First edge (valid once expanded).
    pub edges: u32,
    /// Number of edges.
    pub len: u32,
    pub state: State,
}

impl Node {
    fn new() -> Node {
        Node { w: [0.0; MAX_SEATS], raw: 0.0, n: 0, edges: 0, len: 0, state: State::New }
    }
}

/// A legal action of an expanded node.
#[derive(Debug, Clone, Copy)]
pub struct Edge {
    /// The evaluator's prior, normalised over the legal actions.
    pub prior: f64,
    pub action: Action,
    /// The node it leads to ([`NONE`] until followed).
    pub child: u32,
}

/// Nodes and edges of one tree; node 0 is the root.
#[derive(Debug, Clone)]
pub struct Tree {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

impl Default for Tree {
    fn default() -> Self {
        Tree::new()
    }
}

impl Tree {
    /// A tree holding only an unevaluated root.
    pub fn new() -> Tree {
        Tree { nodes: vec![Node::new()], edges: Vec::new() }
    }

    /// Back to a tree holding only an unevaluated root, keeping the memory
    /// of its arenas.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.nodes.push(Node::new());
    }

    /// Bytes held by the arenas.
    pub fn capacity_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>() + self.edges.capacity() * std::mem::size_of::<Edge>()
    }

    /// The edges of `node` (empty until expanded).
    pub fn edges_of(&self, node: u32) -> &[Edge] {
        let n = &self.nodes[node as usize];
        if n.state != State::Expanded {
            return &[];
        }
        &self.edges[n.edges as usize..(n.edges + n.len) as usize]
    }

    /// Visits and value sum for `seat` of the child behind edge `e`.
    #[inline]
    pub fn child_stats(&self, e: &Edge, seat: usize) -> (u32, f64) {
        if e.child == NONE {
            (0, 0.0)
        } else {
            let c = &self.nodes[e.child as usize];
            (c.n, c.w[seat])
        }
    }

    /// The child of `node` behind its `i`-th edge, made if needed.
    pub fn child(&mut self, node: u32, i: usize) -> u32 {
        let e = (self.nodes[node as usize].edges as usize) + i;
        if self.edges[e].child == NONE {
            self.edges[e].child = self.nodes.len() as u32;
            self.nodes.push(Node::new());
        }
        self.edges[e].child
    }

    /// Expand `node` with `actions` (increasing) and their `priors`, and its
    /// evaluation `raw` for the seat to move.
    pub fn expand(&mut self, node: u32, actions: &[Action], priors: impl Iterator<Item = f64>, raw: f64) {
        let first = self.edges.len() as u32;
        self.edges.extend(actions.iter().zip(priors).map(|(&action, prior)| Edge { prior, action, child: NONE }));
        let n = &mut self.nodes[node as usize];
        n.edges = first;
        n.len = actions.len() as u32;
        n.raw = raw;
        n.state = State::Expanded;
    }

    /// Count a simulation through every node of `path` (root first) before
    /// its value is known.
    pub fn visit(&mut self, path: &[u32]) {
        for &i in path {
            let n = &mut self.nodes[i as usize];
            n.n = n.n.saturating_add(1);
        }
    }

    /// Take back the virtual visits of [`Tree::visit`] (a leaf selected
    /// twice, or a wave that did not finish).
    pub fn unvisit(&mut self, path: &[u32]) {
        for &i in path {
            self.nodes[i as usize].n -= 1;
        }
    }

    /// Add `value` to every node of `path`, whose visit is already counted.
    pub fn backup(&mut self, path: &[u32], value: &[f64; MAX_SEATS]) {
        for &i in path {
            let n = &mut self.nodes[i as usize];
            for (s, x) in n.w.iter_mut().zip(value) {
                *s += x;
            }
        }
    }

    /// The child of the root behind `action`, if the tree has it.
    pub fn root_child(&self, action: Action) -> Option<u32> {
        self.edges_of(0).iter().find(|e| e.action == action).map(|e| e.child).filter(|&c| c != NONE)
    }

    /// Keep only the subtree below `node` (a fresh tree for `None`), with
    /// `node` as the new root, statistics unchanged.
    pub fn reroot(&mut self, node: Option<u32>) {
        let Some(old) = node else {
            *self = Tree::new();
            return;
        };
        if old == 0 {
            return;
        }
        let mut nodes = Vec::with_capacity(self.nodes.len().min(1 << 16));
        let mut edges = Vec::with_capacity(self.edges.len().min(1 << 16));
        nodes.push(self.nodes[old as usize].clone());
        // nodes[i] is a copy whose `edges` still point into the old arena.
        let mut i = 0;
        while i < nodes.len() {
            if nodes[i].state == State::Expanded {
                let (first, len) = (nodes[i].edges as usize, nodes[i].len as usize);
                nodes[i].edges = edges.len() as u32;
                for e in &self.edges[first..first + len] {
                    let mut e = *e;
                    if e.child != NONE {
                        let c = self.nodes[e.child as usize].clone();
                        e.child = nodes.len() as u32;
                        nodes.push(c);
                    }
                    edges.push(e);
                }
            }
            i += 1;
        }
        self.nodes = nodes;
        self.edges = edges;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reroot_keeps_the_subtree_and_its_statistics() {
        let mut t = Tree::new();
        t.expand(0, &[3, 5], [0.25, 0.75].into_iter(), 0.5);
        let a = t.child(0, 0);
        let b = t.child(0, 1);
        t.expand(b, &[1, 2, 7], [0.5, 0.25, 0.25].into_iter(), 0.1);
        let c = t.child(b, 2);
        t.visit(&[0, b, c]);
        t.backup(&[0, b, c], &[1.0, 0.0, 0.0, 0.0]);
        t.visit(&[0, a]);
        t.unvisit(&[0, a]);
        assert_eq!(t.nodes[a as usize].n, 0);
        assert_eq!(t.root_child(5), Some(b));
        t.reroot(t.root_child(5));
        assert_eq!(t.nodes.len(), 2);
        assert_eq!(t.nodes[0].n, 1);
        assert_eq!(t.edges_of(0).iter().map(|e| e.action).collect::<Vec<_>>(), vec![1, 2, 7]);
        let e = t.edges_of(0)[2];
        assert_eq!(t.child_stats(&e, 0), (1, 1.0));
        assert_eq!(t.nodes[0].raw, 0.1);
        t.reroot(None);
        assert_eq!(t.nodes.len(), 1);
        assert_eq!(t.nodes[0].state, State::New);
    }
}
