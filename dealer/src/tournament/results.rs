//! `results.json`: what a run produced, for people and for tools. See the crate README for the
//! field reference; the types here are the schema (serde), so a tool written in Rust can read
//! the file back with [`RunResults`].

use crate::engine::Game;
use crate::observe::{Exchange, Observer};
use crate::result::GameResult;
use crate::rules::GameRules;
use crate::runner::{AbsentPolicy, ObserverFailure};
use serde::{Deserialize, Serialize};
use shared::protocol::Action;
use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex};

/// The whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunResults {
    /// 24 hex digits, shared by every game of the run.
    pub tournament_id: String,
    /// The run seed: the same seed (and the same answers) replays the run. Written as a string
    /// (64-bit numbers lose precision in JSON tools such as `jq`); read from either.
    #[serde(with = "seed_text")]
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
    pub config: GameRules,
    /// The HTTP deadline of every request, in milliseconds (`--timeout-ms`).
    pub request_timeout_ms: u64,
    /// What was done with players that did not come up.
    pub absent_players: AbsentPolicy,
    /// The entrants, in the order they were given.
    pub players: Vec<PlayerEntry>,
    /// The games played, by number.
    pub games: Vec<GameEntry>,
    /// Games that started but were not played to their end (a stop, or another game's
    /// failure), by number. Their folders hold what was written until then; their `log.json`
    /// is closed (valid JSON) and ends where the game stopped.
    #[serde(default)]
    pub interrupted: Vec<InterruptedGame>,
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
    /// `showdown` requests a player failed (spec §6: never a ban, so only listed here and in
    /// the player's log), in the order they were sent.
    #[serde(default)]
    pub showdown_warnings: Vec<RequestWarning>,
    /// The engine's result: ids, seed, players (seat order), ranking (seats), places, points,
    /// hands played, why it ended, bans (with reasons and rounds), warnings, final stacks.
    #[serde(flatten)]
    pub result: GameResult,
}

/// A game that started and did not reach its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterruptedGame {
    /// 1-based game number.
    pub game: u32,
    /// The game's folder, relative to the run folder (`game-2`).
    pub dir: String,
    /// Hands completed before it stopped, when known.
    pub hands_played: Option<u64>,
    /// Why it stopped.
    pub reason: String,
}

/// A request that failed without consequence for the game (a `showdown`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestWarning {
    /// The hand it belonged to.
    pub round: u64,
    /// The player's seat in this game.
    pub seat: usize,
    /// The player.
    pub name: String,
    /// The request (`showdown`).
    pub action: Action,
    /// Why it failed, as a ban would say it.
    pub reason: String,
}

/// Collects the failed `showdown` requests of one game for `results.json`. An observer like
/// the logs (it only observes); the tournament keeps a clone and takes the list when the game
/// ends.
#[derive(Debug, Clone, Default)]
pub(crate) struct ShowdownWarnings(Arc<Mutex<Vec<RequestWarning>>>);

impl ShowdownWarnings {
    /// The failures seen so far, leaving the list empty.
    pub(crate) fn take(&self) -> Vec<RequestWarning> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|poison| poison.into_inner()))
    }
}

impl Observer for ShowdownWarnings {
    fn on_exchange(&mut self, exchange: &Exchange<'_>, _game: &Game) -> io::Result<()> {
        if let (Action::Showdown, Some(failure)) = (exchange.action, exchange.failure) {
            let warning = RequestWarning {
                round: exchange.round,
                seat: exchange.seat.index(),
                name: exchange.player.to_string(),
                action: exchange.action,
                reason: failure.to_string(),
            };
            self.0
                .lock()
                .unwrap_or_else(|poison| poison.into_inner())
                .push(warning);
        }
        Ok(())
    }
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
    /// Games won (first places). Read also from `wins` (files before 0.2).
    #[serde(alias = "wins")]
    pub first_places: u32,
    /// Second places. Read also from `seconds` (files before 0.2).
    #[serde(alias = "seconds")]
    pub second_places: u32,
    /// Third places.
    #[serde(default)]
    pub third_places: u32,
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
        let absent = outcome
            .seats
            .iter()
            .map(|seat| seat.absent.clone())
            .collect();
        let versions = outcome.seats.iter().map(|s| s.version.clone()).collect();
        let mut entry = GameEntry::of_result(
            game,
            dir,
            outcome.result,
            absent,
            versions,
            outcome.requests,
        );
        entry.observer_errors = outcome.observer_failures;
        entry
    }

    /// The entry of a game whose result is `result`, given per seat why it sat out (if it
    /// did) and its version at the end, and the requests sent in all; no output failed.
    pub(crate) fn of_result(
        game: u32,
        dir: String,
        result: GameResult,
        absent: Vec<Option<String>>,
        versions: Vec<String>,
        requests: u64,
    ) -> GameEntry {
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
        let absent = absent
            .into_iter()
            .enumerate()
            .filter_map(|(seat, reason)| {
                Some(Absent {
                    name: result.players.get(seat).cloned().unwrap_or_default(),
                    reason: reason?,
                })
            })
            .collect();
        GameEntry {
            game,
            dir,
            standings,
            absent,
            versions,
            requests,
            observer_errors: Vec::new(),
            deal: None,
            showdown_warnings: Vec::new(),
            result,
        }
    }
}

/// Totals per entrant over `games`, most points first (then most first places, most second
/// places, then name).
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
                    first_places: 0,
                    second_places: 0,
                    third_places: 0,
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
            total.first_places += u32::from(standing.place == 1);
            total.second_places += u32::from(standing.place == 2);
            total.third_places += u32::from(standing.place == 3);
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
            .then(b.first_places.cmp(&a.first_places))
            .then(b.second_places.cmp(&a.second_places))
            .then(a.name.cmp(&b.name))
    });
    totals
}

pub use engine::result::seed_text;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Seeded {
        #[serde(with = "seed_text")]
        seed: u64,
    }

    #[test]
    fn seeds_are_written_as_strings_and_read_from_either() {
        let big = 17_871_781_140_237_706_511;
        let json = serde_json::to_string(&Seeded { seed: big }).unwrap();
        assert_eq!(json, r#"{"seed":"17871781140237706511"}"#);
        let read = |text: &str| serde_json::from_str::<Seeded>(text).map(|s| s.seed);
        assert_eq!(read(&json).unwrap(), big);
        assert_eq!(read(r#"{"seed":17871781140237706511}"#).unwrap(), big);
        assert_eq!(read(r#"{"seed":0}"#).unwrap(), 0);
        for bad in [
            r#"{"seed":"-1"}"#,
            r#"{"seed":""}"#,
            r#"{"seed":"+7"}"#,
            r#"{"seed":"18446744073709551616"}"#,
            r#"{"seed":-1}"#,
            r#"{"seed":1.5}"#,
            r#"{"seed":null}"#,
        ] {
            let error = read(bad).unwrap_err().to_string();
            assert!(error.contains("a seed: a whole number"), "{bad}: {error}");
        }
    }

    #[test]
    fn totals_count_first_second_and_third_places_and_read_old_names() {
        let old = r#"{"name":"a","points":8,"games":2,"wins":1,"seconds":1,"bans":0,"absent":0}"#;
        let total: Total = serde_json::from_str(old).unwrap();
        assert_eq!(
            (total.first_places, total.second_places, total.third_places),
            (1, 1, 0)
        );
        let json = serde_json::to_string(&total).unwrap();
        assert!(
            json.contains(r#""first_places":1,"second_places":1,"third_places":0"#),
            "{json}"
        );
        assert!(
            !json.contains("seconds") && !json.contains("wins"),
            "{json}"
        );
    }
}
