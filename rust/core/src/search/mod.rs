//! Tree searches, one module: UCT with random rollouts ([`uct`]) and the
//! batched AlphaZero searches (PUCT and Gumbel, [`batched`]) that evaluate
//! their leaves with a network called once per wave for many trees.
//!
//! * [`uct`]: UCB1 selection, random rollouts, root-parallel trees
//!   ([`search`], [`Mcts`]).
//! * [`tree`]: the tree the batched searches grow: nodes with per-seat value
//!   sums (max^n, so 2 to 4 players share one code path), edges with priors,
//!   virtual visits for leaves waiting for their evaluation, and subtree
//!   reuse.
//! * [`select`]: the selection rules over that tree: PUCT with Dirichlet root
//!   noise, and Gumbel (sequential halving with Gumbel-top-k at the root, the
//!   deterministic rule below it, completed Q-values).
//! * [`evaluate`]: the [`Evaluator`] interface (observations and masks in,
//!   priors and values out), the checks of what it returns, and a closure
//!   evaluator.
//! * [`batched`]: the wave loop over many trees, its threads and results
//!   ([`batched_search`], [`BatchedMcts`]).
//!
//! Scores of finished games come from the outcome module
//! ([`scores`](crate::scores)).

pub mod batched;
pub mod evaluate;
pub mod select;
pub mod tree;
pub mod uct;

pub use crate::outcome::MAX_SEATS;
pub use batched::{batched_search, Algorithm, BatchError, BatchedMcts, BatchedOptions, BatchedResult};
pub use evaluate::{Evaluator, FnEvaluator};
pub use uct::{search, Mcts, SearchError, SearchOptions, SearchResult};
