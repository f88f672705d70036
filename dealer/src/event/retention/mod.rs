//! What an all-day event keeps of its old games' files, within its disk budget and the
//! free-space margin. Every finished game's compact record is in the database
//! (`observe::compact`, written with its result): a game folder is a cache of what the record
//! gives, kept as space allows, the games used most recently (ended or opened in the viewer)
//! longest.
//!
//! Steps (the newest `compress_after` ended games are left whole while there is room):
//!
//! 1. **repaired**: the files of a game a full disk cut (`incomplete`) are written again from
//!    its record when the free space is above the margin, dropped when it is not
//!    ([`super::cut_files`]).
//! 2. **compressed**: the logs of games older than the newest `compress_after` ended games are
//!    gzip-compressed in place (`log.json` → `log.json.gz`, the same for `requests.jsonl`,
//!    `hands.phhs` and `players/*.log`). The one-file-per-hand `hands/*.phh` stay as they are
//!    (each is smaller than one 4 KiB disk block, so compressing it saves no disk space).
//! 3. **the disk budget wins**, while the event's folder (database, reserve and ended games'
//!    folders) takes more than the budget less the room held back for a round's games in play
//!    ([`thinning_target`]): the newest ended games still whole are compressed (nothing is lost), then
//!    the folders of the least recently used games are deleted, down to the games in play,
//!    each only after its record, replayed, reproduced every file it holds byte for byte (the
//!    viewer and `dealer replay` regenerate them from the record). What the players' logs
//!    alone said (the `check`/`version`/`showdown` exchanges, wall-clock times) goes with
//!    them. The same deletions (not below the newest `compress_after`) keep a tenth more free
//!    space than the margin, and past `keep_games` the folders go too.
//! 4. A game without a record (recorded by an older dealer) gets one made from its files when
//!    their replay reproduces them; otherwise it is thinned to its **compact** files as before
//!    (`game.json`, `decks.jsonl.gz`, `requests.jsonl.gz`, `hands.phhs.gz`, `result.json`;
//!    its `log.json.gz` and `hands/` deleted only after [`crate::replay::regenerate`]
//!    reproduced them), and those are pruned last, after every cache.
//!
//! Outside the passes, **the record first**: when a finished game's record cannot be written
//! even with the event's reserve, the folders records regenerate are deleted one at a time
//! until it can, whatever the budget and the margin say (`for_records`, called by the
//! scheduler as the game ends, and at the stop).
//!
//! A game's rows, standings, points and record stay in the database in every state; the
//! viewer reads compressed logs as if they were not (`web::store`) and regenerates the others.
//! Each game folder's disk blocks are measured (`disk_bytes` in the database) when it ends
//! and after each step, so checking the budget is one sum, not a walk over thousands of
//! folders. When the budget cannot be met with every cache gone, the log says so once.
//!
//! Crash safety (`kill -9` at any moment loses nothing of an ended game): a file is written to
//! `X.gz.tmp`, synced, renamed to `X.gz`, the folder synced (once for all its files), and only
//! then is `X` removed. So at every moment `X` or a complete `X.gz` exists. Leftovers are repaired before anything
//! else, at every start: a `X.gz.tmp` is removed, and when both `X` and `X.gz` exist, `X` is
//! kept and `X.gz` removed (compressed again later). The database learns a game is compressed
//! or compact only once every file is (a compaction cut off is done again: each of its
//! deletions is of a file already compressed or reproduced); a game is recorded pruned
//! *before* its folder is deleted, and a folder of a pruned game found at start-up is
//! deleted again.
//!
//! The work runs on the blocking pool ([`run_retention`]), woken as each game ends and after
//! every round, never in a game's task; a stop is noticed between two files, so a pass never holds up the exit.

mod budget;
mod caches;
mod for_records;
mod memory;

pub use budget::{
    budget_status, minimum_budget, thinning_target, BudgetState, DiskBudgetStatus, MinimumBudget,
    GAME_BYTES_PER_SEAT,
};

pub use memory::{limit_malloc_arenas, return_freed_memory, MALLOC_ARENAS, TRIM_EVERY};

pub(crate) use for_records::CacheForRecords;

use super::store::{GameFiles, RetentionCandidate, StoreError, DATABASE_FILE, GAMES_DIR};
use super::Event;
use crate::observe::GameOutputs;
use crate::runner::StopSignal;
use crate::stored::with_suffix;
pub use crate::stored::{compressed_path, GZ_SUFFIX};
use flate2::write::GzEncoder;
use flate2::Compression;
use std::fs::File;
use std::io::{self, BufReader, BufWriter};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use thiserror::Error;

/// Ended games whose logs stay uncompressed by default: enough for everything the page links
/// to from its first screen, so recent games are read without decompressing.
pub const DEFAULT_COMPRESS_AFTER: u32 = 20;

/// The default disk budget of an event's folder: an 8-hour day of 12 teams at the default
/// settings keeps every game's record and thousands of recent games' full files (the
/// arithmetic is in the dealer's README, "Disk budget").
pub const DEFAULT_DISK_BUDGET: u64 = 2_000_000_000;

/// The suffix of a compressed file being written.
const TMP_SUFFIX: &str = ".gz.tmp";

/// What the event keeps of old games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Compress the logs of ended games older than the newest N (`None`: never).
    pub compress_after: Option<u32>,
    /// Delete the folders of ended games older than the newest N (`None`: never).
    pub keep_games: Option<u32>,
    /// The most disk space (bytes of disk blocks) the event's folder takes, the games in play
    /// included: it wins over `compress_after` (see the [module docs](self); `None`: no
    /// limit).
    pub disk_budget: Option<u64>,
    /// No new game below this much free space on the event's disk, and old games' full files
    /// deleted to keep a tenth more than it (`None`: no margin). See [`super::space`].
    pub min_free_space: Option<u64>,
}

impl Default for Retention {
    fn default() -> Self {
        Retention {
            compress_after: Some(DEFAULT_COMPRESS_AFTER),
            keep_games: None,
            disk_budget: Some(DEFAULT_DISK_BUDGET),
            min_free_space: Some(super::space::DEFAULT_MIN_FREE_SPACE),
        }
    }
}

/// Why a retention pass stopped.
#[derive(Debug, Error)]
pub enum RetentionError {
    /// The database.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Regenerating a game's files from its record.
    #[error(transparent)]
    Archive(Box<super::archive::ArchiveError>),
    /// A file or folder of a game.
    #[error("game folder {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
}

impl From<super::cut_files::CutFilesError> for RetentionError {
    fn from(error: super::cut_files::CutFilesError) -> Self {
        match error {
            super::cut_files::CutFilesError::Store(error) => RetentionError::Store(error),
            super::cut_files::CutFilesError::Io { path, source } => {
                RetentionError::Io { path, source }
            }
        }
    }
}

/// What one pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassReport {
    /// Games whose logs were compressed.
    pub compressed: Vec<u32>,
    /// Games made compact (to keep within the disk budget).
    pub compacted: Vec<u32>,
    /// Games whose folders were deleted.
    pub pruned: Vec<u32>,
    /// Games whose files, cut by a full disk, were written again from their records.
    pub rewritten: Vec<u32>,
    /// Files whose half-done compression was repaired.
    pub repaired: usize,
}

/// Whether a file name (without `.gz`) is one of the logs retention compresses.
fn is_log_name(folder: LogFolder, name: &str) -> bool {
    match folder {
        LogFolder::Game => matches!(name, "log.json" | "requests.jsonl" | "hands.phhs"),
        LogFolder::Players => name.ends_with(".log"),
    }
}

/// The replay input a compact game also keeps compressed.
const DECKS_FILE: &str = "decks.jsonl";

#[derive(Debug, Clone, Copy)]
enum LogFolder {
    Game,
    Players,
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> RetentionError + '_ {
    move |source| RetentionError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The uncompressed logs of a game folder, after repairing half-done work in it (returned in
/// the count).
fn logs_to_compress(game_dir: &Path) -> Result<(Vec<PathBuf>, usize), RetentionError> {
    let mut logs = Vec::new();
    let mut repaired = 0;
    let folders = [
        (game_dir.to_path_buf(), LogFolder::Game),
        (GameOutputs::players_dir(game_dir), LogFolder::Players),
    ];
    for (dir, kind) in folders {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
            Err(error) => return Err(io_error(&dir)(error)),
        };
        for entry in entries {
            let entry = entry.map_err(io_error(&dir))?;
            let path = entry.path();
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            let compact_input = matches!(kind, LogFolder::Game);
            let is_stored =
                |raw: &str| is_log_name(kind, raw) || (compact_input && raw == DECKS_FILE);
            if let Some(raw) = name.strip_suffix(TMP_SUFFIX) {
                if is_stored(raw) {
                    // Cut off before its rename: the original is still there.
                    std::fs::remove_file(&path).map_err(io_error(&path))?;
                    repaired += 1;
                }
            } else if let Some(raw) = name.strip_suffix(GZ_SUFFIX) {
                if is_stored(raw) && dir.join(raw).exists() {
                    // Cut off between the rename and the removal: keep the original, redo.
                    std::fs::remove_file(&path).map_err(io_error(&path))?;
                    repaired += 1;
                }
            } else if is_log_name(kind, &name) && entry.file_type().is_ok_and(|t| t.is_file()) {
                logs.push(path);
            }
        }
    }
    logs.sort();
    Ok((logs, repaired))
}

/// Writes `X.gz` beside `X` (through a synced `X.gz.tmp`); `X` stays. A `X.gz.tmp` that
/// cannot be finished (a full disk) is removed at once: it would hold the space a record
/// needs until the next start repairs the folder.
fn write_compressed(path: &Path) -> Result<(), RetentionError> {
    let tmp = with_suffix(path, TMP_SUFFIX);
    let written = write_compressed_via(path, &tmp);
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

fn write_compressed_via(path: &Path, tmp: &Path) -> Result<(), RetentionError> {
    let done = compressed_path(path);
    let source = File::open(path).map_err(io_error(path))?;
    let out = File::create(tmp).map_err(io_error(tmp))?;
    let mut encoder = GzEncoder::new(BufWriter::new(out), Compression::default());
    io::copy(&mut BufReader::new(source), &mut encoder).map_err(io_error(path))?;
    let out = encoder
        .finish()
        .and_then(|writer| writer.into_inner().map_err(io::IntoInnerError::into_error))
        .map_err(io_error(tmp))?;
    out.sync_all().map_err(io_error(tmp))?;
    drop(out);
    std::fs::rename(tmp, &done).map_err(io_error(&done))
}

/// Compresses every log of a game folder in place (repairing half-done work first): every
/// `X.gz` is written, then each folder synced once, then the originals removed. Returns the
/// files repaired, or `None` when `stop` came first (the game is left as it was, or with
/// both `X` and `X.gz`, which the next start repairs).
///
/// # Errors
/// A file cannot be read, written, renamed or removed.
pub fn compress_game(game_dir: &Path, stop: &StopSignal) -> Result<Option<usize>, RetentionError> {
    let (logs, repaired) = logs_to_compress(game_dir)?;
    for log in &logs {
        if stop.is_stopped() {
            return Ok(None);
        }
        write_compressed(log)?;
    }
    let mut folders: Vec<&Path> = logs.iter().filter_map(|log| log.parent()).collect();
    folders.dedup();
    for folder in folders {
        // The renames must be on disk before the originals go.
        File::open(folder)
            .and_then(|dir| dir.sync_all())
            .map_err(io_error(folder))?;
    }
    for log in &logs {
        std::fs::remove_file(log).map_err(io_error(log))?;
    }
    Ok(Some(repaired))
}

/// The disk space a file or folder takes: its blocks (what `du` counts, not the lengths),
/// folders and everything under them included; 0 when it does not exist.
///
/// # Errors
/// A folder cannot be listed.
pub fn disk_usage(path: &Path) -> Result<u64, RetentionError> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(error) => return Err(io_error(path)(error)),
    };
    let mut total = meta.blocks() * 512;
    if meta.is_dir() {
        for entry in std::fs::read_dir(path).map_err(io_error(path))? {
            let entry = entry.map_err(io_error(path))?;
            total += disk_usage(&entry.path())?;
        }
    }
    Ok(total)
}

/// The database's disk space (its file, write-ahead log and shared-memory index) and the
/// reserve's ([`super::space`]). The log counts as its limit at least: it grows between two
/// passes, and the budget must hold then too.
fn database_usage(data: &Path) -> Result<u64, RetentionError> {
    let db = data.join(DATABASE_FILE);
    let mut total = disk_usage(&data.join(super::space::RESERVE_FILE))?;
    for suffix in ["", "-shm"] {
        total += disk_usage(&with_suffix(&db, suffix))?;
    }
    let log = disk_usage(&with_suffix(&db, "-wal"))?;
    Ok(total + log.max(super::store::WAL_LIMIT_BYTES))
}

/// What [`compact_game`] kept of a game's full log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompactLog {
    /// Deleted: its replay reproduced it (and the hand histories) byte for byte.
    Regenerated,
    /// Kept compressed: the game cannot be replayed (the reason), so its log stays.
    Kept(String),
}

fn remove_file_if_there(path: &Path) -> Result<(), RetentionError> {
    match std::fs::remove_file(path) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(io_error(path)(error)),
        _ => Ok(()),
    }
}

/// Thins a game folder to its compact form (see the [module docs](self)): logs compressed,
/// `decks.jsonl` compressed, then, once a replay reproduced them, `log.json.gz` and `hands/`
/// deleted, and the players' text logs deleted. `None` when `stop` came first. Doing it again
/// on a folder a crash cut mid-way finishes it.
///
/// # Errors
/// A file cannot be read, written or removed.
pub fn compact_game(
    game_dir: &Path,
    stop: &StopSignal,
) -> Result<Option<CompactLog>, RetentionError> {
    if compress_game(game_dir, stop)?.is_none() {
        return Ok(None);
    }
    let decks = game_dir.join(DECKS_FILE);
    if decks.is_file() {
        write_compressed(&decks)?;
        File::open(game_dir)
            .and_then(|dir| dir.sync_all())
            .map_err(io_error(game_dir))?;
        std::fs::remove_file(&decks).map_err(io_error(&decks))?;
    }
    if stop.is_stopped() {
        return Ok(None);
    }
    let scratch = tempfile::tempdir().map_err(io_error(Path::new("a temporary folder")))?;
    let log = match crate::replay::regenerate(game_dir, scratch.path()) {
        Ok((_, report)) => match report.difference {
            None => CompactLog::Regenerated,
            Some(difference) => CompactLog::Kept(format!("its replay differs: {difference}")),
        },
        Err(error) => CompactLog::Kept(error.to_string()),
    };
    if log == CompactLog::Regenerated {
        let viewer_log = GameOutputs::viewer_log_path(game_dir);
        remove_file_if_there(&compressed_path(&viewer_log))?;
        remove_file_if_there(&viewer_log)?;
        remove_folder(&GameOutputs::hands_dir(game_dir))?;
    }
    remove_folder(&GameOutputs::players_dir(game_dir))?;
    Ok(Some(log))
}

pub(super) fn remove_folder(dir: &Path) -> Result<(), RetentionError> {
    match std::fs::remove_dir_all(dir) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(io_error(dir)(error)),
        _ => Ok(()),
    }
}

/// One pass: at start-up (`startup`) the repairs (pruned games' folders deleted again,
/// half-done compressions and rewrites undone), then the games opened in the viewer noted,
/// the cut games' files written again (when there is room), pruning past `keep_games`,
/// compression, the new games measured, and the disk budget and free-space margin (the least
/// recently used games' full files deleted), until `stop`. Blocking: run it on the blocking
/// pool.
///
/// # Errors
/// The database, or a game's files (the pass stops at the first; the next pass retries).
pub fn run_pass(
    event: &Event,
    startup: bool,
    stop: &StopSignal,
) -> Result<PassReport, RetentionError> {
    let store = event.store();
    let data = &event.settings().data;
    let games = data.join(GAMES_DIR);
    let retention = event.settings().retention;
    let mut report = PassReport::default();
    let folder = |game: &RetentionCandidate| games.join(&game.dir);
    if startup {
        for game in store.pruned_games()? {
            remove_folder(&folder(&game))?;
        }
        super::archive::remove_leftovers(data).map_err(caches::archive_error)?;
        for game in store.ended_games_beyond(0, &[GameFiles::Kept, GameFiles::Compressed])? {
            if stop.is_stopped() {
                return Ok(report);
            }
            let (_, repaired) = logs_to_compress(&folder(&game))?;
            report.repaired += repaired;
            caches::note_if_cut(event, &game)?;
        }
    }
    for number in event.take_cut_files() {
        if let Err(error) = store.set_game_files(number, GameFiles::Incomplete, None) {
            event.files_cut(number);
            return Err(error.into());
        }
    }
    for (number, at) in event.take_opened() {
        if let Err(error) = store.game_opened(number, at) {
            tracing::debug!(game = number, %error, "cannot note that the game was opened");
        }
    }
    // First: on a full disk nothing else can be written until old files make room.
    caches::keep_within_limits(event, stop, &mut report)?;
    for (number, repair) in super::cut_files::repair_cut_games(event, stop)? {
        match repair {
            super::cut_files::Repair::Rewritten => report.rewritten.push(number),
            super::cut_files::Repair::Dropped | super::cut_files::Repair::Gone => {
                report.pruned.push(number)
            }
            super::cut_files::Repair::Kept(_) => {}
        }
    }
    // Measured before anything is compressed: a game's folder as written is what the next
    // round's games may take (the in-play allowance, [`budget`]).
    for game in store.unmeasured_games()? {
        if stop.is_stopped() {
            return Ok(report);
        }
        if !caches::note_if_cut(event, &game)? {
            let bytes = disk_usage(&folder(&game))?;
            store.set_game_disk_bytes(game.number, bytes)?;
            if game.files == GameFiles::Kept {
                event.budget.note_game_size(store, bytes)?;
            }
        }
    }
    if let Some(keep) = retention.keep_games {
        let kinds = [GameFiles::Kept, GameFiles::Compressed, GameFiles::Compact];
        for game in store.ended_games_beyond(keep, &kinds)? {
            if stop.is_stopped() {
                return Ok(report);
            }
            if event.is_playing(game.number) {
                continue;
            }
            if !game.has_record {
                // Made now if its files give one, so the game can still be opened.
                super::archive::adopt_files(store, game.number, &folder(&game))
                    .map_err(caches::archive_error)?;
            }
            prune(event, &game)?;
            report.pruned.push(game.number);
        }
    }
    if let Some(after) = retention.compress_after {
        for game in store.ended_games_beyond(after, &[GameFiles::Kept])? {
            if event.is_playing(game.number) {
                // Recorded, its logs still being closed (`compress_after = 0`).
                continue;
            }
            let Some(repaired) = compress_game(&folder(&game), stop)? else {
                return Ok(report);
            };
            report.repaired += repaired;
            let bytes = disk_usage(&folder(&game))?;
            store.set_game_files(game.number, GameFiles::Compressed, Some(bytes))?;
            report.compressed.push(game.number);
        }
    }
    caches::keep_within_limits(event, stop, &mut report)?;
    event.budget.measured(event_disk_usage(event)?);
    Ok(report)
}

/// Deletes a game's folder, recorded first: a crash mid-delete leaves a game the page already
/// calls pruned, whose folder the next start deletes.
pub(super) fn prune(event: &Event, game: &RetentionCandidate) -> Result<(), RetentionError> {
    event
        .store()
        .set_game_files(game.number, GameFiles::Pruned, None)?;
    remove_folder(&event.settings().data.join(GAMES_DIR).join(&game.dir))
}

/// The event folder's disk space as the database has it measured: every game folder
/// (measured when it ended and after each change), the database and the reserve. Games being
/// played are not in it: the budget holds back room for them ([`thinning_target`]).
///
/// # Errors
/// The database cannot be read, or its files measured.
pub fn event_disk_usage(event: &Event) -> Result<u64, RetentionError> {
    Ok(event.store().games_disk_bytes()? + database_usage(&event.settings().data)?)
}

/// The least part of the budget (1/20) held back for the games being played and the games
/// ended since the last pass: thinning stops at 95 % of the budget at most
/// ([`thinning_target`]).
pub const BUDGET_HEADROOM: u64 = 20;

/// Runs a pass at once (with the start-up repairs), then one as each game ends and after
/// every round (the scheduler wakes it) until `stop`. Each pass is on the blocking pool; a
/// failed pass is logged (once while it fails the same way) and retried after the next round.
/// Freed memory is handed back to the OS after a
/// pass at most every [`TRIM_EVERY`].
///
/// The task counts as running from this call on (not from its first poll), so a scheduler
/// started after it waits for its first pass before the first round.
pub fn run_retention(event: Arc<Event>, stop: StopSignal) -> impl std::future::Future<Output = ()> {
    /// Clears `retention_running` however the task ends (or is dropped unpolled), so the
    /// scheduler never waits for a pass that will not come.
    struct Running(Arc<Event>);
    impl Drop for Running {
        fn drop(&mut self) {
            self.0.retention_running.store(false, Ordering::Release);
            self.0.retention_passed.notify_waiters();
        }
    }
    event.retention_running.store(true, Ordering::Release);
    let running = Running(Arc::clone(&event));
    async move {
        let _running = running;
        retention_passes(event, stop).await;
    }
}

async fn retention_passes(event: Arc<Event>, stop: StopSignal) {
    let mut startup = true;
    let mut trimmed = std::time::Instant::now();
    let mut last_failure: Option<String> = None;
    while !stop.is_stopped() {
        if trimmed.elapsed() >= TRIM_EVERY {
            trimmed = std::time::Instant::now();
            let _ = tokio::task::spawn_blocking(return_freed_memory).await;
        }
        let number = event.retention_started.fetch_add(1, Ordering::AcqRel) + 1;
        let (pass_event, pass_stop) = (Arc::clone(&event), stop.clone());
        let pass =
            tokio::task::spawn_blocking(move || run_pass(&pass_event, startup, &pass_stop)).await;
        let thinned = matches!(&pass, Ok(Ok(report)) if !report.compressed.is_empty() || !report.compacted.is_empty() || !report.pruned.is_empty());
        event.retention_thinned.store(thinned, Ordering::Release);
        event.retention_done.store(number, Ordering::Release);
        event.retention_passed.notify_waiters();
        match pass {
            Ok(Ok(report)) => {
                startup = false;
                last_failure = None;
                if report != PassReport::default() {
                    tracing::info!(
                        compressed = ?report.compressed,
                        compacted = ?report.compacted,
                        pruned = ?report.pruned,
                        rewritten = ?report.rewritten,
                        repaired = report.repaired,
                        "old games' files"
                    );
                }
            }
            Ok(Err(error)) => {
                // Said once: while the disk stays full, a pass fails the same way after every
                // round (or every recheck while play is paused).
                let text = error.to_string();
                if last_failure.as_deref() != Some(text.as_str()) {
                    tracing::warn!(%error, "old games' files: retried after the next round");
                    last_failure = Some(text);
                } else {
                    tracing::debug!(%error, "old games' files: the pass failed again");
                }
            }
            Err(error) => tracing::warn!(%error, "old games' files: the pass failed"),
        }
        tokio::select! {
            _ = event.games_ended.notified() => {}
            _ = stop.stopped() => {}
        }
    }
}
