//! [`HandKey`]: a card set kept as the evaluator's sum, for hot loops that share cards (a
//! board) between many evaluations.

#[cfg(doc)]
use super::evaluate;
use super::{card_bit, card_set, fast, set_cards, CardEntry, EvalError, Hand, HandStrength};
use crate::card::Card;

/// A set of up to seven cards, ready for evaluation; cheap to copy and extend.
///
/// Build the shared part once (the board), then add each player's hole cards:
///
/// ```
/// use shared::card::parse_cards;
/// use shared::eval::HandKey;
/// let board = HandKey::from_cards(&parse_cards("Ah Kh 7c 7d 2s").unwrap()).unwrap();
/// let mine = board.join(HandKey::from_cards(&parse_cards("As Qd").unwrap()).unwrap()).unwrap();
/// let theirs = board.join(HandKey::from_cards(&parse_cards("Kd Kc").unwrap()).unwrap()).unwrap();
/// assert!(theirs.strength().unwrap() > mine.strength().unwrap());
/// ```
///
/// Internally the sum of the cards' 64-bit keys and a card set (one 16-bit lane per suit):
/// adding a card is two table loads (indexed by the card's two bytes), an add and an or;
/// evaluating is one test of the count and the flush bits together and two table loads (see
/// the notes in `tests/eval_tables.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HandKey {
    /// The sum of the cards' keys (the rank multiset).
    pub(super) key: u64,
    /// The card set, one 16-bit lane per suit.
    pub(super) mask: u64,
}

/// `key + card`: the set plus `card`, for hot loops: no error, no branch. Adding a card that
/// is already in leaves the set unchanged (it is a set); an eighth card makes
/// [`HandKey::strength`] an error, never a wrong answer.
///
/// ```
/// use shared::card::parse_cards;
/// use shared::eval::{strength_of, HandKey};
/// let cards = parse_cards("Ah Kh Qh Jh Th").unwrap();
/// let key = cards.iter().fold(HandKey::EMPTY, |key, &card| key + card);
/// assert_eq!(key + cards[0], key);
/// assert_eq!(key.strength(), strength_of(&cards));
/// ```
impl std::ops::Add<Card> for HandKey {
    type Output = HandKey;

    #[inline(always)]
    fn add(self, card: Card) -> HandKey {
        let code = fast::code(card);
        let bit = fast::code_bit(code);
        // A card already in is a mistake of the caller's, so it is the cold branch: the
        // common path is a test that falls through, and the key's load does not wait for it
        // (with a conditional move, or LLVM's own jump around the load, taken on every new
        // card, hand enumerations were about a tenth slower).
        if self.mask & bit != 0 {
            return self.unchanged();
        }
        HandKey {
            key: self.key.wrapping_add(fast::code_key(code)),
            mask: self.mask | bit,
        }
    }
}

impl std::ops::AddAssign<Card> for HandKey {
    /// See [`HandKey`]'s `Add<Card>`.
    #[inline(always)]
    fn add_assign(&mut self, card: Card) {
        *self = *self + card;
    }
}

impl Default for HandKey {
    fn default() -> HandKey {
        HandKey::EMPTY
    }
}

impl HandKey {
    /// The set itself: `key + card` for a card already in, out of line so that the branch
    /// to it is laid out as the unlikely one.
    #[cold]
    #[inline(never)]
    fn unchanged(self) -> HandKey {
        self
    }

    /// No cards.
    pub const EMPTY: HandKey = HandKey {
        key: fast::EMPTY_KEY,
        mask: 0,
    };

    /// The set of `cards` (at most seven, all distinct).
    ///
    /// # Errors
    /// [`EvalError::CardCount`] for more than seven cards, [`EvalError::DuplicateCard`].
    pub fn from_cards(cards: &[Card]) -> Result<HandKey, EvalError> {
        if cards.len() > 7 {
            return Err(EvalError::CardCount(cards.len()));
        }
        HandKey::sum(cards).ok_or_else(|| match card_set(cards) {
            Err(error) => error,
            // Unreachable: `sum` saw a card twice.
            Ok(_) => EvalError::CardCount(cards.len()),
        })
    }

    /// The key and card set of `cards`, or `None` when a card comes twice or there are more
    /// than seven.
    ///
    /// Each card's key is added and its bit ORed into the set, and one test at the end tells
    /// whether a card came twice ([`fast::distinct`]), instead of a test and a branch per card.
    #[inline(always)]
    pub(super) fn sum(cards: &[Card]) -> Option<HandKey> {
        if cards.len() > 7 {
            return None;
        }
        let mut key = fast::EMPTY_KEY;
        let mut mask = 0u64;
        for &card in cards {
            let code = fast::code(card);
            key = key.wrapping_add(fast::code_key(code));
            mask |= fast::code_bit(code);
        }
        fast::distinct(key, mask).then_some(HandKey { key, mask })
    }

    /// This set plus `card`.
    ///
    /// # Errors
    /// [`EvalError::DuplicateCard`] when the card is already in, [`EvalError::CardCount`] when
    /// the set already holds seven cards.
    pub fn with(self, card: Card) -> Result<HandKey, EvalError> {
        self.join(HandKey::EMPTY + card)
    }

    /// The union of two disjoint sets.
    ///
    /// # Errors
    /// [`EvalError::DuplicateCard`] when a card is in both, [`EvalError::CardCount`] when the
    /// union would hold more than seven cards.
    pub fn join(self, other: HandKey) -> Result<HandKey, EvalError> {
        let common = self.mask & other.mask;
        if let Some(card) = set_cards(common).next() {
            return Err(EvalError::DuplicateCard(card));
        }
        let count = self.len() + other.len();
        if count > 7 {
            return Err(EvalError::CardCount(count));
        }
        Ok(self.join_unchecked(other))
    }

    /// How many cards are in the set.
    #[inline(always)]
    pub fn len(self) -> usize {
        self.mask.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.mask == 0
    }

    /// Whether `card` is in the set.
    pub fn contains(self, card: Card) -> bool {
        self.mask & card_bit(card) != 0
    }

    /// The cards in the set, in [`Card::index`] order (suit, then rank).
    pub fn cards(self) -> impl Iterator<Item = Card> {
        set_cards(self.mask)
    }

    /// Adds the card with `code` (see [`card_code`]), which the caller knows is not in the set
    /// and keeps the set at seven cards or fewer (the equity code deals from a deck).
    #[inline(always)]
    pub(crate) fn add_code_unchecked(self, code: u16) -> HandKey {
        let code = usize::from(code);
        HandKey {
            key: self.key.wrapping_add(fast::code_key(code)),
            mask: self.mask | fast::code_bit(code),
        }
    }

    /// Adds the card of `entry`, which the caller knows is not in the set (a deal from a deck of
    /// distinct cards, the equity code's deck). Past seven cards the set is still exact, and
    /// [`HandKey::strength`] an error, as for `HandKey + Card`.
    #[inline(always)]
    pub(crate) fn add_entry_unchecked(self, entry: CardEntry) -> HandKey {
        HandKey {
            key: self.key.wrapping_add(entry.key),
            mask: self.mask | entry.bit,
        }
    }

    /// The union with a set the caller knows is disjoint, keeping seven cards or fewer.
    #[inline(always)]
    pub(crate) fn join_unchecked(self, other: HandKey) -> HandKey {
        HandKey {
            // Both keys carry the suit counters' starting value; count it once.
            key: self
                .key
                .wrapping_add(other.key)
                .wrapping_sub(fast::EMPTY_KEY),
            mask: self.mask | other.mask,
        }
    }

    /// The strength of a set the caller knows holds five to seven cards.
    #[inline(always)]
    pub(crate) fn strength_unchecked(self) -> HandStrength {
        HandStrength(fast::strength(self.key, self.mask))
    }

    /// The evaluated hand of a set the caller knows holds five to seven cards.
    pub(super) fn hand_unchecked(self) -> Hand {
        Hand::from_fast(self.strength_unchecked(), self)
    }

    /// The evaluated hand of the set (strength, category and best five), as [`evaluate`]
    /// gives for the same cards; for callers that already folded the cards into a key (a
    /// board shared by every player) and should not collect them again.
    ///
    /// # Errors
    /// [`EvalError::CardCount`] unless the set holds five, six or seven cards.
    ///
    /// ```
    /// use shared::card::parse_cards;
    /// use shared::eval::{evaluate, HandKey};
    ///
    /// let cards = parse_cards("Ah Kh 7c 7d 2s As Qd").unwrap();
    /// let hand = HandKey::from_cards(&cards).unwrap().hand().unwrap();
    /// assert_eq!(hand, evaluate(&cards).unwrap());
    /// assert!(HandKey::from_cards(&cards[..4]).unwrap().hand().is_err());
    /// ```
    pub fn hand(self) -> Result<Hand, EvalError> {
        self.strength()
            .map(|strength| Hand::from_fast(strength, self))
    }

    /// The strength of the set.
    ///
    /// # Errors
    /// [`EvalError::CardCount`] unless the set holds five, six or seven cards.
    #[inline(always)]
    pub fn strength(self) -> Result<HandStrength, EvalError> {
        // The key's count field counts every card (at most 52, it never overflows) and tells
        // five to seven cards by one mask; a suit counter past twelve cards carries upwards,
        // away from it.
        if fast::five_to_seven_no_flush(self.key) {
            return Ok(HandStrength(fast::rank_strength(self.key)));
        }
        self.flush_or_count_error()
    }

    /// [`HandKey::strength`] off its common path: a flush (about 3% of seven-card hands), or
    /// a count error. Out of line, so that the common path falls through with no taken jump
    /// and stays short.
    #[cold]
    #[inline(never)]
    fn flush_or_count_error(self) -> Result<HandStrength, EvalError> {
        if fast::five_to_seven(self.key) {
            Ok(HandStrength(fast::strength(self.key, self.mask)))
        } else {
            Err(EvalError::CardCount(self.len()))
        }
    }
}
