//! Luck taken out: an AIVAT-style control variate (Burch, Schmid, Moravčík, Morrill, Bowling,
//! "AIVAT: A New Variance Reduction Technique for Agent Evaluation in Imperfect Information
//! Games", AAAI 2018) on the chance events of a game, for any seat, in tournament points.
//! One valuation for the arena (your seat, `player/arena`) and the event server (every seat
//! of every finished game, `dealer/src/event/luck.rs`): both read a game's events, which
//! carry every card, so both value the same game to the same bits.
//!
//! At each chance event (the flop, the turn, the river) with two or more players still in
//! the hand, the meter, which knows every card, values the hand for a seat just before the
//! cards and just after them with a fixed heuristic `V` (`value.rs`: the bets still to come in
//! the hand added to the pot ([`BETS_TO_COME`]), every pot paid by the cards to come, the
//! stacks valued by ICM), and adds the difference to that seat's luck:
//!
//! ```text
//! luck = Σ over chance events  V(after) − E[V(after) | before]        adjusted = points − luck
//! ```
//!
//! `E[V(after) | before]` is exact: `V(before)` is itself defined as the mean of `V` over the
//! next cards (each street's `V` is an average over the completions of the board), so it
//! equals the mean of `V(after)` over every card the deck can deal next. Given everything that
//! happened before it, the next card is uniform over the cards nobody has seen (the deck is a
//! uniform shuffle; hole cards of seats out of the game are unseen too), so each term has mean
//! zero whatever the players did and however good `V` is: the adjusted points have the same
//! expectation as the points, with less of the cards' variance. For the flop, `V(before)` is
//! a mean over whole boards (millions of them): it is estimated without bias from boards drawn
//! with a generator of its own ([`LUCK_STREAM_KEY`], independent of the game's deck), which
//! keeps the term's mean at zero. `V` is fixed here, before any run, and never fitted to the
//! runs it judges. The hole-card deal is not a corrected event: no chips are in the pot
//! then, so `V` does not move.

mod hands;
mod value;

pub use hands::{AnswerNote, Decision, HandLedger, NoteKind, SeatHand};

use crate::game_event::GameEvent;
use crate::MAX_SEATS;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shared::{BetAction, Card};
use value::{CheckDown, HandSnapshot, SeatSet};

#[cfg(test)]
use value::points;

/// XORed into the game seed to seed the generator of the flop's sampled boards: a key of its
/// own, so its draws are independent of the game's (whose deck comes from stream 5 of the
/// game seed's own generator).
pub const LUCK_STREAM_KEY: u64 = 0x6c75_636b_5f61_6976; // "luck_aiv"

/// Whole boards drawn to value a hand before the flop. The estimate's own noise adds to the
/// adjusted figure's variance, but little: with 4,000 boards instead of 400 the variance of a
/// paired difference did not change in its third digit (docs/benchmarks.md).
pub const FLOP_SAMPLES: u32 = 256;

/// Pots smaller than this share of the chips in play are not corrected: their cards move
/// your points too little to be worth the enumeration (the luck they leave in is measured in
/// the README's figures).
pub const MIN_POT_SHARE: f64 = 0.02;

/// The bets `V` assumes are still to come in a hand, per betting round left, as a share of the
/// pot: each player still in the hand (and not all-in) adds that much to the pot, or what it
/// has behind (see `luck/value.rs`, `HandSnapshot::with_bets_to_come`). A pure check-down
/// (0) undervalues the cards that decide a pot still growing; 0.75 took the most variance out
/// of calibration runs (seed 7, the template against two edits; 0, 0.5, 1, 2 and all-in were
/// tried: the variance ratio of a paired difference, raw over adjusted, 2.4, 2.9, 2.8, 2.2,
/// 1.6 for one edit), never of the runs it judges.
pub const BETS_TO_COME: f64 = 0.75;

/// Follows one game's events and sums the luck of the cards for the seats it values: one seat
/// ([`LuckMeter::for_seat`], the arena's) or every seat ([`LuckMeter::all_seats`], the
/// event's). The boards are enumerated once for all the seats valued; a seat's figure does
/// not depend on which other seats are valued with it.
#[derive(Debug, Clone)]
pub struct LuckMeter {
    /// The seats whose luck is summed.
    valued: SeatSet,
    game_seed: u64,
    hand: HandSnapshot,
    round: u64,
    board: Vec<Card>,
    /// Cards dealt so far this hand (every hole card and the board), one bit per card.
    seen: u64,
    /// Hole cards dealt to each seat so far this hand.
    hole_dealt: [u8; MAX_SEATS],
    /// `V` before the street being dealt, by seat, when its event is corrected.
    before: Option<[f64; MAX_SEATS]>,
    /// The last values computed this hand and the state they were computed for, reused when
    /// nobody bet between a street's end and the next street's start.
    memo: Option<(HandSnapshot, usize, [f64; MAX_SEATS])>,
    /// The valued seats dealt into this hand (a seat out of the game: its points are final).
    valued_in_hand: SeatSet,
    /// The sum of the corrections so far, by seat.
    luck: [f64; MAX_SEATS],
    /// The part of [`LuckMeter::luck`] from chance events of hands the seat was no longer
    /// contesting (folded): the cards of other players' pots, which move its points only
    /// through the stacks they leave.
    luck_outside: [f64; MAX_SEATS],
}

/// A seat's luck in two parts, by whether the seat was still contesting the hand when the
/// cards came: the two move a seat's points differently (a folder's points hardly follow the
/// stacks of pots it is not in), so a regression adjustment weighs them apart
/// ([`crate::stats::adjust`]).
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct LuckParts {
    /// Chance events of hands the seat was still contesting: the cards of its own pots.
    pub own_pots: f64,
    /// Chance events of hands it had folded: the cards of other players' pots.
    pub others_pots: f64,
}

impl LuckParts {
    /// The whole luck: both parts.
    pub fn total(&self) -> f64 {
        self.own_pots + self.others_pots
    }
}

impl LuckMeter {
    /// A meter for the seat `seat` of a table of `seats` seats, in the game seeded
    /// `game_seed`. A seat past the table's values nothing.
    pub fn for_seat(seat: usize, seats: usize, game_seed: u64) -> LuckMeter {
        let valued = if seat < seats.min(MAX_SEATS) {
            1 << seat
        } else {
            0
        };
        LuckMeter::new(valued, seats, game_seed)
    }

    /// A meter for every seat of a table of `seats` seats, in the game seeded `game_seed`.
    pub fn all_seats(seats: usize, game_seed: u64) -> LuckMeter {
        let seats = seats.min(MAX_SEATS);
        LuckMeter::new(((1u32 << seats) - 1) as SeatSet, seats, game_seed)
    }

    fn new(valued: SeatSet, seats: usize, game_seed: u64) -> LuckMeter {
        LuckMeter {
            valued,
            game_seed,
            hand: HandSnapshot {
                seats: seats.min(MAX_SEATS),
                button: 0,
                behind: [0; MAX_SEATS],
                put_in: [0; MAX_SEATS],
                dealt_in: 0,
                contesting: 0,
                hole: [[PLACEHOLDER; 2]; MAX_SEATS],
            },
            round: 0,
            board: Vec::with_capacity(5),
            seen: 0,
            hole_dealt: [0; MAX_SEATS],
            before: None,
            memo: None,
            valued_in_hand: 0,
            luck: [0.0; MAX_SEATS],
            luck_outside: [0.0; MAX_SEATS],
        }
    }

    /// The luck of `seat` so far, in points (what the cards gave it beyond their
    /// expectation); 0 for a seat not valued.
    pub fn luck(&self, seat: usize) -> f64 {
        if seat < MAX_SEATS && self.valued & (1 << seat) != 0 {
            self.luck[seat]
        } else {
            0.0
        }
    }

    /// The luck of `seat` so far in its two parts ([`LuckParts`]); zeros for a seat not
    /// valued. The parts sum to [`LuckMeter::luck`].
    pub fn luck_parts(&self, seat: usize) -> LuckParts {
        if seat < MAX_SEATS && self.valued & (1 << seat) != 0 {
            LuckParts {
                own_pots: self.luck[seat] - self.luck_outside[seat],
                others_pots: self.luck_outside[seat],
            }
        } else {
            LuckParts::default()
        }
    }

    /// The luck of every seat of the table so far, in points, by seat (0 for a seat not
    /// valued).
    pub fn lucks(&self) -> Vec<f64> {
        (0..self.hand.seats).map(|seat| self.luck(seat)).collect()
    }

    /// The round and the table of the hand the meter has just taken in with its
    /// `HandStarted`: its button, the seats dealt in and every seat's stack before the blinds
    /// (`behind`), so that the hand ledger reads the event the meter read rather than reading
    /// it again. The stacks are the start's only until the hand's next event moves chips.
    fn hand_just_started(&self) -> (u64, &HandSnapshot) {
        (self.round, &self.hand)
    }

    /// Takes in the next event of the game.
    pub fn observe(&mut self, event: &GameEvent) {
        match event {
            GameEvent::HandStarted {
                round,
                button,
                stacks,
                ..
            } => {
                self.round = *round;
                let hand = &mut self.hand;
                hand.button = button.index();
                hand.put_in = [0; MAX_SEATS];
                // A seat past the event's stacks has none (the hand ledger reads them here).
                hand.behind = [0; MAX_SEATS];
                hand.dealt_in = 0;
                for (seat, stack) in stacks.iter().enumerate().take(hand.seats) {
                    hand.behind[seat] = stack.get();
                    if !stack.is_zero() {
                        hand.dealt_in |= 1 << seat;
                    }
                }
                hand.contesting = hand.dealt_in;
                self.valued_in_hand = hand.dealt_in & self.valued;
                self.board.clear();
                self.seen = 0;
                self.hole_dealt = [0; MAX_SEATS];
                self.before = None;
                self.memo = None;
            }
            GameEvent::HoleCardDealt { seat, card } => {
                let seat = seat.index();
                let slot = usize::from(self.hole_dealt.get(seat).copied().unwrap_or(2));
                if slot < 2 {
                    self.hand.hole[seat][slot] = *card;
                    self.hole_dealt[seat] += 1;
                    self.seen |= 1 << card.index();
                }
            }
            GameEvent::BlindPosted { seat, amount, .. } => {
                let seat = seat.index();
                if seat < self.hand.seats {
                    self.hand.behind[seat] = self.hand.behind[seat].saturating_sub(amount.get());
                    self.hand.put_in[seat] += amount.get();
                }
            }
            GameEvent::BetPlaced {
                seat,
                action,
                put_in,
                stack_after,
                ..
            } => {
                let seat = seat.index();
                if seat < self.hand.seats {
                    self.hand.behind[seat] = stack_after.get();
                    self.hand.put_in[seat] += put_in.get();
                    if *action == BetAction::Fold {
                        self.hand.contesting &= !(1 << seat);
                    }
                }
            }
            GameEvent::Banned { seat, .. } => {
                // The stack and the bet leave the game with the player.
                let seat = seat.index();
                if seat < self.hand.seats {
                    self.hand.behind[seat] = 0;
                    self.hand.put_in[seat] = 0;
                    self.hand.contesting &= !(1 << seat);
                }
            }
            GameEvent::CommunityCardDealt { card, .. } => self.deal(*card),
            _ => {}
        }
        debug_assert!(self.hand.contesting & !self.hand.dealt_in == 0);
    }

    /// Whether this hand's chance events are worth correcting: two players or more still in
    /// it, a valued seat in the game, and a pot of at least [`MIN_POT_SHARE`] of the chips in
    /// play. Decided before the card is seen, so skipping a small pot biases nothing.
    fn worth_correcting(&self) -> bool {
        let hand = &self.hand;
        let pot: u64 = hand.put_in[..hand.seats].iter().sum();
        let chips: u64 = pot + hand.behind[..hand.seats].iter().sum::<u64>();
        self.valued_in_hand != 0
            && hand.contesting.count_ones() >= 2
            && pot as f64 >= MIN_POT_SHARE * chips as f64
    }

    /// A board card: the chance event.
    fn deal(&mut self, card: Card) {
        let corrected = self.worth_correcting();
        let street_starts = matches!(self.board.len(), 0 | 3 | 4);
        // Betting rounds to come once this street's cards are out.
        let rounds = match self.board.len() {
            0..=2 => 3,
            3 => 2,
            _ => 1,
        };
        if corrected && street_starts {
            self.before = Some(self.value(rounds));
        }
        self.board.push(card);
        self.seen |= 1 << card.index();
        let street_complete = matches!(self.board.len(), 3..=5);
        if street_complete {
            if let Some(before) = self.before.take() {
                let after = self.value(rounds);
                let mut seats = self.valued_in_hand;
                while seats != 0 {
                    let seat = seats.trailing_zeros() as usize;
                    seats &= seats - 1;
                    let correction = after[seat] - before[seat];
                    self.luck[seat] += correction;
                    if self.hand.contesting & (1 << seat) == 0 {
                        self.luck_outside[seat] += correction;
                    }
                }
            }
        }
    }

    /// `V` now, for the valued seats in the hand (0 for the others): exact from the flop on,
    /// sampled (without bias) before it.
    fn value(&mut self, rounds: u32) -> [f64; MAX_SEATS] {
        if let Some((hand, board, values)) = &self.memo {
            if *board == self.board.len() * 4 + rounds as usize && *hand == self.hand {
                return *values;
            }
        }
        let unseen: Vec<Card> = Card::deck()
            .filter(|card| self.seen & (1 << card.index()) == 0)
            .collect();
        let hand = self
            .hand
            .with_bets_to_come(BETS_TO_COME * f64::from(rounds));
        let check_down = CheckDown::new(&hand);
        let outcomes = if self.board.is_empty() {
            let mut rng = ChaCha8Rng::seed_from_u64(self.game_seed ^ LUCK_STREAM_KEY);
            rng.set_stream(self.round);
            check_down.sampled(&unseen, FLOP_SAMPLES, &mut rng)
        } else {
            check_down.exact(&self.board, &unseen)
        };
        let values = check_down.values(&outcomes, self.valued_in_hand);
        self.memo = Some((
            self.hand.clone(),
            self.board.len() * 4 + rounds as usize,
            values,
        ));
        values
    }

    /// The seats still contesting the hand (for tests).
    #[cfg(test)]
    pub(crate) fn contesting(&self) -> SeatSet {
        self.hand.contesting
    }
}

/// A placeholder for hole cards not dealt yet (never read: only seats dealt in contest).
const PLACEHOLDER: Card = Card::new(shared::Rank::Two, shared::Suit::Clubs);

#[cfg(test)]
mod tests;
