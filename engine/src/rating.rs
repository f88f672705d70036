//! Ratings with uncertainty: every player's skill estimate, updated from each sit'n'go's
//! result **as the event scores it**: first, second, and everyone else tied (5, 3 and 0
//! points, spec §7).
//!
//! The model is Weng-Lin (the Bayesian approximation behind OpenSkill) from the `skillratings`
//! crate, each player a one-member team: it rates a many-player result in one update (ties
//! included) and keeps an uncertainty that shrinks with every game (see `docs/decisions.md`
//! for why this model). A new player starts at 25 ± 25/3.
//!
//! **What is rated is what scores.** A game's finishing order is recorded as three ranks: the
//! winner, the runner-up, and the rest tied ([`game_ranks`]); a duplicate deal set as each
//! player's points per game over its rotations, more first, equal points tied
//! ([`deal_set_ranks`]). So surviving longer without finishing in the points earns nothing, as
//! at the event: a bot that never finishes first or second cannot out-rate one that does, and
//! the rating order follows the points order (a full finishing order rated a fold-only bot,
//! which busts last among the losers, above bots that won).
//!
//! It lives in the engine crate, not the dealer, because three places rate: `dealer run`, the
//! event's leaderboard and the arena (`cargo arena`), which must agree; the model is arithmetic
//! only, so the engine stays pure.
//!
//! ```
//! use engine::rating::Ratings;
//! let mut ratings = Ratings::new(["strong", "weak", "weaker"]);
//! for _ in 0..30 {
//!     ratings.record(&["strong", "weak", "weaker"]);
//! }
//! assert_eq!(ratings.confident_leader(2.0), Some("strong"));
//! let strong = ratings.get("strong").unwrap();
//! assert!(strong.rating > 25.0 && strong.uncertainty < 25.0 / 3.0);
//! ```

use serde::{Deserialize, Serialize};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

use crate::result::points_for_place;

/// How many standard deviations apart two ratings must be to call one player stronger with
/// confidence (see [`Ratings::confident_leader`]); 2 is about 95% on each side.
pub const CONFIDENCE_SIGMAS: f64 = 2.0;

/// One player's rating: an estimate and its uncertainty (one standard deviation).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The skill estimate (Weng-Lin's mu; 25 for a new player).
    pub rating: f64,
    /// One standard deviation of the estimate (sigma; 25/3 for a new player).
    pub uncertainty: f64,
}

impl Rating {
    /// The estimate `k` standard deviations down: a cautious skill figure.
    pub fn low(&self, k: f64) -> f64 {
        self.rating - k * self.uncertainty
    }

    /// The estimate `k` standard deviations up.
    pub fn high(&self, k: f64) -> f64 {
        self.rating + k * self.uncertainty
    }
}

impl From<WengLinRating> for Rating {
    fn from(rating: WengLinRating) -> Rating {
        Rating {
            rating: rating.rating,
            uncertainty: rating.uncertainty,
        }
    }
}

/// The index of the rating whose value `k` standard deviations down is above every other
/// rating `k` standard deviations up (the first of equal best); `None` while the intervals of
/// the best two overlap, or with fewer than two ratings. [`Ratings::confident_leader`] by
/// name; this form serves ratings read back from `results.json`.
///
/// ```
/// use engine::rating::{confident_leader, Rating};
/// let sure = Rating { rating: 40.0, uncertainty: 1.0 };
/// let weak = Rating { rating: 20.0, uncertainty: 2.0 };
/// assert_eq!(confident_leader(&[weak, sure], 2.0), Some(1));
/// assert_eq!(confident_leader(&[weak, Rating { rating: 25.0, ..weak }], 2.0), None);
/// ```
pub fn confident_leader(ratings: &[Rating], k: f64) -> Option<usize> {
    let leader = (0..ratings.len()).max_by(|&a, &b| {
        ratings[a]
            .rating
            .total_cmp(&ratings[b].rating)
            .then(b.cmp(&a))
    })?;
    let low = ratings[leader].low(k);
    let others_high = ratings
        .iter()
        .enumerate()
        .filter(|&(index, _)| index != leader)
        .map(|(_, rating)| rating.high(k))
        .max_by(f64::total_cmp)?;
    (low > others_high).then_some(leader)
}

/// The rank of a finishing place as the event scores it: 1 for the winner, 2 for the
/// runner-up, 3 for everyone else (tied: they all score 0).
pub const fn scored_rank(place: usize) -> usize {
    if place <= 2 {
        place
    } else {
        3
    }
}

/// One game's result as the event scores it, from its finishing order (first place first):
/// the winner ranked 1, the runner-up 2, everyone else tied at 3. A name given twice counts
/// once (its best place).
///
/// ```
/// use engine::rating::game_ranks;
/// let ranks = game_ranks(&["a", "b", "c", "d"]);
/// assert_eq!(ranks, [("a", 1), ("b", 2), ("c", 3), ("d", 3)]);
/// ```
pub fn game_ranks<'a>(finishing_order: &[&'a str]) -> Vec<(&'a str, usize)> {
    let mut ranked: Vec<(&'a str, usize)> = Vec::with_capacity(finishing_order.len());
    for (place, &name) in finishing_order.iter().enumerate() {
        if !ranked.iter().any(|&(seen, _)| seen == name) {
            ranked.push((name, scored_rank(place + 1)));
        }
    }
    ranked
}

/// One deal set's result from the finishing orders of its rotations (each first place first):
/// every player ranked by the points it scored per game over the rotations it sat (5 for a
/// win, 3 for second, [`crate::result::points_for_place`]), more first, equal points per game
/// tied (competition ranking: 1, 1, 3), in order of rank then first appearance. A name given
/// twice within one order counts once there (its best place).
///
/// ```
/// use engine::rating::deal_set_ranks;
/// // a: 5 + 3 + 5, b: 3 + 5 + 0, c: 0 + 0 + 3 points.
/// let ranks = deal_set_ranks(&[vec!["a", "b", "c"], vec!["b", "a", "c"], vec!["a", "c", "b"]]);
/// assert_eq!(ranks, [("a", 1), ("b", 2), ("c", 3)]);
/// assert_eq!(deal_set_ranks(&[vec!["a", "b"], vec!["b", "a"]]), [("a", 1), ("b", 1)]);
/// // Third and fourth score alike: a tie.
/// assert_eq!(deal_set_ranks(&[vec!["a", "b", "c", "d"]])[2..], [("c", 3), ("d", 3)]);
/// ```
pub fn deal_set_ranks<'a>(rotations: &[Vec<&'a str>]) -> Vec<(&'a str, usize)> {
    // (name, points, rotations sat), in order of first appearance.
    let mut scores: Vec<(&'a str, u64, u64)> = Vec::new();
    for order in rotations {
        for (place, &name) in order.iter().enumerate() {
            if order[..place].contains(&name) {
                continue;
            }
            let points = u64::from(points_for_place(place + 1));
            match scores.iter_mut().find(|(seen, _, _)| *seen == name) {
                Some((_, sum, sat)) => {
                    *sum += points;
                    *sat += 1;
                }
                None => scores.push((name, points, 1)),
            }
        }
    }
    // Points per game compared exactly, more first: sum_b / sat_b against sum_a / sat_a.
    let by_points = |a: &(&str, u64, u64), b: &(&str, u64, u64)| (b.1 * a.2).cmp(&(a.1 * b.2));
    scores.sort_by(by_points);
    let mut ranked: Vec<(&'a str, usize)> = Vec::with_capacity(scores.len());
    for (index, player) in scores.iter().enumerate() {
        let rank = match index.checked_sub(1) {
            Some(before) if by_points(&scores[before], player).is_eq() => ranked[before].1,
            _ => index + 1,
        };
        ranked.push((player.0, rank));
    }
    ranked
}

/// The ratings of a fixed set of players, updated one game at a time.
#[derive(Debug, Clone)]
pub struct Ratings {
    names: Vec<String>,
    ratings: Vec<WengLinRating>,
    config: WengLinConfig,
}

impl Ratings {
    /// Every player at the starting rating.
    pub fn new<I, S>(names: I) -> Ratings
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let names: Vec<String> = names.into_iter().map(Into::into).collect();
        Ratings {
            ratings: vec![WengLinRating::new(); names.len()],
            names,
            config: WengLinConfig::new(),
        }
    }

    /// Updates the ratings from one game's finishing order (names, first place first), as the
    /// event scores it ([`game_ranks`]: the winner, the runner-up, the rest tied). Names that
    /// are not rated here are skipped; an order with fewer than two rated players, or a name
    /// given twice, changes nothing.
    pub fn record(&mut self, finishing_order: &[&str]) {
        let mut seen: Vec<&str> = Vec::with_capacity(finishing_order.len());
        for &name in finishing_order {
            if seen.contains(&name) {
                return;
            }
            seen.push(name);
        }
        self.record_ranked(&game_ranks(finishing_order));
    }

    /// Updates the ratings from one result given as a rank per player (1 is best; equal ranks
    /// are a tie), in one multi-team update. Names that are not rated here are skipped; fewer
    /// than two rated players, or a name given twice, changes nothing.
    pub fn record_ranked(&mut self, ranked: &[(&str, usize)]) {
        let mut seats: Vec<(usize, usize)> = Vec::with_capacity(ranked.len());
        for &(name, rank) in ranked {
            if let Some(index) = self.index(name) {
                if seats.iter().any(|&(seen, _)| seen == index) {
                    return;
                }
                seats.push((index, rank));
            }
        }
        if seats.len() < 2 {
            return;
        }
        let teams: Vec<[WengLinRating; 1]> =
            seats.iter().map(|&(i, _)| [self.ratings[i]]).collect();
        let outcome: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(&seats)
            .map(|(team, &(_, rank))| (&team[..], MultiTeamOutcome::new(rank)))
            .collect();
        let updated = weng_lin_multi_team(&outcome, &self.config);
        for (&(index, _), team) in seats.iter().zip(updated) {
            if let Some(&rating) = team.first() {
                self.ratings[index] = rating;
            }
        }
    }

    /// Updates the ratings from one deal set of a duplicate run: the finishing orders of its
    /// rotations (first place first) combined into one result by [`deal_set_ranks`] (points
    /// per game), so the luck of the cards, which the rotations share out evenly, cancels
    /// before the rating sees it. The combined result is recorded once per rotation given: a set of `n` games
    /// weighs as much as `n` plain games (Weng-Lin has no weight per result; one update per
    /// set would let a duplicate run's uncertainty shrink `n` times slower than a plain run's
    /// for the same games played).
    pub fn record_deal_set(&mut self, rotations: &[Vec<&str>]) {
        let ranked = deal_set_ranks(rotations);
        for _ in rotations {
            self.record_ranked(&ranked);
        }
    }

    /// A player's rating (`None` for a name that is not rated here).
    pub fn get(&self, name: &str) -> Option<Rating> {
        self.index(name)
            .map(|index| Rating::from(self.ratings[index]))
    }

    /// The player whose rating `k` standard deviations down is above every other player's
    /// rating `k` standard deviations up: the stronger one "with confidence". `None` while the
    /// intervals of the best two overlap (or with fewer than two players).
    pub fn confident_leader(&self, k: f64) -> Option<&str> {
        let ratings: Vec<Rating> = self.ratings.iter().copied().map(Rating::from).collect();
        confident_leader(&ratings, k).map(|leader| self.names[leader].as_str())
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winners_rise_losers_fall_and_uncertainty_shrinks() {
        let mut ratings = Ratings::new(["a", "b", "c"]);
        ratings.record(&["b", "a", "c"]);
        let [a, b, c] = ["a", "b", "c"].map(|n| ratings.get(n).unwrap());
        assert!(b.rating > a.rating && a.rating > c.rating);
        for rating in [a, b, c] {
            assert!(rating.uncertainty < 25.0 / 3.0);
        }
    }

    #[test]
    fn unknown_repeated_or_lone_names_change_nothing() {
        let fresh = Ratings::new(["a", "b"]);
        let mut ratings = fresh.clone();
        ratings.record(&["a", "nobody"]);
        ratings.record(&["a", "b", "a"]);
        ratings.record(&[]);
        for name in ["a", "b"] {
            assert_eq!(ratings.get(name), fresh.get(name));
        }
        assert_eq!(ratings.get("nobody"), None);
    }

    /// The issue behind the event-scored ranks: a survivor that always busts third (0 points)
    /// against a gambler that wins one game in four and busts first otherwise. Rated by the
    /// full finishing order, the survivor's steady third place out-rated the winner; as the
    /// event scores, the winner (1.25 points a game) is rated above it (0 points).
    #[test]
    fn a_bot_that_never_scores_cannot_out_rate_one_that_wins() {
        let mut ratings = Ratings::new(["gambler", "survivor", "a", "b", "c", "d"]);
        for game in 0..200 {
            let order = if game % 4 == 0 {
                ["gambler", "a", "survivor", "b", "c", "d"]
            } else {
                // The others take turns at first and second.
                match game % 3 {
                    0 => ["a", "b", "survivor", "c", "d", "gambler"],
                    1 => ["c", "d", "survivor", "a", "b", "gambler"],
                    _ => ["b", "c", "survivor", "d", "a", "gambler"],
                }
            };
            ratings.record(&order);
        }
        let [gambler, survivor] = ["gambler", "survivor"].map(|n| ratings.get(n).unwrap());
        assert!(
            gambler.low(CONFIDENCE_SIGMAS) > survivor.high(CONFIDENCE_SIGMAS),
            "{gambler:?} {survivor:?}"
        );
        // Third and sixth place score alike, so they are rated alike.
        let mut only_losers = Ratings::new(["w", "x", "third", "last"]);
        for _ in 0..50 {
            only_losers.record(&["w", "x", "third", "last"]);
        }
        assert_eq!(only_losers.get("third"), only_losers.get("last"));
    }

    #[test]
    fn no_leader_while_the_intervals_overlap() {
        let mut ratings = Ratings::new(["a", "b"]);
        assert_eq!(ratings.confident_leader(CONFIDENCE_SIGMAS), None);
        ratings.record(&["a", "b"]);
        assert_eq!(ratings.confident_leader(CONFIDENCE_SIGMAS), None);
        ratings.record(&["b", "a"]);
        for _ in 0..50 {
            ratings.record(&["a", "b"]);
            ratings.record(&["b", "a"]);
        }
        assert_eq!(ratings.confident_leader(CONFIDENCE_SIGMAS), None);
    }
}
