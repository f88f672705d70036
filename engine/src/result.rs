//! [`GameResult`]: how a sit'n'go ended — ranking, points, bans, warnings, final stacks.
//! Serialisable as-is into `results.json`.

use crate::game_event::GameEndReason;
use serde::{Deserialize, Serialize};
use shared::{BetAction, Chips, Seat};

/// Points for first place (spec §7).
pub const POINTS_FIRST: u32 = 5;
/// Points for second place (spec §7).
pub const POINTS_SECOND: u32 = 3;

/// The outcome of one sit'n'go. Per-seat vectors are indexed by seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// 24 hex digits.
    pub tournament_id: String,
    /// 24 hex digits.
    pub game_id: String,
    /// The seed the game was played with (a string in JSON, read from either).
    #[serde(with = "seed_text")]
    pub seed: u64,
    /// Player names in seat order.
    pub players: Vec<String>,
    /// Seats, first place first.
    pub ranking: Vec<Seat>,
    /// Each seat's place (1 = winner).
    pub places: Vec<usize>,
    /// Each seat's points: 5 for first, 3 for second, 0 otherwise (spec §7).
    pub points: Vec<u32>,
    /// Hands played (the last `round` + 1).
    pub hands_played: u64,
    /// Why the game ended.
    pub ended_by: GameEndReason,
    /// Every ban, in order.
    pub bans: Vec<BanRecord>,
    /// Every forgiven invalid answer (forgiving mode), in order.
    pub warnings: Vec<WarningRecord>,
    /// Each seat's chips at the end (0 for eliminated players).
    pub final_stacks: Vec<Chips>,
    /// The hand each seat was eliminated in (`None` for survivors).
    pub eliminated_in_round: Vec<Option<u64>>,
    /// Chips that left the game through bans (stack and bet of banned players).
    pub chips_banned: Chips,
    /// Chips that left the game through [`crate::rules::OddChipRule::DiscardLikeOss`].
    pub chips_discarded: Chips,
}

/// A ban (spec §6): who, when, why, and how many chips left the game with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BanRecord {
    /// The banned seat.
    pub seat: Seat,
    /// The player's name.
    pub name: String,
    /// The hand it happened in.
    pub round: u64,
    /// The precise reason reported by the seat (timeout after N ms, status 500, ...).
    pub reason: String,
    /// Stack plus bet removed from the game.
    pub chips_removed: Chips,
}

/// An invalid answer forgiven in forgiving mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarningRecord {
    /// The seat.
    pub seat: Seat,
    /// The player's name.
    pub name: String,
    /// The hand it happened in.
    pub round: u64,
    /// The precise reason reported by the seat.
    pub reason: String,
    /// What the turn counted as: check when nothing was owed, else fold.
    pub counted_as: BetAction,
}

/// Points for a place (1-based): 5, 3, then 0.
pub const fn points_for_place(place: usize) -> u32 {
    match place {
        1 => POINTS_FIRST,
        2 => POINTS_SECOND,
        _ => 0,
    }
}

/// A seed as JSON: written as a decimal string, because JSON tools read numbers as doubles and
/// change seeds above 2^53 (`jq` prints 17871781140237706511 as 17871781140237707000); read
/// from a string or a number, so older files still load.
pub mod seed_text {
    use serde::de::{self, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    /// Writes the seed as a decimal string.
    ///
    /// # Errors
    /// Whatever the serializer reports.
    pub fn serialize<S: Serializer>(seed: &u64, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(seed)
    }

    /// Reads a seed from a decimal string or a non-negative integer.
    ///
    /// # Errors
    /// Anything else, or a number that is not a `u64`.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        deserializer.deserialize_any(SeedVisitor)
    }

    struct SeedVisitor;

    impl Visitor<'_> for SeedVisitor {
        type Value = u64;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a seed: a whole number from 0 to 2^64 - 1, as a string or a number")
        }

        fn visit_u64<E: de::Error>(self, value: u64) -> Result<u64, E> {
            Ok(value)
        }

        fn visit_i64<E: de::Error>(self, value: i64) -> Result<u64, E> {
            u64::try_from(value).map_err(|_| E::invalid_value(de::Unexpected::Signed(value), &self))
        }

        fn visit_str<E: de::Error>(self, text: &str) -> Result<u64, E> {
            if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
                return Err(E::invalid_value(de::Unexpected::Str(text), &self));
            }
            text.parse()
                .map_err(|_| E::invalid_value(de::Unexpected::Str(text), &self))
        }
    }
}
