//! An event game's own record of how it ended (`event::outcome_files`: `result.json` or
//! `abandoned.json` in its folder), for game folders no `results.json` lists: so a game of
//! `dealer serve --data` opens in the read-only runs view as finished or interrupted, not as
//! "not in results.json". Read once per game and kept until its folder changes; what is kept
//! is the games list's few fields ([`FinishedGame`]), not the whole record: one is kept per
//! game of an event of thousands (the whole record is read again when a game's page asks).

use super::folder_stamp::FolderStamp;
use super::{lock, ResultsFolder};
use crate::event::outcome_files::{ABANDONED_FILE, RESULT_FILE};
use crate::tournament::{GameEntry, InterruptedGame};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// What the games list shows of a finished game: a few bytes where the whole record
/// (standings, versions, ids, seats) is kilobytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FinishedGame {
    /// The winner's name.
    pub(super) winner: Option<String>,
    /// Hands played.
    pub(super) hands_played: u64,
    /// The players banned, in order.
    pub(super) banned: Vec<String>,
}

impl From<&GameEntry> for FinishedGame {
    fn from(entry: &GameEntry) -> FinishedGame {
        FinishedGame {
            winner: entry.standings.first().map(|s| s.name.clone()),
            hands_played: entry.result.hands_played,
            banned: entry.result.bans.iter().map(|b| b.name.clone()).collect(),
        }
    }
}

/// How a game folder says its game ended.
#[derive(Debug, Clone)]
pub(super) enum OutcomeFile {
    /// Neither file (being played, or not an event game).
    Missing,
    /// `result.json` (read again whole by [`ResultsFolder::game_result_file`]).
    Finished(FinishedGame),
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

    /// Forgets the games whose folders are gone (pruned): the cache holds at most one entry
    /// per game folder there is.
    pub(super) fn forget_outcomes_except(&self, cache: &OutcomeCache, kept: impl Fn(u32) -> bool) {
        lock(&cache.0).retain(|&number, _| kept(number));
    }

    /// A game folder's whole `result.json`, when it is there and readable (an unreadable one
    /// is logged and the game is listed as unrecorded).
    pub(super) fn game_result_file(&self, dir: &Path) -> Option<GameEntry> {
        let result = dir.join(RESULT_FILE);
        if !result.is_file() {
            return None;
        }
        match self
            .read(&result, super::MAX_RESULTS_BYTES)
            .map_err(|error| error.to_string())
            .and_then(|bytes| {
                serde_json::from_slice::<GameEntry>(&bytes).map_err(|error| error.to_string())
            }) {
            Ok(entry) => Some(entry),
            Err(error) => {
                tracing::warn!(file = %self.relative(&result), %error, "unreadable game result");
                None
            }
        }
    }

    fn read_outcome(&self, dir: &Path) -> OutcomeFile {
        if let Some(entry) = self.game_result_file(dir) {
            return OutcomeFile::Finished(FinishedGame::from(&entry));
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
