//! Your answers in a run, kept to replay it: per game, the chips of each of your answers in
//! the order the engine asked, as LEB128 varints (one byte below 128 chips, two below 16,384:
//! a fold or check is one byte, most calls and raises two), saved as one base64 string per
//! game beside the run's results, with how each game ended for you (points, place,
//! luck-adjusted points). With the deal seed and the deterministic house bots the answers
//! replay the game exactly on the engine; no game log is stored. The endings spare a replay
//! its end: a changed game is replayed only up to its changed decision.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use player::Chips;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Appends one answer to a game's packed answers.
pub(crate) fn pack_answer(packed: &mut Vec<u8>, answer: Chips) {
    let mut value = answer.get();
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            packed.push(byte);
            return;
        }
        packed.push(byte | 0x80);
    }
}

/// A game's packed answers are damaged: a varint runs past the end or past 64 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Damaged;

/// Reads a game's packed answers one by one.
#[derive(Debug, Clone)]
pub(crate) struct Unpacked<'a> {
    bytes: &'a [u8],
}

impl<'a> Unpacked<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Unpacked<'a> {
        Unpacked { bytes }
    }

    /// Whether every answer has been read.
    pub(crate) fn is_done(&self) -> bool {
        self.bytes.is_empty()
    }
}

impl Iterator for Unpacked<'_> {
    type Item = Result<Chips, Damaged>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.bytes.is_empty() {
            return None;
        }
        let mut value: u64 = 0;
        for (index, &byte) in self.bytes.iter().enumerate() {
            let shift = 7 * index as u32;
            if shift >= 64 || (shift == 63 && byte & 0x7f > 1) {
                self.bytes = &[];
                return Some(Err(Damaged));
            }
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                self.bytes = &self.bytes[index + 1..];
                return Some(Ok(Chips(value)));
            }
        }
        self.bytes = &[];
        Some(Err(Damaged))
    }
}

/// How a game ended for you.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Ending {
    pub(crate) points: u32,
    pub(crate) place: usize,
    /// Your points minus the luck of the cards, as the run counts them.
    pub(crate) adjusted: f64,
}

impl Ending {
    /// Your luck of the cards in the game: your points less the adjusted points kept.
    pub(crate) fn luck(&self) -> f64 {
        f64::from(self.points) - self.adjusted
    }

    /// The same ending: the adjusted points equal up to a part in 10^9, as a value read back
    /// from JSON may miss its last bit.
    pub(crate) fn same(&self, other: &Ending) -> bool {
        self.points == other.points
            && self.place == other.place
            && (self.adjusted - other.adjusted).abs() <= 1e-9 * self.adjusted.abs().max(1.0)
    }
}

/// Your answers in a run, game by game in the run's order (deal set by deal set, rotation by
/// rotation), and how each game ended for you. In JSON: `{"games": [base64, ...], "endings":
/// [[points, place, adjusted points], ...]}`, one of each a game.
#[derive(Debug, Clone, Default)]
pub struct RecordedAnswers {
    games: Vec<Vec<u8>>,
    endings: Vec<Ending>,
}

/// Equal answers and endings, the adjusted points up to a part in 10^9 (`Ending::same`):
/// a saved run read back is equal to the run saved.
impl PartialEq for RecordedAnswers {
    fn eq(&self, other: &RecordedAnswers) -> bool {
        self.games == other.games
            && self.endings.len() == other.endings.len()
            && self
                .endings
                .iter()
                .zip(&other.endings)
                .all(|(a, b)| a.same(b))
    }
}

impl RecordedAnswers {
    /// Games recorded.
    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// No game recorded (a run saved by an older arena).
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Bytes of the packed answers, all games (before base64, which adds a third).
    pub fn packed_bytes(&self) -> usize {
        self.games.iter().map(Vec::len).sum()
    }

    /// Adds a game played: its packed answers, your points, place and luck.
    pub(crate) fn push_game(&mut self, packed: Vec<u8>, points: u32, place: usize, luck: f64) {
        self.games.push(packed);
        self.endings.push(Ending {
            points,
            place,
            adjusted: f64::from(points) - luck,
        });
    }

    /// How game `index` ended for you (`None` for answers given without endings).
    pub(crate) fn ending(&self, index: usize) -> Option<Ending> {
        self.endings.get(index).copied()
    }

    /// Game `index`'s packed answers.
    pub(crate) fn game(&self, index: usize) -> Option<&[u8]> {
        self.games.get(index).map(Vec::as_slice)
    }

    /// The answers of `games` games, each a list of chips.
    #[cfg(test)]
    pub(crate) fn from_answers<'a>(games: impl IntoIterator<Item = &'a [u64]>) -> RecordedAnswers {
        RecordedAnswers {
            endings: Vec::new(),
            games: games
                .into_iter()
                .map(|answers| {
                    let mut packed = Vec::new();
                    for &answer in answers {
                        pack_answer(&mut packed, Chips(answer));
                    }
                    packed
                })
                .collect(),
        }
    }
}

/// The saved form.
#[derive(Serialize, Deserialize)]
struct Saved {
    games: Vec<String>,
    #[serde(default)]
    endings: Vec<(u32, usize, f64)>,
}

impl Serialize for RecordedAnswers {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Saved {
            games: self.games.iter().map(|game| BASE64.encode(game)).collect(),
            endings: self
                .endings
                .iter()
                .map(|e| (e.points, e.place, e.adjusted))
                .collect(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RecordedAnswers {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RecordedAnswers, D::Error> {
        let saved = Saved::deserialize(deserializer)?;
        if !saved.endings.is_empty() && saved.endings.len() != saved.games.len() {
            return Err(serde::de::Error::custom(format!(
                "answers for {} games but endings for {}",
                saved.games.len(),
                saved.endings.len()
            )));
        }
        let games = saved
            .games
            .iter()
            .enumerate()
            .map(|(index, text)| {
                let packed = BASE64.decode(text).map_err(|error| {
                    serde::de::Error::custom(format!("the answers of game {}: {error}", index + 1))
                })?;
                if Unpacked::new(&packed).any(|answer| answer.is_err()) {
                    return Err(serde::de::Error::custom(format!(
                        "the answers of game {} are damaged",
                        index + 1
                    )));
                }
                Ok(packed)
            })
            .collect::<Result<_, _>>()?;
        Ok(RecordedAnswers {
            games,
            endings: saved
                .endings
                .into_iter()
                .map(|(points, place, adjusted)| Ending {
                    points,
                    place,
                    adjusted,
                })
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_pack_small_and_read_back_through_json() {
        let games: [&[u64]; 3] = [&[0, 20, 127, 128, 16_383, 16_384, u64::MAX], &[], &[5]];
        let mut recorded = RecordedAnswers::from_answers(games);
        let text = serde_json::to_string(&recorded).unwrap();
        assert_eq!(
            serde_json::from_str::<RecordedAnswers>(&text).unwrap(),
            recorded
        );
        recorded.endings = vec![
            Ending {
                points: 5,
                place: 1,
                adjusted: 4.25,
            };
            3
        ];
        assert_eq!(recorded.games(), 3);
        // 1 + 1 + 1 + 2 + 2 + 3 + 10 bytes, nothing, 1 byte.
        assert_eq!(recorded.packed_bytes(), 21);
        let text = serde_json::to_string(&recorded).unwrap();
        let back: RecordedAnswers = serde_json::from_str(&text).unwrap();
        assert_eq!(back, recorded);
        for (index, answers) in games.iter().enumerate() {
            let read: Vec<u64> = Unpacked::new(back.game(index).unwrap())
                .map(|answer| answer.unwrap().get())
                .collect();
            assert_eq!(read, *answers);
        }
    }

    #[test]
    fn damaged_answers_are_refused_not_misread() {
        // A varint cut short, and one longer than 64 bits.
        assert_eq!(Unpacked::new(&[0x80]).next(), Some(Err(Damaged)));
        assert_eq!(Unpacked::new(&[0xff; 11]).next(), Some(Err(Damaged)));
        let read = |text: &str| serde_json::from_str::<RecordedAnswers>(text);
        let error = read(r#"{"games": ["gA=="]}"#).unwrap_err();
        assert!(error.to_string().contains("game 1 are damaged"), "{error}");
        let error = read(r#"{"games": ["AA==", "!"]}"#).unwrap_err();
        assert!(error.to_string().contains("game 2"), "{error}");
        let error = read(r#"{"games": ["AA=="], "endings": [[5, 1, 4.5], [0, 3, 0.2]]}"#);
        assert!(error.unwrap_err().to_string().contains("endings for 2"));
    }
}
