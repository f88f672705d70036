//! Games the served folder no longer holds but an archive can regenerate: an event's games
//! whose folders retention deleted, each played again from its compact record in the event's
//! database ([`GameArchive`], given by `dealer serve` for an event's folder). The viewer opens
//! them like any other game: the regenerated files are written into a folder of the server's
//! own (a temporary one, outside the served folder), the [`RESTORED_GAMES`] most recently
//! opened kept, and read through the same checks as the served files.

use super::{lock, FolderError, ResultsFolder};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How many regenerated games stay on disk for the next request (a page asks for a game's
/// details, log and players one after the other).
pub const RESTORED_GAMES: usize = 4;

/// What regenerates an event's games for the viewer.
pub trait GameArchive: Send + Sync + std::fmt::Debug {
    /// The run folder whose games it holds (the event's `games` folder).
    fn run_dir(&self) -> &Path;
    /// Writes game `number`'s files (its logs, hand histories and `result.json`) into `into`,
    /// an empty folder; `Ok(false)` when it has no record of that game.
    ///
    /// # Errors
    /// The record cannot be read or played, as one line.
    fn regenerate(&self, number: u32, into: &Path) -> Result<bool, String>;
    /// Game `number`'s log was opened (its files are worth keeping).
    fn opened(&self, number: u32);
}

/// The regenerated games on disk, newest last.
#[derive(Debug, Default)]
pub(super) struct Restored {
    root: Option<tempfile::TempDir>,
    games: VecDeque<u32>,
}

/// The archive of a served folder, with its run folder resolved.
#[derive(Debug)]
pub(super) struct Archive {
    archive: Arc<dyn GameArchive>,
    run_dir: PathBuf,
}

impl Archive {
    pub(super) fn new(archive: Arc<dyn GameArchive>) -> Archive {
        let run_dir = archive
            .run_dir()
            .canonicalize()
            .unwrap_or_else(|_| archive.run_dir().to_path_buf());
        Archive { archive, run_dir }
    }
}

impl ResultsFolder {
    /// Serves the games `archive` regenerates too: an event's games whose folders were
    /// deleted, opened from a folder of the server's own ([`GameArchive`]).
    pub fn with_archive(mut self, archive: Arc<dyn GameArchive>) -> ResultsFolder {
        self.archive = Some(Archive::new(archive));
        self
    }

    /// Whether `run_dir` is the archive's run.
    pub(super) fn archives(&self, run_dir: &Path) -> Option<&Archive> {
        self.archive.as_ref().filter(|archive| {
            run_dir == archive.run_dir
                || run_dir
                    .canonicalize()
                    .is_ok_and(|real| real == archive.run_dir)
        })
    }

    /// Game `number` of the run in `run_dir` regenerated (or already), if the archive has it.
    pub(super) fn restored_game(
        &self,
        run_dir: &Path,
        number: u32,
    ) -> Result<Option<PathBuf>, FolderError> {
        let Some(archive) = self.archives(run_dir) else {
            return Ok(None);
        };
        let mut restored = lock(&self.restored);
        let root = match &restored.root {
            Some(root) => root.path().to_path_buf(),
            None => {
                let root = tempfile::tempdir().map_err(|source| FolderError::Io {
                    path: "a temporary folder".to_string(),
                    source,
                })?;
                let path = root.path().to_path_buf();
                restored.root = Some(root);
                path
            }
        };
        let dir = root.join(crate::tournament::game_dir_name(number));
        if let Some(at) = restored.games.iter().position(|&game| game == number) {
            restored.games.remove(at);
            restored.games.push_back(number);
            return Ok(Some(dir));
        }
        let _ = std::fs::remove_dir_all(&dir);
        let regenerated = archive.archive.regenerate(number, &dir).map_err(|reason| {
            let _ = std::fs::remove_dir_all(&dir);
            FolderError::Unreadable(format!(
                "game {number}'s files were deleted and cannot be regenerated from its record: {reason}"
            ))
        })?;
        if !regenerated {
            return Ok(None);
        }
        restored.games.push_back(number);
        while restored.games.len() > RESTORED_GAMES {
            if let Some(old) = restored.games.pop_front() {
                let _ = std::fs::remove_dir_all(root.join(crate::tournament::game_dir_name(old)));
            }
        }
        Ok(Some(dir))
    }

    /// Whether `path` (as given, or canonical) is inside the regenerated games' folder.
    pub(super) fn is_restored(&self, path: &Path) -> bool {
        let restored = lock(&self.restored);
        let Some(root) = restored.root.as_ref() else {
            return false;
        };
        path.starts_with(root.path())
            || root
                .path()
                .canonicalize()
                .is_ok_and(|real| path.starts_with(real))
    }

    /// Tells the archive a game of its run was opened.
    pub(super) fn note_opened(&self, run_dir: &Path, number: u32) {
        if let Some(archive) = self.archives(run_dir) {
            archive.archive.opened(number);
        }
    }
}
