//! Hand evaluation: the best five-card poker hand out of five, six or seven cards.
//!
//! - [`evaluate`] gives a [`Hand`]: its [`HandStrength`], [`Category`], the five cards used
//!   ([`Hand::best_five`]), a human description and the Rain Man view ([`Hand::rain_man`]).
//! - [`strength_of`] and [`HandKey`] are the fast paths for hot loops (showdowns, equity):
//!   they produce only the [`HandStrength`]. Both refuse a repeated card: `strength_of` with
//!   one test a hand, `HandKey + Card` with one test a card (it keeps a set).
//! - [`SevenCards`] is for loops over ready-made seven-card hands: seven cards checked once
//!   when made ([`SevenCards::new`]) or drawn from a deck ([`Deck::draw_seven`]), whose
//!   strength needs no test at all.
//! - [`Deck`] and [`Deal`] are for enumerations (boards, run-outs, every hand): a deck of
//!   distinct cards is checked once, and cards dealt from it need no test at all.
//! - [`rain_man_rank`] and [`rain_man_rank_json`] answer like the Lean Poker ranking service
//!   "Rain Man" (spec §8); see [`RainManRank`].
//!
//! [`HandStrength`] is a total order over hands: `a > b` exactly when hand `a` wins against
//! hand `b`, and `a == b` exactly when they split the pot. It is a number from 1 (7-5-4-3-2)
//! to 7,462 (a royal flush), [`HandStrength::index`].
//!
//! How it works: a plain reference evaluator (`reference.rs`) defines every hand class and
//! picks the best five cards. A generator turns it into lookup tables (about 330 KiB, checked
//! in as `tables.bin`; a test regenerates them and fails on any difference): each card has a
//! 64-bit key, a hand's key is the sum of its cards' keys, and the strength is one test (count
//! and flush together) plus two table loads (a perfect hash over rank multisets, or a 13-bit
//! flush pattern). A repeated card is found by comparing a sum in the key with the union of
//! the cards' bits (`fast::distinct`). [`evaluate`] reads the category and the five ranks off
//! the strength and picks the cards the way the reference does (the tests compare them
//! through `bench_support::reference_best_five`); [`rain_man_rank`] follows the Rain Man
//! service's own algorithms instead, quirks included. Details in `tests/eval_tables.rs` and
//! `fast.rs`. No `unsafe` anywhere.
//!
//! ```
//! use shared::card::parse_cards;
//! use shared::eval::{evaluate, strength_of, Category};
//!
//! let hand = evaluate(&parse_cards("Kh Kd 9s 9c 2h 7d 3s").unwrap()).unwrap();
//! assert_eq!(hand.category(), Category::TwoPair);
//! assert_eq!(hand.description(), "two pair, kings and nines");
//! let best: Vec<String> = hand.best_five().iter().map(|c| c.to_string()).collect();
//! assert_eq!(best, ["Kh", "Kd", "9s", "9c", "7d"]);
//!
//! let wheel = strength_of(&parse_cards("As 2d 3c 4h 5s Kd Kc").unwrap()).unwrap();
//! assert_eq!(wheel.category(), Category::Straight);
//! assert!(wheel > hand.strength());
//! ```

mod deck;
mod fast;
mod key;
mod rain_man;
mod reference;
mod seven;
mod strength;

pub use deck::{Deal, Deck};
pub use key::HandKey;
pub use rain_man::{rain_man_rank, rain_man_rank_json, RainManRank};
pub use seven::SevenCards;
pub use strength::{Category, HandStrength};

/// Not part of the API: the evaluator's raw entry point, for benchmarks that measure its
/// ceiling without input validation and `Card` conversion. Memory-safe for any input, but an
/// invalid or repeated code gives an unspecified strength; use [`strength_of`] or [`HandKey`].
#[doc(hidden)]
pub mod bench_support {
    use super::fast;
    use crate::card::Card;

    pub use super::rain_man::reference_best_five;

    /// A card's code (`rank value | suit << 8`), the evaluator's table index.
    pub fn code(card: Card) -> u16 {
        fast::code(card) as u16
    }

    /// Calls `visit` with the key of every seven-card hand of `deck` (in lexicographic order of
    /// positions), for the exhaustive test and the enumeration benchmark. The keys of the outer
    /// five cards are summed once per loop level, and the last two cards come from a table of
    /// every pair's key, in lexicographic order: the pairs whose first card follows the fifth
    /// form a suffix of that table, so the innermost loop runs over whole suffixes (hundreds of
    /// hands) instead of the few cards after the sixth, and each hand costs one load, two
    /// integer operations and `visit`. `deck` must not repeat a card (the keys would then count
    /// it twice: `strength()` gives the strength of another hand, or an error).
    #[inline(always)]
    pub fn for_each_seven_card_hand(deck: &[Card], mut visit: impl FnMut(super::HandKey)) {
        let singles: Vec<super::HandKey> = deck
            .iter()
            .map(|&card| {
                let code = fast::code(card);
                super::HandKey {
                    key: fast::code_key(code),
                    mask: fast::code_bit(code),
                }
            })
            .collect();
        let join = |a: super::HandKey, b: super::HandKey| super::HandKey {
            key: a.key.wrapping_add(b.key),
            mask: a.mask | b.mask,
        };
        let n = singles.len();
        // Every pair (f, g), f < g, in lexicographic order; `pairs_from[f]` is the index of the
        // first pair starting at position f (or later), `pairs.len()` past the end.
        let mut pairs = Vec::with_capacity(n * n.saturating_sub(1) / 2);
        let mut pairs_from = Vec::with_capacity(n + 1);
        for f in 0..n {
            pairs_from.push(pairs.len());
            for g in f + 1..n {
                pairs.push(join(singles[f], singles[g]));
            }
        }
        pairs_from.push(pairs.len());
        for a in 0..n {
            let k1 = join(super::HandKey::EMPTY, singles[a]);
            for b in a + 1..n {
                let k2 = join(k1, singles[b]);
                for c in b + 1..n {
                    let k3 = join(k2, singles[c]);
                    for d in c + 1..n {
                        let k4 = join(k3, singles[d]);
                        for e in d + 1..n {
                            let k5 = join(k4, singles[e]);
                            for &pair in &pairs[pairs_from[e + 1]..] {
                                visit(join(k5, pair));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The strength index of seven cards read as [`strength_of`](super::strength_of) reads
    /// them (each card's two bytes, one table index), with no repeated-card test: the ceiling
    /// that any check in `strength_of` is measured against (`benches/hhe_compare.sh`). A
    /// repeated card gives an unspecified strength (memory-safe, but meaningless).
    #[inline(always)]
    pub fn strength_index_unchecked(cards: &[Card; 7]) -> u16 {
        let codes: [usize; 7] = std::array::from_fn(|i| fast::code(cards[i]));
        let key = codes.iter().fold(fast::EMPTY_KEY, |key, &code| {
            key.wrapping_add(fast::code_key(code))
        });
        // The card set only where it is read, as in `fast::distinct_strength`.
        if fast::has_flush(key) {
            let mask = codes
                .iter()
                .fold(0, |mask, &code| mask | fast::code_bit(code));
            return fast::flush_strength(key, mask);
        }
        fast::rank_strength(key)
    }

    /// The strength index of seven distinct cards given as codes (no validation).
    #[inline]
    pub fn strength_index_of_codes(codes: &[u16; 7]) -> u16 {
        let mut key = fast::EMPTY_KEY;
        let mut mask = 0u64;
        for &code in codes {
            key = key.wrapping_add(fast::code_key(usize::from(code)));
            mask |= fast::code_bit(usize::from(code));
        }
        fast::strength(key, mask)
    }
}

use crate::card::{Card, Rank, Suit};
use std::fmt;
use thiserror::Error;

/// Why cards could not be evaluated.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EvalError {
    /// A hand is five, six or seven cards (the best five of them count).
    #[error("a hand needs 5, 6 or 7 cards, got {0}")]
    CardCount(usize),
    /// The same card was given twice.
    #[error("card {0} appears more than once")]
    DuplicateCard(Card),
    /// Rain Man ranks five or more cards; the real service answers `400 Bad request: not
    /// enough cards`.
    #[error("Bad request: not enough cards (got {0}, at least 5 are needed)")]
    NotEnoughCards(usize),
    /// A Rain Man request whose `cards` is not a JSON array of card objects.
    #[error("Bad request: cards must be a JSON array of {{\"rank\":..,\"suit\":..}} objects: {0}")]
    InvalidCards(String),
}

/// A card set is a 64-bit mask with one 16-bit lane per suit; a card's bit is its slot,
/// `suit * 16 + rank value - 2` (see `fast.rs`).
#[inline(always)]
fn card_bit(card: Card) -> u64 {
    fast::code_bit(fast::code(card))
}

/// The evaluator's code of `card` (`rank value | suit << 8`, below 1024), for the equity
/// code's decks.
#[inline(always)]
pub(crate) fn card_code(card: Card) -> u16 {
    fast::code(card) as u16
}

/// A card's two contributions to a [`HandKey`] (its key and its bit), looked up once: the
/// equity code deals these from its deck and adds them without touching the tables.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct CardEntry {
    key: u64,
    bit: u64,
}

impl CardEntry {
    /// The entry of `card`.
    pub(crate) fn of(card: Card) -> CardEntry {
        let code = fast::code(card);
        CardEntry {
            key: fast::code_key(code),
            bit: fast::code_bit(code),
        }
    }
}

/// The cards of a card set, in slot order (spades, clubs, hearts, diamonds; low to high).
fn set_cards(mask: u64) -> impl Iterator<Item = Card> {
    (0..64u8)
        .filter(move |&slot| mask >> slot & 1 == 1)
        .filter_map(fast::card_of_slot)
}

/// Per-suit 13-bit rank masks of a card set.
fn suit_masks(mask: u64) -> [u16; 4] {
    [0, 1, 2, 3].map(|suit| ((mask >> (16 * suit)) & 0x1FFF) as u16)
}

/// The card set of `cards`, rejecting duplicates.
fn card_set(cards: &[Card]) -> Result<u64, EvalError> {
    let mut mask = 0u64;
    for &card in cards {
        let bit = card_bit(card);
        if mask & bit != 0 {
            return Err(EvalError::DuplicateCard(card));
        }
        mask |= bit;
    }
    Ok(mask)
}

#[inline(always)]
fn check_count(count: usize) -> Result<(), EvalError> {
    if (5..=7).contains(&count) {
        Ok(())
    } else {
        Err(EvalError::CardCount(count))
    }
}

/// Classifies a set of 5..=52 distinct cards.
fn classify_set(mask: u64) -> Option<reference::Classified> {
    reference::classify(suit_masks(mask))
}

fn to_card((rank, suit): (u8, u8)) -> Card {
    // The reference evaluator only returns ranks 0..13 and suits 0..4 from its input masks.
    Card::from_index(suit * 13 + rank).unwrap_or(Card::new(Rank::Two, Suit::Spades))
}

/// An evaluated hand: its strength and the five cards that make it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hand {
    strength: HandStrength,
    category: Category,
    best_five: [Card; 5],
    cards: u64,
}

impl Hand {
    /// The hand of five to seven distinct cards, from their fast strength and their set.
    ///
    /// The strength's canonical number holds the category and the five ranks in order of
    /// significance, so the cards are picked exactly as the reference evaluator picks them:
    /// all from the flush suit for a flush or straight flush (with seven cards or fewer a hand
    /// holding a flush has nothing better), otherwise for each rank in turn the card of that
    /// rank with the lowest suit index not yet taken. The tests compare every pick with the
    /// reference (through `bench_support::reference_best_five`).
    fn from_fast(strength: HandStrength, set: HandKey) -> Hand {
        let canonical = strength.canonical();
        let category =
            Category::from_rain_man_rank((canonical >> 20) as u8).unwrap_or(Category::HighCard);
        // Each rank's position in a suit's lane, in order of significance: nibble 0 is the
        // wheel's low ace (lane bit 12), nibbles 1..=13 are deuce..ace (lane bits 0..=12).
        const LANE_BIT: [u8; 16] = [12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 12];
        let lane_bits = [16, 12, 8, 4, 0].map(|shift| LANE_BIT[(canonical >> shift & 15) as usize]);
        let best_five = if matches!(category, Category::Flush | Category::StraightFlush) {
            let lane = 16 * fast::flush_suit(set.key);
            lane_bits.map(|bit| fast::SLOT_CARDS[(lane + bit as usize) & 63])
        } else {
            let mut left = set.mask;
            lane_bits.map(|bit| {
                // The rank's bit in every suit's lane; the lowest one left is the lowest suit.
                // A strength of these cards only names ranks they hold, so one is left.
                let holders = left & fast::RANK_IN_EVERY_SUIT << bit;
                let lowest = holders & holders.wrapping_neg();
                left &= !lowest;
                fast::SLOT_CARDS[lowest.trailing_zeros() as usize & 63]
            })
        };
        Hand {
            strength,
            category,
            best_five,
            cards: set.mask,
        }
    }

    /// The strength, for comparing with other hands.
    pub fn strength(&self) -> HandStrength {
        self.strength
    }

    /// The category (pair, flush, ...).
    pub fn category(&self) -> Category {
        self.category
    }

    /// The five cards that play, in order of significance: the combination first (higher
    /// pair first, trips before the pair of a full house), then kickers high to low. A wheel
    /// straight is 5-4-3-2-A. When several cards of a rank could play, the lowest suit
    /// index wins (spades, clubs, hearts, diamonds).
    pub fn best_five(&self) -> [Card; 5] {
        self.best_five
    }

    /// Every card of the hand (five to seven), in [`Card::index`] order (suit, then rank).
    pub fn cards(&self) -> Vec<Card> {
        set_cards(self.cards).collect()
    }

    /// A human description; see [`HandStrength::description`].
    pub fn description(&self) -> String {
        self.strength.description()
    }

    /// The answer Rain Man would give for these cards given in [`Hand::cards`] order (the
    /// order decides only how cards of one rank are listed); see [`RainManRank`].
    pub fn rain_man(&self) -> RainManRank {
        RainManRank::from_hand(self)
    }
}

impl fmt::Display for Hand {
    /// The best five cards and the description: `Kh Kd 9s 9c 7d (two pair, kings and nines)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for card in &self.best_five {
            write!(f, "{card} ")?;
        }
        write!(f, "({})", self.description())
    }
}

/// Evaluates five, six or seven distinct cards.
///
/// # Errors
/// [`EvalError::CardCount`] for fewer than five or more than seven cards,
/// [`EvalError::DuplicateCard`] when a card appears twice.
pub fn evaluate(cards: &[Card]) -> Result<Hand, EvalError> {
    check_count(cards.len())?;
    let set = HandKey::sum(cards).ok_or_else(|| strength_error(cards))?;
    Ok(set.hand_unchecked())
}

/// The strength of five, six or seven distinct cards, without working out the best five:
/// the fast path for showdowns and simulations. (Seven cards evaluated more than once, or
/// many hands made ahead of a loop, are quicker as [`SevenCards`]: checked once, then
/// evaluated with no test.)
///
/// # Errors
/// As [`evaluate`].
// Always inlined: a bot's crate (measured with `benches/hhe_compare.sh`, a crate outside the
// workspace) called it out of line with `#[inline]`, the result going through memory.
#[inline(always)]
pub fn strength_of(cards: &[Card]) -> Result<HandStrength, EvalError> {
    // For an array the length is known, and all but one arm disappear.
    let common = match cards.len() {
        7 => <&[Card; 7]>::try_from(cards)
            .ok()
            .and_then(fast::common_strength),
        6 => <&[Card; 6]>::try_from(cards)
            .ok()
            .and_then(fast::common_strength),
        5 => <&[Card; 5]>::try_from(cards)
            .ok()
            .and_then(fast::common_strength),
        _ => None,
    };
    match common {
        Some(strength) => Ok(HandStrength(strength)),
        None => strength_off_common_path(cards),
    }
}

/// [`strength_of`] for a flush, a repeated card or a wrong count: out of line, so that the
/// common path falls through and stays short.
#[cold]
#[inline(never)]
fn strength_off_common_path(cards: &[Card]) -> Result<HandStrength, EvalError> {
    check_count(cards.len())?;
    let set = HandKey::sum(cards).ok_or_else(|| strength_error(cards))?;
    Ok(set.strength_unchecked())
}

/// Why `cards` could not be evaluated, once a fast path saw that they cannot.
#[cold]
#[inline(never)]
fn strength_error(cards: &[Card]) -> EvalError {
    match check_count(cards.len()).and_then(|()| card_set(cards)) {
        Err(error) => error,
        // Unreachable: the caller saw a bad count or a duplicate.
        Ok(_) => EvalError::CardCount(cards.len()),
    }
}
