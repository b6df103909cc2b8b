//! One tree of a batched search and its part of every wave: selecting its
//! leaves, writing their observations and masks, checking its rows of the
//! evaluator's answer, expanding the leaves and backing their values up,
//! and its row of the result.

use std::ops::Range;
use std::sync::Mutex;

use rand_xoshiro::Xoshiro256PlusPlus;

use super::{Algorithm, BatchedOptions};
use crate::game::{Action, Game};
use crate::outcome::{scores, MAX_SEATS};
use crate::rng::rng_for;
use crate::search::evaluate::{at, check_rows, OutputError, Rows};
use crate::search::select::{self, RootKid};
use crate::search::tree::{State, Tree, NONE};
use crate::unchecked::{self, IdsBelow};
use crate::vector::{write_f32_observation, write_mask_of, BatchGame, CellLayout};

/// A leaf waiting for its evaluation.
pub(super) struct Leaf {
    node: u32,
    /// Its path from the root, in `TreeSearch::paths`.
    path: Range<usize>,
    /// Its legal actions (increasing), in `TreeSearch::legal`.
    legal: Range<usize>,
    /// The root edge the simulation went through (`NONE`: the root itself).
    root_edge: u32,
    /// The seat to move there (0-based).
    seat: usize,
    /// Its observation's row in `TreeSearch::stash`, or `NONE` for the live
    /// leaf: the position `TreeSearch::work` stands on.
    stash: u32,
}

/// A tree's row of the result ([`super::BatchedResult`]'s fields, `A` or `P`
/// entries each).
pub(super) struct RootRow<'a> {
    pub(super) action: &'a mut Action,
    pub(super) policy: &'a mut [f32],
    pub(super) visits: &'a mut [u32],
    pub(super) q: &'a mut [f32],
    pub(super) values: &'a mut [f32],
}

/// One tree and what its current search keeps about the root.
pub(super) struct TreeSearch<G: Game> {
    pub(super) tree: Tree,
    rng: Xoshiro256PlusPlus,
    /// The root position; during a wave, the last leaf selected (the live
    /// leaf), reached from the root by the actions undone by `undo`.
    work: G,
    undo: Vec<G::Undo>,
    /// PUCT: the noised root priors (empty: none) and the root edge without
    /// a child of the highest of them ([`select::best_open`]).
    noisy: Vec<f64>,
    noisy_open: u32,
    /// Gumbel: the root Gumbel numbers and logits (`ln P - max ln P`).
    gumbel: Vec<f64>,
    logits: Vec<f64>,
    /// Gumbel: the root edges with a child node (increasing, with the child
    /// and the edge's prior), every root edge by decreasing gumbel + logit
    /// (`keys`: those sums), and how many of those have a child
    /// ([`select::gumbel_root_listed`]).
    kids: Vec<RootKid>,
    /// Gumbel: the seat to move at the root (0-based; `kids` keep its values).
    root_seat: usize,
    order: Vec<u32>,
    /// Working space of `sort_order`.
    ranks: Vec<u128>,
    keys: Vec<f64>,
    cursor: usize,
    /// How much of `order` is sorted (the rest follows it, unsorted):
    /// a search looks at the first few only.
    sorted: usize,
    /// Gumbel: the root-child simulations the current search makes in all
    /// (its sequential halving spreads them over the considered actions).
    budget: usize,
    pub(super) remaining: u64,
    pub(super) leaves: Vec<Leaf>,
    paths: Vec<u32>,
    legal: Vec<Action>,
    /// Every id in `legal` is below this (the search's number of actions:
    /// checked as `descend` lists them, so that the passes over them need
    /// not check again, [`legal_of`]).
    legal_below: usize,
    /// Observations of the leaves of this wave that are not live.
    stash: Vec<f32>,
    scratch: (Vec<f64>, Vec<f64>),
    cands: Vec<(usize, u32, f64, f64)>,
    /// The first row of this tree's leaves in the wave.
    pub(super) first: usize,
    /// Per leaf of the wave, the sum of its priors on its legal actions
    /// ([`check_rows`]); and this tree's check of its rows.
    sums: Vec<f64>,
    pub(super) checked: Result<(), OutputError>,
}

enum Step {
    Leaf,
    Done,
    Collision,
}

/// The legal actions of `leaf`, listed in `legal` (every id below `below`:
/// [`TreeSearch::legal_below`]).
#[inline]
fn legal_of<'a>(legal: &'a [Action], below: usize, leaf: &Leaf) -> IdsBelow<'a> {
    // SAFETY: `descend` keeps in `legal` only ids below `legal_below`, the
    // `below` passed here, until `select_wave` empties it and sets a new one.
    unsafe { IdsBelow::new_unchecked(&legal[leaf.legal.clone()], below) }
}

/// Write `g`'s observation into `out`: straight from its cells through
/// `layout` when the game has a direct writer ([`write_f32_observation`]:
/// its working space one per thread, so it stays in that core's cache
/// however many trees there are), else [`Game::observation`].
fn observe<G: BatchGame>(g: &G, layout: Option<&CellLayout>, out: &mut [f32]) {
    match layout {
        Some(l) => write_f32_observation(g, l, out),
        None => g.observation(out),
    }
}

impl<G: BatchGame> TreeSearch<G> {
    pub(super) fn new(seed: u64, index: usize, root: G) -> Self {
        TreeSearch {
            tree: Tree::new(),
            rng: rng_for(seed, index as u64),
            work: root,
            undo: Vec::new(),
            noisy: Vec::new(),
            noisy_open: NONE,
            gumbel: Vec::new(),
            logits: Vec::new(),
            kids: Vec::new(),
            root_seat: 0,
            order: Vec::new(),
            ranks: Vec::new(),
            keys: Vec::new(),
            cursor: 0,
            sorted: 0,
            budget: 0,
            remaining: 0,
            leaves: Vec::new(),
            paths: Vec::new(),
            legal: Vec::new(),
            legal_below: 0,
            stash: Vec::new(),
            scratch: (Vec::new(), Vec::new()),
            cands: Vec::new(),
            first: 0,
            sums: Vec::new(),
            checked: Ok(()),
        }
    }

    /// Take back the actions from the root to where `work` stands.
    pub(super) fn rewind(&mut self) {
        while let Some(u) = self.undo.pop() {
            self.work.undo_action(u);
        }
    }

    /// Draw the root's noise (the root is expanded).
    fn root_noise(&mut self, opts: &BatchedOptions) {
        let (edges, d) = (self.tree.edges_of(0), self.tree.divisor(0));
        let k = edges.len();
        self.noisy.clear();
        self.gumbel.clear();
        match opts.algorithm {
            Algorithm::Puct if opts.dirichlet_fraction > 0.0 && k > 0 => {
                self.noisy.resize(k, 0.0);
                select::dirichlet(&mut self.rng, opts.dirichlet_alpha, &mut self.noisy);
                let f = opts.dirichlet_fraction;
                for (x, e) in self.noisy.iter_mut().zip(edges) {
                    *x = (1.0 - f) * e.prior(d) + f * *x;
                }
                self.noisy_open = select::best_open(edges, |j| self.noisy[j]);
            }
            Algorithm::Puct => {}
            Algorithm::Gumbel => {
                select::root_logits(&self.tree, &mut self.logits);
                for _ in 0..k {
                    let g = select::gumbel(&mut self.rng);
                    self.gumbel.push(opts.gumbel_scale * g);
                }
                self.keys.clear();
                self.keys
                    .extend(self.gumbel.iter().zip(&self.logits).map(|(g, l)| g + l));
                self.order.clear();
                self.order.extend(0..k as u32);
                self.sorted = 0;
                self.kids.clear();
                let (keys, tree) = (&self.keys, &self.tree);
                self.root_seat = self.work.to_move() - 1;
                let seat = self.root_seat;
                let listed = edges.iter().enumerate().filter(|(_, e)| e.child != NONE);
                // A new search: no simulation through any of them yet.
                self.kids.extend(listed.map(|(i, e)| {
                    RootKid::of(tree, i as u32, e.child, e.prior(d), keys[i], seat, 0)
                }));
                self.cursor = 0;
            }
        }
    }

    /// Start a search of `sims` simulations of games with `actions` actions.
    pub(super) fn start(&mut self, sims: u64, actions: usize, opts: &BatchedOptions) {
        self.remaining = sims;
        // Room for the nodes and edges this search will probably make
        // (bounded: the arenas still grow past it when needed).
        let more = (sims as usize).min(1 << 12);
        self.tree.nodes.reserve(more);
        self.tree.edges.reserve(more * actions.min(1 << 8));
        // The lists a wave fills, at their usual sizes at once (each
        // tree's lists grew by doubling in its first waves: about 110
        // instructions per simulation of a one-off search, callgrind).
        let k = opts.leaves_per_tree;
        self.legal.reserve(k * actions);
        self.sums.reserve(k);
        self.leaves.reserve(k);
        self.paths.reserve(k * 16);
        if opts.algorithm == Algorithm::Gumbel {
            for v in [&mut self.gumbel, &mut self.logits, &mut self.keys] {
                v.reserve(actions);
            }
            self.order.reserve(actions);
            self.ranks.reserve(actions);
            self.kids.reserve(more.min(actions));
            self.cands.reserve(opts.max_considered.min(actions));
        }
        if self.tree.nodes[0].state == State::Expanded {
            self.budget = sims as usize;
            self.root_noise(opts);
        } else {
            self.budget = sims as usize - 1;
            self.noisy.clear();
            self.gumbel.clear();
        }
    }

    /// Sort `order` up to at least `want` edges (at most all of them).
    fn sort_order(&mut self, want: usize) {
        let k = self.order.len();
        if self.sorted >= want.min(k) {
            return;
        }
        let end = want.max(2 * self.sorted).max(16).min(k);
        // A total order (decreasing key by `f64::total_cmp`, ties by
        // increasing edge), so unstable sorts give the one order; each edge
        // as one integer of that order, compared without looking anything up.
        let key = &self.keys;
        let rank = |i: u32| {
            let b = key[i as usize].to_bits() as i64;
            // `f64::total_cmp`'s integer, then as an unsigned one, reversed
            let t = (b ^ ((((b >> 63) as u64) >> 1) as i64)) as u64 ^ (1 << 63);
            u128::from(!t) << 32 | u128::from(i)
        };
        let ranks = &mut self.ranks;
        ranks.clear();
        ranks.extend(self.order[self.sorted..].iter().map(|&i| rank(i)));
        if end - self.sorted < ranks.len() {
            ranks.select_nth_unstable(end - self.sorted - 1);
        }
        ranks[..end - self.sorted].sort_unstable();
        for (o, &r) in self.order[self.sorted..].iter_mut().zip(ranks.iter()) {
            *o = r as u32;
        }
        self.sorted = end;
    }

    /// The root edge a Gumbel simulation takes.
    fn gumbel_root(&mut self, seat: usize, opts: &BatchedOptions) -> usize {
        // `order` holds every root edge
        let considered = opts.max_considered.min(self.order.len());
        // The root-child simulations of this search so far (every one went
        // through a listed child).
        let done = self.kids.iter().map(|k| k.calls as usize).sum();
        let visit = select::considered_visit(considered, self.budget.max(1), done);
        if visit == 0 {
            // `gumbel_root_listed` walks `order` (only for edges not visited
            // yet) past edges with a child, to the first without one: among
            // the first `kids + 1` edges.
            self.sort_order(self.kids.len() + 1);
        }
        let (kids, order) = (&self.kids, &self.order);
        select::gumbel_root_listed(
            &self.tree,
            seat,
            &self.keys,
            visit,
            kids,
            order,
            &mut self.cursor,
            &mut self.cands,
        )
    }

    /// The listed root child behind root edge `e` (Gumbel; [`RootKid`]
    /// keeps a copy of its statistics, updated with the child's).
    #[inline]
    fn root_kid(&mut self, e: u32) -> Option<&mut RootKid> {
        if e == NONE {
            return None;
        }
        self.kids
            .binary_search_by_key(&e, |k| k.edge)
            .ok()
            .map(|i| &mut self.kids[i])
    }

    /// Count a simulation through root edge `root_edge` (if any), with
    /// its `value` for the root's mover when known at once, in the edge's
    /// [`RootKid`] (Gumbel).
    fn count_call(&mut self, root_edge: u32, value: Option<f64>) {
        if let Some(k) = self.root_kid(root_edge) {
            k.n = k.n.saturating_add(1);
            k.calls += 1;
            if let Some(v) = value {
                k.w += v;
            }
        }
    }

    /// Keep the live leaf's observation in the stash and go back to the
    /// root.
    fn stash_live(&mut self, obs_len: usize, layout: Option<&CellLayout>) {
        if let Some(leaf) = self.leaves.last_mut().filter(|l| l.stash == NONE) {
            let row = self.stash.len() / obs_len.max(1);
            self.stash.resize(self.stash.len() + obs_len, 0.0);
            let s = self.stash.len() - obs_len;
            observe(&self.work, layout, &mut self.stash[s..]);
            leaf.stash = row as u32;
        }
        self.rewind();
    }

    /// Select one leaf, walking `work` down from the root.
    fn descend(
        &mut self,
        players: usize,
        obs_len: usize,
        layout: Option<&CellLayout>,
        opts: &BatchedOptions,
    ) -> Step {
        self.stash_live(obs_len, layout);
        let start = self.paths.len();
        self.paths.push(0);
        let mut node = 0u32;
        let mut root_edge = NONE;
        loop {
            let state = self.tree.nodes[node as usize].state;
            match state {
                State::New | State::Terminal if state == State::Terminal || self.work.is_over() => {
                    self.tree.nodes[node as usize].state = State::Terminal;
                    let v = scores(self.work.winner_mask(), true, players);
                    let path = &self.paths[start..];
                    self.tree.visit(path);
                    self.tree.backup(path, &v);
                    self.count_call(root_edge, Some(v[self.root_seat]));
                    self.paths.truncate(start);
                    self.rewind();
                    return Step::Done;
                }
                State::New | State::Terminal => {
                    self.tree.nodes[node as usize].state = State::Pending;
                    self.tree.visit(&self.paths[start..]);
                    self.count_call(root_edge, None);
                    // Straight after the other leaves' (`legal_actions` appends).
                    let s = self.legal.len();
                    self.work.legal_actions(&mut self.legal);
                    debug_assert!(
                        self.legal[s..].is_sorted(),
                        "legal actions in increasing order"
                    );
                    if !unchecked::ids_below(&self.legal[s..], self.legal_below) {
                        // (`legal` keeps only ids below `legal_below`)
                        self.legal.truncate(s);
                        panic!(
                            "the game listed an action past its {} actions",
                            self.legal_below
                        );
                    }
                    let seat = self.work.to_move() - 1;
                    self.leaves.push(Leaf {
                        node,
                        path: start..self.paths.len(),
                        legal: s..self.legal.len(),
                        root_edge,
                        seat,
                        stash: NONE,
                    });
                    return Step::Leaf;
                }
                State::Pending => {
                    self.paths.truncate(start);
                    self.rewind();
                    return Step::Collision;
                }
                State::Expanded => {
                    let seat = self.work.to_move() - 1;
                    let i = match (opts.algorithm, node) {
                        (Algorithm::Puct, 0) if !self.noisy.is_empty() => select::puct(
                            &self.tree,
                            0,
                            seat,
                            opts.c_puct,
                            Some(&self.noisy),
                            self.noisy_open,
                        ),
                        (Algorithm::Puct, _) => {
                            let open = self.tree.open(node);
                            select::puct(&self.tree, node, seat, opts.c_puct, None, open)
                        }
                        (Algorithm::Gumbel, 0) => self.gumbel_root(seat, opts),
                        (Algorithm::Gumbel, _) => {
                            let (open, mass) = (self.tree.open(node), self.tree.mass(node));
                            select::gumbel_interior(
                                &self.tree,
                                node,
                                seat,
                                open,
                                mass,
                                &mut self.cands,
                            )
                        }
                    };
                    let e = self.tree.edges_of(node)[i];
                    self.undo.push(self.work.apply_action_undoable(e.action));
                    let child = self.tree.child(node, i);
                    if node == 0 {
                        root_edge = i as u32;
                        if i as u32 == self.noisy_open && !self.noisy.is_empty() {
                            let noisy = &self.noisy;
                            self.noisy_open =
                                select::next_open(self.tree.edges_of(0), i, |j| noisy[j]);
                        }
                        if e.child == NONE && opts.algorithm == Algorithm::Gumbel {
                            let at = self.kids.partition_point(|k| k.edge < i as u32);
                            let kid = RootKid::of(
                                &self.tree,
                                i as u32,
                                child,
                                e.prior(self.tree.divisor(0)),
                                self.keys[i],
                                seat,
                                0,
                            );
                            self.kids.insert(at, kid);
                        }
                    }
                    node = child;
                    self.paths.push(node);
                }
            }
        }
    }

    /// Select this tree's leaves of a wave (the last one stays live).
    pub(super) fn select_wave(
        &mut self,
        players: usize,
        actions: usize,
        obs_len: usize,
        layout: Option<&CellLayout>,
        opts: &BatchedOptions,
    ) {
        self.leaves.clear();
        self.paths.clear();
        self.legal.clear();
        self.legal_below = actions;
        self.stash.clear();
        let mut taken = 0;
        while taken < opts.leaves_per_tree && self.remaining > 0 {
            match self.descend(players, obs_len, layout, opts) {
                Step::Leaf | Step::Done => {
                    taken += 1;
                    self.remaining -= 1;
                }
                Step::Collision => break,
            }
        }
    }

    /// Write the leaves' observations and masks (`obs_len` and `actions` per
    /// leaf), then take `work` back to the root.
    pub(super) fn write(
        &mut self,
        obs: &mut [f32],
        masks: &mut [bool],
        obs_len: usize,
        actions: usize,
        layout: Option<&CellLayout>,
    ) {
        for (j, leaf) in self.leaves.iter().enumerate() {
            let o = &mut obs[j * obs_len..(j + 1) * obs_len];
            if leaf.stash == NONE {
                observe(&self.work, layout, o);
            } else {
                let s = leaf.stash as usize * obs_len;
                o.copy_from_slice(&self.stash[s..s + obs_len]);
            }
            write_mask_of(
                legal_of(&self.legal, self.legal_below, leaf),
                &mut masks[j * actions..(j + 1) * actions],
            );
        }
        self.rewind();
    }

    /// Check this tree's rows of the evaluator's answer (into `checked`).
    pub(super) fn check(
        &mut self,
        priors: Rows<'_>,
        values: Rows<'_>,
        actions: usize,
        players: usize,
    ) {
        let (first, k) = (self.first, self.leaves.len());
        let (p, v) = (
            priors.part(first * actions..(first + k) * actions),
            values.part(first * players..(first + k) * players),
        );
        let legal = self
            .leaves
            .iter()
            .map(|l| legal_of(&self.legal, self.legal_below, l));
        self.sums.clear();
        self.checked = check_rows(p, v, legal, actions, first, &mut self.sums);
    }

    /// Expand the leaves with their rows of `priors` (checked and summed by
    /// [`TreeSearch::check`]) and of `values`, and back the values up.
    /// Float32 priors go into the edges as they came, their sum the
    /// divisor; float64 ones divided by it, then rounded
    /// ([`crate::search::tree::Edge::prior32`]).
    pub(super) fn finish_wave(
        &mut self,
        priors: Rows<'_>,
        values: Rows<'_>,
        actions: usize,
        players: usize,
        opts: &BatchedOptions,
    ) {
        self.rewind();
        let leaves = std::mem::take(&mut self.leaves);
        for (j, leaf) in leaves.iter().enumerate() {
            let r = self.first + j;
            let mut v = [0.0; MAX_SEATS];
            if opts.relative_values {
                // column k is the k-th seat after the mover
                for k in 0..players {
                    v[(leaf.seat + k) % players] = values.get(r * players + k);
                }
            } else {
                for (k, x) in v[..players].iter_mut().enumerate() {
                    *x = values.get(r * players + k);
                }
            }
            let legal = legal_of(&self.legal, self.legal_below, leaf);
            let sum = self.sums[j];
            match priors.part(r * actions..(r + 1) * actions) {
                Rows::F32(row) => {
                    self.tree
                        .expand(leaf.node, legal.ids(), at(row, legal), sum, v[leaf.seat])
                }
                Rows::F64(row) => self.tree.expand(
                    leaf.node,
                    legal.ids(),
                    at(row, legal).map(|p| (p / sum) as f32),
                    1.0,
                    v[leaf.seat],
                ),
            }
            if leaf.node == 0 {
                self.root_noise(opts);
            }
            self.tree.backup(&self.paths[leaf.path.clone()], &v);
            let seat = self.root_seat;
            if let Some(k) = self.root_kid(leaf.root_edge) {
                k.w += v[seat];
            }
        }
        self.leaves = leaves;
        self.leaves.clear();
    }

    /// Take back the leaves of a wave that failed.
    pub(super) fn abandon_wave(&mut self) {
        self.rewind();
        let mut leaves = std::mem::take(&mut self.leaves);
        for leaf in leaves.drain(..) {
            self.tree.unvisit(&self.paths[leaf.path.clone()]);
            self.tree.nodes[leaf.node as usize].state = State::New;
            if let Some(k) = self.root_kid(leaf.root_edge) {
                k.n -= 1;
                k.calls -= 1;
            }
            self.remaining += 1;
        }
        self.leaves = leaves;
    }

    /// Play `a` at the root and keep the subtree below it.
    pub(super) fn advance(&mut self, a: Action) {
        let child = self.tree.root_child(a);
        self.tree.reroot(child);
        self.kids.clear();
        self.noisy.clear();
        self.gumbel.clear();
        self.rewind();
        self.work.apply_action(a);
    }

    /// The root's row of the result.
    pub(super) fn report(&mut self, opts: &BatchedOptions, out: RootRow<'_>) {
        let seat = self.root().to_move() - 1;
        let (a, p) = &mut self.scratch;
        let mixed = select::completed_q(&self.tree, 0, seat, a);
        let edges = self.tree.edges_of(0);
        let node = &self.tree.nodes[0];
        for (s, v) in out.values.iter_mut().enumerate() {
            *v = (node.w[s] / node.n.max(1) as f64) as f32;
        }
        let total: u64 = edges
            .iter()
            .map(|e| self.tree.child_stats(e, seat).0 as u64)
            .sum();
        let (visits, policy, q) = (out.visits, out.policy, out.q);
        for e in edges {
            let (n, w) = self.tree.child_stats(e, seat);
            visits[e.action as usize] = n;
            q[e.action as usize] = if n > 0 {
                (w / n as f64) as f32
            } else {
                mixed as f32
            };
        }
        let d = self.tree.divisor(0);
        let prior = |i: usize| {
            if self.noisy.is_empty() {
                edges[i].prior(d)
            } else {
                self.noisy[i]
            }
        };
        *out.action = match opts.algorithm {
            Algorithm::Puct => {
                for (i, e) in edges.iter().enumerate() {
                    let n = self.tree.child_stats(e, seat).0;
                    policy[e.action as usize] = if total > 0 {
                        (n as f64 / total as f64) as f32
                    } else {
                        prior(i) as f32
                    };
                }
                let best = (0..edges.len()).max_by(|&i, &j| {
                    let (ni, nj) = (
                        self.tree.child_stats(&edges[i], seat).0,
                        self.tree.child_stats(&edges[j], seat).0,
                    );
                    ni.cmp(&nj)
                        .then(prior(i).total_cmp(&prior(j)))
                        .then(j.cmp(&i))
                });
                best.map_or(0, |i| edges[i].action)
            }
            Algorithm::Gumbel => {
                select::improved_policy(&self.tree, 0, a, p);
                for (e, &x) in edges.iter().zip(p.iter()) {
                    policy[e.action as usize] = x as f32;
                }
                // Root noise is drawn when the root is expanded, so these
                // have one entry per edge.
                let considered = self.kids.iter().map(|k| k.calls).max().unwrap_or(0);
                let i = if considered > 0 {
                    // Only visited edges qualify: the root's children list
                    // gives the same edge as the pass over every edge (the
                    // same candidates and sums, in the same order).
                    let (kids, order) = (&self.kids, &self.order);
                    select::gumbel_root_listed(
                        &self.tree,
                        seat,
                        &self.keys,
                        considered,
                        kids,
                        order,
                        &mut 0,
                        &mut self.cands,
                    )
                } else {
                    select::gumbel_root(
                        &self.tree,
                        seat,
                        &self.gumbel,
                        &self.logits,
                        &mut self.cands,
                    )
                };
                edges.get(i).map_or(0, |e| e.action)
            }
        };
    }
}

impl<G: Game> TreeSearch<G> {
    /// The root position (between waves, `work` stands on it).
    pub(super) fn root(&self) -> &G {
        debug_assert!(self.undo.is_empty(), "a wave is under way");
        &self.work
    }

    /// Bytes held by the tree and the lists (the working game aside).
    fn capacity_bytes(&self) -> usize {
        fn b<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        let floats = [
            &self.noisy,
            &self.gumbel,
            &self.logits,
            &self.keys,
            &self.scratch.0,
            &self.scratch.1,
            &self.sums,
        ];
        self.tree.capacity_bytes()
            + floats.iter().map(|v| b(v)).sum::<usize>()
            + b(&self.undo)
            + b(&self.kids)
            + b(&self.order)
            + b(&self.ranks)
            + b(&self.leaves)
            + b(&self.paths)
            + b(&self.legal)
            + b(&self.stash)
            + b(&self.cands)
            + std::mem::size_of::<Self>()
    }

    /// Tree `index` of a new search of `seed` over `root`, as
    /// [`TreeSearch::new`] makes it, in this one's memory (every field is
    /// named: a field added later must be set here too).
    pub(super) fn reset(&mut self, seed: u64, index: usize, root: &G) {
        let TreeSearch {
            tree,
            rng,
            work,
            undo,
            noisy,
            noisy_open,
            gumbel,
            logits,
            kids,
            root_seat,
            order,
            ranks,
            keys,
            cursor,
            sorted,
            budget,
            remaining,
            leaves,
            paths,
            legal,
            legal_below,
            stash,
            scratch,
            cands,
            first,
            sums,
            checked,
        } = self;
        tree.clear();
        *rng = rng_for(seed, index as u64);
        work.clone_from(root);
        undo.clear();
        for v in [
            noisy,
            gumbel,
            logits,
            keys,
            &mut scratch.0,
            &mut scratch.1,
            sums,
        ] {
            v.clear();
        }
        *noisy_open = NONE;
        kids.clear();
        order.clear();
        ranks.clear();
        leaves.clear();
        paths.clear();
        legal.clear();
        *legal_below = 0;
        stash.clear();
        cands.clear();
        (*cursor, *sorted, *budget, *remaining, *first, *root_seat) = (0, 0, 0, 0, 0, 0);
        *checked = Ok(());
    }

    /// A fresh tree over `game`; the random numbers go on from this tree's
    /// stream.
    pub(super) fn replace(&mut self, game: G) {
        self.tree.clear();
        self.kids.clear();
        self.noisy.clear();
        self.gumbel.clear();
        self.logits.clear();
        // the tree's working game walks down from its root: it becomes the new root
        self.undo.clear();
        self.work = game;
    }
}

/// The trees of dropped searches with all their lists and working games,
/// one batch per game type (the latest), their arenas up to [`SPARE_BYTES`]:
/// the next search of that game takes them over ([`TreeSearch::reset`])
/// rather than allocating, and later freeing, a few dozen blocks of memory
/// per tree, and grows its trees in memory it has touched before rather
/// than in fresh pages from the system (which cost as much as the search
/// itself when one-off searches follow each other).
static SPARE: Mutex<Vec<Box<dyn std::any::Any + Send>>> = Mutex::new(Vec::new());

/// The most memory a dropped search leaves behind for the next one, per
/// kind of memory (the trees of a game type here, the input buffers in the
/// Python binding).
pub const SPARE_BYTES: usize = 1 << 27;

/// The kept trees of game type `G` (empty: none).
pub(super) fn take_spare<G: Game>() -> Vec<TreeSearch<G>> {
    let Ok(mut spare) = SPARE.lock() else {
        return Vec::new();
    };
    match spare.iter().position(|b| b.is::<Vec<TreeSearch<G>>>()) {
        Some(i) => spare
            .swap_remove(i)
            .downcast::<Vec<TreeSearch<G>>>()
            .map(|b| *b)
            .unwrap_or_default(),
        None => Vec::new(),
    }
}

/// Keep `trees` for the next search of their game type (in place of any
/// kept before), as many as fit in [`SPARE_BYTES`] (their games aside).
pub(super) fn give_spare<G: Game>(mut trees: Vec<TreeSearch<G>>) {
    let mut bytes = 0;
    let fit = trees.iter().position(|t| {
        bytes += t.capacity_bytes();
        bytes > SPARE_BYTES
    });
    trees.truncate(fit.unwrap_or(trees.len()));
    let Ok(mut spare) = SPARE.lock() else { return };
    spare.retain(|b| !b.is::<Vec<TreeSearch<G>>>());
    spare.push(Box::new(trees));
}
