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
//!
//! The arena and its backup are generic over the node and edge types
//! ([`TreeNode`], [`TreeEdge`]): the batched searches use [`Node`] and
//! [`Edge`] (f64 value sums, priors, pending leaves, subtree reuse by
//! [`Tree::reroot`]); UCT uses [`UctNode`] and a `u32` *slot* an edge
//! ([`UctTree`]: f32 value sums; a node's legal actions listed when it is
//! expanded, in the random order they are tried in, four bytes each; a
//! child node made only when its action is tried, its slot then holding
//! it), with its own subtree reuse ([`UctTree::reroot`]).

use crate::game::{Action, WinnerMask};
use crate::outcome::{scores, MAX_SEATS};
use crate::solve::Outcome;

/// What the shared tree code ([`Tree::backup`], [`Tree::reroot`], ...)
/// needs from a node: its statistics and where its edges are.
pub trait TreeNode: Clone {
    /// A simulation's value, per seat.
    type Value;
    /// A node without statistics or edges (a fresh root).
    fn fresh() -> Self;
    /// `(first edge, number of edges)` once the node has its edges.
    fn edge_range(&self) -> Option<(u32, u32)>;
    /// Point the node's edges at `first` (the arena was compacted).
    fn move_edges(&mut self, first: u32);
    /// Count one simulation through the node.
    fn visit(&mut self);
    /// Take back one [`TreeNode::visit`].
    fn unvisit(&mut self);
    /// Add a simulation's value per seat to the node's sums.
    fn add(&mut self, value: &Self::Value);
    /// Forget the node's list of children ([`Tree::reroot`] makes it
    /// again with [`TreeNode::adopt`]); nothing for nodes without one.
    fn forget_kids(&mut self) {}
    /// List `kid`, to be stored at `index`, among the node's children.
    fn adopt(&mut self, _index: u32, _kid: &mut Self) {}
}

/// What the shared tree code needs from an edge.
pub trait TreeEdge: Copy {
    fn action(&self) -> Action;
    /// The node it leads to ([`NONE`] until made).
    fn child(&self) -> u32;
    fn set_child(&mut self, child: u32);
}

/// The [`TreeNode`] methods every node type writes alike, over its fields
/// `n` (visits), `w` (value sums) and `edges` (first edge).
macro_rules! node_counts {
    () => {
        fn move_edges(&mut self, first: u32) {
            self.edges = first;
        }
        #[inline]
        fn visit(&mut self) {
            self.n = self.n.saturating_add(1);
        }
        #[inline]
        fn unvisit(&mut self) {
            self.n -= 1;
        }
        #[inline]
        fn add(&mut self, value: &Self::Value) {
            for (s, x) in self.w.iter_mut().zip(value) {
                *s += x;
            }
        }
    };
}

/// [`TreeEdge`] for an edge type with fields `action` and `child`.
macro_rules! tree_edge {
    ($t:ty) => {
        impl TreeEdge for $t {
            #[inline]
            fn action(&self) -> Action {
                self.action
            }
            #[inline]
            fn child(&self) -> u32 {
                self.child
            }
            fn set_child(&mut self, child: u32) {
                self.child = child;
            }
        }
    };
}

/// "No node" (an edge never followed).
pub const NONE: u32 = u32::MAX;

/// A [`Node::open`] not known yet.
pub const UNKNOWN: u32 = NONE - 1;

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
    /// The node's children as a list (most recently made first, [`NONE`]
    /// ending it): the first child, ...
    pub kids: u32,
    /// ... and, in a child, the next child of its parent and the index of
    /// its edge among the parent's.
    pub next: u32,
    pub slot: u32,
    /// The edge without a child of the highest prior, the first of equals
    /// ([`NONE`]: none; [`UNKNOWN`] until [`Tree::open`] finds it), then
    /// kept by [`Tree::child`].
    pub open: u32,
    pub state: State,
    /// What its edges' [`Edge::prior32`] are divided by: the sum of the
    /// evaluator's priors on its legal actions (float32 priors), or 1
    /// (float64 ones, normalised before they are rounded).
    pub divisor: f64,
    /// The sum of its edges' priors, each floored at the smallest positive
    /// normal number ([`crate::search::select::prior_mass`]), found at the
    /// first call of [`Tree::mass`] (NaN until then): the Gumbel rule below
    /// the root takes it at every visit, and the edges stay as they are.
    pub mass: f64,
}

impl Node {
    fn new() -> Node {
        Node {
            w: [0.0; MAX_SEATS],
            raw: 0.0,
            n: 0,
            edges: 0,
            len: 0,
            kids: NONE,
            next: NONE,
            slot: NONE,
            open: UNKNOWN,
            state: State::New,
            divisor: 1.0,
            mass: f64::NAN,
        }
    }
}

impl TreeNode for Node {
    type Value = [f64; MAX_SEATS];
    fn fresh() -> Self {
        Node::new()
    }
    #[inline]
    fn edge_range(&self) -> Option<(u32, u32)> {
        (self.state == State::Expanded).then_some((self.edges, self.len))
    }
    node_counts!();
    fn forget_kids(&mut self) {
        self.kids = NONE;
    }
    fn adopt(&mut self, index: u32, kid: &mut Self) {
        kid.next = self.kids;
        self.kids = index;
    }
}

/// A legal action of an expanded node.
#[derive(Debug, Clone, Copy)]
pub struct Edge {
    /// The evaluator's prior as it came, when it came in float32 (exact);
    /// else already normalised, rounded to f32: [`Edge::prior`] divides it
    /// by its node's [`Node::divisor`]. The priors of a node are in the
    /// order of their `prior32`, ties included: the divisor is positive and
    /// two floats32 that differ differ by at least 2^-24 of the larger,
    /// far more than an f64 quotient rounds (and no quotient is
    /// subnormal), so the highest prior or the equal ones are found from
    /// `prior32` without dividing. Twelve bytes an edge rather than
    /// the sixteen of an f64 prior: a search writes one edge for every
    /// legal action of every leaf, most never read again, and those writes
    /// are much of its memory traffic.
    pub prior32: f32,
    pub action: Action,
    /// The node it leads to ([`NONE`] until followed).
    pub child: u32,
}

tree_edge!(Edge);

impl Edge {
    /// The prior, normalised over the node's legal actions, for the node's
    /// [`Node::divisor`]: the evaluator's number over the sum of the node's
    /// (in f64, NumPy's sum), exactly as `priors / priors.sum()` in NumPy.
    #[inline]
    pub fn prior(&self, divisor: f64) -> f64 {
        f64::from(self.prior32) / divisor
    }
}

/// A node of the UCT tree: value sums per seat in f32 (UCB1 is computed in
/// f32), the action that leads to it, and, once it is expanded, its slots
/// in [`UctTree::edges`]: one per legal action, in the random order fixed
/// then, of which the first `tried` have been tried. A slot holds its
/// action until it is tried, then the child node made for it (which keeps
/// the action): the memory of an expansion is four bytes a legal action,
/// and a node is made only for a position a simulation reached.
#[derive(Debug, Clone)]
pub struct UctNode {
    /// Value sums per seat.
    pub w: [f32; MAX_SEATS],
    /// Simulations through this node.
    pub n: u32,
    /// First slot ([`NONE`] until expanded).
    pub edges: u32,
    /// Number of slots (legal actions).
    pub len: u32,
    /// Slots tried so far (the first `tried` of them hold children).
    pub tried: u32,
    /// The action from its parent (0 at the root).
    pub action: Action,
    /// Its proven value (the solver, [`UctNode::prove`]): 0 none, 1 a
    /// draw, `2 + s` a win for seat `s`.
    proof: u8,
}

/// The [`UctNode::proof`] of a draw; a win for seat `s` is `PROVEN_WIN + s`.
const PROVEN_DRAW: u8 = 1;
const PROVEN_WIN: u8 = 2;

/// The proven value of a position of a two-player game (MCTS-Solver): with
/// perfect play from it, one seat wins or the game is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proof {
    /// This seat (0-based) wins.
    Win(usize),
    Draw,
}

impl Proof {
    /// The value of a finished game with winners `mask`: a sole winner
    /// wins; no winner or a shared win is a draw.
    pub fn of_finished(mask: WinnerMask) -> Proof {
        if mask.count_ones() == 1 {
            Proof::Win(mask.trailing_zeros() as usize)
        } else {
            Proof::Draw
        }
    }

    /// The value for `seat`.
    pub fn outcome(self, seat: usize) -> Outcome {
        match self {
            Proof::Win(s) if s == seat => Outcome::Win,
            Proof::Win(_) => Outcome::Loss,
            Proof::Draw => Outcome::Draw,
        }
    }

    /// Its order for `seat` (higher is better: loss, draw, win).
    fn rank(self, seat: usize) -> u8 {
        match self.outcome(seat) {
            Outcome::Loss => 0,
            Outcome::Draw => 1,
            Outcome::Win => 2,
        }
    }

    /// A simulation's value per seat for a position of this value among
    /// `players` seats ([`scores`] of a finished game).
    pub fn scores(self, players: usize) -> [f64; MAX_SEATS] {
        let mask = match self {
            Proof::Win(s) => 1 << s,
            Proof::Draw => 0,
        };
        scores(mask, true, players)
    }
}

impl UctNode {
    /// A node reached by `action`, without statistics or slots.
    #[inline]
    pub fn reached_by(action: Action) -> UctNode {
        UctNode {
            w: [0.0; MAX_SEATS],
            n: 0,
            edges: NONE,
            len: 0,
            tried: 0,
            action,
            proof: 0,
        }
    }

    /// The node's proven value, if it has one.
    #[inline]
    pub fn proof(&self) -> Option<Proof> {
        match self.proof {
            0 => None,
            PROVEN_DRAW => Some(Proof::Draw),
            p => Some(Proof::Win((p - PROVEN_WIN) as usize)),
        }
    }

    /// Mark the node proven.
    #[inline]
    pub fn prove(&mut self, p: Proof) {
        self.proof = match p {
            Proof::Draw => PROVEN_DRAW,
            Proof::Win(s) => PROVEN_WIN + s as u8,
        };
    }
}

impl TreeNode for UctNode {
    type Value = [f32; MAX_SEATS];
    fn fresh() -> Self {
        UctNode::reached_by(0)
    }
    #[inline]
    fn edge_range(&self) -> Option<(u32, u32)> {
        (self.edges != NONE).then_some((self.edges, self.len))
    }
    node_counts!();
}

/// Nodes and edges of one tree; node 0 is the root.
#[derive(Debug, Clone)]
pub struct Tree<N = Node, E = Edge> {
    pub nodes: Vec<N>,
    pub edges: Vec<E>,
}

/// The UCT tree: [`UctNode`]s, and the slots of the expanded ones in
/// `edges` (see [`UctNode`]).
pub type UctTree = Tree<UctNode, u32>;

impl Default for Tree {
    fn default() -> Self {
        Tree::new()
    }
}

impl Tree {
    /// A tree holding only an unevaluated root.
    pub fn new() -> Tree {
        Tree::fresh()
    }
}

impl<N: TreeNode, E: Copy> Tree<N, E> {
    /// A tree holding only a fresh root.
    pub fn fresh() -> Self {
        Tree {
            nodes: vec![N::fresh()],
            edges: Vec::new(),
        }
    }

    /// Back to a tree holding only an unevaluated root, keeping the memory
    /// of its arenas.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.nodes.push(N::fresh());
    }

    /// Bytes held by the arenas.
    pub fn capacity_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<N>()
            + self.edges.capacity() * std::mem::size_of::<E>()
    }

    /// The edges of `node` (empty until expanded).
    #[inline]
    pub fn edges_of(&self, node: u32) -> &[E] {
        match self.nodes[node as usize].edge_range() {
            Some((first, len)) => &self.edges[first as usize..(first + len) as usize],
            None => &[],
        }
    }
}

impl Tree {
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

    /// The child of `node` behind its `i`-th edge, made if needed (listed
    /// among the node's children, its [`Node::open`] moved on if it was
    /// this edge).
    pub fn child(&mut self, node: u32, i: usize) -> u32 {
        let id = self.nodes.len() as u32;
        let parent = &mut self.nodes[node as usize];
        let e = parent.edges as usize + i;
        if self.edges[e].child == NONE {
            self.edges[e].child = id;
            let next = std::mem::replace(&mut parent.kids, id);
            if parent.open == i as u32 {
                let first = parent.edges as usize;
                let edges = &self.edges[first..first + parent.len as usize];
                // The priors in the order of their `prior32` ([`Edge::prior32`]).
                parent.open = next_open(edges, i, |j| f64::from(edges[j].prior32));
            }
            self.nodes.push(Node {
                next,
                slot: i as u32,
                ..Node::new()
            });
        }
        self.edges[e].child
    }

    /// Expand `node` with `actions` (increasing) and their priors
    /// ([`Edge::prior32`], divided by `divisor`), and its evaluation `raw`
    /// for the seat to move.
    pub fn expand(
        &mut self,
        node: u32,
        actions: &[Action],
        priors: impl Iterator<Item = f32>,
        divisor: f64,
        raw: f64,
    ) {
        let first = self.edges.len() as u32;
        self.edges
            .extend(actions.iter().zip(priors).map(|(&action, prior32)| Edge {
                prior32,
                action,
                child: NONE,
            }));
        let n = &mut self.nodes[node as usize];
        n.edges = first;
        n.len = actions.len() as u32;
        n.raw = raw;
        n.divisor = divisor;
        n.open = UNKNOWN;
        n.state = State::Expanded;
    }

    /// The [`Node::divisor`] of `node`'s edges' priors.
    #[inline]
    pub fn divisor(&self, node: u32) -> f64 {
        self.nodes[node as usize].divisor
    }

    /// The [`Node::mass`] of expanded `node`, found at the first call.
    #[inline]
    pub fn mass(&mut self, node: u32) -> f64 {
        let m = self.nodes[node as usize].mass;
        if !m.is_nan() {
            return m;
        }
        let m = super::select::prior_mass(self.edges_of(node), self.divisor(node));
        self.nodes[node as usize].mass = m;
        m
    }

    /// The [`Node::open`] of `node`, found at the first call (PUCT only: the
    /// other rules do not pay for it).
    #[inline]
    pub fn open(&mut self, node: u32) -> u32 {
        let n = &self.nodes[node as usize];
        if n.open == UNKNOWN {
            let edges = self.edges_of(node);
            // The priors in the order of their `prior32` ([`Edge::prior32`]).
            let open = if n.kids == NONE {
                // No edge has a child: the first of the highest prior,
                // found by its value first (no branch per edge).
                let top = edges
                    .iter()
                    .fold(f32::NEG_INFINITY, |m, e| m.max(e.prior32));
                if top > f32::NEG_INFINITY {
                    edges
                        .iter()
                        .position(|e| e.prior32 == top)
                        .map_or(NONE, |j| j as u32)
                } else {
                    NONE
                }
            } else {
                best_open(edges, |j| f64::from(edges[j].prior32))
            };
            self.nodes[node as usize].open = open;
        }
        self.nodes[node as usize].open
    }
}

/// The edge of `edges` without a child of the highest `prior` (above
/// minus infinity; NaN never), the first of equals, or [`NONE`].
pub fn best_open(edges: &[Edge], prior: impl Fn(usize) -> f64) -> u32 {
    let (mut best, mut top) = (NONE, f64::NEG_INFINITY);
    for (j, e) in edges.iter().enumerate() {
        let p = prior(j);
        if e.child == NONE && p > top {
            (best, top) = (j as u32, p);
        }
    }
    best
}

/// [`best_open`] once the edge `taken`, which was it, has a child: the
/// next edge of the same prior when there is one (the usual case with
/// equal priors), else a pass over them all.
pub fn next_open(edges: &[Edge], taken: usize, prior: impl Fn(usize) -> f64) -> u32 {
    let top = prior(taken);
    match (taken + 1..edges.len()).find(|&j| edges[j].child == NONE && prior(j) == top) {
        Some(j) => j as u32,
        None => best_open(edges, prior),
    }
}

impl UctTree {
    /// A tree holding only a fresh root, with room for `slots` slots (the
    /// memory is reserved, and the system gives it pages as they are
    /// written: the arena does not grow by copying itself, and a search
    /// small against its node limit uses little of it).
    pub fn with_room(slots: usize) -> UctTree {
        Tree {
            nodes: vec![UctNode::fresh()],
            edges: Vec::with_capacity(slots),
        }
    }

    /// The positions in the tree, the node limit's count: the root and one
    /// for every slot, tried or not.
    #[inline]
    pub fn size(&self) -> usize {
        1 + self.edges.len()
    }

    /// Expand `node` with slots for `actions` (in that order, the order UCT
    /// tries them), the slot arena growing by doubling but never past
    /// `max_nodes` slots; the root is expanded whatever the limit. Returns
    /// false (and changes nothing) when the tree has no room.
    pub fn expand(&mut self, node: u32, actions: &[Action], max_nodes: usize) -> bool {
        if self.size() + actions.len() > max_nodes && node != 0 {
            return false;
        }
        let edge = self.edges.len();
        if self.edges.capacity() < edge + actions.len() {
            let want = (2 * self.edges.capacity())
                .clamp(edge + actions.len(), max_nodes.max(edge + actions.len()));
            self.edges.reserve_exact(want - edge);
        }
        self.edges.extend_from_slice(actions);
        let n = &mut self.nodes[node as usize];
        n.edges = edge as u32;
        n.len = actions.len() as u32;
        true
    }

    /// Make the child of `node`'s next untried slot (slot `tried`, while
    /// there is one), count the slot tried and return the child.
    #[inline]
    pub fn try_next(&mut self, node: u32) -> u32 {
        let id = self.nodes.len() as u32;
        let n = &mut self.nodes[node as usize];
        debug_assert!(n.tried < n.len);
        let slot = &mut self.edges[(n.edges + n.tried) as usize];
        n.tried += 1;
        let action = std::mem::replace(slot, id);
        self.nodes.push(UctNode::reached_by(action));
        id
    }

    /// The children of `node` made so far (its tried slots), in the order
    /// they were tried.
    #[inline]
    pub fn children(&self, node: u32) -> &[u32] {
        let n = &self.nodes[node as usize];
        match n.edge_range() {
            Some((first, _)) => &self.edges[first as usize..(first + n.tried) as usize],
            None => &[],
        }
    }

    /// The child of `node` reached by `action`, if the tree has made it.
    pub fn find_child(&self, node: u32, action: Action) -> Option<u32> {
        self.children(node)
            .iter()
            .copied()
            .find(|&c| self.nodes[c as usize].action == action)
    }

    /// The node reached from the root by `path`, if the tree has it.
    pub fn find_path(&self, path: &[Action]) -> Option<u32> {
        path.iter().try_fold(0, |node, &a| self.find_child(node, a))
    }

    /// Keep only the subtree below `node` (a fresh tree for `None`), with
    /// `node` as the new root, statistics, slots and their order unchanged.
    /// The arenas keep their memory (the subtree is copied out and back).
    pub fn reroot(&mut self, node: Option<u32>) {
        let Some(old) = node else {
            self.clear();
            return;
        };
        if old == 0 {
            return;
        }
        let mut nodes = vec![self.nodes[old as usize].clone()];
        let mut edges = Vec::new();
        // nodes[i] is a copy whose slots still point into the old arena.
        let mut i = 0;
        while i < nodes.len() {
            if let Some((first, len)) = nodes[i].edge_range() {
                let (first, tried) = (first as usize, nodes[i].tried as usize);
                nodes[i].edges = edges.len() as u32;
                for &c in &self.edges[first..first + tried] {
                    edges.push(nodes.len() as u32);
                    nodes.push(self.nodes[c as usize].clone());
                }
                edges.extend_from_slice(&self.edges[first + tried..first + len as usize]);
            }
            i += 1;
        }
        self.nodes.clear();
        self.nodes.extend_from_slice(&nodes);
        self.edges.clear();
        self.edges.extend_from_slice(&edges);
    }

    /// MCTS-Solver's backup, after a simulation down `path` (root first)
    /// whose last node was just proven: prove each node above it that now
    /// is, and stop at the first that is not. `seats[i]` is the seat
    /// choosing at `path[i]`. A node is a win for its chooser when a child
    /// is (any such child wins, so it is proven at once); a node whose
    /// children are all proven takes the best of them for its chooser (a
    /// loss when every child is a loss). Sound for two players, where a
    /// node's value is its chooser's best; with turns of several actions
    /// the chooser stays the same from node to node, and the rule holds
    /// alike.
    pub fn prove_up(&mut self, path: &[u32], seats: &[u8]) {
        for i in (0..path.len().saturating_sub(1)).rev() {
            let Some(child) = self.nodes[path[i + 1] as usize].proof() else {
                break;
            };
            let seat = seats[i] as usize;
            let p = if child == Proof::Win(seat) {
                child
            } else {
                match self.best_proof(path[i], seat) {
                    Some(p) => p,
                    None => break,
                }
            };
            self.nodes[path[i] as usize].prove(p);
        }
    }

    /// The best proven value of `node`'s children for `seat` when all of
    /// them are proven (an untried child is not: it has no visit yet).
    fn best_proof(&self, node: u32, seat: usize) -> Option<Proof> {
        let n = &self.nodes[node as usize];
        if n.tried < n.len {
            return None;
        }
        let mut best: Option<Proof> = None;
        for &c in self.children(node) {
            let p = self.nodes[c as usize].proof()?;
            if best.is_none_or(|b| p.rank(seat) > b.rank(seat)) {
                best = Some(p);
            }
        }
        best
    }
}

impl<N: TreeNode, E: Copy> Tree<N, E> {
    /// Count a simulation through every node of `path` (root first) before
    /// its value is known.
    #[inline]
    pub fn visit(&mut self, path: &[u32]) {
        for &i in path {
            self.nodes[i as usize].visit();
        }
    }

    /// Take back the virtual visits of [`Tree::visit`] (a leaf selected
    /// twice, or a wave that did not finish).
    pub fn unvisit(&mut self, path: &[u32]) {
        for &i in path {
            self.nodes[i as usize].unvisit();
        }
    }

    /// Add `value` to every node of `path`, whose visit is already counted.
    #[inline]
    pub fn backup(&mut self, path: &[u32], value: &N::Value) {
        for &i in path {
            self.nodes[i as usize].add(value);
        }
    }

    /// [`Tree::visit`] and [`Tree::backup`] in one pass (a simulation whose
    /// value is known at once).
    #[inline]
    pub fn visit_backup(&mut self, path: &[u32], value: &N::Value) {
        for &i in path {
            let n = &mut self.nodes[i as usize];
            n.visit();
            n.add(value);
        }
    }
}

impl<N: TreeNode, E: TreeEdge> Tree<N, E> {
    /// The child of `node` behind `action`, if the tree has it.
    pub fn find_child(&self, node: u32, action: Action) -> Option<u32> {
        self.edges_of(node)
            .iter()
            .find(|e| e.action() == action)
            .map(|e| e.child())
            .filter(|&c| c != NONE)
    }

    /// The node reached from the root by `path`, if the tree has it.
    pub fn find_path(&self, path: &[Action]) -> Option<u32> {
        path.iter().try_fold(0, |node, &a| self.find_child(node, a))
    }

    /// The child of the root behind `action`, if the tree has it.
    pub fn root_child(&self, action: Action) -> Option<u32> {
        self.find_child(0, action)
    }

    /// Keep only the subtree below `node` (a fresh tree for `None`), with
    /// `node` as the new root, statistics unchanged.
    pub fn reroot(&mut self, node: Option<u32>) {
        let Some(old) = node else {
            *self = Tree::fresh();
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
            if let Some((first, len)) = nodes[i].edge_range() {
                let (first, len) = (first as usize, len as usize);
                nodes[i].move_edges(edges.len() as u32);
                nodes[i].forget_kids();
                for e in &self.edges[first..first + len] {
                    let mut e = *e;
                    if e.child() != NONE {
                        let mut c = self.nodes[e.child() as usize].clone();
                        let at = nodes.len() as u32;
                        e.set_child(at);
                        nodes[i].adopt(at, &mut c);
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
        t.expand(0, &[3, 5], [1.0, 3.0].into_iter(), 4.0, 0.5);
        assert_eq!(t.edges_of(0)[1].prior(t.divisor(0)), 0.75);
        let a = t.child(0, 0);
        let b = t.child(0, 1);
        t.expand(b, &[1, 2, 7], [0.5, 0.25, 0.25].into_iter(), 1.0, 0.1);
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
        assert_eq!(
            t.edges_of(0).iter().map(|e| e.action).collect::<Vec<_>>(),
            vec![1, 2, 7]
        );
        let e = t.edges_of(0)[2];
        assert_eq!(t.child_stats(&e, 0), (1, 1.0));
        assert_eq!(
            (e.prior(t.divisor(0)), t.edges_of(0)[0].prior(t.divisor(0))),
            (0.25, 0.5)
        );
        assert_eq!(t.nodes[0].raw, 0.1);
        t.reroot(None);
        assert_eq!(t.nodes.len(), 1);
        assert_eq!(t.nodes[0].state, State::New);
    }

    /// [`Edge::prior32`]'s claim: dividing by a divisor (a sum of up to
    /// 65,536 float32 priors, or 1) keeps the order of the float32
    /// numbers, ties included, so the highest prior is found without
    /// dividing.
    #[test]
    fn dividing_keeps_the_order_of_float32_priors() {
        let mut rng = crate::rng::rng_for(5, 9);
        let f32_of = |rng: &mut _| {
            let bits = crate::rng::below(rng, 0x7F80_0000) as u32;
            f32::from_bits(bits)
        };
        for round in 0..200_000 {
            let a = f32_of(&mut rng);
            // neighbours in float32 now and then, where rounding would bite
            let b = if round % 3 == 0 {
                f32::from_bits(a.to_bits() + 1)
            } else {
                f32_of(&mut rng)
            };
            let d = match round % 4 {
                0 => 1.0,
                1 => f64::from(f32::MAX) * 65536.0,
                _ => {
                    f64::from(f32_of(&mut rng))
                        .max(f64::from(a))
                        .max(f64::from(b))
                        * (1.0 + crate::rng::below(&mut rng, 4096) as f64)
                }
            };
            let (ea, eb) = (
                Edge {
                    prior32: a,
                    action: 0,
                    child: NONE,
                },
                Edge {
                    prior32: b,
                    action: 1,
                    child: NONE,
                },
            );
            assert_eq!(
                a.partial_cmp(&b),
                ea.prior(d).partial_cmp(&eb.prior(d)),
                "{a:e} {b:e} over {d:e}"
            );
        }
    }

    #[test]
    fn uct_tree_makes_children_when_tried() {
        let mut t = UctTree::with_room(0);
        assert!(t.edges_of(0).is_empty());
        // The root is expanded whatever the limit; other nodes only with room.
        assert!(t.expand(0, &[4, 1, 9], 2));
        assert_eq!((t.size(), t.nodes.len()), (4, 1));
        let (a, b) = (t.try_next(0), t.try_next(0));
        assert_eq!(
            (t.nodes[a as usize].action, t.nodes[b as usize].action),
            (4, 1)
        );
        assert!(!t.expand(b, &[0, 1], 5));
        assert!(t.expand(b, &[0, 1], 6));
        assert!(t.expand(a, &[7], 7));
        assert_eq!((t.size(), t.nodes.len()), (7, 3));
        let c = t.try_next(b);
        assert_eq!(t.children(b), &[c]);
        assert_eq!(
            (t.find_path(&[]), t.find_path(&[1, 0]), t.find_path(&[1])),
            (Some(0), Some(c), Some(b))
        );
        // untried: no node yet
        assert_eq!(
            (
                t.find_path(&[9]),
                t.find_path(&[1, 1]),
                t.find_path(&[4, 7]),
                t.find_path(&[5])
            ),
            (None, None, None, None)
        );
        t.visit_backup(&[0, b, c], &[1.0, 0.0, 0.0, 0.0]);
        t.visit(&[0, a]);
        t.backup(&[0, a], &[0.0, 0.5, 0.0, 0.0]);
        assert_eq!((t.nodes[0].n, t.nodes[0].w), (2, [1.0, 0.5, 0.0, 0.0]));
        t.reroot(t.find_path(&[1]));
        assert_eq!((t.size(), t.nodes.len()), (3, 2));
        assert_eq!(t.edges_of(0), &[1, 1]); // the child of action 0, then untried action 1
        assert_eq!(
            (t.nodes[1].action, t.nodes[1].n, t.nodes[1].w[0]),
            (0, 1, 1.0)
        );
        assert_eq!((t.find_child(0, 0), t.find_child(0, 1)), (Some(1), None));
        let d = t.try_next(0);
        assert_eq!(
            (d, t.nodes[d as usize].action, t.children(0)),
            (2, 1, &[1, 2][..])
        );
        t.reroot(None);
        assert_eq!((t.size(), t.nodes.len(), t.nodes[0].n), (1, 1, 0));
    }

    #[test]
    fn uct_proofs() {
        let mut n = UctNode::fresh();
        assert_eq!(n.proof(), None);
        for p in [Proof::Draw, Proof::Win(0), Proof::Win(1), Proof::Win(3)] {
            n.prove(p);
            assert_eq!(n.proof(), Some(p));
        }
    }
}
