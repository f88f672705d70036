//! Finding runs and games in the served folder, and caching each run's summary.

use super::folder_stamp::FolderStamp;
use super::outcomes::{FinishedGame, OutcomeCache, OutcomeFile};
use super::{game_number, lock, FolderError, ResultsFolder, MAX_RESULTS_BYTES, ROOT_RUN_ID};
use crate::observe::GameOutputs;
use crate::tournament::{GameEntry, InterruptedGame, RunResults};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One run in the runs list.
#[derive(Debug, Clone, Serialize)]
pub struct RunListItem {
    /// Its key in URLs: the folder name, or [`ROOT_RUN_ID`] for the served folder itself.
    pub id: String,
    /// The folder, relative to the served folder (`.` for itself).
    pub folder: String,
    /// The tournament id from `results.json`.
    pub tournament_id: Option<String>,
    /// Games asked for, from `results.json`.
    pub games_planned: Option<u32>,
    /// Game folders found.
    pub games_found: usize,
    /// Whether `results.json` says every planned game was played.
    pub complete: Option<bool>,
    /// Why `results.json` could not be read, if it is there but unreadable.
    pub results_error: Option<String>,
    /// The leader by points, if any game was recorded.
    pub leader: Option<String>,
    /// Games being played (see [`GameStatus::Running`]).
    pub running: usize,
    /// Last modification of the run folder or its `results.json`, seconds since the epoch.
    pub modified: u64,
}

/// Where a game is, as far as its run's `results.json` tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Recorded in `results.json`.
    Finished,
    /// Not recorded yet while the run goes on (`results.json` says neither complete nor
    /// stopped): being played, or just over and not written yet (`results.json` is rewritten
    /// only now and then during a run).
    Running,
    /// Listed in `results.json` as interrupted (a stop, or another game's failure).
    Interrupted,
    /// Not in a `results.json`: another dealer's log, or a run that ended without it.
    Unrecorded,
}

impl GameStatus {
    /// Whether the viewer hides what a live table hides: hole cards until shown at a
    /// showdown, and the requests of the hand being played. True while the game may be in
    /// play; the one home of that rule for every page and download.
    pub fn hides_cards(self) -> bool {
        self == GameStatus::Running
    }
}

/// One game in a run's summary.
#[derive(Debug, Clone, Serialize)]
pub struct GameListItem {
    /// The game number (from `game-<n>`).
    pub game: u32,
    /// Finished, running, interrupted or unrecorded.
    pub status: GameStatus,
    /// Whether `log.json` exists.
    pub has_log: bool,
    /// Whether `results.json` records the game (a game cut off by a stop is not recorded).
    pub recorded: bool,
    /// The winner, when recorded.
    pub winner: Option<String>,
    /// Hands played, when recorded.
    pub hands_played: Option<u64>,
    /// Players banned in the game, when recorded.
    pub banned: Vec<String>,
}

/// A run's summary: the leaderboard and the games.
#[derive(Debug, Clone, Serialize)]
pub struct RunSummary {
    /// The run as listed.
    pub run: RunListItem,
    /// The whole `results.json` except its games (settings, players, totals), when readable.
    pub results: Option<serde_json::Value>,
    /// The games, by number.
    pub games: Vec<GameListItem>,
}
/// A game folder found in a run.
#[derive(Debug, Clone)]
pub(super) struct GameFolder {
    /// The game folder.
    dir: PathBuf,
}

/// A run folder and what is known of it.
#[derive(Debug)]
pub(super) struct RunFolder {
    id: String,
    dir: PathBuf,
    /// Cached summary with the stamp it was built for.
    cached: Mutex<Option<(FolderStamp, Arc<RunCache>)>>,
    /// Each game folder's own outcome file (event games), by number.
    outcomes: OutcomeCache,
}

/// What a run's summary was built from.
#[derive(Debug)]
pub(super) struct RunCache {
    /// When it was built.
    built_at: Instant,
    /// Whether a game may be in play without the run folder showing it (see
    /// `UNRECORDED_REFRESH`).
    has_unrecorded: bool,
    summary: Arc<RunSummary>,
    games: BTreeMap<u32, GameFolder>,
    /// The games `results.json` records, by number.
    pub(super) entries: BTreeMap<u32, GameEntry>,
    /// The games recorded by their own `result.json` only (event games): read again when
    /// asked, as an event holds thousands.
    pub(super) own_results: std::collections::BTreeSet<u32>,
    /// How interrupted games stopped, by number (from `results.json` or `abandoned.json`).
    pub(super) interruptions: BTreeMap<u32, InterruptedGame>,
    /// Each game's status, by number.
    pub(super) statuses: BTreeMap<u32, GameStatus>,
}

/// An unrecorded game whose `log.json` changed this recently counts as running.
const UNRECORDED_LIVE_SECS: u64 = 60;

/// A game's status, with an unrecorded `game-<n>/` folder (no `results.json` says; another
/// tool writing game folders) counted as running while its log changed in the last
/// `UNRECORDED_LIVE_SECS`.
pub(super) fn current_status(status: GameStatus, game_dir: &Path) -> GameStatus {
    // A bare `log.json` in a run folder (not in a `game-<n>/` folder) is another dealer's
    // finished log, never a game being played here.
    let game_folder = game_dir
        .file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name.starts_with("game-"));
    if status != GameStatus::Unrecorded || !game_folder {
        return status;
    }
    let recent = std::fs::metadata(GameOutputs::viewer_log_path(game_dir))
        .and_then(|meta| meta.modified())
        .ok()
        .and_then(|modified| modified.elapsed().ok())
        .is_some_and(|age| age.as_secs() < UNRECORDED_LIVE_SECS);
    if recent {
        GameStatus::Running
    } else {
        status
    }
}

/// How long a run's summary that lists an unrecorded game folder is kept before it is read
/// again: such a game (an event's, which no `results.json` will ever list) may start or stop
/// being played without its run folder changing.
const UNRECORDED_REFRESH: Duration = Duration::from_secs(1);

/// The runs found in the served folder, by id.
pub(super) type RunIndex = BTreeMap<String, Arc<RunFolder>>;

impl RunCache {
    /// A game's status (unrecorded for a number the summary does not list).
    pub(super) fn status(&self, game: u32) -> GameStatus {
        self.statuses
            .get(&game)
            .copied()
            .unwrap_or(GameStatus::Unrecorded)
    }
}

impl ResultsFolder {
    /// Whether `dir` looks like a run: `results.json`, a `game-<n>` folder or a `log.json`, or
    /// it is the archive's run (an event whose disk budget deleted every game's folder).
    fn is_run(&self, dir: &Path) -> bool {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return false;
        };
        if self.archives(dir).is_some() {
            return true;
        }
        entries.flatten().any(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name == "results.json"
                || name == "log.json"
                || (game_number(&name).is_some() && self.is_dir_inside(&entry.path()))
        })
    }

    fn run_folders(&self) -> Result<Arc<RunIndex>, FolderError> {
        // The folder and each subfolder: a run folder created empty and filled later changes
        // only its own modification time.
        let children: Vec<PathBuf> = std::fs::read_dir(&self.root)
            .map_err(|source| self.io_error(&self.root, source))?
            .flatten()
            .map(|entry| entry.path())
            .collect();
        let mut watched: Vec<&Path> = vec![&self.root];
        watched.extend(children.iter().map(PathBuf::as_path));
        let stamp = FolderStamp::of(&watched);
        let mut cached = lock(&self.runs);
        if let Some((old, runs)) = cached.as_ref() {
            if *old == stamp {
                return Ok(Arc::clone(runs));
            }
        }
        let mut runs = BTreeMap::new();
        let new_run = |id: String, dir: PathBuf| {
            Arc::new(RunFolder {
                id,
                dir,
                cached: Mutex::new(None),
                outcomes: OutcomeCache::default(),
            })
        };
        let entries =
            std::fs::read_dir(&self.root).map_err(|source| self.io_error(&self.root, source))?;
        for entry in entries.flatten() {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let path = entry.path();
            if name == ROOT_RUN_ID
                || name.starts_with('.')
                || game_number(&name).is_some()
                || !self.is_dir_inside(&path)
                // An event's games folder is a run even when every game folder is gone.
                || !(self.is_run(&path) || self.archives(&path).is_some())
            {
                continue;
            }
            // Keep the cached summary of a run that is still there.
            let run = match cached.as_ref().and_then(|(_, old)| old.get(&name)) {
                Some(old) => Arc::clone(old),
                None => new_run(name.clone(), path),
            };
            runs.insert(name, run);
        }
        if self.is_run(&self.root) {
            let run = match cached.as_ref().and_then(|(_, old)| old.get(ROOT_RUN_ID)) {
                Some(old) => Arc::clone(old),
                None => new_run(ROOT_RUN_ID.to_string(), self.root.clone()),
            };
            runs.insert(ROOT_RUN_ID.to_string(), run);
        }
        let runs = Arc::new(runs);
        *cached = Some((stamp, Arc::clone(&runs)));
        Ok(runs)
    }

    fn run_folder(&self, id: &str) -> Result<Arc<RunFolder>, FolderError> {
        self.run_folders()?
            .get(id)
            .cloned()
            .ok_or_else(|| FolderError::NotFound(format!("no run {id:?} in the served folder")))
    }

    fn run_cache(&self, run: &RunFolder) -> Result<Arc<RunCache>, FolderError> {
        let results_path = run.dir.join("results.json");
        let stamp = FolderStamp::of(&[&run.dir, &results_path]);
        let mut cached = lock(&run.cached);
        if let Some((old, cache)) = cached.as_ref() {
            let fresh = !cache.has_unrecorded || cache.built_at.elapsed() < UNRECORDED_REFRESH;
            if *old == stamp && fresh {
                return Ok(Arc::clone(cache));
            }
        }
        let cache = Arc::new(self.build_run(run, &results_path, &stamp)?);
        *cached = Some((stamp, Arc::clone(&cache)));
        Ok(cache)
    }

    fn build_run(
        &self,
        run: &RunFolder,
        results_path: &Path,
        stamp: &FolderStamp,
    ) -> Result<RunCache, FolderError> {
        let mut games = BTreeMap::new();
        let entries =
            std::fs::read_dir(&run.dir).map_err(|source| self.io_error(&run.dir, source))?;
        for entry in entries.flatten() {
            let Some(number) = entry.file_name().to_str().and_then(game_number) else {
                continue;
            };
            if self.is_dir_inside(&entry.path()) {
                games.insert(number, GameFolder { dir: entry.path() });
            }
        }
        // A folder holding a bare `log.json` (another dealer's log) is a run of one game.
        if games.is_empty() && run.dir.join("log.json").is_file() {
            games.insert(
                1,
                GameFolder {
                    dir: run.dir.clone(),
                },
            );
        }
        let (results, results_error) = match self.read(results_path, MAX_RESULTS_BYTES) {
            Ok(bytes) => match serde_json::from_slice::<RunResults>(&bytes) {
                Ok(results) => (Some(results), None),
                Err(error) => (
                    None,
                    Some(format!(
                        "results.json cannot be read ({error}); the games are listed from their folders"
                    )),
                ),
            },
            Err(FolderError::NotFound(_)) => (None, None),
            Err(error) => (None, Some(error.to_string())),
        };
        let mut entries = BTreeMap::new();
        let mut interrupted = std::collections::BTreeSet::new();
        let mut interruptions: BTreeMap<u32, InterruptedGame> = BTreeMap::new();
        let mut run_goes_on = false;
        let mut head = None;
        let mut item = RunListItem {
            id: run.id.clone(),
            folder: self.relative(&run.dir),
            tournament_id: None,
            games_planned: None,
            games_found: games.len(),
            complete: None,
            results_error,
            leader: None,
            running: 0,
            modified: stamp.newest_secs(),
        };
        if let Some(mut results) = results {
            item.tournament_id = Some(results.tournament_id.clone());
            item.games_planned = Some(results.games_planned);
            item.complete = Some(results.complete);
            item.leader = results
                .totals
                .first()
                .filter(|total| total.games > 0)
                .map(|total| total.name.clone());
            run_goes_on = !results.complete && results.stopped_because.is_none();
            interrupted.extend(results.interrupted.iter().map(|game| game.game));
            interruptions.extend(
                results
                    .interrupted
                    .iter()
                    .map(|game| (game.game, game.clone())),
            );
            for entry in std::mem::take(&mut results.games) {
                entries.insert(entry.game, entry);
            }
            head = serde_json::to_value(&results).ok().map(|mut value| {
                if let Some(object) = value.as_object_mut() {
                    object.remove("games");
                }
                value
            });
        }
        let mut own_results: BTreeMap<u32, FinishedGame> = BTreeMap::new();
        for (&number, folder) in &games {
            if entries.contains_key(&number) || interrupted.contains(&number) {
                continue;
            }
            match &*self.outcome_file(&run.outcomes, number, &folder.dir) {
                OutcomeFile::Finished(finished) => {
                    own_results.insert(number, finished.clone());
                }
                OutcomeFile::Abandoned(record) => {
                    interrupted.insert(number);
                    if let Some(record) = record {
                        interruptions.insert(number, (**record).clone());
                    }
                }
                OutcomeFile::Missing => {}
            }
        }
        self.forget_outcomes_except(&run.outcomes, |number| games.contains_key(&number));
        let mut numbers: Vec<u32> = games.keys().chain(entries.keys()).copied().collect();
        numbers.sort_unstable();
        numbers.dedup();
        let recorded = |game: u32| entries.contains_key(&game) || own_results.contains_key(&game);
        let status_of = |game: u32| {
            if recorded(game) {
                GameStatus::Finished
            } else if interrupted.contains(&game) {
                GameStatus::Interrupted
            } else if run_goes_on {
                GameStatus::Running
            } else {
                // An event's game being played: no results.json will list it, but its log
                // grows (the same rule as one game's own page).
                games.get(&game).map_or(GameStatus::Unrecorded, |folder| {
                    current_status(GameStatus::Unrecorded, &folder.dir)
                })
            }
        };
        let statuses: BTreeMap<u32, GameStatus> = numbers
            .iter()
            .map(|&game| (game, status_of(game)))
            .collect();
        item.running = statuses
            .values()
            .filter(|status| **status == GameStatus::Running)
            .count();
        let list = numbers
            .into_iter()
            .map(|game| {
                let finished = entries
                    .get(&game)
                    .map(FinishedGame::from)
                    .or_else(|| own_results.get(&game).cloned());
                GameListItem {
                    game,
                    status: statuses
                        .get(&game)
                        .copied()
                        .unwrap_or(GameStatus::Unrecorded),
                    has_log: games
                        .get(&game)
                        .is_some_and(|folder| super::compressed::has_viewer_log(&folder.dir)),
                    recorded: finished.is_some(),
                    hands_played: finished.as_ref().map(|f| f.hands_played),
                    banned: finished
                        .as_ref()
                        .map(|f| f.banned.clone())
                        .unwrap_or_default(),
                    winner: finished.and_then(|f| f.winner),
                }
            })
            .collect();
        let has_unrecorded = statuses
            .values()
            .any(|status| matches!(status, GameStatus::Unrecorded | GameStatus::Running));
        Ok(RunCache {
            built_at: Instant::now(),
            has_unrecorded,
            summary: Arc::new(RunSummary {
                run: item,
                results: head,
                games: list,
            }),
            games,
            entries,
            own_results: own_results.into_keys().collect(),
            interruptions,
            statuses,
        })
    }

    /// Every run in the folder, by id.
    ///
    /// # Errors
    /// The folder cannot be listed.
    pub fn runs(&self) -> Result<Vec<RunListItem>, FolderError> {
        let folders = self.run_folders()?;
        let mut out = Vec::with_capacity(folders.len());
        for run in folders.values() {
            match self.run_cache(run) {
                Ok(cache) => out.push(cache.summary.run.clone()),
                // A run folder that vanished between the listing and now.
                Err(FolderError::NotFound(_)) => {}
                Err(error) => return Err(error),
            }
        }
        Ok(out)
    }

    /// One run's leaderboard and games.
    ///
    /// # Errors
    /// [`FolderError::NotFound`] for an unknown run.
    pub fn run(&self, id: &str) -> Result<Arc<RunSummary>, FolderError> {
        let run = self.run_folder(id)?;
        Ok(Arc::clone(&self.run_cache(&run)?.summary))
    }

    pub(super) fn game_folder(
        &self,
        id: &str,
        game: u32,
    ) -> Result<(Arc<RunCache>, PathBuf), FolderError> {
        let run = self.run_folder(id)?;
        let cache = self.run_cache(&run)?;
        let folder = cache.games.get(&game).map(|folder| folder.dir.clone());
        if let Some(dir) = folder {
            if !self.cut_by_full_disk(&run.dir, game) {
                return Ok((cache, dir));
            }
            // Cut by a full disk: the game whole, from its record; the folder as it is only
            // when the record cannot give it.
            return match self.restored_game(&run.dir, game) {
                Ok(Some(restored)) => Ok((cache, restored)),
                Ok(None) => Ok((cache, dir)),
                Err(error) => {
                    tracing::warn!(game, %error, "a game cut by a full disk is shown as it is");
                    Ok((cache, dir))
                }
            };
        }
        // Deleted by an event's retention: regenerated from the game's record.
        match self.restored_game(&run.dir, game)? {
            Some(dir) => Ok((cache, dir)),
            None => Err(FolderError::NotFound(format!(
                "run {id:?} has no game {game}"
            ))),
        }
    }

    /// A game's status: a regenerated game is finished (it has a record); others as
    /// [`current_status`] tells.
    pub(super) fn status_at(&self, cache: &RunCache, game: u32, dir: &Path) -> GameStatus {
        if self.is_restored(dir) {
            GameStatus::Finished
        } else {
            current_status(cache.status(game), dir)
        }
    }

    /// Tells an event that one of its games was opened (its files are worth keeping).
    pub(super) fn opened(&self, id: &str, game: u32) {
        if let Ok(run) = self.run_folder(id) {
            self.note_opened(&run.dir, game);
        }
    }
}
