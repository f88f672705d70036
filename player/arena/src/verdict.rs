//! The verdict: is this run better than another one at what the event scores?
//!
//! Two runs with the same options played the same deal sets (the seed fixes the cards), so
//! they are compared set by set: the difference in your points per game on each deal set both
//! played, its mean and 95% interval (Student's t over the sets). The figure the verdict uses
//! is the luck-adjusted one: each set's difference in points less its difference in luck of
//! the cards ([`SetResult::luck`]), weighed by a coefficient fitted on the other sets
//! (cross-fitted, [`engine::stats::adjust`], the event's arithmetic too): a correction of zero
//! mean, so the difference has the same expectation, and a narrower interval whatever your
//! style. The raw points (paired), your places, and your chips per 100 hands (unpaired, the test
//! the arena used to give its verdict with) are shown beside it.

use crate::SetResult;
use engine::stats::adjust::adjust_samples;
use engine::stats::{
    mean_and_sd, paired_difference, pairs_to_tell, samples_each_to_tell, unpaired_difference,
    Interval, MAX_SUGGESTED_GAMES,
};
use serde::{Deserialize, Serialize};

/// What the comparison says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// More points per game, luck taken out, with 95% confidence.
    Better,
    /// Fewer points per game, luck taken out, with 95% confidence.
    Worse,
    /// The interval still contains 0.
    CantTellYet,
    /// Every deal set both runs played came out exactly the same: the strategy played the
    /// same (or its changes never mattered).
    Identical,
}

/// The measure a verdict is given on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Points per game with the luck of the cards taken out, paired by deal set.
    LuckAdjustedPoints,
}

/// Games each version needs for a verdict on the difference seen now (95% confidence, 80%
/// power), by measure; `None` when the difference is 0 or would take more than
/// [`MAX_SUGGESTED_GAMES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GamesToTell {
    /// Luck-adjusted points, paired: what the verdict uses.
    pub adjusted: Option<u64>,
    /// Raw points, paired.
    pub raw: Option<u64>,
    /// Chips per 100 hands, unpaired (Welch on per-set values).
    pub chips_unpaired: Option<u64>,
}

/// Your finishes over the compared deal sets: wins, seconds, the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finishes {
    /// Games won.
    pub first: u64,
    /// Games finished second.
    pub second: u64,
    /// Games finished third or worse (no points).
    pub rest: u64,
}

impl Finishes {
    fn of(sets: &[SetResult]) -> Finishes {
        let mut finishes = Finishes {
            first: 0,
            second: 0,
            rest: 0,
        };
        for place in sets.iter().flat_map(|set| &set.places) {
            match place {
                1 => finishes.first += 1,
                2 => finishes.second += 1,
                _ => finishes.rest += 1,
            }
        }
        finishes
    }
}

/// How this run compares with another on the deal sets both played.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// The verdict, on [`Judgement::measure`].
    pub verdict: Verdict,
    /// What the verdict was given on.
    pub measure: Measure,
    /// Deal sets both runs played (the pairs).
    pub deal_sets: usize,
    /// Games per deal set.
    pub rotations: usize,
    /// Luck-adjusted points per game, this run minus the other, paired (the verdict's figure).
    pub adjusted: Interval,
    /// The share of the difference in luck taken out of the difference in points, averaged
    /// over the sets (each set's coefficient is fitted on the others).
    pub luck_coefficient: f64,
    /// Each compared set's luck-adjusted difference per game, in set order: what the
    /// decisions an edit changed add up to (`why`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adjusted_by_set: Vec<f64>,
    /// Points per game, this run minus the other, paired.
    pub raw: Interval,
    /// Chips per 100 hands, this run minus the other, unpaired (Welch).
    pub chips_per_100: Interval,
    /// Games with each version that would tell the difference seen now.
    pub games_to_tell: GamesToTell,
    /// Your finishes on the compared sets in this run.
    pub finishes: Finishes,
    /// Your finishes on the compared sets in the other run.
    pub other_finishes: Finishes,
    /// Chips per 100 hands clearly point one way (their interval excludes 0) and the points
    /// the other: a verdict on chips would have been the opposite one.
    pub chips_and_points_disagree: bool,
}

impl Judgement {
    /// What the raw paired points alone would say: the verdict's rule on [`Judgement::raw`].
    /// Shown beside the verdict when it differs; never the verdict (choosing the measure after
    /// seeing both would bias it).
    pub fn raw_verdict(&self) -> Verdict {
        if self.verdict == Verdict::Identical {
            Verdict::Identical
        } else if self.raw.low() > 0.0 {
            Verdict::Better
        } else if self.raw.high() < 0.0 {
            Verdict::Worse
        } else {
            Verdict::CantTellYet
        }
    }
}

/// Compares `current` with `previous` on the deal sets both have (the first
/// `min(len)`), `rotations` games per set; `None` with fewer than two in common.
pub fn judge(current: &[SetResult], previous: &[SetResult], rotations: usize) -> Option<Judgement> {
    let common = current.len().min(previous.len());
    if common < 2 {
        return None;
    }
    let (current, previous) = (&current[..common], &previous[..common]);
    let per_game = |total: f64| total / rotations.max(1) as f64;
    let raw = |sets: &[SetResult]| -> Vec<f64> {
        sets.iter().map(|s| per_game(f64::from(s.points))).collect()
    };
    let chips = |sets: &[SetResult]| -> Vec<f64> { sets.iter().map(|s| s.chips_per_100).collect() };
    let (raw_now, raw_then) = (raw(current), raw(previous));
    let (chips_now, chips_then) = (chips(current), chips(previous));
    // The paired differences, and the luck's: the adjustment regresses one on the other.
    let differences: Vec<(f64, f64)> = current
        .iter()
        .zip(previous)
        .map(|(now, then)| {
            (
                per_game(f64::from(now.points) - f64::from(then.points)),
                per_game(now.luck_total() - then.luck_total()),
            )
        })
        .collect();
    let (adjusted_by_set, adjustment) = adjust_samples(&differences);
    let adjusted_difference = Interval::of(&adjusted_by_set);
    let raw_difference = paired_difference(&raw_now, &raw_then);
    let chips_difference = unpaired_difference(&chips_now, &chips_then);
    let identical = current.iter().zip(previous).all(|(a, b)| {
        a.points == b.points
            && a.places == b.places
            && same(a.luck_total(), b.luck_total())
            && same(a.chips_per_100, b.chips_per_100)
    });
    let verdict = if identical {
        Verdict::Identical
    } else if adjusted_difference.low() > 0.0 {
        Verdict::Better
    } else if adjusted_difference.high() < 0.0 {
        Verdict::Worse
    } else {
        Verdict::CantTellYet
    };
    let cap = (MAX_SUGGESTED_GAMES / rotations.max(1) as u64) as f64;
    let games = |sets: Option<f64>| sets.map(|sets| sets as u64 * rotations as u64);
    let paired_sd = |now: &[f64], then: &[f64]| {
        let differences: Vec<f64> = now.iter().zip(then).map(|(a, b)| a - b).collect();
        mean_and_sd(&differences).1
    };
    let games_to_tell = GamesToTell {
        adjusted: games(pairs_to_tell(
            mean_and_sd(&adjusted_by_set).1,
            adjusted_difference.mean,
            cap,
        )),
        raw: games(pairs_to_tell(
            paired_sd(&raw_now, &raw_then),
            raw_difference.mean,
            cap,
        )),
        chips_unpaired: games(samples_each_to_tell(
            mean_and_sd(&chips_now).1,
            mean_and_sd(&chips_then).1,
            chips_difference.mean,
            cap,
        )),
    };
    // Chips "point" somewhere only when their interval excludes 0: then the old chips verdict
    // would have been the opposite of what the points say.
    let chips_sure = chips_difference.low() > 0.0 || chips_difference.high() < 0.0;
    let opposite = adjusted_difference.mean * chips_difference.mean < 0.0;
    Some(Judgement {
        verdict,
        measure: Measure::LuckAdjustedPoints,
        deal_sets: common,
        rotations,
        adjusted: adjusted_difference,
        luck_coefficient: adjustment.coefficient,
        adjusted_by_set,
        raw: raw_difference,
        chips_per_100: chips_difference,
        games_to_tell,
        finishes: Finishes::of(current),
        other_finishes: Finishes::of(previous),
        chips_and_points_disagree: !identical && opposite && chips_sure,
    })
}

/// Equal to a part in 10^12, not exactly: a saved run's values come back through JSON, whose
/// float parsing may miss the last bit; different play never comes that close.
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set whose points less its luck are `adjusted`.
    fn set(points: u32, adjusted: f64, chips: f64) -> SetResult {
        SetResult {
            points,
            luck: engine::luck::LuckParts {
                own_pots: f64::from(points) - adjusted,
                others_pots: 0.0,
            },
            places: vec![if points >= 5 { 1 } else { 3 }; 2],
            chips_per_100: chips,
        }
    }

    #[test]
    fn the_verdict_is_paired_on_luck_adjusted_points_and_names_its_measure() {
        // Noisy points whose luck the adjustment removes; a steady gain of 0.5 a set (0.25 a
        // game over two rotations).
        let before: Vec<SetResult> = (0..40)
            .map(|i| set((i % 3) * 3, 2.0 + f64::from(i % 2) * 0.1, 100.0))
            .collect();
        let after: Vec<SetResult> = before
            .iter()
            .enumerate()
            .map(|(i, s)| {
                set(
                    (s.points + (i as u32 % 4) * 3) % 9,
                    f64::from(s.points) - s.luck_total() + 0.5,
                    s.chips_per_100 - 50.0 + (i % 5) as f64,
                )
            })
            .collect();
        let judgement = judge(&after, &before, 2).unwrap();
        assert_eq!(judgement.verdict, Verdict::Better);
        assert_eq!(judgement.measure, Measure::LuckAdjustedPoints);
        assert!((judgement.adjusted.mean - 0.25).abs() < 1e-12);
        // The raw points are far noisier: they need many more games.
        assert!(judgement.games_to_tell.raw.is_none_or(|raw| raw > 200));
        // ... and cannot tell yet: the two measures differ, which the run says in words.
        assert_eq!(judgement.raw_verdict(), Verdict::CantTellYet);
        // Fewer chips, more points: said so.
        assert!(judgement.chips_and_points_disagree);
        let reverse = judge(&before, &after, 2).unwrap();
        assert_eq!(reverse.verdict, Verdict::Worse);
        // Chips a little down but within their noise: they point nowhere, nothing to say.
        let noisy_chips: Vec<SetResult> = after
            .iter()
            .enumerate()
            .map(|(i, s)| SetResult {
                chips_per_100: if i % 2 == 0 { 1000.0 } else { -1000.0 },
                ..s.clone()
            })
            .collect();
        assert!(
            !judge(&noisy_chips, &before, 2)
                .unwrap()
                .chips_and_points_disagree
        );
        let identical = judge(&before, &before, 2).unwrap();
        assert_eq!(identical.verdict, Verdict::Identical);
        assert_eq!(identical.raw_verdict(), Verdict::Identical);
        assert!(judge(&before[..1], &before, 2).is_none());
    }

    #[test]
    fn undecided_comparisons_say_how_many_games_would_tell() {
        // Points that swing by 3 either way with the luck of the cards, and a small steady
        // difference beneath it.
        let before: Vec<SetResult> = (0..20).map(|i| set(3, f64::from(i % 2), 0.0)).collect();
        let after: Vec<SetResult> = (0..20)
            .map(|i| {
                set(
                    if i % 2 == 0 { 6 } else { 0 },
                    f64::from(i % 2) + if i % 3 == 0 { 0.4 } else { -0.1 },
                    0.0,
                )
            })
            .collect();
        let judgement = judge(&after, &before, 6).unwrap();
        assert_eq!(judgement.verdict, Verdict::CantTellYet);
        // The luck explains the swings: its coefficient is fitted near 1.
        assert!(
            (judgement.luck_coefficient - 1.0).abs() < 0.1,
            "{judgement:?}"
        );
        let games = judgement.games_to_tell.adjusted.unwrap();
        assert!(games > 120 && games.is_multiple_of(6), "{games}");
        assert!(!judgement.chips_and_points_disagree);
    }
}
