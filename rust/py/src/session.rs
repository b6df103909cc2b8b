//! A game state as Python sees it: the engine state plus its history (for
//! `undo`, `history` and pickling), shared by every game class.
//!
//! The history is a persistent list (each action a node pointing at the one
//! before, shared through `Arc`), so `copy()` costs the same at any length:
//! a copy shares every node and only the state itself is cloned.

use std::sync::Arc;

use hexcore_core::{Action, Game, MoveError};

/// A set-up start: cell values, the player to move, and any further state
/// the game's `from_position` takes (by keyword, only values that differ
/// from their defaults).
pub type Setup = (Vec<i8>, usize, Vec<(&'static str, i64)>);

/// One applied action.
struct Node<U> {
    action: Action,
    /// Taken when the action is undone from an unshared node.
    undo: Option<U>,
    /// True when this action starts a move.
    starts_move: bool,
    prev: Option<Arc<Node<U>>>,
}

impl<U> Drop for Node<U> {
    /// Free a long unshared chain without recursion.
    fn drop(&mut self) {
        let mut cur = self.prev.take();
        while let Some(node) = cur {
            match Arc::try_unwrap(node) {
                Ok(mut n) => cur = n.prev.take(),
                Err(_) => break,
            }
        }
    }
}

pub struct Session<G: Game> {
    pub g: G,
    /// The last action applied (the list runs backwards from here).
    head: Option<Arc<Node<G::Undo>>>,
    /// Number of actions applied since the start.
    len: usize,
    /// Number of completed moves.
    moves: usize,
    /// Index of the first action of the unfinished turn (`len` between turns).
    turn_start: usize,
    /// The position given to `from_position`, if any.
    pub setup: Option<Arc<Setup>>,
}

impl<G: Game> Clone for Session<G> {
    fn clone(&self) -> Self {
        Session {
            g: self.g.clone(),
            head: self.head.clone(),
            len: self.len,
            moves: self.moves,
            turn_start: self.turn_start,
            setup: self.setup.clone(),
        }
    }
}

impl<G: Game> Session<G>
where
    G::Undo: Clone,
{
    pub fn new(g: G, setup: Option<Setup>) -> Self {
        Session { g, head: None, len: 0, moves: 0, turn_start: 0, setup: setup.map(Arc::new) }
    }

    /// The last `k` actions, oldest first.
    fn last_actions(&self, k: usize) -> Vec<Action> {
        let mut out = Vec::with_capacity(k);
        let mut cur = self.head.as_deref();
        while out.len() < k {
            let n = cur.expect("history length");
            out.push(n.action);
            cur = n.prev.as_deref();
        }
        out.reverse();
        out
    }

    /// Actions of the turn in progress.
    pub fn pending(&self) -> Vec<Action> {
        self.last_actions(self.len - self.turn_start)
    }

    pub fn mid_turn(&self) -> bool {
        self.turn_start < self.len
    }

    pub fn all_actions(&self) -> Vec<Action> {
        self.last_actions(self.len)
    }

    pub fn num_moves(&self) -> usize {
        self.moves
    }

    /// Completed moves in order, in the game's notation.
    pub fn history(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.moves);
        let mut cur = self.head.as_deref();
        // Skip the turn in progress.
        for _ in self.turn_start..self.len {
            cur = cur.expect("history length").prev.as_deref();
        }
        let mut mv: Vec<Action> = Vec::new();
        while let Some(n) = cur {
            mv.push(n.action);
            if n.starts_move {
                mv.reverse();
                out.push(self.g.format_move(&mv));
                mv.clear();
            }
            cur = n.prev.as_deref();
        }
        out.reverse();
        out
    }

    fn push(&mut self, action: Action, undo: G::Undo, starts_move: bool) {
        let prev = self.head.take();
        self.head = Some(Arc::new(Node { action, undo: Some(undo), starts_move, prev }));
        self.len += 1;
    }

    /// Play a whole move given in the game's notation.
    pub fn play(&mut self, text: &str) -> Result<String, MoveError> {
        let acts = self.g.check_move(text)?;
        debug_assert!(!self.mid_turn());
        for (i, &a) in acts.iter().enumerate() {
            let u = self.g.apply_action_undoable(a);
            self.push(a, u, i == 0);
        }
        debug_assert!(!self.g.mid_turn());
        self.moves += 1;
        self.turn_start = self.len;
        Ok(self.g.format_move(&acts))
    }

    /// Apply one action after checking it.
    pub fn apply_action(&mut self, action: i64) -> Result<(), MoveError> {
        let a = self.g.check_action(action)?;
        let starts_move = !self.mid_turn();
        let u = self.g.apply_action_undoable(a);
        self.push(a, u, starts_move);
        if !self.g.mid_turn() {
            self.moves += 1;
            self.turn_start = self.len;
        }
        Ok(())
    }

    /// Undo the turn in progress if there is one, else the last move;
    /// returns its text.
    pub fn undo(&mut self) -> Option<String> {
        self.head.as_ref()?;
        let whole_move = !self.mid_turn();
        let mut acts = Vec::new();
        loop {
            let node = self.head.take().expect("history length");
            let (action, starts_move, undo, prev) = match Arc::try_unwrap(node) {
                Ok(mut n) => (n.action, n.starts_move, n.undo.take().expect("undo record"), n.prev.take()),
                Err(shared) => {
                    let u = shared.undo.clone().expect("undo record");
                    (shared.action, shared.starts_move, u, shared.prev.clone())
                }
            };
            self.g.undo_action(undo);
            self.head = prev;
            self.len -= 1;
            acts.push(action);
            if starts_move {
                break;
            }
        }
        acts.reverse();
        if whole_move {
            self.moves -= 1;
        }
        self.turn_start = self.len;
        Some(self.g.format_move(&acts))
    }
}
