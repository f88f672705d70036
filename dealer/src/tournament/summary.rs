//! The run-wide figures of `results.json` that follow from its games: points totals, ratings
//! and deal sets. One function computes them for a running, a finished and a merged run, so a
//! merged run's `results.json` is the unsharded run's byte for byte.

use super::results::{self, DealSetEntry, DealSetPoints, GameEntry, RunResults};
use crate::rating::Ratings;
use std::collections::{BTreeMap, VecDeque};

/// Ratings over the games of a run, in game-number order whatever order the games finish in.
///
/// The unit of a rating update is one game of a plain run and one deal set of a duplicate run
/// (its rotations combined by [`Ratings::record_deal_set`]; see `docs/decisions.md`). Units
/// that finish before an earlier one, and a deal set not yet complete, are folded into a copy
/// at each summary; a unit is folded for good once it and every unit planned before it have
/// finished, so ten thousand games cost at most ten thousand updates plus at most `parallel`
/// extra units per summary.
#[derive(Debug, Clone)]
pub(crate) struct Rater {
    settled: Ratings,
    /// The planned units not folded for good, in game order: each its game numbers, ascending.
    pending: VecDeque<Vec<u32>>,
}

impl Rater {
    /// For `players`, rating the games planned as `(number, deal set)` (any order; the deal set
    /// `None` in a plain run).
    pub(crate) fn new(
        players: &RunResults,
        planned: impl IntoIterator<Item = (u32, Option<u32>)>,
    ) -> Rater {
        let mut planned: Vec<(u32, Option<u32>)> = planned.into_iter().collect();
        planned.sort_unstable();
        let mut pending: VecDeque<Vec<u32>> = VecDeque::new();
        let mut last_set = None;
        for (number, deal_set) in planned {
            match (pending.back_mut(), deal_set) {
                (Some(unit), Some(set)) if last_set == Some(set) => unit.push(number),
                _ => pending.push_back(vec![number]),
            }
            last_set = deal_set;
        }
        Rater {
            settled: Ratings::new(players.players.iter().map(|p| p.name.clone())),
            pending,
        }
    }

    /// The ratings after `games` (the games finished so far, by number).
    pub(crate) fn ratings(&mut self, games: &BTreeMap<u32, GameEntry>) -> Ratings {
        while let Some(unit) = self.pending.front() {
            let Some(finished) = unit
                .iter()
                .map(|n| games.get(n))
                .collect::<Option<Vec<&GameEntry>>>()
            else {
                break;
            };
            record(&mut self.settled, &finished);
            self.pending.pop_front();
        }
        let mut ratings = self.settled.clone();
        if let Some(&first_pending) = self.pending.front().and_then(|unit| unit.first()) {
            let mut unit: Vec<&GameEntry> = Vec::new();
            for game in games.range(first_pending..).map(|(_, game)| game) {
                let same_set = |other: &&GameEntry| {
                    other.deal.is_some()
                        && other.deal.map(|d| d.deal_set) == game.deal.map(|d| d.deal_set)
                };
                if !unit.last().is_some_and(same_set) {
                    record(&mut ratings, &unit);
                    unit.clear();
                }
                unit.push(game);
            }
            record(&mut ratings, &unit);
        }
        ratings
    }
}

/// One unit's result: a plain game's finishing order, or a deal set's rotations combined;
/// without the players that sat a game out. No games change nothing.
fn record(ratings: &mut Ratings, unit: &[&GameEntry]) {
    let orders: Vec<Vec<&str>> = unit
        .iter()
        .map(|game| {
            game.standings
                .iter()
                .filter(|standing| !game.absent.iter().any(|a| a.name == standing.name))
                .map(|standing| standing.name.as_str())
                .collect()
        })
        .collect();
    match unit {
        [] => {}
        [game] if game.deal.is_none() => ratings.record(&orders[0]),
        _ => ratings.record_deal_set(&orders),
    }
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
