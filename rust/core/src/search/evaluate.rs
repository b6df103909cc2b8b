//! How the searches get their leaves evaluated: the batched [`Evaluator`]
//! interface, the checks every evaluator output goes through
//! ([`check_output`]), and [`FnEvaluator`] over a Rust closure; and the
//! [`LeafEvaluator`] interface for evaluators that value one leaf on the
//! search's own thread, with [`RandomRollouts`] (UCT's evaluator).
//!
//! A wave hands the evaluator `L` leaves at once: their observations
//! (`L * C * H * W` float32, exactly [`Game::observation`](crate::Game::observation))
//! and legal-action masks (`L * num_actions`), written straight into the
//! evaluator's own buffers by `fill`; it answers with priors
//! (`L * num_actions`, any scale: they are renormalised over the legal
//! actions) and values (`L * num_players`, one per seat, seat `k` in
//! column `k - 1`).

use std::fmt;

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::{Action, Game};
use crate::outcome::{scores, MAX_SEATS};

/// Evaluates the leaves of a wave, and hosts the Rust work of the search
/// (the Python bindings release the GIL around it and poll for Ctrl-C
/// between the steps of a wave).
pub trait Evaluator {
    /// What the evaluator itself fails with (a Python exception, say).
    type Error;

    /// Run Rust work; the default runs it here.
    fn run<T: Send>(&mut self, work: impl FnOnce() -> T + Send) -> T {
        work()
    }

    /// Called between the steps of a wave; an error stops the search.
    fn check(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }

    /// Evaluate `leaves` positions: first call `fill(observations, masks)`
    /// with buffers of exactly `leaves * C * H * W` and `leaves * A`
    /// values, then write the answers to `priors` (`leaves * A`) and `values`
    /// (`leaves * P`), row by row.
    fn evaluate(
        &mut self,
        leaves: usize,
        fill: &mut (dyn FnMut(&mut [f32], &mut [bool]) + Send),
        priors: &mut Vec<f64>,
        values: &mut Vec<f64>,
    ) -> Result<(), Self::Error>;
}

/// Values one leaf from its position alone, on the search's own thread
/// (no batching): `evaluate` may play on `game` and returns the value per
/// seat.
pub trait LeafEvaluator<G: Game> {
    fn evaluate(&mut self, game: &mut G, rng: &mut Xoshiro256PlusPlus, buf: &mut Vec<Action>) -> [f64; MAX_SEATS];
}

/// Uniformly random rollouts: random actions to the end of the game, scored
/// by the outcome ([`scores`]); a rollout cut off after `max_plies` whole
/// moves is a draw.
#[derive(Debug, Clone, Copy)]
pub struct RandomRollouts {
    pub max_plies: u64,
}

impl<G: Game> LeafEvaluator<G> for RandomRollouts {
    #[inline]
    fn evaluate(&mut self, g: &mut G, rng: &mut Xoshiro256PlusPlus, buf: &mut Vec<Action>) -> [f64; MAX_SEATS] {
        let mut plies = 0u64;
        let mut finished = true;
        while let Some(a) = g.random_action(rng, buf) {
            if plies >= self.max_plies {
                finished = false;
                break;
            }
            g.apply_action(a);
            if !g.mid_turn() {
                plies += 1;
            }
        }
        scores(g.winner_mask(), finished, g.num_players())
    }
}

/// An [`Evaluator`] over a closure `f(observations, masks, leaves) ->
/// (priors, values)` with buffers of its own (for Rust users and tests).
pub struct FnEvaluator<F> {
    f: F,
    obs: Vec<f32>,
    masks: Vec<bool>,
    obs_len: usize,
    actions: usize,
}

impl<F: FnMut(&[f32], &[bool], usize) -> (Vec<f64>, Vec<f64>)> FnEvaluator<F> {
    /// `obs_len` is `C * H * W`, `actions` the number of actions.
    pub fn new(obs_len: usize, actions: usize, f: F) -> Self {
        FnEvaluator { f, obs: Vec::new(), masks: Vec::new(), obs_len, actions }
    }
}

impl<F: FnMut(&[f32], &[bool], usize) -> (Vec<f64>, Vec<f64>)> Evaluator for FnEvaluator<F> {
    type Error = std::convert::Infallible;

    fn evaluate(
        &mut self,
        leaves: usize,
        fill: &mut (dyn FnMut(&mut [f32], &mut [bool]) + Send),
        priors: &mut Vec<f64>,
        values: &mut Vec<f64>,
    ) -> Result<(), Self::Error> {
        self.obs.resize(leaves * self.obs_len, 0.0);
        self.masks.resize(leaves * self.actions, false);
        fill(&mut self.obs, &mut self.masks);
        let (p, v) = (self.f)(&self.obs, &self.masks, leaves);
        *priors = p;
        *values = v;
        Ok(())
    }
}

/// The sum numpy's `sum` gives for a float64 row: `0.0` plus the pairwise
/// sum of NumPy's `pairwise_sum` (blocks of 128, eight accumulators), so
/// that priors are normalised to exactly the numbers NumPy would give.
pub fn numpy_sum(a: &[f64]) -> f64 {
    fn pairwise(a: &[f64]) -> f64 {
        let n = a.len();
        if n < 8 {
            let mut r = 0.0;
            for &x in a {
                r += x;
            }
            r
        } else if n <= 128 {
            let mut r = [0.0; 8];
            r.copy_from_slice(&a[..8]);
            let mut i = 8;
            while i < n - n % 8 {
                for j in 0..8 {
                    r[j] += a[i + j];
                }
                i += 8;
            }
            let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
            while i < n {
                res += a[i];
                i += 1;
            }
            res
        } else {
            let mut n2 = n / 2;
            n2 -= n2 % 8;
            pairwise(&a[..n2]) + pairwise(&a[n2..])
        }
    }
    0.0 + pairwise(a)
}

/// The part of an evaluator's answer a check is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Priors,
    Values,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Part::Priors => "priors",
            Part::Values => "values",
        })
    }
}

/// Why an evaluator's answer cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputError {
    /// Not `priors` priors and `values` values (`got`: how many of each).
    Size { priors: usize, values: usize, got: (usize, usize) },
    /// A NaN or an infinity.
    NotFinite(Part),
    /// A negative prior.
    NegativePrior,
    /// A leaf whose priors are all zero on its legal actions.
    ZeroPriors { leaf: usize },
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::Size { priors, values, got } => {
                write!(f, "the evaluator must give {priors} priors and {values} values, got {} and {}", got.0, got.1)
            }
            OutputError::NotFinite(part) => write!(f, "evaluator {part} must be finite (got NaN or infinity)"),
            OutputError::NegativePrior => f.write_str("evaluator priors must be >= 0"),
            OutputError::ZeroPriors { leaf } => write!(f, "evaluator priors are all zero on the legal actions of leaf {leaf}"),
        }
    }
}

impl std::error::Error for OutputError {}

/// Check an evaluator's answer for `legal.len()` leaves (`legal[i]`: the
/// increasing legal actions of leaf `i`, numbered `first + i` in messages)
/// and renormalise each prior row over its legal actions (illegal entries
/// become 0). Errors name the first bad leaf: priors or values that are not
/// finite, negative priors, priors that are all zero on the legal actions.
pub fn check_output<'a>(
    priors: &mut [f64],
    values: &[f64],
    legal: impl Iterator<Item = &'a [crate::Action]>,
    actions: usize,
    first: usize,
) -> Result<(), OutputError> {
    // One pass for the common case (every prior finite and >= 0): a NaN
    // fails `x >= 0`, an infinity `x < inf`.
    let fine = priors.iter().fold(true, |ok, &x| ok & (0.0..f64::INFINITY).contains(&x));
    if !fine && priors.iter().any(|x| !x.is_finite()) {
        return Err(OutputError::NotFinite(Part::Priors));
    }
    if values.iter().any(|x| !x.is_finite()) {
        return Err(OutputError::NotFinite(Part::Values));
    }
    if !fine {
        return Err(OutputError::NegativePrior);
    }
    for (i, acts) in legal.enumerate() {
        let p = &mut priors[i * actions..(i + 1) * actions];
        // Zero the illegal entries in place (`acts` is increasing), then
        // divide the legal ones by the row's sum.
        let mut next = 0;
        for &a in acts {
            if next < a as usize {
                p[next..a as usize].fill(0.0);
            }
            next = next.max(a as usize + 1);
        }
        p[next..].fill(0.0);
        let sum = numpy_sum(p);
        if sum <= 0.0 {
            return Err(OutputError::ZeroPriors { leaf: first + i });
        }
        for &a in acts {
            p[a as usize] /= sum;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_checks() {
        let legal: Vec<Vec<u32>> = vec![vec![0, 2], vec![1]];
        let it = || legal.iter().map(|v| v.as_slice());
        let mut p = vec![1.0, 5.0, 3.0, 0.0, 2.0, 0.0];
        check_output(&mut p, &[0.5; 4], it(), 3, 0).unwrap();
        assert_eq!(p, vec![0.25, 0.0, 0.75, 0.0, 1.0, 0.0]);
        let mut p = vec![1.0, 5.0, 3.0, 2.0, 0.0, 2.0];
        let e = check_output(&mut p, &[0.5; 4], it(), 3, 0).unwrap_err();
        assert_eq!(e, OutputError::ZeroPriors { leaf: 1 });
        assert_eq!(e.to_string(), "evaluator priors are all zero on the legal actions of leaf 1");
        let mut p = vec![1.0, -5.0, 3.0, 0.0, 2.0, 0.0];
        assert_eq!(check_output(&mut p, &[0.5; 4], it(), 3, 0), Err(OutputError::NegativePrior));
        let mut p = vec![1.0; 6];
        let e = check_output(&mut p, &[0.5, f64::NAN, 0.0, 0.0], it(), 3, 0).unwrap_err();
        assert_eq!(e.to_string(), "evaluator values must be finite (got NaN or infinity)");
        p[3] = f64::INFINITY;
        assert_eq!(check_output(&mut p, &[0.5; 4], it(), 3, 0), Err(OutputError::NotFinite(Part::Priors)));
    }

    #[test]
    fn numpy_sum_is_pairwise() {
        let a: Vec<f64> = (0..300).map(|i| 1.0 / (i as f64 + 1.0)).collect();
        let naive: f64 = a.iter().sum();
        assert!((numpy_sum(&a) - naive).abs() < 1e-12);
        assert_eq!(numpy_sum(&a[..5]), a[..5].iter().sum::<f64>());
    }
}
