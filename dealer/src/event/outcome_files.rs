//! How an event game ended, written into its own folder so the read-only viewer (`dealer
//! serve --out DATA`, or the runs view of the event's page) can tell it without the database:
//! `result.json` (a finished game: a [`GameEntry`], as one game of `dealer run`'s
//! `results.json`) or `abandoned.json` (an [`InterruptedGame`]: stopped, players down, cut
//! off by a crash). The database stays the truth of the standings; these are copies for the
//! files' readers.
//!
//! Each is written to `games/.game-<n>.<file>.tmp` and renamed into the game folder: readers
//! never see half a file, and the rename changes the games folder's modification time, which
//! is what tells the viewer's cache to look again.

use crate::tournament::{GameEntry, InterruptedGame};
use serde::Serialize;
use std::io::{self, Write};
use std::path::Path;

/// A finished event game's result, in its folder.
pub const RESULT_FILE: &str = "result.json";
/// An abandoned event game's reason, in its folder.
pub const ABANDONED_FILE: &str = "abandoned.json";

fn write_atomic<T: Serialize>(games: &Path, dir: &str, file: &str, value: &T) -> io::Result<()> {
    let target = games.join(dir);
    if !target.is_dir() {
        // A game that could not create its folder has nothing to describe.
        return Ok(());
    }
    let tmp = games.join(format!(".{dir}.{file}.tmp"));
    let mut out = std::fs::File::create(&tmp)?;
    serde_json::to_writer_pretty(&mut out, value)?;
    out.write_all(b"\n")?;
    drop(out);
    // Not synced: the database (synced) has the game; a copy a power cut damages is read as
    // missing by the viewer, and a sync here would hold up the round's end.
    std::fs::rename(&tmp, target.join(file))
}

/// Writes `game-<n>/result.json`.
///
/// # Errors
/// The file cannot be written.
pub fn write_result(games: &Path, entry: &GameEntry) -> io::Result<()> {
    write_atomic(games, &entry.dir, RESULT_FILE, entry)
}

/// Writes `game-<n>/abandoned.json`.
///
/// # Errors
/// The file cannot be written.
pub fn write_abandoned(games: &Path, game: &InterruptedGame) -> io::Result<()> {
    write_atomic(games, &game.dir, ABANDONED_FILE, game)
}
