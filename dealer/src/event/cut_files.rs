//! The files of a finished game that a full disk cut: a broken cache of the game's record,
//! never shown as the game. A game's files are cut when the database says so
//! (`files = 'incomplete'`, [`GameFiles::Incomplete`]), or when the game is finished and its
//! folder has no `result.json` (the last file a game writes: a `kill -9` on a full disk can
//! leave a game recorded before its state could be).
//!
//! The viewer, the event API and `dealer replay` use the game's record for such a game (its
//! files regenerated on demand, as for a pruned game), and the cut files are repaired as soon
//! as they are found: by retention's first pass at start, and by the pass the viewer wakes
//! when such a game is opened ([`repair_cut_games`]):
//!
//! - **rewritten** in place from the record ([`archive::rewrite_incomplete`]) when the disk
//!   has room (the free-space margin, `min_free_space`, or without one four reserves; and
//!   the event's reserve, [`super::space`], held or room to make it again);
//! - **dropped** otherwise: the folder deleted, the game recorded `pruned`, and so opened from
//!   its record like any pruned game. A disk below the margin gets space back rather than
//!   give more to a cache; the players' logs (cut too, and kept by no record) go with it. A
//!   rewrite that does not fit (the disk filled again) is dropped the same way.
//!
//! The folder is deleted before the database is told, so that a full disk can record it: a
//! pass that finds an incomplete game without a folder records it pruned.

use super::archive::{self, ArchiveError, Rewritten};
use super::space::{free_bytes, RESERVE_BYTES};
use super::store::{GameFiles, RetentionCandidate, StoreError, GAMES_DIR};
use super::Event;
use crate::runner::StopSignal;
use std::path::{Path, PathBuf};
use std::sync::PoisonError;
use thiserror::Error;

/// Why cut files could not be repaired (the next pass tries again).
#[derive(Debug, Error)]
pub enum CutFilesError {
    /// The database.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A folder that cannot be deleted.
    #[error("game folder {path}: {source}")]
    Io {
        /// The folder.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

/// What became of a game's cut files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Repair {
    /// Written again from the game's record, whole.
    Rewritten,
    /// Deleted: the game is opened from its record, as a pruned game.
    Dropped,
    /// Already gone (deleted by hand, or by a pass that could not record it): recorded so.
    Gone,
    /// Kept as they are, with why: what survived is not what the record gives, or the game
    /// has no record (its files are all there is of it).
    Kept(String),
}

/// Whether game `number`'s files are a cut cache (see the [module docs](self)), so that the
/// viewer opens the game from its record. A finished game found cut but not recorded so is
/// handed to retention, which records it.
///
/// # Errors
/// The database cannot be read.
pub fn is_cut(event: &Event, number: u32) -> Result<bool, StoreError> {
    let Some(game) = event.store().finished_game_files(number)? else {
        return Ok(false);
    };
    if !game.finished || !game.has_record {
        // Without a record, the files are all there is of the game.
        return Ok(false);
    }
    if game.files == GameFiles::Incomplete {
        return Ok(true);
    }
    let dir = event
        .settings()
        .data
        .join(GAMES_DIR)
        .join(crate::tournament::game_dir_name(number));
    let cut = matches!(game.files, GameFiles::Kept | GameFiles::Compressed)
        && dir.is_dir()
        && !dir.join(super::outcome_files::RESULT_FILE).is_file()
        && !event.is_playing(number)
        && !event
            .unfaithful
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(&number);
    if cut && !event.is_read_only() {
        let mut noted = event
            .cut_files
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if !noted.contains(&number) {
            noted.push(number);
        }
    }
    Ok(cut)
}

/// Wakes retention to repair game `number`'s cut files (the viewer found them), unless served
/// read-only.
pub fn repair_soon(event: &Event, number: u32) {
    if !event.is_read_only() {
        tracing::debug!(
            game = number,
            "the game's files were cut by a full disk: repaired"
        );
        event.games_ended.notify_one();
    }
}

/// Whether the disk has room to write a game's files again: what play needs (the margin, or
/// without one a few reserves' worth), and the reserve held or room to make it again. A
/// reserve a full disk gave to the records is not spent on a cache.
fn room_to_write(event: &Event) -> bool {
    let free = free_bytes(&event.settings().data).unwrap_or(0);
    let wanted = event
        .settings()
        .retention
        .min_free_space
        .unwrap_or(RESERVE_BYTES.saturating_mul(4));
    let reserve = if event.reserve().is_held() {
        0
    } else {
        RESERVE_BYTES
    };
    free >= wanted.saturating_add(reserve)
}

/// Repairs the cut files of every game recorded incomplete (see the [module docs](self)), but
/// those this server is still finishing; returns what became of each.
///
/// # Errors
/// The database, or a folder that cannot be deleted (the next pass tries again).
pub fn repair_cut_games(
    event: &Event,
    stop: &StopSignal,
) -> Result<Vec<(u32, Repair)>, CutFilesError> {
    let mut done = Vec::new();
    for game in event.store().incomplete_games()? {
        if stop.is_stopped() {
            break;
        }
        if event.is_playing(game.number) {
            // Its last files are still being closed: the next pass.
            continue;
        }
        let repair = repair(event, &game)?;
        match &repair {
            Repair::Rewritten => tracing::info!(
                game = game.number,
                "the game's files, cut by a full disk, are written again from its record"
            ),
            Repair::Dropped => tracing::info!(
                game = game.number,
                "the game's files, cut by a full disk, are deleted (no room on the disk to write them again): the game is opened from its record, as a pruned game (its players' logs, which no record keeps, are gone)"
            ),
            Repair::Gone => tracing::info!(
                game = game.number,
                "the game's folder is gone: the game is opened from its record, as a pruned game"
            ),
            Repair::Kept(why) => tracing::warn!(
                game = game.number,
                %why,
                "the game's files, cut by a full disk, are kept as they are"
            ),
        }
        done.push((game.number, repair));
    }
    Ok(done)
}

fn repair(event: &Event, game: &RetentionCandidate) -> Result<Repair, CutFilesError> {
    let store = event.store();
    let data = &event.settings().data;
    let dir = data.join(GAMES_DIR).join(&game.dir);
    // A folder kept is measured by the same pass, after this (`disk_bytes` unset).
    if !game.has_record {
        store.set_game_files(game.number, GameFiles::Kept, None)?;
        return Ok(Repair::Kept(
            "the game has no record to write them from".into(),
        ));
    }
    if !dir.exists() {
        // Deleted by a pass that could not record it (the disk was full), or by hand.
        store.set_game_files(game.number, GameFiles::Pruned, None)?;
        return Ok(Repair::Gone);
    }
    if room_to_write(event) {
        match archive::rewrite_incomplete(data, store, game.number) {
            Ok(Rewritten::Whole) => {
                store.set_game_files(game.number, GameFiles::Kept, None)?;
                return Ok(Repair::Rewritten);
            }
            Ok(Rewritten::Disagrees(difference)) => {
                event
                    .unfaithful
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(game.number);
                store.set_game_files(game.number, GameFiles::Kept, None)?;
                return Ok(Repair::Kept(format!(
                    "what survived is not what the game's record gives: {difference}"
                )));
            }
            Err(ArchiveError::Store(StoreError::Record { reason, .. })) => {
                store.set_game_files(game.number, GameFiles::Kept, None)?;
                return Ok(Repair::Kept(reason));
            }
            Err(ArchiveError::Store(error)) => return Err(error.into()),
            Err(error) => {
                // Most often the disk filled again while writing: dropped instead.
                tracing::debug!(game = game.number, %error, "the game's files cannot be written again");
            }
        }
    }
    drop_files(data, &game.dir)?;
    store.set_game_files(game.number, GameFiles::Pruned, None)?;
    Ok(Repair::Dropped)
}

/// Deletes a game's folder and what a rewrite of it left.
fn drop_files(data: &Path, dir: &str) -> Result<(), CutFilesError> {
    let games = data.join(GAMES_DIR);
    for leftover in [
        games.join(dir),
        games.join(format!(".{dir}.rewrite")),
        games.join(format!(".{dir}.old")),
    ] {
        match std::fs::remove_dir_all(&leftover) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                return Err(CutFilesError::Io {
                    path: leftover,
                    source: error,
                })
            }
            _ => {}
        }
    }
    Ok(())
}
