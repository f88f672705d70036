//! Ratings with uncertainty: every player's skill estimate, updated from each sit'n'go's
//! finishing order.
//!
//! The model is Weng-Lin (the Bayesian approximation behind OpenSkill) from the `skillratings`
//! crate, each player a one-member team ranked by its place: it rates a many-player finishing
//! order in one update and keeps an uncertainty that shrinks with every game (see
//! `docs/decisions.md` for why this model). A new player starts at 25 ± 25/3.
//!
//! It lives in the engine crate, not the dealer, because two programs rate: `dealer run` and
//! the player SDK's arena (`cargo arena`), which must agree; the model is arithmetic only, so
//! the engine stays pure.
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

/// One deal set's result from the finishing orders of its rotations (each first place first):
/// every player ranked by its average finishing place over the rotations it sat, 1 best,
/// equal averages tied (competition ranking: 1, 1, 3), in order of rank then first
/// appearance. A name given twice within one order counts once there (its best place).
///
/// ```
/// use engine::rating::deal_set_ranks;
/// let ranks = deal_set_ranks(&[vec!["a", "b", "c"], vec!["b", "a", "c"], vec!["a", "c", "b"]]);
/// assert_eq!(ranks, [("a", 1), ("b", 2), ("c", 3)]);
/// assert_eq!(deal_set_ranks(&[vec!["a", "b"], vec!["b", "a"]]), [("a", 1), ("b", 1)]);
/// ```
pub fn deal_set_ranks<'a>(rotations: &[Vec<&'a str>]) -> Vec<(&'a str, usize)> {
    // (name, sum of places, rotations sat), in order of first appearance.
    let mut places: Vec<(&'a str, u64, u64)> = Vec::new();
    for order in rotations {
        for (place, &name) in order.iter().enumerate() {
            if order[..place].contains(&name) {
                continue;
            }
            let place = place as u64 + 1;
            match places.iter_mut().find(|(seen, _, _)| *seen == name) {
                Some((_, sum, sat)) => {
                    *sum += place;
                    *sat += 1;
                }
                None => places.push((name, place, 1)),
            }
        }
    }
    // Averages compared exactly: sum_a / sat_a against sum_b / sat_b.
    let by_average = |a: &(&str, u64, u64), b: &(&str, u64, u64)| (a.1 * b.2).cmp(&(b.1 * a.2));
    places.sort_by(by_average);
    let mut ranked: Vec<(&'a str, usize)> = Vec::with_capacity(places.len());
    for (index, player) in places.iter().enumerate() {
        let rank = match index.checked_sub(1) {
            Some(before) if by_average(&places[before], player).is_eq() => ranked[before].1,
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

    /// Updates the ratings from one game's finishing order (names, first place first). Names
    /// that are not rated here are skipped; an order with fewer than two rated players, or a
    /// name given twice, changes nothing.
    pub fn record(&mut self, finishing_order: &[&str]) {
        let ranked: Vec<(&str, usize)> = finishing_order
            .iter()
            .enumerate()
            .map(|(place, &name)| (name, place + 1))
            .collect();
        self.record_ranked(&ranked);
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
    /// rotations (first place first) combined into one result by [`deal_set_ranks`], so the
    /// luck of the cards, which the rotations share out evenly, cancels before the rating
    /// sees it. The combined result is recorded once per rotation given: a set of `n` games
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
