//! Every finished game's files, from its compact record (`observe::compact`, in the event's
//! database): the record is the record; a game folder is a cache of what the record gives.
//!
//! - [`regenerate_game`] writes a game's files (`log.json`, `requests.jsonl`, `decks.jsonl`,
//!   `game.json`, the hand histories, as the event wrote them, and `result.json` from the
//!   replayed result) into a folder, comparing them with what the game's own folder still
//!   holds: the viewer opens a game whose folder was deleted this way, `dealer replay` checks
//!   a game with it, and retention deletes a game's files only after it found them identical.
//! - [`rewrite_incomplete`] puts back, in place, the files of a game a full disk cut (what
//!   survived must be the start of what the record gives; the players' logs, which no record
//!   regenerates, are kept as they survived).
//! - [`adopt_files`] makes the record of a game an older dealer recorded without one, from
//!   its files, if its replay reproduces them.

use super::outcome_files::{outcome_json, RESULT_FILE};
use super::store::{EventStore, StoreError, StoredRecord, GAMES_DIR};
use crate::observe::compact::{CompactGame, RecordedAnswer, RecordedOutputs, COMPACT_FORMAT};
use crate::observe::{read_game_record, GameOutputs, OutputSelection};
use crate::replay::{replay_compact, Comparison, ReplayError, ReplayReport};
use crate::tournament::{game_dir_name, GameEntry};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a game's files cannot be regenerated.
#[derive(Debug, Error)]
pub enum ArchiveError {
    /// The database, or a game without a record.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A file or folder.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ArchiveError + '_ {
    move |source| ArchiveError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Game `number`'s compact record, read and decoded; `None` when it has none.
///
/// # Errors
/// The database cannot be read, or the record is damaged.
pub fn compact_game(store: &EventStore, number: u32) -> Result<Option<CompactGame>, StoreError> {
    let Some(stored) = store.game_record(number)? else {
        return Ok(None);
    };
    CompactGame::decode(stored.format, &stored.bytes)
        .map(Some)
        .map_err(|error| StoreError::Record {
            game: number,
            reason: error.to_string(),
        })
}

/// A game regenerated from its record.
#[derive(Debug)]
pub struct Regenerated {
    /// The replay, and its comparison with the files the game's folder held.
    pub report: ReplayReport,
    /// The `result.json` written, when the game reached its end.
    pub entry: Option<GameEntry>,
}

/// Writes game `number`'s files, regenerated from `compact`, into `into` (an empty folder,
/// created): the replay's files and `result.json`. `kept`, the game's folder, is compared with
/// them (as [`Comparison`] says), its plain bytes put in `scratch` on the way.
///
/// # Errors
/// The replay fails, or a file cannot be written.
pub fn regenerate_game(
    number: u32,
    compact: &CompactGame,
    kept: Option<&Path>,
    scratch: &Path,
    into: &Path,
    comparison: Comparison,
) -> Result<Regenerated, ArchiveError> {
    let report = replay_compact(compact, kept, scratch, into, comparison)?;
    let entry = report.result.clone().map(|result| {
        GameEntry::of_result(
            number,
            game_dir_name(number),
            result,
            compact.absent.clone(),
            compact.versions.clone(),
            compact.requests,
        )
    });
    if let Some(entry) = &entry {
        let path = into.join(RESULT_FILE);
        let json = outcome_json(entry).map_err(io_error(&path))?;
        std::fs::write(&path, json).map_err(io_error(&path))?;
    }
    Ok(Regenerated { report, entry })
}

/// Replays `compact` (game `number`'s record) in a temporary folder and compares what it
/// writes with every file `dir` holds, byte for byte: retention deletes a folder only when
/// this finds no difference.
///
/// # Errors
/// The replay fails, or a file cannot be read or written.
pub fn check_against_files(
    number: u32,
    compact: &CompactGame,
    dir: &Path,
) -> Result<ReplayReport, ArchiveError> {
    let scratch = tempfile::tempdir().map_err(io_error(Path::new("a temporary folder")))?;
    let done = regenerate_game(
        number,
        compact,
        Some(dir),
        &scratch.path().join("kept"),
        &scratch.path().join("replayed"),
        Comparison::Exact,
    )?;
    Ok(done.report)
}

/// What [`rewrite_incomplete`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rewritten {
    /// The folder holds the game's files again, whole.
    Whole,
    /// What survived is not the start of what the record gives (the difference): the folder
    /// is left as it is.
    Disagrees(String),
}

/// Writes the files of game `number`, which a full disk cut, again in place from its record:
/// into `games/.game-<n>.rewrite`, then swapped with the folder (the players' logs, which no
/// record regenerates, moved over as they survived). A crash midway leaves the folder or
/// its replacement, and the next start does it again.
///
/// # Errors
/// No record, or a file cannot be written.
pub fn rewrite_incomplete(
    data: &Path,
    store: &EventStore,
    number: u32,
) -> Result<Rewritten, ArchiveError> {
    let compact = compact_game(store, number)?.ok_or(StoreError::Record {
        game: number,
        reason: "it has no record to rewrite its files from".into(),
    })?;
    let games = data.join(GAMES_DIR);
    let dir = games.join(game_dir_name(number));
    let work = games.join(format!(".{}.rewrite", game_dir_name(number)));
    remove_dir_if_there(&work)?;
    let files = work.join("files");
    let regenerated = regenerate_game(
        number,
        &compact,
        dir.is_dir().then_some(dir.as_path()),
        &work.join("survived"),
        &files,
        Comparison::Survived,
    )?;
    if let Some(difference) = regenerated.report.difference {
        remove_dir_if_there(&work)?;
        return Ok(Rewritten::Disagrees(difference.to_string()));
    }
    let players = GameOutputs::players_dir(&dir);
    if players.is_dir() {
        let to = GameOutputs::players_dir(&files);
        std::fs::rename(&players, &to).map_err(io_error(&to))?;
    }
    let old = games.join(format!(".{}.old", game_dir_name(number)));
    remove_dir_if_there(&old)?;
    if dir.exists() {
        std::fs::rename(&dir, &old).map_err(io_error(&old))?;
    }
    std::fs::rename(&files, &dir).map_err(io_error(&dir))?;
    remove_dir_if_there(&old)?;
    remove_dir_if_there(&work)?;
    Ok(Rewritten::Whole)
}

/// Removes what a crash left of [`rewrite_incomplete`]'s work in the games folder.
///
/// # Errors
/// A leftover cannot be removed.
pub fn remove_leftovers(data: &Path) -> Result<(), ArchiveError> {
    let games = data.join(GAMES_DIR);
    let Ok(entries) = std::fs::read_dir(&games) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(".game-") && (name.ends_with(".rewrite") || name.ends_with(".old")) {
            remove_dir_if_there(&entry.path())?;
        }
    }
    Ok(())
}

fn remove_dir_if_there(dir: &Path) -> Result<(), ArchiveError> {
    match std::fs::remove_dir_all(dir) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(io_error(dir)(error)),
        _ => Ok(()),
    }
}

/// Makes the compact record of a game recorded without one (by a dealer from before records)
/// from its folder's `game.json`, `requests.jsonl` and `result.json` (each plain or
/// compressed), and keeps it in the database if its replay reproduces every file the folder
/// holds. `Ok(false)` when the folder cannot give one (its files are then kept).
///
/// # Errors
/// The database cannot be written.
pub fn adopt_files(store: &EventStore, number: u32, dir: &Path) -> Result<bool, ArchiveError> {
    let Some(compact) = compact_from_files(dir) else {
        return Ok(false);
    };
    let checked = check_against_files(number, &compact, dir);
    let faithful = matches!(&checked, Ok(report) if report.difference.is_none() && !report.compared.is_empty());
    if !faithful {
        return Ok(false);
    }
    let bytes = compact.encode().map_err(|error| StoreError::Record {
        game: number,
        reason: error.to_string(),
    })?;
    store.add_game_record(
        number,
        &StoredRecord {
            format: COMPACT_FORMAT,
            bytes,
        },
    )?;
    Ok(true)
}

/// The compact record a game folder's files give, if they can.
fn compact_from_files(dir: &Path) -> Option<CompactGame> {
    let scratch = tempfile::tempdir().ok()?;
    let plain = |name: &str| -> Option<PathBuf> {
        let to = scratch.path().join(name);
        crate::stored::copy_plain(&dir.join(name), &to).ok()?;
        Some(to)
    };
    let game = read_game_record(&plain("game.json")?).ok()?;
    let entry: GameEntry =
        serde_json::from_slice(&std::fs::read(dir.join(RESULT_FILE)).ok()?).ok()?;
    let requests = std::fs::read_to_string(plain("requests.jsonl")?).ok()?;
    let mut answers = Vec::new();
    for line in requests.lines().filter(|line| !line.trim().is_empty()) {
        let request: shared::records::RequestRecord<serde::de::IgnoredAny> =
            serde_json::from_str(line).ok()?;
        answers.push(RecordedAnswer {
            text: request.answer,
            error: request.error,
            applied: request.action.is_some(),
            latency_us: request.latency_us,
            unsent_attempts: request.unsent_attempts,
        });
    }
    let exists = |path: PathBuf| crate::stored::find(&path).is_some();
    let outputs = RecordedOutputs::from(OutputSelection {
        viewer_log: exists(GameOutputs::viewer_log_path(dir)),
        requests: true,
        hands: GameOutputs::hands_dir(dir).is_dir(),
        hands_file: exists(GameOutputs::hands_file_path(dir)),
        player_logs: false,
        decks: true,
    });
    let absent = game
        .players
        .iter()
        .map(|name| {
            entry
                .absent
                .iter()
                .find(|absent| &absent.name == name)
                .map(|absent| absent.reason.clone())
        })
        .collect();
    Some(CompactGame {
        game,
        outputs,
        requests: entry.requests,
        absent,
        versions: entry.versions,
        answers,
    })
}

/// Whether the database's row and standings of game `number` say what `result` says (its
/// hands, and each seat's place and points): `None` when they do, else the first difference.
///
/// # Errors
/// The database cannot be read.
pub fn database_disagrees(
    store: &EventStore,
    number: u32,
    result: &crate::result::GameResult,
) -> Result<Option<String>, StoreError> {
    let (hands, seats) = store.read(|c| {
        let hands: Option<i64> = c.query_row(
            "SELECT hands FROM games WHERE number = ?1",
            [number],
            |row| row.get(0),
        )?;
        let mut statement = c.prepare_cached(
            "SELECT seat, place, points FROM standings WHERE game = ?1 ORDER BY seat",
        )?;
        let seats = statement
            .query_map([number], |row| {
                Ok((
                    row.get::<_, i64>(0)?,
                    row.get::<_, i64>(1)?,
                    row.get::<_, i64>(2)?,
                ))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok((hands, seats))
    })?;
    if hands != i64::try_from(result.hands_played).ok() {
        return Ok(Some(format!(
            "the database says {hands:?} hands, the replay {}",
            result.hands_played
        )));
    }
    for (seat, place, points) in seats {
        let index = usize::try_from(seat).unwrap_or(usize::MAX);
        let replayed = (
            result.places.get(index).map(|&p| p as i64),
            result.points.get(index).map(|&p| i64::from(p)),
        );
        if replayed != (Some(place), Some(points)) {
            return Ok(Some(format!(
                "seat {seat}: the database says place {place} and {points} points, the replay {replayed:?}"
            )));
        }
    }
    Ok(None)
}
