//! How the searches get their leaves evaluated: the batched [`Evaluator`]
//! interface, the checks every evaluator output goes through
//! ([`check_rows`]), and [`FnEvaluator`] over a Rust closure; and the
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
use crate::unchecked::{self, IdsBelow};

/// An evaluator's answer, row by row, in the type it came in (float32 is
/// read as f64, which is exact).
#[derive(Debug, Clone, Copy)]
pub enum Rows<'a> {
    F32(&'a [f32]),
    F64(&'a [f64]),
}

impl<'a> Rows<'a> {
    pub fn len(&self) -> usize {
        match self {
            Rows::F32(x) => x.len(),
            Rows::F64(x) => x.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number `i`.
    #[inline]
    pub fn get(&self, i: usize) -> f64 {
        match self {
            Rows::F32(x) => f64::from(x[i]),
            Rows::F64(x) => x[i],
        }
    }

    /// Numbers `range`.
    pub fn part(&self, range: std::ops::Range<usize>) -> Rows<'a> {
        match self {
            Rows::F32(x) => Rows::F32(&x[range]),
            Rows::F64(x) => Rows::F64(&x[range]),
        }
    }

    /// Whether every number is finite and `>= 0` (a NaN fails `x >= 0`, an
    /// infinity `x < inf`). Float32 answers (the usual ones, and the long
    /// rows: every action of every leaf) are read by their bits, a form the
    /// compiler turns into vector instructions.
    fn all_nonneg(&self) -> bool {
        match self {
            // A first pass that counts -0 as negative (one add and two ors a
            // number), the exact one only when it fails.
            Rows::F32(x) => {
                x.iter().fold(0u32, |acc, &v| {
                    acc | v.to_bits() | v.to_bits().wrapping_add(0x0080_0000)
                }) >> 31
                    == 0
                    || x.iter().fold(0u32, |acc, &v| acc | f32_not_nonneg(v)) >> 31 == 0
            }
            Rows::F64(x) => x
                .iter()
                .fold(true, |ok, &v| ok & (0.0..f64::INFINITY).contains(&v)),
        }
    }

    /// Whether every number is finite.
    fn all_finite(&self) -> bool {
        match self {
            Rows::F32(x) => x.iter().fold(true, |ok, &v| ok & v.is_finite()),
            Rows::F64(x) => x.iter().fold(true, |ok, &v| ok & v.is_finite()),
        }
    }
}

/// A number whose top bit is set when `v` is not a finite number `>= 0`
/// (negative, infinite or NaN; -0 counts as 0), without a branch: with the
/// bits of -0 taken as those of 0, a finite `v >= 0` has bits at most
/// `0x7F7F_FFFF`, which stay below `2^31` when `0x0080_0000` (the exponent's
/// lowest bit) is added, an infinity or a NaN of either sign reaches the top
/// bit with it, and any other negative number has it set already.
#[inline]
fn f32_not_nonneg(v: f32) -> u32 {
    let b = v.to_bits();
    let m = if b == 0x8000_0000 { 0 } else { b };
    m | m.wrapping_add(0x0080_0000)
}

/// Evaluates the leaves of a wave, and hosts the Rust work of the search
/// (the Python bindings release the GIL around it and poll for Ctrl-C
/// between waves).
///
/// The evaluator owns the input buffers: room for `rows` leaves
/// (`rows * C * H * W` observation numbers, `rows * A` mask entries), made
/// by [`Evaluator::inputs`]. A wave's inputs are written into them, the
/// evaluator answers for their first `leaves` rows, and the search reads
/// the answer while it writes the next wave's inputs into the same buffers.
pub trait Evaluator {
    /// What the evaluator itself fails with (a Python exception, say).
    type Error;

    /// Run Rust work; the default runs it here.
    fn run<T: Send>(&mut self, work: impl FnOnce() -> T + Send) -> T {
        work()
    }

    /// Called between waves; an error stops the search.
    fn check(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }

    /// Make the input buffers (room for at least `rows` leaves) and run
    /// `fill(observations, masks)` on them, as Rust work.
    fn inputs<T: Send>(
        &mut self,
        rows: usize,
        fill: impl FnOnce(&mut [f32], &mut [bool]) -> T + Send,
    ) -> Result<T, Self::Error>;

    /// Evaluate the first `leaves` rows of the input buffers, then run
    /// `take(priors, values, observations, masks)` as Rust work with the
    /// answer (`leaves * A` priors and `leaves * P` values, row by row,
    /// unchecked) and the input buffers, free again.
    fn evaluate<T: Send>(
        &mut self,
        leaves: usize,
        take: impl FnOnce(Rows<'_>, Rows<'_>, &mut [f32], &mut [bool]) -> T + Send,
    ) -> Result<T, Self::Error>;
}

/// Values one leaf from its position alone, on the search's own thread
/// (no batching): `evaluate` may play on `game` and returns the value per
/// seat.
pub trait LeafEvaluator<G: Game> {
    fn evaluate(
        &mut self,
        game: &mut G,
        rng: &mut Xoshiro256PlusPlus,
        buf: &mut Vec<Action>,
    ) -> [f64; MAX_SEATS];
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
    fn evaluate(
        &mut self,
        g: &mut G,
        rng: &mut Xoshiro256PlusPlus,
        buf: &mut Vec<Action>,
    ) -> [f64; MAX_SEATS] {
        let finished = g.random_rollout(rng, self.max_plies, buf);
        scores(g.winner_mask(), finished, g.num_players())
    }
}

/// Observation and mask buffers an [`Evaluator`] keeps for the search to
/// fill ([`Evaluator::inputs`]), grown to the largest wave seen.
pub struct InputBuffers {
    pub obs: Vec<f32>,
    pub masks: Vec<bool>,
    obs_len: usize,
    actions: usize,
}

impl InputBuffers {
    /// `obs_len` is `C * H * W`, `actions` the number of actions.
    pub fn new(obs_len: usize, actions: usize) -> Self {
        InputBuffers {
            obs: Vec::new(),
            masks: Vec::new(),
            obs_len,
            actions,
        }
    }

    /// Room for `rows` leaves, then `fill(observations, masks)`.
    pub fn fill<T>(&mut self, rows: usize, fill: impl FnOnce(&mut [f32], &mut [bool]) -> T) -> T {
        self.obs
            .resize(self.obs.len().max(rows * self.obs_len), 0.0);
        self.masks
            .resize(self.masks.len().max(rows * self.actions), false);
        fill(&mut self.obs, &mut self.masks)
    }

    /// The first `leaves` rows: (observations, masks).
    pub fn rows(&self, leaves: usize) -> (&[f32], &[bool]) {
        (
            &self.obs[..leaves * self.obs_len],
            &self.masks[..leaves * self.actions],
        )
    }
}

/// An [`Evaluator`] over a closure `f(observations, masks, leaves) ->
/// (priors, values)` with buffers of its own (for Rust users and tests).
pub struct FnEvaluator<F> {
    f: F,
    inputs: InputBuffers,
}

impl<F: FnMut(&[f32], &[bool], usize) -> (Vec<f64>, Vec<f64>)> FnEvaluator<F> {
    /// `obs_len` is `C * H * W`, `actions` the number of actions.
    pub fn new(obs_len: usize, actions: usize, f: F) -> Self {
        FnEvaluator {
            f,
            inputs: InputBuffers::new(obs_len, actions),
        }
    }
}

impl<F: FnMut(&[f32], &[bool], usize) -> (Vec<f64>, Vec<f64>)> Evaluator for FnEvaluator<F> {
    type Error = std::convert::Infallible;

    fn inputs<T: Send>(
        &mut self,
        rows: usize,
        fill: impl FnOnce(&mut [f32], &mut [bool]) -> T + Send,
    ) -> Result<T, Self::Error> {
        Ok(self.inputs.fill(rows, fill))
    }

    fn evaluate<T: Send>(
        &mut self,
        leaves: usize,
        take: impl FnOnce(Rows<'_>, Rows<'_>, &mut [f32], &mut [bool]) -> T + Send,
    ) -> Result<T, Self::Error> {
        let (obs, masks) = self.inputs.rows(leaves);
        let (p, v) = (self.f)(obs, masks, leaves);
        let b = &mut self.inputs;
        Ok(take(Rows::F64(&p), Rows::F64(&v), &mut b.obs, &mut b.masks))
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
    Size {
        priors: usize,
        values: usize,
        got: (usize, usize),
    },
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
            OutputError::Size {
                priors,
                values,
                got,
            } => {
                write!(
                    f,
                    "the evaluator must give {priors} priors and {values} values, got {} and {}",
                    got.0, got.1
                )
            }
            OutputError::NotFinite(part) => {
                write!(f, "evaluator {part} must be finite (got NaN or infinity)")
            }
            OutputError::NegativePrior => f.write_str("evaluator priors must be >= 0"),
            OutputError::ZeroPriors { leaf } => write!(
                f,
                "evaluator priors are all zero on the legal actions of leaf {leaf}"
            ),
        }
    }
}

impl std::error::Error for OutputError {}

/// [`numpy_sum`] of `row` with every entry but those at the increasing
/// positions `at` zeroed (a prior row over its legal actions), read in
/// place: the pairwise blocks with no such position sum to zero and are
/// skipped, the others add their numbers in NumPy's order, so the result
/// is NumPy's sum of the masked row but costs only the positions given (up
/// to the sign of a zero sum). Panics if a position is not in the row.
pub fn numpy_sum_sparse<T: Copy + Into<f64>>(at: &[crate::Action], row: &[T]) -> f64 {
    numpy_sum_of(IdsBelow::new(at, row.len()), row)
}

/// [`numpy_sum_sparse`] at positions checked before ([`IdsBelow`]).
pub fn numpy_sum_of<T: Copy + Into<f64>>(at: IdsBelow<'_>, row: &[T]) -> f64 {
    let at = at.within(row.len());
    let get = |a: usize| -> f64 {
        // SAFETY: every position read is an id of `at` (a group's `a + j`,
        // `j < 8`, is one: its last is `a + 7`), each below `row.len()`
        // (`IdsBelow::within`).
        unsafe { unchecked::get(row, a) }.into()
    };
    /// The block `offset..offset + n` of NumPy's recursion, reading the
    /// positions from `at[*i..]` (those below the block's end are its own:
    /// the blocks come in increasing order, so one cursor serves them all
    /// and no block searches for its share).
    fn pairwise(
        at: &[crate::Action],
        get: &impl Fn(usize) -> f64,
        i: &mut usize,
        offset: usize,
        n: usize,
    ) -> f64 {
        let end = offset + n;
        let below = |i: usize, limit: usize| at.get(i).is_some_and(|&a| (a as usize) < limit);
        if !below(*i, end) {
            // No position in the block: its numbers are all zero.
            0.0
        } else if n < 8 {
            let mut r = 0.0;
            while below(*i, end) {
                r += get(at[*i] as usize);
                *i += 1;
            }
            r
        } else if n <= 128 {
            // Accumulator j starts with number j and adds numbers j + 8k up
            // to the last whole group of 8 (a zero accumulator plus x is x,
            // so the first number can be added like the others; `offset` is
            // a multiple of 8); the rest is added after. A whole group of
            // eight positions is added lane by lane at once (the same sums).
            let whole = end - n % 8;
            let mut r = [0.0; 8];
            let start = *i;
            let mid = start + at[start..].partition_point(|&a| (a as usize) < whole);
            let ats = &at[start..mid];
            if 2 * ats.len() >= whole - offset {
                // Many positions: whole groups of eight are added lane by
                // lane at once (the same sums, as vector adds).
                let mut k = 0;
                while k < ats.len() {
                    let a = ats[k] as usize;
                    match ats.get(k + 7) {
                        Some(&last) if a.is_multiple_of(8) && last as usize == a + 7 => {
                            for (j, x) in r.iter_mut().enumerate() {
                                *x += get(a + j);
                            }
                            k += 8;
                        }
                        _ => {
                            r[a & 7] += get(a);
                            k += 1;
                        }
                    }
                }
            } else {
                for &a in ats {
                    r[a as usize & 7] += get(a as usize);
                }
            }
            *i = mid;
            let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
            while below(*i, end) {
                res += get(at[*i] as usize);
                *i += 1;
            }
            res
        } else {
            let mut n2 = n / 2;
            n2 -= n2 % 8;
            let left = pairwise(at, get, i, offset, n2);
            left + pairwise(at, get, i, offset + n2, n - n2)
        }
    }
    0.0 + pairwise(at, &get, &mut 0, 0, row.len())
}

/// Check an evaluator's answer for `legal.len()` leaves (`legal[i]`: the
/// increasing legal actions of leaf `i`, numbered `first + i` in messages)
/// and push onto `sums` the sum of each prior row over its legal actions
/// (the sum NumPy gives for the row with its illegal entries zeroed: the
/// normalised prior of a legal action is its prior over this sum). Errors
/// name the first bad leaf: priors or values that are not finite, negative
/// priors, priors that are all zero on the legal actions.
#[inline(never)]
pub fn check_rows<'a>(
    priors: Rows<'_>,
    values: Rows<'_>,
    legal: impl Iterator<Item = IdsBelow<'a>>,
    actions: usize,
    first: usize,
    sums: &mut Vec<f64>,
) -> Result<(), OutputError> {
    let fine = priors.all_nonneg();
    if !fine && !priors.all_finite() {
        return Err(OutputError::NotFinite(Part::Priors));
    }
    if !values.all_finite() {
        return Err(OutputError::NotFinite(Part::Values));
    }
    if !fine {
        return Err(OutputError::NegativePrior);
    }
    let mut push = |i: usize, sum: f64| {
        if sum <= 0.0 {
            return Err(OutputError::ZeroPriors { leaf: first + i });
        }
        sums.push(sum);
        Ok(())
    };
    if actions > PAIRWISE_BLOCK {
        // Rows of several NumPy blocks: summed in one pass along a plan of
        // the blocks made once per thread.
        return PLAN.with_borrow_mut(|plan| {
            if plan.n != actions {
                *plan = PairwisePlan::new(actions);
            }
            for (i, acts) in legal.enumerate() {
                let rows = i * actions..(i + 1) * actions;
                let sum = match priors {
                    Rows::F32(x) => plan.sum(acts.ids(), &x[rows]),
                    Rows::F64(x) => plan.sum(acts.ids(), &x[rows]),
                };
                push(i, sum)?;
            }
            Ok(())
        });
    }
    for (i, acts) in legal.enumerate() {
        // Each row on its own: an index into it needs no addition.
        let row = i * actions..(i + 1) * actions;
        let sum = match priors {
            Rows::F32(x) => numpy_sum_of(acts, &x[row]),
            Rows::F64(x) => numpy_sum_of(acts, &x[row]),
        };
        push(i, sum)?;
    }
    Ok(())
}

/// `row[a]` for each `a` of `acts`, the indices checked once for the list
/// ([`IdsBelow`]) rather than one by one.
#[inline]
pub fn at<'r, T: Copy>(row: &'r [T], acts: IdsBelow<'r>) -> impl Iterator<Item = T> + 'r {
    let acts = acts.within(row.len());
    // SAFETY: every index is below the row's length (`IdsBelow::within`).
    // Unchecked: about two instructions fewer a legal action of every leaf
    // (callgrind, the batched search on Churn side 7: see
    // docs/performance-log.md).
    acts.iter()
        .map(move |&a| unsafe { unchecked::get(row, a as usize) })
}

/// The longest run NumPy's pairwise sum adds without splitting it.
const PAIRWISE_BLOCK: usize = 128;

thread_local! {
    /// [`check_rows`]'s plan for rows of more than one block.
    static PLAN: std::cell::RefCell<PairwisePlan> = std::cell::RefCell::new(PairwisePlan::new(0));
}

/// NumPy's pairwise sum of rows of `n` numbers, laid out once: its leaf
/// blocks in order (each `(whole, end)`: eight accumulators up to `whole`,
/// then the rest one by one up to `end`), so that a row that is zero except
/// at some positions is summed in one pass over those positions, with no
/// search for each block's share ([`numpy_sum_sparse`] gives the same sums).
pub struct PairwisePlan {
    n: usize,
    leaves: Vec<(usize, usize)>,
    /// The additions of the blocks' sums NumPy makes, in its order: each
    /// adds two earlier entries of `sums` (the blocks', then the
    /// additions').
    adds: Vec<(u32, u32)>,
    /// Working space: the blocks' sums.
    sums: Vec<f64>,
}

impl PairwisePlan {
    pub fn new(n: usize) -> PairwisePlan {
        /// Where a part's sum is in `sums`: a block's, or an addition's
        /// (after all the blocks').
        #[derive(Clone, Copy)]
        enum Slot {
            Block(usize),
            Add(usize),
        }
        /// Lay out the blocks of `n` numbers from `offset`, and the additions
        /// that combine their sums; returns where this part's sum will be.
        fn lay(
            offset: usize,
            n: usize,
            out: &mut Vec<(usize, usize)>,
            adds: &mut Vec<(Slot, Slot)>,
        ) -> Slot {
            if n <= PAIRWISE_BLOCK {
                let end = offset + n;
                // Below 8 numbers NumPy adds them one by one.
                out.push((if n < 8 { offset } else { end - n % 8 }, end));
                Slot::Block(out.len() - 1)
            } else {
                let mut n2 = n / 2;
                n2 -= n2 % 8;
                let left = lay(offset, n2, out, adds);
                let right = lay(offset + n2, n - n2, out, adds);
                adds.push((left, right));
                Slot::Add(adds.len() - 1)
            }
        }
        let (mut leaves, mut adds) = (Vec::new(), Vec::new());
        lay(0, n, &mut leaves, &mut adds);
        let index = |s: Slot| match s {
            Slot::Block(i) => i as u32,
            Slot::Add(i) => (leaves.len() + i) as u32,
        };
        let adds = adds.iter().map(|&(a, b)| (index(a), index(b))).collect();
        PairwisePlan {
            n,
            leaves,
            adds,
            sums: Vec::new(),
        }
    }

    /// NumPy's sum of `row` with every entry but those at the positions
    /// `at` (increasing, below `n`) zeroed (up to the sign of a zero sum),
    /// read in place.
    #[inline]
    pub fn sum<T: Copy + Into<f64>>(&mut self, at: &[crate::Action], row: &[T]) -> f64 {
        assert_eq!(row.len(), self.n, "a row of the plan's length");
        let get = |a: usize| -> f64 {
            // SAFETY: called below only with a position below its block's
            // end, and no block ends past `n`, the row's length.
            unsafe { unchecked::get(row, a) }.into()
        };
        self.sums.clear();
        let mut k = 0;
        for &(whole, end) in &self.leaves {
            // a zero accumulator plus x is x: the first numbers are added like the others
            let mut r = [0.0; 8];
            while let Some(&a) = at.get(k).filter(|&&a| (a as usize) < whole) {
                r[a as usize & 7] += get(a as usize);
                k += 1;
            }
            let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
            while let Some(&a) = at.get(k).filter(|&&a| (a as usize) < end) {
                res += get(a as usize);
                k += 1;
            }
            self.sums.push(res);
        }
        // NumPy's additions of the blocks' sums, in its order.
        for &(a, b) in &self.adds {
            let x = self.sums[a as usize] + self.sums[b as usize];
            self.sums.push(x);
        }
        0.0 + self.sums.last().copied().unwrap_or(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for;
    use rand::RngCore;

    /// A game's [`Game::random_rollout`] plays as the loop of `random_action`
    /// and `apply_action` it stands for: from positions along random games,
    /// with and without a cut-off, the same outcome, and the generator left
    /// in the same state.
    fn rollout_as_drawn<G: Game>(start: &G) {
        let mut buf = Vec::new();
        let mut pos = start.clone();
        let mut walk = rng_for(7, 7);
        for step in 0u64.. {
            for (seed, max_plies) in [(step, 1000), (step + 100, step % 7), (step + 200, 0)] {
                let (mut a, mut b) = (pos.clone(), pos.clone());
                let (mut ra, mut rb) = (rng_for(seed, 1), rng_for(seed, 1));
                let finished = a.random_rollout(&mut ra, max_plies, &mut buf);
                let (mut plies, mut expected) = (0, true);
                while let Some(x) = b.random_action(&mut rb, &mut buf) {
                    if plies >= max_plies {
                        expected = false;
                        break;
                    }
                    b.apply_action(x);
                    if !b.mid_turn() {
                        plies += 1;
                    }
                }
                assert_eq!(
                    (finished, a.winner_mask()),
                    (expected, b.winner_mask()),
                    "step {step}, seed {seed}, {max_plies} plies"
                );
                assert_eq!(ra.next_u64(), rb.next_u64(), "step {step}, seed {seed}");
            }
            match pos.random_action(&mut walk, &mut buf) {
                Some(x) => pos.apply_action(x),
                None => break,
            }
        }
    }

    #[test]
    fn random_rollouts_draw_as_random_action() {
        for size in [2, 3, 5, 8] {
            for swap in [false, true] {
                rollout_as_drawn(&crate::Havannah::new(size, swap).unwrap());
            }
        }
        for size in [1, 2, 5, 19] {
            rollout_as_drawn(&crate::Y::new(size).unwrap());
        }
        rollout_as_drawn(&crate::Hex::new(6, 6, true).unwrap());
        rollout_as_drawn(&crate::Churn::new(
            std::sync::Arc::new(crate::Board::hexhex(3).unwrap()),
            false,
        ));
    }

    #[test]
    fn output_checks() {
        let legal: Vec<Vec<u32>> = vec![vec![0, 2], vec![1]];
        let it = || legal.iter().map(|v| v.as_slice());
        let check = |p: &[f64], v: &[f64]| {
            let mut sums = Vec::new();
            check_rows(
                Rows::F64(p),
                Rows::F64(v),
                it().map(|a| IdsBelow::new(a, 3)),
                3,
                0,
                &mut sums,
            )
            .map(|()| sums)
        };
        let p = vec![1.0, 5.0, 3.0, 0.0, 2.0, 0.0];
        let sums = check(&p, &[0.5; 4]).unwrap();
        // the normalised priors: each legal prior over its row's legal sum
        let norm: Vec<Vec<f64>> = it()
            .zip(&sums)
            .enumerate()
            .map(|(i, (acts, s))| acts.iter().map(|&a| p[i * 3 + a as usize] / s).collect())
            .collect();
        assert_eq!(norm, vec![vec![0.25, 0.75], vec![1.0]]);
        let e = check(&[1.0, 5.0, 3.0, 2.0, 0.0, 2.0], &[0.5; 4]).unwrap_err();
        assert_eq!(e, OutputError::ZeroPriors { leaf: 1 });
        assert_eq!(
            e.to_string(),
            "evaluator priors are all zero on the legal actions of leaf 1"
        );
        assert_eq!(
            check(&[1.0, -5.0, 3.0, 0.0, 2.0, 0.0], &[0.5; 4]),
            Err(OutputError::NegativePrior)
        );
        let mut p = vec![1.0; 6];
        let e = check(&p, &[0.5, f64::NAN, 0.0, 0.0]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "evaluator values must be finite (got NaN or infinity)"
        );
        p[3] = f64::INFINITY;
        assert_eq!(
            check(&p, &[0.5; 4]),
            Err(OutputError::NotFinite(Part::Priors))
        );
    }

    #[test]
    fn nonneg_by_bits_is_nonneg() {
        let xs = [
            0.0f32,
            -0.0,
            1.0,
            f32::MIN_POSITIVE,
            1e-45,
            f32::MAX,
            -1e-45,
            -1.0,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
        ];
        for &v in &xs {
            let ok = (0.0..f32::INFINITY).contains(&v);
            assert_eq!(f32_not_nonneg(v) >> 31 == 0, ok, "{v} ({:#x})", v.to_bits());
            assert_eq!(Rows::F32(&[1.0, v, 2.0]).all_nonneg(), ok, "{v}");
        }
        // NaNs with every payload bit pattern at the ends
        for b in [
            0x7F80_0001u32,
            0x7FFF_FFFF,
            0xFF80_0001,
            0xFFFF_FFFF,
            0xFF80_0000,
            0x8000_0001,
        ] {
            assert!(!Rows::F32(&[f32::from_bits(b)]).all_nonneg(), "{b:#x}");
        }
    }

    #[test]
    fn numpy_sum_is_pairwise() {
        let a: Vec<f64> = (0..300).map(|i| 1.0 / (i as f64 + 1.0)).collect();
        let naive: f64 = a.iter().sum();
        assert!((numpy_sum(&a) - naive).abs() < 1e-12);
        assert_eq!(numpy_sum(&a[..5]), a[..5].iter().sum::<f64>());
    }

    /// The sparse sum is bit for bit the dense one, for rows of any length
    /// with any positions set.
    #[test]
    fn sparse_sum_is_numpy_sum() {
        let mut rng = crate::rng::rng_for(3, 5);
        for n in [1, 5, 8, 9, 17, 128, 129, 300, 763, 1500] {
            for density in [0.0, 0.05, 0.3, 0.9, 1.0] {
                let mut row = vec![0.0; n];
                let mut at = Vec::new();
                for (i, x) in row.iter_mut().enumerate() {
                    if (crate::rng::below(&mut rng, 1000) as f64) < density * 1000.0 {
                        *x = 1.0 / (1 + crate::rng::below(&mut rng, 977)) as f64;
                        at.push(i as crate::Action);
                    }
                }
                // Read at the positions only: the others may hold anything.
                let mut noisy = row.clone();
                for (i, x) in noisy.iter_mut().enumerate() {
                    if at.binary_search(&(i as u32)).is_err() {
                        *x = 3.5 + i as f64;
                    }
                }
                assert_eq!(
                    numpy_sum_sparse(&at, &noisy).to_bits(),
                    numpy_sum(&row).to_bits(),
                    "n {n} density {density}"
                );
                // The plan gives the same sum, also reading the positions only.
                let sum = PairwisePlan::new(n).sum(&at, &noisy);
                assert_eq!(
                    sum.to_bits(),
                    numpy_sum(&row).to_bits(),
                    "plan, n {n} density {density}"
                );
            }
        }
    }
}
