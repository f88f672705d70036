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
use serde::{Deserialize, Serialize};
use shared::records::{EntryKind, ViewerLogEntry};
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
    out.write_all(&outcome_json(value)?)?;
    drop(out);
    // Not synced: the database (synced) has the game; a copy a power cut damages is read as
    // missing by the viewer, and a sync here would hold up the round's end.
    std::fs::rename(&tmp, target.join(file))
}

/// An outcome file's bytes: pretty JSON and a final newline.
///
/// # Errors
/// The value cannot be serialised (ours always can).
pub fn outcome_json<T: Serialize>(value: &T) -> io::Result<Vec<u8>> {
    let mut json = serde_json::to_vec_pretty(value)?;
    json.push(b'\n');
    Ok(json)
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
        return Some(finished_hands(&bytes));
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

/// What the count needs of an entry's table: its hand.
#[derive(Deserialize)]
struct EntryRound {
    #[serde(default)]
    round: Option<u64>,
}

/// The hands of a viewer log (complete entries up to where it was cut: a crash leaves the
/// array open, and maybe half an entry) that reached their winner announcement.
fn finished_hands(bytes: &[u8]) -> u64 {
    let mut rounds = std::collections::BTreeSet::new();
    let skip = |pos: &mut usize, what: &[u8]| {
        while bytes
            .get(*pos)
            .is_some_and(|b| b.is_ascii_whitespace() || what.contains(b))
        {
            *pos += 1;
        }
    };
    let mut pos = 0;
    skip(&mut pos, b"[");
    while pos < bytes.len() {
        let mut entries = serde_json::Deserializer::from_slice(&bytes[pos..])
            .into_iter::<ViewerLogEntry<EntryRound>>();
        let Some(Ok(entry)) = entries.next() else {
            break;
        };
        pos += entries.byte_offset();
        if entry.kind == Some(EntryKind::WinnerAnnouncement) {
            if let Some(round) = entry.game_state.round {
                rounds.insert(round);
            }
        }
        // The separator, or the `]` our writer closes the array with after every hand.
        skip(&mut pos, b",]");
    }
    rounds.len() as u64
}

#[cfg(test)]
mod tests {
    use super::finished_hands;

    const HAND: &str = r#"{"game_state":{"round":R}},{"type":"bet","on_turn":0,"message":"a bets","game_state":{"round":R}},{"type":"winner_announcement","message":"a won","game_state":{"round":R}},{"type":"winner_announcement","message":"b won a side pot","game_state":{"round":R}}"#;

    fn hand(round: u64) -> String {
        HAND.replace('R', &round.to_string())
    }

    #[test]
    fn a_cut_log_counts_the_hands_that_reached_their_winner() {
        let closed = format!("[{},{}]", hand(0), hand(1));
        assert_eq!(finished_hands(closed.as_bytes()), 2);
        // Cut inside the third hand's opening entry, and inside its first winner entry.
        let third = hand(2);
        let open = format!("[{},{},{}", hand(0), hand(1), &third[..10]);
        assert_eq!(finished_hands(open.as_bytes()), 2);
        let at = third.find("winner").unwrap() + 3;
        let cut = format!("[{},{},{}", hand(0), hand(1), &third[..at]);
        assert_eq!(finished_hands(cut.as_bytes()), 2);
        // The array closed after a hand, the next entry not yet written over the `]`.
        let between = format!("[{}]", hand(7));
        assert_eq!(finished_hands(between.as_bytes()), 1);
        for nothing in ["", "[", "not json", "[{\"type\":"] {
            assert_eq!(finished_hands(nothing.as_bytes()), 0, "{nothing:?}");
        }
    }
}
