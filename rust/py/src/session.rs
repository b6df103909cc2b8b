//! A game state as Python sees it: the engine state plus its history (for
//! `undo`, `history` and pickling), shared by every game class.

use hexcore_core::{Action, Game, MoveError};

/// A set-up start: cell values, the player to move, and any further state
/// the game's `from_position` takes (by keyword, only values that differ
/// from their defaults).
pub type Setup = (Vec<i8>, usize, Vec<(&'static str, i64)>);

pub struct Session<G: Game> {
    pub g: G,
    undo: Vec<G::Undo>,
    /// Every action applied since the start, in order.
    actions: Vec<Action>,
    /// Index in `actions` where each completed move starts.
    move_starts: Vec<usize>,
    /// Index in `actions` where the unfinished turn starts.
    turn_start: usize,
    /// The position given to `from_position`, if any.
    pub setup: Option<Setup>,
    buf: Vec<Action>,
}

impl<G: Game> Clone for Session<G>
where
    G::Undo: Clone,
{
    fn clone(&self) -> Self {
        Session {
            g: self.g.clone(),
            undo: self.undo.clone(),
            actions: self.actions.clone(),
            move_starts: self.move_starts.clone(),
            turn_start: self.turn_start,
            setup: self.setup.clone(),
            buf: Vec::new(),
        }
    }
}

impl<G: Game> Session<G> {
    pub fn new(g: G, setup: Option<Setup>) -> Self {
        Session { g, undo: Vec::new(), actions: Vec::new(), move_starts: Vec::new(), turn_start: 0, setup, buf: Vec::new() }
    }

    /// Actions of the turn in progress.
    pub fn pending(&self) -> &[Action] {
        &self.actions[self.turn_start..]
    }

    pub fn all_actions(&self) -> &[Action] {
        &self.actions
    }

    pub fn num_moves(&self) -> usize {
        self.move_starts.len()
    }

    pub fn history(&self) -> Vec<String> {
        let ends = self.move_starts.iter().skip(1).copied().chain(std::iter::once(self.turn_start));
        self.move_starts.iter().zip(ends).map(|(&s, e)| self.g.format_move(&self.actions[s..e])).collect()
    }

    /// Play a whole move given in the game's notation.
    pub fn play(&mut self, text: &str) -> Result<String, MoveError> {
        if !self.pending().is_empty() {
            return Err(MoveError::new(
                "mid_turn",
                format!(
                    "a turn is in progress ({}); finish it with apply_action() or undo() it before play()",
                    self.g.format_move(self.pending())
                ),
            ));
        }
        let acts = self.g.parse_move(text)?;
        let start = self.actions.len();
        for &a in &acts {
            let u = self.g.apply_action_undoable(a);
            self.undo.push(u);
            self.actions.push(a);
        }
        debug_assert!(!self.g.mid_turn());
        self.move_starts.push(start);
        self.turn_start = self.actions.len();
        Ok(self.g.format_move(&acts))
    }

    /// Apply one action after checking it.
    pub fn apply_action(&mut self, action: i64) -> Result<(), MoveError> {
        let n = self.g.num_actions();
        if action < 0 || action as u64 >= n as u64 {
            return Err(MoveError::new("action_out_of_range", format!("action {action} is out of range 0..{n}")));
        }
        let a = action as Action;
        if self.g.is_over() && !self.g.mid_turn() {
            return Err(MoveError::new("game_over", format!("the game is over; action {a} cannot be applied")));
        }
        if !self.g.is_legal_action(a, &mut self.buf) {
            return Err(MoveError::new(
                "illegal_action",
                format!("action {a} ({}) is not legal here", self.g.action_to_string(a)),
            ));
        }
        let u = self.g.apply_action_undoable(a);
        self.undo.push(u);
        self.actions.push(a);
        if !self.g.mid_turn() {
            self.move_starts.push(self.turn_start);
            self.turn_start = self.actions.len();
        }
        Ok(())
    }

    /// Undo the turn in progress if there is one, else the last move;
    /// returns its text.
    pub fn undo(&mut self) -> Option<String> {
        let start = if self.turn_start < self.actions.len() {
            self.turn_start
        } else {
            let s = self.move_starts.pop()?;
            s
        };
        let text = self.g.format_move(&self.actions[start..]);
        while self.actions.len() > start {
            self.actions.pop();
            let u = self.undo.pop().expect("undo record");
            self.g.undo_action(u);
        }
        self.turn_start = start;
        Some(text)
    }
}
