//! The arithmetic of the arena's figures: means with Student-t intervals over deal sets, and the
//! two-sample test that says whether a run is better than the last one.
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
    /// than two sets, where the spread is unknown (`null` in JSON, which has no infinity).
    #[serde(deserialize_with = "infinite_when_null")]
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

/// Reads `null` (what serde_json writes for an infinite `f64`) back as infinity.
fn infinite_when_null<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(deserializer)?.unwrap_or(f64::INFINITY))
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
        /// The difference of the means (this run minus the last) and its 95% interval.
        difference: Interval,
    },
    /// Chips per 100 hands are lower, with 95% confidence.
    Worse {
        /// The difference of the means (this run minus the last) and its 95% interval.
        difference: Interval,
    },
    /// The interval of the difference still contains 0.
    CantTellYet {
        /// The difference of the means (this run minus the last) and its 95% interval.
        difference: Interval,
        /// What would tell.
        more: MoreGames,
    },
    /// Every deal set both runs played came out exactly the same: the strategy played the
    /// same (or its changes never mattered).
    Identical {
        /// Deal sets compared.
        deal_sets: usize,
    },
}

/// What it would take to tell a difference that cannot be told yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum MoreGames {
    /// This many games in this run (all together, not more) would show the difference seen
    /// now with 80% power.
    Play {
        /// Games in all.
        games: u64,
    },
    /// The last run's own uncertainty is larger than the difference: no length of this run
    /// alone can tell; both versions need more games.
    PreviousTooShort {
        /// Games with each version (equal runs) that would show the difference seen now
        /// with 80% power; `None` beyond [`MAX_SUGGESTED_GAMES`].
        games_each: Option<u64>,
    },
    /// It would take more than [`MAX_SUGGESTED_GAMES`] (or the means are equal).
    TooSmallToMeasure,
}

/// Compares the per-set chips/100 of this run with the last run's: Welch's two-sample t-test
/// on the per-set values (the sets are the independent samples, see the module docs). The two
/// runs share their seed, so set `d` has the same cards in both and their results are
/// positively correlated; an unpaired test ignores that and is conservative, and it lets the
/// runs differ in length, which a team needs when it answers "play N more". An exact match on
/// every common set is reported as [`Verdict::Identical`]. `None` when a run has fewer than
/// two sets. `rotations` turns deal sets into games.
pub fn compare(current: &[f64], previous: &[f64], rotations: usize) -> Option<Verdict> {
    let (n1, n0) = (current.len(), previous.len());
    if n1 < 2 || n0 < 2 {
        return None;
    }
    let common = n1.min(n0);
    // Equal to a part in 10^12, not exactly: a saved run's values come back through JSON,
    // whose float parsing may miss the last bit; different play never comes that close.
    let same = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0);
    if current[..common]
        .iter()
        .zip(&previous[..common])
        .all(|(a, b)| same(*a, *b))
    {
        return Some(Verdict::Identical { deal_sets: common });
    }
    let (m1, s1) = mean_and_sd(current);
    let (m0, s0) = mean_and_sd(previous);
    let (a, b) = (s1 * s1 / n1 as f64, s0 * s0 / n0 as f64);
    let se = (a + b).sqrt();
    // Welch-Satterthwaite degrees of freedom.
    let df = if a + b > 0.0 {
        (a + b).powi(2) / (a * a / (n1 as f64 - 1.0) + b * b / (n0 as f64 - 1.0))
    } else {
        f64::INFINITY
    };
    let difference = Interval {
        mean: m1 - m0,
        half_width: t_975(df.max(1.0)) * se,
    };
    if difference.low() > 0.0 {
        return Some(Verdict::Better { difference });
    }
    if difference.high() < 0.0 {
        return Some(Verdict::Worse { difference });
    }
    // Sets n such that (z_0.975 + z_0.8) * sqrt(s1² / n + s0² / n0) = |difference|: the
    // previous run is what it is, only this one can grow.
    let target = (difference.mean.abs() / (Z_975 + Z_80)).powi(2);
    let more = if difference.mean == 0.0 {
        MoreGames::TooSmallToMeasure
    } else if target <= b {
        let sets = ((s1 * s1 + s0 * s0) / target).ceil();
        let games = sets * rotations as f64;
        MoreGames::PreviousTooShort {
            games_each: (games <= MAX_SUGGESTED_GAMES as f64).then_some(games as u64),
        }
    } else {
        let sets = (s1 * s1 / (target - b)).ceil().max(n1 as f64 + 1.0);
        let games = sets * rotations as f64;
        if games > MAX_SUGGESTED_GAMES as f64 {
            MoreGames::TooSmallToMeasure
        } else {
            MoreGames::Play {
                games: games as u64,
            }
        }
    };
    Some(Verdict::CantTellYet { difference, more })
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
        // A long previous run, a short noisy one 30 chips/100 up: sd 100, so about
        // 100² / ((30 / 2.8)² - 100² / 500) ≈ 110 sets would tell.
        let noisy = |sets: u32| -> Vec<f64> {
            (0..sets)
                .map(|i| if i % 2 == 0 { 100.0 } else { -100.0 } + f64::from(i % 5))
                .collect()
        };
        let shifted: Vec<f64> = noisy(10).iter().map(|x| x + 30.0).collect();
        match compare(&shifted, &noisy(500), 6) {
            Some(Verdict::CantTellYet {
                more: MoreGames::Play { games },
                ..
            }) => assert!((600..=720).contains(&games) && games % 6 == 0, "{games}"),
            other => panic!("{other:?}"),
        }
        // A two-set previous run: its own spread hides any difference this run could show.
        match compare(&shifted, &[-100.0, 100.0], 6) {
            Some(Verdict::CantTellYet {
                more:
                    MoreGames::PreviousTooShort {
                        games_each: Some(games),
                    },
                ..
            }) => assert!(games > 600 && games % 6 == 0, "{games}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            compare(&before, &before, 6),
            Some(Verdict::Identical { deal_sets: 50 })
        );
        assert_eq!(compare(&before[..1], &before, 6), None);
        let read_back: Vec<f64> = before.iter().map(|x| x * (1.0 + 1e-15)).collect();
        assert_eq!(
            compare(&read_back, &before, 6),
            Some(Verdict::Identical { deal_sets: 50 })
        );
    }
}
