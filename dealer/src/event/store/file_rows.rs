//! What became of each game's files (the `files` column): kept as written, compressed in
//! place, or pruned. Written by `event::retention` after (compressed) or before (pruned)
//! the work on disk, so the database never claims more than the disk holds.

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
    /// Its folder deleted; its rows, standings and points stay.
    Pruned,
}

impl GameFiles {
    /// The database spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            GameFiles::Kept => "kept",
            GameFiles::Compressed => "compressed",
            GameFiles::Pruned => "pruned",
        }
    }

    /// From the database spelling (an unknown one reads as kept: the files are then looked
    /// at as they are).
    pub fn parse(text: &str) -> GameFiles {
        match text {
            "compressed" => GameFiles::Compressed,
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
                "SELECT number, dir, files FROM games WHERE state <> 'running'
                 ORDER BY number DESC LIMIT -1 OFFSET ?1",
            )?;
            let rows = statement.query_map([newest], |row| {
                Ok(RetentionCandidate {
                    number: row.get(0)?,
                    dir: row.get(1)?,
                    files: GameFiles::parse(&row.get::<_, String>(2)?),
                })
            })?;
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

    /// Records what became of game `number`'s files.
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn set_game_files(&self, number: u32, files: GameFiles) -> Result<(), StoreError> {
        self.write(|t| {
            t.execute(
                "UPDATE games SET files = ?1 WHERE number = ?2",
                params![files.as_str(), number],
            )
            .map_err(|e| self.db(e))?;
            Ok(())
        })
    }
}
