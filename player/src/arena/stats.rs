//! The arithmetic of the arena's figures: means with Student-t intervals over deal sets, and the
//! paired test that says whether a run is better than the last one.
//!
//! Why deal sets and not games or hands: the rotations of one duplicate deal set share their
//! cards, so their results are correlated (that is the point: the luck cancels within a set).
//! Independent samples are the sets, so every variance here is computed over per-set values.

use serde::{Deserialize, Serialize};

/// A mean with its two-sided 95% confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The mean of the per-set values.
    pub mean: f64,
    /// Half the width of the 95% interval (Student's t over the sets); infinite with fewer
    /// than two sets, where the spread is unknown.
    pub half_width: f64,
}

impl Interval {
    /// The mean and 95% interval of independent samples.
    pub fn of(samples: &[f64]) -> Interval {
        let (mean, sd) = mean_and_sd(samples);
        let n = samples.len();
        let half_width = if n < 2 {
            f64::INFINITY
        } else {
            t_975(n as f64 - 1.0) * sd / (n as f64).sqrt()
        };
        Interval { mean, half_width }
    }

    /// The low end of the interval.
    pub fn low(&self) -> f64 {
        self.mean - self.half_width
    }

    /// The high end of the interval.
    pub fn high(&self) -> f64 {
        self.mean + self.half_width
    }
}

/// The mean and the sample standard deviation (0 for fewer than two samples).
pub(crate) fn mean_and_sd(samples: &[f64]) -> (f64, f64) {
    let n = samples.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let mean = samples.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, 0.0);
    }
    let variance = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n as f64 - 1.0);
    (mean, variance.sqrt())
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom (the factor of a two-sided
/// 95% interval). Exact table values up to 30, then the Cornish-Fisher expansion around the
/// normal quantile, which is within 0.001 of the true value from there on.
pub(crate) fn t_975(df: f64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    if df < 1.0 {
        return f64::INFINITY;
    }
    if df <= 30.0 {
        return TABLE[df as usize - 1];
    }
    let z = Z_975;
    let z3 = z.powi(3);
    let z5 = z.powi(5);
    z + (z3 + z) / (4.0 * df) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * df * df)
}

/// The 97.5% quantile of the standard normal distribution.
const Z_975: f64 = 1.959_964;
/// The 80% quantile of the standard normal distribution: the power the "play N more" estimate
/// aims for (an 80% chance of a verdict if the difference is what it looks like now).
const Z_80: f64 = 0.841_621;

/// More games than this to tell a difference is reported as "too small to measure".
pub const MAX_SUGGESTED_GAMES: u64 = 1_000_000;

/// How this run compares with the last one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Chips per 100 hands are higher, with 95% confidence.
    Better {
        /// The mean difference (this run minus the last) and its 95% interval.
        difference: Interval,
    },
    /// Chips per 100 hands are lower, with 95% confidence.
    Worse {
        /// The mean difference (this run minus the last) and its 95% interval.
        difference: Interval,
    },
    /// The interval of the difference still contains 0.
    CantTellYet {
        /// The mean difference (this run minus the last) and its 95% interval.
        difference: Interval,
        /// The games this run would need in all for the difference seen now to be
        /// significant with 80% power; `None` when that is more than [`MAX_SUGGESTED_GAMES`]
        /// (or the difference is 0).
        games_needed: Option<u64>,
    },
    /// Every deal set both runs played came out exactly the same: the strategy played the
    /// same (or its changes never mattered).
    Identical {
        /// Deal sets compared.
        deal_sets: usize,
    },
}

/// Compares the per-set chips/100 of this run with the last run's, deal set by deal set (both
/// runs played the same deals: the seed is part of the saved run's key, so set `d` has the
/// same cards in both). A paired t-test on the common sets: the same deals in both runs take
/// most of the card luck out of the difference. `None` with fewer than two common sets.
/// `rotations` turns deal sets into games for the estimate of how many more are needed.
pub fn compare(current: &[f64], previous: &[f64], rotations: usize) -> Option<Verdict> {
    let common = current.len().min(previous.len());
    if common < 2 {
        return None;
    }
    let differences: Vec<f64> = current[..common]
        .iter()
        .zip(&previous[..common])
        .map(|(now, before)| now - before)
        .collect();
    if differences.iter().all(|d| *d == 0.0) {
        return Some(Verdict::Identical { deal_sets: common });
    }
    let difference = Interval::of(&differences);
    if difference.low() > 0.0 {
        return Some(Verdict::Better { difference });
    }
    if difference.high() < 0.0 {
        return Some(Verdict::Worse { difference });
    }
    let (mean, sd) = mean_and_sd(&differences);
    let games_needed = (mean != 0.0)
        .then(|| ((Z_975 + Z_80) * sd / mean.abs()).powi(2).ceil())
        .map(|sets| sets.max(common as f64 + 1.0) * rotations as f64)
        .filter(|games| *games <= MAX_SUGGESTED_GAMES as f64)
        .map(|games| games as u64);
    Some(Verdict::CantTellYet {
        difference,
        games_needed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_shrink_with_samples_and_are_unknown_for_one() {
        assert!(Interval::of(&[3.0]).half_width.is_infinite());
        let few = Interval::of(&[1.0, 3.0, 2.0, 4.0]);
        assert_eq!(few.mean, 2.5);
        // sd = 1.291, t(3) = 3.182: 3.182 * 1.291 / 2.
        assert!((few.half_width - 2.054).abs() < 0.01, "{few:?}");
        let many: Vec<f64> = (0..400).map(|i| f64::from(i % 4 + 1)).collect();
        assert!(Interval::of(&many).half_width < 0.12);
    }

    #[test]
    fn t_quantiles_join_the_normal_one() {
        assert_eq!(t_975(1.0), 12.706);
        assert!((t_975(31.0) - 2.040).abs() < 0.001);
        assert!((t_975(120.0) - 1.980).abs() < 0.001);
        assert!((t_975(1e9) - Z_975).abs() < 1e-6);
    }

    #[test]
    fn a_clear_gain_is_better_a_clear_loss_worse_noise_is_undecided() {
        let before: Vec<f64> = (0..50).map(|i| f64::from(i % 7) * 10.0).collect();
        let gain: Vec<f64> = before
            .iter()
            .enumerate()
            .map(|(i, x)| x + 20.0 + f64::from(i as u32 % 3))
            .collect();
        assert!(matches!(
            compare(&gain, &before, 6),
            Some(Verdict::Better { .. })
        ));
        assert!(matches!(
            compare(&before, &gain, 6),
            Some(Verdict::Worse { .. })
        ));
        let noise: Vec<f64> = before
            .iter()
            .enumerate()
            .map(|(i, x)| x + if i % 2 == 0 { 30.0 } else { -29.0 })
            .collect();
        match compare(&noise, &before, 6) {
            Some(Verdict::CantTellYet {
                games_needed: Some(games),
                ..
            }) => assert!(games > 300 && games % 6 == 0, "{games}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            compare(&before, &before, 6),
            Some(Verdict::Identical { deal_sets: 50 })
        );
        assert_eq!(compare(&before[..1], &before, 6), None);
    }
}
