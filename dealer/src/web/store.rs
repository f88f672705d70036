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

use super::view::{self, GameLog, PlayerRequests, RequestLine};
use crate::observe::GameOutputs;
use crate::tournament::{GameEntry, RunResults};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;
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
pub enum StoreError {
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
    /// Last modification of the run folder or its `results.json`, seconds since the epoch.
    pub modified: u64,
}

/// One game in a run's summary.
#[derive(Debug, Clone, Serialize)]
pub struct GameListItem {
    /// The game number (from `game-<n>`).
    pub game: u32,
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

/// One game's details.
#[derive(Debug, Clone, Serialize)]
pub struct GameDetails {
    /// The run's id.
    pub run: String,
    /// The game number.
    pub game: u32,
    /// The game's entry in `results.json`, when recorded.
    pub result: Option<GameEntry>,
    /// Whether `log.json` exists.
    pub has_log: bool,
    /// Whether `requests.jsonl` exists.
    pub has_requests: bool,
    /// The players with a log under `players/`, in seat order.
    pub players: Vec<PlayerFile>,
}

/// A player's log file in a game.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerFile {
    /// The exact name (from the file's header line).
    pub name: String,
    /// The seat (from the header line).
    pub seat: Option<u64>,
    /// The file, relative to the game folder.
    #[serde(skip)]
    path: PathBuf,
}

/// A game folder found in a run.
#[derive(Debug, Clone)]
struct GameFolder {
    /// The game folder.
    dir: PathBuf,
}

/// A run folder and what is known of it.
#[derive(Debug)]
struct RunFolder {
    id: String,
    dir: PathBuf,
    /// Cached summary with the stamp it was built for.
    cached: Mutex<Option<(Stamp, Arc<RunCache>)>>,
}

/// What a run's summary was built from.
#[derive(Debug)]
struct RunCache {
    summary: Arc<RunSummary>,
    games: BTreeMap<u32, GameFolder>,
    entries: BTreeMap<u32, GameEntry>,
}

/// Modification times and lengths that invalidate a cache.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp(Vec<(Option<SystemTime>, u64)>);

impl Stamp {
    fn of(paths: &[&Path]) -> Stamp {
        Stamp(
            paths
                .iter()
                .map(|path| match std::fs::metadata(path) {
                    Ok(meta) => (meta.modified().ok(), meta.len()),
                    Err(_) => (None, 0),
                })
                .collect(),
        )
    }

    fn newest_secs(&self) -> u64 {
        self.0
            .iter()
            .filter_map(|(time, _)| *time)
            .max()
            .and_then(|time| time.duration_since(SystemTime::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_secs())
    }
}

/// The runs found in the served folder, by id.
type RunIndex = BTreeMap<String, Arc<RunFolder>>;

/// The served folder: runs found in it (itself and its direct subfolders), cached.
#[derive(Debug)]
pub struct ResultsFolder {
    /// The folder, canonical (symlinks resolved).
    root: PathBuf,
    runs: Mutex<Option<(Stamp, Arc<RunIndex>)>>,
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
    /// [`StoreError::NotFound`] when `dir` is not a readable folder.
    pub fn new(dir: &Path) -> Result<ResultsFolder, StoreError> {
        let root = dir.canonicalize().map_err(|source| {
            StoreError::NotFound(format!("{} is not a folder: {source}", dir.display()))
        })?;
        if !root.is_dir() {
            return Err(StoreError::NotFound(format!(
                "{} is not a folder",
                dir.display()
            )));
        }
        Ok(ResultsFolder {
            root,
            runs: Mutex::new(None),
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

    fn io_error(&self, path: &Path, source: io::Error) -> StoreError {
        let path = self.relative(path);
        if source.kind() == io::ErrorKind::NotFound {
            StoreError::NotFound(format!("{path} does not exist"))
        } else {
            StoreError::Io { path, source }
        }
    }

    /// Opens `path` if its real location is inside the served folder and it is a file.
    fn open(&self, path: &Path) -> Result<(File, Metadata), StoreError> {
        let real = path
            .canonicalize()
            .map_err(|source| self.io_error(path, source))?;
        if !real.starts_with(&self.root) {
            return Err(StoreError::NotFound(format!(
                "{} points outside the served folder",
                self.relative(path)
            )));
        }
        let file = File::open(&real).map_err(|source| self.io_error(path, source))?;
        let meta = file
            .metadata()
            .map_err(|source| self.io_error(path, source))?;
        if !meta.is_file() {
            return Err(StoreError::NotFound(format!(
                "{} is not a file",
                self.relative(path)
            )));
        }
        Ok((file, meta))
    }

    /// Reads a whole file of at most `limit` bytes.
    fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, StoreError> {
        let (file, meta) = self.open(path)?;
        if meta.len() > limit {
            return Err(StoreError::TooLarge {
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

    /// Whether `dir` looks like a run: `results.json`, a `game-<n>` folder or a `log.json`.
    fn is_run(&self, dir: &Path) -> bool {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return false;
        };
        entries.flatten().any(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name == "results.json"
                || name == "log.json"
                || (game_number(&name).is_some() && self.is_dir_inside(&entry.path()))
        })
    }

    fn run_folders(&self) -> Result<Arc<RunIndex>, StoreError> {
        // The folder and each subfolder: a run folder created empty and filled later changes
        // only its own modification time.
        let children: Vec<PathBuf> = std::fs::read_dir(&self.root)
            .map_err(|source| self.io_error(&self.root, source))?
            .flatten()
            .map(|entry| entry.path())
            .collect();
        let mut watched: Vec<&Path> = vec![&self.root];
        watched.extend(children.iter().map(PathBuf::as_path));
        let stamp = Stamp::of(&watched);
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
                || !self.is_run(&path)
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

    fn run_folder(&self, id: &str) -> Result<Arc<RunFolder>, StoreError> {
        self.run_folders()?
            .get(id)
            .cloned()
            .ok_or_else(|| StoreError::NotFound(format!("no run {id:?} in the served folder")))
    }

    fn run_cache(&self, run: &RunFolder) -> Result<Arc<RunCache>, StoreError> {
        let results_path = run.dir.join("results.json");
        let stamp = Stamp::of(&[&run.dir, &results_path]);
        let mut cached = lock(&run.cached);
        if let Some((old, cache)) = cached.as_ref() {
            if *old == stamp {
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
        stamp: &Stamp,
    ) -> Result<RunCache, StoreError> {
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
            Err(StoreError::NotFound(_)) => (None, None),
            Err(error) => (None, Some(error.to_string())),
        };
        let mut entries = BTreeMap::new();
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
        let mut numbers: Vec<u32> = games.keys().chain(entries.keys()).copied().collect();
        numbers.sort_unstable();
        numbers.dedup();
        let list = numbers
            .into_iter()
            .map(|game| {
                let entry = entries.get(&game);
                GameListItem {
                    game,
                    has_log: games
                        .get(&game)
                        .is_some_and(|folder| folder.dir.join("log.json").is_file()),
                    recorded: entry.is_some(),
                    winner: entry
                        .and_then(|e| e.standings.first())
                        .map(|s| s.name.clone()),
                    hands_played: entry.map(|e| e.result.hands_played),
                    banned: entry
                        .map(|e| e.result.bans.iter().map(|b| b.name.clone()).collect())
                        .unwrap_or_default(),
                }
            })
            .collect();
        Ok(RunCache {
            summary: Arc::new(RunSummary {
                run: item,
                results: head,
                games: list,
            }),
            games,
            entries,
        })
    }

    /// Every run in the folder, by id.
    ///
    /// # Errors
    /// The folder cannot be listed.
    pub fn runs(&self) -> Result<Vec<RunListItem>, StoreError> {
        let folders = self.run_folders()?;
        let mut out = Vec::with_capacity(folders.len());
        for run in folders.values() {
            match self.run_cache(run) {
                Ok(cache) => out.push(cache.summary.run.clone()),
                // A run folder that vanished between the listing and now.
                Err(StoreError::NotFound(_)) => {}
                Err(error) => return Err(error),
            }
        }
        Ok(out)
    }

    /// One run's leaderboard and games.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown run.
    pub fn run(&self, id: &str) -> Result<Arc<RunSummary>, StoreError> {
        let run = self.run_folder(id)?;
        Ok(Arc::clone(&self.run_cache(&run)?.summary))
    }

    fn game_folder(&self, id: &str, game: u32) -> Result<(Arc<RunCache>, PathBuf), StoreError> {
        let run = self.run_folder(id)?;
        let cache = self.run_cache(&run)?;
        let dir = cache
            .games
            .get(&game)
            .map(|folder| folder.dir.clone())
            .ok_or_else(|| StoreError::NotFound(format!("run {id:?} has no game {game}")))?;
        Ok((cache, dir))
    }

    /// One game's result and files.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown run or game.
    pub fn game(&self, id: &str, game: u32) -> Result<GameDetails, StoreError> {
        let (cache, dir) = self.game_folder(id, game)?;
        Ok(GameDetails {
            run: id.to_string(),
            game,
            result: cache.entries.get(&game).cloned(),
            has_log: GameOutputs::viewer_log_path(&dir).is_file(),
            has_requests: GameOutputs::requests_path(&dir).is_file(),
            players: self.player_files(&dir),
        })
    }

    /// The game's viewer log, checked and indexed.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] without a log, [`StoreError::Unreadable`] for a malformed or
    /// cut-off one, [`StoreError::TooLarge`].
    pub fn game_log(&self, id: &str, game: u32) -> Result<GameLog, StoreError> {
        let (_, dir) = self.game_folder(id, game)?;
        let bytes = self.read(&GameOutputs::viewer_log_path(&dir), MAX_LOG_BYTES)?;
        view::parse_log(&bytes).map_err(StoreError::Unreadable)
    }

    /// The players' log files of a game folder, from their header lines, in seat order.
    fn player_files(&self, game_dir: &Path) -> Vec<PlayerFile> {
        let dir = GameOutputs::players_dir(game_dir);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Vec::new();
        };
        let mut files: Vec<PlayerFile> = entries
            .flatten()
            .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "log"))
            .filter_map(|entry| {
                let (file, _) = self.open(&entry.path()).ok()?;
                let mut head = Vec::with_capacity(1024);
                file.take(4096).read_to_end(&mut head).ok()?;
                let line = head.split(|&b| b == b'\n').next()?;
                let (name, seat) = view::player_log_header(&String::from_utf8_lossy(line))?;
                Some(PlayerFile {
                    name,
                    seat,
                    path: entry.path(),
                })
            })
            .collect();
        files.sort_by(|a, b| a.seat.cmp(&b.seat).then(a.name.cmp(&b.name)));
        files
    }

    /// What one player was asked and answered in a game: its `requests.jsonl` lines and its
    /// text log.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown run, game or player.
    pub fn player(&self, id: &str, game: u32, name: &str) -> Result<PlayerRequests, StoreError> {
        let (_, dir) = self.game_folder(id, game)?;
        let files = self.player_files(&dir);
        let file = files.iter().find(|file| file.name == name);
        let requests_path = GameOutputs::requests_path(&dir);
        let (requests, problems) = match self.read(&requests_path, MAX_LOG_BYTES) {
            Ok(bytes) => view::requests_of(&bytes, name),
            Err(StoreError::NotFound(_)) => (Vec::new(), Vec::new()),
            Err(error) => return Err(error),
        };
        if file.is_none() && requests.is_empty() {
            return Err(StoreError::NotFound(format!(
                "game {game} has no player {name:?}"
            )));
        }
        let (log, log_cut) = match file {
            Some(file) => {
                let (handle, meta) = self.open(&file.path)?;
                let mut text = Vec::new();
                handle
                    .take(MAX_PLAYER_LOG_BYTES)
                    .read_to_end(&mut text)
                    .map_err(|source| self.io_error(&file.path, source))?;
                (
                    Some(String::from_utf8_lossy(&text).into_owned()),
                    meta.len() > MAX_PLAYER_LOG_BYTES,
                )
            }
            None => (None, false),
        };
        Ok(PlayerRequests {
            name: name.to_string(),
            seat: file
                .and_then(|f| f.seat)
                .or_else(|| requests.first().map(|r| r.seat)),
            requests,
            problems,
            log,
            log_cut,
        })
    }

    /// The `game_state` of line `line` (1-based) of a game's `requests.jsonl`, byte for byte,
    /// with the line's round and player: a test fixture for the SDK's testing kit.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown run, game or line.
    pub fn request_state(
        &self,
        id: &str,
        game: u32,
        line: usize,
    ) -> Result<RequestLine, StoreError> {
        let (_, dir) = self.game_folder(id, game)?;
        let bytes = self.read(&GameOutputs::requests_path(&dir), MAX_LOG_BYTES)?;
        view::request_line(&bytes, line)
    }
}
