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
//!
//! Bounds, so that no input can crash the process:
//!
//! * **Depth.** The walks recurse once per *move* (the actions inside one
//!   turn are walked with an explicit stack), so their recursion depth is at
//!   most `depth`, which must not exceed [`MAX_DEPTH`]. Walks deeper than
//!   [`INLINE_DEPTH`] run single-threaded on a thread of their own whose
//!   stack is sized for the depth.
//! * **Move lists.** A position with more than [`MOVE_LIST_LIMIT`] legal
//!   moves is never listed: move level walks that turn action by action
//!   instead (the counts are the same by design), and a move-level divide of
//!   it is [`RunError::TooManyMoves`].
//! * **Cancellation.** The `try_` functions take a stop flag, read every few
//!   thousand nodes; raising it ends the walk with [`RunError::Cancelled`].
//!
//! The plain functions ([`perft`], [`divide`], ...) are the `try_` ones with
//! a flag that is never raised, the thread count clamped to
//! `1..=MAX_THREADS` and a failed thread pool replaced by the calling thread.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::game::{Action, Game, MoveActions};
use crate::parallel::{clamp_threads, install, RunError};

pub use crate::limits::MAX_DEPTH;

/// Walks up to this depth run on the calling thread (and may be split
/// across worker threads); deeper ones get a thread with a stack of their own.
pub const INLINE_DEPTH: u32 = 256;

/// Positions with more legal moves than this are walked turn by turn at
/// action level rather than listed.
pub const MOVE_LIST_LIMIT: u128 = 1_000_000;

/// Stack reserved per level of a deep walk (a level's frames take well
/// under half of this in release builds) and on top of all levels.
const STACK_PER_LEVEL: usize = 2048;
const STACK_BASE: usize = 4 << 20;

/// Nodes between two reads of the stop flag.
const CHECK_EVERY: u32 = 4096;

crate::choice! {
    /// Granularity of the tree walk.
    pub enum Unit("unit") {
        Move = "move",
        Action = "action",
    }
}

/// The stop flag of the plain (infallible) entry points.
static NEVER: AtomicBool = AtomicBool::new(false);

type Walk<T> = Result<T, RunError>;

/// What one walk carries from node to node: the stop flag and buffers it
/// reuses from level to level (child states refilled with `clone_from`,
/// move lists, action lists). The walk allocates only while it first goes
/// down.
struct Ctx<'a, G> {
    stop: &'a AtomicBool,
    nodes: u32,
    states: Vec<G>,
    moves: Vec<Vec<MoveActions>>,
    actions: Vec<Vec<Action>>,
}

impl<'a, G: Game> Ctx<'a, G> {
    fn new(stop: &'a AtomicBool) -> Self {
        Ctx {
            stop,
            nodes: 0,
            states: Vec::new(),
            moves: Vec::new(),
            actions: Vec::new(),
        }
    }

    /// Count an interior node; every `CHECK_EVERY` nodes, read the flag.
    #[inline]
    fn tick(&mut self) -> Walk<()> {
        self.nodes += 1;
        if self.nodes >= CHECK_EVERY {
            self.nodes = 0;
            if self.stop.load(Ordering::Relaxed) {
                return Err(RunError::Cancelled);
            }
        }
        Ok(())
    }

    /// The legal moves of `g` in a reused list (give it back to `moves`);
    /// `None` when there are more than `MOVE_LIST_LIMIT`.
    fn legal_moves(&mut self, g: &G) -> Option<Vec<MoveActions>> {
        let mut moves = self.moves.pop().unwrap_or_default();
        moves.clear();
        if g.legal_moves(MOVE_LIST_LIMIT, &mut moves).is_err() {
            self.moves.push(moves);
            return None;
        }
        Some(moves)
    }

    fn legal_actions(&mut self, g: &G) -> Vec<Action> {
        let mut v = self.actions.pop().unwrap_or_default();
        v.clear();
        g.legal_actions(&mut v);
        v
    }

    fn child(&mut self, g: &G) -> G {
        match self.states.pop() {
            Some(mut c) => {
                c.clone_from(g);
                c
            }
            None => g.clone(),
        }
    }
}

/// Walk the rest of the turn of `g` action by action, with an explicit
/// stack, calling `at_end` on every state that completes the turn. With
/// `completions` set, a state in the middle of the turn whose completions
/// the game can count (`count_turn_completions`) adds that count instead of
/// being walked.
fn walk_turn<G: Game>(
    g: &G,
    ctx: &mut Ctx<'_, G>,
    completions: bool,
    at_end: &mut dyn FnMut(&G, &mut Ctx<'_, G>) -> Walk<u128>,
) -> Walk<u128> {
    let mut total = 0;
    let first = ctx.legal_actions(g);
    let mut stack: Vec<(G, Vec<Action>, usize)> = vec![(ctx.child(g), first, 0)];
    while let Some(top) = stack.last_mut() {
        let Some(&a) = top.1.get(top.2) else {
            let (s, acts, _) = stack.pop().expect("non-empty");
            ctx.states.push(s);
            ctx.actions.push(acts);
            continue;
        };
        top.2 += 1;
        ctx.tick()?;
        let mut c = ctx.child(&top.0);
        c.apply_action(a);
        if !c.mid_turn() {
            total += at_end(&c, ctx)?;
            ctx.states.push(c);
            continue;
        }
        if completions {
            if let Some(n) = c.count_turn_completions() {
                total += n;
                ctx.states.push(c);
                continue;
            }
        }
        let acts = ctx.legal_actions(&c);
        stack.push((c, acts, 0));
    }
    Ok(total)
}

/// Move-level perft (bulk-counts the last level with `count_moves`).
pub fn perft_moves<G: Game>(g: &G, depth: u32) -> u128 {
    must(try_perft(g, depth, Unit::Move, 1, &NEVER))
}

/// Action-level perft: `depth` counts complete turns.
pub fn perft_actions<G: Game>(g: &G, depth: u32) -> u128 {
    must(try_perft(g, depth, Unit::Action, 1, &NEVER))
}

/// Move level from a position between turns or in the middle of one (then
/// the rest of that turn is the first of the `depth` moves).
fn moves_from<G: Game>(g: &G, depth: u32, ctx: &mut Ctx<'_, G>) -> Walk<u128> {
    if g.mid_turn() && depth > 0 {
        return walk_turn(g, ctx, false, &mut |c, ctx| moves_top(c, depth - 1, ctx));
    }
    moves_top(g, depth, ctx)
}

fn moves_top<G: Game>(g: &G, depth: u32, ctx: &mut Ctx<'_, G>) -> Walk<u128> {
    if g.cheap_undo() && depth > 2 {
        let mut g = g.clone();
        return moves_undo(&mut g, depth, ctx);
    }
    moves_in(g, depth, ctx)
}

/// `moves_in` by making and unmaking moves on one state (for games whose
/// undo is cheaper than a copy).
fn moves_undo<G: Game>(g: &mut G, depth: u32, ctx: &mut Ctx<'_, G>) -> Walk<u128> {
    if depth <= 2 || g.is_over() {
        return moves_in(g, depth, ctx);
    }
    ctx.tick()?;
    let Some(moves) = ctx.legal_moves(g) else {
        return by_actions(g, depth, ctx);
    };
    let mut total = 0;
    let mut undos: smallvec::SmallVec<[G::Undo; 4]> = smallvec::SmallVec::new();
    for m in &moves {
        undos.extend(m.iter().map(|&a| g.apply_action_undoable(a)));
        let n = moves_undo(g, depth - 1, ctx);
        while let Some(u) = undos.pop() {
            g.undo_action(u);
        }
        total += n?;
    }
    ctx.moves.push(moves);
    Ok(total)
}

fn moves_in<G: Game>(g: &G, depth: u32, ctx: &mut Ctx<'_, G>) -> Walk<u128> {
    if depth == 0 {
        return Ok(1);
    }
    if g.is_over() {
        return Ok(0);
    }
    if depth == 1 {
        return Ok(g.count_moves());
    }
    ctx.tick()?;
    if depth == 2 && g.single_action_turns() {
        let mut actions = ctx.actions.pop().unwrap_or_default();
        let n = count_two_plies(g, &mut actions);
        ctx.actions.push(actions);
        if let Some(n) = n {
            return Ok(n);
        }
    }
    let Some(moves) = ctx.legal_moves(g) else {
        return by_actions(g, depth, ctx);
    };
    let mut child = ctx.child(g);
    let mut total = 0;
    for m in &moves {
        child.clone_from(g);
        child.play_move(m);
        total += moves_in(&child, depth - 1, ctx)?;
    }
    ctx.states.push(child);
    ctx.moves.push(moves);
    Ok(total)
}

/// A turn with too many moves to list, walked action by action; the
/// positions after it continue at move level.
fn by_actions<G: Game>(g: &G, depth: u32, ctx: &mut Ctx<'_, G>) -> Walk<u128> {
    walk_turn(g, ctx, false, &mut |c, ctx| moves_top(c, depth - 1, ctx))
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

/// Action level from a position between turns or in the middle of one.
fn actions_in<G: Game>(g: &G, depth: u32, ctx: &mut Ctx<'_, G>) -> Walk<u128> {
    if !g.mid_turn() {
        if depth == 0 {
            return Ok(1);
        }
        if g.is_over() {
            return Ok(0);
        }
        if depth == 1 && g.single_action_turns() {
            let v = ctx.legal_actions(g);
            let n = v.len() as u128;
            ctx.actions.push(v);
            return Ok(n);
        }
    }
    if depth == 1 {
        if let Some(n) = g.count_turn_completions() {
            return Ok(n);
        }
    }
    walk_turn(g, ctx, depth == 1, &mut |c, ctx| {
        actions_in(c, depth - 1, ctx)
    })
}

fn walk<G: Game>(g: &G, depth: u32, unit: Unit, stop: &AtomicBool) -> Walk<u128> {
    let mut ctx = Ctx::new(stop);
    match unit {
        Unit::Move => moves_from(g, depth, &mut ctx),
        Unit::Action => actions_in(g, depth, &mut ctx),
    }
}

/// Run `f` where a walk of `depth` cannot overflow the stack: on this thread
/// for shallow walks, else on a thread with a stack sized for `depth`.
fn with_stack<T: Send>(depth: u32, f: impl FnOnce() -> Walk<T> + Send) -> Walk<T> {
    if depth <= INLINE_DEPTH {
        return f();
    }
    let size = STACK_BASE + depth as usize * STACK_PER_LEVEL;
    std::thread::scope(|s| {
        let h = std::thread::Builder::new()
            .name("hexcore-perft".into())
            .stack_size(size)
            .spawn_scoped(s, f)
            .map_err(|e| RunError::Threads {
                threads: 1,
                detail: e.to_string(),
            })?;
        h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

fn check_args(depth: u32, threads: usize) -> Walk<()> {
    if depth > MAX_DEPTH {
        return Err(RunError::TooDeep {
            depth,
            max: MAX_DEPTH,
        });
    }
    crate::limits::threads(Some(threads)).map_err(RunError::Invalid)?;
    Ok(())
}

/// The first steps of a perft split: whole moves (move level) or single
/// actions (action level), each with the subtree count. A move-level divide
/// of a position with more than [`MOVE_LIST_LIMIT`] moves is
/// `Err(TooManyMoves)`.
pub fn try_divide<G: Game>(
    g: &G,
    depth: u32,
    unit: Unit,
    threads: usize,
    stop: &AtomicBool,
) -> Walk<Vec<(String, u128)>> {
    check_args(depth, threads)?;
    if depth == 0 || (g.is_over() && !g.mid_turn()) {
        return Ok(Vec::new());
    }
    // The first steps only; each child position is made when its subtree is
    // counted, so at most one per thread exists at a time.
    let children: Vec<MoveActions> = match unit {
        Unit::Move => {
            let mut moves: Vec<MoveActions> = Vec::new();
            if let Err(count) = g.legal_moves(MOVE_LIST_LIMIT, &mut moves) {
                return Err(RunError::TooManyMoves { count });
            }
            moves
        }
        Unit::Action => {
            let mut acts: Vec<Action> = Vec::new();
            g.legal_actions(&mut acts);
            acts.iter()
                .map(|&a| MoveActions::from_slice(&[a]))
                .collect()
        }
    };
    let count = |step: &MoveActions| -> Walk<(String, u128)> {
        if stop.load(Ordering::Relaxed) {
            return Err(RunError::Cancelled);
        }
        let mut c = g.clone();
        let (name, d) = match unit {
            Unit::Move => {
                c.play_move(step);
                (g.format_move(step), depth - 1)
            }
            Unit::Action => {
                c.apply_action(step[0]);
                (
                    g.action_to_string(step[0]),
                    if c.mid_turn() { depth } else { depth - 1 },
                )
            }
        };
        Ok((name, walk(&c, d, unit, stop)?))
    };
    if threads <= 1 || depth > INLINE_DEPTH {
        with_stack(depth, || children.iter().map(count).collect())
    } else {
        install(threads, || children.par_iter().map(count).collect())?
    }
}

/// Perft with the root split across up to `threads` worker threads, stopped
/// by `stop`. Trees of depth 2 or less, and walks deeper than
/// [`INLINE_DEPTH`], are counted on one thread.
pub fn try_perft<G: Game>(
    g: &G,
    depth: u32,
    unit: Unit,
    threads: usize,
    stop: &AtomicBool,
) -> Walk<u128> {
    check_args(depth, threads)?;
    if threads <= 1 || !(3..=INLINE_DEPTH).contains(&depth) {
        return with_stack(depth, || walk(g, depth, unit, stop));
    }
    if g.is_over() && !g.mid_turn() {
        return Ok(0);
    }
    if unit == Unit::Move && depth >= 4 && !g.mid_turn() {
        // Split two levels down: many more, smaller tasks balance the threads
        // (at depth 3 those tasks would be single bulk counts).
        if let Some(tasks) = two_level_tasks(g) {
            return install(threads, || {
                tasks
                    .par_iter()
                    .map(|t| {
                        if stop.load(Ordering::Relaxed) {
                            return Err(RunError::Cancelled);
                        }
                        walk(t, depth - 2, Unit::Move, stop)
                    })
                    .try_reduce(|| 0, |a, b| Ok(a + b))
            })?;
        }
    }
    if unit == Unit::Move && g.mid_turn() {
        return with_stack(depth, || walk(g, depth, unit, stop));
    }
    match try_divide(g, depth, unit, threads, stop) {
        Ok(v) => Ok(v.iter().map(|x| x.1).sum()),
        // Too many first moves to split by: split by first actions instead.
        Err(RunError::TooManyMoves { .. }) => split_by_actions(g, depth, threads, stop),
        Err(e) => Err(e),
    }
}

/// Most positions [`two_level_tasks`] makes; a wider split is not needed to
/// balance the threads, and would hold too many positions at once.
const TWO_LEVEL_LIMIT: usize = 1 << 16;

/// The positions two whole moves below `g`, or `None` if some position on
/// the way has too many moves to list or there are more than
/// [`TWO_LEVEL_LIMIT`] of them.
fn two_level_tasks<G: Game>(g: &G) -> Option<Vec<G>> {
    let mut moves: Vec<MoveActions> = Vec::new();
    g.legal_moves(MOVE_LIST_LIMIT, &mut moves).ok()?;
    let mut tasks: Vec<G> = Vec::new();
    let mut replies: Vec<MoveActions> = Vec::new();
    for m in &moves {
        let mut c = g.clone();
        c.play_move(m);
        if c.is_over() {
            continue;
        }
        replies.clear();
        c.legal_moves(MOVE_LIST_LIMIT, &mut replies).ok()?;
        if tasks.len() + replies.len() > TWO_LEVEL_LIMIT {
            return None;
        }
        for r in &replies {
            let mut cc = c.clone();
            cc.play_move(r);
            tasks.push(cc);
        }
    }
    Some(tasks)
}

/// Move-level perft of a position with too many moves to list, split across
/// threads by its first actions.
fn split_by_actions<G: Game>(g: &G, depth: u32, threads: usize, stop: &AtomicBool) -> Walk<u128> {
    let mut acts: Vec<Action> = Vec::new();
    g.legal_actions(&mut acts);
    install(threads, || {
        acts.par_iter()
            .map(|&a| {
                if stop.load(Ordering::Relaxed) {
                    return Err(RunError::Cancelled);
                }
                let mut c = g.clone();
                c.apply_action(a);
                let d = if c.mid_turn() { depth } else { depth - 1 };
                walk(&c, d, Unit::Move, stop)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))
    })?
}

/// `try_perft` that cannot be stopped; `threads` is clamped to
/// `1..=MAX_THREADS`, and if the worker threads cannot be started the count
/// is made on the calling thread.
///
/// # Panics
/// If `depth > MAX_DEPTH` (use [`try_perft`] to get an error instead).
pub fn perft<G: Game>(g: &G, depth: u32, unit: Unit, threads: usize) -> u128 {
    let threads = clamp_threads(threads);
    match try_perft(g, depth, unit, threads, &NEVER) {
        Err(RunError::Threads { .. }) if threads > 1 => must(try_perft(g, depth, unit, 1, &NEVER)),
        r => must(r),
    }
}

/// `try_divide` that cannot be stopped; `threads` as for [`perft`].
///
/// # Panics
/// If `depth > MAX_DEPTH`, or at move level when the position has more than
/// [`MOVE_LIST_LIMIT`] moves (use [`try_divide`] to get an error instead).
pub fn divide<G: Game>(g: &G, depth: u32, unit: Unit, threads: usize) -> Vec<(String, u128)> {
    let threads = clamp_threads(threads);
    match try_divide(g, depth, unit, threads, &NEVER) {
        Err(RunError::Threads { .. }) if threads > 1 => must(try_divide(g, depth, unit, 1, &NEVER)),
        r => must(r),
    }
}

fn must<T>(r: Walk<T>) -> T {
    r.unwrap_or_else(|e| panic!("perft: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Churn};
    use std::sync::Arc;

    /// A wide position is not split two levels down (that would hold
    /// hundreds of thousands of positions); a narrow one is, completely.
    #[test]
    fn two_level_split_is_bounded() {
        let wide = Churn::new(Arc::new(Board::hexhex(14).unwrap()), false);
        assert!(wide.count_moves() * wide.count_moves() > TWO_LEVEL_LIMIT as u128);
        assert!(two_level_tasks(&wide).is_none());
        let narrow = Churn::new(Arc::new(Board::hexhex(3).unwrap()), false);
        let tasks = two_level_tasks(&narrow).unwrap();
        assert_eq!(tasks.len() as u128, perft(&narrow, 2, Unit::Move, 1));
    }
}
