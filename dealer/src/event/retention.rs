//! What an all-day event keeps of its old games' files: the logs of games older than the
//! newest `compress_after` ended games are gzip-compressed in place (`log.json` →
//! `log.json.gz`, the same for `requests.jsonl`, `hands.phhs` and `players/*.log`), and the
//! folders of games older than the newest `keep_games` are deleted (pruned). The one-file-
//! per-hand `hands/*.phh` stay as they are: each is smaller than one 4 KiB disk block, so
//! compressing it saves no disk space (measured in the dealer's README); `--outputs
//! hands-file` writes the hands as one `hands.phhs`, which is compressed. A game's rows, standings and points stay in the database either way; the viewer
//! reads compressed logs as if they were not (`web::store`), and the page says "log pruned".
//!
//! Crash safety (`kill -9` at any moment loses nothing of an ended game): a file is written to
//! `X.gz.tmp`, synced, renamed to `X.gz`, the folder synced (once for all its files), and only
//! then is `X` removed. So at every moment `X` or a complete `X.gz` exists. Leftovers are repaired before anything
//! else, at every start: a `X.gz.tmp` is removed, and when both `X` and `X.gz` exist, `X` is
//! kept and `X.gz` removed (compressed again later). The database learns a game is compressed
//! only once every file is; a game is recorded pruned *before* its folder is deleted, and a
//! folder of a pruned game found at start-up is deleted again.
//!
//! The work runs on the blocking pool ([`run_retention`]), woken after every round, never in
//! a game's task; a stop is noticed between two files, so a pass never holds up the exit.

use super::store::{GameFiles, RetentionCandidate, StoreError, GAMES_DIR};
use super::Event;
use crate::observe::GameOutputs;
use crate::runner::StopSignal;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufReader, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use thiserror::Error;

/// Ended games whose logs stay uncompressed by default: enough for everything the page links
/// to from its first screen, so recent games are read without decompressing.
pub const DEFAULT_COMPRESS_AFTER: u32 = 20;

/// The suffix of a compressed file.
pub const GZ_SUFFIX: &str = ".gz";
/// The suffix of a compressed file being written.
const TMP_SUFFIX: &str = ".gz.tmp";

/// What the event keeps of old games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Compress the logs of ended games older than the newest N (`None`: never).
    pub compress_after: Option<u32>,
    /// Delete the folders of ended games older than the newest N (`None`: never).
    pub keep_games: Option<u32>,
}

impl Default for Retention {
    fn default() -> Self {
        Retention {
            compress_after: Some(DEFAULT_COMPRESS_AFTER),
            keep_games: None,
        }
    }
}

/// Why a retention pass stopped.
#[derive(Debug, Error)]
pub enum RetentionError {
    /// The database.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A file or folder of a game.
    #[error("game folder {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
}

/// What one pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassReport {
    /// Games whose logs were compressed.
    pub compressed: Vec<u32>,
    /// Games whose folders were deleted.
    pub pruned: Vec<u32>,
    /// Files whose half-done compression was repaired.
    pub repaired: usize,
}

/// `X` → `X.gz`.
pub fn compressed_path(path: &Path) -> PathBuf {
    with_suffix(path, GZ_SUFFIX)
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name: OsString = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Whether a file name (without `.gz`) is one of the logs retention compresses.
fn is_log_name(folder: LogFolder, name: &str) -> bool {
    match folder {
        LogFolder::Game => matches!(name, "log.json" | "requests.jsonl" | "hands.phhs"),
        LogFolder::Players => name.ends_with(".log"),
    }
}

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
            if let Some(raw) = name.strip_suffix(TMP_SUFFIX) {
                if is_log_name(kind, raw) {
                    // Cut off before its rename: the original is still there.
                    std::fs::remove_file(&path).map_err(io_error(&path))?;
                    repaired += 1;
                }
            } else if let Some(raw) = name.strip_suffix(GZ_SUFFIX) {
                if is_log_name(kind, raw) && dir.join(raw).exists() {
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

/// Writes `X.gz` beside `X` (through a synced `X.gz.tmp`); `X` stays.
fn write_compressed(path: &Path) -> Result<(), RetentionError> {
    let tmp = with_suffix(path, TMP_SUFFIX);
    let done = compressed_path(path);
    let source = File::open(path).map_err(io_error(path))?;
    let out = File::create(&tmp).map_err(io_error(&tmp))?;
    let mut encoder = GzEncoder::new(BufWriter::new(out), Compression::default());
    io::copy(&mut BufReader::new(source), &mut encoder).map_err(io_error(path))?;
    let out = encoder
        .finish()
        .and_then(|writer| writer.into_inner().map_err(io::IntoInnerError::into_error))
        .map_err(io_error(&tmp))?;
    out.sync_all().map_err(io_error(&tmp))?;
    drop(out);
    std::fs::rename(&tmp, &done).map_err(io_error(&done))
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

fn remove_folder(dir: &Path) -> Result<(), RetentionError> {
    match std::fs::remove_dir_all(dir) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(io_error(dir)(error)),
        _ => Ok(()),
    }
}

/// One pass: at start-up (`startup`) the repairs (pruned games' folders deleted again,
/// half-done compressions undone in every uncompressed game), then pruning and compression
/// as the settings say, until `stop`. Blocking: run it on the blocking pool.
///
/// # Errors
/// The database, or a game's files (the pass stops at the first; the next pass retries).
pub fn run_pass(
    event: &Event,
    startup: bool,
    stop: &StopSignal,
) -> Result<PassReport, RetentionError> {
    let store = event.store();
    let games = event.settings().data.join(GAMES_DIR);
    let retention = event.settings().retention;
    let mut report = PassReport::default();
    let folder = |game: &RetentionCandidate| games.join(&game.dir);
    if startup {
        for game in store.pruned_games()? {
            remove_folder(&folder(&game))?;
        }
        for game in store.ended_games_beyond(0, &[GameFiles::Kept])? {
            if stop.is_stopped() {
                return Ok(report);
            }
            let (_, repaired) = logs_to_compress(&folder(&game))?;
            report.repaired += repaired;
        }
    }
    if let Some(keep) = retention.keep_games {
        for game in store.ended_games_beyond(keep, &[GameFiles::Kept, GameFiles::Compressed])? {
            if stop.is_stopped() {
                return Ok(report);
            }
            // Recorded first: a crash mid-delete leaves a game the page already calls pruned,
            // whose folder the next start deletes.
            store.set_game_files(game.number, GameFiles::Pruned)?;
            remove_folder(&folder(&game))?;
            report.pruned.push(game.number);
        }
    }
    if let Some(after) = retention.compress_after {
        for game in store.ended_games_beyond(after, &[GameFiles::Kept])? {
            let Some(repaired) = compress_game(&folder(&game), stop)? else {
                break;
            };
            report.repaired += repaired;
            store.set_game_files(game.number, GameFiles::Compressed)?;
            report.compressed.push(game.number);
        }
    }
    Ok(report)
}

/// Runs a pass at once (with the start-up repairs), then one after every round
/// (the scheduler wakes it) until `stop`. Each pass is on the blocking pool; a failed pass is
/// logged and retried after the next round.
pub async fn run_retention(event: Arc<Event>, stop: StopSignal) {
    let mut startup = true;
    while !stop.is_stopped() {
        let (pass_event, pass_stop) = (Arc::clone(&event), stop.clone());
        let pass =
            tokio::task::spawn_blocking(move || run_pass(&pass_event, startup, &pass_stop)).await;
        match pass {
            Ok(Ok(report)) => {
                startup = false;
                if report != PassReport::default() {
                    tracing::info!(
                        compressed = ?report.compressed,
                        pruned = ?report.pruned,
                        repaired = report.repaired,
                        "old games' files"
                    );
                }
            }
            Ok(Err(error)) => {
                tracing::warn!(%error, "old games' files: retried after the next round")
            }
            Err(error) => tracing::warn!(%error, "old games' files: the pass failed"),
        }
        tokio::select! {
            _ = event.games_ended.notified() => {}
            _ = stop.stopped() => {}
        }
    }
}
