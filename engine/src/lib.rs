//! The rules engine: one sit'n'go as a pure, deterministic step machine (spec §2–§7).
//!
//! The engine does no I/O, reads no clock and never blocks. The caller asks for the next
//! [`Step`], does whatever I/O the step needs, and feeds results back:
//!
//! ```
//! use engine::rules::GameRules;
//! use engine::{Document, Game, GameSetup, SeatAnswer, Step, View};
//! use shared::Seat;
//!
//! let setup = GameSetup::new(GameRules::default(), vec!["Ann".into(), "Bob".into()], 7);
//! let mut game = Game::new(setup).unwrap();
//! loop {
//!     match game.step() {
//!         Step::Event(_event) => {} // observers: log it, render View::Viewer, ...
//!         Step::BetRequest { .. } => {
//!             // Send the document to the player; here: always call.
//!             let state = game.bet_request_state().unwrap();
//!             let answer = state.call_amount();
//!             game.answer(SeatAnswer::Bet(answer)).unwrap();
//!         }
//!         Step::Showdown { .. } => {
//!             // One document, rendered for each receiver in turn.
//!             let mut document = Document::new();
//!             for seat in 0..2 {
//!                 game.render_document(View::Showdown(Seat(seat)), &mut document).unwrap();
//!             }
//!         }
//!         Step::Finished => break,
//!     }
//! }
//! let result = game.result().unwrap();
//! assert_eq!(result.points.iter().sum::<u32>(), 8);
//! ```
//!
//! All randomness (the first button, every hand's cards) comes from ChaCha8 generators seeded
//! with [`GameSetup::seed`] (the cards of hand `h` from the seed and `h` alone, see [`deck`]):
//! the same seed and the same answers give the same events and the same documents, byte for
//! byte.
//!
//! # The model and the documents
//!
//! The engine keeps its own model of the table (`model.rs`: stacks, bets, statuses, every
//! seat's hole cards, the board, the pot; hand bookkeeping such as the visit count and the
//! last aggressor beside it) and renders `game_state` documents from it for one receiver
//! ([`View`], [`Game::render`] into a reused document, [`Game::render_document`] into a kept
//! [`Document`]): [`View::BetRequest`] shows only the receiver's hole cards and has
//! `in_action`, `minimum_raise` and `bet_index`; [`View::Showdown`] is the state after the
//! pot is paid, with `amount_won`, revealed hands and the receiver's own cards (`[]` for a
//! seat dealt nothing), and without the three betting keys; [`View::Viewer`] shows every
//! player's cards, as the viewer log does; [`View::Public`] shows none.
//!
//! The bet request is the hot path (one per visit), so the model keeps that one document
//! rendered: every mutator of the model writes its change into it in the same call, and
//! opening a request only shows the receiver's cards and sets the betting keys.
//! [`Game::bet_request_state`] borrows it. The rules never read a document back.
//!
//! # The files
//!
//! Each file owns one part of the rulebook: the step logic and how its events change the
//! table. `setup.rs` (seating, ids, a table taken over, preset cards), `table.rs` (button,
//! blinds, dealing), `betting.rs` (visits, answers, bans), `showdown.rs` (evaluation, pots
//! and reveals, from the pure loop in `pots.rs`), `ranking.rs` (eliminations, places, the
//! result), `view.rs` (documents), `access.rs` (what callers read and record).

//! # Evidence
//!
//! `dealer/tests/engine_captures.rs` replays the hands behind 13 real LIVE documents
//! (captures 01, 03, 05, 09, 10, 13–21 in `shared/tests/fixtures/gamestates/`) and checks that
//! the engine produces them byte for byte: `bet_index` with banned, folded and out seats,
//! heads-up blinds, `minimum_raise` after raises and all-ins, showdown documents with
//! `amount_won`, reveals, `[]` for an out receiver, the board dealt out after a fold, and the
//! viewer-log snapshots.
//!
//! # Decisions where the spec is silent
//!
//! - **Preflop street end** (spec §3: "n + 2 visits"): the blinds are the first visits, and
//!   preflop needs `n + 1 + (visits from the small blind to the big blind)` visits, which is
//!   n + 2 when the blinds sit next to each other. When out seats sit between them, this still
//!   gives the big blind its option, which is what the spec's n + 2 is for.
//! - **A lone player who can still act** is asked while the visit count requires it, as in OSS
//!   (e.g. the big blind when the small blind is all-in for less, capture 16's hand): the
//!   spec's street-end rule applied literally. Only a hand won by folds ends at once.
//! - **The last aggressor** is reset on every street where betting takes place (OSS); when
//!   nobody raised `current_buy_in` on the last street with betting, the examination starts
//!   at the small-blind seat. Blinds count as raises (the big blind is the preflop aggressor).
//! - **Reveals** are examined once per pot of the spec §5 loop (as OSS); a hand is revealed
//!   (one [`GameEvent::HandRevealed`]) the first time an examination shows it. A pot with a
//!   single contender is not examined.
//! - **Uncalled chips** are the last pot of the loop, won by their owner alone
//!   ([`GameEvent::PotAwarded`] with one eligible seat); they count in `amount_won` (gross).
//! - **Bans** remove the stack and the bet; `current_buy_in` becomes the largest remaining
//!   bet; `minimum_raise` is unchanged. Chips that no player still in the hand can win (only
//!   possible after a ban or a forgiven answer) go back to their owners
//!   ([`GameEvent::ChipsReturned`], counted in their `amount_won`), so the pot loop always
//!   ends and no chip is lost.
//! - **Status after a lost all-in**: a player is `out` from the [`GameEvent::PotAwarded`]
//!   that took its last chip, so every snapshot validates; its [`GameEvent::PlayerEliminated`]
//!   follows after [`GameEvent::HandEnded`], before the showdown step.
//! - **Blinds and `minimum_raise`**: preflop starts at the small blind, and each blind then
//!   updates it like any action (`max(minimum_raise, raise_by)`), so short blinds never lower
//!   it.
//! - **Ranking at a hand limit**: survivors are ranked by chips, more first; equal stacks by
//!   the same-hand bust rule (from the first seat after the button with chips, the later seat
//!   ranks higher). Players out from a [`TableStart`] rank below everyone, in the same order.
//! - **Documents for observers**: [`Game::viewer_state`] and [`Game::public_state`] never
//!   carry `in_action`, `minimum_raise` or `bet_index` (LIVE viewer-log entries do not); the
//!   flop comes one card per event, so a snapshot may show one or two board cards.
//! - **Shuffling**: each hand's cards are a function of the seed and the hand number only,
//!   two per seat position and five for the board, whoever has busted ([`deck`]); or they are
//!   read from recorded decks ([`DeckSource::Recorded`]).

#![warn(missing_docs)]

mod access;
mod betting;
mod dealing;
pub mod deck;
mod document;
pub mod game_event;
mod hand_eval;
pub mod luck;
mod model;
mod pots;
mod ranking;
pub mod rating;
pub mod result;
pub mod rules;
mod seat_buf;
mod setup;
mod showdown;
pub mod stats;
mod view;

use crate::game_event::GameEvent;
use crate::result::GameResult;
use crate::rules::GameRules;
use shared::{Chips, Seat, Street};
use std::collections::VecDeque;
use thiserror::Error;

pub use crate::game_event::MAX_SEATS;
pub use deck::{DeckError, DeckSource, RecordedDecks};
pub use setup::{
    is_object_id, object_id, GameSetup, PresetDeal, PresetError, SetupError, TableStart, MIN_SEATS,
    UNKNOWN_VERSION,
};
pub use view::{Document, View, ViewError};

/// What the caller must see or do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Something happened; the engine's state already reflects it.
    Event(GameEvent),
    /// Send [`Game::bet_request_state`] to `seat`, then call [`Game::answer`]. Until then,
    /// [`Game::step`] returns this same step again.
    BetRequest {
        /// The receiver (`in_action`).
        seat: Seat,
    },
    /// The hand is over and paid: send [`View::Showdown`] for each seat to **every** seat
    /// (out ones too), then call [`Game::step`] again.
    Showdown {
        /// The hand that ended.
        round: u64,
    },
    /// The game is over: [`Game::result`] is `Some`; `step` keeps returning `Finished`.
    Finished,
}

/// A player's answer to `bet_request`, as the seat read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatAnswer {
    /// A valid answer: HTTP 200 with a digits-only body, already parsed.
    Bet(Chips),
    /// Anything else (spec §6): the precise reason, e.g. `timeout after 2000 ms`,
    /// `connection refused`, `status 500`, `body "10\n" is not digits`.
    Invalid {
        /// One line, recorded with the ban or warning.
        reason: String,
    },
}

/// [`Game::answer`] was called with no bet request pending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum AnswerError {
    /// No `Step::BetRequest` is waiting for an answer.
    #[error("no bet request is waiting for an answer")]
    NoBetRequestPending,
}

/// A seat index outside the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("seat {seat} does not exist at a table of {seat_count} seats")]
pub struct UnknownSeat {
    /// The seat given.
    pub seat: Seat,
    /// Seats at the table.
    pub seat_count: usize,
}

/// Where the step machine is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Nothing emitted yet.
    NotStarted,
    /// Between hands: end the game or start the next hand.
    StartHand,
    /// Dealing hole card number `.0` (in dealing order).
    DealHole(usize),
    /// Posting the small blind.
    PostSmallBlind,
    /// Posting the big blind.
    PostBigBlind,
    /// Visiting seats on the current street.
    Betting,
    /// Waiting for the answer of this seat.
    AwaitingAnswer(Seat),
    /// This seat answered a number: read and emitted by the next step (the common answer
    /// skips the event queue).
    Answered { seat: Seat, amount: Chips },
    /// The street's betting is over (or skipped): deal on, or pay.
    StreetOver,
    /// Dealing `left` more cards of `street`.
    DealBoard { street: Street, left: u8 },
    /// A street's cards are out: bet on it, or skip it.
    StreetDealt,
    /// Paying events are queued; when they are out, the showdown step follows.
    Settled,
    /// `Step::Showdown` was returned; showdown views are available.
    ShowdownOpen,
    /// The game is over: rank and emit `GameEnded`.
    EndGame(crate::game_event::GameEndReason),
    /// Nothing more to do.
    Finished,
}

/// Bookkeeping of the hand in progress that the document does not carry.
#[derive(Debug, Clone)]
struct HandProgress {
    round: u64,
    button: Seat,
    small_blind_seat: Seat,
    big_blind_seat: Seat,
    small_blind: Chips,
    big_blind: Chips,
    /// The hand's cards, by seat position ([`deck`]).
    deck: deck::HandDeck,
    /// Players dealt in, starting at the small blind (the hole-card order).
    dealt_in: seat_buf::SeatBuf,
    street: Street,
    /// Seat visits on this street so far (`bet_index` of the next request).
    visits: u64,
    /// Visits the street needs before it can end.
    required_visits: u64,
    minimum_raise: Chips,
    /// Each seat's bet when the street began (for per-street bet totals).
    street_start_bets: [Chips; MAX_SEATS],
    /// The last seat whose bet raised `current_buy_in` on the last street with betting.
    last_aggressor: Option<Seat>,
    /// Players still in the hand (active, all-in included).
    in_hand: usize,
    /// Bit per seat: revealed at showdown.
    revealed: u32,
}

impl HandProgress {
    /// The hand's keys every document shows.
    fn header(&self) -> model::HandHeader {
        model::HandHeader {
            round: self.round,
            button: self.button,
            small_blind: self.small_blind,
            big_blind: self.big_blind,
        }
    }

    fn new() -> HandProgress {
        HandProgress {
            round: 0,
            button: Seat(0),
            small_blind_seat: Seat(0),
            big_blind_seat: Seat(0),
            small_blind: Chips::ZERO,
            big_blind: Chips::ZERO,
            deck: deck::HandDeck::default(),
            dealt_in: seat_buf::SeatBuf::default(),
            street: Street::Preflop,
            visits: 0,
            required_visits: 0,
            minimum_raise: Chips::ZERO,
            street_start_bets: [Chips::ZERO; MAX_SEATS],
            last_aggressor: None,
            in_hand: 0,
            revealed: 0,
        }
    }
}

/// One sit'n'go in progress. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct Game {
    config: GameRules,
    seed: u64,
    decks: deck::Dealer,
    /// The table as the rules see it (with the bet request's document, kept up to date).
    table: model::Table,
    seat_count: usize,
    phase: Phase,
    /// Events whose effect is applied when they are returned by `step`.
    queue: VecDeque<GameEvent>,
    hand: HandProgress,
    first_button: Seat,
    /// The number of the first hand (0 unless started from a [`TableStart`]).
    first_round: u64,
    hands_played: u64,
    roster: ranking::Roster,
    result: Option<GameResult>,
    /// Cards for the next hand, if preset.
    preset: Option<PresetDeal>,
}

impl Game {
    /// Advances to the next thing the caller must see or do.
    pub fn step(&mut self) -> Step {
        loop {
            if !self.queue.is_empty() {
                // Applied where it lies, then moved out once: applying a copy on the stack
                // read it back while its bytes were still being stored.
                let queue = std::mem::take(&mut self.queue);
                if let Some(event) = queue.front() {
                    self.apply(event);
                }
                self.queue = queue;
                if let Some(event) = self.queue.pop_front() {
                    return Step::Event(event);
                }
            }
            if let Some(step) = self.advance() {
                return step;
            }
        }
    }

    /// The seat the pending bet request is for, if any.
    pub fn pending_bet_request(&self) -> Option<Seat> {
        match self.phase {
            Phase::AwaitingAnswer(seat) => Some(seat),
            _ => None,
        }
    }

    /// Feeds the answer to the pending bet request. The resulting events come out of the next
    /// [`Game::step`] calls.
    ///
    /// # Errors
    /// [`AnswerError::NoBetRequestPending`] when no bet request is waiting.
    pub fn answer(&mut self, answer: SeatAnswer) -> Result<(), AnswerError> {
        let Phase::AwaitingAnswer(seat) = self.phase else {
            return Err(AnswerError::NoBetRequestPending);
        };
        match answer {
            SeatAnswer::Bet(amount) => self.phase = Phase::Answered { seat, amount },
            SeatAnswer::Invalid { reason } => {
                self.phase = Phase::Betting;
                self.read_invalid_answer(seat, reason);
            }
        }
        Ok(())
    }

    /// Emits a single event now: applies it and returns it.
    fn emit(&mut self, event: GameEvent) -> Option<Step> {
        self.apply(&event);
        Some(Step::Event(event))
    }

    /// Moves the machine forward when no queued event is waiting. `None`: keep going.
    fn advance(&mut self) -> Option<Step> {
        match self.phase {
            Phase::NotStarted => {
                self.phase = Phase::StartHand;
                let event = GameEvent::GameStarted {
                    tournament_id: self.table.tournament_id().to_owned(),
                    game_id: self.table.game_id().to_owned(),
                    seed: self.seed,
                    players: self.table.seats().iter().map(|p| p.name.clone()).collect(),
                    starting_stack: self.config.starting_stack,
                    first_button: self.first_button,
                };
                self.emit(event)
            }
            Phase::StartHand => self.start_hand(),
            Phase::DealHole(index) => self.deal_hole_card(index),
            Phase::PostSmallBlind => self.post_blind(crate::game_event::Blind::Small),
            Phase::PostBigBlind => self.post_blind(crate::game_event::Blind::Big),
            Phase::Betting => self.next_visit(),
            Phase::AwaitingAnswer(seat) => Some(Step::BetRequest { seat }),
            Phase::Answered { seat, amount } => {
                self.phase = Phase::Betting;
                let event = self.read_bet_answer(seat, amount);
                self.emit(event)
            }
            Phase::StreetOver => {
                self.street_over();
                None
            }
            Phase::DealBoard { street, left } => self.deal_board_card(street, left),
            Phase::StreetDealt => {
                self.street_dealt();
                None
            }
            Phase::Settled => {
                self.hands_played += 1;
                self.phase = Phase::ShowdownOpen;
                Some(Step::Showdown {
                    round: self.hand.round,
                })
            }
            Phase::ShowdownOpen => {
                self.phase = Phase::StartHand;
                None
            }
            Phase::EndGame(reason) => self.end_game(reason),
            Phase::Finished => Some(Step::Finished),
        }
    }

    /// Applies an event's effect to the table and the bookkeeping, in the file of the
    /// rulebook part the event belongs to.
    fn apply(&mut self, event: &GameEvent) {
        match event {
            GameEvent::GameStarted { .. }
            | GameEvent::HandEnded { .. }
            | GameEvent::GameEnded { .. } => {}
            GameEvent::HandStarted { .. }
            | GameEvent::HoleCardDealt { .. }
            | GameEvent::BlindPosted { .. }
            | GameEvent::CommunityCardDealt { .. } => self.apply_dealing(event),
            GameEvent::BetPlaced { .. }
            | GameEvent::AnswerForgiven { .. }
            | GameEvent::Banned { .. } => self.apply_betting(event),
            GameEvent::HandRevealed { .. }
            | GameEvent::PotAwarded { .. }
            | GameEvent::ChipsReturned { .. } => self.apply_showdown(event),
            GameEvent::PlayerEliminated {
                seat, round, place, ..
            } => self.apply_elimination(*seat, *round, *place),
        }
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;

    /// Every step is moved out of `Game::step`; keep it small (see `SeatList`).
    #[test]
    fn steps_stay_small() {
        assert!(
            std::mem::size_of::<Step>() <= 112,
            "{}",
            std::mem::size_of::<Step>()
        );
    }
}
