//! The Lean Poker hand-ranking service "Rain Man" (spec §8), as a function.
//!
//! Rain Man (`https://rainman.leanpoker.org/rank`, source `github.com/lean-poker/rainman`) is a
//! small Sinatra app around the `poker-ranking` Ruby gem (version 1.1.5 in its Gemfile.lock).
//! It reads `cards`, a JSON array of card objects, answers `400 Bad request: not enough cards`
//! for fewer than five, and otherwise returns the gem's `Hand#data`:
//! `rank`, `value`, `second_value`, `kickers`, `cards_used` and `cards`.
//!
//! What each field holds, from the gem's code (`lib/hand_type/*.rb`, versions 1.1.2–1.1.3;
//! the README of `lean-poker/rainman` has a table that agrees except where noted):
//!
//! | rank | hand | `value` | `second_value` | `kickers` |
//! |---|---|---|---|---|
//! | 0 | high card | highest card | = value | the five card values, high to low |
//! | 1 | pair | the pair | = value | the three other values, high to low |
//! | 2 | two pair | higher pair | lower pair | `[kicker]` (may come from a third pair) |
//! | 3 | three of a kind | the trips | = value | the two other values, high to low |
//! | 4 | straight | top card (5 for the wheel) | = value | `[]` (README: the five values) |
//! | 5 | flush | top card | = value | the five flush values, high to low |
//! | 6 | full house | the trips | the pair | `[]` |
//! | 7 | four of a kind | the quads | = value | `[kicker]` |
//! | 8 | straight flush | top card (5 for the wheel) | = value | `[]` (README: the five values) |
//!
//! Card values are 2..=14 (jack 11, queen 12, king 13, ace 14). For straights and straight
//! flushes we follow the gem's code (`kickers` is empty) rather than its README table.
//!
//! `cards_used` holds the five cards that make the hand, ordered like the gem orders them:
//! least significant first (kickers low to high, then the lower pair, then the higher pair
//! or the trips; a straight from its low card, the wheel's ace first). `cards` echoes the
//! input sorted by value (the gem sorts the cards before answering), ties by suit.
//!
//! Differences from the real service, deliberately: duplicate cards are an error (the gem
//! would count a card given twice as a pair), and a hand is always classified correctly.

use super::{card_set, classify_set, to_card, Category, EvalError, Hand};
use crate::card::Card;
use serde::{Deserialize, Serialize};

/// A Rain-Man-shaped hand ranking (spec §8); serialises with Rain Man's JSON keys.
///
/// ```
/// use shared::eval::rain_man_rank_json;
/// let answer = rain_man_rank_json(r#"[
///     {"rank":"5","suit":"diamonds"}, {"rank":"6","suit":"diamonds"},
///     {"rank":"7","suit":"diamonds"}, {"rank":"7","suit":"spades"},
///     {"rank":"8","suit":"diamonds"}, {"rank":"9","suit":"diamonds"}]"#).unwrap();
/// assert_eq!((answer.rank, answer.value, answer.second_value), (8, 9, 9));
/// assert_eq!(answer.cards_used.len(), 5);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RainManRank {
    /// 0 high card, 1 pair, 2 two pair, 3 three of a kind, 4 straight, 5 flush, 6 full house,
    /// 7 four of a kind, 8 straight flush.
    pub rank: u8,
    /// The main card value (2..=14) of the hand; see the module docs per category.
    pub value: u8,
    /// The second card value: the lower pair of two pair, the pair of a full house, else
    /// equal to `value`.
    pub second_value: u8,
    /// Tie-breaking card values, most significant first; see the module docs per category.
    pub kickers: Vec<u8>,
    /// The five cards that make the hand, least significant first (as the gem orders them).
    pub cards_used: Vec<Card>,
    /// All the cards ranked, sorted by value (low to high). Absent from some older answers,
    /// hence optional when reading.
    #[serde(default)]
    pub cards: Vec<Card>,
}

impl RainManRank {
    pub(super) fn from_hand(hand: &Hand) -> RainManRank {
        let best = hand.best_five();
        let values = best.map(|card| card.rank.value());
        let category = hand.category();
        let (value, second_value, kickers): (u8, u8, Vec<u8>) = match category {
            Category::HighCard | Category::Flush => (values[0], values[0], values.to_vec()),
            Category::Pair => (values[0], values[0], values[2..].to_vec()),
            Category::TwoPair => (values[0], values[2], vec![values[4]]),
            Category::ThreeOfAKind => (values[0], values[0], values[3..].to_vec()),
            // The top card of a straight comes first, also in a wheel (5-4-3-2-A).
            Category::Straight | Category::StraightFlush => (values[0], values[0], Vec::new()),
            Category::FullHouse => (values[0], values[3], Vec::new()),
            Category::FourOfAKind => (values[0], values[0], vec![values[4]]),
        };
        let mut cards = hand.cards();
        cards.sort_by_key(|card| (card.rank, card.suit));
        let mut cards_used = best.to_vec();
        cards_used.reverse();
        RainManRank {
            rank: category.rain_man_rank(),
            value,
            second_value,
            kickers,
            cards_used,
            cards,
        }
    }

    /// The category for `rank`, or `None` when `rank` is not 0..=8 (only possible for a
    /// deserialised value).
    pub fn category(&self) -> Option<Category> {
        Category::from_rain_man_rank(self.rank)
    }
}

/// Ranks cards like Rain Man: five or more distinct cards (more than seven are allowed, as
/// the service allows them; the best five count).
///
/// # Errors
/// [`EvalError::NotEnoughCards`] for fewer than five cards (the service's 400),
/// [`EvalError::DuplicateCard`] when a card appears twice.
pub fn rain_man_rank(cards: &[Card]) -> Result<RainManRank, EvalError> {
    if cards.len() < 5 {
        return Err(EvalError::NotEnoughCards(cards.len()));
    }
    let mask = card_set(cards)?;
    let classified = classify_set(mask).ok_or(EvalError::NotEnoughCards(cards.len()))?;
    let hand = Hand {
        strength: super::HandStrength::from_classified(&classified),
        category: Category::from_rain_man_rank(classified.category)
            .ok_or(EvalError::NotEnoughCards(cards.len()))?,
        best_five: classified.cards.map(to_card),
        cards: mask,
    };
    Ok(hand.rain_man())
}

/// Ranks a Rain Man request's `cards` parameter: a JSON array of card objects such as
/// `[{"rank":"10","suit":"hearts"}, ...]`.
///
/// # Errors
/// [`EvalError::InvalidCards`] when the text is not such an array (unknown rank or suit
/// included), and the errors of [`rain_man_rank`].
pub fn rain_man_rank_json(cards_json: &str) -> Result<RainManRank, EvalError> {
    let cards: Vec<Card> = serde_json::from_str(cards_json)
        .map_err(|error| EvalError::InvalidCards(error.to_string()))?;
    rain_man_rank(&cards)
}
