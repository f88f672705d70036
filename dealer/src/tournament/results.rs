//! `results.json`: what a run produced, for people and for tools. See the crate README for the
//! field reference; the types here are the schema (serde), so a tool written in Rust can read
//! the file back with [`RunResults`].

use crate::config::GameConfig;
use crate::result::GameResult;
use crate::runner::{AbsentPolicy, ObserverFailure};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunResults {
    /// 24 hex digits, shared by every game of the run.
    pub tournament_id: String,
    /// The run seed: the same seed (and the same answers) replays the run.
    pub seed: u64,
    /// Whether time values were zeroed (`--reproducible`).
    pub reproducible: bool,
    /// Games asked for.
    pub games_planned: u32,
    /// Whether every planned game was played.
    pub complete: bool,
    /// Why the run ended early (`None` when complete or still running).
    pub stopped_because: Option<String>,
    /// How every game was played.
    pub config: GameConfig,
    /// What was done with players that did not come up.
    pub absent_players: AbsentPolicy,
    /// The entrants, in the order they were given.
    pub players: Vec<PlayerEntry>,
    /// The games played, by number.
    pub games: Vec<GameEntry>,
    /// Points per player over the games played, most first.
    pub totals: Vec<Total>,
    /// Whether every deal set is played once per rotation of the seats (duplicate mode; see
    /// [`super::duplicate`]). Written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub duplicate: bool,
    /// Points per deal set (duplicate mode only), by deal set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deal_sets: Vec<DealSetEntry>,
    /// The part of the run this folder holds (`"K/N"`), for a sharded run; a merged or
    /// unsharded run has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<super::shard::Shard>,
}

/// Which deal set and rotation a game of a duplicate run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealRef {
    /// 1-based deal set: the games of one set share the seed, so the cards per seat.
    pub deal_set: u32,
    /// 0-based rotation: seat `s` holds the entrant of seat `s + rotation` of rotation 0.
    pub rotation: u32,
}

/// One deal set's results (duplicate mode).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealSetEntry {
    /// 1-based deal set.
    pub deal_set: u32,
    /// The numbers of its games played so far.
    pub games: Vec<u32>,
    /// Whether every rotation was played (only then the luck of the cards cancels).
    pub complete: bool,
    /// Points per player over the set's games, most first (then name).
    pub points: Vec<DealSetPoints>,
}

/// One player's points in one deal set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealSetPoints {
    /// The player.
    pub name: String,
    /// Points over the set's games.
    pub points: u64,
}

/// One entrant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerEntry {
    /// The name it plays under.
    pub name: String,
    /// Its URL, without credentials (HTTP players).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Its kind (house bots played in process).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
}

/// One game that was played to its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEntry {
    /// 1-based game number; its outputs are in [`GameEntry::dir`].
    pub game: u32,
    /// The game's folder, relative to the run folder (`game-1`).
    pub dir: String,
    /// Names first place first, with points and final stacks.
    pub standings: Vec<Standing>,
    /// Players that never answered `check` and sat the game out.
    pub absent: Vec<Absent>,
    /// Each seat's version at the end (`Unknown` if it never answered), in seat order.
    pub versions: Vec<String>,
    /// Requests sent to players in this game.
    pub requests: u64,
    /// Outputs that failed during the game (their files are incomplete).
    pub observer_errors: Vec<ObserverFailure>,
    /// The deal set and rotation (duplicate mode only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<DealRef>,
    /// The engine's result: ids, seed, players (seat order), ranking (seats), places, points,
    /// hands played, why it ended, bans (with reasons and rounds), warnings, final stacks.
    #[serde(flatten)]
    pub result: GameResult,
}

/// One player's place in one game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// 1 for the winner.
    pub place: usize,
    /// The player.
    pub name: String,
    /// The player's seat in this game.
    pub seat: usize,
    /// 5, 3 or 0.
    pub points: u32,
    /// Chips at the end.
    pub final_stack: u64,
    /// The hand it was eliminated in (`None` for survivors).
    pub eliminated_in_round: Option<u64>,
    /// Whether it was banned.
    pub banned: bool,
}

/// A player that sat a game out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Absent {
    /// The player.
    pub name: String,
    /// The last `check` failure.
    pub reason: String,
}

/// One player's totals over the games played.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Total {
    /// The player.
    pub name: String,
    /// Points over all games.
    pub points: u64,
    /// Games played (seated).
    pub games: u32,
    /// First places.
    pub wins: u32,
    /// Second places.
    pub seconds: u32,
    /// Games in which it was banned.
    pub bans: u32,
    /// Games it sat out (down at the start).
    pub absent: u32,
    /// Its rating over the games played, in game order (see [`crate::rating`]); `None`
    /// until it is computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    /// One standard deviation of [`Total::rating`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uncertainty: Option<f64>,
}

impl GameEntry {
    /// Builds the entry from the engine's result (nothing re-derived: names are looked up by
    /// seat).
    pub(crate) fn new(game: u32, dir: String, outcome: crate::runner::GameOutcome) -> GameEntry {
        let result = outcome.result;
        let standings = result
            .ranking
            .iter()
            .map(|seat| {
                let index = seat.index();
                Standing {
                    place: result.places.get(index).copied().unwrap_or(0),
                    name: result.players.get(index).cloned().unwrap_or_default(),
                    seat: index,
                    points: result.points.get(index).copied().unwrap_or(0),
                    final_stack: result.final_stacks.get(index).map_or(0, |c| c.get()),
                    eliminated_in_round: result.eliminated_in_round.get(index).copied().flatten(),
                    banned: result.bans.iter().any(|ban| ban.seat == *seat),
                }
            })
            .collect();
        let absent = outcome
            .seats
            .iter()
            .filter_map(|seat| {
                seat.absent.as_ref().map(|reason| Absent {
                    name: seat.name.clone(),
                    reason: reason.clone(),
                })
            })
            .collect();
        GameEntry {
            game,
            dir,
            standings,
            absent,
            versions: outcome.seats.iter().map(|s| s.version.clone()).collect(),
            requests: outcome.requests,
            observer_errors: outcome.observer_failures,
            deal: None,
            result,
        }
    }
}

/// Totals per entrant over `games`, most points first (then most wins, most second places,
/// then name).
pub(crate) fn totals(players: &[PlayerEntry], games: &[GameEntry]) -> Vec<Total> {
    let mut by_name: HashMap<&str, Total> = players
        .iter()
        .map(|player| {
            (
                player.name.as_str(),
                Total {
                    name: player.name.clone(),
                    points: 0,
                    games: 0,
                    wins: 0,
                    seconds: 0,
                    bans: 0,
                    absent: 0,
                    rating: None,
                    uncertainty: None,
                },
            )
        })
        .collect();
    for game in games {
        for standing in &game.standings {
            let Some(total) = by_name.get_mut(standing.name.as_str()) else {
                continue;
            };
            total.points += u64::from(standing.points);
            total.games += 1;
            total.wins += u32::from(standing.place == 1);
            total.seconds += u32::from(standing.place == 2);
            total.bans += u32::from(standing.banned);
        }
        for absent in &game.absent {
            if let Some(total) = by_name.get_mut(absent.name.as_str()) {
                total.absent += 1;
            }
        }
    }
    let mut totals: Vec<Total> = by_name.into_values().collect();
    totals.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.wins.cmp(&a.wins))
            .then(b.seconds.cmp(&a.seconds))
            .then(a.name.cmp(&b.name))
    });
    totals
}
