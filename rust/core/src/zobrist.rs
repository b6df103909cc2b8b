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

/// Key of a piece of side information of kind `code` with `value`, e.g.
/// the player to move, a rule flag or a packed turn in progress. Each game
/// numbers its own kinds (a `Kind` enum in its folder); kinds of different
/// games may share a code, since their hashes are never compared. Every bit
/// of `value` counts: for one kind, distinct values give distinct keys
/// (`mix` is a bijection), so no two states of one kind hash alike.
#[inline]
pub const fn flag(code: u64, value: u64) -> u64 {
    mix(mix(value ^ 0xF1A6_0000_0000_0001) ^ mix(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_keeps_every_bit_of_the_value() {
        // Wunchunk packs its turn in progress (kind 16) as
        // placed << 32 | last << 16 | allot: values that differ only above
        // bit 31 must not share a key
        let turn = |placed: u64| placed << 32 | 7 << 16 | 3;
        assert_ne!(flag(16, turn(1)), flag(16, turn(2)));
        for bit in 0..64 {
            assert_ne!(flag(16, 0), flag(16, 1 << bit), "bit {bit}");
        }
        assert_ne!(flag(12, 1), flag(16, 1));
    }
}
