//! [`SevenCards`]: seven cards checked once for a repeat, then evaluated with no test.

use super::{card_set, fast, EvalError, Hand, HandKey, HandStrength};
#[cfg(doc)]
use super::{evaluate, strength_of, Deck};
use crate::card::{Card, Rank, Suit};
use std::fmt;

/// Seven distinct cards (a hold'em player's two hole cards and the five of the board), checked
/// once when made, so that [`SevenCards::strength`] needs no repeated-card test and cannot
/// fail: for loops that evaluate many ready-made hands, or the same hands again.
///
/// Made by [`SevenCards::new`] (or `try_from`), which refuses a repeated card with the error
/// [`strength_of`] gives for it, or dealt at random from a [`Deck`] by [`Deck::draw_seven`],
/// whose cards are distinct by construction.
///
/// ```
/// use shared::card::parse_cards;
/// use shared::eval::{strength_of, EvalError, SevenCards};
///
/// let cards: [_; 7] = parse_cards("Ah Kh 7c 7d 2s As Qd").unwrap().try_into().unwrap();
/// let hand = SevenCards::new(cards).unwrap();
/// assert_eq!(Ok(hand.strength()), strength_of(&cards));
/// assert_eq!(hand.to_string(), "Ah Kh 7c 7d 2s As Qd");
///
/// let mut repeated = cards;
/// repeated[6] = repeated[0];
/// let error = SevenCards::new(repeated).unwrap_err();
/// assert_eq!(error, EvalError::DuplicateCard(cards[0]));
/// assert_eq!(Err(error), strength_of(&repeated));
/// ```
///
/// The cards keep the order they were given or dealt in; it decides nothing but
/// [`SevenCards::cards`] and equality (two orders of the same cards are different values).
/// Held as one byte a card (its [`Card::index`]), half a `[Card; 7]`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SevenCards {
    /// Each card's [`Card::index`]: a dense index into the evaluator's table of 52 keys.
    indexes: [u8; 7],
}

impl SevenCards {
    /// The seven cards, if no card comes twice.
    ///
    /// # Errors
    /// [`EvalError::DuplicateCard`] naming the first card that repeats an earlier one, as
    /// [`strength_of`] does.
    pub fn new(cards: [Card; 7]) -> Result<SevenCards, EvalError> {
        card_set(&cards)?;
        Ok(SevenCards::from_distinct(cards))
    }

    /// Seven cards the caller knows are distinct (a deal from a [`Deck`]).
    pub(super) fn from_distinct(cards: [Card; 7]) -> SevenCards {
        SevenCards {
            indexes: cards.map(Card::index),
        }
    }

    /// The cards, in the order they were given or dealt.
    pub fn cards(&self) -> [Card; 7] {
        // Every index came from a card, so the fallback is never taken.
        self.indexes
            .map(|index| Card::from_index(index).unwrap_or(Card::new(Rank::Two, Suit::Spades)))
    }

    /// The strength of the seven cards, with no repeated-card test: the sum of their keys, one
    /// flush test and two table loads.
    #[inline(always)]
    pub fn strength(&self) -> HandStrength {
        HandStrength(fast::distinct_strength(&self.indexes))
    }

    /// The evaluated hand (strength, category, best five), as [`evaluate`] gives for the same
    /// cards.
    pub fn hand(&self) -> Hand {
        let set = self
            .indexes
            .iter()
            .fold(HandKey::EMPTY, |set, &index| HandKey {
                key: set.key.wrapping_add(fast::index_key(index)),
                mask: set.mask | fast::index_bit(index),
            });
        set.hand_unchecked()
    }
}

impl TryFrom<[Card; 7]> for SevenCards {
    type Error = EvalError;

    /// See [`SevenCards::new`].
    fn try_from(cards: [Card; 7]) -> Result<SevenCards, EvalError> {
        SevenCards::new(cards)
    }
}

impl From<SevenCards> for [Card; 7] {
    fn from(hand: SevenCards) -> [Card; 7] {
        hand.cards()
    }
}

impl fmt::Display for SevenCards {
    /// The cards in order, separated by spaces: `Ah Kh 7c 7d 2s As Qd`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (position, card) in self.cards().iter().enumerate() {
            if position > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for SevenCards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SevenCards({self})")
    }
}
