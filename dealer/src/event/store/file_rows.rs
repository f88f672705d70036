//! What became of each game's files (the `files` column): kept as written, compressed in
//! place, compact, or pruned; and the disk space each game folder takes (`disk_bytes`), which
//! the disk budget sums. Written by `event::retention` after (compressed, compact) or before
//! (pruned) the work on disk, so the database never claims more than the disk holds.

use super::{EventStore, StoreError};
use rusqlite::params;
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
    /// Its folder deleted; its rows, standings and points stay.
    Pruned,
}

impl GameFiles {
    /// The database spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            GameFiles::Kept => "kept",
            GameFiles::Compressed => "compressed",
            GameFiles::Compact => "compact",
            GameFiles::Pruned => "pruned",
        }
    }

    /// From the database spelling (an unknown one reads as kept: the files are then looked
    /// at as they are).
    pub fn parse(text: &str) -> GameFiles {
        match text {
            "compressed" => GameFiles::Compressed,
            "compact" => GameFiles::Compact,
            "pruned" => GameFiles::Pruned,
            _ => GameFiles::Kept,
        }
    }
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
}

fn candidate(row: &rusqlite::Row<'_>) -> rusqlite::Result<RetentionCandidate> {
    Ok(RetentionCandidate {
        number: row.get(0)?,
        dir: row.get(1)?,
        files: GameFiles::parse(&row.get::<_, String>(2)?),
        disk_bytes: row
            .get::<_, Option<i64>>(3)?
            .map(|bytes| u64::try_from(bytes).unwrap_or(0)),
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
            let mut statement = c.prepare_cached(
                "SELECT number, dir, files, disk_bytes FROM games WHERE state <> 'running'
                 ORDER BY number DESC LIMIT -1 OFFSET ?1",
            )?;
            let rows = statement.query_map([newest], candidate)?;
            let mut games: Vec<RetentionCandidate> = rows
                .filter(|row| row.as_ref().map_or(true, |game| of.contains(&game.files)))
                .collect::<rusqlite::Result<_>>()?;
            games.reverse();
            Ok(games)
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
            let mut statement = c.prepare_cached(
                "SELECT number, dir, files, disk_bytes FROM games
                 WHERE disk_bytes IS NULL AND state <> 'running' ORDER BY number",
            )?;
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
