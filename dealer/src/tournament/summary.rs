//! The run-wide figures of `results.json` that follow from its games: points totals, ratings
//! and deal sets. One function computes them for a running, a finished and a merged run, so a
//! merged run's `results.json` is the unsharded run's byte for byte.

use super::results::{self, DealSetEntry, DealSetPoints, GameEntry, RunResults};
use crate::rating::Ratings;
use std::collections::{BTreeMap, VecDeque};

/// Ratings over the games of a run, in game-number order whatever order the games finish in.
///
/// Games that finish before an earlier one are folded into a copy at each summary; a game is
/// folded for good once every game planned before it has finished, so ten thousand games
/// cost ten thousand updates plus at most `parallel` extra per summary.
#[derive(Debug, Clone)]
pub(crate) struct Rater {
    settled: Ratings,
    /// Planned game numbers not folded for good, ascending.
    pending: VecDeque<u32>,
}

impl Rater {
    /// For `players`, rating the games numbered `planned` (any order).
    pub(crate) fn new(players: &RunResults, planned: impl IntoIterator<Item = u32>) -> Rater {
        let mut pending: Vec<u32> = planned.into_iter().collect();
        pending.sort_unstable();
        Rater {
            settled: Ratings::new(players.players.iter().map(|p| p.name.clone())),
            pending: pending.into(),
        }
    }

    /// The ratings after `games` (the games finished so far, by number).
    pub(crate) fn ratings(&mut self, games: &BTreeMap<u32, GameEntry>) -> Ratings {
        while let Some(game) = self.pending.front().and_then(|n| games.get(n)) {
            record(&mut self.settled, game);
            self.pending.pop_front();
        }
        let mut ratings = self.settled.clone();
        if let Some(&first_pending) = self.pending.front() {
            for game in games.range(first_pending..).map(|(_, game)| game) {
                record(&mut ratings, game);
            }
        }
        ratings
    }
}

/// One game's finishing order, without the players that sat it out.
fn record(ratings: &mut Ratings, game: &GameEntry) {
    let order: Vec<&str> = game
        .standings
        .iter()
        .filter(|standing| !game.absent.iter().any(|a| a.name == standing.name))
        .map(|standing| standing.name.as_str())
        .collect();
    ratings.record(&order);
}

/// Sets `results.games`, the totals (with ratings) and the deal sets from `games`.
pub(crate) fn summarise(
    results: &mut RunResults,
    games: &BTreeMap<u32, GameEntry>,
    rater: &mut Rater,
) {
    results.games = games.values().cloned().collect();
    results.totals = results::totals(&results.players, &results.games);
    let ratings = rater.ratings(games);
    for total in &mut results.totals {
        if let Some(rating) = ratings.get(&total.name) {
            total.rating = Some(rating.rating);
            total.uncertainty = Some(rating.uncertainty);
        }
    }
    results.deal_sets = deal_sets(&results.games, results.players.len());
}

fn deal_sets(games: &[GameEntry], rotations: usize) -> Vec<DealSetEntry> {
    let mut sets: BTreeMap<u32, (Vec<u32>, BTreeMap<&str, u64>)> = BTreeMap::new();
    for game in games {
        let Some(deal) = game.deal else { continue };
        let (numbers, points) = sets.entry(deal.deal_set).or_default();
        numbers.push(game.game);
        for standing in &game.standings {
            *points.entry(standing.name.as_str()).or_default() += u64::from(standing.points);
        }
    }
    sets.into_iter()
        .map(|(deal_set, (games, points))| {
            let mut points: Vec<DealSetPoints> = points
                .into_iter()
                .map(|(name, points)| DealSetPoints {
                    name: name.to_string(),
                    points,
                })
                .collect();
            points.sort_by(|a, b| b.points.cmp(&a.points).then(a.name.cmp(&b.name)));
            DealSetEntry {
                deal_set,
                complete: games.len() == rotations,
                games,
                points,
            }
        })
        .collect()
}
