//! The limits of the engine's arguments, checked here, once, and exported
//! to Python (`hexcore.MAX_THREADS`, `hexcore.MAX_DEPTH`, ...): the bindings
//! call these checks and the Python wrappers do not repeat them.

use std::fmt;
use std::sync::Arc;

use crate::game::OptionsError;

/// The largest number of worker threads a walk or a batch may ask for.
pub const MAX_THREADS: usize = 256;

/// The deepest perft the walks accept.
pub const MAX_DEPTH: u32 = 100_000;

/// The most games one `random_playouts` call plays.
pub const MAX_PLAYOUTS: u64 = 1 << 40;

/// The most leaves a tree of the batched search may send to one wave.
pub const MAX_LEAVES_PER_TREE: usize = 4096;

/// The most simulations per tree in one batched search (visit counts are `u32`).
pub const MAX_SIMULATIONS: u64 = 1 << 30;

/// The most envs one `VecGame` holds.
pub const MAX_ENVS: usize = 1 << 24;

/// The largest solver table, in MiB.
pub const MAX_TABLE_MB: usize = 1 << 20;

/// The most games a match or an analysis plays (per level, match or opening).
pub const MAX_GAMES: u64 = 1_000_000_000;

/// The most units one distributed job (`hexcore.distributed`) is split into.
pub const MAX_JOB_TASKS: u64 = 1_000_000;

/// The number of threads a call uses when none is asked for: one per core
/// the process may use, at most [`MAX_THREADS`].
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_THREADS)
}

/// An integer argument as the caller gave it: a value within 64 bits, or
/// (a Python int has no width) the digits of one beyond, so that the error
/// for it shows the value given. Every limit lies within 64 bits (signed or
/// unsigned), so a `Wide` value beyond them is out of every range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IntArg {
    Int(i64),
    Wide(Arc<str>),
}

impl From<i64> for IntArg {
    fn from(v: i64) -> IntArg {
        IntArg::Int(v)
    }
}

impl From<i32> for IntArg {
    fn from(v: i32) -> IntArg {
        IntArg::Int(v.into())
    }
}

impl From<u8> for IntArg {
    fn from(v: u8) -> IntArg {
        IntArg::Int(v.into())
    }
}

impl From<u64> for IntArg {
    fn from(v: u64) -> IntArg {
        i64::try_from(v).map_or_else(|_| IntArg::Wide(v.to_string().into()), IntArg::Int)
    }
}

impl From<usize> for IntArg {
    fn from(v: usize) -> IntArg {
        IntArg::from(v as u64)
    }
}

impl fmt::Display for IntArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntArg::Int(v) => write!(f, "{v}"),
            IntArg::Wide(digits) => f.write_str(digits),
        }
    }
}

/// The threads a call uses: `requested` (checked to be in
/// `1..=MAX_THREADS`) or [`default_threads`] when it is `None`. Every entry
/// point that takes `threads` reads it here.
pub fn threads(requested: Option<impl Into<IntArg>>) -> Result<usize, OptionsError> {
    match requested {
        None => Ok(default_threads()),
        Some(t) => in_range("threads", t, 1, MAX_THREADS as i64).map(|t| t as usize),
    }
}

/// `value` when it lies in `lo..=hi`; otherwise an error naming the argument
/// and its range, and showing the value as given.
pub fn in_range(
    name: &'static str,
    value: impl Into<IntArg>,
    lo: i64,
    hi: i64,
) -> Result<i64, OptionsError> {
    in_wide_range(name, value, lo.into(), hi.into()).map(|v| v as i64)
}

/// [`in_range`] for the ranges that reach beyond `i64` (up to `u64::MAX`).
fn in_wide_range(
    name: &'static str,
    value: impl Into<IntArg>,
    lo: i128,
    hi: i128,
) -> Result<i128, OptionsError> {
    let value = value.into();
    let v = match &value {
        IntArg::Int(v) => Some(i128::from(*v)),
        IntArg::Wide(digits) => digits.parse::<i128>().ok(),
    };
    match v {
        Some(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(OptionsError::new(
            name,
            format!("{name} must be between {lo} and {hi}, got {value}"),
        )),
    }
}

/// The perft depth, in `0..=MAX_DEPTH`.
pub fn depth(depth: impl Into<IntArg>) -> Result<u32, OptionsError> {
    in_range("depth", depth, 0, MAX_DEPTH as i64).map(|d| d as u32)
}

/// The number of random playouts, in `0..=MAX_PLAYOUTS`.
pub fn playouts(n: impl Into<IntArg>) -> Result<u64, OptionsError> {
    in_range("n", n, 0, MAX_PLAYOUTS as i64).map(|n| n as u64)
}

/// The batched search's simulations per tree, in `1..=MAX_SIMULATIONS`.
pub fn simulations(n: impl Into<IntArg>) -> Result<u64, OptionsError> {
    in_range("simulations", n, 1, MAX_SIMULATIONS as i64).map(|n| n as u64)
}

/// UCT's simulation budget (`mcts`, `MCTS.search`), total over the
/// threads, in `1..=i64::MAX`.
pub fn search_simulations(n: impl Into<IntArg>) -> Result<u64, OptionsError> {
    in_range("simulations", n, 1, i64::MAX).map(|n| n as u64)
}

/// UCT's longest random rollout in whole moves, `max_rollout_plies`, in
/// `0..=u64::MAX`.
pub fn rollout_plies(n: impl Into<IntArg>) -> Result<u64, OptionsError> {
    in_wide_range("max_rollout_plies", n, 0, u64::MAX.into()).map(|n| n as u64)
}

/// UCT's node budget, the trees together, `max_nodes`, in `1..=u32::MAX`
/// (node ids are `u32`).
pub fn tree_nodes(n: impl Into<IntArg>) -> Result<usize, OptionsError> {
    in_range("max_nodes", n, 1, u32::MAX as i64).map(|n| n as usize)
}

/// The batched search's leaves per tree and wave, in `1..=MAX_LEAVES_PER_TREE`.
pub fn leaves_per_tree(n: impl Into<IntArg>) -> Result<usize, OptionsError> {
    in_range("leaves_per_tree", n, 1, MAX_LEAVES_PER_TREE as i64).map(|n| n as usize)
}

/// Gumbel's root actions considered, `>= 1` (more than the legal actions
/// considers them all).
pub fn max_considered(n: impl Into<IntArg>) -> Result<usize, OptionsError> {
    in_range("max_considered", n, 1, i64::MAX).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// A seed: any unsigned 64-bit int.
pub fn seed(seed: impl Into<IntArg>) -> Result<u64, OptionsError> {
    in_wide_range("seed", seed, 0, u64::MAX.into()).map(|s| s as u64)
}

/// The envs of a `VecGame`, in `1..=MAX_ENVS`.
pub fn num_envs(n: impl Into<IntArg>) -> Result<usize, OptionsError> {
    in_range("num_envs", n, 1, MAX_ENVS as i64).map(|n| n as usize)
}

/// A `VecGame`'s episode limit in complete moves, in `1..=u64::MAX`.
pub fn max_plies(n: impl Into<IntArg>) -> Result<u64, OptionsError> {
    in_wide_range("max_plies", n, 1, u64::MAX.into()).map(|n| n as u64)
}

/// A random playout's ply limit (`random_playouts`' `max_plies`), in
/// `0..=u64::MAX`.
pub fn playout_plies(n: impl Into<IntArg>) -> Result<u64, OptionsError> {
    in_wide_range("max_plies", n, 0, u64::MAX.into()).map(|n| n as u64)
}

/// The solver's node budget, `max_nodes`, in `1..=i64::MAX`.
pub fn node_budget(n: impl Into<IntArg>) -> Result<u64, OptionsError> {
    in_range("max_nodes", n, 1, i64::MAX).map(|n| n as u64)
}

/// The solver's table size in MiB, in `1..=MAX_TABLE_MB`.
pub fn table_mb(mb: impl Into<IntArg>) -> Result<usize, OptionsError> {
    in_range("table_mb", mb, 1, MAX_TABLE_MB as i64).map(|mb| mb as usize)
}

/// The games of a match, or of each part of an analysis, in `1..=MAX_GAMES`.
pub fn games(n: impl Into<IntArg>) -> Result<u64, OptionsError> {
    in_range("games", n, 1, MAX_GAMES as i64).map(|n| n as u64)
}

/// A set-up position's player to move in a two-player game, 1 or 2 (the
/// games' `from_cells`).
pub fn to_move(to_move: impl Into<IntArg>) -> Result<u8, OptionsError> {
    match to_move.into() {
        IntArg::Int(t @ 1..=2) => Ok(t as u8),
        given => Err(OptionsError::new(
            "to_move",
            format!("to_move must be 1 or 2, got {given}"),
        )),
    }
}

/// A set-up position's cell values, each 0 (empty) or the colour of a seat
/// named in `names` (a game's [`GameFacts::player_names`](crate::facts::GameFacts)),
/// checked for the games' `from_cells`; the message names each value.
pub fn colours(cells: &[i8], names: &[&str]) -> Result<Vec<u8>, OptionsError> {
    let top = names.len() as i8;
    match cells.iter().find(|&&c| !(0..=top).contains(&c)) {
        None => Ok(cells.iter().map(|&c| c as u8).collect()),
        Some(c) => {
            let mut values = vec!["0 (empty)".to_string()];
            values.extend(
                names
                    .iter()
                    .enumerate()
                    .map(|(i, n)| format!("{} ({n})", i + 1)),
            );
            let last = values.pop().unwrap_or_default();
            Err(OptionsError::new(
                "position",
                format!("cell value {c} is not {} or {last}", values.join(", ")),
            ))
        }
    }
}

/// The checks of the arguments that functions written in Python check
/// before any work, by the argument's name (`hexcore._core.check_arg`):
/// `None` for a name with no check here. Besides the checks above, an
/// analysis's `playouts`: `1..=MAX_PLAYOUTS` random games; a distributed
/// job's `tasks`, `1..=MAX_JOB_TASKS`, and its `chunk` of playouts per
/// task, `1..=MAX_PLAYOUTS`.
pub fn check(name: &str, value: impl Into<IntArg>) -> Option<Result<u64, OptionsError>> {
    let value = value.into();
    Some(match name {
        "games" => games(value),
        "seed" => seed(value),
        "playouts" => in_range("playouts", value, 1, MAX_PLAYOUTS as i64).map(|n| n as u64),
        "max_nodes" => node_budget(value),
        "num_envs" => num_envs(value).map(|n| n as u64),
        "max_plies" => max_plies(value),
        "table_mb" => table_mb(value).map(|mb| mb as u64),
        "tasks" => in_range("tasks", value, 1, MAX_JOB_TASKS as i64).map(|n| n as u64),
        "chunk" => in_range("chunk", value, 1, MAX_PLAYOUTS as i64).map(|n| n as u64),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_checked_once_with_one_default() {
        assert_eq!(threads(None::<i64>), Ok(default_threads()));
        assert!((1..=MAX_THREADS).contains(&default_threads()));
        assert_eq!(threads(Some(3i64)), Ok(3));
        for bad in [0, -1, MAX_THREADS as i64 + 1, i64::MAX] {
            let e = threads(Some(bad)).unwrap_err();
            assert_eq!(
                e.message,
                format!("threads must be between 1 and {MAX_THREADS}, got {bad}")
            );
        }
        assert!(depth(MAX_DEPTH as i64 + 1).is_err() && depth(0i64) == Ok(0));
        assert!(playouts(-1i64).is_err() && playouts(MAX_PLAYOUTS as i64) == Ok(MAX_PLAYOUTS));
    }

    #[test]
    fn wide_values_show_as_given() {
        let e = threads(Some(u64::MAX)).unwrap_err();
        assert_eq!(
            e.message,
            format!(
                "threads must be between 1 and {MAX_THREADS}, got {}",
                u64::MAX
            )
        );
        let wide = IntArg::Wide("-1180591620717411303424".into());
        assert_eq!(
            depth(wide).unwrap_err().message,
            "depth must be between 0 and 100000, got -1180591620717411303424"
        );
    }

    #[test]
    fn unsigned_ranges_take_every_u64() {
        let top = IntArg::from(u64::MAX);
        assert_eq!(seed(top.clone()), Ok(u64::MAX));
        assert_eq!(max_plies(top), Ok(u64::MAX));
        assert_eq!(seed(0i64), Ok(0));
        let over = IntArg::Wide("18446744073709551616".into());
        assert_eq!(
            seed(over).unwrap_err().message,
            "seed must be between 0 and 18446744073709551615, got 18446744073709551616"
        );
        assert_eq!(
            seed(-1i64).unwrap_err().message,
            "seed must be between 0 and 18446744073709551615, got -1"
        );
        assert_eq!(playout_plies(0i64), Ok(0));
        assert_eq!(
            max_plies(0i64).unwrap_err().message,
            "max_plies must be between 1 and 18446744073709551615, got 0"
        );
    }

    #[test]
    fn set_up_values_show_as_given() {
        assert_eq!(to_move(2i64), Ok(2));
        for bad in [
            IntArg::Int(0),
            IntArg::Int(3),
            IntArg::Wide("-99999999999999999999".into()),
        ] {
            let e = to_move(bad.clone()).unwrap_err();
            assert_eq!(
                (e.argument, e.message),
                ("to_move", format!("to_move must be 1 or 2, got {bad}"))
            );
        }
        assert_eq!(colours(&[0, 2, 1], &["x", "o"]), Ok(vec![0, 2, 1]));
        for bad in [3, -1] {
            let e = colours(&[0, bad], &["x", "o"]).unwrap_err();
            assert_eq!(
                (e.argument, e.message),
                (
                    "position",
                    format!("cell value {bad} is not 0 (empty), 1 (x) or 2 (o)")
                )
            );
        }
    }

    #[test]
    fn each_limit_in_the_one_message_style() {
        for (name, bad, range) in [
            ("num_envs", 1i64 << 25, "1 and 16777216"),
            ("max_nodes", 0, "1 and 9223372036854775807"),
            ("table_mb", (1 << 20) + 1, "1 and 1048576"),
            ("games", 0, "1 and 1000000000"),
            ("playouts", 0, "1 and 1099511627776"),
            ("tasks", 1_000_001, "1 and 1000000"),
            ("chunk", 0, "1 and 1099511627776"),
        ] {
            let e = check(name, bad).expect("a checked name").unwrap_err();
            assert_eq!(
                e.message,
                format!("{name} must be between {range}, got {bad}")
            );
        }
        assert_eq!(
            max_considered(0i64).unwrap_err().message,
            "max_considered must be between 1 and 9223372036854775807, got 0"
        );
        assert_eq!(max_considered(7i64), Ok(7));
        assert_eq!(
            search_simulations(0i64).unwrap_err().message,
            "simulations must be between 1 and 9223372036854775807, got 0"
        );
        assert_eq!(
            tree_nodes(1i64 << 32).unwrap_err().message,
            "max_nodes must be between 1 and 4294967295, got 4294967296"
        );
        assert_eq!(rollout_plies(u64::MAX), Ok(u64::MAX));
        assert!(rollout_plies(-1i64).is_err());
        assert_eq!(check("games", 3i64), Some(Ok(3)));
        assert!(check("size", 3i64).is_none());
    }
}
