//! The end of a hand: evaluating hands, paying the pots with their reveals (the pure rule is
//! in [`super::pots`]), and eliminating busted players (order in [`super::ranking`]).

use super::hand_eval::{BoardEvaluator, MadeHand};
use super::pots::{self, Payout, PotInput};
use super::{ranking, Game, Phase};
use crate::game_event::{EliminationReason, GameEvent, MAX_SEATS};
use shared::{Chips, PlayerStatus};

impl Game {
    /// Queues every event that ends the hand: reveals, pots, returns, `HandEnded`,
    /// eliminations. Their effects apply as `step` returns them.
    pub(super) fn settle(&mut self) {
        let mut input = PotInput {
            bets: [Chips::ZERO; MAX_SEATS],
            in_hand: 0,
            strengths: [None; MAX_SEATS],
            seat_count: self.seat_count,
            button: self.hand.button,
            examination_start: self
                .hand
                .last_aggressor
                .unwrap_or(self.hand.small_blind_seat),
            odd_chips: self.config.odd_chips,
        };
        let board = self.table.board();
        let evaluator =
            (board.len() == 5 && self.hand.in_hand >= 2).then(|| BoardEvaluator::new(board));
        for (index, player) in self.table.seats().iter().enumerate() {
            input.bets[index] = player.bet;
            if player.status == PlayerStatus::Active {
                input.in_hand |= 1 << index;
                if let Some(evaluator) = &evaluator {
                    input.strengths[index] = evaluator.strength(player.hole_cards.as_slice());
                }
            }
        }

        let mut won = [Chips::ZERO; MAX_SEATS];
        {
            let queue = &mut self.queue;
            let players = self.table.seats();
            pots::settle(&input, |payout| match payout {
                Payout::Reveal(seat) => {
                    // Only hands with a strength take part in an examination; their best
                    // five are found for the reveals only (most hands are never shown).
                    let pair = players[seat.index()].hole_cards.pair();
                    let made = pair.zip(evaluator.as_ref()).and_then(|(pair, evaluator)| {
                        evaluator.made_hand(&pair).map(|made| (pair, made))
                    });
                    if let Some((
                        pair,
                        MadeHand {
                            strength,
                            best_five,
                        },
                    )) = made
                    {
                        queue.push_back(GameEvent::HandRevealed {
                            seat,
                            cards: pair,
                            best_five,
                            strength: strength.hand_strength(),
                        });
                    }
                }
                Payout::Pot {
                    amount,
                    level,
                    eligible,
                    shares,
                    discarded,
                } => {
                    for share in &shares {
                        won[share.seat.index()] += share.amount;
                    }
                    queue.push_back(GameEvent::PotAwarded {
                        amount,
                        level,
                        eligible,
                        shares,
                        discarded,
                    });
                }
                Payout::Return { seat, amount } => {
                    won[seat.index()] += amount;
                    queue.push_back(GameEvent::ChipsReturned { seat, amount });
                }
            });
        }

        let mut stacks_after = [Chips::ZERO; MAX_SEATS];
        for ((after, player), won) in stacks_after.iter_mut().zip(self.table.seats()).zip(won) {
            *after = player.stack + won;
        }
        let stacks_after = &stacks_after[..self.seat_count];
        self.queue.push_back(GameEvent::HandEnded {
            round: self.hand.round,
            amount_won: won[..self.seat_count].iter().copied().collect(),
            stacks: stacks_after.iter().copied().collect(),
        });

        let busted = self
            .table
            .seats()
            .iter()
            .enumerate()
            .filter(|(index, player)| {
                player.status != PlayerStatus::Out && stacks_after[*index].is_zero()
            })
            .fold(0u32, |mask, (index, _)| mask | 1 << index);
        let banned = self.roster.banned_this_hand;
        let mut place = self.roster.next_place();
        for &seat in ranking::bust_order(busted | banned, stacks_after, self.hand.button).iter() {
            let reason = if banned & (1 << seat.index()) != 0 {
                EliminationReason::Banned
            } else {
                EliminationReason::Busted
            };
            self.queue_elimination(seat, place, reason);
            place = place.saturating_sub(1);
        }
        self.phase = Phase::Settled;
    }

    /// Applies a showdown event (see [`Game::apply`](super::Game)).
    pub(super) fn apply_showdown(&mut self, event: &GameEvent) {
        match event {
            GameEvent::HandRevealed { seat, .. } => self.hand.revealed |= 1 << seat.index(),
            GameEvent::PotAwarded {
                level,
                shares,
                discarded,
                ..
            } => {
                // One pass: every bet gives up to `level`, the winners are paid, and a player
                // left without chips is out (so every snapshot validates).
                self.table.update_each_seat(|seat, player| {
                    player.bet -= player.bet.min(*level);
                    for share in shares.iter().filter(|share| share.seat == seat) {
                        player.stack += share.amount;
                        player.amount_won += share.amount;
                    }
                    if player.total_chips().is_zero() {
                        player.status = PlayerStatus::Out;
                    }
                });
                self.table.recount_pot();
                self.roster.chips_discarded += *discarded;
            }
            GameEvent::ChipsReturned { seat, amount } => {
                self.table.update_seat(*seat, |player| {
                    player.bet = player.bet.saturating_sub(*amount);
                    player.stack += *amount;
                    player.amount_won += *amount;
                });
                self.after_payout();
            }
            _ => {}
        }
    }

    /// Keeps `pot`, `current_buy_in` and statuses consistent after chips left the pot.
    fn after_payout(&mut self) {
        self.table.update_each_seat(|_, player| {
            if player.total_chips().is_zero() {
                player.status = PlayerStatus::Out;
            }
        });
        self.table.recount_pot();
    }
}
