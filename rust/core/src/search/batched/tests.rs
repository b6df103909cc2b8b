//! Tests of the batched search.

use super::*;
use crate::rng::rng_for;
use crate::search::evaluate::FnEvaluator;
use crate::{Board, Churn, Wunchunk, WunchunkBalance, WunchunkStart};
use std::sync::Arc;

fn churn(side: usize) -> Churn {
    Churn::new(Arc::new(Board::hexhex(side).unwrap()), true)
}

/// Priors from a hash of the observation, values constant.
fn hashed<G: Game>(
    g: &G,
) -> FnEvaluator<impl FnMut(&[f32], &[bool], usize) -> (Vec<f64>, Vec<f64>)> {
    let [c, h, w] = g.observation_shape();
    let (len, a, p) = (c * h * w, g.num_actions(), g.num_players());
    FnEvaluator::new(len, a, move |obs: &[f32], masks: &[bool], l: usize| {
        let mut priors = vec![0.0; l * a];
        for i in 0..l {
            let seed = obs[i * len..(i + 1) * len]
                .iter()
                .enumerate()
                .fold(0u64, |s, (k, &x)| {
                    s.wrapping_mul(31).wrapping_add((x as u64) << (k % 7))
                });
            for j in 0..a {
                priors[i * a + j] = if masks[i * a + j] {
                    1.0 + ((seed.wrapping_add(j as u64 * 2654435761) >> 3) % 17) as f64
                } else {
                    0.0
                };
            }
        }
        (priors, vec![1.0 / p as f64; l * p])
    })
}

#[test]
fn same_result_for_any_thread_count() {
    let games = vec![churn(3); 5];
    for algorithm in [Algorithm::Puct, Algorithm::Gumbel] {
        let run = |threads: usize, leaves_per_tree: usize| {
            let opts = BatchedOptions {
                algorithm,
                threads,
                leaves_per_tree,
                seed: 4,
                ..Default::default()
            };
            batched_search(games.clone(), 40, &opts, &mut hashed(&games[0])).unwrap()
        };
        for lpt in [1, 4] {
            let a = run(1, lpt);
            assert_eq!(a, run(2, lpt));
            assert_eq!(a, run(3, lpt));
            assert_eq!(a.visits.iter().map(|&v| v as u64).sum::<u64>(), 5 * 39);
            assert!(a.evaluations <= 40);
        }
        assert!(run(1, 4).evaluations < run(1, 1).evaluations);
    }
}

#[test]
fn reuse_keeps_the_subtree() {
    let g = churn(3);
    for algorithm in [Algorithm::Puct, Algorithm::Gumbel] {
        let opts = BatchedOptions {
            algorithm,
            seed: 1,
            ..Default::default()
        };
        let mut m = BatchedMcts::new(vec![g.clone(), g.clone()], &opts).unwrap();
        let mut ev = hashed(&g);
        let r = m.search(60, &mut ev).unwrap();
        let a = r.actions.clone();
        let kept: Vec<u32> = (0..2)
            .map(|b| r.visits[b * g.num_actions() + a[b] as usize])
            .collect();
        let acts: Vec<i64> = a.iter().map(|&x| x as i64).collect();
        let acts = m.check_actions(&acts).unwrap();
        m.advance(&acts);
        assert_eq!(m.root_visits(), kept);
        let r2 = m.search(10, &mut ev).unwrap();
        assert_eq!(
            r2.visits.iter().map(|&v| v as u64).sum::<u64>(),
            kept.iter().map(|&k| k as u64 + 10 - 1).sum::<u64>()
        );
        // one action for two roots: a bad argument, not an illegal move
        match m.check_actions(&[0]) {
            Err(ActionsError::Length(e)) => {
                assert_eq!(
                    (e.argument, e.message.as_str()),
                    (
                        "actions",
                        "actions must have shape (2,) (one per game), got (1,)"
                    )
                )
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            m.check_actions(&[-1, -1]),
            Err(ActionsError::Illegal { index: 0, .. })
        ));
    }
}

#[test]
fn three_players_find_an_immediate_win() {
    // Play random moves until a position with a one-action win among
    // several single-action turns; Gumbel and PUCT with values from the
    // true outcome only (constant elsewhere) pick a win.
    let start = Wunchunk::new(7, 3, WunchunkStart::Standard, WunchunkBalance::Ap).unwrap();
    let mut found = 0;
    for seed in 0..40u64 {
        if found >= 3 {
            break;
        }
        let Some((g, acts, wins)) = crate::testing::immediate_win(&start, seed, 3, false) else {
            continue;
        };
        for algorithm in [Algorithm::Puct, Algorithm::Gumbel] {
            let opts = BatchedOptions {
                algorithm,
                dirichlet_fraction: 0.0,
                gumbel_scale: 0.0,
                max_considered: 64,
                ..Default::default()
            };
            let sims = acts.len() as u64 * 2 + 1;
            let r = batched_search(vec![g.clone()], sims, &opts, &mut hashed(&g)).unwrap();
            assert!(
                wins.contains(&r.actions[0]),
                "{algorithm:?}: {} is not a win",
                g.action_to_string(r.actions[0])
            );
            assert_eq!(r.root_values.len(), 3);
        }
        found += 1;
    }
    assert!(found >= 1, "no position with an immediate win");
}

#[test]
fn replace_starts_a_fresh_tree_in_one_slot() {
    let g = churn(3);
    let mut other = g.clone();
    other.apply_action(0);
    let a = g.num_actions();
    for algorithm in [Algorithm::Puct, Algorithm::Gumbel] {
        // no root noise: a fresh tree searches exactly as a new search does
        let opts = BatchedOptions {
            algorithm,
            seed: 2,
            dirichlet_fraction: 0.0,
            gumbel_scale: 0.0,
            ..Default::default()
        };
        let mut m = BatchedMcts::new(vec![g.clone(), g.clone()], &opts).unwrap();
        let mut ev = hashed(&g);
        m.search(30, &mut ev).unwrap();
        m.replace(1, other.clone()).unwrap();
        assert_eq!(m.root_visits(), vec![30, 0]);
        assert_eq!(m.games().nth(1).unwrap().zobrist(), other.zobrist());
        let r = m.search(12, &mut ev).unwrap();
        let fresh = batched_search(vec![other.clone()], 12, &opts, &mut hashed(&g)).unwrap();
        assert_eq!(r.visits[a..], fresh.visits[..]);
        assert_eq!(r.policies[a..], fresh.policies[..]);
        assert_eq!(r.actions[1], fresh.actions[0]);
        // slot 0 kept its tree
        assert_eq!(r.visits[..a].iter().sum::<u32>(), 30 - 1 + 12);
        // bad calls change nothing
        assert!(
            matches!(m.replace(2, g.clone()), Err(BatchError::Invalid(e)) if e.argument == "index" && e.message == "index must be between 0 and 1, got 2")
        );
        assert!(
            matches!(m.replace(0, churn(4)), Err(BatchError::Invalid(e)) if e.argument == "game" && e.message.contains("spec"))
        );
        let mut over = g.clone();
        let (mut buf, mut rng) = (Vec::new(), rng_for(1, 0));
        while !over.is_over() {
            let x = over.random_action(&mut rng, &mut buf).unwrap();
            over.apply_action(x);
        }
        assert!(matches!(m.replace(0, over), Err(BatchError::GameOver(0))));
        assert_eq!(m.root_visits(), vec![30 + 12, 12]);
    }
}

#[test]
fn errors_leave_the_trees_as_they_were() {
    let g = churn(3);
    let opts = BatchedOptions::default();
    assert!(matches!(
        BatchedMcts::new(Vec::<Churn>::new(), &opts),
        Err(BatchError::Invalid(_))
    ));
    assert!(matches!(
        BatchedMcts::new(vec![g.clone(), churn(4)], &opts),
        Err(BatchError::Invalid(_))
    ));
    assert!(matches!(
        BatchedMcts::new(
            vec![g.clone()],
            &BatchedOptions {
                c_puct: f64::NAN,
                ..opts.clone()
            }
        ),
        Err(BatchError::Invalid(_))
    ));
    assert!(matches!(
        BatchedMcts::new(
            vec![g.clone()],
            &BatchedOptions {
                leaves_per_tree: 0,
                ..opts.clone()
            }
        ),
        Err(BatchError::Invalid(_))
    ));
    let quiet = BatchedOptions {
        dirichlet_fraction: 0.0,
        ..opts.clone()
    };
    let mut m = BatchedMcts::new(vec![g.clone()], &quiet).unwrap();
    let mut clean = BatchedMcts::new(vec![g.clone()], &quiet).unwrap();
    m.search(20, &mut hashed(&g)).unwrap();
    clean.search(20, &mut hashed(&g)).unwrap();
    let a = g.num_actions();
    let mut bad = FnEvaluator::new(4 * 5 * 5, a, |_: &[f32], _: &[bool], l: usize| {
        (vec![-1.0; l * a], vec![0.5; l * 2])
    });
    assert!(matches!(
        m.search(5, &mut bad),
        Err(BatchError::Output(OutputError::NegativePrior))
    ));
    assert_eq!(m.root_visits(), vec![20]);
    assert!(matches!(
        m.search(0, &mut hashed(&g)),
        Err(BatchError::Invalid(_))
    ));
    let r = m.search(5, &mut hashed(&g)).unwrap();
    assert_eq!(r.visits.iter().sum::<u32>(), 20 - 1 + 5);
    // The failed wave left nothing behind.
    assert_eq!(r, clean.search(5, &mut hashed(&g)).unwrap());
}

#[test]
fn every_leaf_gets_its_own_observation_and_mask() {
    // Several leaves per tree per wave: all but the last are kept aside
    // while the next is selected. Each (observation, mask) row handed to
    // the evaluator must be a position's own pair: map the observations
    // of all positions up to 3 actions deep to their masks.
    use std::collections::HashMap;
    let g = churn(3);
    let [c, h, w] = g.observation_shape();
    let (len, a) = (c * h * w, g.num_actions());
    let key = |o: &[f32]| o.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    let mut known: HashMap<Vec<u32>, Vec<bool>> = HashMap::new();
    let mut stack = vec![(g.clone(), 0)];
    let (mut obs, mut buf) = (vec![0.0; len], Vec::new());
    while let Some((p, depth)) = stack.pop() {
        p.observation(&mut obs);
        buf.clear();
        p.legal_actions(&mut buf);
        let mut mask = vec![false; a];
        buf.iter().for_each(|&x| mask[x as usize] = true);
        known.insert(key(&obs), mask);
        if depth < 3 && !p.is_over() {
            for &x in &buf {
                let mut q = p.clone();
                q.apply_action(x);
                stack.push((q, depth + 1));
            }
        }
    }
    let (mut found, mut rows) = (0, 0);
    let mut ev = FnEvaluator::new(len, a, |o: &[f32], m: &[bool], l: usize| {
        for i in 0..l {
            rows += 1;
            if let Some(mask) = known.get(&key(&o[i * len..(i + 1) * len])) {
                found += 1;
                assert_eq!(&m[i * a..(i + 1) * a], &mask[..], "leaf {i} of {l}");
            }
        }
        (
            m.iter().map(|&x| f64::from(u8::from(x))).collect(),
            vec![0.5; l * 2],
        )
    });
    for algorithm in [Algorithm::Puct, Algorithm::Gumbel] {
        let opts = BatchedOptions {
            algorithm,
            leaves_per_tree: 8,
            threads: 2,
            ..Default::default()
        };
        batched_search(vec![g.clone(); 3], 40, &opts, &mut ev).unwrap();
    }
    drop(ev);
    assert!(rows > 0 && found * 2 > rows, "{found} of {rows} rows found");
}

#[test]
fn recycled_trees_search_as_new_ones() {
    // A search takes over the trees of the last dropped search of its game
    // type (other sizes, other depths, kept subtrees): its result is that
    // of trees made afresh, whatever was searched before.
    let mut start = churn(4);
    start.apply_action(5);
    let roots = vec![churn(4), start, churn(4)];
    for algorithm in [Algorithm::Puct, Algorithm::Gumbel] {
        let opts = BatchedOptions {
            algorithm,
            leaves_per_tree: 2,
            ..Default::default()
        };
        let first = batched_search(roots.clone(), 24, &opts, &mut hashed(&roots[0])).unwrap();
        for (g, n) in [(churn(3), 7), (churn(5), 2), (churn(4), 5)] {
            let mut m = BatchedMcts::new(
                vec![g.clone(); n],
                &BatchedOptions {
                    algorithm,
                    ..Default::default()
                },
            )
            .unwrap();
            m.search(40, &mut hashed(&g)).unwrap();
            let r = m.search(1, &mut hashed(&g)).unwrap();
            m.advance(&r.actions);
            m.search(9, &mut hashed(&g)).unwrap();
            drop(m);
            assert_eq!(
                batched_search(roots.clone(), 24, &opts, &mut hashed(&roots[0])).unwrap(),
                first,
                "{algorithm:?} after {n} trees"
            );
        }
    }
}
