//! Rewards for the Python adapters (gymnasium, PettingZoo, OpenSpiel), from
//! the core's outcome module, where the rule is written once.

use pyo3::prelude::*;

use crate::errors::{value_error, Int};

/// The zero-sum rewards of `winners` (1-based seats, as `game.winners`
/// gives them) among `num_players` seats: a sole winner `+1` and the others
/// `-1/(n-1)`; `k` shared winners `+1/k` and the others `-1/(n-k)`; nobody
/// (a game still going on) or everybody winning `0` for all.
#[pyfunction]
pub fn _rewards(winners: Vec<Int>, num_players: Int) -> PyResult<Vec<f64>> {
    let n = num_players.value;
    if n < 1 {
        return Err(value_error(format!(
            "num_players must be positive, got {num_players}"
        )));
    }
    if n > 8 {
        return Err(value_error(format!(
            "num_players must be at most 8, got {num_players}"
        )));
    }
    let mut bad: Vec<&Int> = winners
        .iter()
        .filter(|w| !(1..=n).contains(&w.value))
        .collect();
    if !bad.is_empty() {
        bad.sort_unstable_by_key(|w| (w.value, w.to_string()));
        bad.dedup();
        let shown: Vec<String> = bad.iter().map(|w| w.to_string()).collect();
        return Err(value_error(format!(
            "winners [{}] are not seats 1..{n}",
            shown.join(", ")
        )));
    }
    let mask = winners.iter().fold(0u8, |m, w| m | 1 << (w.value - 1));
    let mut out = vec![0.0; n as usize];
    hexcore_core::rewards(mask, n as usize, &mut out);
    Ok(out)
}
