//! Betting on a street (spec §3, §4, §6).
//!
//! Visits start at the small-blind seat on every street and go clockwise over every seat;
//! out, folded and all-in seats are skipped without a request but the visit counts
//! (`bet_index` is the number of visits before the current one). A street ends when every
//! player who can still act has `bet == current_buy_in` and enough visits were made (n
//! postflop; preflop see [`super`]); the hand ends at once when all but one player folded.
//! Answers are read by [`shared::rules::read_bet`], the one bet-reading rule.

use super::model::PutIn;
use super::{Game, Phase, Step};
use crate::game_event::GameEvent;
use crate::result::{BanRecord, WarningRecord};
use crate::rules::BadAnswerPolicy;
use shared::rules::{read_bet, BetAction, BetContext};
use shared::{Chips, PlayerStatus, Seat, Street};

impl Game {
    /// Starts the betting of a postflop street: visits from the small blind, `minimum_raise`
    /// back to the big blind, the last aggressor forgotten.
    pub(super) fn start_street(&mut self, street: Street) {
        let hand = &mut self.hand;
        hand.street = street;
        hand.visits = 0;
        hand.required_visits = self.seat_count as u64;
        hand.minimum_raise = hand.big_blind;
        hand.last_aggressor = None;
        for (start, player) in hand.street_start_bets.iter_mut().zip(self.table.seats()) {
            *start = player.bet;
        }
    }

    /// Visits seats until one must be asked, or the street is over.
    pub(super) fn next_visit(&mut self) -> Option<Step> {
        loop {
            if self.hand.in_hand < 2 {
                self.phase = Phase::StreetOver;
                return None;
            }
            if self.hand.visits >= self.hand.required_visits && self.everyone_matched() {
                self.phase = Phase::StreetOver;
                return None;
            }
            let offset = (self.hand.visits % self.seat_count as u64) as usize;
            let seat = self.hand.small_blind_seat.plus(offset, self.seat_count);
            if self.table.seat(seat).can_act() {
                return Some(self.open_bet_request(seat));
            }
            self.hand.visits += 1;
        }
    }

    /// Whether every player who can still act has matched `current_buy_in`.
    fn everyone_matched(&self) -> bool {
        let current_buy_in = self.table.current_buy_in();
        self.table
            .seats()
            .iter()
            .all(|player| !player.can_act() || player.bet == current_buy_in)
    }

    /// Shows the receiver its document (kept up to date by every change of the table) and
    /// waits for the answer.
    fn open_bet_request(&mut self, seat: Seat) -> Step {
        self.phase = Phase::AwaitingAnswer(seat);
        self.table
            .open_request(seat, self.hand.minimum_raise, self.hand.visits);
        Step::BetRequest { seat }
    }

    /// The betting situation of `seat` now (what [`shared::GameState::bet_context`] gives the
    /// same seat's bet-request document): the one place the engine builds it.
    pub(super) fn bet_context(&self, seat: Seat) -> BetContext {
        let player = self.table.seat(seat);
        BetContext {
            stack: player.stack,
            bet: player.bet,
            current_buy_in: self.table.current_buy_in(),
            minimum_raise: self.hand.minimum_raise,
        }
    }

    /// The event of a number answered by `seat`, read by the bet-reading rule (spec §4).
    pub(super) fn read_bet_answer(&self, seat: Seat, amount: Chips) -> GameEvent {
        let context = self.bet_context(seat);
        let reading = read_bet(&context, amount);
        self.bet_placed(seat, &context, Some(amount), reading)
    }

    /// Turns an invalid answer into events by the bad-answer policy (spec §6), queued and
    /// applied when `step` returns them.
    pub(super) fn read_invalid_answer(&mut self, seat: Seat, reason: String) {
        let context = self.bet_context(seat);
        match self.config.bad_answers {
            BadAnswerPolicy::Ban => {
                let chips_removed = context.stack.saturating_add(context.bet);
                // Ranked with the hand's busts when the hand ends (see `ranking`).
                self.queue.push_back(GameEvent::Banned {
                    seat,
                    round: self.hand.round,
                    reason,
                    chips_removed,
                    pot_after: self.table.pot().saturating_sub(context.bet),
                });
            }
            BadAnswerPolicy::Forgive => {
                let counted_as = if context.current_buy_in <= context.bet {
                    BetAction::Check
                } else {
                    BetAction::Fold
                };
                self.queue.push_back(GameEvent::AnswerForgiven {
                    seat,
                    round: self.hand.round,
                    reason,
                    counted_as,
                });
                let reading = shared::BetReading {
                    action: counted_as,
                    put_in: Chips::ZERO,
                };
                let event = self.bet_placed(seat, &context, None, reading);
                self.queue.push_back(event);
            }
        }
    }

    fn bet_placed(
        &self,
        seat: Seat,
        context: &BetContext,
        answer: Option<Chips>,
        reading: shared::BetReading,
    ) -> GameEvent {
        let bet_after = reading.new_bet(context);
        GameEvent::BetPlaced {
            seat,
            street: self.hand.street,
            bet_index: self.hand.visits,
            answer,
            action: reading.action,
            put_in: reading.put_in,
            bet_after,
            street_bet_after: bet_after.saturating_sub(self.hand.street_start_bets[seat.index()]),
            stack_after: context.stack - reading.put_in,
            pot_after: self.table.pot() + reading.put_in,
            current_buy_in_after: reading.new_current_buy_in(context),
            minimum_raise_after: reading.new_minimum_raise(context),
        }
    }

    /// Applies a betting event (see [`Game::apply`](super::Game)).
    pub(super) fn apply_betting(&mut self, event: &GameEvent) {
        match event {
            GameEvent::BetPlaced {
                seat,
                action,
                bet_after,
                stack_after,
                pot_after,
                current_buy_in_after,
                minimum_raise_after,
                ..
            } => {
                if *bet_after > self.table.current_buy_in() {
                    self.hand.last_aggressor = Some(*seat);
                }
                let mut status = self.table.seat(*seat).status;
                if *action == shared::BetAction::Fold && status == PlayerStatus::Active {
                    status = PlayerStatus::Folded;
                    self.hand.in_hand = self.hand.in_hand.saturating_sub(1);
                }
                self.table.put_in(
                    *seat,
                    PutIn {
                        stack: *stack_after,
                        bet: *bet_after,
                        status,
                        pot: *pot_after,
                        current_buy_in: *current_buy_in_after,
                    },
                );
                self.hand.minimum_raise = *minimum_raise_after;
                self.hand.visits += 1;
            }
            GameEvent::AnswerForgiven {
                seat,
                round,
                reason,
                counted_as,
            } => self.roster.warnings.push(WarningRecord {
                seat: *seat,
                name: self.table.seat(*seat).name.clone(),
                round: *round,
                reason: reason.clone(),
                counted_as: *counted_as,
            }),
            GameEvent::Banned {
                seat,
                round,
                reason,
                chips_removed,
                pot_after,
            } => {
                if self.table.seat(*seat).status == PlayerStatus::Active {
                    self.hand.in_hand = self.hand.in_hand.saturating_sub(1);
                }
                self.table.update_seat(*seat, |player| {
                    player.stack = Chips::ZERO;
                    player.bet = Chips::ZERO;
                    player.status = PlayerStatus::Out;
                });
                self.roster.banned_this_hand |= 1 << seat.index();
                let largest_bet = self
                    .table
                    .seats()
                    .iter()
                    .map(|p| p.bet)
                    .max()
                    .unwrap_or_default();
                self.table.set_pot(*pot_after, largest_bet);
                self.hand.visits += 1;
                self.roster.chips_banned += *chips_removed;
                self.roster.bans.push(BanRecord {
                    seat: *seat,
                    name: self.table.seat(*seat).name.clone(),
                    round: *round,
                    reason: reason.clone(),
                    chips_removed: *chips_removed,
                });
            }
            _ => {}
        }
    }
}
