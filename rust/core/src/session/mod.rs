//! A game with its history: the state, every action applied since the start
//! (with the record that undoes it and where each move begins) and the set-up
//! position it started from, if any. Every game object of the bindings is a
//! [`Session`], and so is every env of a [`Batch`] when it is looked at: the
//! session its episode started from, extended by the actions of the episode.
//!
//! The history is a persistent list (each action a node pointing at the one
//! before, shared through `Arc`), so a clone costs the same at any length:
//! it shares every node and only the state itself is cloned.

use std::sync::Arc;

use crate::{Action, Game, MoveError, Reason};

mod batch;
pub use batch::Batch;

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

/// A game and its history.
pub struct Session<G: Game> {
    /// The current state.
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
        Session {
            g,
            head: None,
            len: 0,
            moves: 0,
            turn_start: 0,
            setup: setup.map(Arc::new),
        }
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
        self.head = Some(Arc::new(Node {
            action,
            undo: Some(undo),
            starts_move,
            prev,
        }));
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
                Ok(mut n) => (
                    n.action,
                    n.starts_move,
                    n.undo.take().expect("undo record"),
                    n.prev.take(),
                ),
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

    /// This session with `actions` applied after it, each checked as
    /// [`apply_action`](Self::apply_action) checks it; the first that is
    /// refused is the error (and `self` is unchanged either way).
    pub fn extended(&self, actions: &[Action]) -> Result<Session<G>, MoveError> {
        let mut s = self.clone();
        for &a in actions {
            s.apply_action(a as i64)?;
        }
        Ok(s)
    }

    /// Why `action`, which this position does not allow, is illegal, in the
    /// words and with the reason of the whole move it would start (between
    /// turns), or naming the turn in progress.
    pub fn illegal_action_error(&self, action: Action) -> MoveError {
        let name = self.g.action_to_string(action);
        let mut why = "it is not legal in this position".to_string();
        let mut reason = Reason::IllegalAction;
        if !self.mid_turn() {
            if let Err(e) = self.g.check_move(&name) {
                (why, reason) = (e.message, e.reason);
            }
        } else {
            let pending: Vec<String> = self
                .pending()
                .into_iter()
                .map(|a| self.g.action_to_string(a))
                .collect();
            why = format!("a turn is in progress ({}); {why}", pending.join(", "));
        }
        MoveError::new(
            reason,
            format!("action {action} ({name}) is illegal: {why}"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Churn, Wunchunk, WunchunkBalance, WunchunkStart};

    fn churn() -> Session<Churn> {
        Session::new(
            Churn::new(Arc::new(crate::Board::hexhex(3).unwrap()), false),
            None,
        )
    }

    #[test]
    fn play_undo_and_history() {
        let mut s = churn();
        assert_eq!(s.play("c3").unwrap(), "c3");
        s.apply_action(0).unwrap();
        assert_eq!(s.history(), vec!["c3".to_string(), s.g.action_to_string(0)]);
        assert_eq!(s.num_moves(), 2);
        let copy = s.clone();
        assert_eq!(s.undo().as_deref(), Some(s.g.action_to_string(0).as_str()));
        assert_eq!(s.all_actions().len(), 1);
        // The copy shares the undone node and keeps it.
        assert_eq!(copy.all_actions().len(), 2);
        assert!(s.play("c3").is_err());
        assert_eq!(s.all_actions().len(), 1, "a refused move changes nothing");
    }

    #[test]
    fn extended_checks_each_action_and_leaves_self_alone() {
        let s = churn();
        let c3 = s.g.parse_move("c3").unwrap()[0];
        let t = s.extended(&[c3, 0]).unwrap();
        assert_eq!(t.all_actions(), vec![c3, 0]);
        assert!(s.all_actions().is_empty());
        let e = t.extended(&[1, c3]).err().expect("c3 is occupied");
        assert_eq!(e.reason, Reason::IllegalAction);
        assert_eq!(t.all_actions(), vec![c3, 0]);
    }

    #[test]
    fn illegal_action_error_says_why() {
        let s = churn();
        let c3 = s.g.parse_move("c3").unwrap()[0];
        let s = s.extended(&[c3]).unwrap();
        let e = s.illegal_action_error(c3);
        assert_eq!(e.reason, Reason::Occupied);
        assert!(
            e.message
                .starts_with(&format!("action {c3} (c3) is illegal: ")),
            "{}",
            e.message
        );
        // In the middle of a turn: the turn in progress is named.
        let w = Wunchunk::new(6, 2, WunchunkStart::Standard, WunchunkBalance::Ap).unwrap();
        let mut s = Session::new(w, None);
        let mut legal = Vec::new();
        loop {
            legal.clear();
            s.g.legal_actions(&mut legal);
            let a = legal[0];
            s.apply_action(a as i64).unwrap();
            if s.mid_turn() {
                break;
            }
        }
        let pending = s.pending();
        let e = s.illegal_action_error(pending[0]);
        assert_eq!(e.reason, Reason::IllegalAction);
        assert!(
            e.message.contains("a turn is in progress (")
                && e.message.contains(&s.g.action_to_string(pending[0])),
            "{}",
            e.message
        );
    }
}
