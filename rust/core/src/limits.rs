//! The limits of the engine's arguments, checked here, once, and exported
//! to Python (`hexcore.MAX_THREADS`, `hexcore.MAX_DEPTH`, ...): the bindings
//! call these checks and the Python wrappers do not repeat them.

use crate::game::OptionsError;

/// The largest number of worker threads a walk or a batch may ask for.
pub const MAX_THREADS: usize = 256;

/// The deepest perft the walks accept.
pub const MAX_DEPTH: u32 = 100_000;

/// The most games one `random_playouts` call plays.
pub const MAX_PLAYOUTS: u64 = 1 << 40;

/// The number of threads a call uses when none is asked for: one per core
/// the process may use, at most [`MAX_THREADS`].
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, MAX_THREADS)
}

/// The threads a call uses: `requested` (checked to be in
/// `1..=MAX_THREADS`) or [`default_threads`] when it is `None`. Every entry
/// point that takes `threads` reads it here.
pub fn threads(requested: Option<i64>) -> Result<usize, OptionsError> {
    match requested {
        None => Ok(default_threads()),
        Some(t) => in_range("threads", t, 1, MAX_THREADS as i64).map(|t| t as usize),
    }
}

/// `value` when it lies in `lo..=hi`; otherwise an error naming the argument
/// and its range.
pub fn in_range(name: &'static str, value: i64, lo: i64, hi: i64) -> Result<i64, OptionsError> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(OptionsError::new(name, format!("{name} must be between {lo} and {hi}, got {value}")))
    }
}

/// The perft depth, in `0..=MAX_DEPTH`.
pub fn depth(depth: i64) -> Result<u32, OptionsError> {
    in_range("depth", depth, 0, MAX_DEPTH as i64).map(|d| d as u32)
}

/// The number of random playouts, in `0..=MAX_PLAYOUTS`.
pub fn playouts(n: i64) -> Result<u64, OptionsError> {
    in_range("n", n, 0, MAX_PLAYOUTS as i64).map(|n| n as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_checked_once_with_one_default() {
        assert_eq!(threads(None), Ok(default_threads()));
        assert!((1..=MAX_THREADS).contains(&default_threads()));
        assert_eq!(threads(Some(3)), Ok(3));
        for bad in [0, -1, MAX_THREADS as i64 + 1, i64::MAX] {
            let e = threads(Some(bad)).unwrap_err();
            assert_eq!(e.message, format!("threads must be between 1 and {MAX_THREADS}, got {bad}"));
        }
        assert!(depth(MAX_DEPTH as i64 + 1).is_err() && depth(0) == Ok(0));
        assert!(playouts(-1).is_err() && playouts(MAX_PLAYOUTS as i64) == Ok(MAX_PLAYOUTS));
    }
}
