//! Hand by hand, with the luck taken out: what each hand cost each seat in tournament points
//! once the luck of its cards is removed, from the same pass of the [`LuckMeter`] that sums a
//! game's luck (the meter's figures are not changed by being read hand by hand).
//!
//! A seat's points at a hand's start and end are the ICM points of the stacks (`value.rs`,
//! the same function the meter values pots with); its luck in the hand is the meter's sum at
//! the end minus its sum at the start. So a hand's adjusted change is
//! `points after − points before − luck in the hand`, and its **cost** is the opposite
//! ([`SeatHand::cost`]: positive when the seat lost that much with the cards' luck taken out).
//! A seat's points at a hand's end are its points at the next hand's start (the same stacks,
//! a busted seat's place decided), so the adjusted changes of its hands telescope: they sum to
//! its points at its last hand's end minus its points at the first hand's start minus its
//! whole luck.
//!
//! Beside the figures, each seat's biggest decision of each hand ([`Decision`], the answer with
//! the most chips at stake for it), and every answer worth a second look ([`AnswerNote`]): one
//! the bet-reading rule read as something else than its number says, a forgiven invalid answer,
//! a ban.

use super::value::{points, SeatSet};
use super::LuckMeter;
use crate::game_event::GameEvent;
use crate::MAX_SEATS;
use shared::{BetAction, Card, Chips, Street};

/// One answer to a bet request, as the seat faced it and as it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The street of the request.
    pub street: Street,
    /// Chips the seat had to put in to call: the current buy-in minus its bet before answering.
    pub price: Chips,
    /// The pot before the answer.
    pub pot_before: Chips,
    /// The number the seat answered; `None` for a forgiven invalid answer or a ban.
    pub answer: Option<Chips>,
    /// How the answer was read (a ban reads as a fold).
    pub action: BetAction,
    /// Chips the answer moved into the pot.
    pub put_in: Chips,
}

impl Decision {
    /// The chips at stake for the seat: what it put in, or what it declined to pay.
    pub fn stake(&self) -> Chips {
        self.put_in.max(self.price)
    }

    /// Whether the dealer read the answer as something else than its number says: a raise
    /// below the minimum read as a call, a bet below the price read as a fold, more than a call
    /// read as a call. An answer of the whole stack or more is an all-in, as meant.
    pub fn misread(&self) -> bool {
        matches!(self.answer, Some(answer) if answer != self.put_in && self.action != BetAction::AllIn)
    }
}

/// One seat's figures for one hand it was dealt into.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatHand {
    /// The hand (`round`, from 0).
    pub round: u64,
    /// The seat.
    pub seat: usize,
    /// Its ICM points at the hand's start.
    pub points_before: f64,
    /// Its ICM points at the hand's end (its place's points when it busted in the hand).
    pub points_after: f64,
    /// The luck of its cards in this hand, in points.
    pub luck: f64,
    /// Its hole cards.
    pub hole: Vec<Card>,
    /// The board at the hand's end.
    pub board: Vec<Card>,
    /// Its answer with the most chips at stake; `None` when it was never asked.
    pub decision: Option<Decision>,
}

impl SeatHand {
    /// What the hand cost the seat with the luck taken out, in points (negative: it won).
    pub fn cost(&self) -> f64 {
        self.points_before - self.points_after + self.luck
    }
}

/// What makes an answer worth a second look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteKind {
    /// Read as something else than its number says ([`Decision::misread`]).
    Misread,
    /// An invalid answer forgiven (counted as a check or fold).
    Forgiven,
    /// An invalid answer that banned the seat.
    Banned,
}

/// An answer worth a second look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerNote {
    /// The hand.
    pub round: u64,
    /// The seat.
    pub seat: usize,
    /// Why it is noted.
    pub kind: NoteKind,
    /// The answer (for a ban: the request it failed, read as a fold).
    pub decision: Decision,
    /// The reason the seat reported, for a forgiven answer or a ban.
    pub reason: Option<String>,
    /// The seat's hole cards.
    pub hole: Vec<Card>,
    /// The board when the hand ended (or the game, after a ban).
    pub board: Vec<Card>,
}

/// Follows a game's events with a [`LuckMeter`] for every seat and keeps every seat's
/// figures hand by hand ([`SeatHand`]) and its answers worth a second look ([`AnswerNote`]).
#[derive(Debug, Clone)]
pub struct HandLedger {
    meter: LuckMeter,
    seats: usize,
    hands: Vec<SeatHand>,
    notes: Vec<AnswerNote>,
    /// The hand in progress, if any.
    open: Option<OpenHand>,
}

/// A hand being played, as the ledger follows it.
#[derive(Debug, Clone)]
struct OpenHand {
    round: u64,
    button: usize,
    dealt_in: SeatSet,
    points_before: [f64; MAX_SEATS],
    luck_before: [f64; MAX_SEATS],
    hole: [Vec<Card>; MAX_SEATS],
    board: Vec<Card>,
    bet: [Chips; MAX_SEATS],
    buy_in: Chips,
    pot: Chips,
    biggest: [Option<Decision>; MAX_SEATS],
    notes: Vec<AnswerNote>,
    /// A forgiven answer's reason, waiting for the bet it is counted as.
    forgiven: [Option<String>; MAX_SEATS],
}

impl HandLedger {
    /// A ledger for every seat of a table of `seats` seats, in the game seeded `game_seed`.
    pub fn all_seats(seats: usize, game_seed: u64) -> HandLedger {
        HandLedger {
            meter: LuckMeter::all_seats(seats, game_seed),
            seats: seats.min(MAX_SEATS),
            hands: Vec::new(),
            notes: Vec::new(),
            open: None,
        }
    }

    /// The meter the ledger feeds: every seat's whole luck ([`LuckMeter::lucks`]).
    pub fn meter(&self) -> &LuckMeter {
        &self.meter
    }

    /// Every finished hand's figures, by hand, then by seat.
    pub fn hands(&self) -> &[SeatHand] {
        &self.hands
    }

    /// The answers worth a second look, in the order they were given (those of a hand still in
    /// progress come when it ends, or when the game does).
    pub fn notes(&self) -> &[AnswerNote] {
        &self.notes
    }

    /// Takes in the next event of the game.
    pub fn observe(&mut self, event: &GameEvent) {
        self.meter.observe(event);
        match event {
            GameEvent::HandStarted { .. } => {
                self.close_without_end();
                let (round, start) = self.meter.hand_just_started();
                let (button, dealt_in) = (start.button, start.dealt_in);
                let stacks: Vec<f64> = start.behind[..self.seats]
                    .iter()
                    .map(|&chips| chips as f64)
                    .collect();
                let mut points_before = [0.0; MAX_SEATS];
                let mut luck_before = [0.0; MAX_SEATS];
                for seat in 0..self.seats {
                    points_before[seat] = points(seat, &stacks, dealt_in, button);
                    luck_before[seat] = self.meter.luck(seat);
                }
                self.open = Some(OpenHand {
                    round,
                    button,
                    dealt_in,
                    points_before,
                    luck_before,
                    hole: Default::default(),
                    board: Vec::with_capacity(5),
                    bet: [Chips::ZERO; MAX_SEATS],
                    buy_in: Chips::ZERO,
                    pot: Chips::ZERO,
                    biggest: Default::default(),
                    notes: Vec::new(),
                    forgiven: Default::default(),
                });
            }
            GameEvent::HandEnded { stacks, .. } => {
                let stacks = self.chips(stacks);
                if let Some(hand) = self.open.take() {
                    self.close(hand, Some(&stacks));
                }
            }
            GameEvent::GameEnded { .. } => self.close_without_end(),
            other => {
                if let Some(hand) = self.open.as_mut() {
                    hand.observe(other);
                }
            }
        }
    }

    /// Stacks as the value reads them, one per seat of the table.
    fn chips(&self, stacks: &[Chips]) -> Vec<f64> {
        (0..self.seats)
            .map(|seat| stacks.get(seat).map_or(0.0, |chips| chips.get() as f64))
            .collect()
    }

    /// A hand cut off without its end (the game ended after a ban): its notes are kept, its
    /// figures are not (its stacks at the end are unknown).
    fn close_without_end(&mut self) {
        if let Some(hand) = self.open.take() {
            self.close(hand, None);
        }
    }

    fn close(&mut self, mut hand: OpenHand, stacks_after: Option<&[f64]>) {
        for mut note in hand.notes.drain(..) {
            note.hole = hand.hole[note.seat].clone();
            note.board = hand.board.clone();
            self.notes.push(note);
        }
        let Some(stacks) = stacks_after else {
            return;
        };
        for seat in 0..self.seats {
            if hand.dealt_in & (1 << seat) == 0 {
                continue;
            }
            self.hands.push(SeatHand {
                round: hand.round,
                seat,
                points_before: hand.points_before[seat],
                points_after: points(seat, stacks, hand.dealt_in, hand.button),
                luck: self.meter.luck(seat) - hand.luck_before[seat],
                hole: std::mem::take(&mut hand.hole[seat]),
                board: hand.board.clone(),
                decision: hand.biggest[seat].take(),
            });
        }
    }
}

impl OpenHand {
    fn street(&self) -> Street {
        Street::from_community_card_count(self.board.len()).unwrap_or(Street::Preflop)
    }

    fn observe(&mut self, event: &GameEvent) {
        match event {
            GameEvent::HoleCardDealt { seat, card } => {
                if let Some(hole) = self.hole.get_mut(seat.index()) {
                    hole.push(*card);
                }
            }
            GameEvent::CommunityCardDealt { card, .. } => self.board.push(*card),
            GameEvent::BlindPosted {
                seat,
                amount,
                pot_after,
                ..
            } => {
                if let Some(bet) = self.bet.get_mut(seat.index()) {
                    *bet = bet.saturating_add(*amount);
                    self.buy_in = self.buy_in.max(*bet);
                }
                self.pot = *pot_after;
            }
            GameEvent::AnswerForgiven { seat, reason, .. } => {
                if let Some(slot) = self.forgiven.get_mut(seat.index()) {
                    *slot = Some(reason.clone());
                }
            }
            GameEvent::BetPlaced {
                seat,
                street,
                answer,
                action,
                put_in,
                bet_after,
                pot_after,
                current_buy_in_after,
                ..
            } => {
                let seat = seat.index();
                if seat >= MAX_SEATS {
                    return;
                }
                let bet_before = bet_after.saturating_sub(*put_in);
                let decision = Decision {
                    street: *street,
                    price: self.buy_in.saturating_sub(bet_before),
                    pot_before: pot_after.saturating_sub(*put_in),
                    answer: *answer,
                    action: *action,
                    put_in: *put_in,
                };
                self.bet[seat] = *bet_after;
                self.buy_in = *current_buy_in_after;
                self.pot = *pot_after;
                let forgiven = self.forgiven[seat].take();
                if forgiven.is_some() || decision.misread() {
                    self.notes.push(AnswerNote {
                        round: self.round,
                        seat,
                        kind: if forgiven.is_some() {
                            NoteKind::Forgiven
                        } else {
                            NoteKind::Misread
                        },
                        decision: decision.clone(),
                        reason: forgiven,
                        hole: Vec::new(),
                        board: Vec::new(),
                    });
                }
                let bigger = self.biggest[seat]
                    .as_ref()
                    .is_none_or(|biggest| decision.stake() >= biggest.stake());
                if bigger {
                    self.biggest[seat] = Some(decision);
                }
            }
            GameEvent::Banned {
                seat,
                reason,
                pot_after,
                ..
            } => {
                let seat = seat.index();
                if seat >= MAX_SEATS {
                    return;
                }
                let decision = Decision {
                    street: self.street(),
                    price: self.buy_in.saturating_sub(self.bet[seat]),
                    pot_before: self.pot,
                    answer: None,
                    action: BetAction::Fold,
                    put_in: Chips::ZERO,
                };
                self.notes.push(AnswerNote {
                    round: self.round,
                    seat,
                    kind: NoteKind::Banned,
                    decision,
                    reason: Some(reason.clone()),
                    hole: Vec::new(),
                    board: Vec::new(),
                });
                self.bet[seat] = Chips::ZERO;
                self.pot = *pot_after;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
