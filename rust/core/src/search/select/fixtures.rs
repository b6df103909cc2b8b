//! Random trees for the tests of the selection rules.

use rand::RngCore;

use crate::rng::rng_for;
use crate::search::tree::{best_open, Tree, NONE};

/// A uniform number in the open interval (0, 1).
pub(super) fn uniform<R: RngCore>(rng: &mut R) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
}

/// A random expanded tree: root and one interior node with `k` edges
/// each, random priors (some zero), some children visited with random
/// values, some made but pending (visited, no value yet), some made and
/// never visited. The root keeps its priors as they came, with their
/// sum; the interior node normalised ones (the two ways
/// [`Edge::prior32`](crate::search::tree::Edge::prior32) holds them).
pub(super) fn random_tree(seed: u64, k: usize) -> Tree {
    let mut rng = rng_for(seed, 7);
    let mut t = Tree::new();
    let acts: Vec<u32> = (0..k as u32).collect();
    let priors: Vec<f32> = (0..k)
        .map(|_| {
            if uniform(&mut rng) < 0.2 {
                0.0
            } else {
                uniform(&mut rng) as f32
            }
        })
        .collect();
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
    t.expand(
        kid,
        &acts,
        priors.iter().rev().map(|&p| (f64::from(p) / sum) as f32),
        1.0,
        uniform(&mut rng),
    );
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
            let path = if node == 0 {
                vec![0, c]
            } else {
                vec![0, kid, c]
            };
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
pub(super) fn check_lists(t: &Tree) {
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
        let have: Vec<usize> = (0..edges.len())
            .filter(|&i| edges[i].child != NONE)
            .collect();
        assert_eq!(listed, have);
        if node.open != crate::search::tree::UNKNOWN {
            assert_eq!(
                node.open,
                best_open(edges, |j| edges[j].prior(node.divisor))
            );
        }
    }
}
