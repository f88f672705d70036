//! An event game's own record of how it ended (`event::outcome_files`: `result.json` or
//! `abandoned.json` in its folder), for game folders no `results.json` lists: so a game of
//! `dealer serve --data` opens in the read-only runs view as finished or interrupted, not as
//! "not in results.json". Read once per game and kept until its folder changes.

use super::folder_stamp::FolderStamp;
use super::{lock, ResultsFolder};
use crate::event::outcome_files::{ABANDONED_FILE, RESULT_FILE};
use crate::tournament::{GameEntry, InterruptedGame};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// How a game folder says its game ended.
#[derive(Debug, Clone)]
pub(super) enum OutcomeFile {
    /// Neither file (being played, or not an event game).
    Missing,
    /// `result.json`.
    Finished(Box<GameEntry>),
    /// `abandoned.json`: why the game stopped (`None` when the file cannot be read).
    Abandoned(Option<Box<InterruptedGame>>),
}

/// Each game folder's [`OutcomeFile`] with the folder stamp it was read at.
#[derive(Debug, Default)]
pub(super) struct OutcomeCache(Mutex<BTreeMap<u32, (FolderStamp, Arc<OutcomeFile>)>>);

impl ResultsFolder {
    /// Game `number`'s outcome file in `dir`, from the cache while the folder is unchanged.
    pub(super) fn outcome_file(
        &self,
        cache: &OutcomeCache,
        number: u32,
        dir: &Path,
    ) -> Arc<OutcomeFile> {
        let stamp = FolderStamp::of(&[dir]);
        if let Some((old, outcome)) = lock(&cache.0).get(&number) {
            if *old == stamp {
                return Arc::clone(outcome);
            }
        }
        let outcome = Arc::new(self.read_outcome(dir));
        lock(&cache.0).insert(number, (stamp, Arc::clone(&outcome)));
        outcome
    }

    fn read_outcome(&self, dir: &Path) -> OutcomeFile {
        let result = dir.join(RESULT_FILE);
        if result.is_file() {
            match self
                .read(&result, super::MAX_RESULTS_BYTES)
                .map_err(|error| error.to_string())
                .and_then(|bytes| {
                    serde_json::from_slice::<GameEntry>(&bytes).map_err(|error| error.to_string())
                }) {
                Ok(entry) => return OutcomeFile::Finished(Box::new(entry)),
                // Listed from its folder as any unrecorded game.
                Err(error) => {
                    tracing::warn!(file = %self.relative(&result), %error, "unreadable game result")
                }
            }
        }
        let abandoned = dir.join(ABANDONED_FILE);
        if abandoned.is_file() {
            let record = self
                .read(&abandoned, super::MAX_RESULTS_BYTES)
                .ok()
                .and_then(|bytes| serde_json::from_slice::<InterruptedGame>(&bytes).ok());
            OutcomeFile::Abandoned(record.map(Box::new))
        } else {
            OutcomeFile::Missing
        }
    }
}
