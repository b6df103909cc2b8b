//! Perft: the number of move sequences of exactly `depth` moves.
//!
//! `perft(g, 0) == 1`; a finished game has no continuations, so a line that
//! ends before `depth` moves counts 0. Counting can be done at move level
//! (enumerating whole turns, with the last level counted by `count_moves`)
//! or at action level (enumerating actions, a turn being complete when
//! `mid_turn()` turns false); both must give the same numbers. Move level
//! also counts the last two plies of single-action games without making the
//! moves where the game can (`count_moves_after`), and makes and unmakes
//! moves on one state where undo is cheaper than a copy (`cheap_undo`);
//! action level always copies and walks every action, so the two stay
//! independent checks of each other.

use rayon::prelude::*;

use crate::game::{Action, Game, MoveActions};

/// Granularity of the tree walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Move,
    Action,
}

/// Move-level perft (bulk-counts the last level with `count_moves`).
pub fn perft_moves<G: Game>(g: &G, depth: u32) -> u128 {
    if g.cheap_undo() && depth > 2 {
        let mut g = g.clone();
        return perft_moves_undo(&mut g, depth, &mut Scratch::default());
    }
    perft_moves_in(g, depth, &mut Scratch::default())
}

/// `perft_moves_in` by making and unmaking moves on one state (for games
/// whose undo is cheaper than a copy).
fn perft_moves_undo<G: Game>(g: &mut G, depth: u32, scratch: &mut Scratch<G>) -> u128 {
    if depth <= 2 || g.is_over() {
        return perft_moves_in(g, depth, scratch);
    }
    let moves = scratch.legal_moves(g);
    let mut total = 0;
    let mut undos: smallvec::SmallVec<[G::Undo; 4]> = smallvec::SmallVec::new();
    for m in &moves {
        undos.extend(m.iter().map(|&a| g.apply_action_undoable(a)));
        total += perft_moves_undo(g, depth - 1, scratch);
        while let Some(u) = undos.pop() {
            g.undo_action(u);
        }
    }
    scratch.moves.push(moves);
    total
}

/// Buffers a walk reuses from level to level: child states (refilled with
/// `clone_from`), move lists and action lists. The walk allocates only while
/// it first goes down.
struct Scratch<G> {
    states: Vec<G>,
    moves: Vec<Vec<MoveActions>>,
    actions: Vec<Vec<Action>>,
}

impl<G> Default for Scratch<G> {
    fn default() -> Self {
        Scratch { states: Vec::new(), moves: Vec::new(), actions: Vec::new() }
    }
}

impl<G: Game> Scratch<G> {
    /// All legal moves of `g` in a reused list (give it back to `moves`).
    fn legal_moves(&mut self, g: &G) -> Vec<MoveActions> {
        let mut moves = self.moves.pop().unwrap_or_default();
        moves.clear();
        if g.legal_moves(u128::MAX, &mut moves).is_err() {
            unreachable!("unbounded move generation failed");
        }
        moves
    }
}

fn perft_moves_in<G: Game>(g: &G, depth: u32, scratch: &mut Scratch<G>) -> u128 {
    if depth == 0 {
        return 1;
    }
    if g.is_over() {
        return 0;
    }
    if depth == 1 {
        return g.count_moves();
    }
    if depth == 2 && g.single_action_turns() {
        let mut actions = scratch.actions.pop().unwrap_or_default();
        let n = count_two_plies(g, &mut actions);
        scratch.actions.push(actions);
        if let Some(n) = n {
            return n;
        }
    }
    let moves = scratch.legal_moves(g);
    let mut child = scratch.states.pop().unwrap_or_else(|| g.clone());
    let mut total = 0;
    for m in &moves {
        child.clone_from(g);
        child.play_move(m);
        total += perft_moves_in(&child, depth - 1, scratch);
    }
    scratch.states.push(child);
    scratch.moves.push(moves);
    total
}

/// Perft 2 of a position whose moves are single actions, counting the
/// replies of each move with `count_moves_after` (no child states); `None`
/// when the game cannot count some move that way.
fn count_two_plies<G: Game>(g: &G, actions: &mut Vec<Action>) -> Option<u128> {
    actions.clear();
    g.legal_actions(actions);
    let mut total = 0;
    for &a in actions.iter() {
        total += g.count_moves_after(a)?;
    }
    Some(total)
}

/// Action-level perft: `depth` counts complete turns.
pub fn perft_actions<G: Game>(g: &G, depth: u32) -> u128 {
    perft_actions_in(g, depth, &mut Vec::new())
}

fn perft_actions_in<G: Game>(g: &G, depth: u32, scratch: &mut Vec<G>) -> u128 {
    if !g.mid_turn() {
        if depth == 0 {
            return 1;
        }
        if g.is_over() {
            return 0;
        }
        if depth == 1 && g.single_action_turns() {
            let mut v = Vec::new();
            g.legal_actions(&mut v);
            return v.len() as u128;
        }
    }
    if depth == 1 {
        if let Some(n) = g.count_turn_completions() {
            return n;
        }
    }
    let mut actions = Vec::new();
    g.legal_actions(&mut actions);
    let mut child = scratch.pop().unwrap_or_else(|| g.clone());
    let mut total = 0;
    for &a in &actions {
        child.clone_from(g);
        child.apply_action(a);
        let d = if child.mid_turn() { depth } else { depth - 1 };
        total += perft_actions_in(&child, d, scratch);
    }
    scratch.push(child);
    total
}

/// The first steps of a perft split: whole moves (move level) or single
/// actions (action level), each with the subtree count.
pub fn divide<G: Game>(g: &G, depth: u32, unit: Unit, threads: usize) -> Vec<(String, u128)> {
    if depth == 0 || (g.is_over() && !g.mid_turn()) {
        return Vec::new();
    }
    let children: Vec<(String, G, u32)> = match unit {
        Unit::Move => {
            let mut moves: Vec<MoveActions> = Vec::new();
            let _ = g.legal_moves(u128::MAX, &mut moves);
            moves
                .iter()
                .map(|m| {
                    let mut c = g.clone();
                    c.play_move(m);
                    (g.format_move(m), c, depth - 1)
                })
                .collect()
        }
        Unit::Action => {
            let mut acts: Vec<Action> = Vec::new();
            g.legal_actions(&mut acts);
            acts.iter()
                .map(|&a| {
                    let mut c = g.clone();
                    c.apply_action(a);
                    let d = if c.mid_turn() { depth } else { depth - 1 };
                    (g.action_to_string(a), c, d)
                })
                .collect()
        }
    };
    let count = |(name, c, d): &(String, G, u32)| -> (String, u128) {
        let n = match unit {
            Unit::Move => perft_moves(c, *d),
            Unit::Action => perft_actions(c, *d),
        };
        (name.clone(), n)
    };
    if threads <= 1 {
        children.iter().map(count).collect()
    } else {
        pool(threads).install(|| children.par_iter().map(count).collect())
    }
}

/// Perft with the root split across up to `threads` worker threads. Trees
/// of depth 2 or less are counted on the calling thread: their subtrees are
/// too small to pay for the split.
pub fn perft<G: Game>(g: &G, depth: u32, unit: Unit, threads: usize) -> u128 {
    if threads <= 1 || depth < 3 {
        return match unit {
            Unit::Move => perft_moves(g, depth),
            Unit::Action => perft_actions(g, depth),
        };
    }
    if g.is_over() && !g.mid_turn() {
        return 0;
    }
    if unit == Unit::Move && depth >= 4 {
        // Split two levels down: many more, smaller tasks balance the threads
        // (at depth 3 those tasks would be single bulk counts).
        let mut moves: Vec<MoveActions> = Vec::new();
        let _ = g.legal_moves(u128::MAX, &mut moves);
        let mut tasks: Vec<G> = Vec::new();
        for m in &moves {
            let mut c = g.clone();
            c.play_move(m);
            if c.is_over() {
                continue;
            }
            let mut replies: Vec<MoveActions> = Vec::new();
            let _ = c.legal_moves(u128::MAX, &mut replies);
            for r in &replies {
                let mut cc = c.clone();
                cc.play_move(r);
                tasks.push(cc);
            }
        }
        return pool(threads).install(|| tasks.par_iter().map(|t| perft_moves(t, depth - 2)).sum());
    }
    divide(g, depth, unit, threads).iter().map(|x| x.1).sum()
}

/// A rayon pool with exactly `threads` workers, built once per size and kept.
pub fn pool(threads: usize) -> std::sync::Arc<rayon::ThreadPool> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let threads = threads.max(1);
    let mut pools = POOLS.get_or_init(|| Mutex::new(HashMap::new())).lock().unwrap_or_else(|e| e.into_inner());
    pools
        .entry(threads)
        .or_insert_with(|| Arc::new(rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool")))
        .clone()
}
