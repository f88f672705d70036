//! An event game's compact record: the smallest form that replays the game byte for byte,
//! kept in the event's database for every game of the day (`event::store`, table
//! `game_records`), while the files of `observe`'s other outputs are a cache.
//!
//! What it holds ([`CompactGame`]):
//!
//! - the setup, as `game.json` has it ([`GameRecord`]: rules, seating, seed, ids, starting
//!   table, the versions shown and when they changed); the cards follow from the seed
//!   (an event deals every hand from it), so no deck is kept;
//! - every `bet_request`'s answer, in the order asked: the body as `requests.jsonl` records it
//!   (an in-process player's number in digits), the failure reason of an invalid one, whether
//!   the engine applied it, the latency (it is the players' `time_used` in every document) and
//!   the attempts handed back unsent. Who was asked in which hand is not kept: the engine asks
//!   the same seats again in the same order;
//! - what `result.json` says beyond the engine's result: the requests sent in all, each seat's
//!   reason for sitting out and its version at the end;
//! - which files the game wrote (`outputs`), so regenerating writes the same kinds.
//!
//! From it, [`crate::replay::replay_compact`] writes `log.json`, `requests.jsonl`,
//! `decks.jsonl`, `game.json` and the hand histories again, byte for byte, and the event
//! writes `result.json` from the replayed result. **Not** kept, so never regenerated: the
//! players' text logs (`players/*.log`), which also show the `check`, `version` and
//! `showdown` exchanges and the wall-clock time of every request; they live only as long as
//! the game's full files.
//!
//! The bytes ([`CompactGame::encode`], format [`COMPACT_FORMAT`]): raw DEFLATE of
//!
//! ```text
//! varint n, n bytes    the header: JSON {"game", "outputs", "requests", "absent", "versions"}
//! varint a             the number of answers
//! a bytes              each answer's kind: 0 = a number in canonical digits, applied, no
//!                      error and no unsent attempt (almost every answer); 1 = anything else
//! varint per kind 0    its number
//! varint per answer    its latency in microseconds
//! varint n, n bytes    JSON array: the kind-1 answers' details, in order
//! ```
//!
//! Columns rather than rows: numbers, latencies and kinds each compress better among their
//! own kind. About 1 KB a game of 75 hands (measured: `dealer/benches/event_volume.py`).

mod codec;
mod recorder;

pub use recorder::CompactRecorder;

use super::game_record::GameRecord;
use super::OutputSelection;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The format [`CompactGame::encode`] writes (the database keeps it beside the bytes).
pub const COMPACT_FORMAT: i64 = 1;

/// One `bet_request`'s answer, as `requests.jsonl` records it less what the replay computes
/// again (the document, the hand, the seat, the engine's reading and the chips).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedAnswer {
    /// The body as text (`requests.jsonl`'s `answer`); an in-process player's number in
    /// digits; `None` when no body was read.
    #[serde(default)]
    pub text: Option<String>,
    /// The failure reason of an invalid answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Whether the engine applied it (`false` only for the last answer of a game stopped
    /// before it was read).
    pub applied: bool,
    /// From sending to the end of the reply, in microseconds.
    #[serde(default)]
    pub latency_us: u64,
    /// Attempts the HTTP client handed back unsent, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unsent_attempts: Vec<String>,
}

impl RecordedAnswer {
    /// The number of a plain answer (kind 0 in the encoding): canonical digits, applied, no
    /// error, no unsent attempt.
    fn plain_number(&self) -> Option<u64> {
        if !self.applied || self.error.is_some() || !self.unsent_attempts.is_empty() {
            return None;
        }
        let text = self.text.as_deref()?;
        let number: u64 = text.parse().ok()?;
        (number.to_string() == text).then_some(number)
    }
}

/// Which files the game wrote, as the compact record keeps it (the players' logs are never
/// regenerated, so they are not among them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedOutputs {
    /// `log.json`.
    pub log: bool,
    /// `requests.jsonl`.
    pub requests: bool,
    /// `hands/<round>.phh`.
    pub hands: bool,
    /// `hands.phhs`.
    pub hands_file: bool,
    /// `decks.jsonl` and `game.json`.
    pub decks: bool,
}

impl From<OutputSelection> for RecordedOutputs {
    fn from(selection: OutputSelection) -> RecordedOutputs {
        RecordedOutputs {
            log: selection.viewer_log,
            requests: selection.requests,
            hands: selection.hands,
            hands_file: selection.hands_file,
            decks: selection.decks,
        }
    }
}

impl RecordedOutputs {
    /// The files a regeneration writes: these, without the players' logs.
    pub fn selection(self) -> OutputSelection {
        OutputSelection {
            viewer_log: self.log,
            requests: self.requests,
            hands: self.hands,
            hands_file: self.hands_file,
            player_logs: false,
            decks: self.decks,
        }
    }
}

/// A game's compact record. See the [module docs](self).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactGame {
    /// The setup (`game.json`).
    pub game: GameRecord,
    /// The files the game wrote.
    pub outputs: RecordedOutputs,
    /// Requests sent to players in the game, every kind (`result.json`'s `requests`).
    pub requests: u64,
    /// Per seat: why it sat the game out, if it did.
    pub absent: Vec<Option<String>>,
    /// Per seat: the version shown at the end.
    pub versions: Vec<String>,
    /// Every `bet_request`'s answer, in the order asked.
    pub answers: Vec<RecordedAnswer>,
}

/// Why stored bytes are not a compact record.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CompactError {
    /// A format this dealer does not read.
    #[error("compact record format {0} is not one this dealer reads (1): use a newer dealer")]
    Format(i64),
    /// Damaged or cut bytes.
    #[error("damaged compact record: {0}")]
    Damaged(String),
}
