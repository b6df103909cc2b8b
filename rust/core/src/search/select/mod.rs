//! Selection rules over the search trees: which edge a simulation follows,
//! and what the root reports. One file per idea, as mctx splits them:
//!
//! * `puct`: PUCT (AlphaZero), [`puct()`];
//! * `uct`: UCT (UCB1) and its MCTS-Solver variant, [`uct()`] and
//!   [`uct_solver`];
//! * `gumbel`: the Gumbel root and interior rules, [`gumbel_root`],
//!   [`gumbel_root_listed`], [`gumbel_interior`], and the improved policy;
//! * `qtransform`: completed Q-values, [`completed_q`];
//! * `halving`: sequential halving, [`considered_visit`];
//! * `noise`: Dirichlet and Gumbel root noise, [`dirichlet`] and
//!   [`gumbel()`].

#[cfg(test)]
mod fixtures;
mod gumbel;
mod halving;
mod noise;
mod puct;
mod qtransform;
mod uct;

pub use super::tree::{best_open, next_open};
pub use gumbel::{
    gumbel_interior, gumbel_root, gumbel_root_listed, improved_policy, logit, prior_mass,
    root_logits, RootKid,
};
pub use halving::{considered_visit, considered_visits};
pub use noise::{dirichlet, gumbel};
pub use puct::puct;
pub use qtransform::{completed_q, q_stats, QStats};
pub use uct::{uct, uct_solver};
