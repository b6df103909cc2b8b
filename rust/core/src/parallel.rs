//! The one thread mechanism: one rayon pool per thread count, shared by
//! every caller (perft, playouts, searches, batched games), in a small cache
//! of recently used sizes; [`share_out`], which spreads a list of work
//! items over the calling thread and a pool's workers; and [`phased`],
//! rounds of items over a [`Team`] of threads kept from one call to the
//! next (the waves of a batched search). Rayon gives the pools; what it
//! cannot do is here: bounding the pools and joining their threads, and
//! sharing work out without waiting for a worker busy elsewhere (rayon's
//! `scope` and `join` wait for every job they start).
//!
//! At most [`POOL_CACHE`] pools are kept; asking for another size drops the
//! least recently used one, and before a new pool is built the threads of
//! every dropped pool that no call still uses are joined (a dropped pool's
//! threads end on their own, but later: calls that cycle through sizes
//! would start new threads faster than the old ones leave). The worker
//! threads of perft, playouts, the batched games and both searches (the
//! UCT trees and the batched search's [`Team`]) all come from these pools,
//! so while calls run one at a time the process holds at most
//! `POOL_CACHE * MAX_THREADS` = 1,024 of them (the four largest sizes
//! together: 1,018), besides the calling threads (from Python, a call runs
//! on a thread of its own while the interpreter's waits); a pool dropped
//! while another call still runs on it keeps its threads until that call
//! returns. The solver starts
//! its own `threads` threads for the length of a solve. Thread counts are
//! limited to [`MAX_THREADS`], and building a pool is fallible: a failure
//! (say, the OS refusing threads) is an error value, never a panic.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::thread::JoinHandle;

use crossbeam_utils::{Backoff, CachePadded};
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
            RunError::TooDeep { depth, max } => {
                write!(f, "depth {depth} is above the maximum perft depth {max}")
            }
            RunError::TooManyMoves { count } => {
                write!(
                    f,
                    "{count} legal moves is too many to list; divide at action level instead"
                )
            }
            RunError::Invalid(e) => write!(f, "{e}"),
            RunError::Threads { threads, detail } => {
                write!(
                    f,
                    "could not start {threads} worker thread{}: {detail}",
                    if *threads == 1 { "" } else { "s" }
                )
            }
        }
    }
}

impl std::error::Error for RunError {}

/// A kept pool with the handles of its threads.
struct Kept {
    threads: usize,
    pool: Arc<ThreadPool>,
    workers: Vec<JoinHandle<()>>,
}

/// A dropped pool whose threads have not been joined yet.
struct Retired {
    pool: Weak<ThreadPool>,
    workers: Vec<JoinHandle<()>>,
}

#[derive(Default)]
struct Pools {
    /// Most recently used first.
    kept: Vec<Kept>,
    retired: Vec<Retired>,
}

impl Pools {
    /// The kept pool of `threads` workers, now the most recently used.
    fn hit(&mut self, threads: usize) -> Option<Arc<ThreadPool>> {
        let i = self.kept.iter().position(|k| k.threads == threads)?;
        let hit = self.kept.remove(i);
        let p = hit.pool.clone();
        self.kept.insert(0, hit);
        Some(p)
    }

    /// Drop the least recently used pools until at most `n` are kept.
    fn keep(&mut self, n: usize) {
        while self.kept.len() > n {
            let Kept { pool, workers, .. } = self.kept.pop().expect("a kept pool");
            self.retired.push(Retired {
                pool: Arc::downgrade(&pool),
                workers,
            });
        }
    }

    /// The threads of the dropped pools that nobody holds any more (so their
    /// pool has told them to end).
    fn ending(&mut self) -> Vec<JoinHandle<()>> {
        let mut ending = Vec::new();
        self.retired.retain_mut(|r| {
            let unused = r.pool.strong_count() == 0;
            if unused {
                ending.append(&mut r.workers);
            }
            !unused
        });
        ending
    }
}

fn cache() -> &'static Mutex<Pools> {
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    POOLS.get_or_init(|| Mutex::new(Pools::default()))
}

fn lock() -> std::sync::MutexGuard<'static, Pools> {
    cache().lock().unwrap_or_else(|e| e.into_inner())
}

/// The shared pool with exactly `threads` workers (`1..=MAX_THREADS`).
pub fn pool(threads: usize) -> Result<Arc<ThreadPool>, RunError> {
    crate::limits::threads(Some(threads)).map_err(RunError::Invalid)?;
    let mut pools = lock();
    if let Some(p) = pools.hit(threads) {
        return Ok(p);
    }
    pools.keep(POOL_CACHE - 1);
    let ending = pools.ending();
    drop(pools);
    // Wait for those threads to end (outside the lock: one of them may be
    // finishing a job that asks for a pool) before starting new ones.
    let me = std::thread::current().id();
    for h in ending {
        if h.thread().id() != me {
            let _ = h.join();
        }
    }
    let mut pools = lock();
    if let Some(p) = pools.hit(threads) {
        return Ok(p);
    }
    pools.keep(POOL_CACHE - 1);
    let mut workers = Vec::with_capacity(threads);
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .spawn_handler(|t| {
            let mut b = std::thread::Builder::new().name(format!("hexcore-{}", t.index()));
            if let Some(size) = t.stack_size() {
                b = b.stack_size(size);
            }
            workers.push(b.spawn(|| t.run())?);
            Ok(())
        })
        .build()
        .map_err(|e| RunError::Threads {
            threads,
            detail: e.to_string(),
        })?;
    let p = Arc::new(built);
    pools.kept.insert(
        0,
        Kept {
            threads,
            pool: p.clone(),
            workers,
        },
    );
    Ok(p)
}

/// The thread count the infallible entry points use: `threads` clamped to
/// `1..=MAX_THREADS`.
pub(crate) fn clamp_threads(threads: usize) -> usize {
    threads.clamp(1, MAX_THREADS)
}

/// Run `f` on a pool of `threads` workers, or on the calling thread when
/// `threads <= 1`.
pub(crate) fn install<T: Send>(
    threads: usize,
    f: impl FnOnce() -> T + Send,
) -> Result<T, RunError> {
    if threads <= 1 {
        return Ok(f());
    }
    Ok(pool(threads)?.install(f))
}

/// Run `work` on every item: on this thread alone when `threads <= 1`, there
/// is one item, or the pool cannot be made (no OS threads left); else on this
/// thread and `threads - 1` workers of the shared pool (a one-step
/// [`Team`]). Each takes the items of its own share first (one of
/// `threads` contiguous shares, this thread always the first, so the data
/// of those items stays in its core's cache from one call to the next),
/// then helps with the others' remaining items. Every item runs exactly
/// once, so the results are the same for any thread count.
///
/// The workers borrow `items` and `work` only between claiming and
/// releasing their gate in [`Team::run`], which returns after every worker
/// has released it or been shut out; a panic in any of them is resumed
/// here after that.
pub(crate) fn share_out<I: Send>(items: Vec<I>, threads: usize, work: impl Fn(I) + Sync) {
    if threads <= 1 || items.len() <= 1 {
        items.into_iter().for_each(work);
        return;
    }
    team(clamp_threads(threads).min(items.len()), move |tm| {
        let (t, m) = (tm.slots.len() + 1, items.len());
        let slots: Vec<Mutex<Option<I>>> = items.into_iter().map(|x| Mutex::new(Some(x))).collect();
        // One cache line a share: each thread takes from its own without
        // stealing the line from the others.
        let next: Vec<CachePadded<AtomicUsize>> = (0..t)
            .map(|k| CachePadded::new(AtomicUsize::new(k * m / t)))
            .collect();
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
        tm.run(&share, &|| true);
    });
}

/// Where a worker's hold on the work of one step stands ([`Slot::gate`]):
/// a worker runs the borrowed work only after claiming its gate (OPEN to
/// CLAIMED, then DONE), and the caller closes every gate nobody claimed, so
/// a worker that starts late finds it closed and never touches the work.
const OPEN: u8 = 0;
const CLAIMED: u8 = 1;
const DONE: u8 = 2;
const CLOSED: u8 = 3;

/// [`Team::run`]'s `run` with its lifetime erased, so that a worker of the
/// pool (whose job must be `'static`) can hold it; called only under a
/// claimed gate.
struct Erased(*const (dyn Fn(usize) + Sync + 'static));

// SAFETY: the pointee is `Sync`, so calling it from another thread is
// sound; the pointer itself is only read there under a claimed gate.
unsafe impl Send for Erased {}

/// Spin on `ready` (a short wait: the others are busy with items of the
/// same call), yielding the core after a while in case the thread it waits
/// for shares it.
fn wait_for(ready: impl Fn() -> bool) {
    let backoff = Backoff::new();
    while !ready() {
        backoff.snooze();
    }
}

/// Run `phases` rounds of `work(phase, item)` over the items `0..items` on
/// this thread and the workers of `team`, woken once for all the rounds (a
/// wake-up costs about as much as a short round), and not at all while they
/// are still waiting for the team's next step ([`Team`]). As in
/// [`share_out`], each thread takes the items of its own contiguous share
/// first (the same share in every phase and every call, so their data stays
/// in its core's cache), then helps with the others' remaining items, so a
/// worker that starts late (or not at all) only means fewer hands. After every item of
/// a phase has run, `after(phase)` runs once (on the thread that finished
/// the last item) before any item of the next phase starts; when it returns
/// false the later phases are skipped. Every item of every phase that runs
/// runs exactly once, so the results are the same for any thread count.
/// A panic in `work` or `after` reaches the caller.
pub(crate) fn phased(
    team: &Team,
    items: usize,
    phases: usize,
    work: impl Fn(usize, usize) + Sync,
    after: impl Fn(usize) -> bool + Sync,
) {
    if team.slots.is_empty() || items <= 1 {
        for phase in 0..phases {
            (0..items).for_each(|i| work(phase, i));
            if !after(phase) {
                return;
            }
        }
        return;
    };
    let t = team.slots.len() + 1;
    // The next item of each thread's share, per phase, and the items done,
    // per phase: counters that different threads write, one cache line each.
    let padded = |x: usize| CachePadded::new(AtomicUsize::new(x));
    let next: Vec<Vec<CachePadded<AtomicUsize>>> = (0..phases)
        .map(|_| (0..t).map(|k| padded(k * items / t)).collect())
        .collect();
    let done: Vec<CachePadded<AtomicUsize>> = (0..phases).map(|_| padded(0)).collect();
    // Phases whose `after` has run (the flag every waiting thread reads);
    // `stop` is raised before `ready` moves on.
    let ready = padded(0);
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
            wait_for(|| ready.load(Ordering::Acquire) >= phase || broken.load(Ordering::Acquire));
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
    // Every item of the last phase has been taken (or the phases stopped)
    // once `run(0)` returns; `Team::run` waits for the workers still inside.
    let finished = || {
        stop.load(Ordering::Acquire)
            || ready.load(Ordering::Acquire) >= phases
            || broken.load(Ordering::Acquire)
    };
    team.run(&run, &finished);
}

/// Waiting steps ([`Backoff::snooze`]) between looks at the clock while a
/// team worker waits.
const LOOK: u32 = 64;

/// How long a team worker waits for the next step before it leaves (the
/// next step then starts it again): long enough to span
/// the evaluator call between two waves of a batched search, short enough
/// not to hold a core through a slow one.
const STAY: std::time::Duration = std::time::Duration::from_micros(300);

/// One worker place of a [`Team`].
struct Slot {
    /// `generation << 2 | state` (OPEN, CLAIMED, DONE, CLOSED): the step a
    /// worker may claim, and where it stands.
    gate: AtomicU64,
    /// The step's work (valid while its gate is claimed).
    job: Mutex<Option<Erased>>,
    /// A worker job for this place is queued or running.
    present: AtomicBool,
    /// The worker's panic, resumed by the caller.
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

/// The generation that tells a team's workers to leave.
const END: u64 = u64::MAX >> 2;

/// The calling thread and up to `threads - 1` workers of the shared pool,
/// kept from one step to the next ([`Team::run`], through [`phased`]): a
/// worker waits for the next step by spinning (for [`STAY`], then it
/// leaves and the next step starts it again), so steps that follow each
/// other closely (the waves of a batched search, with the evaluator called
/// between them) do not each wake a sleeping thread. Made by [`team`].
pub(crate) struct Team {
    pool: Option<Arc<ThreadPool>>,
    /// One cache line (or more) a place: each worker spins on its own gate.
    slots: Vec<Arc<CachePadded<Slot>>>,
    generation: AtomicU64,
}

/// Run `body` with a [`Team`] of `threads` threads (the calling thread
/// alone when `threads <= 1` or the pool cannot be made); its workers are
/// told to leave when `body` returns or unwinds.
pub(crate) fn team<T>(threads: usize, body: impl FnOnce(&Team) -> T) -> T {
    let pool = if threads <= 1 {
        None
    } else {
        pool(clamp_threads(threads)).ok()
    };
    let n = if pool.is_some() {
        clamp_threads(threads) - 1
    } else {
        0
    };
    let slots = (0..n)
        .map(|_| {
            let slot = Slot {
                gate: AtomicU64::new(CLOSED as u64),
                job: Mutex::new(None),
                present: AtomicBool::new(false),
                panic: Mutex::new(None),
            };
            Arc::new(CachePadded::new(slot))
        })
        .collect();
    let t = Team {
        pool,
        slots,
        generation: AtomicU64::new(0),
    };
    body(&t)
}

impl Drop for Team {
    fn drop(&mut self) {
        for s in &self.slots {
            s.gate.store(END << 2 | CLOSED as u64, Ordering::Release);
        }
    }
}

/// A team worker for place `k` (1-based): claims the steps opened at its
/// place and runs its share of each, until the team ends or no step came
/// for [`STAY`].
fn team_worker(slot: Arc<CachePadded<Slot>>, k: usize) {
    let mut since = std::time::Instant::now();
    let backoff = Backoff::new();
    let mut spins = 0u32;
    let mut last = 0u64;
    loop {
        let g = slot.gate.load(Ordering::Acquire);
        let (generation, state) = (g >> 2, (g & 3) as u8);
        if generation == END {
            break;
        }
        if state == OPEN
            && generation > last
            && slot
                .gate
                .compare_exchange(
                    g,
                    generation << 2 | CLAIMED as u64,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                )
                .is_ok()
        {
            let job = slot
                .job
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_ref()
                .map(|j| j.0);
            if let Some(job) = job {
                // SAFETY: the gate of this step is claimed, so the caller is
                // inside `Team::run` for it, waiting for DONE, and the
                // step's work (set before the gate opened) is alive.
                let f = unsafe { &*job };
                if let Err(e) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(k))) {
                    *slot.panic.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                }
            }
            slot.gate
                .store(generation << 2 | DONE as u64, Ordering::Release);
            last = generation;
            (since, spins) = (std::time::Instant::now(), 0);
            backoff.reset();
            continue;
        }
        spins += 1;
        if spins.is_multiple_of(LOOK) && since.elapsed() > STAY {
            break;
        }
        // Spins a little longer each time, then yields the core (to the
        // caller, on a busy machine, when it shares this core).
        backoff.snooze();
    }
    slot.present.store(false, Ordering::Release);
}

impl Team {
    /// Run `run(k)` for `k` in `1..=workers` on the team's workers and
    /// `run(0)` here, then wait until `finished()`. Each `run(k)` must leave
    /// the work done when the others do not turn up (each thread helps with
    /// every share). A worker that has not claimed its share when `run(0)`
    /// returns never runs it: this thread closes its gate rather than wait
    /// for it to wake (a wake-up costs a good part of a step on a VM, and on
    /// a loaded machine the worker may not get a core for a whole time
    /// slice: waiting for it cost 15 us a call of 80 us there, measured); a
    /// worker that has claimed it is waited for by spinning, then yielding
    /// the core. A worker not yet started is started here (a job of the
    /// pool); one already waiting from the step before claims at once.
    ///
    /// Why `unsafe` (here and in [`team_worker`]): the workers outlive this
    /// call and `run` borrows the caller's data; a worker calls it only
    /// under a claimed gate of this step, and this returns (or unwinds) only
    /// after every gate of the step is closed or done.
    fn run(&self, run: &(dyn Fn(usize) + Sync), finished: &(dyn Fn() -> bool + Sync)) {
        let Some(p) = &self.pool else {
            run(0);
            wait_for(finished);
            return;
        };
        let generation = self.generation.fetch_add(1, Ordering::Relaxed) + 1;
        // SAFETY: only the lifetime changes (same pointer, same vtable); see
        // above for why the pointer is not used past this call.
        let erased = unsafe {
            std::mem::transmute::<
                *const (dyn Fn(usize) + Sync + '_),
                *const (dyn Fn(usize) + Sync + 'static),
            >(run as *const _)
        };
        for (i, slot) in self.slots.iter().enumerate() {
            *slot.job.lock().unwrap_or_else(|e| e.into_inner()) = Some(Erased(erased));
            slot.gate
                .store(generation << 2 | OPEN as u64, Ordering::Release);
            if !slot.present.swap(true, Ordering::AcqRel) {
                let slot = slot.clone();
                p.spawn(move || team_worker(slot, i + 1));
            }
        }
        /// Closes each place's gate of this step if unclaimed, else waits
        /// for it to be done (also while unwinding).
        struct Close<'a>(&'a [Arc<CachePadded<Slot>>], u64);
        impl Drop for Close<'_> {
            fn drop(&mut self) {
                let (open, closed) = (self.1 << 2 | OPEN as u64, self.1 << 2 | CLOSED as u64);
                for s in self.0 {
                    if s.gate
                        .compare_exchange(open, closed, Ordering::AcqRel, Ordering::Acquire)
                        .is_err()
                    {
                        wait_for(|| s.gate.load(Ordering::Acquire) != self.1 << 2 | CLAIMED as u64);
                    }
                }
            }
        }
        let close = Close(&self.slots, generation);
        run(0);
        drop(close);
        wait_for(finished);
        for s in &self.slots {
            if let Some(e) = s.panic.lock().unwrap_or_else(|e| e.into_inner()).take() {
                std::panic::resume_unwind(e);
            }
        }
    }
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
        // Under Miri (scripts/test.sh), fewer and smaller pools: each thread is interpreted.
        let more = if cfg!(miri) {
            POOL_CACHE + 1
        } else {
            2 * POOL_CACHE
        };
        for t in 4..4 + more {
            pool(t).unwrap();
        }
        assert!(cache().lock().unwrap().kept.len() <= POOL_CACHE);
        // A size dropped from the cache is built again on demand.
        let c = pool(3).unwrap();
        assert_eq!(c.current_num_threads(), 3);
        assert!(matches!(pool(0), Err(RunError::Invalid(e)) if e.argument == "threads"));
        assert!(matches!(pool(MAX_THREADS + 1), Err(RunError::Invalid(_))));
        assert_eq!(install(1, || 7).unwrap(), 7);
    }

    /// Every item of every phase runs once, after the previous phase's
    /// `after`; a false `after` skips the later phases; panics reach the
    /// caller. One team runs several steps, with its workers still waiting
    /// or gone (a pause longer than `STAY`) in between.
    #[test]
    fn phased_runs_phases_in_order() {
        let (threads, big) = if cfg!(miri) {
            (&[1, 3][..], 9)
        } else {
            (&[1, 2, 3, 8][..], 100)
        };
        for &threads in threads {
            team(threads, |tm| {
                for (step, n) in [0, 1, 2, 5, big, big, 7].into_iter().enumerate() {
                    if step == 5 {
                        std::thread::sleep(STAY * 3);
                    }
                    let hits: Vec<Vec<AtomicUsize>> = (0..3)
                        .map(|_| (0..n).map(|_| AtomicUsize::new(0)).collect())
                        .collect();
                    let afters = Mutex::new(Vec::new());
                    let work = |p: usize, i: usize| {
                        // every item of the phase before is done
                        assert!(
                            p == 0 || hits[p - 1].iter().all(|h| h.load(Ordering::Relaxed) == 1)
                        );
                        assert_eq!(afters.lock().unwrap().len(), p);
                        hits[p][i].fetch_add(1, Ordering::Relaxed);
                    };
                    phased(tm, n, 3, work, |p| {
                        afters.lock().unwrap().push(p);
                        p < 1
                    });
                    assert_eq!(
                        *afters.lock().unwrap(),
                        vec![0, 1],
                        "{threads} threads, {n} items"
                    );
                    assert!(hits[..2]
                        .iter()
                        .all(|h| h.iter().all(|x| x.load(Ordering::Relaxed) == 1)));
                    assert!(hits[2].iter().all(|x| x.load(Ordering::Relaxed) == 0));
                }
            });
        }
        let caught = std::panic::catch_unwind(|| {
            team(2, |tm| {
                phased(
                    tm,
                    20,
                    2,
                    |p, i| assert!(p * 100 + i != 113, "item 13"),
                    |_| true,
                )
            })
        });
        assert!(caught.is_err());
        // A team after the panic works.
        let count = AtomicUsize::new(0);
        team(2, |tm| {
            (0..3).for_each(|_| {
                phased(
                    tm,
                    20,
                    2,
                    |_, _| _ = count.fetch_add(1, Ordering::Relaxed),
                    |_| true,
                )
            })
        });
        assert_eq!(count.load(Ordering::Relaxed), 120);
    }

    /// Every item runs exactly once, whatever the thread count, from inside
    /// a pool or outside; a panicking item reaches the caller.
    #[test]
    fn share_out_runs_each_item_once() {
        let big = if cfg!(miri) { 9 } else { 100 };
        for threads in [0, 1, 2, 3, 8, MAX_THREADS + 5] {
            for n in [0, 1, 2, 5, big] {
                let mut hits = vec![0u32; n];
                share_out(hits.iter_mut().collect(), threads, |h: &mut u32| *h += 1);
                assert!(hits.iter().all(|&h| h == 1), "{threads} threads, {n} items");
            }
        }
        let mut hits = [0u32; 50];
        pool(2)
            .unwrap()
            .install(|| share_out(hits.iter_mut().collect(), 3, |h: &mut u32| *h += 1));
        assert!(hits.iter().all(|&h| h == 1));
        let caught = std::panic::catch_unwind(|| {
            share_out((0..20).collect(), 2, |i: i32| assert!(i != 13, "item 13"))
        });
        assert!(caught.is_err());
    }

    /// With every worker of the pool busy elsewhere, `share_out` and
    /// `phased` run everything on the calling thread and return without
    /// waiting for a worker to turn up (the jobs they left find their gates
    /// closed when the workers come back).
    #[test]
    fn the_caller_does_not_wait_for_busy_workers() {
        use std::sync::mpsc::channel;
        let p = pool(2).unwrap();
        let (started, on) = channel();
        let (release, wait) = channel::<()>();
        let (ended, released) = channel::<bool>();
        let wait = Arc::new(Mutex::new(wait));
        for _ in 0..2 {
            let (started, wait, ended) = (started.clone(), wait.clone(), ended.clone());
            p.spawn(move || {
                started.send(()).unwrap();
                // Held until the test releases it (or a minute has passed,
                // so that a regression fails instead of hanging).
                let got = wait
                    .lock()
                    .unwrap()
                    .recv_timeout(std::time::Duration::from_secs(60));
                ended.send(got.is_ok()).unwrap();
            });
        }
        on.recv().unwrap();
        on.recv().unwrap();
        let mut hits = vec![0u32; 100];
        share_out(hits.iter_mut().collect(), 2, |h: &mut u32| *h += 1);
        assert!(hits.iter().all(|&h| h == 1));
        let count = AtomicUsize::new(0);
        team(2, |tm| {
            phased(
                tm,
                10,
                2,
                |_, _| _ = count.fetch_add(1, Ordering::Relaxed),
                |_| true,
            )
        });
        assert_eq!(count.load(Ordering::Relaxed), 20);
        // Both blockers were still holding the workers: nothing above waited for them.
        release.send(()).unwrap();
        release.send(()).unwrap();
        assert!(
            released.recv().unwrap() && released.recv().unwrap(),
            "a worker was waited for"
        );
    }
}
