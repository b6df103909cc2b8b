//! Zobrist keys, computed on demand from a fixed mixing function, so they are
//! the same on every platform and need no tables.

/// SplitMix64 finaliser: a bijective 64-bit mixer.
#[inline]
pub const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Key of a piece kind (`0..64`) on a cell.
#[inline]
pub const fn piece(cell: usize, kind: u64) -> u64 {
    mix(((cell as u64) << 6 | (kind & 63)) ^ 0x5EED_C0DE_0000_0000)
}

/// Key of a small piece of side information of kind `code` with `value`,
/// e.g. the player to move or a rule flag. Each game numbers its own kinds
/// (a `Kind` enum in its folder); kinds of different games may share a code,
/// since their hashes are never compared.
#[inline]
pub const fn flag(code: u64, value: u64) -> u64 {
    mix((code << 32 | (value & 0xFFFF_FFFF)) ^ 0xF1A6_0000_0000_0001)
}
