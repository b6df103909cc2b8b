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

/// The kinds of side information the games hash besides the pieces: every
/// game's kinds, in one place. Each kind has a fixed code (its place in the
/// key), and kinds of different games may share a code, since their hashes
/// are never compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Churn: the swap is on offer.
    ChurnSwap,
    /// Churn: the player to move.
    ChurnToMove,
    /// Quintun: the player to move.
    QuintunToMove,
    /// Quintun: the swap is on offer.
    QuintunSwap,
    /// Quintun: the neutral placed in the turn in progress.
    QuintunPending,
    /// Wunchunk: the seat to move.
    WunchunkToMove,
    /// Wunchunk: the phase (or the game being over).
    WunchunkPhase,
    /// Wunchunk: consecutive passes.
    WunchunkPasses,
    /// Wunchunk: regular turns colour 1 has completed (balance rule).
    WunchunkColour1Turns,
    /// Wunchunk: the swap is on offer.
    WunchunkSwapReady,
    /// Wunchunk: the seats have swapped.
    WunchunkSwapped,
    /// Wunchunk: the turn in progress (placed, last cell, allotment).
    WunchunkTurn,
}

impl Kind {
    /// The kind's code in the key.
    pub const fn code(self) -> u64 {
        match self {
            Kind::ChurnSwap => 1,
            Kind::ChurnToMove => 2,
            Kind::QuintunToMove => 1,
            Kind::QuintunSwap => 2,
            Kind::QuintunPending => 3,
            Kind::WunchunkToMove => 10,
            Kind::WunchunkPhase => 11,
            Kind::WunchunkPasses => 12,
            Kind::WunchunkColour1Turns => 13,
            Kind::WunchunkSwapReady => 14,
            Kind::WunchunkSwapped => 15,
            Kind::WunchunkTurn => 16,
        }
    }
}

/// Key of a piece of side information of kind `what` with `value`, e.g.
/// the player to move, a rule flag or a packed turn in progress. Every bit
/// of `value` counts: for one kind, distinct values give distinct keys
/// (`mix` is a bijection), so no two states of one kind hash alike.
#[inline]
pub const fn flag(what: Kind, value: u64) -> u64 {
    mix(mix(value ^ 0xF1A6_0000_0000_0001) ^ what.code() << 56)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_keeps_every_bit_of_the_value() {
        // Wunchunk packs its turn in progress as placed << 32 | last << 16 | allot:
        // values that differ only above bit 31 must not share a key
        let turn = |placed: u64| placed << 32 | 7 << 16 | 3;
        assert_ne!(flag(Kind::WunchunkTurn, turn(1)), flag(Kind::WunchunkTurn, turn(2)));
        for bit in 0..64 {
            assert_ne!(flag(Kind::WunchunkTurn, 0), flag(Kind::WunchunkTurn, 1 << bit), "bit {bit}");
        }
        assert_ne!(flag(Kind::WunchunkPasses, 1), flag(Kind::WunchunkTurn, 1));
    }
}
