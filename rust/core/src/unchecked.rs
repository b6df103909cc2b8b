//! Slice access without the bounds test, for the innermost loops.
//!
//! Callers pass indices that hold by their structure's invariants (cells of
//! the board, roots of groups, entries of the board's own tables); debug
//! builds still check every access.
//!
//! Why unchecked (the measured reason of every `unsafe` block that reaches
//! these, in `groups.rs`, `bitset.rs` and the Churn tables): with
//! bounds-checked indexing here instead, seeded playouts took 1.29x the CPU
//! time for Churn, 1.22x for Wunchunk and 1.14x for Hex (median of 8 paired
//! rounds of `cargo bench -p hexcore-core --bench playouts -- --sample-size 1`,
//! CPU time per run on a loaded 2-core VM; the same binary run twice
//! differed by 1.00x to 1.06x). Churn's writes into uninitialised spare
//! capacity were measured the same way and showed no gain beyond that
//! spread, so they are plain pushes now.

/// `v[i]` for an index the caller knows to be in range.
///
/// # Safety
/// `i < v.len()`.
#[inline(always)]
pub(crate) unsafe fn get<T: Copy>(v: &[T], i: usize) -> T {
    debug_assert!(i < v.len(), "index {i} out of range {}", v.len());
    // SAFETY: `i < v.len()` is this function's contract. Kept unchecked
    // for the gain measured in the module doc.
    unsafe { *v.get_unchecked(i) }
}

/// `&mut v[i]` for an index the caller knows to be in range.
///
/// # Safety
/// `i < v.len()`.
#[inline(always)]
pub(crate) unsafe fn get_mut<T>(v: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < v.len(), "index {i} out of range {}", v.len());
    // SAFETY: `i < v.len()` is this function's contract. Kept unchecked
    // for the gain measured in the module doc.
    unsafe { v.get_unchecked_mut(i) }
}

/// Panic unless every id of `ids` is below `len`, testing only the largest
/// (one comparison for the list instead of one for each id): after it,
/// [`get`] and [`get_mut`] with those ids on a slice of `len` entries are
/// in range. For lists of action ids read or written once each per leaf of
/// the batched search (the gain is in `docs/performance-log.md`).
#[inline]
pub(crate) fn assert_ids_below(ids: &[crate::game::Action], len: usize) {
    if !ids_below(ids, len) {
        let top = ids.iter().copied().max().unwrap_or(0);
        panic!("action {top} out of range {len}");
    }
}

/// Whether every id of `ids` is below `len` ([`assert_ids_below`] without
/// the panic).
#[inline]
pub(crate) fn ids_below(ids: &[crate::game::Action], len: usize) -> bool {
    ids.iter()
        .copied()
        .max()
        .is_none_or(|top| (top as usize) < len)
}

/// Action ids that are all below `bound`, checked once when made, so that
/// reading or writing a slice of at least `bound` entries at them needs no
/// further check: the batched search checks a leaf's legal actions when it
/// lists them rather than in each of its three passes over them (the mask,
/// the prior sum, the edges).
#[derive(Clone, Copy, Debug)]
pub struct IdsBelow<'a> {
    ids: &'a [crate::game::Action],
    bound: usize,
}

impl<'a> IdsBelow<'a> {
    /// `ids`, checked to be below `bound` (panics otherwise).
    #[inline]
    pub fn new(ids: &'a [crate::game::Action], bound: usize) -> Self {
        assert_ids_below(ids, bound);
        IdsBelow { ids, bound }
    }

    /// `ids` as they are.
    ///
    /// # Safety
    /// Every id of `ids` is below `bound`.
    #[inline]
    pub unsafe fn new_unchecked(ids: &'a [crate::game::Action], bound: usize) -> Self {
        debug_assert!(ids_below(ids, bound), "ids below {bound}");
        IdsBelow { ids, bound }
    }

    /// The ids.
    #[inline]
    pub fn ids(self) -> &'a [crate::game::Action] {
        self.ids
    }

    /// The ids, for indexing a slice of `len` entries with [`get`] or
    /// [`get_mut`]: panics unless the bound fits it (one comparison).
    #[inline]
    pub fn within(self, len: usize) -> &'a [crate::game::Action] {
        assert!(
            self.bound <= len,
            "ids below {} for a slice of {len}",
            self.bound
        );
        self.ids
    }
}

/// Ask the CPU to bring the cache line holding `p` into its caches: a hint
/// that reads nothing and never stops the program, for data a loop will
/// need a few iterations later (batched games step envs whose states are
/// far apart in memory).
///
/// Why not a plain read: a read that misses the caches holds up every
/// later instruction until its line arrives, while a prefetch lets them
/// go on. Measured on `VecGame("hex(size=11)", 1024)`: reading each line
/// two envs ahead left those reads as the step's hottest instructions; see
/// `docs/performance-log.md` for what the prefetches gave.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch has no effect the program can observe and never
    // faults, whatever the address (it is not dereferenced); SSE, which
    // `_mm_prefetch` needs, is part of every x86-64 CPU.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// [`prefetch`] every cache line of `s`.
#[inline(always)]
pub(crate) fn prefetch_slice<T>(s: &[T]) {
    let bytes = std::mem::size_of_val(s);
    if bytes == 0 {
        return;
    }
    let p = s.as_ptr().cast::<u8>();
    let mut k = 0;
    while k < bytes {
        prefetch(p.wrapping_add(k));
        k += 64;
    }
    prefetch(p.wrapping_add(bytes - 1));
}
