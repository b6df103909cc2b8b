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

/// The number of threads a call uses when none is asked for: one per core
/// the process may use, at most [`MAX_THREADS`].
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_THREADS)
}

/// An integer argument as the caller gave it: a value within 64 bits, or
/// (a Python int has no width) the digits of one beyond, so that the error
/// for it shows the value given. Every limit lies within 64 bits, so a
/// `Wide` value is out of every range.
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
    match value.into() {
        IntArg::Int(v) if (lo..=hi).contains(&v) => Ok(v),
        v => Err(OptionsError::new(
            name,
            format!("{name} must be between {lo} and {hi}, got {v}"),
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

/// The batched search's leaves per tree and wave, in `1..=MAX_LEAVES_PER_TREE`.
pub fn leaves_per_tree(n: impl Into<IntArg>) -> Result<usize, OptionsError> {
    in_range("leaves_per_tree", n, 1, MAX_LEAVES_PER_TREE as i64).map(|n| n as usize)
}

/// Gumbel's root actions considered, `>= 1`.
pub fn max_considered(n: impl Into<IntArg>) -> Result<usize, OptionsError> {
    match n.into() {
        IntArg::Int(v) if v >= 1 => Ok(usize::try_from(v).unwrap_or(usize::MAX)),
        v => Err(OptionsError::new(
            "max_considered",
            format!("max_considered must be >= 1, got {v}"),
        )),
    }
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
}
