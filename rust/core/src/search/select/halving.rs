//! mctx's sequential halving (`seq_halving.py`): how many visits the root's
//! considered action of each Gumbel simulation has had.

/// mctx's `get_sequence_of_considered_visits`: the visit count that the
/// root's `k`-th simulation goes to (sequential halving of `simulations`
/// among `considered` actions, halving down to 2).
pub fn considered_visits(considered: usize, simulations: usize) -> Vec<u32> {
    if considered <= 1 {
        return (0..simulations as u32).collect();
    }
    let log2max = (considered as f64).log2().ceil() as usize;
    let mut seq = Vec::with_capacity(simulations);
    let mut visits = vec![0u32; considered];
    let mut num = considered;
    while seq.len() < simulations {
        let extra = ((simulations as f64 / (log2max * num) as f64) as usize).max(1);
        for _ in 0..extra {
            seq.extend_from_slice(&visits[..num]);
            for v in visits.iter_mut().take(num) {
                *v += 1;
            }
        }
        num = (num / 2).max(2);
    }
    seq.truncate(simulations);
    seq
}

/// Element `index` of [`considered_visits`]`(considered, simulations)`,
/// computed without making the sequence: within a halving phase every
/// considered action has the same count, so the phases can be skipped
/// whole.
/// In integers (no logarithm or division of floats per call): `ceil(log2
/// n)` is the bit length of `n - 1`, and the floor of a quotient of
/// integers below 2^53 is the integer quotient (checked against the
/// sequence in the tests).
pub fn considered_visit(considered: usize, simulations: usize, index: usize) -> u32 {
    if considered <= 1 {
        return index as u32;
    }
    let log2max = (usize::BITS - (considered - 1).leading_zeros()) as usize;
    let (mut pos, mut num, mut visit) = (0usize, considered, 0u32);
    loop {
        let extra = (simulations / (log2max * num)).max(1);
        if index < pos + extra * num {
            return visit + ((index - pos) / num) as u32;
        }
        pos += extra * num;
        visit += extra as u32;
        num = (num / 2).max(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_halving_matches_mctx() {
        // mctx seq_halving_test: get_sequence_of_considered_visits(4, 8) and (2, 8)...
        assert_eq!(considered_visits(4, 8), vec![0, 0, 0, 0, 1, 1, 2, 2]);
        assert_eq!(considered_visits(2, 8), vec![0, 0, 1, 1, 2, 2, 3, 3]);
        assert_eq!(considered_visits(1, 4), vec![0, 1, 2, 3]);
        assert_eq!(considered_visits(16, 32).len(), 32);
        assert_eq!(considered_visits(16, 32)[..16], [0; 16]);
        for m in (0..70).chain([127, 128, 129, 255, 256, 257, 763, 1024, 1025]) {
            for n in [1, 2, 3, 7, 8, 16, 31, 32, 50, 200, 1000, 4099] {
                let seq = considered_visits(m, n);
                for (k, &v) in seq.iter().enumerate() {
                    assert_eq!(considered_visit(m, n, k), v, "m {m} n {n} k {k}");
                }
            }
        }
    }
}
