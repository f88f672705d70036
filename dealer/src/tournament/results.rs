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
    /// The HTTP deadline of every request, in milliseconds (`--timeout-ms`).
    pub request_timeout_ms: u64,
    /// What was done with players that did not come up.
    pub absent_players: AbsentPolicy,
    /// The entrants, in the order they were given.
    pub players: Vec<PlayerEntry>,
    /// The games played, by number.
    pub games: Vec<GameEntry>,
    /// Points per player over the games played, most first.
    pub totals: Vec<Total>,
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
