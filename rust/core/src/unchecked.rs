//! Slice access without the bounds test, for the innermost loops.
//!
//! Callers pass indices that hold by their structure's invariants (cells of
//! the board, roots of groups, entries of the board's own tables); debug
//! builds still check every access.

/// `v[i]` for an index the caller knows to be in range.
///
/// # Safety
/// `i < v.len()`.
#[inline(always)]
pub(crate) unsafe fn get<T: Copy>(v: &[T], i: usize) -> T {
    debug_assert!(i < v.len(), "index {i} out of range {}", v.len());
    // SAFETY: `i < v.len()` is this function's contract. Kept for the
    // measured gain in the module doc.
    unsafe { *v.get_unchecked(i) }
}

/// `&mut v[i]` for an index the caller knows to be in range.
///
/// # Safety
/// `i < v.len()`.
#[inline(always)]
pub(crate) unsafe fn get_mut<T>(v: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < v.len(), "index {i} out of range {}", v.len());
    // SAFETY: `i < v.len()` is this function's contract. Kept for the
    // measured gain in the module doc.
    unsafe { v.get_unchecked_mut(i) }
}
