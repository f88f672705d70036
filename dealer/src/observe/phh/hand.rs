//! The hand being recorded: the table at the start, and each event of the hand turned into
//! PHH action lines as it happens.

use super::super::text::push_one_line;
use crate::game_event::MAX_SEATS;
use shared::{BetAction, Card, Chips, Seat, Street};
use std::fmt::Write as _;

/// The hand being recorded.
#[derive(Debug, Clone)]
pub(super) struct HandRecord {
    /// A hand is in progress.
    pub(super) active: bool,
    pub(super) round: u64,
    pub(super) button: Seat,
    pub(super) small_blind: Chips,
    pub(super) big_blind: Chips,
    /// Seats dealt in, from the small blind (`p1` first).
    pub(super) order: Vec<Seat>,
    /// `pN` number (1-based) of each seat dealt in.
    pub(super) player_number: [usize; MAX_SEATS],
    pub(super) starting_stacks: [Chips; MAX_SEATS],
    pub(super) hole_cards: [Vec<Card>; MAX_SEATS],
    pub(super) holes_written: bool,
    /// Still in the hand (not folded, not banned).
    pub(super) in_hand: [bool; MAX_SEATS],
    pub(super) stacks: [Chips; MAX_SEATS],
    /// Bets for the whole hand.
    pub(super) bets: [Chips; MAX_SEATS],
    pub(super) current_buy_in: Chips,
    /// Community cards of the street being dealt.
    pub(super) street_cards: Vec<Card>,
    /// The body of the `actions` array, up to the showdown.
    pub(super) actions: String,
    /// `sm` lines, in reveal order.
    pub(super) shows: String,
    /// Board lines dealt after betting ended with two or more players in the hand: PokerKit
    /// (like a live table) shows the hands of an all-in showdown before the run-out.
    pub(super) runout: String,
    /// One line per ban.
    pub(super) bans: Vec<String>,
    pub(super) chips_discarded: Chips,
}

impl HandRecord {
    pub(super) fn new() -> HandRecord {
        HandRecord {
            active: false,
            round: 0,
            button: Seat(0),
            small_blind: Chips::ZERO,
            big_blind: Chips::ZERO,
            order: Vec::with_capacity(MAX_SEATS),
            player_number: [0; MAX_SEATS],
            starting_stacks: [Chips::ZERO; MAX_SEATS],
            hole_cards: Default::default(),
            holes_written: false,
            in_hand: [false; MAX_SEATS],
            stacks: [Chips::ZERO; MAX_SEATS],
            bets: [Chips::ZERO; MAX_SEATS],
            current_buy_in: Chips::ZERO,
            street_cards: Vec::with_capacity(3),
            actions: String::with_capacity(1024),
            shows: String::with_capacity(128),
            runout: String::with_capacity(128),
            bans: Vec::new(),
            chips_discarded: Chips::ZERO,
        }
    }

    pub(super) fn in_hand_count(&self) -> usize {
        self.order
            .iter()
            .filter(|seat| self.in_hand[seat.index()])
            .count()
    }

    /// `d dh` lines, once, before the first action.
    pub(super) fn write_holes(&mut self) {
        if self.holes_written {
            return;
        }
        self.holes_written = true;
        for seat in &self.order {
            let cards = &self.hole_cards[seat.index()];
            if cards.is_empty() {
                continue;
            }
            let _ = write!(
                self.actions,
                "  \"d dh p{} ",
                self.player_number[seat.index()]
            );
            for card in cards {
                let _ = write!(self.actions, "{card}");
            }
            self.actions.push_str("\",\n");
        }
    }

    /// A hand starts: seats dealt in from the small blind, every record reset.
    pub(super) fn started(
        &mut self,
        round: u64,
        button: Seat,
        small_blind: Chips,
        big_blind: Chips,
        small_blind_seat: Seat,
        stacks: &[Chips],
    ) {
        let hand = &mut *self;
        hand.active = true;
        hand.round = round;
        hand.button = button;
        hand.small_blind = small_blind;
        hand.big_blind = big_blind;
        hand.order.clear();
        hand.player_number = [0; MAX_SEATS];
        hand.starting_stacks = [Chips::ZERO; MAX_SEATS];
        hand.in_hand = [false; MAX_SEATS];
        hand.stacks = [Chips::ZERO; MAX_SEATS];
        hand.bets = [Chips::ZERO; MAX_SEATS];
        for cards in &mut hand.hole_cards {
            cards.clear();
        }
        let seat_count = stacks.len().min(MAX_SEATS);
        for offset in 0..seat_count {
            let seat = small_blind_seat.plus(offset, seat_count);
            let stack = stacks.get(seat.index()).copied().unwrap_or_default();
            if stack.is_zero() {
                continue;
            }
            hand.order.push(seat);
            hand.player_number[seat.index()] = hand.order.len();
            hand.starting_stacks[seat.index()] = stack;
            hand.stacks[seat.index()] = stack;
            hand.in_hand[seat.index()] = true;
        }
        hand.holes_written = false;
        hand.current_buy_in = Chips::ZERO;
        hand.street_cards.clear();
        hand.actions.clear();
        hand.shows.clear();
        hand.runout.clear();
        hand.bans.clear();
        hand.chips_discarded = Chips::ZERO;
    }

    /// `seat` has `bet_after` in front of it and `stack_after` behind.
    pub(super) fn put_in(&mut self, seat: Seat, bet_after: Chips, stack_after: Chips) {
        let index = seat.index();
        if index < MAX_SEATS {
            self.bets[index] = bet_after;
            self.stacks[index] = stack_after;
            self.current_buy_in = self.current_buy_in.max(bet_after);
        }
    }

    /// An answer, as a PHH action (or a comment where standard rules would not ask).
    pub(super) fn bet_placed(
        &mut self,
        seat: Seat,
        action: BetAction,
        bet_after: Chips,
        street_bet_after: Chips,
        stack_after: Chips,
    ) {
        let Some((index, player)) = self.acting(seat) else {
            return;
        };
        let hand = &mut *self;
        let to_call = hand.current_buy_in.saturating_sub(hand.bets[index]);
        let others_can_act = hand.order.iter().any(|other| {
            *other != seat && hand.in_hand[other.index()] && !hand.stacks[other.index()].is_zero()
        });
        // PokerKit (standard rules) refuses a raise nobody could call more of.
        let others_can_respond = hand.order.iter().any(|other| {
            *other != seat
                && hand.in_hand[other.index()]
                && hand.stacks[other.index()] + hand.bets[other.index()] > hand.current_buy_in
        });
        let raises = bet_after > hand.current_buy_in;
        let actions = &mut hand.actions;
        if !others_can_act && to_call.is_zero() {
            let _ = writeln!(
                actions,
                "  # p{player} {action} (to {street_bet_after} on this street): Lean Poker asks \
                 although nobody can respond; standard rules ask nothing"
            );
        } else {
            match action {
                BetAction::Fold => {
                    let _ = write!(actions, "  \"p{player} f\",");
                }
                BetAction::Check | BetAction::Call => {
                    let _ = write!(actions, "  \"p{player} cc\",");
                }
                BetAction::Raise | BetAction::AllIn if raises && others_can_respond => {
                    let _ = write!(actions, "  \"p{player} cbr {street_bet_after}\",");
                }
                BetAction::Raise | BetAction::AllIn => {
                    let _ = write!(actions, "  \"p{player} cc\",");
                    if raises {
                        let _ = write!(
                            actions,
                            " # Lean Poker: {action} to {street_bet_after} that nobody can \
                             call more of; the excess comes back uncalled"
                        );
                    }
                }
            }
            actions.push('\n');
        }
        if action == BetAction::Fold {
            hand.in_hand[index] = false;
        }
        self.put_in(seat, bet_after, stack_after);
    }

    /// A ban: a fold, with the chips that leave the game noted.
    pub(super) fn banned(&mut self, seat: Seat, reason: &str, chips_removed: Chips) {
        let Some((index, player)) = self.acting(seat) else {
            return;
        };
        let hand = &mut *self;
        let _ = write!(
            hand.actions,
            "  \"p{player} f\", # banned: {chips_removed} chips leave the game ("
        );
        push_one_line(&mut hand.actions, reason);
        hand.actions.push_str(")\n");
        let mut line = format!("p{player}: ");
        push_one_line(&mut line, reason);
        let _ = write!(line, " ({chips_removed} chips left the game)");
        hand.bans.push(line);
        hand.in_hand[index] = false;
        hand.stacks[index] = Chips::ZERO;
        hand.bets[index] = Chips::ZERO;
        hand.current_buy_in = hand.bets.iter().copied().max().unwrap_or_default();
    }

    /// A board card; a street's line once its cards are all dealt.
    pub(super) fn community_card(&mut self, street: Street, card: Card) {
        let hand = &mut *self;
        hand.write_holes();
        hand.street_cards.push(card);
        let needed = if street == Street::Flop { 3 } else { 1 };
        if hand.street_cards.len() < needed {
            return;
        }
        let in_hand = hand.in_hand_count();
        let can_bet = hand
            .order
            .iter()
            .filter(|seat| hand.in_hand[seat.index()] && !hand.stacks[seat.index()].is_zero())
            .count();
        let after_end = in_hand < 2;
        let lines = if !after_end && can_bet < 2 {
            &mut hand.runout
        } else {
            &mut hand.actions
        };
        lines.push_str(if after_end { "  # \"" } else { "  \"" });
        lines.push_str("d db ");
        for card in &hand.street_cards {
            let _ = write!(lines, "{card}");
        }
        hand.street_cards.clear();
        lines.push_str("\",");
        if after_end {
            lines.push_str(" dealt out after the hand was decided (Lean Poker shows the board)");
        }
        lines.push('\n');
    }

    /// A hand shown at showdown.
    pub(super) fn revealed(&mut self, seat: Seat, cards: &[Card; 2]) {
        let index = seat.index();
        if index >= MAX_SEATS {
            return;
        }
        let hand = &mut *self;
        let _ = writeln!(
            hand.shows,
            "  \"p{} sm {}{}\",",
            hand.player_number[index], cards[0], cards[1]
        );
    }

    /// The seat's index and `pN` number for an action, after the hole cards are written
    /// (they come before the first action); `None` for a seat beyond the table.
    fn acting(&mut self, seat: Seat) -> Option<(usize, usize)> {
        let index = seat.index();
        if index >= MAX_SEATS {
            return None;
        }
        self.write_holes();
        Some((index, self.player_number[index]))
    }
}
