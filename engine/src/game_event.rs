//! [`GameEvent`]: what happened in a sit'n'go, the one stream every output observes.
//!
//! The engine emits events one at a time through [`crate::Step::Event`]; when an event
//! comes out, the engine's state already reflects it (so an observer can snapshot
//! [`crate::Game::viewer_state`] for the viewer log). The events are designed so that
//! each output can be written from them alone:
//!
//! - the viewer log (spec §8): per-card deals, bets with the numbers of the message
//!   (`NAME made a bet of N (action) and is left with S chips. The pot now contains P chips.`),
//!   reveals with the hand description, winner announcements (`NAME won N`);
//! - PHH hand histories: starting stacks and blinds ([`GameEvent::HandStarted`],
//!   [`GameEvent::BlindPosted`]), hole cards per seat, every action with the "raise to" total of
//!   the street ([`GameEvent::BetPlaced::street_bet_after`]), the board per street, showdown
//!   reveals, finishing stacks and winnings ([`GameEvent::HandEnded`]);
//! - results: bans, eliminations with places, the final ranking.
//!
//! Events are serde-serialisable (internally tagged: `{"event":"bet_placed",...}`) and small
//! (the frequent ones carry no heap data), because every event is moved out of
//! [`crate::Game::step`]; per-seat lists are [`SeatList`]s.

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use shared::eval::HandStrength;
use shared::{BetAction, Card, Chips, Seat, Street};
use std::fmt;
use std::ops::{Deref, DerefMut};

/// The most seats a table can have (the engine rejects larger setups).
pub const MAX_SEATS: usize = 10;

/// Something that happened. See the module docs for who reads what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
// A whole word for the variant tag: with a one-byte tag the compiler packed small fields
// (street, card, action) into the tag's word, and moving a just-built event read that word
// back while its bytes were still being stored (a stall the engine bench paid per event: 7%
// of its time). Each variant is then laid out in declaration order, 112 bytes at most.
#[repr(u64)]
pub enum GameEvent {
    /// The sit'n'go begins. Always the first event.
    GameStarted {
        /// 24 hex digits.
        tournament_id: String,
        /// 24 hex digits.
        game_id: String,
        /// The seed all randomness of this game comes from.
        seed: u64,
        /// Player names in seat order (seat `i` is `players[i]`).
        players: Vec<String>,
        /// Chips each player starts with.
        starting_stack: Chips,
        /// The first button, a random seat drawn from the seed (spec §7).
        first_button: Seat,
    },
    /// A hand begins: `round` is set, the board and bets are cleared, nobody holds cards yet.
    HandStarted {
        /// Hand number within the sit'n'go, from 0.
        round: u64,
        /// The button.
        button: Seat,
        /// This hand's small blind.
        small_blind: Chips,
        /// This hand's big blind (twice the small blind).
        big_blind: Chips,
        /// First seat after the button with chips (heads-up: the player who is not the button).
        small_blind_seat: Seat,
        /// The next seat with chips after the small blind (heads-up: the button).
        big_blind_seat: Seat,
        /// Every seat's stack before the blinds (0 for players who are out).
        stacks: SeatList<Chips>,
    },
    /// One hole card dealt face down; two rounds, starting at the small-blind seat, only to
    /// players with chips (spec §3).
    HoleCardDealt {
        /// Who receives it.
        seat: Seat,
        /// The card (only the receiver and the viewer log may see it).
        card: Card,
    },
    /// A blind posted automatically (never asked over HTTP).
    BlindPosted {
        /// Who posted it.
        seat: Seat,
        /// Small or big.
        blind: Blind,
        /// Chips put in: the blind, or the whole stack when it cannot cover it.
        amount: Chips,
        /// Whether that emptied the stack.
        all_in: bool,
        /// The pot after posting.
        pot_after: Chips,
    },
    /// An answer to `bet_request` applied by the bet-reading rule (spec §4), or a forgiven
    /// invalid answer counted as a check or fold (then `answer` is `None`).
    BetPlaced {
        /// The player who answered.
        seat: Seat,
        /// The street of the request.
        street: Street,
        /// `bet_index` of the request (spec §3).
        bet_index: u64,
        /// The number the player answered; `None` for a forgiven invalid answer.
        answer: Option<Chips>,
        /// How the answer was read.
        action: BetAction,
        /// Chips moved from the stack into the bet.
        put_in: Chips,
        /// The player's `bet` afterwards (a total for the whole hand).
        bet_after: Chips,
        /// Chips the player has put in on this street afterwards: the "raise to" amount of
        /// hand-history formats that count bets per street.
        street_bet_after: Chips,
        /// The player's stack afterwards.
        stack_after: Chips,
        /// The pot afterwards.
        pot_after: Chips,
        /// `current_buy_in` afterwards.
        current_buy_in_after: Chips,
        /// `minimum_raise` afterwards: `max(minimum_raise, raise_by)`.
        minimum_raise_after: Chips,
    },
    /// An invalid answer in forgiving mode; a [`GameEvent::BetPlaced`] with `answer: None`
    /// follows.
    AnswerForgiven {
        /// The player.
        seat: Seat,
        /// The hand.
        round: u64,
        /// Why the answer was invalid, as the seat reported it.
        reason: String,
        /// Check when nothing was owed, else fold.
        counted_as: BetAction,
    },
    /// An invalid answer in ban mode (spec §6): the player's stack and bet leave the game and
    /// the player is out. A [`GameEvent::PlayerEliminated`] follows at once.
    Banned {
        /// The player.
        seat: Seat,
        /// The hand.
        round: u64,
        /// Why the answer was invalid, as the seat reported it.
        reason: String,
        /// Stack plus bet removed from the game.
        chips_removed: Chips,
        /// The pot afterwards.
        pot_after: Chips,
    },
    /// One community card; also for a board dealt out after an early end.
    CommunityCardDealt {
        /// The street this card belongs to (flop for the first three).
        street: Street,
        /// The card.
        card: Card,
    },
    /// A hand shown at showdown (spec §5: examined from the last aggressor, shown when no
    /// better hand was seen before it in that examination). Once per seat and hand.
    HandRevealed {
        /// Whose hand.
        seat: Seat,
        /// The two hole cards.
        cards: [Card; 2],
        /// The five cards that make the hand (of the hole cards and the board; among cards
        /// of equal rank, the evaluator's choice), so observers need not evaluate again.
        best_five: [Card; 5],
        /// How strong the hand is (its [`category`](HandStrength::category) is the kind of
        /// hand made with the board) (serialised as its index, 1 to 7462); its
        /// [`description`](HandStrength::description) (`a pair of aces`) is written by the
        /// observers that show one, so the engine allocates nothing for a reveal.
        strength: HandStrength,
    },
    /// One pot of the spec §5 loop paid out: every player's remaining bet contributed up to
    /// `level`, and the best hand(s) among `eligible` share it. A pot with a single eligible
    /// player is uncontested (an uncalled bet coming back counts as one).
    PotAwarded {
        /// Chips in this pot.
        amount: Chips,
        /// Each player's remaining bet contributed at most this much.
        level: Chips,
        /// Players still in the hand who had chips in it, in examination order.
        eligible: SeatList<Seat>,
        /// Who received how much, in seat order starting left of the button.
        shares: SeatList<PotShare>,
        /// Chips that left the game under [`crate::rules::OddChipRule::DiscardLikeOss`]
        /// (always 0 under the default rule).
        discarded: Chips,
    },
    /// Chips in the pot that no player still in the hand could win (only possible after a
    /// ban or a forgiven answer removed the last contender of that level) go back to their
    /// owner, so no chip is lost.
    ChipsReturned {
        /// The owner.
        seat: Seat,
        /// Chips returned.
        amount: Chips,
    },
    /// The hand is over and paid; the showdown state is ready.
    HandEnded {
        /// The hand.
        round: u64,
        /// Chips each seat received from the pot(s) this hand (gross; the `amount_won` field).
        amount_won: SeatList<Chips>,
        /// Every seat's stack after the hand.
        stacks: SeatList<Chips>,
    },
    /// A player is out of the sit'n'go: busted in a hand, or banned.
    PlayerEliminated {
        /// The player.
        seat: Seat,
        /// The hand it happened in.
        round: u64,
        /// Final place (1 is the winner): players are ranked in reverse order of elimination.
        place: usize,
        /// Busted or banned.
        reason: EliminationReason,
    },
    /// The sit'n'go is over; [`crate::Game::result`] is ready.
    GameEnded {
        /// Why it ended.
        reason: GameEndReason,
        /// Seats, first place first.
        ranking: SeatList<Seat>,
    },
}

/// Which blind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Blind {
    /// The small blind.
    Small,
    /// The big blind.
    Big,
}

/// A winner's part of a pot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PotShare {
    /// The winner.
    pub seat: Seat,
    /// Chips received.
    pub amount: Chips,
}

/// Why a player left the sit'n'go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EliminationReason {
    /// Lost every chip in a hand.
    Busted,
    /// Banned for an invalid answer (spec §6).
    Banned,
}

/// Why a sit'n'go ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameEndReason {
    /// Fewer than two players have chips.
    LastPlayerStanding,
    /// The configured hand limit was reached; survivors are ranked by chips.
    HandLimit,
    /// The recorded decks the game deals from ([`crate::DeckSource::Recorded`]) have
    /// no deck for the next hand; survivors are ranked by chips, as at a hand limit.
    DecksRanOut,
}

/// A list of at most [`MAX_SEATS`] items, used for per-seat values and lists of seats in
/// events. Reads like a slice; serialises as a JSON array; deserialising rejects more than
/// [`MAX_SEATS`] items.
///
/// ```
/// use engine::game_event::SeatList;
/// use shared::Chips;
/// let mut stacks = SeatList::new();
/// stacks.push(Chips(990));
/// stacks.push(Chips(1010));
/// assert_eq!(stacks[1], Chips(1010));
/// assert_eq!(stacks.iter().copied().sum::<Chips>(), Chips(2000));
/// assert_eq!(serde_json::to_string(&stacks).unwrap(), "[990,1010]");
/// ```
// Heap-backed on purpose: an inline array of MAX_SEATS items made every event (and every
// `Step`) ~300 bytes, and copying those dominated the engine's time; the few lists per hand
// cost less as small allocations.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SeatList<T: Copy + Default> {
    items: Vec<T>,
}

impl<T: Copy + Default> SeatList<T> {
    /// An empty list.
    pub fn new() -> Self {
        SeatList { items: Vec::new() }
    }

    /// Appends an item; past [`MAX_SEATS`] items the item is dropped (the engine never has
    /// more items than seats, and it rejects tables larger than [`MAX_SEATS`]).
    pub fn push(&mut self, item: T) {
        let _ = self.try_push(item);
    }

    /// Appends an item, or gives it back when the list is full.
    ///
    /// # Errors
    /// The item, when the list already holds [`MAX_SEATS`] items.
    pub fn try_push(&mut self, item: T) -> Result<(), T> {
        if self.items.len() >= MAX_SEATS {
            return Err(item);
        }
        if self.items.capacity() == 0 {
            self.items.reserve_exact(MAX_SEATS);
        }
        self.items.push(item);
        Ok(())
    }

    /// A list of `len` copies of `value` (`len` capped at [`MAX_SEATS`]).
    pub fn filled(value: T, len: usize) -> Self {
        SeatList {
            items: vec![value; len.min(MAX_SEATS)],
        }
    }
}

impl<T: Copy + Default> Default for SeatList<T> {
    fn default() -> Self {
        SeatList::new()
    }
}

impl<T: Copy + Default> Deref for SeatList<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items
    }
}

impl<T: Copy + Default> DerefMut for SeatList<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items
    }
}

impl<T: Copy + Default + fmt::Debug> fmt::Debug for SeatList<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + Default> FromIterator<T> for SeatList<T> {
    /// Collects at most [`MAX_SEATS`] items; any further items are dropped.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        // Full capacity at once: per-seat lists are short, and regrowing costs more.
        let mut items = Vec::with_capacity(MAX_SEATS);
        items.extend(iter.into_iter().take(MAX_SEATS));
        SeatList { items }
    }
}

impl<'a, T: Copy + Default> IntoIterator for &'a SeatList<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy + Default> IntoIterator for SeatList<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<T: Copy + Default + Serialize> Serialize for SeatList<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de, T: Copy + Default + Deserialize<'de>> Deserialize<'de> for SeatList<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ListVisitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Copy + Default + Deserialize<'de>> Visitor<'de> for ListVisitor<T> {
            type Value = SeatList<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "an array of at most {MAX_SEATS} items")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SeatList<T>, A::Error> {
                let mut list = SeatList::new();
                while let Some(item) = seq.next_element()? {
                    list.try_push(item).map_err(|_| {
                        serde::de::Error::custom(format_args!(
                            "more than {MAX_SEATS} items in a per-seat list"
                        ))
                    })?;
                }
                Ok(list)
            }
        }
        deserializer.deserialize_seq(ListVisitor(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_list_round_trips_and_rejects_overflow() {
        let list: SeatList<Seat> = (0..4).map(Seat).collect();
        let json = serde_json::to_string(&list).unwrap();
        assert_eq!(json, "[0,1,2,3]");
        assert_eq!(serde_json::from_str::<SeatList<Seat>>(&json).unwrap(), list);
        let too_long = format!("[{}]", ["1"; MAX_SEATS + 1].join(","));
        assert!(serde_json::from_str::<SeatList<Chips>>(&too_long).is_err());
        let mut full = SeatList::filled(Chips(1), MAX_SEATS);
        assert_eq!(full.try_push(Chips(2)), Err(Chips(2)));
    }

    #[test]
    fn events_serialise_with_a_tag() {
        let event = GameEvent::HoleCardDealt {
            seat: Seat(3),
            card: "Ah".parse().unwrap(),
        };
        let json = serde_json::to_string(&event).unwrap();
        assert_eq!(
            json,
            r#"{"event":"hole_card_dealt","seat":3,"card":{"rank":"A","suit":"hearts"}}"#
        );
        assert_eq!(serde_json::from_str::<GameEvent>(&json).unwrap(), event);
    }
}
