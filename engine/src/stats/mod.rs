//! The arithmetic of a verdict, for the arena and the event alike: means with Student-t
//! intervals, the paired and unpaired differences of two sets of results, and how many samples
//! a difference needs to be told (95% confidence, 80% power).
//!
//! A sample is whatever is independent in the caller's design: the arena's deal sets (the
//! rotations of one duplicate deal set share their cards, so their results are correlated;
//! `player/arena/src/verdict.rs`), the event's games (`dealer/src/event/versions.rs`).

pub mod adjust;

use serde::{Deserialize, Serialize};

/// A mean with its two-sided 95% confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The mean of the samples.
    pub mean: f64,
    /// Half the width of the 95% interval (Student's t over the samples); infinite with fewer
    /// than two samples, where the spread is unknown (`null` in JSON, which has no infinity).
    #[serde(deserialize_with = "infinite_when_null")]
    pub half_width: f64,
}

impl Interval {
    /// The mean and 95% interval of independent samples.
    pub fn of(samples: &[f64]) -> Interval {
        Interval::of_summary(&Summary::of(samples))
    }

    /// The mean and 95% interval of the independent samples `summary` sums up.
    pub fn of_summary(summary: &Summary) -> Interval {
        let n = summary.count;
        let half_width = if n < 2 {
            f64::INFINITY
        } else {
            t_975(n as f64 - 1.0) * summary.sd / (n as f64).sqrt()
        };
        Interval {
            mean: summary.mean,
            half_width,
        }
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

/// How many samples, their mean and their sample standard deviation: all a Student-t or
/// Welch interval needs, so a caller can sum a large set where it lives (a database) instead
/// of holding every sample.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The number of samples.
    pub count: u64,
    /// Their mean (0 with none).
    pub mean: f64,
    /// Their sample standard deviation (0 with fewer than two).
    pub sd: f64,
}

impl Summary {
    /// The summary of `samples`.
    pub fn of(samples: &[f64]) -> Summary {
        let (mean, sd) = mean_and_sd(samples);
        Summary {
            count: samples.len() as u64,
            mean,
            sd,
        }
    }

    /// The summary of `count` samples whose sum is `sum` and sum of squares `sum_of_squares`
    /// (what SQL's `SUM(x)` and `SUM(x * x)` give). Meant for samples of a few units (points a
    /// game), where the sums lose no precision that matters; a variance a rounding error
    /// leaves just below 0 is read as 0.
    pub fn from_sums(count: u64, sum: f64, sum_of_squares: f64) -> Summary {
        if count == 0 {
            return Summary {
                count,
                mean: 0.0,
                sd: 0.0,
            };
        }
        let n = count as f64;
        let mean = sum / n;
        let sd = if count < 2 {
            0.0
        } else {
            ((sum_of_squares - n * mean * mean) / (n - 1.0))
                .max(0.0)
                .sqrt()
        };
        Summary { count, mean, sd }
    }
}

/// Reads `null` (what serde_json writes for an infinite `f64`) back as infinity.
fn infinite_when_null<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(deserializer)?.unwrap_or(f64::INFINITY))
}

/// The mean and the sample standard deviation (0 for fewer than two samples).
pub fn mean_and_sd(samples: &[f64]) -> (f64, f64) {
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
pub fn t_975(df: f64) -> f64 {
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
/// The 80% quantile of the standard normal distribution: the power the "games to tell"
/// estimates aim for (an 80% chance of a verdict if the difference is what it looks like now).
const Z_80: f64 = 0.841_621;

/// More games than this to tell a difference is reported as "too small to measure".
pub const MAX_SUGGESTED_GAMES: u64 = 1_000_000;

/// The mean of the paired differences `current[i] − previous[i]` over the samples both have,
/// with its 95% interval (Student's t over the pairs).
pub fn paired_difference(current: &[f64], previous: &[f64]) -> Interval {
    let differences: Vec<f64> = current.iter().zip(previous).map(|(a, b)| a - b).collect();
    Interval::of(&differences)
}

/// The difference of the means of two independent samples (`current` minus `previous`) with
/// its 95% interval: Welch's test, for samples that are not paired (or runs of different
/// lengths); the degrees of freedom by Welch-Satterthwaite.
pub fn unpaired_difference(current: &[f64], previous: &[f64]) -> Interval {
    unpaired_difference_of(&Summary::of(current), &Summary::of(previous))
}

/// [`unpaired_difference`] of two samples given by their summaries.
pub fn unpaired_difference_of(current: &Summary, previous: &Summary) -> Interval {
    let (n1, n0) = (current.count as f64, previous.count as f64);
    let (m1, s1) = (current.mean, current.sd);
    let (m0, s0) = (previous.mean, previous.sd);
    if n1 < 2.0 || n0 < 2.0 {
        return Interval {
            mean: m1 - m0,
            half_width: f64::INFINITY,
        };
    }
    let (a, b) = (s1 * s1 / n1, s0 * s0 / n0);
    let df = if a + b > 0.0 {
        (a + b).powi(2) / (a * a / (n1 - 1.0) + b * b / (n0 - 1.0))
    } else {
        f64::INFINITY
    };
    Interval {
        mean: m1 - m0,
        half_width: t_975(df.max(1.0)) * (a + b).sqrt(),
    }
}

/// Pairs (deal sets) a paired comparison needs to tell a difference of `difference` with 95%
/// confidence and 80% power, when the differences spread with standard deviation `sd`:
/// `((z₀.₉₇₅ + z₀.₈) · sd / difference)²`. `None` for no difference or beyond `cap` pairs.
pub fn pairs_to_tell(sd: f64, difference: f64, cap: f64) -> Option<f64> {
    samples_to_tell(sd * sd, difference, cap)
}

/// Samples per version an unpaired comparison (Welch) needs to tell `difference` with 95%
/// confidence and 80% power, the two versions spreading with `sd_current` and `sd_previous`:
/// `(z₀.₉₇₅ + z₀.₈)² · (s₁² + s₀²) / difference²`. `None` for no difference or beyond `cap`.
pub fn samples_each_to_tell(
    sd_current: f64,
    sd_previous: f64,
    difference: f64,
    cap: f64,
) -> Option<f64> {
    samples_to_tell(
        sd_current * sd_current + sd_previous * sd_previous,
        difference,
        cap,
    )
}

/// Samples of the current version an unpaired comparison (Welch) needs to tell `difference`
/// with 95% confidence and 80% power when the previous version's samples are all there will
/// be: the smallest `n₁` with `(z₀.₉₇₅ + z₀.₈)² · (s₁²/n₁ + s₀²/n₀) ≤ difference²`. `None` for
/// no difference, beyond `cap`, or when the previous version's samples alone are too few to
/// tell it (`s₀²/n₀` already uses up the whole budget: however many games the current version
/// plays, the previous one's noise hides the difference).
pub fn current_samples_to_tell(
    sd_current: f64,
    previous: &Summary,
    difference: f64,
    cap: f64,
) -> Option<f64> {
    if difference == 0.0 || !difference.is_finite() || previous.count < 2 {
        return None;
    }
    let budget = (difference / (Z_975 + Z_80)).powi(2);
    let left = budget - previous.sd * previous.sd / previous.count as f64;
    if left <= 0.0 {
        return None;
    }
    let samples = sd_current * sd_current / left;
    (samples.is_finite() && samples <= cap).then(|| samples.ceil().max(2.0))
}

fn samples_to_tell(variance: f64, difference: f64, cap: f64) -> Option<f64> {
    if difference == 0.0 || !difference.is_finite() {
        return None;
    }
    let samples = ((Z_975 + Z_80) / difference).powi(2) * variance;
    (samples.is_finite() && samples <= cap).then(|| samples.ceil().max(2.0))
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
    fn an_unknown_spread_survives_json() {
        let one = Interval::of(&[3.0]);
        let text = serde_json::to_string(&one).unwrap();
        assert_eq!(text, r#"{"mean":3.0,"half_width":null}"#);
        let back: Interval = serde_json::from_str(&text).unwrap();
        assert!(back.half_width.is_infinite());
    }

    #[test]
    fn t_quantiles_join_the_normal_one() {
        assert_eq!(t_975(1.0), 12.706);
        assert!((t_975(31.0) - 2.040).abs() < 0.001);
        assert!((t_975(120.0) - 1.980).abs() < 0.001);
        assert!((t_975(1e9) - Z_975).abs() < 1e-6);
    }

    #[test]
    fn pairing_removes_what_both_runs_share() {
        // Large shared noise, a small steady gain: paired, the gain is plain; unpaired, the
        // noise hides it.
        let before: Vec<f64> = (0..50).map(|i| f64::from(i % 7) * 10.0).collect();
        let after: Vec<f64> = before
            .iter()
            .enumerate()
            .map(|(i, x)| x + 1.0 + f64::from(i as u32 % 3) * 0.1)
            .collect();
        let paired = paired_difference(&after, &before);
        assert!(
            paired.low() > 0.0 && (paired.mean - 1.1).abs() < 0.05,
            "{paired:?}"
        );
        let unpaired = unpaired_difference(&after, &before);
        assert!(
            unpaired.low() < 0.0 && unpaired.high() > 0.0,
            "{unpaired:?}"
        );
        assert!((unpaired.mean - paired.mean).abs() < 1e-12);
        // Only the pairs both runs have count.
        assert_eq!(
            paired_difference(&after[..10], &before).mean,
            paired_difference(&after[..10], &before[..10]).mean
        );
        assert!(unpaired_difference(&after[..1], &before)
            .half_width
            .is_infinite());
    }

    #[test]
    fn summaries_from_sums_give_the_intervals_of_the_samples() {
        let current: Vec<f64> = (0..37).map(|i| f64::from(i % 5) * 1.5).collect();
        let previous: Vec<f64> = (0..51).map(|i| f64::from(i % 3)).collect();
        let summed = |samples: &[f64]| {
            Summary::from_sums(
                samples.len() as u64,
                samples.iter().sum(),
                samples.iter().map(|x| x * x).sum(),
            )
        };
        let (a, b) = (summed(&current), summed(&previous));
        assert!((a.sd - Summary::of(&current).sd).abs() < 1e-12);
        let direct = unpaired_difference(&current, &previous);
        let from_sums = unpaired_difference_of(&a, &b);
        assert!((direct.mean - from_sums.mean).abs() < 1e-12);
        assert!((direct.half_width - from_sums.half_width).abs() < 1e-12);
        assert!(
            (Interval::of(&current).half_width - Interval::of_summary(&a).half_width).abs() < 1e-12
        );
        // All equal: a rounding error must not make the variance negative.
        let same = Summary::from_sums(3, 0.3, 0.03);
        assert!(same.sd >= 0.0 && same.sd < 1e-6, "{same:?}");
        assert_eq!(Summary::from_sums(0, 0.0, 0.0).mean, 0.0);
    }

    #[test]
    fn the_current_version_alone_can_only_tell_what_the_previous_leaves_room_for() {
        let previous = Summary {
            count: 100,
            mean: 1.0,
            sd: 1.0,
        };
        // Budget (0.5 / 2.8016)² = 0.03185; the previous uses 0.01; 1 / 0.02185 = 45.8.
        assert_eq!(
            current_samples_to_tell(1.0, &previous, 0.5, 1e6),
            Some(46.0)
        );
        // 0.2: budget 0.0051 < 0.01: the previous version's 100 games alone are too few.
        assert_eq!(current_samples_to_tell(1.0, &previous, 0.2, 1e6), None);
        assert_eq!(current_samples_to_tell(1.0, &previous, 0.0, 1e6), None);
    }

    #[test]
    fn samples_to_tell_follow_the_power_formula() {
        // sd 1, difference 0.28: (2.8016 / 0.28)² = 100.1 pairs.
        assert_eq!(pairs_to_tell(1.0, 0.28, 1e6), Some(101.0));
        assert_eq!(pairs_to_tell(1.0, -0.28, 1e6), Some(101.0));
        // Two versions each spreading 1: twice the variance of one.
        assert_eq!(samples_each_to_tell(1.0, 1.0, 0.28, 1e6), Some(201.0));
        assert_eq!(pairs_to_tell(1.0, 0.0, 1e6), None);
        assert_eq!(pairs_to_tell(1.0, 0.001, 1e6), None);
        assert_eq!(pairs_to_tell(0.0, 1.0, 1e6), Some(2.0));
    }
}
