//! [`ResultsFolder`]: what the viewer reads from a results folder, with every path chosen by the
//! server, never by a request.
//!
//! A request names a run and a game only by the keys of an index built by listing the folder
//! (run folder names, game numbers, player names from the players' log headers); no part of a
//! URL is ever joined to a path. Every file is also opened through `ResultsFolder::open`, which
//! refuses anything whose real path (symlinks resolved) is outside the folder.
//!
//! The runs list and each run's summary are cached and rebuilt only when the modification time
//! or length of the folder, the run folder or `results.json` changes, so listing a run of
//! thousands of games does not re-read anything.

//!
//! The code is split by job: this file opens and reads files safely; `index` finds runs and
//! games and caches their summaries; `games` answers for one game (details, log, players);
//! `compressed` reads logs an event compressed as if they were not; `outcomes` reads an
//! event game's own `result.json` / `abandoned.json`; `archived` regenerates an event's games
//! whose folders were deleted from their records.

mod archived;
mod compressed;
mod folder_stamp;
mod games;
mod index;
mod outcomes;

pub use archived::{GameArchive, RESTORED_GAMES};
pub use games::{GameDetails, PlayerFile};
pub use index::{GameListItem, GameStatus, RunListItem, RunSummary};

use folder_stamp::FolderStamp;
use index::RunIndex;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use thiserror::Error;

/// The id of the run held by the served folder itself (as opposed to one of its subfolders).
pub const ROOT_RUN_ID: &str = "_";

/// The largest `log.json` or `requests.jsonl` read (a long game's log is a few MiB).
pub const MAX_LOG_BYTES: u64 = 256 * 1024 * 1024;
/// The largest `results.json` read (about 1.5 KiB per game).
pub const MAX_RESULTS_BYTES: u64 = 128 * 1024 * 1024;
/// The most of a player's text log sent to the page; the rest is cut with a note.
pub const MAX_PLAYER_LOG_BYTES: u64 = 2 * 1024 * 1024;

/// Why a request to the folder cannot be answered.
#[derive(Debug, Error)]
pub enum FolderError {
    /// No such run, game, player or file.
    #[error("{0}")]
    NotFound(String),
    /// A file is there but is not what it should be (cut off, malformed, not a viewer log).
    #[error("{0}")]
    Unreadable(String),
    /// A file is larger than the viewer reads.
    #[error("{what} is {size} bytes, more than the {limit} bytes the viewer reads")]
    TooLarge {
        /// Which file.
        what: String,
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// A file or folder could not be read (permissions, a disk error).
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file, relative to the served folder.
        path: String,
        /// The OS error.
        source: io::Error,
    },
}

/// The served folder: runs found in it (itself and its direct subfolders), cached.
#[derive(Debug)]
pub struct ResultsFolder {
    /// The folder, canonical (symlinks resolved).
    root: PathBuf,
    runs: Mutex<Option<(FolderStamp, Arc<RunIndex>)>>,
    /// What regenerates games whose folders are gone (an event's records), if anything.
    archive: Option<archived::Archive>,
    /// The games it regenerated, on disk for the next requests.
    restored: Mutex<archived::Restored>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic elsewhere cannot leave a cache half-written (it is replaced whole), so a
    // poisoned lock is still good to use.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `game-<n>` → n.
fn game_number(name: &str) -> Option<u32> {
    let digits = name.strip_prefix("game-")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

impl ResultsFolder {
    /// Opens `dir` for reading.
    ///
    /// # Errors
    /// [`FolderError::NotFound`] when `dir` is not a readable folder.
    pub fn new(dir: &Path) -> Result<ResultsFolder, FolderError> {
        let root = dir.canonicalize().map_err(|source| {
            FolderError::NotFound(format!("{} is not a folder: {source}", dir.display()))
        })?;
        if !root.is_dir() {
            return Err(FolderError::NotFound(format!(
                "{} is not a folder",
                dir.display()
            )));
        }
        Ok(ResultsFolder {
            root,
            runs: Mutex::new(None),
            archive: None,
            restored: Mutex::new(archived::Restored::default()),
        })
    }

    /// The served folder (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn relative(&self, path: &Path) -> String {
        match path.strip_prefix(&self.root) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".to_string(),
            Ok(rel) => rel.display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }

    fn io_error(&self, path: &Path, source: io::Error) -> FolderError {
        let path = self.relative(path);
        if source.kind() == io::ErrorKind::NotFound {
            FolderError::NotFound(format!("{path} does not exist"))
        } else {
            FolderError::Io { path, source }
        }
    }

    /// Opens `path` if its real location is inside the served folder and it is a file.
    fn open(&self, path: &Path) -> Result<(File, Metadata), FolderError> {
        let real = path
            .canonicalize()
            .map_err(|source| self.io_error(path, source))?;
        if !real.starts_with(&self.root) && !self.is_restored(&real) {
            return Err(FolderError::NotFound(format!(
                "{} points outside the served folder",
                self.relative(path)
            )));
        }
        let file = File::open(&real).map_err(|source| self.io_error(path, source))?;
        let meta = file
            .metadata()
            .map_err(|source| self.io_error(path, source))?;
        if !meta.is_file() {
            return Err(FolderError::NotFound(format!(
                "{} is not a file",
                self.relative(path)
            )));
        }
        Ok((file, meta))
    }

    /// Reads a whole file of at most `limit` bytes.
    fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, FolderError> {
        let (file, meta) = self.open(path)?;
        if meta.len() > limit {
            return Err(FolderError::TooLarge {
                what: self.relative(path),
                size: meta.len(),
                limit,
            });
        }
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
        // `take` guards against a file that grows while it is read.
        file.take(limit)
            .read_to_end(&mut bytes)
            .map_err(|source| self.io_error(path, source))?;
        Ok(bytes)
    }

    /// Whether `path` is a directory whose real location is inside the served folder.
    fn is_dir_inside(&self, path: &Path) -> bool {
        path.canonicalize()
            .is_ok_and(|real| real.starts_with(&self.root) && real.is_dir())
    }
}
