//! [`EventStore`]: the event's database (SQLite, `event.sqlite` under the data folder).
//!
//! What is kept: the players (contact, status, counters), every game (running, finished or
//! abandoned), each finished game's standings with the points, and the event's settings.
//! Durability rules:
//!
//! - WAL journal with `synchronous = FULL`: a committed transaction survives `kill -9` and a
//!   power cut;
//! - a finished game, its standings, every player's counters and the game's compact record
//!   (`observe::compact`: what replays it) are written in **one** transaction
//!   ([`EventStore::record_finished`]), so the leaderboard never counts half a game and every
//!   counted game can be played again;
//! - a game is inserted as `running` before it starts, so a restart after a crash finds it and
//!   records it as abandoned ([`EventStore::open`]), not counted;
//! - the schema is versioned (`PRAGMA user_version`): an older database is upgraded in one
//!   transaction, one from a newer dealer is refused.
//!
//! The code is split by job: this file opens the database and runs transactions;
//! `player_rows` writes and reads the players, `game_rows` the games and their standings,
//! `file_rows` what became of each game's files (kept, compressed, pruned), `luck_rows` each
//! seat's luck of the cards (`event::luck`), `hand_rows` the hands to look at beside it.

mod file_rows;
mod game_rows;
mod hand_rows;
mod luck_rows;
mod player_rows;

pub use file_rows::{FinishedFiles, GameFiles, RetentionCandidate};
pub use hand_rows::{HandNote, HandNoteKind, HandsToLookAt};
pub use luck_rows::{GameLuck, LuckState};

use super::schema::{MIGRATIONS, SCHEMA};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension, Transaction};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use thiserror::Error;

/// The schema this dealer writes.
pub const SCHEMA_VERSION: i64 = 7;
/// The database's file name under the data folder.
pub const DATABASE_FILE: &str = "event.sqlite";
/// The game folders' parent under the data folder (one `game-<n>` each, as `dealer run`).
pub const GAMES_DIR: &str = "games";
/// How large the database's write-ahead log grows before it is written back and cut to this
/// size again: the disk budget counts the log, and SQLite's default (1,000 pages, kept at its
/// largest after every checkpoint) would hold 4 MB that retention can never thin.
pub const WAL_LIMIT_BYTES: u64 = 1 << 20;

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
    /// A game has no record, or it cannot be read.
    #[error("game {game}: {reason}")]
    Record {
        /// The game.
        game: u32,
        /// Why.
        reason: String,
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

impl StoreError {
    /// Whether SQLite failed for want of disk space (or an I/O error, which a full disk
    /// gives too): worth trying again once space is made.
    pub fn is_disk_full(&self) -> bool {
        match self {
            StoreError::Database {
                source: rusqlite::Error::SqliteFailure(error, _),
                ..
            } => matches!(
                error.code,
                rusqlite::ErrorCode::DiskFull | rusqlite::ErrorCode::SystemIoFailure
            ),
            StoreError::Folder { source, .. } => source.kind() == std::io::ErrorKind::StorageFull,
            _ => false,
        }
    }
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
    /// The event player's deploy when the game was seated (`players.deploys`); 0 for a house
    /// bot filling the table.
    pub deploy: i64,
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
    /// Its compact record, when one was made.
    pub record: Option<StoredRecord>,
}

/// A game's compact record as the database keeps it: the bytes and their format
/// (`observe::compact`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredRecord {
    /// The format ([`crate::observe::compact::COMPACT_FORMAT`]).
    pub format: i64,
    /// The bytes.
    pub bytes: Vec<u8>,
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
            .execute_batch(&format!(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; \
                 PRAGMA busy_timeout = 5000; PRAGMA journal_size_limit = {WAL_LIMIT_BYTES}; \
                 PRAGMA wal_autocheckpoint = {};",
                // In pages, of SQLite's default 4 KiB.
                WAL_LIMIT_BYTES / 4096
            ))
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
        if version < SCHEMA_VERSION {
            // One transaction: a crash mid-upgrade leaves the old version, upgraded again on
            // the next start.
            // Foreign keys are off while a migration rebuilds a table (they can only be
            // switched outside a transaction), checked before the commit.
            let mut upgrade = String::from("PRAGMA foreign_keys = OFF; BEGIN IMMEDIATE;");
            if created {
                upgrade.push_str(SCHEMA);
            }
            for (to, sql) in MIGRATIONS {
                if *to > version.max(1) {
                    upgrade.push_str(sql);
                }
            }
            let upgraded = writer.execute_batch(&upgrade).and_then(|()| {
                let broken: i64 = writer.query_row(
                    "SELECT COUNT(*) FROM pragma_foreign_key_check",
                    [],
                    |row| row.get(0),
                )?;
                if broken > 0 {
                    return Err(rusqlite::Error::SqliteFailure(
                        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY),
                        Some(format!("the upgrade left {broken} broken references")),
                    ));
                }
                writer.execute_batch(&format!(
                    "PRAGMA user_version = {SCHEMA_VERSION}; COMMIT; PRAGMA foreign_keys = ON;"
                ))
            });
            if let Err(error) = upgraded {
                let _ = writer.execute_batch("ROLLBACK; PRAGMA foreign_keys = ON;");
                return Err(db(error));
            }
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

    /// Opens the database of an event that is over (or played by another server) for
    /// reading only (`dealer serve --out DIR`): nothing is created, upgraded or marked
    /// abandoned, and SQLite itself refuses every write.
    ///
    /// # Errors
    /// `data` has no event database, it cannot be read, or its schema is not this dealer's
    /// (an older one is upgraded by starting the event once with `--data`).
    pub fn open_read_only(data: &Path) -> Result<EventStore, StoreError> {
        let path = data.join(DATABASE_FILE);
        if !path.is_file() {
            return Err(StoreError::Refused(format!(
                "{} has no event database ({DATABASE_FILE})",
                data.display()
            )));
        }
        let db = |source| StoreError::Database {
            path: path.clone(),
            source,
        };
        let connect = || -> Result<Connection, StoreError> {
            let connection = Connection::open_with_flags(
                &path,
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
            .map_err(db)?;
            connection
                .execute_batch("PRAGMA busy_timeout = 5000; PRAGMA query_only = ON;")
                .map_err(db)?;
            Ok(connection)
        };
        let reader = connect()?;
        let version: i64 = reader
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .map_err(db)?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema {
                path: path.clone(),
                found: version,
            });
        }
        if version < SCHEMA_VERSION {
            return Err(StoreError::Refused(format!(
                "event database {} has schema version {version}, from an older dealer: start the event once with `dealer serve --data {}` to upgrade it, then serve it read-only",
                path.display(),
                data.display()
            )));
        }
        Ok(EventStore {
            writer: Mutex::new(connect()?),
            reader: Mutex::new(reader),
            path,
        })
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
}
