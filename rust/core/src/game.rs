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
use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::Board;
use crate::facts::Facts;
use crate::rng::below;
use crate::spec::Configure;
pub use crate::spec::OptionsError;

/// An action id in `0..num_actions()`.
pub type Action = u32;

/// The actions of one move.
pub type MoveActions = SmallVec<[Action; 4]>;

/// How a rejected move is classified: text that names no possible move of
/// this game, a move the rules forbid here, or any move after the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    Notation,
    Illegal,
    GameOver,
}

macro_rules! reasons {
    ($($(#[$doc:meta])* $variant:ident = $code:literal, $kind:ident;)*) => {
        /// Why a move or action was rejected. `code()` is the stable
        /// machine-readable name (Python's `IllegalMoveError.reason`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Reason {
            $($(#[$doc])* $variant,)*
        }

        impl Reason {
            /// Every reason, in declaration order.
            pub const ALL: &'static [Reason] = &[$(Reason::$variant,)*];

            pub fn code(self) -> &'static str {
                match self {
                    $(Reason::$variant => $code,)*
                }
            }

            pub fn kind(self) -> ErrorKind {
                match self {
                    $(Reason::$variant => ErrorKind::$kind,)*
                }
            }
        }
    };
}

reasons! {
    /// The text is not a move in the game's notation.
    Syntax = "syntax", Notation;
    /// A cell label that is not on this board.
    UnknownCell = "unknown_cell", Notation;
    /// A colour that does not exist in this game (Wunchunk `3e1` with two
    /// players, Quintun `Fi1`).
    BadColour = "bad_colour", Notation;
    /// Any move or action after the end.
    GameOver = "game_over", GameOver;
    /// An action id outside `0..num_actions()`.
    ActionOutOfRange = "action_out_of_range", Illegal;
    /// An in-range action id that is not legal now.
    IllegalAction = "illegal_action", Illegal;
    /// A whole move asked for while a multi-action turn is in progress.
    MidTurn = "mid_turn", Illegal;
    Occupied = "occupied", Illegal;
    SwapNotAllowed = "swap_not_allowed", Illegal;
    /// Churn: a stone that must join an isolated group elsewhere.
    Isolation = "isolation", Illegal;
    /// Churn: a stone that does not grow a smallest group.
    SmallestGroup = "smallest_group", Illegal;
    /// Wunchunk: more stones than the allotment.
    TooManyStones = "too_many_stones", Illegal;
    /// Wunchunk: more stones than empty cells.
    MoreThanEmpty = "more_than_empty", Illegal;
    /// Wunchunk: one cell twice in a move.
    DuplicateCell = "duplicate_cell", Illegal;
    /// Wunchunk: the open setup's two-and-two adjacent stones.
    OpenSetup = "open_setup", Illegal;
    /// Wunchunk: the choice after the open setup.
    OpenChoice = "open_choice", Illegal;
    /// Wunchunk: the balance rule.
    Balance = "balance", Illegal;
    /// Quintun: both EXTEND stones on one cell.
    ExtendSameCell = "extend_same_cell", Illegal;
    /// Quintun: a player stone on a ring cell.
    StoneOnRing = "stone_on_ring", Illegal;
    /// Quintun: a NEW neutral of a colour that is not the next one.
    WrongNewColour = "wrong_new_colour", Illegal;
    /// Quintun: a NEW neutral off the sides the `side` placement allows.
    PlacementSide = "placement_side", Illegal;
    /// Quintun: a NEW neutral without the gaps the `gap` placement needs.
    PlacementGap = "placement_gap", Illegal;
    /// Quintun: EXTEND of a colour not on the board.
    ExtendAbsentColour = "extend_absent_colour", Illegal;
    /// Quintun: EXTEND that would split a colour's block.
    ExtendSplitsColour = "extend_splits_colour", Illegal;
    /// Quintun: a neutral stone on an interior cell.
    NeutralInInterior = "neutral_in_interior", Illegal;
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A rejected move: a machine-readable `reason` and a readable message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    pub reason: Reason,
    pub message: String,
}

impl MoveError {
    pub fn new(reason: Reason, message: impl Into<String>) -> MoveError {
        MoveError {
            reason,
            message: message.into(),
        }
    }

    pub fn kind(&self) -> ErrorKind {
        self.reason.kind()
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
    (0..8)
        .filter(|k| mask >> k & 1 != 0)
        .map(|k| k + 1)
        .collect()
}

pub trait Game: Configure + Facts + Clone + Send + Sync + 'static {
    /// What `undo_action` needs to restore the state before an action.
    type Undo: Send;

    /// The spec string that rebuilds this game's options (`"churn(size=3)"`),
    /// printed by [`crate::spec::print_game`].
    fn spec(&self) -> String {
        crate::spec::print_game::<Self>(&self.option_values())
    }

    /// Whether `other` has this game's spec, without printing it when
    /// their option values are equal (equal values print equal specs).
    fn same_spec(&self, other: &Self) -> bool {
        self.option_values() == other.option_values() || self.spec() == other.spec()
    }

    fn board(&self) -> &Board;
    fn num_players(&self) -> usize;
    fn num_actions(&self) -> usize;
    /// A proven upper bound on the number of actions in a game of this
    /// variant from its start, from the game's facts
    /// ([`GameFacts::max_actions`](crate::facts::GameFacts::max_actions));
    /// None when the game has no small one (Churn).
    fn max_actions(&self) -> Option<usize> {
        Self::FACTS
            .max_actions
            .map(|bound| bound(self.board().num_cells(), self.num_players()))
    }
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
    /// Append the legal actions to `out` (what it holds already stays), in
    /// increasing order (the conformance checks in `testing.rs` hold every
    /// game to both).
    fn legal_actions(&self, out: &mut Vec<Action>);
    /// Apply a legal action (unchecked).
    fn apply_action(&mut self, action: Action);
    /// Apply a legal action and return what undoes it.
    fn apply_action_undoable(&mut self, action: Action) -> Self::Undo;
    fn undo_action(&mut self, undo: Self::Undo);
    /// An action's text; like `format_move`, independent of the position.
    fn action_to_string(&self, action: Action) -> String;
    /// The action whose text is `text`, the inverse of
    /// [`Game::action_to_string`] (independent of the position, legal or
    /// not); a `Syntax` error where no action of this game has that text.
    fn string_to_action(&self, text: &str) -> Result<Action, MoveError> {
        (0..self.num_actions())
            .map(|a| a as Action)
            .find(|&a| self.action_to_string(a) == text)
            .ok_or_else(|| {
                MoveError::new(
                    Reason::Syntax,
                    format!("{text:?} is not the text of an action of this game"),
                )
            })
    }
    /// Whether `action` (below `num_actions()`) is legal now (default: look
    /// it up in `legal_actions`).
    fn is_legal_action(&self, action: Action) -> bool {
        let mut buf = Vec::new();
        self.legal_actions(&mut buf);
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
    /// Play random legal actions from here until the game ends or
    /// `max_plies` whole moves have been played: the loop of
    /// [`crate::playout`], returning (whole moves, actions). `buf` is
    /// scratch; `stop` is read every [`STOP_CHECK_EVERY`] actions (`None`
    /// when raised). The default draws each action with `random_action`;
    /// a game may override it with a faster loop drawing from the same
    /// distribution.
    fn play_random<R: Rng>(
        &mut self,
        rng: &mut R,
        max_plies: u64,
        buf: &mut Vec<Action>,
        stop: &AtomicBool,
    ) -> Option<(u64, u64)> {
        let mut plies = 0;
        let mut actions = 0u64;
        while plies < max_plies {
            let Some(a) = self.random_action(rng, buf) else {
                break;
            };
            self.apply_action(a);
            actions += 1;
            if !self.mid_turn() {
                plies += 1;
            }
            if actions.is_multiple_of(STOP_CHECK_EVERY) && stop.load(Ordering::Relaxed) {
                return None;
            }
        }
        Some((plies, actions))
    }

    /// Play from here as the search's random rollouts do: `random_action`
    /// then `apply_action` until no action is left, except that once
    /// `max_plies` whole moves have been played the next action drawn is
    /// not applied (the rollout is cut off). Returns whether the game ran
    /// to its end. A game may override it with a faster loop that draws
    /// the same numbers from `rng` and reaches the same outcome; the
    /// position it leaves is only good for [`Game::winner_mask`] (a
    /// faster loop may skip, say, the hash).
    fn random_rollout<R: Rng>(
        &mut self,
        rng: &mut R,
        max_plies: u64,
        buf: &mut Vec<Action>,
    ) -> bool {
        let mut plies = 0u64;
        while let Some(a) = self.random_action(rng, buf) {
            if plies >= max_plies {
                return false;
            }
            self.apply_action(a);
            if !self.mid_turn() {
                plies += 1;
            }
        }
        true
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

    // ---- checked entry points ----
    /// Check an action id from outside (any integer): in range, the game not
    /// over, legal now. Returns it as an [`Action`].
    fn check_action(&self, action: i64) -> Result<Action, MoveError> {
        let n = self.num_actions();
        if action < 0 || action as u64 >= n as u64 {
            return Err(MoveError::new(
                Reason::ActionOutOfRange,
                format!("action {action} is out of range 0..{n}"),
            ));
        }
        let a = action as Action;
        if self.is_over() && !self.mid_turn() {
            return Err(MoveError::new(
                Reason::GameOver,
                format!("the game is over; action {a} cannot be applied"),
            ));
        }
        if !self.is_legal_action(a) {
            return Err(MoveError::new(
                Reason::IllegalAction,
                format!(
                    "action {a} ({}) is not legal here",
                    self.action_to_string(a)
                ),
            ));
        }
        Ok(a)
    }
    /// Check a whole move in the game's notation: between turns, parsed and
    /// legal. Returns its canonical actions.
    fn check_move(&self, text: &str) -> Result<MoveActions, MoveError> {
        if self.mid_turn() {
            return Err(MoveError::new(
                Reason::MidTurn,
                "a turn is in progress; finish it with apply_action() or undo() it before play()",
            ));
        }
        self.parse_move(text)
    }
    /// Play a move given as text after checking it; on error the state is
    /// unchanged.
    fn try_play(&mut self, text: &str) -> Result<MoveActions, MoveError> {
        let acts = self.check_move(text)?;
        self.play_move(&acts);
        Ok(acts)
    }
    /// Apply an action id after checking it; on error the state is unchanged.
    fn try_apply(&mut self, action: i64) -> Result<(), MoveError> {
        let a = self.check_action(action)?;
        self.apply_action(a);
        Ok(())
    }

    // ---- views ----
    /// Observation planes (C, H, W) on the board's axial grid.
    fn observation_shape(&self) -> [usize; 3];
    fn observation(&self, out: &mut [f32]);
    /// A text diagram.
    fn diagram(&self) -> String;
}

/// Actions between two reads of the stop flag in [`Game::play_random`].
pub const STOP_CHECK_EVERY: u64 = 1 << 14;

/// A uniformly random legal action of `g` drawn from its full list (`None`
/// when there is none): the default playout policy, and the fallback of
/// games whose own sampler gives up.
pub fn uniform_action<G: Game, R: Rng>(
    g: &G,
    rng: &mut R,
    buf: &mut Vec<Action>,
) -> Option<Action> {
    buf.clear();
    g.legal_actions(buf);
    if buf.is_empty() {
        None
    } else {
        Some(buf[below(rng, buf.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Churn, Quintun, Wunchunk};

    #[test]
    fn reason_codes_are_distinct_snake_case() {
        let codes: Vec<&str> = Reason::ALL.iter().map(|r| r.code()).collect();
        let mut sorted = codes.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), codes.len());
        assert!(codes
            .iter()
            .all(|c| c.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')));
        assert_eq!(Reason::Syntax.kind(), ErrorKind::Notation);
        assert_eq!(Reason::GameOver.kind(), ErrorKind::GameOver);
        assert_eq!(Reason::Occupied.kind(), ErrorKind::Illegal);
    }

    /// The same mistake is the same reason in every game: a colour that does
    /// not exist is `bad_colour`, a notation error.
    #[test]
    fn unknown_colour_is_a_notation_error() {
        let w = Wunchunk::new(
            6,
            2,
            crate::WunchunkStart::Standard,
            crate::WunchunkBalance::Ap,
        )
        .unwrap();
        let q = Quintun::new(7, crate::QuintunPlacement::Side, true).unwrap();
        for e in [
            w.parse_move("3e1").unwrap_err(),
            q.parse_move("Fi1").unwrap_err(),
        ] {
            assert_eq!(e.reason, Reason::BadColour);
            assert_eq!(e.kind(), ErrorKind::Notation);
        }
    }

    #[test]
    fn checked_entry_points_leave_the_state_alone() {
        let mut g = Churn::new(std::sync::Arc::new(crate::Board::hexhex(3).unwrap()), true);
        let n = g.num_actions() as i64;
        assert_eq!(
            g.try_apply(-1).unwrap_err().reason,
            Reason::ActionOutOfRange
        );
        assert_eq!(g.try_apply(n).unwrap_err().reason, Reason::ActionOutOfRange);
        assert_eq!(
            g.try_apply(n - 1).unwrap_err().reason,
            Reason::IllegalAction
        ); // swap at the start
        assert_eq!(g.try_play("zz9").unwrap_err().kind(), ErrorKind::Notation);
        assert_eq!(
            g.zobrist(),
            Churn::new(std::sync::Arc::new(crate::Board::hexhex(3).unwrap()), true).zobrist()
        );
        let acts = g.try_play("c3").unwrap();
        assert_eq!(acts.len(), 1);
        assert_eq!(g.try_play("c3").unwrap_err().reason, Reason::Occupied);
        g.try_apply(0).unwrap();

        let mut w =
            Wunchunk::new(6, 2, crate::WunchunkStart::Open, crate::WunchunkBalance::Ap).unwrap();
        let mut legal = Vec::new();
        w.legal_actions(&mut legal);
        w.try_apply(legal[0] as i64).unwrap();
        assert!(w.mid_turn());
        assert_eq!(w.try_play("pass").unwrap_err().reason, Reason::MidTurn);
    }
}
