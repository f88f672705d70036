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

use crate::observe::GameOutputs;
use crate::tournament::{GameEntry, InterruptedGame};
use crate::web::log::parse_log;
use serde::Serialize;
use shared::records::EntryKind;
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

/// The hands a game cut off by a crash played to their end, read from what its folder holds:
/// its viewer log (`log.json`, flushed as the game goes, so it has every hand up to the cut)
/// counts the hands that reached their winner announcement; without one, the hand histories
/// (`hands/*.phh` or `hands.phhs`, each hand written when it ends). `None` when the folder has
/// neither, or they cannot be read (the game then keeps an unknown count, as before).
pub fn hands_of_cut_off_game(game_dir: &Path) -> Option<u64> {
    if let Ok(bytes) = std::fs::read(GameOutputs::viewer_log_path(game_dir)) {
        if let Ok(log) = parse_log(&bytes) {
            return Some(finished_hands(&log));
        }
    }
    if let Ok(entries) = std::fs::read_dir(GameOutputs::hands_dir(game_dir)) {
        let phh = entries
            .flatten()
            .filter(|entry| entry.file_name().to_string_lossy().ends_with(".phh"))
            .count();
        return Some(phh as u64);
    }
    let text = std::fs::read_to_string(GameOutputs::hands_file_path(game_dir)).ok()?;
    // The multi-hand form opens each hand with a `[<round>]` table header line.
    let headers = text.lines().filter(|line| {
        line.strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
            .is_some_and(|round| !round.is_empty() && round.bytes().all(|b| b.is_ascii_digit()))
    });
    Some(headers.count() as u64)
}

/// Hands of a (possibly cut) viewer log that were played to the end: those with a winner
/// announcement among their entries.
fn finished_hands(log: &crate::web::log::GameLog) -> u64 {
    let mut finished = 0;
    for (index, hand) in log.hands.iter().enumerate() {
        let end = log
            .hands
            .get(index + 1)
            .map_or(log.entries.len(), |next| next.entry);
        let entries = log.entries.get(hand.entry..end).unwrap_or_default();
        if entries
            .iter()
            .any(|entry| entry.kind == Some(EntryKind::WinnerAnnouncement))
        {
            finished += 1;
        }
    }
    finished
}
