//! A conformance harness every game runs (after OpenSpiel's basic tests):
//! random games checked step by step against the `Game` contract.
//!
//! * undo restores the state exactly (cells, player to move, hash, legal
//!   actions, turn state) after a whole game is unwound;
//! * `is_legal_action` agrees with `legal_actions` for every action id;
//! * `count_moves` equals the length of `legal_moves`, and
//!   `count_turn_completions` the number of action sequences that finish the
//!   turn, when small enough to enumerate;
//! * `legal_moves` are exactly the action sequences that complete a turn,
//!   each made of legal actions;
//! * the hash depends on the position only: a copy rebuilt by replaying the
//!   actions has the same `zobrist()`, and the incrementally kept hash
//!   equals one recomputed from the cells ([`FreshHash`]) at every ply;
//! * the game's `play_random` ends in a position that passes these checks.

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

use crate::game::{Action, Game, MoveActions};
use crate::rng::{below, rng_for};

/// The Zobrist hash recomputed from scratch: every stone's key from the cell
/// values, XORed with the flags of the side to move and turn state. Each
/// game implements it in its folder (`games/<game>/tests.rs`, test builds
/// only) and runs [`conformance`] there.
pub(crate) trait FreshHash: Game {
    fn fresh_zobrist(&self) -> u64;
}

/// The fresh hash of a game whose cell values are stone kinds `1..` keyed
/// by its board's Zobrist table (Churn, Hex, Havannah, Y): every stone's
/// key XORed into `flags`, the game's side-to-move and turn-state keys.
pub(crate) fn board_stones_zobrist<G: Game>(g: &G, flags: u64) -> u64 {
    let b = g.board();
    (0..b.num_cells())
        .filter(|&c| g.cell_value(c) > 0)
        .fold(flags, |h, c| h ^ b.zobrist_key(c, g.cell_value(c) as usize))
}

/// Sequences above this many are not enumerated.
const ENUM_LIMIT: u128 = 3_000;

#[derive(Debug, PartialEq)]
struct Snapshot {
    cells: Vec<i8>,
    to_move: usize,
    hash: u64,
    mid_turn: bool,
    over: bool,
    actions: Vec<Action>,
}

fn snapshot<G: Game>(g: &G) -> Snapshot {
    let mut actions = Vec::new();
    g.legal_actions(&mut actions);
    // `legal_actions` appends (the batched search lists several leaves' in one vector).
    let mut after = vec![Action::MAX];
    g.legal_actions(&mut after);
    assert!(
        after[0] == Action::MAX && after[1..] == actions[..],
        "legal_actions must append to what the vector holds"
    );
    // ... in increasing order (the batched search's edges need them so).
    assert!(
        actions.windows(2).all(|w| w[0] < w[1]),
        "legal_actions must list each action once, in increasing order: {actions:?}"
    );
    Snapshot {
        cells: (0..g.board().num_cells())
            .map(|c| g.cell_value(c))
            .collect(),
        to_move: g.to_move(),
        hash: g.zobrist(),
        mid_turn: g.mid_turn(),
        over: g.is_over(),
        actions,
    }
}

/// Every action sequence finishing the turn of `g`, up to `limit` of them
/// (`None` above).
fn completions<G: Game>(g: &G, limit: usize) -> Option<BTreeSet<Vec<Action>>> {
    fn go<G: Game>(
        g: &G,
        cur: &mut Vec<Action>,
        out: &mut BTreeSet<Vec<Action>>,
        limit: usize,
    ) -> bool {
        let mut acts = Vec::new();
        g.legal_actions(&mut acts);
        for a in acts {
            let mut c = g.clone();
            c.apply_action(a);
            cur.push(a);
            let ok = if c.mid_turn() {
                go(&c, cur, out, limit)
            } else {
                out.insert(cur.clone());
                out.len() <= limit
            };
            cur.pop();
            if !ok {
                return false;
            }
        }
        true
    }
    let mut out = BTreeSet::new();
    go(g, &mut Vec::new(), &mut out, limit).then_some(out)
}

/// Checks of one position.
fn check_position<G: Game>(g: &G, what: &str, check_all_ids: bool) {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let set: BTreeSet<Action> = legal.iter().copied().collect();
    assert_eq!(set.len(), legal.len(), "{what}: duplicate legal actions");
    assert!(
        legal.iter().all(|&a| (a as usize) < g.num_actions()),
        "{what}: action out of range"
    );
    if check_all_ids {
        for a in 0..g.num_actions() as Action {
            assert_eq!(
                g.is_legal_action(a),
                set.contains(&a),
                "{what}: is_legal_action({a})"
            );
        }
    }
    if g.is_over() && !g.mid_turn() {
        assert!(legal.is_empty(), "{what}: legal actions in a finished game");
        return;
    }
    assert!(!legal.is_empty(), "{what}: no legal action in a live game");
    if let Some(n) = g.count_turn_completions() {
        if n <= ENUM_LIMIT {
            let walked = completions(g, ENUM_LIMIT as usize).expect("within the limit");
            assert_eq!(n, walked.len() as u128, "{what}: count_turn_completions");
        }
    }
    if g.mid_turn() {
        return;
    }
    let count = g.count_moves();
    assert_eq!(g.count_moves_big(), count.into(), "{what}: count_moves_big");
    if count > ENUM_LIMIT {
        return;
    }
    let mut moves: Vec<MoveActions> = Vec::new();
    g.legal_moves(u128::MAX, &mut moves).expect("unbounded");
    assert_eq!(
        moves.len() as u128,
        count,
        "{what}: count_moves vs legal_moves"
    );
    let listed: BTreeSet<Vec<Action>> = moves.iter().map(|m| m.to_vec()).collect();
    assert_eq!(listed.len(), moves.len(), "{what}: duplicate moves");
    let walked = completions(g, ENUM_LIMIT as usize).expect("within the limit");
    assert_eq!(listed, walked, "{what}: legal_moves vs action sequences");
    for m in moves.iter().take(20) {
        let text = g.format_move(m);
        assert_eq!(
            g.parse_move(&text).as_deref().ok(),
            Some(&m[..]),
            "{what}: parse(format({m:?}))"
        );
    }
}

/// `games` random games from `start`: every position checked, every game
/// unwound with undo and compared with the snapshots taken on the way.
pub(crate) fn conformance<G: FreshHash>(start: &G, games: u64, max_actions: usize) {
    let name = start.spec();
    for i in 0..games {
        let mut rng = rng_for(0xC0FFEE, i);
        let mut g = start.clone();
        let mut snaps = vec![snapshot(&g)];
        let mut undos = Vec::new();
        let mut played = Vec::new();
        let mut buf = Vec::new();
        while played.len() < max_actions {
            let what = format!("{name} game {i} after {played:?}");
            check_position(&g, &what, played.len() % 7 == 0);
            assert_eq!(
                g.zobrist(),
                g.fresh_zobrist(),
                "{what}: incremental hash vs recomputed"
            );
            buf.clear();
            g.legal_actions(&mut buf);
            if buf.is_empty() {
                break;
            }
            let a = buf[below(&mut rng, buf.len())];
            undos.push(g.apply_action_undoable(a));
            played.push(a);
            snaps.push(snapshot(&g));
        }
        // The same actions on a fresh copy, without undo records.
        let mut replay = start.clone();
        for &a in &played {
            replay.apply_action(a);
        }
        assert_eq!(
            snapshot(&replay),
            snapshot(&g),
            "{name} game {i}: apply vs apply_undoable"
        );
        while let Some(u) = undos.pop() {
            snaps.pop();
            g.undo_action(u);
            played.pop();
            assert_eq!(
                snapshot(&g),
                *snaps.last().unwrap(),
                "{name} game {i}: undo back to {played:?}"
            );
        }
        // The game's own playout loop ends in a true state: over, or cut
        // at its move limit.
        let cap = if i % 2 == 0 {
            1 + i % 7
        } else {
            max_actions as u64
        };
        let (plies, actions) = g
            .play_random(&mut rng, cap, &mut buf, &AtomicBool::new(false))
            .expect("never stopped");
        let what = format!("{name} game {i} after play_random");
        assert!(
            plies <= actions && (g.is_over() || plies == cap),
            "{what}: {plies} moves, {actions} actions"
        );
        check_position(&g, &what, true);
        assert_eq!(
            g.zobrist(),
            g.fresh_zobrist(),
            "{what}: incremental hash vs recomputed"
        );
    }
}

/// A position where the player to move can win at once: play random actions
/// from `start` (generator [`rng_for`]`(seed, 0)`) until the mover has
/// winning actions (ending the game with the mover the sole winner) that make
/// at most `1 / ratio` of the legal actions; with `whole_turns`, only
/// between turns and where every legal action ends the turn. Returns the
/// position, its legal actions and the winning ones, or `None` when the game
/// ends first. The searches' tests check that they find such wins.
pub(crate) fn immediate_win<G: Game>(
    start: &G,
    seed: u64,
    ratio: usize,
    whole_turns: bool,
) -> Option<(G, Vec<Action>, Vec<Action>)> {
    let mut g = start.clone();
    let mut rng = rng_for(seed, 0);
    let mut buf = Vec::new();
    while !g.is_over() {
        let me = g.to_move();
        let mut acts = Vec::new();
        g.legal_actions(&mut acts);
        let after = |a: Action| {
            let mut h = g.clone();
            h.apply_action(a);
            h
        };
        let wins: Vec<Action> = acts
            .iter()
            .copied()
            .filter(|&a| {
                let h = after(a);
                h.is_over() && h.winner_mask() == 1 << (me - 1)
            })
            .collect();
        let shape_ok =
            !whole_turns || (!g.mid_turn() && acts.iter().all(|&a| !after(a).mid_turn()));
        if shape_ok && !wins.is_empty() && wins.len() * ratio <= acts.len() {
            return Some((g, acts, wins));
        }
        let a = g.random_action(&mut rng, &mut buf)?;
        g.apply_action(a);
    }
    None
}
