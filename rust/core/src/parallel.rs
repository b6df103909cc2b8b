//! Worker threads for perft and playouts: one rayon pool per thread count,
//! shared by every caller, in a small cache of recently used sizes.
//!
//! At most [`POOL_CACHE`] pools are kept; asking for another size drops the
//! least recently used one (its threads end once the jobs still running on it
//! finish). Thread counts are limited to [`MAX_THREADS`], and building a pool
//! is fallible: a failure (say, the OS refusing threads) is an error value,
//! never a panic.

use std::sync::{Arc, Mutex, OnceLock};

use rayon::ThreadPool;

pub use crate::limits::MAX_THREADS;

/// How many pools (of distinct sizes) are kept alive at once.
pub const POOL_CACHE: usize = 4;

/// Why a run stopped without a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The stop flag was raised.
    Cancelled,
    /// A perft deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    TooDeep { depth: u32, max: u32 },
    /// A perft divide at move level over a position with more legal moves
    /// than can be listed (`count` of them); use action level.
    TooManyMoves { count: u128 },
    /// The thread count is out of range or the worker threads could not be
    /// started.
    Threads(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Cancelled => f.write_str("cancelled"),
            RunError::TooDeep { depth, max } => write!(f, "depth {depth} is above the maximum perft depth {max}"),
            RunError::TooManyMoves { count } => {
                write!(f, "{count} legal moves is too many to list; divide at action level instead")
            }
            RunError::Threads(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RunError {}

/// The cached pools, most recently used first.
fn cache() -> &'static Mutex<Vec<(usize, Arc<ThreadPool>)>> {
    static POOLS: OnceLock<Mutex<Vec<(usize, Arc<ThreadPool>)>>> = OnceLock::new();
    POOLS.get_or_init(|| Mutex::new(Vec::new()))
}

/// The shared pool with exactly `threads` workers (`1..=MAX_THREADS`).
pub fn pool(threads: usize) -> Result<Arc<ThreadPool>, RunError> {
    crate::limits::threads(Some(i64::try_from(threads).unwrap_or(i64::MAX))).map_err(|e| RunError::Threads(e.message))?;
    let mut pools = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = pools.iter().position(|(n, _)| *n == threads) {
        let hit = pools.remove(i);
        pools.insert(0, hit.clone());
        return Ok(hit.1);
    }
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("hexcore-{i}"))
        .build()
        .map_err(|e| RunError::Threads(format!("could not start {threads} worker threads: {e}")))?;
    let p = Arc::new(built);
    pools.insert(0, (threads, p.clone()));
    pools.truncate(POOL_CACHE);
    Ok(p)
}

/// The thread count the infallible entry points use: `threads` clamped to
/// `1..=MAX_THREADS`.
pub(crate) fn clamp_threads(threads: usize) -> usize {
    threads.clamp(1, MAX_THREADS)
}

/// Run `f` on a pool of `threads` workers, or on the calling thread when
/// `threads <= 1`.
pub(crate) fn install<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> Result<T, RunError> {
    if threads <= 1 {
        return Ok(f());
    }
    Ok(pool(threads)?.install(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_are_shared_and_bounded() {
        let a = pool(3).unwrap();
        let b = pool(3).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(a.current_num_threads(), 3);
        for t in 4..4 + 2 * POOL_CACHE {
            pool(t).unwrap();
        }
        assert!(cache().lock().unwrap().len() <= POOL_CACHE);
        // A size dropped from the cache is built again on demand.
        let c = pool(3).unwrap();
        assert_eq!(c.current_num_threads(), 3);
        assert!(matches!(pool(0), Err(RunError::Threads(_))));
        assert!(matches!(pool(MAX_THREADS + 1), Err(RunError::Threads(_))));
        assert_eq!(install(1, || 7).unwrap(), 7);
    }
}
