//! The trait every game implements.
//!
//! A game state is driven at two granularities that describe one tree:
//!
//! * a **move** is a whole turn in the game's notation;
//! * an **action** is an integer in `0..num_actions()`. A move is a sequence of
//!   one or more actions by the same player. Games with multi-stone turns make
//!   the sequence canonical (placements in increasing cell order), so every move
//!   has exactly one action sequence, and every legal action can be completed
//!   to a legal move. `mid_turn()` tells whether a turn is in progress.
//!
//! `apply_action` / `play_move` trust their input (they are the "unchecked"
//! entry points used by search); `parse_move` validates a move string and says
//! why it is illegal.

use rand::Rng;
use smallvec::SmallVec;
use std::fmt;

use crate::board::Board;
use crate::rng::below;

/// An action id in `0..num_actions()`.
pub type Action = u32;

/// The actions of one move.
pub type MoveActions = SmallVec<[Action; 4]>;

/// A rejected move: a machine-readable `reason` and a readable message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    pub reason: &'static str,
    pub message: String,
}

impl MoveError {
    pub fn new(reason: &'static str, message: impl Into<String>) -> MoveError {
        MoveError { reason, message: message.into() }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MoveError {}

/// Bit `k-1` set for each winning player `k`.
pub type WinnerMask = u8;

/// Players listed in a winner mask.
pub fn winners_of(mask: WinnerMask) -> Vec<usize> {
    (0..8).filter(|k| mask >> k & 1 != 0).map(|k| k + 1).collect()
}

pub trait Game: Clone + Send + Sync + 'static {
    /// What `undo_action` needs to restore the state before an action.
    type Undo: Send;

    /// Game name as used in spec strings, lower case (`"churn"`).
    const NAME: &'static str;

    fn board(&self) -> &Board;
    /// The spec string that rebuilds this game's options (`"churn(size=3)"`).
    fn spec(&self) -> String;
    fn num_players(&self) -> usize;
    fn num_actions(&self) -> usize;
    /// 1-based player to move.
    fn to_move(&self) -> usize;
    fn is_over(&self) -> bool;
    /// Winners of a finished game (several = shared result; all = draw).
    fn winner_mask(&self) -> WinnerMask;
    fn zobrist(&self) -> u64;
    /// Cell contents: 0 empty, k for colour k, negative for neutral pieces.
    fn cell_value(&self, cell: usize) -> i8;
    /// True while a multi-action turn is in progress.
    fn mid_turn(&self) -> bool {
        false
    }

    // ---- action level ----
    fn legal_actions(&self, out: &mut Vec<Action>);
    /// Apply a legal action (unchecked).
    fn apply_action(&mut self, action: Action);
    /// Apply a legal action and return what undoes it.
    fn apply_action_undoable(&mut self, action: Action) -> Self::Undo;
    fn undo_action(&mut self, undo: Self::Undo);
    /// An action's text; like `format_move`, independent of the position.
    fn action_to_string(&self, action: Action) -> String;
    /// Whether `action` is legal now (default: look it up in `legal_actions`).
    fn is_legal_action(&self, action: Action, buf: &mut Vec<Action>) -> bool {
        buf.clear();
        self.legal_actions(buf);
        buf.contains(&action)
    }
    /// True when, in this state, every legal action completes the turn
    /// (lets perft count leaves without making them).
    fn single_action_turns(&self) -> bool {
        false
    }
    /// The number of action sequences that finish the turn in progress
    /// (between turns: the number of legal moves), when the game can count
    /// them without walking them; action-level perft uses it for the last
    /// turn. `None`: walk the actions.
    fn count_turn_completions(&self) -> Option<u128> {
        None
    }
    /// True when `undo_action` is cheaper than copying the state, so tree
    /// walks should make and unmake moves rather than copy positions.
    fn cheap_undo(&self) -> bool {
        false
    }
    /// `count_moves()` of the position after the legal action `action` (a
    /// whole turn), when the game can tell without making it; perft uses it
    /// one level above the leaves. `None`: make the move.
    fn count_moves_after(&self, _action: Action) -> Option<u128> {
        None
    }
    /// A uniformly random legal action (the playout policy); `None` when
    /// there is none.
    fn random_action<R: Rng>(&self, rng: &mut R, buf: &mut Vec<Action>) -> Option<Action> {
        uniform_action(self, rng, buf)
    }

    // ---- move level ----
    /// Every legal move as its action sequence (generated directly, not
    /// through `legal_actions`). Games whose move lists can be astronomically
    /// long return `Err(count)` when there are more than `limit`.
    fn legal_moves(&self, limit: u128, out: &mut Vec<MoveActions>) -> Result<(), u128>;
    /// Exact number of legal moves (saturating at `u128::MAX`).
    fn count_moves(&self) -> u128;
    /// Exact number of legal moves, for games whose counts can exceed
    /// `u128` (default: `count_moves()`).
    fn count_moves_big(&self) -> num_bigint::BigUint {
        self.count_moves().into()
    }
    /// Exact number of legal moves in decimal.
    fn count_moves_decimal(&self) -> String {
        self.count_moves_big().to_string()
    }
    /// Apply a legal move given as its actions (unchecked).
    fn play_move(&mut self, actions: &[Action]) {
        for &a in actions {
            self.apply_action(a);
        }
    }
    /// Parse and validate a move in the game's notation; the result is the
    /// canonical action sequence.
    fn parse_move(&self, text: &str) -> Result<MoveActions, MoveError>;
    /// The move's text. Must depend only on the actions and the board (not on
    /// the position), so histories can be formatted after the fact.
    fn format_move(&self, actions: &[Action]) -> String;

    // ---- views ----
    /// Observation planes (C, H, W) on the board's axial grid.
    fn observation_shape(&self) -> [usize; 3];
    fn observation(&self, out: &mut [f32]);
    /// A text diagram.
    fn diagram(&self) -> String;
}

/// A uniformly random legal action of `g` drawn from its full list (`None`
/// when there is none): the default playout policy, and the fallback of
/// games whose own sampler gives up.
pub fn uniform_action<G: Game + ?Sized, R: Rng>(g: &G, rng: &mut R, buf: &mut Vec<Action>) -> Option<Action> {
    buf.clear();
    g.legal_actions(buf);
    if buf.is_empty() {
        None
    } else {
        Some(buf[below(rng, buf.len())])
    }
}
