//! Tree searches, one module: UCT with random rollouts ([`mcts`]) and the
//! batched AlphaZero searches (PUCT and Gumbel, [`batched`]) that evaluate
//! their leaves with a network called once per wave for many trees. They
//! share one tree, selection rules side by side, evaluators behind their
//! interfaces and one backup.
//!
//! * [`tree`]: the tree every search grows, an arena generic over its node
//!   and edge types: nodes with per-seat value sums (max^n, so 2 to 4
//!   players share one code path), the backup, virtual visits for leaves
//!   waiting for their evaluation, and subtree reuse. The batched searches'
//!   nodes keep f64 sums and edges with priors; UCT's keep f32 sums.
//! * [`select`]: the selection rules: UCT (UCB1), PUCT with Dirichlet root
//!   noise, and Gumbel (sequential halving with Gumbel-top-k at the root, the
//!   deterministic rule below it, completed Q-values).
//! * [`evaluate`]: the batched [`Evaluator`] interface (observations and
//!   masks in, priors and values out), the checks of what it returns, a
//!   closure evaluator; and the [`LeafEvaluator`] interface with
//!   [`RandomRollouts`].
//! * [`mcts`]: the UCT loop, root-parallel threads and tree reuse
//!   ([`search`], [`Mcts`]).
//! * [`batched`]: the wave loop over many trees, its threads and results
//!   ([`batched_search`], [`BatchedMcts`]).
//!
//! Scores of finished games come from the outcome module
//! ([`scores`](crate::scores)).

pub mod batched;
pub mod evaluate;
pub mod mcts;
pub mod select;
pub mod tree;

pub use crate::outcome::MAX_SEATS;
pub use batched::{
    batched_search, ActionsError, Algorithm, BatchError, BatchedMcts, BatchedOptions, BatchedResult,
};
pub use evaluate::{
    Evaluator, FnEvaluator, InputBuffers, LeafEvaluator, OutputError, Part, RandomRollouts, Rows,
};
pub use mcts::{search, Mcts, SearchError, SearchOptions, SearchResult};
