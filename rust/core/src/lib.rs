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
//! assert_eq!("sideways".parse::<Unit>().unwrap_err().to_string(), "unit must be 'move' or 'action', got 'sideways'");
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
//! (`perft`) and playouts (`playout`). Each game is one folder,
//! `games/<game>/`, holding everything about it (rules, options, notation,
//! hash kinds, observation, solver keys, tests and the conformance run, in
//! files of the same names in every folder), and is named once, in
//! [`for_each_game!`]. The public API is re-exported here;
//! the exact solver ([`solve`]), Monte Carlo tree search ([`search`]),
//! games with their history ([`session`]) and batched games ([`vector`]) are
//! public modules.

/// The list of games, one line each: `module: Type`, the module being the
/// game's folder `games/<module>/` and `Type` its [`Game`] (also the name of
/// its Python class). Everything that dispatches over the games (the module
/// tree below, the bindings' enums and class table) is generated from this
/// list by handing it a macro: `for_each_game!(then, args...)` expands to
/// `then! { [args...] churn: Churn, wunchunk: Wunchunk, ... }`.
#[macro_export]
macro_rules! for_each_game {
    ($then:ident $(, $($args:tt)*)?) => {
        $then! { [$($($args)*)?]
            churn: Churn,
            wunchunk: Wunchunk,
            quintun: Quintun,
            hex: Hex,
            y: Y,
            havannah: Havannah,
        }
    };
}

/// The games' modules, and the names each adds to the crate root (its
/// `public` module).
macro_rules! declare_games {
    ([] $($module:ident: $Game:ident,)*) => {
        mod games {
            $(pub mod $module;)*
        }
        $(pub use games::$module::public::*;)*
    };
}
for_each_game!(declare_games);

/// Every program built on this crate with its default `mimalloc` feature
/// (the Python extension, the examples, the tests) allocates through
/// mimalloc, which asks Linux for transparent huge pages for its regions:
/// a batched search's trees and lists, spread over many small blocks the
/// waves visit in turn, then sit in 2 MiB pages rather than 4 KiB ones.
/// Measured on `rust/core/examples/batched_speed.rs` (two threads, median
/// of 16 to 20 alternated runs against the system allocator): 8% more
/// simulations a second on Churn side 7, 23% on Quintun side 7 (see
/// `docs/performance-log.md`).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod bitset;
mod board;
pub mod catalog;
pub mod facts;
mod game;
mod groups;
pub mod limits;
mod outcome;
mod parallel;
mod perft;
mod playout;
mod rng;
pub mod search;
pub mod session;
pub mod solve;
pub mod spec;
#[cfg(test)]
mod testing;
mod unchecked;
mod union_find;
pub mod vector;
mod zobrist;

pub use board::{
    row_name, Board, BoardError, Shape, MAX_CELLS, MAX_RHOMBUS, MAX_TRIANGLE, NAMED_BOARDS, NO_CELL,
};
pub use game::{
    uniform_action, winners_of, Action, ErrorKind, Game, MoveActions, MoveError, OptionsError,
    Reason, WinnerMask,
};
pub use groups::Groups;
pub use outcome::{rewards, scores, terminal_rewards, MAX_SEATS};
pub use parallel::{pool, RunError, MAX_THREADS, POOL_CACHE};
pub use perft::{
    divide, perft, perft_actions, perft_moves, try_divide, try_perft, Unit, MAX_DEPTH,
    MOVE_LIST_LIMIT,
};
pub use playout::{playout, playouts, playouts_into, try_playouts, PlayoutResult};
pub use rng::{below, rng_for};
pub use union_find::{Payload, Placed, UnionFind};
