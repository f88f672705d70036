//! `decks.jsonl`: the cards of every hand of a game, one JSON object per line, so that a hand
//! can be dealt again card for card (`dealer run --decks FILE`, `dealer replay`).
//!
//! ```text
//! {"hand":0,"deck":["6h","3c","Ac","Qh","Jd","Td","7s","Kd","Js","8c","5c"]}
//! ```
//!
//! | key | value |
//! |---|---|
//! | `hand` | the hand number (`round`) |
//! | `deck` | the hand's cards in the engine's layout ([`crate::engine::deck`]): seat 0's two hole cards, seat 1's, ... (every seat, out ones included), then the five board cards; in short notation (`Th`, `As`: rank `2`-`9`, `T`, `J`, `Q`, `K`, `A`, then suit `h`, `d`, `s`, `c`) |
//!
//! The same record type ([`DeckRecord`]) writes and reads the file. Reading accepts `10h` as
//! well as `Th` and a card as the wire object (`{"rank":"10","suit":"hearts"}`), and a deck of
//! more cards than a hand uses (only the first `2 × seats + 5` are dealt), so decks written by
//! another tool can be dealt too. A line is written when its hand starts; the file is flushed at
//! every hand end.

use super::Observer;
use crate::engine::{DeckError, Game, RecordedDecks};
use crate::game_event::GameEvent;
use serde::{Deserialize, Serialize};
use shared::Card;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// One line of `decks.jsonl`: a hand's cards. See the [module docs](self).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckRecord {
    /// The hand number (`round`).
    pub hand: u64,
    /// The hand's cards, in the engine's deck layout.
    #[serde(with = "short_cards")]
    pub deck: Vec<Card>,
}

/// Cards as short-notation strings; reads strings or wire objects.
mod short_cards {
    use serde::{Deserialize, Deserializer, Serializer};
    use shared::Card;

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum CardText {
        Short(String),
        Wire(Card),
    }

    pub(super) fn serialize<S: Serializer>(
        cards: &[Card],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(cards.iter().map(ToString::to_string))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<Card>, D::Error> {
        Vec::<CardText>::deserialize(deserializer)?
            .into_iter()
            .map(|card| match card {
                CardText::Short(text) => text.parse().map_err(serde::de::Error::custom),
                CardText::Wire(card) => Ok(card),
            })
            .collect()
    }
}

/// Writes `decks.jsonl`. See the [module docs](self).
#[derive(Debug)]
pub struct DecksLog<W: Write> {
    out: W,
    record: DeckRecord,
}

impl DecksLog<BufWriter<File>> {
    /// Creates (or truncates) the file at `path`.
    ///
    /// # Errors
    /// The file cannot be created.
    pub fn create(path: &Path) -> io::Result<Self> {
        Ok(DecksLog::new(BufWriter::new(File::create(path)?)))
    }
}

impl<W: Write> DecksLog<W> {
    /// A log written to `out`.
    pub fn new(out: W) -> Self {
        DecksLog {
            out,
            record: DeckRecord {
                hand: 0,
                deck: Vec::with_capacity(crate::engine::deck::cards_per_hand(
                    crate::engine::MAX_SEATS,
                )),
            },
        }
    }

    /// The output, e.g. to read a log written to memory.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write + Send> Observer for DecksLog<W> {
    fn on_event(&mut self, event: &GameEvent, game: &Game) -> io::Result<()> {
        match event {
            GameEvent::HandStarted { round, .. } => {
                self.record.hand = *round;
                self.record.deck.clear();
                self.record.deck.extend_from_slice(game.hand_deck());
                serde_json::to_writer(&mut self.out, &self.record)?;
                self.out.write_all(b"\n")
            }
            GameEvent::HandEnded { .. } | GameEvent::GameEnded { .. } => self.out.flush(),
            _ => Ok(()),
        }
    }

    fn finish(&mut self, _game: &Game) -> io::Result<()> {
        self.out.flush()
    }
}

/// Why a decks file cannot be dealt from.
#[derive(Debug, Error)]
pub enum DecksFileError {
    /// The file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A line that is not a deck record.
    #[error("{}, line {line}: {message}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based.
        line: usize,
        /// What is wrong, on one line.
        message: String,
    },
    /// Records that cannot be dealt (no hand, a gap, a card twice).
    #[error("{}: {source}", path.display())]
    Decks {
        /// The file.
        path: PathBuf,
        /// Why.
        source: DeckError,
    },
}

/// Reads a `decks.jsonl` file (blank lines are skipped) into checked decks.
///
/// # Errors
/// A [`DecksFileError`] naming the file and, for a bad record, the line.
pub fn read_decks(path: &Path) -> Result<RecordedDecks, DecksFileError> {
    let read_error = |source| DecksFileError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(read_error)?;
    let mut decks = Vec::new();
    for (index, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(read_error)?;
        if line.trim().is_empty() {
            continue;
        }
        let record: DeckRecord =
            serde_json::from_str(&line).map_err(|error| DecksFileError::Line {
                path: path.to_path_buf(),
                line: index + 1,
                message: error.to_string(),
            })?;
        decks.push((record.hand, record.deck));
    }
    RecordedDecks::new(decks).map_err(|source| DecksFileError::Decks {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_one_line_of_short_cards_and_reads_back() {
        let record = DeckRecord {
            hand: 3,
            deck: shared::card::parse_cards("Th 2c As").unwrap(),
        };
        let line = serde_json::to_string(&record).unwrap();
        assert_eq!(line, r#"{"hand":3,"deck":["Th","2c","As"]}"#);
        assert_eq!(serde_json::from_str::<DeckRecord>(&line).unwrap(), record);
        let wire = r#"{"hand":3,"deck":["10h",{"rank":"2","suit":"clubs"},"as"]}"#;
        assert_eq!(serde_json::from_str::<DeckRecord>(wire).unwrap(), record);
        for bad in [
            r#"{"hand":3,"deck":["1h"]}"#,
            r#"{"hand":-1,"deck":[]}"#,
            r#"{"hand":3}"#,
            r#"{"hand":3,"deck":["Th"],"extra":1}"#,
        ] {
            assert!(serde_json::from_str::<DeckRecord>(bad).is_err(), "{bad}");
        }
    }
}
