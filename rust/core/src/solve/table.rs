//! The solver's transposition table, shared by every thread.
//!
//! Buckets of three entries behind a sequence lock: a writer takes the lock
//! (odd sequence number), writes, and releases it; a reader copies the
//! bucket and keeps the copy only if the sequence number was even and did
//! not change meanwhile, so no reader ever sees half of a write. A writer
//! that finds the lock taken drops its entry (that loses work, never
//! correctness). Each entry holds the full key: the packed canonical cells
//! (exact) and the side hash, the game's Zobrist key of everything but the
//! stones, so a hit is the same position up to symmetry unless two distinct
//! side states share a 64-bit hash. `zobrist::flag` keeps every bit of each
//! side value, so for one kind of side information that never happens.

use std::sync::atomic::{fence, AtomicU64, Ordering};

use super::keys::Key;
use crate::game::Action;

pub const SLOTS: usize = 3;

/// What a stored score means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The value is at least the score.
    Lower,
    /// The value is at most the score.
    Upper,
}

#[derive(Debug, Clone, Copy)]
pub struct Hit {
    pub score: i32,
    pub bound: Bound,
    /// The best action found, in the canonical frame.
    pub best: Option<Action>,
}

#[repr(C)]
struct Bucket {
    seq: AtomicU64,
    /// Per slot: cells low, cells high, side, data.
    words: [AtomicU64; 4 * SLOTS],
}

pub struct Table {
    buckets: Buckets,
    mask: u64,
    filled: AtomicU64,
}

/// The buckets, in memory from the system's allocator, asked for zeroed:
/// a fresh mapping comes zeroed from the kernel, so the pages a search never
/// touches cost nothing. The program's allocator (mimalloc, `lib.rs`)
/// recycles freed memory and so writes zeros over the whole block when it
/// hands one back: a small solve then paid for zeroing all of a 64 MiB
/// table (`hexcore.solve` of Hex 3x3: 2.3 ms a solve with the C library's
/// allocator, 30.5 ms with mimalloc's).
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    layout: std::alloc::Layout,
}

// SAFETY: `Buckets` owns its memory as a `Box<[Bucket]>` would, and
// `Bucket` is made of atomics (`Send` and `Sync`).
unsafe impl Send for Buckets {}
// SAFETY: as above.
unsafe impl Sync for Buckets {}

impl Buckets {
    /// `len` (at least 1) zeroed buckets; `Err` with the bytes asked for.
    fn zeroed(len: usize) -> Result<Buckets, usize> {
        use std::alloc::GlobalAlloc;
        let layout = std::alloc::Layout::array::<Bucket>(len)
            .map_err(|_| len.saturating_mul(std::mem::size_of::<Bucket>()))?;
        // SAFETY: the layout is non-zero (len >= 1, `Bucket` is not empty);
        // all-zero bytes are a valid `Bucket` (atomics); the pointer is
        // checked before use and freed with the same allocator and layout.
        let p = unsafe { std::alloc::System.alloc_zeroed(layout) } as *mut Bucket;
        std::ptr::NonNull::new(p)
            .map(|ptr| Buckets { ptr, len, layout })
            .ok_or(layout.size())
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `len` initialised buckets at `ptr`, owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        use std::alloc::GlobalAlloc;
        // SAFETY: allocated by `System` with this layout in `zeroed`.
        unsafe { std::alloc::System.dealloc(self.ptr.as_ptr().cast(), self.layout) }
    }
}

fn pack(score: i32, bound: Bound, work: u32, best: Option<Action>) -> u64 {
    let b = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (score as u32 as u64)
        | b << 32
        | (work.min(63) as u64) << 34
        | (best.map_or(0, |a| a as u64 + 1) & 0xFF_FFFF) << 40
}

fn unpack(d: u64) -> Option<(Hit, u32)> {
    let bound = match d >> 32 & 3 {
        0 => return None,
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    let best = (d >> 40) as u32;
    Some((
        Hit {
            score: d as u32 as i32,
            bound,
            best: (best != 0).then(|| best - 1),
        },
        (d >> 34 & 63) as u32,
    ))
}

impl Table {
    /// A table of about `bytes` bytes (at least one bucket). The memory is
    /// zeroed by the system's allocator, so untouched pages cost nothing
    /// ([`Buckets`]). `Err` with the bytes asked for when the memory cannot
    /// be had.
    pub fn new(bytes: usize) -> Result<Table, usize> {
        let per = std::mem::size_of::<Bucket>();
        let mut n = 1usize;
        while n * 2 * per <= bytes.max(per) {
            n *= 2;
        }
        let buckets = Buckets::zeroed(n)?;
        Ok(Table {
            buckets,
            mask: n as u64 - 1,
            filled: AtomicU64::new(0),
        })
    }

    /// Ask the processor to fetch a key's bucket.
    #[inline]
    pub fn prefetch(&self, key: &Key) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint; the address is inside the table.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const Bucket as *const i8;
            _mm_prefetch(p, _MM_HINT_T0);
            _mm_prefetch(p.add(64), _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn capacity(&self) -> u64 {
        self.buckets.len() as u64 * SLOTS as u64
    }

    /// Slots in use.
    pub fn filled(&self) -> u64 {
        self.filled.load(Ordering::Relaxed)
    }

    #[inline]
    fn bucket(&self, key: &Key) -> &Bucket {
        &self.buckets[(key.index_hash() & self.mask) as usize]
    }

    #[inline]
    pub fn probe(&self, key: &Key) -> Option<Hit> {
        let b = self.bucket(key);
        let s1 = b.seq.load(Ordering::Acquire);
        if s1 & 1 != 0 {
            return None;
        }
        let (lo, hi) = (key.cells as u64, (key.cells >> 64) as u64);
        let mut found = None;
        for i in 0..SLOTS {
            let w = &b.words[4 * i..4 * i + 4];
            if w[0].load(Ordering::Relaxed) == lo
                && w[1].load(Ordering::Relaxed) == hi
                && w[2].load(Ordering::Relaxed) == key.side
            {
                found = Some(w[3].load(Ordering::Relaxed));
                break;
            }
        }
        fence(Ordering::Acquire);
        if b.seq.load(Ordering::Relaxed) != s1 {
            return None;
        }
        found.and_then(unpack).map(|(h, _)| h)
    }

    /// Store a result; `work` is about log2 of the nodes it took, so cheap
    /// entries make way for expensive ones.
    pub fn store(&self, key: &Key, score: i32, bound: Bound, work: u32, best: Option<Action>) {
        let b = self.bucket(key);
        let s = b.seq.load(Ordering::Relaxed);
        if s & 1 != 0
            || b.seq
                .compare_exchange(s, s + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        // Readers that see any of the writes below also see the odd number.
        fence(Ordering::Release);
        let (lo, hi) = (key.cells as u64, (key.cells >> 64) as u64);
        let mut slot = None;
        let mut victim = 0;
        let mut victim_work = u32::MAX;
        let mut empty = false;
        for i in 0..SLOTS {
            let w = &b.words[4 * i..4 * i + 4];
            let d = w[3].load(Ordering::Relaxed);
            match unpack(d) {
                None => {
                    if victim_work > 0 || !empty {
                        victim = i;
                        victim_work = 0;
                        empty = true;
                    }
                }
                Some((h, wk)) => {
                    if w[0].load(Ordering::Relaxed) == lo
                        && w[1].load(Ordering::Relaxed) == hi
                        && w[2].load(Ordering::Relaxed) == key.side
                    {
                        // keep an exact result rather than a bound on it
                        if h.bound == Bound::Exact && bound != Bound::Exact {
                            b.seq.store(s + 2, Ordering::Release);
                            return;
                        }
                        slot = Some(i);
                        break;
                    }
                    if !empty && wk < victim_work {
                        victim = i;
                        victim_work = wk;
                    }
                }
            }
        }
        let i = slot.unwrap_or(victim);
        if slot.is_none() && empty {
            self.filled.fetch_add(1, Ordering::Relaxed);
        }
        let w = &b.words[4 * i..4 * i + 4];
        w[0].store(lo, Ordering::Relaxed);
        w[1].store(hi, Ordering::Relaxed);
        w[2].store(key.side, Ordering::Relaxed);
        w[3].store(pack(score, bound, work, best), Ordering::Relaxed);
        b.seq.store(s + 2, Ordering::Release);
    }
}
