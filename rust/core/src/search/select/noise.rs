//! Root noise: Dirichlet numbers mixed into PUCT's root priors, Gumbel
//! numbers added to the Gumbel root's logits.

use rand::RngCore;
use rand_distr::Distribution;

/// `out.len()` numbers from Dirichlet(`alpha`, ..., `alpha`) into `out`:
/// Gamma(`alpha`, 1) numbers from rand_distr, divided by their sum. Panics
/// unless `alpha > 0` (the options' check comes first).
pub fn dirichlet<R: RngCore>(rng: &mut R, alpha: f64, out: &mut [f64]) {
    let gamma = rand_distr::Gamma::new(alpha, 1.0).expect("a Dirichlet alpha > 0");
    for x in out.iter_mut() {
        *x = gamma.sample(rng);
    }
    let sum: f64 = out.iter().sum();
    if sum > 0.0 && sum.is_finite() {
        out.iter_mut().for_each(|x| *x /= sum);
    } else if !out.is_empty() {
        // Every draw underflowed (a tiny alpha): all the mass on one action.
        let k = crate::rng::below(rng, out.len());
        out.iter_mut()
            .enumerate()
            .for_each(|(i, x)| *x = f64::from(u8::from(i == k)));
    }
}

/// A standard Gumbel number: `-ln E` for a standard exponential `E`
/// (drawn by rand_distr's ziggurat, which takes a logarithm only in its
/// rare tail: one logarithm a number instead of the two of `-ln(-ln U)`).
pub fn gumbel<R: RngCore>(rng: &mut R) -> f64 {
    let e: f64 = rand_distr::Exp1.sample(rng);
    // The ziggurat can give exactly 0 (about once in 2^53 draws).
    -e.max(f64::MIN_POSITIVE).ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for;

    #[test]
    fn noise_is_a_distribution() {
        let mut rng = rng_for(1, 2);
        let mut d = [0.0; 7];
        for alpha in [0.03, 0.3, 1.0, 5.0] {
            dirichlet(&mut rng, alpha, &mut d);
            assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{d:?}");
            assert!(d.iter().all(|x| (0.0..=1.0).contains(x)));
        }
        let g: Vec<f64> = (0..20000).map(|_| gumbel(&mut rng)).collect();
        let mean = g.iter().sum::<f64>() / g.len() as f64;
        // The Gumbel mean is the Euler-Mascheroni constant.
        assert!((mean - 0.5772).abs() < 0.03, "{mean}");
        // A component of Dirichlet(alpha, ..., alpha) over k actions has
        // mean 1/k and variance (1/k)(1 - 1/k)/(k alpha + 1).
        for alpha in [0.3, 2.5] {
            let (mut m, mut m2) = (0.0, 0.0);
            for _ in 0..20000 {
                dirichlet(&mut rng, alpha, &mut d);
                (m, m2) = (m + d[3], m2 + d[3] * d[3]);
            }
            let (mean, var) = (m / 20000.0, m2 / 20000.0 - (m / 20000.0) * (m / 20000.0));
            let want = (1.0 / 7.0) * (6.0 / 7.0) / (7.0 * alpha + 1.0);
            assert!(
                (mean - 1.0 / 7.0).abs() < 0.01,
                "alpha {alpha}: mean {mean}"
            );
            assert!(
                (var / want - 1.0).abs() < 0.1,
                "alpha {alpha}: variance {var}, want {want}"
            );
        }
    }
}
