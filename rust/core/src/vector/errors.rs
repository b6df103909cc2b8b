//! Why a batch could not be built, changed or stepped. Every variant holds
//! the facts its message is made of (no message strings): the bindings map
//! each to one Python exception in one place (`rust/py/src/errors.rs`).

use crate::game::{MoveError, Reason};

/// What every env of a batch shares: the game's spec (for messages), its
/// observation shape, number of actions and number of players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fit {
    pub spec: String,
    pub observation: [usize; 3],
    pub actions: usize,
    pub players: usize,
}

impl Fit {
    pub fn of<G: crate::Game>(g: &G) -> Fit {
        Fit {
            spec: g.spec(),
            observation: g.observation_shape(),
            actions: g.num_actions(),
            players: g.num_players(),
        }
    }
}

/// Where a position was given: as a start of the batch, or to `set_env`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Given {
    Start,
    SetEnv,
}

/// Why a batch could not be built, or an env could not be set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchError {
    /// No env at all.
    NoEnvs,
    /// An entry of `start_of` that names no start.
    StartIndex { index: u32, starts: usize },
    /// Env `env`'s game does not fit the batch's (`first`: env 0's).
    Misfit {
        env: usize,
        given: Given,
        game: Box<Fit>,
        first: Box<Fit>,
    },
    /// Env `env`'s position leaves nothing to play ([`Reason::GameOver`])
    /// or is in the middle of a turn ([`Reason::MidTurn`]).
    Position {
        env: usize,
        given: Given,
        spec: String,
        reason: Reason,
    },
    /// An env index out of `0..envs`.
    EnvIndex { index: usize, envs: usize },
    /// The batch needs about this many bytes, which could not be allocated.
    Memory { envs: usize, bytes: u128 },
    /// The stop flag was raised.
    Cancelled,
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::NoEnvs => f.write_str("num_envs must be at least 1, got 0"),
            BatchError::StartIndex { index, starts } => write!(f, "start index {index} is out of range 0..{starts}"),
            BatchError::Misfit { env, given: Given::Start, game, first } => write!(
                f,
                "env {env} ({}) does not fit env 0 ({}): observations {:?} vs {:?}, {} vs {} actions, {} vs {} players; \
                 envs of one batch need the same observation shape, number of actions and number of players",
                game.spec, first.spec, game.observation, first.observation, game.actions, first.actions, game.players, first.players
            ),
            BatchError::Misfit { given: Given::SetEnv, game, first, .. } => {
                write!(f, "{} does not fit this batch ({}): observations and actions must have the same shape", game.spec, first.spec)
            }
            BatchError::Position { env, given, spec, reason } => {
                let what = match given {
                    Given::Start => "the start position",
                    Given::SetEnv => "the position",
                };
                match reason {
                    Reason::MidTurn => write!(f, "env {env}: {what} ({spec}) is in the middle of a turn; finish or undo it"),
                    _ => write!(f, "env {env}: {what} ({spec}) is already over"),
                }
            }
            BatchError::EnvIndex { index, envs } => write!(f, "env index {index} is out of range 0..{envs}"),
            BatchError::Memory { envs, bytes } => write!(f, "cannot allocate a batch of {envs} envs (about {bytes} bytes)"),
            BatchError::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for BatchError {}

/// An argument or buffer whose length must fit the batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Length {
    /// An output buffer (`"observation"`, `"mask"`, ..., `"action"`).
    Buffer(&'static str),
    /// One value per env (`"actions"`, `"active flags"`).
    PerEnv(&'static str),
}

/// Why a reset, step or draw was refused (nothing was changed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepError {
    /// An argument or buffer of the wrong length.
    Shape {
        what: Length,
        got: usize,
        expected: usize,
    },
    /// A reset or step of the batch was cut short: it steps no more until
    /// a reset ends.
    Interrupted,
    /// An action env `env` cannot take (`error.reason` is
    /// [`Reason::ActionOutOfRange`] or [`Reason::IllegalAction`]).
    Illegal {
        env: usize,
        action: i64,
        error: MoveError,
    },
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::Shape {
                what: Length::Buffer(b),
                got,
                expected,
            } => write!(f, "{b} buffer holds {got} values, expected {expected}"),
            StepError::Shape {
                what: Length::PerEnv(w),
                got,
                expected,
            } => write!(f, "expected {expected} {w} (one per env), got {got}"),
            StepError::Interrupted => f.write_str(
                "a reset or step of this batch was interrupted: reset() it before stepping",
            ),
            StepError::Illegal { error, .. } => f.write_str(&error.message),
        }
    }
}

impl std::error::Error for StepError {}
