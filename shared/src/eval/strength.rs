//! What an evaluation answers: the [`Category`] of a hand and its [`HandStrength`], a total
//! order of hands.

use super::{fast, reference};
use crate::card::Rank;
use std::fmt;

/// The kind of poker hand, weakest first. The discriminant is Rain Man's `rank` number.
/// Serialises in snake case (`"two_pair"`), as the dealer's events do.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Category {
    /// No pair: five unrelated cards.
    HighCard = 0,
    /// Two cards of one rank.
    Pair = 1,
    /// Two cards of one rank and two of another.
    TwoPair = 2,
    /// Three cards of one rank ("trips" or "a set").
    ThreeOfAKind = 3,
    /// Five cards in sequence (ace high or, in the wheel 5-4-3-2-A, low).
    Straight = 4,
    /// Five cards of one suit.
    Flush = 5,
    /// Three of a kind and a pair.
    FullHouse = 6,
    /// Four cards of one rank ("quads").
    FourOfAKind = 7,
    /// A straight in one suit; the ace-high one is the royal flush.
    StraightFlush = 8,
}

impl Category {
    /// Every category, weakest first.
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::Pair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];

    /// The plain English name: "high card", "pair", "two pair", "three of a kind",
    /// "straight", "flush", "full house", "four of a kind", "straight flush".
    pub const fn name(self) -> &'static str {
        match self {
            Category::HighCard => "high card",
            Category::Pair => "pair",
            Category::TwoPair => "two pair",
            Category::ThreeOfAKind => "three of a kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full house",
            Category::FourOfAKind => "four of a kind",
            Category::StraightFlush => "straight flush",
        }
    }

    /// The name the Lean Poker ranking gem (used by Rain Man and the open-source croupier)
    /// gives: as [`Category::name`] except `"two pairs"`.
    pub const fn rain_man_name(self) -> &'static str {
        match self {
            Category::TwoPair => "two pairs",
            other => other.name(),
        }
    }

    /// Rain Man's `rank` number: 0 for high card up to 8 for a straight flush.
    pub const fn rain_man_rank(self) -> u8 {
        self as u8
    }

    /// The category with Rain Man's `rank` number (0..=8).
    pub const fn from_rain_man_rank(rank: u8) -> Option<Category> {
        if rank <= 8 {
            Some(Category::ALL[rank as usize])
        } else {
            None
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How strong a hand is: a total order over all hands of five to seven cards.
///
/// `a > b` exactly when hand `a` beats hand `b`; `a == b` exactly when they tie. Only the best
/// five cards count, so a seven-card hand and the five cards it plays compare equal.
///
/// ```
/// use shared::card::parse_cards;
/// use shared::eval::strength_of;
/// let flush = strength_of(&parse_cards("2h 7h 9h Jh Kh").unwrap()).unwrap();
/// let straight = strength_of(&parse_cards("9c Td Jh Qs Kc").unwrap()).unwrap();
/// assert!(flush > straight);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandStrength(pub(super) u16);

impl HandStrength {
    /// The weakest hand: 7-5-4-3-2 in four suits.
    pub const WEAKEST: HandStrength = HandStrength(1);
    /// The strongest hand: a royal flush.
    pub const STRONGEST: HandStrength = HandStrength(7462);

    pub(super) fn from_classified(classified: &reference::Classified) -> HandStrength {
        // Every classification of five or more cards is one of the 7,462 classes.
        HandStrength(fast::dense(classified.canonical()).unwrap_or(0))
    }

    /// The position of this strength among the 7,462 distinct five-card hands: 1 for the
    /// weakest (7-5-4-3-2), 7,462 for a royal flush. Equal hands have equal indexes.
    pub const fn index(self) -> u16 {
        self.0
    }

    /// The strength with the given [`index`](HandStrength::index) (1..=7462).
    pub const fn from_index(index: u16) -> Option<HandStrength> {
        if index >= 1 && index <= 7462 {
            Some(HandStrength(index))
        } else {
            None
        }
    }

    pub(super) fn canonical(self) -> u32 {
        fast::canonical(self.0)
    }

    /// The category (pair, flush, ...).
    pub fn category(self) -> Category {
        // The category sits above the five 4-bit ranks and is always 0..=8.
        Category::from_rain_man_rank((self.canonical() >> 20) as u8).unwrap_or(Category::HighCard)
    }

    /// The ranks of the five cards that play, in order of significance: the combination
    /// first (higher pair first), then kickers high to low. A wheel is 5-4-3-2-A.
    ///
    /// ```
    /// use shared::card::parse_cards;
    /// use shared::eval::strength_of;
    /// use shared::Rank::*;
    /// let s = strength_of(&parse_cards("4c 4d Qs Qh 9c 8c 2d").unwrap()).unwrap();
    /// assert_eq!(s.ranks(), [Queen, Queen, Four, Four, Nine]);
    /// ```
    pub fn ranks(self) -> [Rank; 5] {
        let mut ranks = [Rank::Two; 5];
        for (position, rank) in ranks.iter_mut().enumerate() {
            let nibble = ((self.canonical() >> (16 - 4 * position)) & 0xF) as u8;
            // Nibble 0 is the wheel's low ace; 1..=13 are deuce..ace.
            *rank = if nibble == 0 {
                Rank::Ace
            } else {
                Rank::from_value(nibble + 1).unwrap_or(Rank::Two)
            };
        }
        ranks
    }

    /// A human description, e.g. "two pair, kings and nines", "a pair of sevens",
    /// "high card ace", "a straight, five high", "a full house, queens full of fours",
    /// "a royal flush". It reads naturally after "making ".
    pub fn description(self) -> String {
        let ranks = self.ranks();
        let [first, second, _, third, _] = ranks;
        // Pieces joined with one allocation: ~300 instructions a call against ~500 through
        // `format!` (callgrind); the dealer describes every revealed hand.
        match self.category() {
            Category::HighCard => ["high card ", first.name()].concat(),
            Category::Pair => ["a pair of ", first.plural()].concat(),
            Category::TwoPair => ["two pair, ", first.plural(), " and ", third.plural()].concat(),
            Category::ThreeOfAKind => ["three of a kind, ", first.plural()].concat(),
            Category::Straight => ["a straight, ", first.name(), " high"].concat(),
            Category::Flush => ["a flush, ", first.name(), " high"].concat(),
            Category::FullHouse => [
                "a full house, ",
                first.plural(),
                " full of ",
                third.plural(),
            ]
            .concat(),
            Category::FourOfAKind => ["four of a kind, ", first.plural()].concat(),
            Category::StraightFlush if first == Rank::Ace && second == Rank::King => {
                "a royal flush".to_string()
            }
            Category::StraightFlush => ["a straight flush, ", first.name(), " high"].concat(),
        }
    }
}

impl fmt::Debug for HandStrength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HandStrength({})", self.description())
    }
}

impl fmt::Display for HandStrength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.description())
    }
}

/// Serialises as its [`index`](HandStrength::index) (`1` to `7462`): a number that keeps the
/// order, where the description would need parsing back.
impl serde::Serialize for HandStrength {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u16(self.0)
    }
}

impl<'de> serde::Deserialize<'de> for HandStrength {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let index = <u16 as serde::Deserialize>::deserialize(deserializer)?;
        HandStrength::from_index(index).ok_or_else(|| {
            serde::de::Error::custom(format_args!(
                "hand strength {index} is not an index of the 7462 hands (1 to 7462)"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::HandStrength;

    #[test]
    fn serialises_as_its_index_and_rejects_other_numbers() {
        let royal = HandStrength::STRONGEST;
        assert_eq!(serde_json::to_string(&royal).unwrap(), "7462");
        assert_eq!(serde_json::from_str::<HandStrength>("7462").unwrap(), royal);
        assert_eq!(
            serde_json::from_str::<HandStrength>("1").unwrap(),
            HandStrength::WEAKEST
        );
        for bad in ["0", "7463", "-1", "\"pair\""] {
            let error = serde_json::from_str::<HandStrength>(bad).unwrap_err();
            assert!(!error.to_string().is_empty(), "{bad}");
        }
        let error = serde_json::from_str::<HandStrength>("7463").unwrap_err();
        assert!(error.to_string().contains("1 to 7462"), "{error}");
    }
}
