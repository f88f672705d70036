//! [`Deck`] and [`Deal`]: distinct cards checked once, then dealt onto hands by loops that need
//! no repeated-card test (enumerations of boards, run-outs or every hand), or drawn at random
//! as [`SevenCards`].

use super::{
    card_bit, card_set, set_cards, CardEntry, EvalError, HandKey, HandStrength, SevenCards,
};
use crate::card::Card;

/// Distinct cards to deal from, in a fixed order, checked once when the deck is made.
///
/// A [`Deal`] from a deck adds the deck's cards in order, each after the one before, so a hand
/// dealt from it holds every card at most once by construction: nested loops over
/// [`Deal::one_more`] add each card with one addition and no test (a hand built with
/// `HandKey + Card` tests every card it adds, since it cannot know where the card came from).
///
/// Every seven-card hand, one card per loop level:
///
/// ```
/// use shared::eval::Deck;
///
/// let deck = Deck::full();
/// let mut hands = 0u64;
/// for one in deck.deal().one_more() {
///     for two in one.one_more() {
///         for three in two.one_more() {
///             for four in three.one_more() {
///                 for five in four.one_more() {
///                     // (stop at five cards here to keep the example quick)
///                     assert!(five.strength().is_ok());
///                     hands += 1;
///                 }
///             }
///         }
///     }
/// }
/// assert_eq!(hands, 2_598_960);
/// ```
///
/// The river's every possible card onto our hand and a turn board:
///
/// ```
/// use shared::card::parse_cards;
/// use shared::eval::{Deck, HandKey};
///
/// let known = parse_cards("Ah Kh Qh Jh 2c 7d").unwrap(); // hole cards and the turn's board
/// let hand = HandKey::from_cards(&known).unwrap();
/// let deck = Deck::full().without(&known);
/// let royal = deck
///     .deal_onto(hand)
///     .unwrap()
///     .one_more()
///     .filter(|river| river.strength().unwrap().index() == 7462)
///     .count();
/// assert_eq!(royal, 1); // only the ten of hearts
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deck {
    /// Each card's key and bit, in deck order: what a deal adds.
    entries: Vec<CardEntry>,
    /// The cards themselves, in the same order.
    cards: Vec<Card>,
    /// The set of all of them, for [`Deck::deal_onto`]'s one test.
    set: u64,
}

impl Deck {
    /// A deck of `cards`, in that order.
    ///
    /// # Errors
    /// [`EvalError::DuplicateCard`] when a card comes twice.
    pub fn new(cards: &[Card]) -> Result<Deck, EvalError> {
        let set = card_set(cards)?;
        Ok(Deck {
            entries: cards.iter().map(|&card| CardEntry::of(card)).collect(),
            cards: cards.to_vec(),
            set,
        })
    }

    /// All 52 cards, in [`Card::deck`] order.
    pub fn full() -> Deck {
        let cards: Vec<Card> = Card::deck().collect();
        Deck {
            entries: cards.iter().map(|&card| CardEntry::of(card)).collect(),
            set: cards.iter().fold(0, |set, &card| set | card_bit(card)),
            cards,
        }
    }

    /// This deck without any of `cards` (the cards already dealt, seen or dead), in the same
    /// order. Cards that are not in the deck, or come twice in `cards`, are ignored.
    pub fn without(&self, cards: &[Card]) -> Deck {
        let removed = cards.iter().fold(0, |set, &card| set | card_bit(card));
        let keep = |&(entry, _): &(&CardEntry, &Card)| entry.bit & removed == 0;
        let (entries, cards): (Vec<CardEntry>, Vec<Card>) = self
            .entries
            .iter()
            .zip(&self.cards)
            .filter(keep)
            .map(|(&entry, &card)| (entry, card))
            .unzip();
        Deck {
            entries,
            cards,
            set: self.set & !removed,
        }
    }

    /// How many cards the deck holds.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether the deck holds no card.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The cards, in deck order.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// Whether `card` is in the deck.
    pub fn contains(&self, card: Card) -> bool {
        self.set & card_bit(card) != 0
    }

    /// Seven cards drawn at random, with no repeated-card test (the deck's cards are
    /// distinct): a partial Fisher–Yates shuffle makes the deck's first seven positions a
    /// uniform random sample, in random order, and the deck keeps its new order, as a shuffled
    /// deck does (drawing again from it is as random). `random_below(n)` is the caller's
    /// generator: a uniform position below `n` (a larger answer is taken modulo `n`). `None`
    /// when the deck holds fewer than seven cards.
    ///
    /// ```
    /// use shared::eval::Deck;
    ///
    /// // Any generator will do; a bot would use its `rand` generator's `random_range(0..n)`.
    /// let mut state = 7u64;
    /// let mut random_below = |n: usize| {
    ///     state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    ///     (state >> 33) as usize % n
    /// };
    /// let mut deck = Deck::full();
    /// let hand = deck.draw_seven(&mut random_below).unwrap();
    /// assert_eq!(&hand.cards()[..], &deck.cards()[..7]);
    /// assert!(hand.strength() >= shared::eval::HandStrength::WEAKEST);
    /// ```
    pub fn draw_seven(
        &mut self,
        mut random_below: impl FnMut(usize) -> usize,
    ) -> Option<SevenCards> {
        let len = self.cards.len();
        if len < 7 {
            return None;
        }
        for position in 0..7 {
            let other = position + random_below(len - position) % (len - position);
            self.cards.swap(position, other);
            self.entries.swap(position, other);
        }
        let first: &[Card; 7] = self.cards.first_chunk()?;
        Some(SevenCards::from_distinct(*first))
    }

    /// A deal from this deck onto an empty hand: [`Deal::one_more`] then deals its first card.
    pub fn deal(&self) -> Deal<'_> {
        Deal {
            hand: HandKey::EMPTY,
            rest: self.entries.iter(),
        }
    }

    /// A deal from this deck onto `hand` (cards known already: hole cards, a board).
    ///
    /// # Errors
    /// [`EvalError::DuplicateCard`] when a card of `hand` is in the deck (make the deck with
    /// [`Deck::without`] those cards); it names the first such card in [`Card::index`] order.
    pub fn deal_onto(&self, hand: HandKey) -> Result<Deal<'_>, EvalError> {
        match set_cards(hand.mask & self.set).next() {
            Some(card) => Err(EvalError::DuplicateCard(card)),
            None => Ok(Deal {
                hand,
                rest: self.entries.iter(),
            }),
        }
    }
}

/// A hand dealt from a [`Deck`], and the deck's cards after the last one dealt (those that may
/// still come, so that each set of cards is dealt once).
///
/// Never holds a card twice: its cards come from a deck of distinct cards, each at most once,
/// and none of them was in the hand it was dealt onto.
#[derive(Debug, Clone)]
pub struct Deal<'a> {
    hand: HandKey,
    /// The deck's cards after the last one dealt; none of them is in `hand`. An iterator, not
    /// a slice: a slice iterator is a pointer and the deck's end, which every nested deal
    /// shares, so that nested loops keep one register a level for it, not two.
    rest: std::slice::Iter<'a, CardEntry>,
}

impl<'a> Deal<'a> {
    /// The hand dealt so far.
    #[inline(always)]
    pub fn hand(&self) -> HandKey {
        self.hand
    }

    /// The strength of the hand dealt so far; see [`HandKey::strength`].
    ///
    /// # Errors
    /// [`EvalError::CardCount`] unless the hand holds five, six or seven cards.
    #[inline(always)]
    pub fn strength(&self) -> Result<HandStrength, EvalError> {
        self.hand.strength()
    }

    /// How many cards may still be dealt: the deck's cards after the last one dealt.
    pub fn cards_left(&self) -> usize {
        self.rest.len()
    }

    /// Every way to deal one more card, in deck order: the hand plus each card still to come,
    /// each with the cards after that one. Nested, the loops visit every set of cards once.
    #[inline(always)]
    pub fn one_more(&self) -> impl Iterator<Item = Deal<'a>> {
        let hand = self.hand;
        let mut rest = self.rest.clone();
        std::iter::from_fn(move || {
            let &entry = rest.next()?;
            // Distinct by construction: `entry` is not in `hand` (see `rest`), and neither is
            // any card after it.
            Some(Deal {
                hand: hand.add_entry_unchecked(entry),
                rest: rest.clone(),
            })
        })
    }
}
