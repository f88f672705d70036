//! The engine's own state: the table as the rules see it, apart from any `game_state`
//! document.
//!
//! Every field always has a value (no wire-format `Option`s) and every seat's hole cards are
//! simply stored with the seat; who may see them is decided only when a document is
//! rendered ([`super::view`]).

use shared::{Card, Chips, PlayerStatus, Seat};

/// A seat's hole cards this hand: none, or the cards dealt so far (at most two).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HoleCards {
    cards: [Card; 2],
    dealt: u8,
}

impl HoleCards {
    /// No cards.
    pub(crate) const EMPTY: HoleCards = HoleCards {
        cards: [Card::new(shared::Rank::Two, shared::Suit::Spades); 2],
        dealt: 0,
    };

    /// The cards dealt so far.
    pub(crate) fn as_slice(&self) -> &[Card] {
        &self.cards[..usize::from(self.dealt)]
    }

    /// Gives the seat one more card (a third card is ignored: no hand deals one).
    pub(crate) fn deal(&mut self, card: Card) {
        if let Some(slot) = self.cards.get_mut(usize::from(self.dealt)) {
            *slot = card;
            self.dealt += 1;
        }
    }

    /// Both cards, once both are dealt.
    pub(crate) fn pair(&self) -> Option<[Card; 2]> {
        (self.dealt == 2).then_some(self.cards)
    }
}

/// One seat: the player and what it has in this hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SeatState {
    /// The player's name.
    pub name: String,
    /// Chips behind (not in the pot).
    pub stack: Chips,
    /// Chips put in this hand.
    pub bet: Chips,
    /// Active, folded or out.
    pub status: PlayerStatus,
    /// The cards dealt to the seat this hand.
    pub hole_cards: HoleCards,
    /// The player's answer to `version`.
    pub version: String,
    /// Cumulative response time in this game, in microseconds.
    pub time_used: u64,
    /// Chips received from the pot(s) this hand.
    pub amount_won: Chips,
}

impl SeatState {
    /// A player sitting down with `stack` chips.
    pub(crate) fn new(name: String, stack: Chips, version: &str) -> SeatState {
        SeatState {
            name,
            stack,
            bet: Chips::ZERO,
            status: if stack.is_zero() {
                PlayerStatus::Out
            } else {
                PlayerStatus::Active
            },
            hole_cards: HoleCards::EMPTY,
            version: version.to_string(),
            time_used: 0,
            amount_won: Chips::ZERO,
        }
    }

    /// Chips behind and in the pot.
    pub(crate) fn total_chips(&self) -> Chips {
        self.stack.saturating_add(self.bet)
    }

    /// Active with chips behind: could still be asked to bet.
    pub(crate) fn can_act(&self) -> bool {
        self.status == PlayerStatus::Active && !self.stack.is_zero()
    }
}

/// The table: seats, board and the chips in the middle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Table {
    /// The tournament's id (24 hex digits).
    pub tournament_id: String,
    /// This game's id (24 hex digits).
    pub game_id: String,
    /// Every seat, in seat order.
    pub seats: Vec<SeatState>,
    /// The community cards dealt so far.
    pub board: Vec<Card>,
    /// The sum of all bets.
    pub pot: Chips,
    /// The largest bet.
    pub current_buy_in: Chips,
}

impl Table {
    /// The seat at `seat` (callers pass seats of this table).
    pub(crate) fn seat(&self, seat: Seat) -> &SeatState {
        &self.seats[seat.index()]
    }

    /// The seat at `seat`, to change it.
    pub(crate) fn seat_mut(&mut self, seat: Seat) -> &mut SeatState {
        &mut self.seats[seat.index()]
    }
}
