//! [`EventStore`]: the event's database (SQLite, `event.sqlite` under the data folder).
//!
//! What is kept: the players (contact, status, counters), every game (running, finished or
//! abandoned), each finished game's standings with the points, and the event's settings.
//! Durability rules:
//!
//! - WAL journal with `synchronous = FULL`: a committed transaction survives `kill -9` and a
//!   power cut;
//! - a finished game, its standings and every player's counters are written in **one**
//!   transaction ([`EventStore::record_finished`]), so the leaderboard never counts half a game;
//! - a game is inserted as `running` before it starts, so a restart after a crash finds it and
//!   records it as abandoned ([`EventStore::open`]), not counted;
//! - the schema is versioned (`PRAGMA user_version`); a database from a newer dealer is refused.

use super::config::Contact;
use super::players::{PlayerStatus, StoredPlayer};
use super::schema::SCHEMA;
use crate::house::BotKind;
use rusqlite::{params, Connection, OptionalExtension, Transaction};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use thiserror::Error;

/// The schema this dealer writes.
pub const SCHEMA_VERSION: i64 = 1;
/// The database's file name under the data folder.
pub const DATABASE_FILE: &str = "event.sqlite";
/// The game folders' parent under the data folder (one `game-<n>` each, as `dealer run`).
pub const GAMES_DIR: &str = "games";

/// Why the event's database cannot be used.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The data folder cannot be created or written.
    #[error("cannot write the event folder {path}: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// SQLite failed (a full disk, an unwritable file, a damaged database).
    #[error("event database {path}: {source}")]
    Database {
        /// The database file.
        path: PathBuf,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// The database was written by a newer dealer.
    #[error("event database {path} has schema version {found}; this dealer reads up to {SCHEMA_VERSION}: use a newer dealer")]
    NewerSchema {
        /// The database file.
        path: PathBuf,
        /// Its version.
        found: i64,
    },
    /// No player has this id.
    #[error("no player with id {0}")]
    UnknownPlayer(i64),
    /// A request the data refuses (unknown player, name taken...), as one line.
    #[error("{0}")]
    Refused(String),
}

/// How one seat of a finished game did, for [`EventStore::record_finished`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRecord {
    /// The seat.
    pub seat: usize,
    /// The event player, `None` for a house bot filling the table.
    pub player_id: Option<i64>,
    /// The name it played under.
    pub name: String,
    /// 1 = winner.
    pub place: usize,
    /// 5, 3 or 0.
    pub points: u32,
    /// The ban reason, if banned.
    pub banned: Option<String>,
    /// Why it sat the game out, if absent.
    pub absent: Option<String>,
    /// The version shown at the end of the game.
    pub version: String,
}

/// A game that ended normally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedGame {
    /// Its number.
    pub number: u32,
    /// Hands played.
    pub hands: u64,
    /// When it ended, ms since the epoch.
    pub ended_at: i64,
    /// Every seat.
    pub seats: Vec<SeatRecord>,
}

/// A game about to start, for [`EventStore::start_game`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGame {
    /// The round.
    pub round: u32,
    /// The table in the round (1-based).
    pub table: u32,
    /// Names in seat order.
    pub players: Vec<String>,
    /// ms since the epoch.
    pub started_at: i64,
}

/// The event's database: one connection for writes, one for reads (WAL lets readers see the
/// last committed state while a write is going on).
#[derive(Debug)]
pub struct EventStore {
    path: PathBuf,
    writer: Mutex<Connection>,
    reader: Mutex<Connection>,
}

fn lock(mutex: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What [`EventStore::open`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    /// Whether the database was created now.
    pub created: bool,
    /// Games that were running when the server last stopped, now abandoned.
    pub abandoned: Vec<u32>,
}

/// The text recorded for a game cut off by a crash or `kill -9`.
pub const CUT_OFF: &str = "cut off: the server stopped during the game";

impl EventStore {
    /// Opens (or creates) the database under `data`, creating the folders; games left
    /// `running` are recorded as abandoned.
    ///
    /// # Errors
    /// A folder or the database cannot be created, written or read, or is too new.
    pub fn open(data: &Path) -> Result<(EventStore, Opened), StoreError> {
        let games = data.join(GAMES_DIR);
        std::fs::create_dir_all(&games).map_err(|source| StoreError::Folder {
            path: games.clone(),
            source,
        })?;
        let path = data.join(DATABASE_FILE);
        let db = |source| StoreError::Database {
            path: path.clone(),
            source,
        };
        let writer = Connection::open(&path).map_err(db)?;
        writer
            .execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
            )
            .map_err(db)?;
        let version: i64 = writer
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .map_err(db)?;
        let created = version == 0;
        if version > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema {
                path: path.clone(),
                found: version,
            });
        }
        if created {
            writer
                .execute_batch(&format!(
                    "BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
                ))
                .map_err(db)?;
        }
        let reader = Connection::open(&path).map_err(db)?;
        reader
            .execute_batch("PRAGMA busy_timeout = 5000; PRAGMA query_only = ON;")
            .map_err(db)?;
        let store = EventStore {
            path,
            writer: Mutex::new(writer),
            reader: Mutex::new(reader),
        };
        let abandoned = store.abandon_running(CUT_OFF)?;
        Ok((store, Opened { created, abandoned }))
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn db(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Database {
            path: self.path.clone(),
            source,
        }
    }

    /// Runs `work` in one write transaction (committed only if it returns `Ok`).
    fn write<T>(
        &self,
        work: impl FnOnce(&Transaction<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut connection = lock(&self.writer);
        let transaction = connection
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| self.db(e))?;
        let value = work(&transaction)?;
        transaction.commit().map_err(|e| self.db(e))?;
        Ok(value)
    }

    /// Runs `read` on the read connection.
    pub fn read<T>(
        &self,
        read: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        let connection = lock(&self.reader);
        read(&connection).map_err(|e| self.db(e))
    }

    /// A `meta` value.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        self.read(|c| {
            c.query_row("SELECT value FROM meta WHERE key = ?1", [key], |row| {
                row.get(0)
            })
            .optional()
        })
    }

    /// Sets a `meta` value.
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn set_meta(&self, key: &str, value: &str) -> Result<(), StoreError> {
        self.write(|t| {
            t.execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                params![key, value],
            )
            .map_err(|e| self.db(e))?;
            Ok(())
        })
    }

    /// Marks every `running` game abandoned with `reason`; returns their numbers.
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn abandon_running(&self, reason: &str) -> Result<Vec<u32>, StoreError> {
        self.write(|t| {
            let numbers: Vec<u32> = {
                let mut statement = t
                    .prepare("SELECT number FROM games WHERE state = 'running' ORDER BY number")
                    .map_err(|e| self.db(e))?;
                let rows = statement
                    .query_map([], |row| row.get(0))
                    .map_err(|e| self.db(e))?;
                rows.collect::<rusqlite::Result<_>>()
                    .map_err(|e| self.db(e))?
            };
            t.execute(
                "UPDATE games SET state = 'abandoned', reason = ?1 WHERE state = 'running'",
                [reason],
            )
            .map_err(|e| self.db(e))?;
            Ok(numbers)
        })
    }

    /// Adds a player (active). Returns its id.
    ///
    /// # Errors
    /// [`StoreError::Refused`] when the name is taken; the database cannot be written.
    pub fn add_player(&self, name: &str, contact: &Contact, now: i64) -> Result<i64, StoreError> {
        self.write(|t| self.insert_player(t, name, contact, now))
    }

    fn insert_player(
        &self,
        t: &Transaction<'_>,
        name: &str,
        contact: &Contact,
        now: i64,
    ) -> Result<i64, StoreError> {
        let taken: bool = t
            .query_row(
                "SELECT COUNT(*) FROM players WHERE name = ?1",
                [name],
                |r| r.get::<_, i64>(0),
            )
            .map_err(|e| self.db(e))?
            > 0;
        if taken {
            return Err(StoreError::Refused(format!(
                "a player is already named {name:?}"
            )));
        }
        let (url, token, bot) = match contact {
            Contact::Http { url, token } => (Some(url.as_str()), token.as_deref(), None),
            Contact::Bot(kind) => (None, None, Some(kind.name())),
        };
        t.execute(
            "INSERT INTO players (name, url, token, bot, status, added_at) VALUES (?1, ?2, ?3, ?4, 'active', ?5)",
            params![name, url, token, bot, now],
        )
        .map_err(|e| self.db(e))?;
        Ok(t.last_insert_rowid())
    }

    /// Adds the config file's players not imported before (a renamed or removed player is
    /// not brought back by a restart). Returns the names added.
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn import_config_players(
        &self,
        players: &[super::config::ConfigPlayer],
        now: i64,
    ) -> Result<Vec<String>, StoreError> {
        self.write(|t| {
            let mut added = Vec::new();
            for player in players {
                let imported = t
                    .execute(
                        "INSERT OR IGNORE INTO config_imports (name) VALUES (?1)",
                        [&player.name],
                    )
                    .map_err(|e| self.db(e))?;
                if imported == 0 {
                    continue;
                }
                match self.insert_player(t, &player.name, &player.contact, now) {
                    Ok(_) => added.push(player.name.clone()),
                    // Added through the API under that name already: keep that one.
                    Err(StoreError::Refused(_)) => {}
                    Err(error) => return Err(error),
                }
            }
            Ok(added)
        })
    }

    /// Renames a player (its history follows it).
    ///
    /// # Errors
    /// [`StoreError::Refused`] for an unknown player or a taken name.
    pub fn rename_player(&self, id: i64, name: &str) -> Result<(), StoreError> {
        self.write(|t| {
            let taken: i64 = t
                .query_row(
                    "SELECT COUNT(*) FROM players WHERE name = ?1 AND id <> ?2",
                    params![name, id],
                    |r| r.get(0),
                )
                .map_err(|e| self.db(e))?;
            if taken > 0 {
                return Err(StoreError::Refused(format!(
                    "a player is already named {name:?}"
                )));
            }
            let changed = t
                .execute(
                    "UPDATE players SET name = ?1 WHERE id = ?2",
                    params![name, id],
                )
                .map_err(|e| self.db(e))?;
            if changed == 0 {
                return Err(StoreError::UnknownPlayer(id));
            }
            Ok(())
        })
    }

    /// Sets a player's status.
    ///
    /// # Errors
    /// [`StoreError::Refused`] for an unknown player.
    pub fn set_status(&self, id: i64, status: PlayerStatus) -> Result<(), StoreError> {
        self.write(|t| {
            let changed = t
                .execute(
                    "UPDATE players SET status = ?1 WHERE id = ?2",
                    params![status.as_str(), id],
                )
                .map_err(|e| self.db(e))?;
            if changed == 0 {
                return Err(StoreError::UnknownPlayer(id));
            }
            Ok(())
        })
    }

    /// Records a player's health: up (`reason` `None`, seen `now`) or down with its reason.
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn set_health(&self, id: i64, reason: Option<&str>, now: i64) -> Result<(), StoreError> {
        self.write(|t| {
            match reason {
                None => t.execute(
                    "UPDATE players SET down_reason = NULL, last_seen = ?1 WHERE id = ?2",
                    params![now, id],
                ),
                Some(reason) => t.execute(
                    "UPDATE players SET down_reason = ?1 WHERE id = ?2",
                    params![reason, id],
                ),
            }
            .map_err(|e| self.db(e))?;
            Ok(())
        })
    }

    /// Every player, by id.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn players(&self) -> Result<Vec<StoredPlayer>, StoreError> {
        self.read(|c| {
            let mut statement = c.prepare_cached(
                "SELECT id, name, url, token, bot, status, version, last_seen, down_reason,
                        games, wins, seconds, points, bans, absences
                 FROM players ORDER BY id",
            )?;
            let rows = statement.query_map([], |row| {
                let bot: Option<String> = row.get(4)?;
                let contact = match bot.and_then(|b| b.parse::<BotKind>().ok()) {
                    Some(kind) => Contact::Bot(kind),
                    None => Contact::Http {
                        url: row.get::<_, Option<String>>(2)?.unwrap_or_default(),
                        token: row.get(3)?,
                    },
                };
                let status: String = row.get(5)?;
                Ok(StoredPlayer {
                    id: row.get(0)?,
                    name: row.get(1)?,
                    contact,
                    status: PlayerStatus::parse(&status).unwrap_or(PlayerStatus::Paused),
                    version: row.get(6)?,
                    last_seen: row.get(7)?,
                    down_reason: row.get(8)?,
                    games: row.get(9)?,
                    wins: row.get(10)?,
                    seconds: row.get(11)?,
                    points: row.get(12)?,
                    bans: row.get(13)?,
                    absences: row.get(14)?,
                })
            })?;
            rows.collect()
        })
    }

    /// The last round played (0 before the first).
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn last_round(&self) -> Result<u32, StoreError> {
        self.read(|c| {
            c.query_row("SELECT COALESCE(MAX(round), 0) FROM games", [], |r| {
                r.get(0)
            })
        })
    }

    /// Inserts a game as `running` with the next number and `seed_of(number)` as its seed;
    /// returns the number, the folder name (`game-<n>`) and the seed.
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn start_game(
        &self,
        game: &NewGame,
        seed_of: impl FnOnce(u32) -> u64,
    ) -> Result<(u32, String, u64), StoreError> {
        self.write(|t| {
            let number: u32 = t
                .query_row("SELECT COALESCE(MAX(number), 0) + 1 FROM games", [], |r| {
                    r.get(0)
                })
                .map_err(|e| self.db(e))?;
            let dir = crate::tournament::game_dir_name(number);
            let seed = seed_of(number);
            let players = serde_json::to_string(&game.players)
                .map_err(|e| StoreError::Refused(e.to_string()))?;
            t.execute(
                "INSERT INTO games (number, round, table_no, state, seed, dir, players, started_at)
                 VALUES (?1, ?2, ?3, 'running', ?4, ?5, ?6, ?7)",
                params![
                    number,
                    game.round,
                    game.table,
                    seed.to_string(),
                    dir,
                    players,
                    game.started_at
                ],
            )
            .map_err(|e| self.db(e))?;
            Ok((number, dir, seed))
        })
    }

    /// Records an abandoned game (stopped, players down, outputs that cannot be written).
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn abandon_game(&self, number: u32, reason: &str, now: i64) -> Result<(), StoreError> {
        self.write(|t| {
            t.execute(
                "UPDATE games SET state = 'abandoned', reason = ?1, ended_at = ?2 WHERE number = ?3",
                params![reason, now, number],
            )
            .map_err(|e| self.db(e))?;
            Ok(())
        })
    }

    /// Records a finished game, its standings and every player's counters in one transaction.
    /// Returns each event player's total points after the game.
    ///
    /// # Errors
    /// The database cannot be written: nothing of the game is recorded.
    pub fn record_finished(&self, game: &FinishedGame) -> Result<Vec<(i64, i64)>, StoreError> {
        self.write(|t| {
            let winner = game
                .seats
                .iter()
                .find(|seat| seat.place == 1)
                .map(|seat| seat.name.clone());
            t.execute(
                "UPDATE games SET state = 'finished', ended_at = ?1, hands = ?2, winner = ?3 WHERE number = ?4",
                params![game.ended_at, game.hands as i64, winner, game.number],
            )
            .map_err(|e| self.db(e))?;
            let mut totals = Vec::new();
            for seat in &game.seats {
                let mut total = None;
                if let Some(id) = seat.player_id {
                    let present = seat.absent.is_none();
                    let version = (present && seat.version != "Unknown").then_some(&seat.version);
                    t.execute(
                        "UPDATE players SET
                            games = games + ?1, wins = wins + ?2, seconds = seconds + ?3,
                            points = points + ?4, bans = bans + ?5, absences = absences + ?6,
                            version = COALESCE(?7, version),
                            last_seen = CASE WHEN ?1 = 1 THEN ?8 ELSE last_seen END
                         WHERE id = ?9",
                        params![
                            i64::from(present),
                            i64::from(present && seat.place == 1),
                            i64::from(present && seat.place == 2),
                            seat.points,
                            i64::from(seat.banned.is_some()),
                            i64::from(!present),
                            version,
                            game.ended_at,
                            id
                        ],
                    )
                    .map_err(|e| self.db(e))?;
                    let points: i64 = t
                        .query_row("SELECT points FROM players WHERE id = ?1", [id], |r| {
                            r.get(0)
                        })
                        .map_err(|e| self.db(e))?;
                    totals.push((id, points));
                    total = Some(points);
                }
                t.execute(
                    "INSERT INTO standings (game, seat, player_id, name, place, points, total_after, banned, absent, version)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                    params![
                        game.number,
                        seat.seat as i64,
                        seat.player_id,
                        seat.name,
                        seat.place as i64,
                        seat.points,
                        total,
                        seat.banned,
                        seat.absent,
                        seat.version
                    ],
                )
                .map_err(|e| self.db(e))?;
            }
            Ok(totals)
        })
    }
}
