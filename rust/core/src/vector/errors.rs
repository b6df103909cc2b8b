//! Why a batch could not be built or stepped.

use crate::game::MoveError;
#[cfg(doc)]
use crate::game::Reason;

/// Why a batch could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchError {
    /// The starts do not fit together (the message says why).
    Invalid(String),
    /// The batch needs about this many bytes, which could not be allocated.
    Memory { envs: usize, bytes: u128 },
    /// The stop flag was raised.
    Cancelled,
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Invalid(m) => f.write_str(m),
            BatchError::Memory { envs, bytes } => write!(f, "cannot allocate a batch of {envs} envs (about {bytes} bytes)"),
            BatchError::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for BatchError {}

/// Why a step was refused (nothing was stepped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepError {
    /// Arguments or buffers of the wrong length (the message says which).
    Shape(String),
    /// A reset or step of the batch was cut short: it steps no more until
    /// a reset ends.
    Interrupted,
    /// An action env `env` cannot take (`error.reason` is
    /// [`Reason::ActionOutOfRange`] or [`Reason::IllegalAction`]).
    Illegal { env: usize, action: i64, error: MoveError },
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::Shape(m) => f.write_str(m),
            StepError::Interrupted => f.write_str("a reset or step of this batch was interrupted: reset() it before stepping"),
            StepError::Illegal { error, .. } => f.write_str(&error.message),
        }
    }
}

impl std::error::Error for StepError {}
