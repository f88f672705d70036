//! `game.json`: what a game was set up with and what the players said besides their bets, so
//! that `dealer replay` can play it again from its folder: the rules, the seating, the seed and
//! ids, the starting table (absent players sitting out have no chips) and the version each
//! player showed when. With `decks.jsonl` (the cards) and `requests.jsonl` (the answers) it is
//! all the engine's input.
//!
//! ```json
//! {
//!   "tournament_id": "97275bea3f45623b06ad0123",
//!   "game_id": "d93db82b52e81ecd8e746965",
//!   "seed": "5",
//!   "players": ["c", "b", "a"],
//!   "config": { ... the rules, as in results.json ... },
//!   "table": { "round": 0, "button": 2, "stacks": [1000, 1000, 1000] },
//!   "versions": ["raiser 1", "calling station 1", "random 1"],
//!   "version_changes": [{ "round": 4, "seat": 1, "version": "v2" }]
//! }
//! ```
//!
//! `versions` are the versions shown when the game started; a `version_changes` entry is a
//! version that became known right after hand `round` started (the runner asks a player whose
//! version is unknown again at every hand start). Written whole when the game ends or is
//! abandoned.

use super::Observer;
use crate::engine::Game;
use crate::game_event::GameEvent;
use crate::rules::GameRules;
use serde::{Deserialize, Serialize};
use shared::{Chips, Seat};
use std::io;
use std::path::{Path, PathBuf};

/// The content of `game.json`. See the [module docs](self).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// The tournament id.
    pub tournament_id: String,
    /// The game id.
    pub game_id: String,
    /// The game seed (a decimal string, as in `results.json`).
    #[serde(with = "engine::result::seed_text")]
    pub seed: u64,
    /// Player names in seat order.
    pub players: Vec<String>,
    /// The rules.
    pub config: GameRules,
    /// The table the first hand started from.
    pub table: TableRecord,
    /// The versions shown at the start, in seat order.
    pub versions: Vec<String>,
    /// Versions that became known later, in order.
    pub version_changes: Vec<VersionChange>,
}

/// The starting table of a [`GameRecord`] (a [`crate::engine::TableStart`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRecord {
    /// The first hand's number.
    pub round: u64,
    /// The first hand's button.
    pub button: Seat,
    /// Every seat's chips, in seat order.
    pub stacks: Vec<Chips>,
}

/// A version that became known right after hand `round` started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VersionChange {
    /// The hand.
    pub round: u64,
    /// The player's seat.
    pub seat: Seat,
    /// The version now shown.
    pub version: String,
}

/// Builds a [`GameRecord`] in memory from the game's events: for `game.json`
/// ([`GameRecordLog`]) and for an event's compact record (`observe::compact`), so the two
/// say the same.
#[derive(Debug, Default)]
pub struct GameRecordBuilder {
    record: Option<GameRecord>,
    /// A hand just started: versions asked at its start show from the next event on.
    hand_started: Option<u64>,
}

impl GameRecordBuilder {
    fn versions(game: &Game) -> impl Iterator<Item = &str> + '_ {
        (0..game.seat_count()).map(|seat| game.player_version(Seat(seat)).unwrap_or_default())
    }

    /// Follows one event of the game.
    pub fn on_event(&mut self, event: &GameEvent, game: &Game) {
        if let Some(round) = self.hand_started.take() {
            if let Some(record) = &mut self.record {
                let mut known: Vec<&str> = record.versions.iter().map(String::as_str).collect();
                for change in &record.version_changes {
                    known[change.seat.index()] = &change.version;
                }
                let changes: Vec<VersionChange> = Self::versions(game)
                    .zip(known)
                    .enumerate()
                    .filter(|(_, (now, before))| now != before)
                    .map(|(seat, (now, _))| VersionChange {
                        round,
                        seat: Seat(seat),
                        version: now.to_string(),
                    })
                    .collect();
                record.version_changes.extend(changes);
            }
        }
        match event {
            GameEvent::GameStarted {
                tournament_id,
                game_id,
                seed,
                players,
                first_button,
                ..
            } => {
                let public = game.public_state();
                self.record = Some(GameRecord {
                    tournament_id: tournament_id.clone(),
                    game_id: game_id.clone(),
                    seed: *seed,
                    players: players.to_vec(),
                    config: game.config().clone(),
                    table: TableRecord {
                        round: game.round(),
                        button: *first_button,
                        stacks: public.players.iter().map(|p| p.stack).collect(),
                    },
                    versions: Self::versions(game).map(str::to_string).collect(),
                    version_changes: Vec::new(),
                });
            }
            GameEvent::HandStarted { round, .. } => self.hand_started = Some(*round),
            _ => {}
        }
    }

    /// The record so far; `None` before the game started (abandoned before its first hand).
    pub fn record(&self) -> Option<&GameRecord> {
        self.record.as_ref()
    }

    /// The record, taken out.
    pub fn take(&mut self) -> Option<GameRecord> {
        self.record.take()
    }
}

/// Writes `game.json`. See the [module docs](self).
#[derive(Debug)]
pub struct GameRecordLog {
    path: PathBuf,
    builder: GameRecordBuilder,
}

impl GameRecordLog {
    /// Will write `path` when the game ends (checked writable now).
    ///
    /// # Errors
    /// The file cannot be created.
    pub fn create(path: &Path) -> io::Result<Self> {
        std::fs::File::create(path)?;
        Ok(GameRecordLog {
            path: path.to_path_buf(),
            builder: GameRecordBuilder::default(),
        })
    }
}

impl Observer for GameRecordLog {
    fn on_event(&mut self, event: &GameEvent, game: &Game) -> io::Result<()> {
        self.builder.on_event(event, game);
        Ok(())
    }

    fn finish(&mut self, _game: &Game) -> io::Result<()> {
        let Some(record) = self.builder.record() else {
            // Abandoned before it started: nothing to replay.
            return Ok(());
        };
        std::fs::write(&self.path, game_record_json(record)?)
    }
}

/// `game.json`'s bytes for `record` (pretty JSON and a final newline).
///
/// # Errors
/// The record cannot be serialised (it always can).
pub fn game_record_json(record: &GameRecord) -> io::Result<Vec<u8>> {
    let mut json = serde_json::to_vec_pretty(record).map_err(io::Error::other)?;
    json.push(b'\n');
    Ok(json)
}

/// Reads `game.json`.
///
/// # Errors
/// The file cannot be read, or is not a game record (the message names the place).
pub fn read_game_record(path: &Path) -> Result<GameRecord, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    serde_json::from_str(&text).map_err(|error| format!("{}: {error}", path.display()))
}
