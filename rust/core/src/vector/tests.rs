//! Tests of batched games: thread counts, observations, refused actions,
//! truncation, autoreset and autoplay.

use super::*;
use crate::board::Board;
use crate::game::{Action, Game};
use crate::rng::below;
use crate::{Churn, Quintun, Wunchunk};
use std::sync::Arc;

/// The game's direct observation writer gives `observation()`'s values
/// (its own, through the board's layout) with the layout given, and the
/// same values in every element type, over buffers holding garbage.
fn assert_direct_writes_match<G: BatchGame>(g: &G, layout: &CellLayout, scratch: &mut Vec<u8>) {
    let o: usize = g.observation_shape().iter().product();
    let (mut want, mut f, mut u, mut b) =
        (vec![0f32; o], vec![7f32; o], vec![7u8; o], vec![true; o]);
    g.observation(&mut want);
    g.write_observation(layout, &mut f, scratch);
    g.write_observation(layout, &mut u, scratch);
    g.write_observation(layout, &mut b, scratch);
    assert_eq!(f, want);
    assert!(u
        .iter()
        .zip(&want)
        .all(|(&x, &y)| x as f32 == (y * 255.0).round()));
    assert!(b.iter().zip(&want).all(|(&x, &y)| x == (y != 0.0)));
}

struct Bufs {
    obs: Vec<f32>,
    mask: Vec<bool>,
    rewards: Vec<f32>,
    term: Vec<bool>,
    trunc: Vec<bool>,
    to_move: Vec<i32>,
    lengths: Vec<i64>,
}

impl Bufs {
    fn new<G: BatchGame>(v: &VecGames<G>) -> Bufs {
        let n = v.num_envs();
        let s = v.observation_shape();
        Bufs {
            obs: vec![0.0; n * s[0] * s[1] * s[2]],
            mask: vec![false; n * v.num_actions()],
            rewards: vec![0.0; n * v.num_players()],
            term: vec![false; n],
            trunc: vec![false; n],
            to_move: vec![0; n],
            lengths: vec![0; n],
        }
    }
    fn out(&mut self) -> Out<'_> {
        Out {
            obs: Obs::F32(&mut self.obs),
            mask: Some(&mut self.mask),
            rewards: &mut self.rewards,
            terminated: &mut self.term,
            truncated: &mut self.trunc,
            to_move: &mut self.to_move,
            lengths: &mut self.lengths,
        }
    }
}

fn run_batch<G: BatchGame>(
    start: &G,
    n: usize,
    threads: usize,
    steps: usize,
    max_plies: u64,
) -> (Vec<f32>, Vec<bool>, Vec<f32>, u64) {
    let mut v = VecGames::new(vec![start.clone(); n], 5, max_plies).unwrap();
    let mut b = Bufs::new(&v);
    v.reset(None, b.out(), threads).unwrap();
    let mut acts = vec![0i64; n];
    let mut ended = 0;
    let mut rsum = vec![0f32; v.num_players()];
    for _ in 0..steps {
        v.sample_actions(&mut acts, threads).unwrap();
        v.step(&acts, None, b.out(), threads).unwrap();
        ended += b
            .term
            .iter()
            .zip(&b.trunc)
            .filter(|(a, b)| **a || **b)
            .count() as u64;
        for (k, r) in b.rewards.iter().enumerate() {
            rsum[k % v.num_players()] += r;
        }
    }
    (b.obs, b.mask, rsum, ended)
}

#[test]
fn thread_count_does_not_change_results() {
    let c = Churn::new(Arc::new(Board::hexhex(3).unwrap()), true);
    let one = run_batch(&c, 100, 1, 200, u64::MAX);
    assert!(one.3 > 0);
    assert_eq!(one, run_batch(&c, 100, 2, 200, u64::MAX));
    assert_eq!(one, run_batch(&c, 100, 3, 200, u64::MAX));
    let w = Wunchunk::new(
        5,
        2,
        crate::WunchunkStart::Standard,
        crate::WunchunkBalance::Ap,
    )
    .unwrap();
    assert_eq!(run_batch(&w, 40, 1, 100, 10), run_batch(&w, 40, 2, 100, 10));
    let q = Quintun::new(4, crate::QuintunPlacement::Side, true).unwrap();
    assert_eq!(
        run_batch(&q, 40, 1, 100, u64::MAX),
        run_batch(&q, 40, 2, 100, u64::MAX)
    );
}

/// The direct writer gives the same values in every element type (a `u8`
/// holds `round(255 v)`), with any layout equal to the board's.
#[test]
fn direct_observations_match_the_game() {
    let boards = [
        Board::hexhex(2).unwrap(),
        Board::hexhex(4).unwrap(),
        Board::hexhex(7).unwrap(),
        Board::from_sides([2, 3, 4, 2, 3, 4]).unwrap(),
    ];
    for board in boards {
        let layout = CellLayout::of(&board);
        for pie in [false, true] {
            let mut g = Churn::new(Arc::new(board.clone()), pie);
            let mut rng = rng_for(9, board.num_cells() as u64);
            let (mut buf, mut scratch) = (Vec::new(), Vec::new());
            for _ in 0..400 {
                assert_direct_writes_match(&g, &layout, &mut scratch);
                if g.is_over() {
                    g = Churn::new(Arc::new(board.clone()), pie);
                    continue;
                }
                buf.clear();
                g.legal_actions(&mut buf);
                g.apply_action(buf[below(&mut rng, buf.len())]);
            }
        }
    }
}

/// Batches draw from `legal_actions`, so its order matters: for Churn it
/// is `legal_cells` (cell order) then `swap`.
#[test]
fn churn_legal_actions_are_the_legal_cells_in_order() {
    let mut rng = rng_for(3, 0);
    let (mut got, mut want) = (Vec::new(), Vec::new());
    for board in [
        Board::hexhex(3).unwrap(),
        Board::hexhex(7).unwrap(),
        Board::from_sides([3, 4, 3, 4, 3, 4]).unwrap(),
    ] {
        for pie in [false, true] {
            for _ in 0..5 {
                let mut g = Churn::new(Arc::new(board.clone()), pie);
                loop {
                    got.clear();
                    g.legal_actions(&mut got);
                    want.clear();
                    g.legal_cells(&mut want);
                    if g.swap_available() {
                        want.push(board.num_cells() as Action);
                    }
                    assert_eq!(got, want, "{}", g.diagram());
                    if g.is_over() {
                        break;
                    }
                    g.apply_action(got[below(&mut rng, got.len())]);
                }
            }
        }
    }
}

#[test]
fn bad_actions_step_nothing() {
    let c = Churn::new(Arc::new(Board::hexhex(3).unwrap()), true);
    let mut v = VecGames::new(vec![c.clone(); 3], 0, u64::MAX).unwrap();
    let mut b = Bufs::new(&v);
    v.reset(None, b.out(), 1).unwrap();
    let refused = |e: StepError| match e {
        StepError::Illegal { env, action, error } => (env, action, error.reason),
        e => panic!("{e:?}"),
    };
    let e = v.step(&[0, 1, 99], None, b.out(), 1).unwrap_err();
    assert_eq!(refused(e), (2, 99, Reason::ActionOutOfRange));
    let e = v.step(&[0, 1, 19], None, b.out(), 1).unwrap_err(); // swap before any stone
    assert_eq!(refused(e), (2, 19, Reason::IllegalAction));
    assert!(v.step(&[0, 1], None, b.out(), 1).is_err());
    assert!((0..3).all(|i| v.env(i).actions.is_empty()));
    v.step(&[0, 1, 2], None, b.out(), 1).unwrap();
    assert_eq!(v.env(2).actions, vec![2]);
    assert_eq!(
        VecGames::<Churn>::new(vec![], 0, 1).err(),
        Some(BatchError::NoEnvs)
    );
}

#[test]
fn truncation_and_autoreset() {
    let c = Churn::new(Arc::new(Board::hexhex(3).unwrap()), false);
    let mut v = VecGames::new(vec![c.clone(); 2], 0, 2).unwrap();
    let mut b = Bufs::new(&v);
    v.reset(None, b.out(), 1).unwrap();
    let mut acts = vec![0; 2];
    v.sample_actions(&mut acts, 1).unwrap();
    v.step(&acts, None, b.out(), 1).unwrap();
    assert_eq!(b.trunc, vec![false, false]);
    v.sample_actions(&mut acts, 1).unwrap();
    v.step(&acts, None, b.out(), 1).unwrap();
    assert_eq!(b.trunc, vec![true, true]);
    assert_eq!(b.lengths, vec![2, 2]);
    assert!(b.mask.iter().all(|m| !m));
    v.step(&[-7, 12345], None, b.out(), 1).unwrap(); // ignored: the envs reset
    assert_eq!(b.trunc, vec![false, false]);
    assert_eq!(b.lengths, vec![0, 0]);
    assert_eq!(v.env(0).plies, 0);
    assert_eq!(v.env(0).episode, 2); // the reset, then the autoreset
    assert_eq!(b.mask.iter().filter(|m| **m).count(), 2 * 19);
}

#[test]
fn autoplay_hands_the_move_back() {
    let c = Churn::new(Arc::new(Board::hexhex(3).unwrap()), true);
    let mut v = VecGames::new(vec![c.clone(); 20], 3, u64::MAX).unwrap();
    v.set_autoplay(Some(2usize)).unwrap();
    let e = v.set_autoplay(Some(3usize)).unwrap_err();
    assert_eq!(
        (e.argument, e.message.as_str()),
        ("player", "player must be a seat 1..2, got 3")
    );
    let e = v
        .set_autoplay(Some(crate::limits::IntArg::Wide(
            "-99999999999999999999".into(),
        )))
        .unwrap_err();
    assert_eq!(
        e.message,
        "player must be a seat 1..2, got -99999999999999999999"
    );
    assert_eq!(v.autoplay(), Some(2));
    let mut b = Bufs::new(&v);
    v.reset(None, b.out(), 1).unwrap();
    assert!(b.to_move.iter().all(|&p| p == 2));
    let mut acts = vec![0; 20];
    let mut ends = 0;
    for _ in 0..300 {
        v.sample_actions(&mut acts, 1).unwrap();
        v.step(&acts, None, b.out(), 1).unwrap();
        for i in 0..20 {
            if b.term[i] {
                ends += 1;
                assert_eq!(b.rewards[2 * i] + b.rewards[2 * i + 1], 0.0);
            } else {
                assert_eq!(b.to_move[i], 2);
            }
        }
    }
    assert!(ends > 0);
}

/// Hex's direct mask writer gives the mask, the count and the order of
/// `legal_actions` at every ply, swap offered or not, games over included.
#[test]
fn hex_direct_mask_matches_legal_actions() {
    let mut rng = rng_for(5, 0);
    let mut list = Vec::new();
    for (rows, cols, swap) in [
        (1, 1, false),
        (3, 3, true),
        (5, 7, false),
        (8, 8, true),
        (11, 11, true),
        (13, 9, false),
    ] {
        for _ in 0..4 {
            let mut g = crate::Hex::new(rows, cols, swap).unwrap();
            loop {
                let na = g.num_actions();
                let (mut want, mut got) = (vec![false; na], vec![true; na]);
                env::write_mask(&g, false, &mut want, &mut list);
                assert_eq!(g.write_legal_mask(&mut got), Some(list.len()));
                assert_eq!(got, want);
                for (k, &a) in list.iter().enumerate() {
                    assert_eq!(g.nth_legal(k), a);
                }
                if g.is_over() {
                    break;
                }
                g.apply_action(list[below(&mut rng, list.len())]);
            }
        }
    }
}

/// Quintun's direct observation writer gives the same planes in every
/// element type, pending neutral stones and swaps included.
#[test]
fn quintun_direct_observations_match_the_game() {
    let mut rng = rng_for(11, 0);
    for (size, swap) in [(4, true), (5, false), (7, true)] {
        for placement in [crate::QuintunPlacement::Side, crate::QuintunPlacement::Gap] {
            let mut g = Quintun::new(size, placement, swap).unwrap();
            let layout = CellLayout::of(g.board());
            let (mut buf, mut scratch) = (Vec::new(), Vec::new());
            assert!(g.direct_observation());
            for _ in 0..300 {
                assert_direct_writes_match(&g, &layout, &mut scratch);
                if g.is_over() {
                    g = Quintun::new(size, placement, swap).unwrap();
                    continue;
                }
                buf.clear();
                g.legal_actions(&mut buf);
                g.apply_action(buf[below(&mut rng, buf.len())]);
            }
        }
    }
}

/// A digest (FNV-1a over the float32 bits) of `Game::observation` at every
/// ply of a few seeded random games from `start`.
fn observation_digest<G: Game + Clone>(start: &G, games: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let (mut obs, mut list) = (
        vec![0f32; start.observation_shape().iter().product()],
        Vec::new(),
    );
    for seed in 0..games {
        let (mut g, mut rng) = (start.clone(), rng_for(17, seed));
        loop {
            obs.fill(7.0);
            g.observation(&mut obs);
            h = obs
                .iter()
                .flat_map(|x| x.to_bits().to_le_bytes())
                .fold(h, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
            if g.is_over() {
                break;
            }
            list.clear();
            g.legal_actions(&mut list);
            g.apply_action(list[below(&mut rng, list.len())]);
        }
    }
    h
}

/// Every game's observation planes are pinned (agents are trained on them):
/// a change of a digest here changes what the networks see. The digests
/// depend on the play too (`legal_actions`' order, the random draws).
#[test]
fn observations_are_pinned() {
    use crate::{
        Havannah, Hex, QuintunPlacement as P, WunchunkBalance as B, WunchunkStart as S, Y,
    };
    let churn = |b: Board, pie| Churn::new(Arc::new(b), pie);
    let digests = [
        observation_digest(&churn(Board::hexhex(2).unwrap(), true), 8),
        observation_digest(&churn(Board::hexhex(5).unwrap(), false), 4),
        observation_digest(
            &churn(Board::from_sides([3, 4, 3, 4, 3, 4]).unwrap(), true),
            4,
        ),
        observation_digest(&Quintun::new(4, P::Side, true).unwrap(), 4),
        observation_digest(&Quintun::new(5, P::Gap, false).unwrap(), 4),
        observation_digest(&Hex::new(5, 5, true).unwrap(), 6),
        observation_digest(&Hex::new(3, 7, false).unwrap(), 6),
        observation_digest(&Wunchunk::new(5, 2, S::Standard, B::Ap).unwrap(), 4),
        observation_digest(&Wunchunk::new(7, 3, S::Standard, B::Ap).unwrap(), 2),
        observation_digest(&Havannah::new(4, true).unwrap(), 4),
        observation_digest(&Y::new(6).unwrap(), 4),
    ];
    let want: [u64; 11] = [
        0x56ec_0dde_1cfe_1675,
        0xa3ac_04a2_e5df_4ad5,
        0x708f_545c_f20f_a6a8,
        0xa380_05ae_9f71_a8e8,
        0x6c42_5923_5630_33c8,
        0x6206_60b1_5064_afd5,
        0xfc08_03d9_2611_0b65,
        0x79ba_8a4c_64de_5a50,
        0x2be5_f8df_faae_67ce,
        0x7aca_a00d_cf9e_0605,
        0x762e_4318_9904_4305,
    ];
    assert_eq!(
        digests.map(|d| format!("{d:#018x}")),
        want.map(|d| format!("{d:#018x}"))
    );
}
