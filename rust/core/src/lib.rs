//! # hexcore-core
//!
//! Exact, fast rules engines for hex-grid abstract games, independent of
//! Python. Each game implements [`Game`]: legal move and action generation,
//! apply / undo, terminal test, winners, Zobrist hash and notation.
//!
//! ```
//! use std::sync::Arc;
//! use hexcore_core::{Board, Churn, Game, perft, Unit};
//!
//! let g = Churn::new(Arc::new(Board::hexhex(3).unwrap()), true);
//! assert_eq!(g.count_moves(), 19);
//! assert_eq!(perft(&g, 2, Unit::Move, 1), perft(&g, 2, Unit::Action, 1));
//! ```
//!
//! Shared mechanisms live one per file: [`board`] (geometry), [`groups`]
//! (incremental groups), [`zobrist`], [`perft`], [`playout`]; each game has
//! its own module.

pub mod bitset;
pub mod board;
pub mod churn;
pub mod game;
pub mod groups;
pub mod perft;
pub mod playout;
pub mod quintun;
mod unchecked;
pub mod vector;
pub mod wunchunk;
pub mod zobrist;

pub use board::{Board, BoardError};
pub use churn::Churn;
pub use game::{winners_of, Action, Game, MoveActions, MoveError, WinnerMask};
pub use groups::Groups;
pub use perft::{divide, perft, perft_actions, perft_moves, Unit};
pub use quintun::Quintun;
pub use playout::{playout, playouts, rng_for, PlayoutResult};
pub use wunchunk::Wunchunk;
