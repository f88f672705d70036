//! The proof that taking the luck out biases nothing: A/A comparisons.
//!
//! The same randomised bot plays two runs on the same deals, its own random choices drawn
//! from two different seeds: the runs differ, but the true difference between them is
//! exactly 0 (the two seeds are two draws of the same randomised strategy, fresh for every
//! deal). So a 95% interval of the paired difference must cover 0 in about 95% of such
//! comparisons, raw and luck-adjusted alike; and the luck itself must average 0.

use arena::Arena;
use bots::{BotKind, LooseBot};
use player::{Chips, GameState, Player};
use std::hash::{Hash, Hasher};

/// The loose house bot, which also calls (or checks) instead of its own answer at one
/// decision in six, drawn from its seed and the decision: a randomised strategy whose two
/// seeds part ways early in most games, so that the comparisons are not mostly ties.
struct Jittery {
    seed: u64,
    bot: LooseBot,
}

impl Jittery {
    fn new(seed: u64) -> Jittery {
        Jittery {
            seed,
            bot: LooseBot { seed },
        }
    }
}

impl Player for Jittery {
    fn bet_request(&self, state: &GameState) -> Chips {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (self.seed, state.round, state.bet_index).hash(&mut hasher);
        for card in state.my_cards().iter().chain(&state.community_cards) {
            card.index().hash(&mut hasher);
        }
        if hasher.finish().is_multiple_of(6) {
            state.call_amount()
        } else {
            self.bot.bet_request(state)
        }
    }
}

/// A/A comparisons (each its own run seed).
const TRIALS: u64 = 200;
/// Games per run of a comparison: ten deal sets of three rotations.
const GAMES: u32 = 30;
/// The table: three seats, so that the proof's 12,000 games take seconds, not minutes (the
/// adjustment does not depend on the table's size).
const OPPONENTS: [BotKind; 2] = [BotKind::Tight, BotKind::PushFold];

struct Coverage {
    covered: u32,
    differences: Vec<f64>,
}

impl Coverage {
    fn new() -> Coverage {
        Coverage {
            covered: 0,
            differences: Vec::new(),
        }
    }

    fn add(&mut self, per_set: &[f64]) {
        let interval = arena::Interval::of(per_set);
        if interval.low() <= 0.0 && interval.high() >= 0.0 {
            self.covered += 1;
        }
        self.differences.push(interval.mean);
    }
}

/// Mean and standard error.
fn mean_and_error(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (variance / n).sqrt())
}

#[test]
#[ignore = "the 200-comparison proof: cargo test --release -p lean-poker-arena --test arena_tests -- --ignored"]
fn a_a_intervals_cover_zero_and_the_luck_averages_zero() {
    let mut raw = Coverage::new();
    let mut adjusted = Coverage::new();
    let mut luck_per_game = Vec::new();
    let mut raw_variance = 0.0;
    let mut adjusted_variance = 0.0;
    for trial in 0..TRIALS {
        let arena = Arena::new(OPPONENTS.to_vec())
            .games(GAMES)
            .seed(1_000 + trial);
        let first = arena.run(&Jittery::new(2 * trial)).unwrap();
        let second = arena.run(&Jittery::new(2 * trial + 1)).unwrap();
        let rotations = first.rotations as f64;
        let mut raw_d = Vec::new();
        for (a, b) in first.your_sets.iter().zip(&second.your_sets) {
            raw_d.push((f64::from(a.points) - f64::from(b.points)) / rotations);
            for set in [a, b] {
                luck_per_game.push(set.luck_total() / rotations);
            }
        }
        // The verdict's own figure: the differences less their luck, weighed by coefficients
        // fitted on the other sets.
        let adjusted_d = arena::judge(
            &first.your_sets,
            &second.your_sets,
            first.rotations as usize,
        )
        .unwrap()
        .adjusted_by_set;
        raw_variance += mean_and_error(&raw_d).1.powi(2);
        adjusted_variance += mean_and_error(&adjusted_d).1.powi(2);
        raw.add(&raw_d);
        adjusted.add(&adjusted_d);
    }
    let (luck, luck_error) = mean_and_error(&luck_per_game);
    let (raw_mean, raw_error) = mean_and_error(&raw.differences);
    let (adjusted_mean, adjusted_error) = mean_and_error(&adjusted.differences);
    eprintln!(
        "{TRIALS} A/A comparisons of {GAMES} games: 95% intervals covered 0 in {} raw, {} \
         adjusted; mean difference raw {raw_mean:+.4} ± {raw_error:.4}, adjusted \
         {adjusted_mean:+.4} ± {adjusted_error:.4} (standard errors); luck per game \
         {luck:+.4} ± {luck_error:.4}; variance of a comparison, raw over adjusted: {:.2}",
        raw.covered,
        adjusted.covered,
        raw_variance / adjusted_variance
    );
    // Binomial(200, 0.95): 190 expected, 180..=199 is beyond three standard deviations
    // (3.1) only with a wrong coverage. 200 of 200 would mean intervals far too wide.
    for (name, coverage) in [("raw", &raw), ("adjusted", &adjusted)] {
        assert!(
            (180..=199).contains(&coverage.covered),
            "{name}: {} of {TRIALS}",
            coverage.covered
        );
    }
    // No bias: the mean differences and the luck are within 3.5 standard errors of 0.
    assert!(
        raw_mean.abs() < 3.5 * raw_error,
        "raw {raw_mean} ± {raw_error}"
    );
    assert!(
        adjusted_mean.abs() < 3.5 * adjusted_error,
        "adjusted {adjusted_mean} ± {adjusted_error}"
    );
    assert!(luck.abs() < 3.5 * luck_error, "luck {luck} ± {luck_error}");
    // And it is worth having: the adjusted comparisons are less variable than the raw ones.
    assert!(adjusted_variance < raw_variance);
}
