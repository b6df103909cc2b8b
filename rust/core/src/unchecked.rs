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
