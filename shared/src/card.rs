//! Playing cards as Lean Poker writes them: `{"rank":"10","suit":"hearts"}`.
//!
//! Also the short notation used by tests and tools (`"Ah"`, `"10d"`, `"Td"`) and conversions
//! to and from `rs_poker`'s card type.

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The rank of a card. On the wire: `"2"`..`"10"`, `"J"`, `"Q"`, `"K"`, `"A"` (never `"T"`).
///
/// The discriminant is the card's numeric value (2..=14), which is also what a Rain-Man-shaped
/// result reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    /// 2
    Two = 2,
    /// 3
    Three = 3,
    /// 4
    Four = 4,
    /// 5
    Five = 5,
    /// 6
    Six = 6,
    /// 7
    Seven = 7,
    /// 8
    Eight = 8,
    /// 9
    Nine = 9,
    /// 10 (written `"10"` on the wire, `T` or `10` in short notation)
    Ten = 10,
    /// Jack
    Jack = 11,
    /// Queen
    Queen = 12,
    /// King
    King = 13,
    /// Ace (always high in this type; the evaluator handles the wheel)
    Ace = 14,
}

impl Rank {
    /// Every rank, lowest first.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The numeric value, 2 for a deuce up to 14 for an ace.
    pub const fn value(self) -> u8 {
        self as u8
    }

    /// The rank with the given numeric value (2..=14).
    pub const fn from_value(value: u8) -> Option<Rank> {
        if value >= 2 && value <= 14 {
            Some(Rank::ALL[(value - 2) as usize])
        } else {
            None
        }
    }

    /// The wire spelling: `"2"`..`"10"`, `"J"`, `"Q"`, `"K"`, `"A"`.
    pub const fn as_wire(self) -> &'static str {
        match self {
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }

    /// Parses the wire spelling only (so `"T"` is rejected, as the live server never sends it).
    pub fn from_wire(text: &str) -> Option<Rank> {
        Some(match text {
            "2" => Rank::Two,
            "3" => Rank::Three,
            "4" => Rank::Four,
            "5" => Rank::Five,
            "6" => Rank::Six,
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "10" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" => Rank::Ace,
            _ => return None,
        })
    }

    /// One character for short notation: `2`..`9`, `T`, `J`, `Q`, `K`, `A`.
    pub const fn short_char(self) -> char {
        match self {
            Rank::Ten => 'T',
            Rank::Jack => 'J',
            Rank::Queen => 'Q',
            Rank::King => 'K',
            Rank::Ace => 'A',
            other => (b'0' + other as u8) as char,
        }
    }

    /// The English name, plural-friendly: "ace", "king", ..., "two".
    pub const fn name(self) -> &'static str {
        match self {
            Rank::Two => "two",
            Rank::Three => "three",
            Rank::Four => "four",
            Rank::Five => "five",
            Rank::Six => "six",
            Rank::Seven => "seven",
            Rank::Eight => "eight",
            Rank::Nine => "nine",
            Rank::Ten => "ten",
            Rank::Jack => "jack",
            Rank::Queen => "queen",
            Rank::King => "king",
            Rank::Ace => "ace",
        }
    }

    /// The plural English name: "aces", "sixes", "twos".
    pub const fn plural(self) -> &'static str {
        match self {
            Rank::Two => "twos",
            Rank::Three => "threes",
            Rank::Four => "fours",
            Rank::Five => "fives",
            Rank::Six => "sixes",
            Rank::Seven => "sevens",
            Rank::Eight => "eights",
            Rank::Nine => "nines",
            Rank::Ten => "tens",
            Rank::Jack => "jacks",
            Rank::Queen => "queens",
            Rank::King => "kings",
            Rank::Ace => "aces",
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_wire())
    }
}

impl Serialize for Rank {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_wire())
    }
}

impl<'de> Deserialize<'de> for Rank {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RankVisitor;
        impl Visitor<'_> for RankVisitor {
            type Value = Rank;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a rank: \"2\"..\"10\", \"J\", \"Q\", \"K\" or \"A\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Rank, E> {
                Rank::from_wire(v).ok_or_else(|| {
                    E::custom(format_args!(
                        "unknown rank {v:?}, expected \"2\"..\"10\", \"J\", \"Q\", \"K\" or \"A\""
                    ))
                })
            }
        }
        deserializer.deserialize_str(RankVisitor)
    }
}

/// The suit of a card. On the wire: `"hearts"`, `"diamonds"`, `"spades"`, `"clubs"`.
///
/// The discriminants follow `rs_poker`'s suit order so that [`Card::index`] matches its `u8`
/// card encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// ♠
    Spades = 0,
    /// ♣
    Clubs = 1,
    /// ♥
    Hearts = 2,
    /// ♦
    Diamonds = 3,
}

impl Suit {
    /// Every suit, in index order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Clubs, Suit::Hearts, Suit::Diamonds];

    /// The wire spelling: `"spades"`, `"clubs"`, `"hearts"`, `"diamonds"`.
    pub const fn as_wire(self) -> &'static str {
        match self {
            Suit::Spades => "spades",
            Suit::Clubs => "clubs",
            Suit::Hearts => "hearts",
            Suit::Diamonds => "diamonds",
        }
    }

    /// Parses the wire spelling.
    pub fn from_wire(text: &str) -> Option<Suit> {
        Some(match text {
            "spades" => Suit::Spades,
            "clubs" => Suit::Clubs,
            "hearts" => Suit::Hearts,
            "diamonds" => Suit::Diamonds,
            _ => return None,
        })
    }

    /// One lower-case letter for short notation: `s`, `c`, `h`, `d`.
    pub const fn short_char(self) -> char {
        match self {
            Suit::Spades => 's',
            Suit::Clubs => 'c',
            Suit::Hearts => 'h',
            Suit::Diamonds => 'd',
        }
    }

    /// The suit symbol: ♠ ♣ ♥ ♦.
    pub const fn symbol(self) -> char {
        match self {
            Suit::Spades => '♠',
            Suit::Clubs => '♣',
            Suit::Hearts => '♥',
            Suit::Diamonds => '♦',
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_wire())
    }
}

impl Serialize for Suit {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_wire())
    }
}

impl<'de> Deserialize<'de> for Suit {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SuitVisitor;
        impl Visitor<'_> for SuitVisitor {
            type Value = Suit;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a suit: \"hearts\", \"diamonds\", \"spades\" or \"clubs\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Suit, E> {
                Suit::from_wire(v).ok_or_else(|| {
                    E::custom(format_args!(
                        "unknown suit {v:?}, expected \"hearts\", \"diamonds\", \"spades\" or \"clubs\""
                    ))
                })
            }
        }
        deserializer.deserialize_str(SuitVisitor)
    }
}

/// One playing card.
///
/// Serialises as the wire object `{"rank":"10","suit":"hearts"}`; [`Display`](fmt::Display)
/// and [`FromStr`] use short notation.
///
/// ```
/// use shared::{Card, Rank, Suit};
/// let card: Card = "10h".parse().unwrap();
/// assert_eq!(card, Card::new(Rank::Ten, Suit::Hearts));
/// assert_eq!(card, "Th".parse().unwrap());
/// assert_eq!(card.to_string(), "Th");
/// assert_eq!(serde_json::to_string(&card).unwrap(), r#"{"rank":"10","suit":"hearts"}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
// A fixed layout, rank byte first: the evaluator reads a card's two bytes as one `u16` table
// index (see `eval/fast.rs`), about 20% faster than combining the fields. Correctness never
// depends on it.
#[repr(C)]
pub struct Card {
    /// 2 to ace.
    pub rank: Rank,
    /// Hearts, diamonds, spades or clubs.
    pub suit: Suit,
}

impl Card {
    /// A card of the given rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// A dense index in `0..52`: `suit * 13 + (rank - 2)`, identical to `rs_poker`'s `u8`
    /// encoding. Handy for bit sets and lookup tables.
    pub const fn index(self) -> u8 {
        self.suit as u8 * 13 + (self.rank as u8 - 2)
    }

    /// The card with the given [`index`](Card::index), or `None` when `index >= 52`.
    pub const fn from_index(index: u8) -> Option<Card> {
        if index >= 52 {
            return None;
        }
        Some(Card {
            rank: Rank::ALL[(index % 13) as usize],
            suit: Suit::ALL[(index / 13) as usize],
        })
    }

    /// All 52 cards in index order.
    pub fn deck() -> impl Iterator<Item = Card> {
        (0..52).filter_map(Card::from_index)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank.short_char(), self.suit.short_char())
    }
}

/// Why a short-notation card could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CardParseError {
    /// The text was empty.
    #[error("empty card text")]
    Empty,
    /// The rank part was not `2`..`9`, `10`, `T`, `J`, `Q`, `K`, `A`.
    #[error("card {text:?}: unknown rank {rank:?} (expected 2-9, 10 or T, J, Q, K, A)")]
    Rank {
        /// The whole card text.
        text: String,
        /// The part read as the rank.
        rank: String,
    },
    /// The suit letter was not one of `s`, `c`, `h`, `d`.
    #[error("card {text:?}: unknown suit {suit:?} (expected s, c, h or d)")]
    Suit {
        /// The whole card text.
        text: String,
        /// The part read as the suit.
        suit: String,
    },
    /// The same card appeared twice where distinct cards were required.
    #[error("card {0} appears more than once")]
    Duplicate(Card),
}

impl FromStr for Card {
    type Err = CardParseError;

    /// Reads `"Ah"`, `"10d"`, `"Td"`, `"qs"`; rank letters and suit letters in either case.
    fn from_str(text: &str) -> Result<Card, CardParseError> {
        let text_trimmed = text.trim();
        let mut chars = text_trimmed.char_indices();
        let Some((_, last)) = chars.next_back() else {
            return Err(CardParseError::Empty);
        };
        let rank_part = &text_trimmed[..text_trimmed.len() - last.len_utf8()];
        let suit = match last.to_ascii_lowercase() {
            's' | '♠' => Suit::Spades,
            'c' | '♣' => Suit::Clubs,
            'h' | '♥' => Suit::Hearts,
            'd' | '♦' => Suit::Diamonds,
            _ => {
                return Err(CardParseError::Suit {
                    text: text.to_string(),
                    suit: last.to_string(),
                })
            }
        };
        let rank = match rank_part.to_ascii_uppercase().as_str() {
            "T" | "10" => Rank::Ten,
            other => Rank::from_wire(other)
                .filter(|rank| *rank != Rank::Ten)
                .ok_or_else(|| CardParseError::Rank {
                    text: text.to_string(),
                    rank: rank_part.to_string(),
                })?,
        };
        Ok(Card::new(rank, suit))
    }
}

/// Parses space- or comma-separated short notation, or a run of cards without separators:
/// `"Ah Kd"`, `"Ah,Kd"`, `"AhKd10c"`. Duplicates are rejected.
///
/// ```
/// use shared::card::parse_cards;
/// let board = parse_cards("Ah Kd 10c").unwrap();
/// assert_eq!(board.len(), 3);
/// assert_eq!(parse_cards("AhKdTc").unwrap(), board);
/// assert!(parse_cards("Ah Ah").is_err());
/// ```
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardParseError> {
    let mut cards = Vec::new();
    for token in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
    {
        // A token may hold several cards run together ("AhKd"): each ends at a suit letter.
        let mut start = 0;
        for (position, ch) in token.char_indices() {
            if matches!(
                ch.to_ascii_lowercase(),
                's' | 'c' | 'h' | 'd' | '♠' | '♣' | '♥' | '♦'
            ) {
                let end = position + ch.len_utf8();
                cards.push(token[start..end].parse::<Card>()?);
                start = end;
            }
        }
        if start < token.len() {
            cards.push(token[start..].parse::<Card>()?);
        }
    }
    for (i, card) in cards.iter().enumerate() {
        if cards[..i].contains(card) {
            return Err(CardParseError::Duplicate(*card));
        }
    }
    Ok(cards)
}

#[cfg(feature = "rs_poker")]
impl From<Card> for rs_poker::core::Card {
    fn from(card: Card) -> Self {
        rs_poker::core::Card::from(card.index())
    }
}

#[cfg(feature = "rs_poker")]
impl From<rs_poker::core::Card> for Card {
    fn from(card: rs_poker::core::Card) -> Self {
        // rs_poker's u8 encoding is always below 52, so the fallback is unreachable.
        Card::from_index(u8::from(card)).unwrap_or(Card::new(Rank::Two, Suit::Spades))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "rs_poker")]
    fn index_round_trips_and_matches_rs_poker() {
        for index in 0..52u8 {
            let card = Card::from_index(index).unwrap();
            assert_eq!(card.index(), index);
            let theirs: rs_poker::core::Card = card.into();
            assert_eq!(u8::from(theirs), index);
            assert_eq!(Card::from(theirs), card);
            assert_eq!(theirs.value as u8 + 2, card.rank.value());
            let their_suit = match theirs.suit {
                rs_poker::core::Suit::Spade => Suit::Spades,
                rs_poker::core::Suit::Club => Suit::Clubs,
                rs_poker::core::Suit::Heart => Suit::Hearts,
                rs_poker::core::Suit::Diamond => Suit::Diamonds,
            };
            assert_eq!(their_suit, card.suit);
        }
        assert_eq!(Card::from_index(52), None);
    }

    #[test]
    fn short_notation() {
        assert_eq!(
            "Ah".parse::<Card>().unwrap(),
            Card::new(Rank::Ace, Suit::Hearts)
        );
        assert_eq!(
            "10d".parse::<Card>().unwrap(),
            Card::new(Rank::Ten, Suit::Diamonds)
        );
        assert_eq!(
            "td".parse::<Card>().unwrap(),
            Card::new(Rank::Ten, Suit::Diamonds)
        );
        assert_eq!(
            "2♣".parse::<Card>().unwrap(),
            Card::new(Rank::Two, Suit::Clubs)
        );
        assert!(matches!(
            "1h".parse::<Card>(),
            Err(CardParseError::Rank { .. })
        ));
        assert!(matches!(
            "Ax".parse::<Card>(),
            Err(CardParseError::Suit { .. })
        ));
        assert!(matches!("".parse::<Card>(), Err(CardParseError::Empty)));
        assert!("11h".parse::<Card>().is_err());
        for card in Card::deck() {
            assert_eq!(card.to_string().parse::<Card>().unwrap(), card);
        }
    }

    #[test]
    fn wire_format() {
        let card: Card = serde_json::from_str(r#"{"rank":"10","suit":"clubs"}"#).unwrap();
        assert_eq!(card, Card::new(Rank::Ten, Suit::Clubs));
        let err = serde_json::from_str::<Card>(r#"{"rank":"T","suit":"clubs"}"#).unwrap_err();
        assert!(err.to_string().contains("unknown rank \"T\""), "{err}");
        let err = serde_json::from_str::<Card>(r#"{"rank":"2","suit":"hearts1"}"#).unwrap_err();
        assert!(
            err.to_string().contains("unknown suit \"hearts1\""),
            "{err}"
        );
        for card in Card::deck() {
            let json = serde_json::to_string(&card).unwrap();
            assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), card);
        }
    }

    #[test]
    fn parse_card_lists() {
        assert_eq!(parse_cards("").unwrap(), vec![]);
        assert_eq!(parse_cards("Ah, 10s Kd").unwrap().len(), 3);
        assert_eq!(parse_cards("Ah10sKd").unwrap().len(), 3);
        assert!(matches!(
            parse_cards("Ah ah"),
            Err(CardParseError::Duplicate(_))
        ));
        assert!(parse_cards("Ahx").is_err());
    }
}
