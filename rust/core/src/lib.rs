//! # hexcore-core
//!
//! Exact, fast rules engines for hex-grid abstract games, independent of
//! Python. Each game implements [`Game`]: legal move and action generation,
//! apply / undo, terminal test, winners, Zobrist hash and notation. The games
//! are [`Churn`], [`Wunchunk`] (options [`WunchunkStart`],
//! [`WunchunkBalance`]) and [`Quintun`] (option [`QuintunPlacement`]).
//!
//! ```
//! use std::sync::Arc;
//! use hexcore_core::{perft, Board, Churn, Game, Unit};
//!
//! let g = Churn::new(Arc::new(Board::hexhex(3).unwrap()), true);
//! assert_eq!(g.count_moves(), 19);
//! assert_eq!(perft(&g, 2, Unit::Move, 1), perft(&g, 2, Unit::Action, 1));
//! ```
//!
//! Options are plain enums that parse from and print as their spec names:
//!
//! ```
//! use hexcore_core::{Game, Unit, Wunchunk, WunchunkBalance, WunchunkStart};
//!
//! let start: WunchunkStart = "open".parse().unwrap();
//! let balance: WunchunkBalance = "pie".parse().unwrap();
//! let g = Wunchunk::new(6, 2, start, balance).unwrap();
//! assert_eq!(g.spec(), "wunchunk(size=6,players=2,start=open,balance=pie)");
//! assert_eq!("action".parse::<Unit>(), Ok(Unit::Action));
//! assert!("sideways".parse::<Unit>().unwrap_err().contains("'move' or 'action'"));
//! ```
//!
//! Long runs can be stopped, and report errors instead of panicking:
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use hexcore_core::{try_perft, try_playouts, Quintun, QuintunPlacement, RunError, Unit, MAX_DEPTH};
//!
//! let q = Quintun::new(4, QuintunPlacement::Side, true).unwrap();
//! let stop = AtomicBool::new(false);
//! assert_eq!(try_perft(&q, 2, Unit::Move, 2, &stop), Ok(1369));
//! assert!(matches!(try_perft(&q, MAX_DEPTH + 1, Unit::Move, 1, &stop), Err(RunError::TooDeep { .. })));
//! let stop = AtomicBool::new(true);
//! assert_eq!(try_playouts(&q, 10, 7, 1, u64::MAX, &stop), Err(RunError::Cancelled));
//! ```
//!
//! Shared mechanisms live one per (private) module: geometry (`board`),
//! incremental groups (`groups`), bit sets (`bitset`), Zobrist keys
//! (`zobrist`), random numbers (`rng`), thread pools (`parallel`), perft
//! (`perft`) and playouts (`playout`); each game has its own module. The
//! public API is re-exported here; the exact solver ([`solve`]), Monte Carlo
//! tree search ([`search`]) and batched games ([`vector`]) are public modules.

mod bitset;
mod board;
mod churn;
mod game;
mod groups;
#[path = "games/hex/mod.rs"]
mod hex;
mod parallel;
mod perft;
mod playout;
mod quintun;
mod rng;
pub mod search;
pub mod solve;
#[cfg(test)]
mod testing;
mod unchecked;
pub mod vector;
mod wunchunk;
mod zobrist;

pub use board::{row_name, Board, BoardError, Shape, MAX_CELLS, MAX_RHOMBUS, NAMED_BOARDS, NO_CELL};
pub use churn::{Churn, ChurnUndo};
pub use game::{uniform_action, winners_of, Action, ErrorKind, Game, MoveActions, MoveError, OptionsError, Reason, WinnerMask};
pub use groups::Groups;
pub use hex::public::*;
pub use parallel::{pool, RunError, MAX_THREADS, POOL_CACHE};
pub use perft::{divide, perft, perft_actions, perft_moves, try_divide, try_perft, Unit, MAX_DEPTH, MOVE_LIST_LIMIT};
pub use playout::{playout, playouts, playouts_into, try_playouts, PlayoutResult};
pub use quintun::{
    column_name as quintun_column_name, Placement as QuintunPlacement, Quintun, QuintunBoard, QuintunUndo, MAX_SIZE as QUINTUN_MAX_SIZE,
    MIN_SIZE as QUINTUN_MIN_SIZE,
};
pub use rng::{below, rng_for};
pub use wunchunk::{Balance as WunchunkBalance, OptionError as WunchunkOptionError, Start as WunchunkStart, Wunchunk, WunchunkUndo};
