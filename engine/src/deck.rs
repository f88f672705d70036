//! Each hand's cards: a pure function of the deal seed and the hand number, laid out by seat
//! position (spec §3: a fresh shuffled deck each hand, no burn cards).
//!
//! # Layout
//!
//! A hand deals from [`cards_per_hand`]`(n) = 2n + 5` cards, `n` the seats at the table:
//! seat `s` holds cards `2s` and `2s + 1` (its first and second hole card), and the board is
//! cards `2n` to `2n + 4` (flop, turn, river). A seat that is out (busted, banned, sitting out)
//! is skipped but keeps its slice, and a board that is not dealt out stays unused, so a bust
//! never moves a card from one seat to another: the rotations of a duplicate deal set give
//! seat `s` the same cards in hand `h` whoever sits there and whoever has busted.
//!
//! # Sources
//!
//! [`DeckSource::Seeded`] draws hand `h`'s cards with a ChaCha8 generator keyed by 32 bytes of
//! stream 5 of the game seed's generator and set to stream `h` (a partial Fisher–Yates shuffle
//! of a fresh deck in index order, `rand`'s `partial_shuffle`): no hand's cards depend on how
//! many cards another hand used. [`DeckSource::Recorded`] deals from a recorded list
//! ([`RecordedDecks`], `decks.jsonl`), and the game ends ([`crate::game_event::GameEndReason::DecksRanOut`])
//! when a hand has no recorded deck.

use super::Game;
use rand::seq::SliceRandom;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shared::{Card, Seat};
use std::sync::Arc;
use thiserror::Error;

/// Cards a hand at a table of `seats` seats deals from: two per seat and five for the board.
pub const fn cards_per_hand(seats: usize) -> usize {
    2 * seats + 5
}

/// Where each hand's cards come from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum DeckSource {
    /// Drawn from the game seed and the hand number (see the [module docs](self)).
    #[default]
    Seeded,
    /// Read from a recorded list, one deck per hand number.
    Recorded(Arc<RecordedDecks>),
}

/// Decks recorded per hand (`decks.jsonl`), checked: consecutive hand numbers, every card at
/// most once per deck.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedDecks {
    first_hand: u64,
    decks: Vec<Vec<Card>>,
}

/// Why recorded decks cannot be dealt from.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DeckError {
    /// No deck at all.
    #[error("no deck is recorded")]
    Empty,
    /// A hand number that does not follow the one before.
    #[error("hand {hand} follows hand {previous}; the hands must be consecutive")]
    NotConsecutive {
        /// The hand before.
        previous: u64,
        /// The hand found.
        hand: u64,
    },
    /// A card twice in one deck.
    #[error("hand {hand}: card {card} appears more than once")]
    DuplicateCard {
        /// The hand.
        hand: u64,
        /// The card.
        card: Card,
    },
    /// Fewer cards than the table deals from.
    #[error("hand {hand}: {cards} cards recorded, a table of {seats} seats deals from {needed}")]
    TooFewCards {
        /// The hand.
        hand: u64,
        /// Cards recorded.
        cards: usize,
        /// Seats at the table.
        seats: usize,
        /// Cards needed ([`cards_per_hand`]).
        needed: usize,
    },
}

impl RecordedDecks {
    /// Checks `(hand number, deck)` pairs, in order: hand numbers consecutive, no card twice
    /// in a deck. The number of cards is checked against a table by
    /// [`RecordedDecks::check_table`] (a deck may hold more cards than a hand uses, e.g. all 52).
    ///
    /// # Errors
    /// A [`DeckError`] naming the hand.
    pub fn new(decks: Vec<(u64, Vec<Card>)>) -> Result<RecordedDecks, DeckError> {
        let first_hand = decks.first().ok_or(DeckError::Empty)?.0;
        let mut previous: Option<u64> = None;
        let mut checked = Vec::with_capacity(decks.len());
        for (hand, deck) in decks {
            if let Some(previous) = previous {
                if previous.checked_add(1) != Some(hand) {
                    return Err(DeckError::NotConsecutive { previous, hand });
                }
            }
            let mut seen = 0u64;
            for card in &deck {
                if seen & (1 << card.index()) != 0 {
                    return Err(DeckError::DuplicateCard { hand, card: *card });
                }
                seen |= 1 << card.index();
            }
            previous = Some(hand);
            checked.push(deck);
        }
        Ok(RecordedDecks {
            first_hand,
            decks: checked,
        })
    }

    /// Whether every deck holds the [`cards_per_hand`] a table of `seats` seats deals from.
    ///
    /// # Errors
    /// [`DeckError::TooFewCards`] for the first deck that is too short.
    pub fn check_table(&self, seats: usize) -> Result<(), DeckError> {
        let needed = cards_per_hand(seats);
        for (hand, deck) in self.hands() {
            if deck.len() < needed {
                return Err(DeckError::TooFewCards {
                    hand,
                    cards: deck.len(),
                    seats,
                    needed,
                });
            }
        }
        Ok(())
    }

    /// The deck of `hand`, if recorded.
    pub fn deck(&self, hand: u64) -> Option<&[Card]> {
        let index = usize::try_from(hand.checked_sub(self.first_hand)?).ok()?;
        self.decks.get(index).map(Vec::as_slice)
    }

    /// `(hand number, deck)` in order.
    pub fn hands(&self) -> impl Iterator<Item = (u64, &[Card])> + '_ {
        (self.first_hand..).zip(self.decks.iter().map(Vec::as_slice))
    }

    /// How many hands are recorded.
    pub fn len(&self) -> usize {
        self.decks.len()
    }

    /// Whether no hand is recorded (never, for a checked list).
    pub fn is_empty(&self) -> bool {
        self.decks.is_empty()
    }
}

/// A game's source of decks, with the key of its seeded decks.
#[derive(Debug, Clone)]
pub(super) struct Dealer {
    key: <ChaCha8Rng as SeedableRng>::Seed,
    source: DeckSource,
    /// A deck in index order, copied whole before each shuffle: walking `Card::deck()`
    /// card by card cost a sixth of the engine bench's dealing.
    fresh: [Card; 52],
}

impl Dealer {
    /// The decks of the game seeded with `seed`, from `source`.
    pub(super) fn new(seed: u64, source: DeckSource) -> Dealer {
        // Stream 5: streams 0 to 4 of the seed draw the first button, ids and seatings.
        let mut keys = ChaCha8Rng::seed_from_u64(seed);
        keys.set_stream(5);
        let mut key = <ChaCha8Rng as SeedableRng>::Seed::default();
        keys.fill_bytes(&mut key);
        Dealer {
            key,
            source,
            fresh: fresh_deck(),
        }
    }

    /// Lays out hand `hand`'s cards for a table of `seats` seats in `deck`; `false` when the
    /// source has no deck for it.
    pub(super) fn deal(&self, hand: u64, seats: usize, deck: &mut HandDeck) -> bool {
        let needed = cards_per_hand(seats);
        deck.seats = seats;
        deck.start = deck.cards.len() - needed;
        match &self.source {
            DeckSource::Seeded => {
                deck.cards = self.fresh;
                let mut rng = ChaCha8Rng::from_seed(self.key);
                rng.set_stream(hand);
                deck.cards.partial_shuffle(&mut rng, needed);
                true
            }
            DeckSource::Recorded(decks) => {
                let Some(recorded) = decks.deck(hand).and_then(|d| d.get(..needed)) else {
                    return false;
                };
                // The hand's cards at the end, in recorded order; the rest before them in
                // index order, where a preset deal can fetch its cards from.
                let used = recorded.iter().fold(0u64, |set, c| set | 1 << c.index());
                let rest = Card::deck().filter(|card| used & (1 << card.index()) == 0);
                for (slot, card) in deck
                    .cards
                    .iter_mut()
                    .zip(rest.chain(recorded.iter().copied()))
                {
                    *slot = card;
                }
                true
            }
        }
    }
}

/// One hand's cards: `cards[start..]` in the layout of the [module docs](self).
#[derive(Debug, Clone)]
pub(super) struct HandDeck {
    cards: [Card; 52],
    start: usize,
    seats: usize,
}

/// The 52 cards in [`Card::index`] order.
fn fresh_deck() -> [Card; 52] {
    let mut cards = [Card::new(shared::Rank::Two, shared::Suit::Spades); 52];
    for (slot, card) in cards.iter_mut().zip(Card::deck()) {
        *slot = card;
    }
    cards
}

impl Default for HandDeck {
    fn default() -> HandDeck {
        let cards = fresh_deck();
        // Nothing dealt yet: no hand's cards.
        HandDeck {
            start: cards.len(),
            cards,
            seats: 0,
        }
    }
}

impl HandDeck {
    /// Where in `cards` seat `seat`'s hole card `which` (0 or 1) is.
    fn hole_position(&self, seat: Seat, which: usize) -> usize {
        self.start + 2 * seat.index() + which
    }

    /// Where in `cards` board card `index` (0 to 4) is.
    fn board_position(&self, index: usize) -> usize {
        self.start + 2 * self.seats + index
    }

    /// Seat `seat`'s hole card `which` (0 or 1).
    pub(super) fn hole_card(&self, seat: Seat, which: usize) -> Card {
        self.cards[self.hole_position(seat, which)]
    }

    /// Board card `index` (0 to 4).
    pub(super) fn board_card(&self, index: usize) -> Card {
        self.cards[self.board_position(index)]
    }

    /// The hand's cards in layout order.
    pub(super) fn as_slice(&self) -> &[Card] {
        &self.cards[self.start..]
    }

    /// Moves `card` to seat `seat`'s hole card `which` (ignored for a seat off the table).
    pub(super) fn place_hole_card(&mut self, seat: Seat, which: usize, card: Card) {
        if seat.index() < self.seats {
            self.place(self.hole_position(seat, which), card);
        }
    }

    /// Moves `card` to board card `index` (ignored past the river).
    pub(super) fn place_board_card(&mut self, index: usize, card: Card) {
        if index < 5 {
            self.place(self.board_position(index), card);
        }
    }

    /// Swaps `card` into `position`: the card that was there takes `card`'s old place.
    fn place(&mut self, position: usize, card: Card) {
        if let Some(current) = self.cards.iter().position(|c| *c == card) {
            self.cards.swap(current, position);
        }
    }
}

impl Game {
    /// The current (or last) hand's cards in the order of the [deck layout](self): two per
    /// seat in seat order (out seats included), then five for the board. What `decks.jsonl`
    /// records; empty before the first hand.
    pub fn hand_deck(&self) -> &[Card] {
        self.hand.deck.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dealt(dealer: &Dealer, hand: u64, seats: usize) -> Option<Vec<Card>> {
        let mut deck = HandDeck::default();
        dealer
            .deal(hand, seats, &mut deck)
            .then(|| deck.as_slice().to_vec())
    }

    #[test]
    fn a_hands_cards_depend_only_on_the_seed_and_the_hand_number() {
        let dealer = Dealer::new(7, DeckSource::Seeded);
        let hand_3 = dealt(&dealer, 3, 6).unwrap();
        assert_eq!(hand_3.len(), cards_per_hand(6));
        let mut distinct = hand_3.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), hand_3.len());
        // Dealing other hands first, or in another order, changes nothing.
        let again = Dealer::new(7, DeckSource::Seeded);
        assert_ne!(dealt(&again, 4, 6).unwrap(), hand_3);
        assert_eq!(dealt(&again, 3, 6).unwrap(), hand_3);
        assert_ne!(
            dealt(&Dealer::new(8, DeckSource::Seeded), 3, 6),
            Some(hand_3)
        );
    }

    #[test]
    fn recorded_decks_are_dealt_as_recorded_and_run_out() {
        let deck: Vec<Card> = Card::deck().skip(40).take(9).collect();
        let decks = RecordedDecks::new(vec![(0, deck.clone()), (1, deck.clone())]).unwrap();
        let dealer = Dealer::new(1, DeckSource::Recorded(Arc::new(decks)));
        assert_eq!(dealt(&dealer, 1, 2).unwrap(), deck);
        assert_eq!(dealt(&dealer, 2, 2), None, "no deck for hand 2");
        assert_eq!(dealt(&dealer, 0, 3), None, "too few cards for 3 seats");
    }

    #[test]
    fn bad_recorded_decks_are_refused() {
        let deck: Vec<Card> = Card::deck().take(9).collect();
        assert_eq!(RecordedDecks::new(vec![]), Err(DeckError::Empty));
        assert_eq!(
            RecordedDecks::new(vec![(0, deck.clone()), (2, deck.clone())]),
            Err(DeckError::NotConsecutive {
                previous: 0,
                hand: 2
            })
        );
        let mut twice = deck.clone();
        twice[8] = twice[0];
        assert_eq!(
            RecordedDecks::new(vec![(5, twice.clone())]),
            Err(DeckError::DuplicateCard {
                hand: 5,
                card: twice[0]
            })
        );
        let decks = RecordedDecks::new(vec![(5, deck)]).unwrap();
        assert_eq!(decks.check_table(2), Ok(()));
        assert_eq!(
            decks.check_table(3),
            Err(DeckError::TooFewCards {
                hand: 5,
                cards: 9,
                seats: 3,
                needed: 11
            })
        );
        assert_eq!(decks.deck(4), None);
        assert_eq!(decks.deck(5).map(<[Card]>::len), Some(9));
    }

    #[test]
    fn preset_cards_are_swapped_into_place() {
        let dealer = Dealer::new(3, DeckSource::Seeded);
        let mut deck = HandDeck::default();
        assert!(dealer.deal(0, 2, &mut deck));
        let ace: Card = "As".parse().unwrap();
        deck.place_hole_card(Seat(1), 0, ace);
        deck.place_board_card(4, "Kd".parse().unwrap());
        assert_eq!(deck.hole_card(Seat(1), 0), ace);
        assert_eq!(deck.board_card(4), "Kd".parse().unwrap());
        let mut all = deck.cards.to_vec();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 52, "still one deck");
    }
}
