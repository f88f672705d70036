//! The bytes of a [`CompactGame`] (the layout is in the [module docs](super)).

use super::{CompactError, CompactGame, RecordedAnswer, RecordedOutputs, COMPACT_FORMAT};
use crate::observe::GameRecord;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};

/// The most plain bytes a record may decompress to: a game of thousands of hands is a few
/// hundred KB; anything past this is damage, not a game.
const MAX_PLAIN_BYTES: u64 = 64 * 1024 * 1024;

/// Kind 0: a plain number (see [`RecordedAnswer::plain_number`]).
const PLAIN: u8 = 0;
/// Kind 1: details in the JSON array at the end.
const DETAILED: u8 = 1;

#[derive(Serialize)]
struct HeaderOut<'a> {
    game: &'a GameRecord,
    outputs: RecordedOutputs,
    requests: u64,
    absent: &'a [Option<String>],
    versions: &'a [String],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderIn {
    game: GameRecord,
    outputs: RecordedOutputs,
    requests: u64,
    absent: Vec<Option<String>>,
    versions: Vec<String>,
}

fn push_varint(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let low = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

/// Reads the plain bytes front to back.
struct Cursor<'a> {
    bytes: &'a [u8],
}

impl<'a> Cursor<'a> {
    fn damaged(what: &str) -> CompactError {
        CompactError::Damaged(format!("{what} is cut off or malformed"))
    }

    fn varint(&mut self, what: &str) -> Result<u64, CompactError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let (&byte, rest) = self
                .bytes
                .split_first()
                .ok_or_else(|| Self::damaged(what))?;
            self.bytes = rest;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(Self::damaged(what))
    }

    fn take(&mut self, count: u64, what: &str) -> Result<&'a [u8], CompactError> {
        let count = usize::try_from(count).map_err(|_| Self::damaged(what))?;
        if count > self.bytes.len() {
            return Err(Self::damaged(what));
        }
        let (taken, rest) = self.bytes.split_at(count);
        self.bytes = rest;
        Ok(taken)
    }

    fn sized(&mut self, what: &str) -> Result<&'a [u8], CompactError> {
        let length = self.varint(what)?;
        self.take(length, what)
    }
}

impl CompactGame {
    /// The record's bytes, format [`COMPACT_FORMAT`].
    ///
    /// # Errors
    /// The header cannot be serialised (its types always can).
    pub fn encode(&self) -> Result<Vec<u8>, CompactError> {
        let header = serde_json::to_vec(&HeaderOut {
            game: &self.game,
            outputs: self.outputs,
            requests: self.requests,
            absent: &self.absent,
            versions: &self.versions,
        })
        .map_err(|error| CompactError::Damaged(error.to_string()))?;
        let mut plain = Vec::with_capacity(header.len() + 4 * self.answers.len() + 16);
        push_varint(&mut plain, header.len() as u64);
        plain.extend_from_slice(&header);
        push_varint(&mut plain, self.answers.len() as u64);
        let numbers: Vec<Option<u64>> = self
            .answers
            .iter()
            .map(RecordedAnswer::plain_number)
            .collect();
        plain.extend(
            numbers
                .iter()
                .map(|number| if number.is_some() { PLAIN } else { DETAILED }),
        );
        for number in numbers.iter().flatten() {
            push_varint(&mut plain, *number);
        }
        for answer in &self.answers {
            push_varint(&mut plain, answer.latency_us);
        }
        let details: Vec<&RecordedAnswer> = self
            .answers
            .iter()
            .zip(&numbers)
            .filter(|(_, number)| number.is_none())
            .map(|(answer, _)| answer)
            .collect();
        let details = serde_json::to_vec(&details)
            .map_err(|error| CompactError::Damaged(error.to_string()))?;
        push_varint(&mut plain, details.len() as u64);
        plain.extend_from_slice(&details);
        let mut encoder = DeflateEncoder::new(Vec::new(), Compression::best());
        encoder
            .write_all(&plain)
            .and_then(|()| encoder.finish())
            .map_err(|error| CompactError::Damaged(error.to_string()))
    }

    /// Reads a record of format `format`.
    ///
    /// # Errors
    /// An unknown format, or damaged bytes.
    pub fn decode(format: i64, bytes: &[u8]) -> Result<CompactGame, CompactError> {
        if format != COMPACT_FORMAT {
            return Err(CompactError::Format(format));
        }
        let mut plain = Vec::new();
        DeflateDecoder::new(bytes)
            .take(MAX_PLAIN_BYTES + 1)
            .read_to_end(&mut plain)
            .map_err(|error| CompactError::Damaged(error.to_string()))?;
        if plain.len() as u64 > MAX_PLAIN_BYTES {
            return Err(CompactError::Damaged(format!(
                "more than {MAX_PLAIN_BYTES} bytes once decompressed"
            )));
        }
        let mut cursor = Cursor { bytes: &plain };
        let header: HeaderIn = serde_json::from_slice(cursor.sized("the header")?)
            .map_err(|error| CompactError::Damaged(format!("the header: {error}")))?;
        let count = cursor.varint("the number of answers")?;
        let kinds = cursor.take(count, "the answers' kinds")?;
        let mut numbers = Vec::with_capacity(kinds.len());
        for &kind in kinds {
            numbers.push(match kind {
                PLAIN => Some(cursor.varint("an answer's number")?),
                DETAILED => None,
                other => {
                    return Err(CompactError::Damaged(format!("answer kind {other}")));
                }
            });
        }
        let mut latencies = Vec::with_capacity(kinds.len());
        for _ in 0..kinds.len() {
            latencies.push(cursor.varint("an answer's latency")?);
        }
        let details: Vec<RecordedAnswer> =
            serde_json::from_slice(cursor.sized("the answers' details")?)
                .map_err(|error| CompactError::Damaged(format!("the answers' details: {error}")))?;
        if !cursor.bytes.is_empty() {
            return Err(CompactError::Damaged(format!(
                "{} bytes after the end",
                cursor.bytes.len()
            )));
        }
        let mut details = details.into_iter();
        let mut answers = Vec::with_capacity(kinds.len());
        for (number, latency_us) in numbers.into_iter().zip(latencies) {
            let answer = match number {
                Some(number) => RecordedAnswer {
                    text: Some(number.to_string()),
                    error: None,
                    applied: true,
                    latency_us,
                    unsent_attempts: Vec::new(),
                },
                None => {
                    let mut answer = details.next().ok_or_else(|| {
                        CompactError::Damaged("fewer answer details than answers".into())
                    })?;
                    answer.latency_us = latency_us;
                    answer
                }
            };
            answers.push(answer);
        }
        if details.next().is_some() {
            return Err(CompactError::Damaged(
                "more answer details than answers".into(),
            ));
        }
        Ok(CompactGame {
            game: header.game,
            outputs: header.outputs,
            requests: header.requests,
            absent: header.absent,
            versions: header.versions,
            answers,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::game_record::TableRecord;
    use shared::{Chips, Seat};

    fn game() -> CompactGame {
        CompactGame {
            game: GameRecord {
                tournament_id: "t".into(),
                game_id: "g".into(),
                seed: u64::MAX,
                players: vec!["ann".into(), "bob".into()],
                config: crate::rules::GameRules::default(),
                table: TableRecord {
                    round: 0,
                    button: Seat(1),
                    stacks: vec![Chips(1000), Chips(1000)],
                },
                versions: vec!["a 1".into(), "b 1".into()],
                version_changes: Vec::new(),
            },
            outputs: crate::observe::OutputSelection::DEFAULT.into(),
            requests: 412,
            absent: vec![None, Some("connection refused".into())],
            versions: vec!["a 1".into(), "Unknown".into()],
            answers: vec![
                RecordedAnswer {
                    text: Some("240".into()),
                    error: None,
                    applied: true,
                    latency_us: 1_234_567,
                    unsent_attempts: Vec::new(),
                },
                RecordedAnswer {
                    text: Some("0240".into()),
                    error: None,
                    applied: true,
                    latency_us: 3,
                    unsent_attempts: vec!["closed".into()],
                },
                RecordedAnswer {
                    text: None,
                    error: Some("timeout after 2000 ms".into()),
                    applied: true,
                    latency_us: 2_000_000,
                    unsent_attempts: Vec::new(),
                },
                RecordedAnswer {
                    text: Some("7".into()),
                    error: None,
                    applied: false,
                    latency_us: 0,
                    unsent_attempts: Vec::new(),
                },
            ],
        }
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let game = game();
        let bytes = game.encode().unwrap();
        assert_eq!(CompactGame::decode(COMPACT_FORMAT, &bytes).unwrap(), game);
    }

    #[test]
    fn damaged_bytes_and_other_formats_are_refused_with_a_reason() {
        let bytes = game().encode().unwrap();
        assert!(matches!(
            CompactGame::decode(2, &bytes),
            Err(CompactError::Format(2))
        ));
        for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
            assert!(
                CompactGame::decode(COMPACT_FORMAT, &bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        let mut plain = Vec::new();
        push_varint(&mut plain, 2);
        plain.extend_from_slice(b"{}");
        let mut encoder = DeflateEncoder::new(Vec::new(), Compression::best());
        encoder.write_all(&plain).unwrap();
        let error = CompactGame::decode(COMPACT_FORMAT, &encoder.finish().unwrap()).unwrap_err();
        assert!(error.to_string().contains("header"), "{error}");
    }
}
