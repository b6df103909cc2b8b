//! The one thread mechanism: one rayon pool per thread count, shared by
//! every caller (perft, playouts, searches, batched games), in a small cache
//! of recently used sizes, and [`share_out`], which spreads a list of work
//! items over the calling thread and a pool's workers.
//!
//! At most [`POOL_CACHE`] pools are kept; asking for another size drops the
//! least recently used one (its threads end once the jobs still running on it
//! finish). Thread counts are limited to [`MAX_THREADS`], and building a pool
//! is fallible: a failure (say, the OS refusing threads) is an error value,
//! never a panic.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rayon::ThreadPool;

use crate::game::OptionsError;
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
    /// The thread count is out of range.
    Invalid(OptionsError),
    /// The worker threads could not be started (`detail`: the system's words).
    Threads { threads: usize, detail: String },
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Cancelled => f.write_str("cancelled"),
            RunError::TooDeep { depth, max } => write!(f, "depth {depth} is above the maximum perft depth {max}"),
            RunError::TooManyMoves { count } => {
                write!(f, "{count} legal moves is too many to list; divide at action level instead")
            }
            RunError::Invalid(e) => write!(f, "{e}"),
            RunError::Threads { threads, detail } => {
                write!(f, "could not start {threads} worker thread{}: {detail}", if *threads == 1 { "" } else { "s" })
            }
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
    crate::limits::threads(Some(threads)).map_err(RunError::Invalid)?;
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
        .map_err(|e| RunError::Threads { threads, detail: e.to_string() })?;
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

/// Run `work` on every item: on this thread alone when `threads <= 1`, there
/// is one item, or the pool cannot be made (no OS threads left); else on this
/// thread and `threads - 1` workers of the shared pool. Each takes the items
/// of its own share first (one of `threads` contiguous shares, this thread
/// always the first, so the data of those items stays in its core's cache
/// from one call to the next), then helps with the others' remaining items.
/// Every item runs exactly once, so the results are the same for any thread
/// count.
///
/// The workers borrow `items` and `work` inside a scope of the pool, which
/// ends only when every one of them has; a panic in any of them is resumed
/// here after that.
pub(crate) fn share_out<I: Send>(items: Vec<I>, threads: usize, work: impl Fn(I) + Sync) {
    if threads <= 1 || items.len() <= 1 {
        items.into_iter().for_each(work);
        return;
    }
    let Ok(p) = pool(clamp_threads(threads)) else {
        items.into_iter().for_each(work);
        return;
    };
    let (t, m) = (clamp_threads(threads).min(items.len()), items.len());
    let slots: Vec<Mutex<Option<I>>> = items.into_iter().map(|x| Mutex::new(Some(x))).collect();
    let next: Vec<AtomicUsize> = (0..t).map(|k| AtomicUsize::new(k * m / t)).collect();
    let share = |me: usize| {
        for d in 0..t {
            let k = (me + d) % t;
            let end = (k + 1) * m / t;
            loop {
                let i = next[k].fetch_add(1, Ordering::Relaxed);
                if i >= end {
                    break;
                }
                let item = slots[i].lock().unwrap_or_else(|e| e.into_inner()).take();
                if let Some(item) = item {
                    work(item);
                }
            }
        }
    };
    // Every item is taken once `share(0)` returns (each share ends by
    // helping with the others).
    spread(&p, t, &share, &|| true, 1 << 14);
}

/// Run `run(k)` for `k` in `1..t` on workers of `p` and `run(0)` here, then
/// wait until `finished()` and no worker is inside `run`. On a worker of some
/// pool the scope's own wait helps with other work; elsewhere it would
/// block, and a blocking wait costs a wake-up (on a VM a good part of a
/// step), so wait for the busy workers by spinning first (`spins` times
/// before yielding). A worker that starts after this finds nothing left and
/// ends at once.
fn spread(p: &rayon::ThreadPool, t: usize, run: &(dyn Fn(usize) + Sync), finished: &(dyn Fn() -> bool + Sync), spins: u32) {
    // Workers inside `run` (a guard counts them out, also on a panic).
    let busy = AtomicUsize::new(0);
    struct Busy<'a>(&'a AtomicUsize);
    impl Drop for Busy<'_> {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::Release);
        }
    }
    let on_worker = rayon::current_thread_index().is_some();
    p.in_place_scope(|s| {
        for k in 1..t {
            let busy = &busy;
            s.spawn(move |_| {
                busy.fetch_add(1, Ordering::AcqRel);
                let _out = Busy(busy);
                run(k);
            });
        }
        run(0);
        wait_for(spins, || finished() && (on_worker || busy.load(Ordering::Acquire) == 0));
    });
}

/// Spin on `ready` (a short wait: the others are busy with items of the
/// same call), yielding the core after a while in case the thread it waits
/// for shares it.
fn wait_for(spins_first: u32, ready: impl Fn() -> bool) {
    let mut spins = 0u32;
    while !ready() {
        spins += 1;
        if spins < spins_first {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

/// Run `phases` rounds of `work(phase, item)` over the items `0..items` on
/// this thread and `threads - 1` workers of the shared pool, woken once for
/// all the rounds (a wake-up costs about as much as a short round). As in
/// [`share_out`], each thread takes the items of its own contiguous share
/// first (the same share in every phase and every call, so their data stays
/// in its core's cache), then helps with the others' remaining items, so a
/// worker that starts late (or not at all) only means fewer hands. After every item of
/// a phase has run, `after(phase)` runs once (on the thread that finished
/// the last item) before any item of the next phase starts; when it returns
/// false the later phases are skipped. Every item of every phase that runs
/// runs exactly once, so the results are the same for any thread count.
/// A panic in `work` or `after` reaches the caller.
pub(crate) fn phased(threads: usize, items: usize, phases: usize, work: impl Fn(usize, usize) + Sync, after: impl Fn(usize) -> bool + Sync) {
    let p = if threads <= 1 || items <= 1 { None } else { pool(clamp_threads(threads)).ok() };
    let Some(p) = p else {
        for phase in 0..phases {
            (0..items).for_each(|i| work(phase, i));
            if !after(phase) {
                return;
            }
        }
        return;
    };
    let t = clamp_threads(threads).min(items);
    // The next item of each thread's share, per phase.
    let next: Vec<Vec<AtomicUsize>> = (0..phases).map(|_| (0..t).map(|k| AtomicUsize::new(k * items / t)).collect()).collect();
    let done: Vec<AtomicUsize> = (0..phases).map(|_| AtomicUsize::new(0)).collect();
    // Phases whose `after` has run; `stop` is raised before `ready` moves on.
    let ready = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // Raised when a thread unwinds, so that no one waits for it.
    let broken = AtomicBool::new(false);
    struct Unwind<'a>(&'a AtomicBool);
    impl Drop for Unwind<'_> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                self.0.store(true, Ordering::Release);
            }
        }
    }
    let run = |me: usize| {
        let _unwind = Unwind(&broken);
        for phase in 0..phases {
            wait_for(1 << 12, || ready.load(Ordering::Acquire) >= phase || broken.load(Ordering::Acquire));
            if stop.load(Ordering::Acquire) || broken.load(Ordering::Acquire) {
                return;
            }
            for d in 0..t {
                let k = (me + d) % t;
                let end = (k + 1) * items / t;
                loop {
                    let i = next[phase][k].fetch_add(1, Ordering::Relaxed);
                    if i >= end {
                        break;
                    }
                    work(phase, i);
                    if done[phase].fetch_add(1, Ordering::AcqRel) + 1 == items {
                        if !after(phase) {
                            stop.store(true, Ordering::Release);
                        }
                        ready.store(phase + 1, Ordering::Release);
                    }
                }
            }
        }
    };
    // The last phase is done (or stopped) once `run(0)` returns; wait for
    // workers still inside it as `share_out` does.
    let finished = || stop.load(Ordering::Acquire) || ready.load(Ordering::Acquire) >= phases || broken.load(Ordering::Acquire);
    spread(&p, t, &run, &finished, 1 << 12);
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
        assert!(matches!(pool(0), Err(RunError::Invalid(e)) if e.argument == "threads"));
        assert!(matches!(pool(MAX_THREADS + 1), Err(RunError::Invalid(_))));
        assert_eq!(install(1, || 7).unwrap(), 7);
    }

    /// Every item of every phase runs once, after the previous phase's
    /// `after`; a false `after` skips the later phases; panics reach the
    /// caller.
    #[test]
    fn phased_runs_phases_in_order() {
        for threads in [1, 2, 3, 8] {
            for n in [0, 1, 2, 5, 100] {
                let hits: Vec<Vec<AtomicUsize>> = (0..3).map(|_| (0..n).map(|_| AtomicUsize::new(0)).collect()).collect();
                let afters = Mutex::new(Vec::new());
                let work = |p: usize, i: usize| {
                    // every item of the phase before is done
                    assert!(p == 0 || hits[p - 1].iter().all(|h| h.load(Ordering::Relaxed) == 1));
                    assert_eq!(afters.lock().unwrap().len(), p);
                    hits[p][i].fetch_add(1, Ordering::Relaxed);
                };
                phased(threads, n, 3, work, |p| {
                    afters.lock().unwrap().push(p);
                    p < 1
                });
                assert_eq!(*afters.lock().unwrap(), vec![0, 1], "{threads} threads, {n} items");
                assert!(hits[..2].iter().all(|h| h.iter().all(|x| x.load(Ordering::Relaxed) == 1)));
                assert!(hits[2].iter().all(|x| x.load(Ordering::Relaxed) == 0));
            }
        }
        let caught = std::panic::catch_unwind(|| phased(2, 20, 2, |p, i| assert!(p * 100 + i != 113, "item 13"), |_| true));
        assert!(caught.is_err());
    }

    /// Every item runs exactly once, whatever the thread count, from inside
    /// a pool or outside; a panicking item reaches the caller.
    #[test]
    fn share_out_runs_each_item_once() {
        for threads in [0, 1, 2, 3, 8, MAX_THREADS + 5] {
            for n in [0, 1, 2, 5, 100] {
                let mut hits = vec![0u32; n];
                share_out(hits.iter_mut().collect(), threads, |h: &mut u32| *h += 1);
                assert!(hits.iter().all(|&h| h == 1), "{threads} threads, {n} items");
            }
        }
        let mut hits = [0u32; 50];
        pool(2).unwrap().install(|| share_out(hits.iter_mut().collect(), 3, |h: &mut u32| *h += 1));
        assert!(hits.iter().all(|&h| h == 1));
        let caught = std::panic::catch_unwind(|| share_out((0..20).collect(), 2, |i: i32| assert!(i != 13, "item 13")));
        assert!(caught.is_err());
    }
}
