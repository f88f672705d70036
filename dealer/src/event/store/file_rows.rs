//! What became of each game's files (the `files` column): kept as written, compressed in
//! place, compact, incomplete (a full disk cut them), or pruned; and the disk space each game folder takes (`disk_bytes`), which
//! the disk budget sums. Written by `event::retention` after (compressed, compact) or before
//! (pruned) the work on disk, so the database never claims more than the disk holds.

use super::{EventStore, StoreError};
use rusqlite::{params, OptionalExtension};
use serde::Serialize;

/// What became of a game's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameFiles {
    /// As the game wrote them.
    Kept,
    /// Its logs gzip-compressed in place (`log.json` → `log.json.gz`...).
    Compressed,
    /// Thinned to what replays it and its hand histories (`game.json`, `decks.jsonl`,
    /// `requests.jsonl.gz`, `hands.phhs.gz`, `result.json`): the viewer regenerates the full
    /// log when the game is opened.
    Compact,
    /// Written only in part (a full disk): a broken cache. The game is recorded whole in the
    /// database (its result and compact record); the viewer, the API and `dealer replay` use
    /// the record, and the cut files are written again from it when the disk has room, or
    /// dropped (the game is then [`GameFiles::Pruned`]) when it has not
    /// ([`crate::event::cut_files`]).
    Incomplete,
    /// Its folder deleted; its rows, standings, points and compact record stay (the viewer
    /// regenerates its files from the record when it is opened).
    Pruned,
}

impl GameFiles {
    /// The database spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            GameFiles::Kept => "kept",
            GameFiles::Compressed => "compressed",
            GameFiles::Compact => "compact",
            GameFiles::Incomplete => "incomplete",
            GameFiles::Pruned => "pruned",
        }
    }

    /// From the database spelling (an unknown one reads as kept: the files are then looked
    /// at as they are).
    pub fn parse(text: &str) -> GameFiles {
        match text {
            "compressed" => GameFiles::Compressed,
            "compact" => GameFiles::Compact,
            "incomplete" => GameFiles::Incomplete,
            "pruned" => GameFiles::Pruned,
            _ => GameFiles::Kept,
        }
    }
}

/// What [`EventStore::finished_game_files`] tells of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinishedFiles {
    /// Whether it is finished (not running or abandoned).
    pub finished: bool,
    /// What became of its files.
    pub files: GameFiles,
    /// Whether the database keeps its compact record.
    pub has_record: bool,
}

/// An ended game whose files retention may work on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetentionCandidate {
    /// Its number.
    pub number: u32,
    /// Its folder name under the games folder (`game-<n>`).
    pub dir: String,
    /// What became of its files so far.
    pub files: GameFiles,
    /// The disk space its folder takes, when measured.
    pub disk_bytes: Option<u64>,
    /// Whether the database keeps its compact record (its files can be regenerated).
    pub has_record: bool,
}

/// The columns [`candidate`] reads, `g` the games table.
const CANDIDATE_COLUMNS: &str = "g.number, g.dir, g.files, g.disk_bytes,
    EXISTS (SELECT 1 FROM game_records r WHERE r.game = g.number)";

fn candidate(row: &rusqlite::Row<'_>) -> rusqlite::Result<RetentionCandidate> {
    Ok(RetentionCandidate {
        number: row.get(0)?,
        dir: row.get(1)?,
        files: GameFiles::parse(&row.get::<_, String>(2)?),
        disk_bytes: row
            .get::<_, Option<i64>>(3)?
            .map(|bytes| u64::try_from(bytes).unwrap_or(0)),
        has_record: row.get(4)?,
    })
}

impl EventStore {
    /// The ended games (finished or abandoned) older than the newest `newest` ended ones,
    /// oldest first, whose files are in one of the states `of`.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn ended_games_beyond(
        &self,
        newest: u32,
        of: &[GameFiles],
    ) -> Result<Vec<RetentionCandidate>, StoreError> {
        self.read(|c| {
            let mut statement = c.prepare_cached(&format!(
                "SELECT {CANDIDATE_COLUMNS} FROM games g WHERE g.state <> 'running'
                 ORDER BY g.number DESC LIMIT -1 OFFSET ?1"
            ))?;
            let rows = statement.query_map([newest], candidate)?;
            let mut games: Vec<RetentionCandidate> = rows
                .filter(|row| row.as_ref().map_or(true, |game| of.contains(&game.files)))
                .collect::<rusqlite::Result<_>>()?;
            games.reverse();
            Ok(games)
        })
    }

    /// The ended games whose files are still there (not pruned), older than the newest
    /// `newest` ended ones, least recently used first (ended or opened longest ago): the
    /// order in which retention deletes full files to keep within the budget.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn cached_games_by_use(&self, newest: u32) -> Result<Vec<RetentionCandidate>, StoreError> {
        self.read(|c| {
            // The oldest of the newest `newest` ended games: it and those after it stay.
            let protected_from: Option<u32> = if newest == 0 {
                Some(u32::MAX)
            } else {
                c.prepare_cached(
                    "SELECT number FROM games WHERE state <> 'running'
                     ORDER BY number DESC LIMIT 1 OFFSET ?1",
                )?
                .query_row([newest - 1], |row| row.get(0))
                .optional()?
            };
            let Some(protected_from) = protected_from else {
                // Fewer ended games than `newest`: all of them stay.
                return Ok(Vec::new());
            };
            let mut statement = c.prepare_cached(&format!(
                "SELECT {CANDIDATE_COLUMNS} FROM games g
                 WHERE g.files <> 'pruned' AND g.state <> 'running' AND g.number < ?1
                 ORDER BY COALESCE(g.last_used, g.ended_at, 0), g.number"
            ))?;
            let rows = statement.query_map([protected_from], candidate)?;
            rows.collect()
        })
    }

    /// The finished games whose files a full disk cut (see [`GameFiles::Incomplete`]).
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn incomplete_games(&self) -> Result<Vec<RetentionCandidate>, StoreError> {
        self.read(|c| {
            let mut statement = c.prepare_cached(&format!(
                "SELECT {CANDIDATE_COLUMNS} FROM games g
                 WHERE g.files = 'incomplete' ORDER BY g.number"
            ))?;
            let rows = statement.query_map([], candidate)?;
            rows.collect()
        })
    }

    /// Whether game `number` is finished, what became of its files, and whether the database
    /// keeps its compact record; `None` for a game the database does not have.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn finished_game_files(&self, number: u32) -> Result<Option<FinishedFiles>, StoreError> {
        self.read(|c| {
            c.prepare_cached(
                "SELECT g.state = 'finished', g.files,
                    EXISTS (SELECT 1 FROM game_records r WHERE r.game = g.number)
                 FROM games g WHERE g.number = ?1",
            )?
            .query_row([number], |row| {
                Ok(FinishedFiles {
                    finished: row.get(0)?,
                    files: GameFiles::parse(&row.get::<_, String>(1)?),
                    has_record: row.get(2)?,
                })
            })
            .optional()
        })
    }

    /// The games recorded as pruned (their folders should be gone).
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn pruned_games(&self) -> Result<Vec<RetentionCandidate>, StoreError> {
        self.ended_games_beyond(0, &[GameFiles::Pruned])
    }

    /// Records what became of game `number`'s files and the disk space its folder takes now
    /// (`None`: not measured; a pruned game takes none).
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn set_game_files(
        &self,
        number: u32,
        files: GameFiles,
        disk_bytes: Option<u64>,
    ) -> Result<(), StoreError> {
        let disk_bytes = match files {
            GameFiles::Pruned => Some(0),
            _ => disk_bytes,
        };
        self.write(|t| {
            t.execute(
                "UPDATE games SET files = ?1, disk_bytes = ?2 WHERE number = ?3",
                params![files.as_str(), disk_bytes.map(to_sql_bytes), number],
            )
            .map_err(|e| self.db(e))?;
            Ok(())
        })
    }

    /// Records the disk space game `number`'s folder takes.
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn set_game_disk_bytes(&self, number: u32, disk_bytes: u64) -> Result<(), StoreError> {
        self.write(|t| {
            t.execute(
                "UPDATE games SET disk_bytes = ?1 WHERE number = ?2",
                params![to_sql_bytes(disk_bytes), number],
            )
            .map_err(|e| self.db(e))?;
            Ok(())
        })
    }

    /// The ended games whose folder was not measured yet, oldest first.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn unmeasured_games(&self) -> Result<Vec<RetentionCandidate>, StoreError> {
        self.read(|c| {
            let mut statement = c.prepare_cached(&format!(
                "SELECT {CANDIDATE_COLUMNS} FROM games g
                 WHERE g.disk_bytes IS NULL AND g.state <> 'running' ORDER BY g.number"
            ))?;
            let rows = statement.query_map([], candidate)?;
            rows.collect()
        })
    }

    /// The disk space of every measured game folder.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn games_disk_bytes(&self) -> Result<u64, StoreError> {
        self.read(|c| {
            c.query_row(
                "SELECT COALESCE(SUM(disk_bytes), 0) FROM games",
                [],
                |row| row.get::<_, i64>(0),
            )
        })
        .map(|bytes| u64::try_from(bytes).unwrap_or(0))
    }
}

fn to_sql_bytes(bytes: u64) -> i64 {
    i64::try_from(bytes).unwrap_or(i64::MAX)
}
