//! Luck taken out with a fitted coefficient: a regression adjustment ("CUPED" in online
//! experiments; the control-variate estimator of Monte Carlo methods), cross-fitted so that it
//! cannot bias a verdict.
//!
//! A sample is an outcome `y` (points a game, or a paired difference of points) and a
//! control `x` whose mean is known to be 0 whatever was played (the luck of the cards,
//! [`crate::luck`]). Any fixed coefficient `θ` gives `y − θ·x` the expectation of `y`; the one
//! that leaves the least variance is `θ* = cov(y, x) / var(x)`, and it leaves `var(y)·(1 − ρ²)`,
//! never more than `var(y)`. Taking the luck out whole (`θ = 1`) is right only when the value
//! function `V` values a player's chips as its points follow them; it adds noise where `V`
//! misjudges (a folder's or a calling station's points follow the stacks much less than ICM
//! says: `θ*` about 0.4 for both at a table of the real field, where `θ = 1` leaves 1.2 and 1.7
//! times the raw variance; player/arena/tests/luck_by_style.rs).
//!
//! **Cross-fitted.** Samples are dealt into [`FOLDS`] folds by a key fixed before the play (a
//! game's number, a deal set's index); the samples of fold `k` are adjusted with a coefficient
//! estimated from the other folds only. Samples are independent and each `x` has mean 0, so
//! `E[θ₋ₖ · xᵢ] = E[θ₋ₖ] · E[xᵢ] = 0`: the adjusted mean has exactly the expectation of the
//! raw one, with no small-sample bias from fitting `θ` to the very samples it adjusts. The
//! samples of one fold share a coefficient drawn from the others: its noise adds a term of
//! order `1/n²` to the mean's variance, negligible beside `1/n`.
//!
//! **Shrunk towards a prior.** With few samples the estimate is noisy, and a coefficient far
//! from `θ*` adds `(θ − θ*)²·var(x)` of variance. Each fold's estimate is combined with a prior
//! [`PRIOR_COEFFICIENT`] (spread [`PRIOR_SPREAD`]) by their precisions: the prior leads with a
//! handful of samples, the data from a few dozen on. Prior and spread were measured on the
//! styles of player/arena/tests/luck_by_style.rs (the median and spread of their `θ*`), never
//! on the samples judged; being fixed, they bias nothing either.
//!
//! Everything is a function of six sums per fold ([`Moments`]), so a caller can sum where the
//! samples live (SQLite's `SUM`) and never hold them.

use super::Summary;

/// The folds of the cross-fitting: each fold's samples are adjusted with a coefficient from
/// the other nine tenths.
pub const FOLDS: usize = 10;

/// The coefficient a fold gets with no data to go on: the median of `θ*` over sixteen styles at
/// a table of the real field (0.37 to 1.03).
pub const PRIOR_COEFFICIENT: f64 = 0.8;

/// How far from [`PRIOR_COEFFICIENT`] a player's coefficient is expected to be (the spread of
/// `θ*` over those styles): the prior's weight is `1 / PRIOR_SPREAD²`, an estimate's is
/// `1 / its variance`.
pub const PRIOR_SPREAD: f64 = 0.25;

/// The sums of a set of samples that a regression adjustment needs.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Moments {
    /// The number of samples.
    pub count: u64,
    /// `Σ y`.
    pub outcome: f64,
    /// `Σ y²`.
    pub outcome_squared: f64,
    /// `Σ x`.
    pub control: f64,
    /// `Σ x²`.
    pub control_squared: f64,
    /// `Σ x·y`.
    pub product: f64,
}

impl Moments {
    /// Adds one sample: its outcome and its control.
    pub fn add(&mut self, outcome: f64, control: f64) {
        self.count += 1;
        self.outcome += outcome;
        self.outcome_squared += outcome * outcome;
        self.control += control;
        self.control_squared += control * control;
        self.product += outcome * control;
    }

    fn plus(&self, other: &Moments) -> Moments {
        Moments {
            count: self.count + other.count,
            outcome: self.outcome + other.outcome,
            outcome_squared: self.outcome_squared + other.outcome_squared,
            control: self.control + other.control,
            control_squared: self.control_squared + other.control_squared,
            product: self.product + other.product,
        }
    }

    /// The summary of the outcomes alone.
    pub fn outcomes(&self) -> Summary {
        Summary::from_sums(self.count, self.outcome, self.outcome_squared)
    }

    /// The least-squares coefficient of the outcomes on the controls and its variance, or
    /// `None` with fewer than three samples or controls that do not vary.
    pub fn estimate(&self) -> Option<(f64, f64)> {
        if self.count < 3 {
            return None;
        }
        let n = self.count as f64;
        let var_x = (self.control_squared - self.control * self.control / n) / (n - 1.0);
        // Controls that are all the same (no hand valued): nothing to learn from.
        if var_x <= 1e-12 * (1.0 + self.control_squared / n) {
            return None;
        }
        let cov = (self.product - self.control * self.outcome / n) / (n - 1.0);
        let var_y = (self.outcome_squared - self.outcome * self.outcome / n) / (n - 1.0);
        let theta = cov / var_x;
        let residual = ((var_y - theta * cov).max(0.0) * (n - 1.0) / (n - 2.0)).max(0.0);
        Some((theta, residual / ((n - 1.0) * var_x)))
    }

    /// The coefficient to adjust other samples with: this estimate and the prior combined by
    /// their precisions (the prior alone without an estimate).
    pub fn coefficient(&self) -> f64 {
        match self.estimate() {
            None => PRIOR_COEFFICIENT,
            Some((theta, variance)) if variance <= 0.0 => theta,
            Some((theta, variance)) => {
                let (weight, prior_weight) = (1.0 / variance, 1.0 / (PRIOR_SPREAD * PRIOR_SPREAD));
                (weight * theta + prior_weight * PRIOR_COEFFICIENT) / (weight + prior_weight)
            }
        }
    }
}

/// Samples sorted into the [`FOLDS`] folds of the cross-fitting.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Folds {
    folds: [Moments; FOLDS],
}

/// The fold of a sample's key.
pub fn fold_of(key: u64) -> usize {
    (key % FOLDS as u64) as usize
}

impl Folds {
    /// No samples yet.
    pub fn new() -> Folds {
        Folds::default()
    }

    /// Adds a sample to the fold of `key` (a game's number, a deal set's index: fixed before
    /// the play, never chosen from the results).
    pub fn add(&mut self, key: u64, outcome: f64, control: f64) {
        self.folds[fold_of(key)].add(outcome, control);
    }

    /// Adds the sums of samples of the fold `fold` (what a database summed).
    pub fn add_sums(&mut self, fold: usize, sums: &Moments) {
        let slot = &mut self.folds[fold % FOLDS];
        *slot = slot.plus(sums);
    }

    /// Adds another set's samples, fold by fold.
    pub fn absorb(&mut self, other: &Folds) {
        for (fold, sums) in other.folds.iter().enumerate() {
            self.add_sums(fold, sums);
        }
    }

    /// Every fold together.
    pub fn total(&self) -> Moments {
        self.folds
            .iter()
            .fold(Moments::default(), |sum, fold| sum.plus(fold))
    }

    /// The coefficient the samples of `fold` are adjusted with: from every other fold.
    pub fn coefficient_for(&self, fold: usize) -> f64 {
        self.folds
            .iter()
            .enumerate()
            .filter(|(other, _)| *other != fold % FOLDS)
            .fold(Moments::default(), |sum, (_, moments)| sum.plus(moments))
            .coefficient()
    }

    /// The adjusted samples' summary, the raw one, and the coefficients used.
    pub fn adjust(&self) -> Adjustment {
        let mut count = 0u64;
        let (mut sum, mut sum_of_squares, mut weighted) = (0.0, 0.0, 0.0);
        let mut coefficients = [PRIOR_COEFFICIENT; FOLDS];
        for (fold, moments) in self.folds.iter().enumerate() {
            let theta = self.coefficient_for(fold);
            coefficients[fold] = theta;
            count += moments.count;
            sum += moments.outcome - theta * moments.control;
            sum_of_squares += moments.outcome_squared - 2.0 * theta * moments.product
                + theta * theta * moments.control_squared;
            weighted += theta * moments.count as f64;
        }
        let total = self.total();
        Adjustment {
            adjusted: Summary::from_sums(count, sum, sum_of_squares),
            raw: total.outcomes(),
            coefficient: if count == 0 {
                self.coefficient_for(0)
            } else {
                weighted / count as f64
            },
            coefficients,
        }
    }
}

/// What a regression adjustment gives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Adjustment {
    /// The adjusted samples (`y − θₖ·x`).
    pub adjusted: Summary,
    /// The outcomes as they are.
    pub raw: Summary,
    /// The coefficient applied, averaged over the samples (each fold's weighted by its size).
    pub coefficient: f64,
    /// The coefficient of each fold.
    pub coefficients: [f64; FOLDS],
}

/// Adjusts samples given in order, keyed by their index (`(outcome, control)` each): the
/// adjusted value of each sample, in order, and the [`Adjustment`].
pub fn adjust_samples(samples: &[(f64, f64)]) -> (Vec<f64>, Adjustment) {
    let mut folds = Folds::new();
    for (index, &(outcome, control)) in samples.iter().enumerate() {
        folds.add(index as u64, outcome, control);
    }
    let adjustment = folds.adjust();
    let values = samples
        .iter()
        .enumerate()
        .map(|(index, &(outcome, control))| {
            outcome - adjustment.coefficients[fold_of(index as u64)] * control
        })
        .collect();
    (values, adjustment)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `n` samples `y = 1 + θ·x + e`, `x` and `e` of mean 0 and spread 1 and `noise`.
    fn samples(rng: &mut ChaCha8Rng, n: usize, theta: f64, noise: f64) -> Vec<(f64, f64)> {
        (0..n)
            .map(|_| {
                let x: f64 = rng.random_range(-1.7..1.7);
                let e: f64 = rng.random_range(-1.7..1.7) * noise;
                (1.0 + theta * x + e, x)
            })
            .collect()
    }

    #[test]
    fn a_folds_coefficient_does_not_read_its_own_samples() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let data = samples(&mut rng, 200, 0.5, 1.0);
        let (_, before) = adjust_samples(&data);
        let mut changed = data.clone();
        for (index, sample) in changed.iter_mut().enumerate() {
            if fold_of(index as u64) == 3 {
                *sample = (sample.0 * 7.0 - 2.0, sample.1 * -3.0);
            }
        }
        let (_, after) = adjust_samples(&changed);
        assert_eq!(before.coefficients[3], after.coefficients[3]);
        assert_ne!(before.coefficients[4], after.coefficients[4]);
    }

    #[test]
    fn the_coefficient_finds_the_slope_and_leaves_the_residual_variance() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for theta in [0.0, 0.4, 1.0, 1.5] {
            let data = samples(&mut rng, 4_000, theta, 0.5);
            let (values, adjustment) = adjust_samples(&data);
            assert!(
                (adjustment.coefficient - theta).abs() < 0.05,
                "{theta}: {adjustment:?}"
            );
            // What is left is the noise's variance (0.5² of x's), whatever the slope.
            let (_, sd) = super::super::mean_and_sd(&values);
            assert!((sd / adjustment.raw.sd.max(1e-9) <= 1.0 + 1e-9) || theta == 0.0);
            assert!(
                (adjustment.adjusted.sd - sd).abs() < 1e-9,
                "{adjustment:?} {sd}"
            );
        }
    }

    #[test]
    fn few_samples_lean_on_the_prior_and_controls_that_never_vary_too() {
        assert_eq!(Folds::new().adjust().coefficient, PRIOR_COEFFICIENT);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let few = samples(&mut rng, 4, 0.0, 1.0);
        let (_, adjustment) = adjust_samples(&few);
        assert!(
            (adjustment.coefficient - PRIOR_COEFFICIENT).abs() < 0.3,
            "{adjustment:?}"
        );
        let flat: Vec<(f64, f64)> = (0..50).map(|i| (f64::from(i % 3), 0.0)).collect();
        let (values, adjustment) = adjust_samples(&flat);
        assert_eq!(adjustment.coefficient, PRIOR_COEFFICIENT);
        assert_eq!(
            values,
            flat.iter().map(|&(y, _)| y).collect::<Vec<_>>(),
            "a zero control changes nothing"
        );
        assert_eq!(adjustment.adjusted, adjustment.raw);
    }

    #[test]
    fn sums_per_fold_give_what_the_samples_give() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let data = samples(&mut rng, 137, 0.7, 1.0);
        let (values, from_samples) = adjust_samples(&data);
        let mut folds = Folds::new();
        for fold in 0..FOLDS {
            let mut sums = Moments::default();
            for (index, &(y, x)) in data.iter().enumerate() {
                if fold_of(index as u64) == fold {
                    sums.add(y, x);
                }
            }
            folds.add_sums(fold, &sums);
        }
        let from_sums = folds.adjust();
        assert_eq!(from_samples.coefficients, from_sums.coefficients);
        let direct = Summary::of(&values);
        assert!((from_sums.adjusted.mean - direct.mean).abs() < 1e-12);
        assert!((from_sums.adjusted.sd - direct.sd).abs() < 1e-9);
    }

    /// The point of cross-fitting: over many small experiments whose true mean is 1, the
    /// adjusted means average 1 (no bias), their intervals cover it about 95% of the time, and
    /// they are mostly narrower than the raw ones.
    #[test]
    fn adjusted_means_are_unbiased_and_their_intervals_cover() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let trials = 2_000;
        let (mut covered, mut sum, mut narrower) = (0, 0.0, 0);
        for trial in 0..trials {
            let theta = [0.3, 0.8, 1.2][trial % 3];
            let data = samples(&mut rng, 30, theta, 0.8);
            let (_, adjustment) = adjust_samples(&data);
            let interval = super::super::Interval::of_summary(&adjustment.adjusted);
            covered += usize::from(interval.low() <= 1.0 && interval.high() >= 1.0);
            sum += interval.mean;
            narrower += usize::from(adjustment.adjusted.sd < adjustment.raw.sd);
        }
        let mean = sum / trials as f64;
        // The raw means' standard error here is about 0.2 / √2000 = 0.005.
        assert!((mean - 1.0).abs() < 0.015, "{mean}");
        let coverage = covered as f64 / trials as f64;
        assert!((0.93..=0.97).contains(&coverage), "{coverage}");
        // Narrower in most trials, though the weakest slope (0.3) explains only an eighth of the
        // variance: there, 30 samples' coefficients are sometimes far enough off to lose it.
        assert!(narrower > trials * 8 / 10, "{narrower}");
    }
}
