//! Button, blinds and dealing (spec §3, §7).
//!
//! - The first button is a random seat drawn from the seed; then it moves to the next seat
//!   with chips.
//! - Small blind: the first seat after the button with chips; big blind: the next such seat.
//!   No heads-up exception: heads-up, the button posts the big blind. A player who cannot
//!   cover a blind posts everything left (all-in). Blinds are the first visits of preflop.
//! - A fresh shuffled deck each hand, no burn cards; hole cards one at a time, two rounds,
//!   starting at the small blind, only to players with chips; then the board. Which card goes
//!   where is fixed by seat position ([`super::deck`]): seat `s` gets its own two cards of
//!   the hand's deck and the board its own five, whoever is out.

use super::model::PutIn;
use super::{Game, Phase};
use crate::game_event::{Blind, GameEndReason, GameEvent, SeatList};
use shared::rules::{BetAction, BetReading};
use shared::{Chips, Seat, Street};

impl Game {
    /// The first seat after `from` (clockwise, `from` excluded) whose player has chips.
    pub(super) fn next_seat_with_chips(&self, from: Seat) -> Option<Seat> {
        (1..=self.seat_count)
            .map(|step| from.plus(step, self.seat_count))
            .find(|seat| !self.table.seat(*seat).total_chips().is_zero())
    }

    /// Visits from `from` to `to` going clockwise (0 when they are the same seat).
    pub(super) fn distance(&self, from: Seat, to: Seat) -> u64 {
        ((to.index() + self.seat_count - from.index()) % self.seat_count) as u64
    }

    /// Between hands: ends the game or sets up the next hand and emits `HandStarted`.
    pub(super) fn start_hand(&mut self) -> Option<crate::Step> {
        let with_chips = self
            .table
            .seats()
            .iter()
            .filter(|player| !player.total_chips().is_zero())
            .count();
        if with_chips < 2 {
            self.phase = Phase::EndGame(GameEndReason::LastPlayerStanding);
            return None;
        }
        if self
            .config
            .hand_limit
            .is_some_and(|limit| self.hands_played >= limit)
        {
            self.phase = Phase::EndGame(GameEndReason::HandLimit);
            return None;
        }
        let round = self.first_round + self.hands_played;
        if !self.decks.deal(round, self.seat_count, &mut self.hand.deck) {
            self.phase = Phase::EndGame(GameEndReason::DecksRanOut);
            return None;
        }
        let button = if self.hands_played == 0 {
            self.first_button
        } else {
            self.next_seat_with_chips(self.hand.button)
                .unwrap_or(self.hand.button)
        };
        let small_blind_seat = self.next_seat_with_chips(button).unwrap_or(button);
        let big_blind_seat = self
            .next_seat_with_chips(small_blind_seat)
            .unwrap_or(small_blind_seat);
        let small_blind = self.config.blinds.small_blind(round, self.seat_count);
        let hand = &mut self.hand;
        hand.round = round;
        hand.button = button;
        hand.small_blind_seat = small_blind_seat;
        hand.big_blind_seat = big_blind_seat;
        hand.small_blind = small_blind;
        hand.big_blind = small_blind * 2;
        hand.dealt_in = (0..self.seat_count)
            .map(|step| small_blind_seat.plus(step, self.seat_count))
            .filter(|seat| !self.table.seat(*seat).total_chips().is_zero())
            .collect();
        if let Some(preset) = self.preset.take() {
            self.place_preset_cards(&preset);
        }
        let stacks: SeatList<Chips> = self.table.seats().iter().map(|p| p.stack).collect();
        self.phase = Phase::DealHole(0);
        self.emit(GameEvent::HandStarted {
            round,
            button,
            small_blind,
            big_blind: small_blind * 2,
            small_blind_seat,
            big_blind_seat,
            stacks,
        })
    }

    /// Moves preset cards to the positions they are dealt from. Every hand's deck is drawn
    /// on its own, so a preset changes no other hand.
    fn place_preset_cards(&mut self, preset: &super::PresetDeal) {
        let deck = &mut self.hand.deck;
        for (seat, pair) in &preset.hole_cards {
            if self.hand.dealt_in.iter().any(|s| s == seat) {
                deck.place_hole_card(*seat, 0, pair[0]);
                deck.place_hole_card(*seat, 1, pair[1]);
            }
        }
        for (index, card) in preset.board.iter().enumerate() {
            deck.place_board_card(index, *card);
        }
    }

    /// Resets the document for the hand set up by `start_hand`.
    fn apply_hand_started(&mut self) {
        let in_hand = self.table.start_hand(self.hand.header());
        let hand = &mut self.hand;
        hand.in_hand = in_hand;
        hand.revealed = 0;
        hand.street = Street::Preflop;
        hand.visits = 0;
        hand.minimum_raise = hand.small_blind;
        hand.street_start_bets = [Chips::ZERO; crate::game_event::MAX_SEATS];
        hand.last_aggressor = None;
        let blinds_apart = self.distance(self.hand.small_blind_seat, self.hand.big_blind_seat);
        // The blinds are visits 0 and `blinds_apart`; the big blind's own turn is n visits
        // after its blind, so the street needs n + blinds_apart + 1 visits (n + 2 normally).
        self.hand.required_visits = self.seat_count as u64 + blinds_apart + 1;
    }

    /// Emits hole card number `index` of the deal, or moves on to the blinds.
    pub(super) fn deal_hole_card(&mut self, index: usize) -> Option<crate::Step> {
        let players = self.hand.dealt_in.len();
        if index >= 2 * players {
            self.phase = Phase::PostSmallBlind;
            return None;
        }
        let seat = self.hand.dealt_in[index % players];
        let card = self.hand.deck.hole_card(seat, index / players);
        self.phase = Phase::DealHole(index + 1);
        self.emit(GameEvent::HoleCardDealt { seat, card })
    }

    /// Emits a blind: the blind, or the whole stack when it cannot cover it.
    pub(super) fn post_blind(&mut self, blind: Blind) -> Option<crate::Step> {
        let (seat, nominal, next) = match blind {
            Blind::Small => (
                self.hand.small_blind_seat,
                self.hand.small_blind,
                Phase::PostBigBlind,
            ),
            Blind::Big => (
                self.hand.big_blind_seat,
                self.hand.big_blind,
                Phase::Betting,
            ),
        };
        let stack = self.table.seat(seat).stack;
        let amount = nominal.min(stack);
        self.phase = next;
        self.emit(GameEvent::BlindPosted {
            seat,
            blind,
            amount,
            all_in: amount == stack,
            pot_after: self.table.pot() + amount,
        })
    }

    /// A blind moves chips like a bet and updates `minimum_raise` and the last aggressor like
    /// any other action (spec §4, §5).
    fn apply_blind(&mut self, seat: Seat, blind: Blind, amount: Chips) {
        let context = self.bet_context(seat);
        let reading = BetReading {
            action: if amount == context.stack {
                BetAction::AllIn
            } else {
                BetAction::Raise
            },
            put_in: amount,
        };
        if reading.new_bet(&context) > context.current_buy_in {
            self.hand.last_aggressor = Some(seat);
        }
        self.table.put_in(
            seat,
            PutIn {
                stack: context.stack - amount,
                bet: context.bet + amount,
                status: self.table.seat(seat).status,
                pot: self.table.pot() + amount,
                current_buy_in: reading.new_current_buy_in(&context),
            },
        );
        self.hand.minimum_raise = reading.new_minimum_raise(&context);
        self.hand.visits = match blind {
            Blind::Small => 1,
            Blind::Big => self.distance(self.hand.small_blind_seat, seat) + 1,
        };
    }

    /// A street's betting is over (or there was none): deal the next street, or pay.
    pub(super) fn street_over(&mut self) {
        let board = self.table.board().len();
        let decided = self.hand.in_hand < 2;
        if board >= 5 || (decided && !self.config.deal_out_board) {
            self.settle();
            return;
        }
        let (street, left) = match board {
            0 => (Street::Flop, 3),
            3 => (Street::Turn, 1),
            _ => (Street::River, 1),
        };
        self.phase = Phase::DealBoard { street, left };
    }

    /// Emits one community card of `street`.
    pub(super) fn deal_board_card(&mut self, street: Street, left: u8) -> Option<crate::Step> {
        let card = self.hand.deck.board_card(self.table.board().len());
        self.phase = if left > 1 {
            Phase::DealBoard {
                street,
                left: left - 1,
            }
        } else {
            Phase::StreetDealt
        };
        self.emit(GameEvent::CommunityCardDealt { street, card })
    }

    /// A street's cards are out: bet when two players can still act, else move on.
    pub(super) fn street_dealt(&mut self) {
        let can_act = self
            .table
            .seats()
            .iter()
            .filter(|player| player.can_act())
            .count();
        if self.hand.in_hand >= 2 && can_act >= 2 {
            let street = Street::from_community_card_count(self.table.board().len())
                .unwrap_or(Street::River);
            self.start_street(street);
            self.phase = Phase::Betting;
        } else {
            self.phase = Phase::StreetOver;
        }
    }

    /// Applies a dealing event (see [`Game::apply`](super::Game)).
    pub(super) fn apply_dealing(&mut self, event: &GameEvent) {
        match event {
            GameEvent::HandStarted { .. } => self.apply_hand_started(),
            GameEvent::HoleCardDealt { seat, card } => self.table.deal_hole_card(*seat, *card),
            GameEvent::BlindPosted {
                seat,
                amount,
                blind,
                ..
            } => self.apply_blind(*seat, *blind, *amount),
            GameEvent::CommunityCardDealt { card, .. } => self.table.deal_board(*card),
            _ => {}
        }
    }
}
