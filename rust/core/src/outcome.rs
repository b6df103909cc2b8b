//! How a finished game pays each seat: the two conventions every part of
//! hexcore uses, in one place.
//!
//! * **Scores** (search values, per seat in `[0, 1]`): a sole winner gets 1,
//!   `k` players sharing the win `1/k` each, the losers 0. A game with no
//!   winner, or one cut off before its end, scores `1/n` for every seat.
//!   UCT and the batched searches back these up.
//! * **Rewards** (learning environments, zero-sum): a sole winner `+1` and the
//!   others `-1/(n-1)`; `k` shared winners `+1/k` each and the others
//!   `-1/(n-k)`; nobody or everybody winning is `0` for all. `VecGame` steps
//!   return these, as do the Python adapters (gymnasium, PettingZoo,
//!   OpenSpiel) through the bindings.

use crate::game::WinnerMask;

/// The most seats a score array holds.
pub const MAX_SEATS: usize = 4;

fn won(mask: WinnerMask, seat: usize) -> bool {
    seat < 8 && mask >> seat & 1 != 0
}

/// Scores per seat of a game with winners `mask` among `players` seats
/// (`finished == false`: cut off, a draw). Seats past `players` are 0.
pub fn scores(mask: WinnerMask, finished: bool, players: usize) -> [f64; MAX_SEATS] {
    let mut v = [0.0; MAX_SEATS];
    let players = players.min(MAX_SEATS);
    let k = (0..players).filter(|&i| won(mask, i)).count();
    if !finished || k == 0 {
        v[..players].fill(1.0 / players as f64);
    } else {
        for (i, x) in v.iter_mut().enumerate().take(players) {
            if won(mask, i) {
                *x = 1.0 / k as f64;
            }
        }
    }
    v
}

/// The zero-sum reward of `seat` (0-based) in a game with winners `mask`
/// among `n` seats (the one place the rule is written).
fn reward(mask: WinnerMask, n: usize, seat: usize) -> f64 {
    let k = (0..n).filter(|&s| won(mask, s)).count();
    if k == 0 || k == n {
        0.0
    } else if won(mask, seat) {
        1.0 / k as f64
    } else {
        -1.0 / (n - k) as f64
    }
}

/// Zero-sum rewards of a game with winners `mask` among `n` seats, written
/// to `out[..n]` (all 0 while nobody has won). The Python adapters take
/// these through the bindings (`hexcore._core._rewards`).
pub fn rewards(mask: WinnerMask, n: usize, out: &mut [f64]) {
    for (seat, r) in out.iter_mut().enumerate().take(n) {
        *r = reward(mask, n, seat);
    }
}

/// [`rewards`] as f32, for the vector environments' buffers.
pub fn terminal_rewards(mask: WinnerMask, n: usize, out: &mut [f32]) {
    for (seat, r) in out.iter_mut().enumerate().take(n) {
        *r = reward(mask, n, seat) as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_share_the_win() {
        assert_eq!(scores(0b01, true, 2), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(scores(0b011, true, 3), [0.5, 0.5, 0.0, 0.0]);
        assert_eq!(scores(0, true, 4), [0.25; 4]);
        assert_eq!(scores(0b01, false, 2), [0.5, 0.5, 0.0, 0.0]);
        // The f32 UCT keeps is the same number as before the move to f64.
        assert_eq!(scores(0, true, 3)[0] as f32, 1.0f32 / 3.0);
    }

    #[test]
    fn rewards_are_zero_sum() {
        let mut r = [0f32; 4];
        terminal_rewards(0b0001, 2, &mut r);
        assert_eq!(&r[..2], &[1.0, -1.0]);
        terminal_rewards(0b0011, 2, &mut r);
        assert_eq!(&r[..2], &[0.0, 0.0]);
        terminal_rewards(0b0110, 4, &mut r);
        assert_eq!(r, [-0.5, 0.5, 0.5, -0.5]);
        terminal_rewards(0b0001, 3, &mut r);
        assert_eq!(&r[..3], &[1.0, -0.5, -0.5]);
        let mut f = [0f64; 4];
        rewards(0b0001, 4, &mut f);
        assert_eq!(f, [1.0, -1.0 / 3.0, -1.0 / 3.0, -1.0 / 3.0]);
        terminal_rewards(0b0001, 4, &mut r);
        assert_eq!(r, f.map(|x| x as f32));
        rewards(0, 3, &mut f);
        assert_eq!(&f[..3], &[0.0; 3]);
    }
}
