//! The rules engine: one sit'n'go as a pure, deterministic step machine (spec §2–§7).
//!
//! The engine does no I/O, reads no clock and never blocks. The caller asks for the next
//! [`Step`], does whatever I/O the step needs, and feeds results back:
//!
//! ```
//! use dealer::config::GameConfig;
//! use dealer::engine::{Game, GameSetup, SeatAnswer, Step};
//! use shared::Seat;
//!
//! let setup = GameSetup::new(GameConfig::default(), vec!["Ann".into(), "Bob".into()], 7);
//! let mut game = Game::new(setup).unwrap();
//! loop {
//!     match game.step() {
//!         Step::Event(_event) => {} // observers: log it, snapshot game.viewer_state(), ...
//!         Step::BetRequest { .. } => {
//!             // Send the document to the player; here: always call.
//!             let state = game.bet_request_state().unwrap();
//!             let answer = state.call_amount();
//!             game.answer(SeatAnswer::Bet(answer)).unwrap();
//!         }
//!         Step::Showdown { .. } => {
//!             for seat in 0..2 {
//!                 let _document = game.showdown_state(Seat(seat)).unwrap();
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
//! # The documents
//!
//! The engine keeps one [`GameState`] and presents each receiver's view of it in place (no
//! copy per request): [`Game::bet_request_state`] shows only the receiver's hole cards and has
//! `in_action`, `minimum_raise` and `bet_index`; [`Game::showdown_state`] is the state after
//! the pot is paid, with `amount_won`, revealed hands and the receiver's own cards (`[]` for a
//! seat dealt nothing), and without the three betting keys; [`Game::viewer_state`] shows every
//! player's cards, as the viewer log does.
//!
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

mod betting;
pub mod deck;
mod hand_eval;
mod pots;
mod ranking;
mod seat_buf;
mod showdown;
mod table;
mod view;

use crate::config::{ConfigError, GameConfig};
use crate::event::{EliminationReason, GameEvent, SeatList};
use crate::result::{BanRecord, GameResult, WarningRecord};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shared::{Card, Chips, GameState, PlayerState, PlayerStatus, Seat, Street};
use std::collections::VecDeque;
use thiserror::Error;

pub use crate::event::MAX_SEATS;
pub use deck::{DeckError, DeckSource, RecordedDecks};

/// The fewest players a sit'n'go can start with.
pub const MIN_SEATS: usize = 2;

/// The version string shown until a player answers `version` (spec §2).
pub const UNKNOWN_VERSION: &str = "Unknown";

/// Everything needed to start one sit'n'go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSetup {
    /// The rules.
    pub config: GameConfig,
    /// Player names in seat order (seat `i` is `players[i]`): 2 to [`MAX_SEATS`], unique,
    /// not blank.
    pub players: Vec<String>,
    /// The seed of all randomness in the game.
    pub seed: u64,
    /// 24 lowercase hex digits, shared by the games of one tournament.
    pub tournament_id: String,
    /// 24 lowercase hex digits, unique per game.
    pub game_id: String,
    /// Where each hand's cards come from (drawn from `seed` unless recorded decks are given).
    pub decks: DeckSource,
}

impl GameSetup {
    /// A setup whose `tournament_id` and `game_id` are derived from `seed` (a tournament
    /// overrides `tournament_id` to share one id across its games).
    pub fn new(config: GameConfig, players: Vec<String>, seed: u64) -> GameSetup {
        // A separate stream of the same seed, so ids never consume the game's randomness.
        let mut id_rng = ChaCha8Rng::seed_from_u64(seed);
        id_rng.set_stream(1);
        GameSetup {
            config,
            players,
            seed,
            tournament_id: object_id(&mut id_rng),
            game_id: object_id(&mut id_rng),
            decks: DeckSource::Seeded,
        }
    }
}

/// A table to start from instead of a fresh one: to replay a recorded situation, to resume
/// a tournament, or in tests. Players with 0 chips are out from the start and rank below
/// everyone else (among themselves by the same-hand bust seat rule).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableStart {
    /// The first hand's number (the blinds and `orbits` follow from it).
    pub round: u64,
    /// The first hand's button; must have chips.
    pub button: Seat,
    /// Every seat's chips, in seat order; at least two must be non-zero.
    pub stacks: Vec<Chips>,
}

/// Cards to deal in the next hand instead of random ones (replays and tests). Cards not
/// given are still drawn from the seeded shuffle.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PresetDeal {
    /// Hole cards per seat (ignored for a seat that is not dealt in).
    pub hole_cards: Vec<(Seat, [Card; 2])>,
    /// The first community cards, in order (at most five).
    pub board: Vec<Card>,
}

/// Why a [`PresetDeal`] was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PresetError {
    /// A card appears twice.
    #[error("card {0} appears more than once in the preset deal")]
    DuplicateCard(Card),
    /// More than five board cards.
    #[error("a board has at most 5 cards, got {0}")]
    BoardTooLong(usize),
    /// A seat outside the table.
    #[error(transparent)]
    UnknownSeat(#[from] UnknownSeat),
    /// The game is over: there is no next hand.
    #[error("the game is over; there is no next hand to deal")]
    GameOver,
}

/// A random 24-hex-digit id in the style of the live server's (Mongo ObjectId) ids.
///
/// ```
/// use rand::SeedableRng;
/// let id = dealer::engine::object_id(&mut rand_chacha::ChaCha8Rng::seed_from_u64(1));
/// assert_eq!(id.len(), 24);
/// assert!(dealer::engine::is_object_id(&id));
/// ```
pub fn object_id(rng: &mut impl RngCore) -> String {
    let mut bytes = [0u8; 12];
    rng.fill_bytes(&mut bytes);
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Whether `text` is 24 lowercase hex digits.
pub fn is_object_id(text: &str) -> bool {
    text.len() == 24
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Why a [`GameSetup`] was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    /// Fewer than [`MIN_SEATS`] players.
    #[error("a sit'n'go needs at least {MIN_SEATS} players, got {0}")]
    TooFewPlayers(usize),
    /// More than [`MAX_SEATS`] players.
    #[error("a sit'n'go seats at most {MAX_SEATS} players, got {0}")]
    TooManyPlayers(usize),
    /// A name that is empty or only whitespace.
    #[error("the name of seat {0} is blank")]
    BlankName(Seat),
    /// Two seats with the same name.
    #[error("seats {first} and {second} are both named {name:?}")]
    DuplicateName {
        /// The name.
        name: String,
        /// The first seat with it.
        first: Seat,
        /// The second seat with it.
        second: Seat,
    },
    /// An id that is not 24 lowercase hex digits.
    #[error("{field} {value:?} is not 24 lowercase hex digits")]
    InvalidId {
        /// `tournament_id` or `game_id`.
        field: &'static str,
        /// The value given.
        value: String,
    },
    /// A [`TableStart`] whose stacks do not match the players.
    #[error("{stacks} stacks given for {players} players")]
    StackCount {
        /// Stacks given.
        stacks: usize,
        /// Players seated.
        players: usize,
    },
    /// A [`TableStart`] with fewer than two players with chips.
    #[error("a sit'n'go needs at least {MIN_SEATS} players with chips, got {0}")]
    TooFewPlayersWithChips(usize),
    /// A [`TableStart`] stack beyond [`crate::config::MAX_STARTING_STACK`].
    #[error("the stack of seat {0} is larger than the maximum starting stack")]
    StackTooLarge(Seat),
    /// A [`TableStart`] button outside the table or on a seat without chips.
    #[error("the button cannot start on seat {0}: no such seat, or it has no chips")]
    BadButton(Seat),
    /// Recorded decks that cannot deal to this table.
    #[error("recorded decks: {0}")]
    Decks(#[from] DeckError),
    /// The configuration is invalid.
    #[error("invalid configuration: {0}")]
    Config(#[from] ConfigError),
}

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
    /// The hand is over and paid: send [`Game::showdown_state`] for each seat to **every**
    /// seat (out ones too), then call [`Game::step`] again.
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
    EndGame(crate::event::GameEndReason),
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
    /// Chips each seat received from the pot this hand.
    amount_won: [Chips; MAX_SEATS],
}

impl HandProgress {
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
            amount_won: [Chips::ZERO; MAX_SEATS],
        }
    }
}

/// One sit'n'go in progress. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct Game {
    config: GameConfig,
    seed: u64,
    decks: deck::Dealer,
    /// The one document, presented in place to each receiver.
    state: GameState,
    cards: view::HoleCards,
    seat_count: usize,
    phase: Phase,
    /// Events whose effect is applied when they are returned by `step`.
    queue: VecDeque<GameEvent>,
    hand: HandProgress,
    first_button: Seat,
    /// The number of the first hand (0 unless started from a [`TableStart`]).
    first_round: u64,
    hands_played: u64,
    standing: ranking::Standing,
    result: Option<GameResult>,
    /// Cards for the next hand, if preset.
    preset: Option<PresetDeal>,
}

impl Game {
    /// Checks the setup and seats the players; nothing is dealt until [`Game::step`].
    ///
    /// # Errors
    /// A [`SetupError`]: too few or too many players, a blank or duplicate name, an id that
    /// is not 24 lowercase hex digits, or an invalid configuration.
    pub fn new(setup: GameSetup) -> Result<Game, SetupError> {
        let GameSetup {
            config,
            players,
            seed,
            tournament_id,
            game_id,
            decks,
        } = setup;
        config.validate()?;
        let seat_count = players.len();
        if seat_count < MIN_SEATS {
            return Err(SetupError::TooFewPlayers(seat_count));
        }
        if seat_count > MAX_SEATS {
            return Err(SetupError::TooManyPlayers(seat_count));
        }
        for (index, name) in players.iter().enumerate() {
            if name.trim().is_empty() {
                return Err(SetupError::BlankName(Seat(index)));
            }
            if let Some(first) = players[..index].iter().position(|other| other == name) {
                return Err(SetupError::DuplicateName {
                    name: name.clone(),
                    first: Seat(first),
                    second: Seat(index),
                });
            }
        }
        for (field, value) in [("tournament_id", &tournament_id), ("game_id", &game_id)] {
            if !is_object_id(value) {
                return Err(SetupError::InvalidId {
                    field,
                    value: value.clone(),
                });
            }
        }
        if let DeckSource::Recorded(recorded) = &decks {
            recorded.check_table(seat_count)?;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let first_button = Seat(rand::Rng::random_range(&mut rng, 0..seat_count));
        let players = players
            .into_iter()
            .enumerate()
            .map(|(index, name)| PlayerState {
                name,
                stack: config.starting_stack,
                status: PlayerStatus::Active,
                bet: Chips::ZERO,
                hole_cards: None,
                time_used: Some(0),
                version: UNKNOWN_VERSION.to_string(),
                amount_won: None,
                id: Seat(index),
            })
            .collect();
        let small_blind = config.blinds.small_blind(0, seat_count);
        let state = GameState {
            tournament_id: Some(tournament_id),
            game_id: Some(game_id),
            round: Some(0),
            players,
            small_blind,
            big_blind: Some(small_blind * 2),
            orbits: 0,
            dealer: first_button,
            community_cards: Vec::with_capacity(5),
            current_buy_in: Chips::ZERO,
            pot: Chips::ZERO,
            in_action: None,
            minimum_raise: None,
            bet_index: None,
        };
        Ok(Game {
            config,
            seed,
            decks: deck::Dealer::new(seed, decks),
            state,
            cards: view::HoleCards::new(seat_count),
            seat_count,
            phase: Phase::NotStarted,
            queue: VecDeque::with_capacity(32),
            hand: HandProgress::new(),
            first_button,
            first_round: 0,
            hands_played: 0,
            standing: ranking::Standing::new(seat_count),
            result: None,
            preset: None,
        })
    }

    /// Like [`Game::new`], but the first hand is `table.round`, the first button
    /// `table.button` and the stacks `table.stacks` (the configured starting stack is not
    /// used). The seed still drives every shuffle.
    ///
    /// # Errors
    /// As [`Game::new`], plus a stack count that does not match the players, fewer than two
    /// players with chips, a stack beyond [`crate::config::MAX_STARTING_STACK`], or a button on
    /// a seat without chips.
    pub fn with_table(setup: GameSetup, table: TableStart) -> Result<Game, SetupError> {
        let mut game = Game::new(setup)?;
        let TableStart {
            round,
            button,
            stacks,
        } = table;
        if stacks.len() != game.seat_count {
            return Err(SetupError::StackCount {
                stacks: stacks.len(),
                players: game.seat_count,
            });
        }
        if let Some(index) = stacks
            .iter()
            .position(|stack| *stack > crate::config::MAX_STARTING_STACK)
        {
            return Err(SetupError::StackTooLarge(Seat(index)));
        }
        let with_chips = stacks.iter().filter(|stack| !stack.is_zero()).count();
        if with_chips < MIN_SEATS {
            return Err(SetupError::TooFewPlayersWithChips(with_chips));
        }
        if stacks
            .get(button.index())
            .is_none_or(|stack| stack.is_zero())
        {
            return Err(SetupError::BadButton(button));
        }
        let mut out_at_start = 0u32;
        for (index, (player, stack)) in game.state.players.iter_mut().zip(&stacks).enumerate() {
            player.stack = *stack;
            if stack.is_zero() {
                player.status = PlayerStatus::Out;
                out_at_start |= 1 << index;
            }
        }
        let mut place = game.seat_count;
        for &seat in ranking::bust_order(out_at_start, &stacks, button).iter() {
            game.standing.places[seat.index()] = Some(place);
            game.standing.remaining -= 1;
            place -= 1;
        }
        game.first_button = button;
        game.first_round = round;
        game.hand.round = round;
        game.state.round = Some(round);
        game.state.orbits = round / game.seat_count as u64;
        game.state.dealer = button;
        game.state.small_blind = game.config.blinds.small_blind(round, game.seat_count);
        game.state.big_blind = Some(game.state.small_blind * 2);
        Ok(game)
    }

    /// Deals `deal`'s cards in the next hand that starts (hole cards to the given seats, the
    /// board in order); every other card still comes from the seeded shuffle.
    ///
    /// # Errors
    /// A card given twice, more than five board cards, an unknown seat, or a finished game.
    pub fn preset_next_hand(&mut self, deal: PresetDeal) -> Result<(), PresetError> {
        if self.phase == Phase::EndGame(crate::event::GameEndReason::HandLimit)
            || self.phase == Phase::EndGame(crate::event::GameEndReason::LastPlayerStanding)
            || self.phase == Phase::Finished
        {
            return Err(PresetError::GameOver);
        }
        if deal.board.len() > 5 {
            return Err(PresetError::BoardTooLong(deal.board.len()));
        }
        let mut seen = 0u64;
        for (seat, pair) in &deal.hole_cards {
            if seat.index() >= self.seat_count {
                return Err(PresetError::UnknownSeat(UnknownSeat {
                    seat: *seat,
                    seat_count: self.seat_count,
                }));
            }
            for card in pair {
                if seen & (1 << card.index()) != 0 {
                    return Err(PresetError::DuplicateCard(*card));
                }
                seen |= 1 << card.index();
            }
        }
        for card in &deal.board {
            if seen & (1 << card.index()) != 0 {
                return Err(PresetError::DuplicateCard(*card));
            }
            seen |= 1 << card.index();
        }
        self.preset = Some(deal);
        Ok(())
    }

    /// Advances to the next thing the caller must see or do.
    pub fn step(&mut self) -> Step {
        loop {
            if let Some(event) = self.queue.pop_front() {
                self.apply(&event);
                return Step::Event(event);
            }
            if let Some(step) = self.advance() {
                return step;
            }
        }
    }

    /// The document for the pending [`Step::BetRequest`]: the receiver's hole cards visible,
    /// every other player's absent; `in_action`, `minimum_raise` and `bet_index` set.
    /// `None` when no bet request is pending. Borrowed: no copy per request.
    pub fn bet_request_state(&self) -> Option<&GameState> {
        matches!(self.phase, Phase::AwaitingAnswer(_)).then_some(&self.state)
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
        self.cards.hide(&mut self.state.players, seat);
        self.phase = Phase::Betting;
        self.read_answer(seat, answer);
        Ok(())
    }

    /// For [`Step::Showdown`]: the document to send to `seat`: the state after the pot is
    /// paid, with `amount_won`, the revealed hands and `seat`'s own cards visible (`[]` if it
    /// was dealt nothing), and no `in_action`, `minimum_raise` or `bet_index`.
    ///
    /// Presented in place (no copy); valid until the next [`Game::step`]. `None` when no
    /// showdown is open or `seat` is not at the table.
    pub fn showdown_state(&mut self, seat: Seat) -> Option<&GameState> {
        if self.phase != Phase::ShowdownOpen || seat.index() >= self.seat_count {
            return None;
        }
        let visible = self.hand.revealed | (1 << seat.index());
        self.cards.show_only(&mut self.state.players, visible);
        Some(&self.state)
    }

    /// Every player's hole cards visible (`[]` for none), without the betting keys: what the
    /// viewer log shows (spec §8). A fresh copy.
    pub fn viewer_state(&self) -> GameState {
        let mut state = self.stripped_copy();
        for (index, player) in state.players.iter_mut().enumerate() {
            let cards = self.cards.cards(&self.state.players, Seat(index));
            player.hole_cards = Some(cards.to_vec());
        }
        state
    }

    /// The table as a spectator sees it: every hole card hidden, without the betting keys.
    /// A fresh copy.
    pub fn public_state(&self) -> GameState {
        let mut state = self.stripped_copy();
        for player in &mut state.players {
            player.hole_cards = None;
        }
        state
    }

    fn stripped_copy(&self) -> GameState {
        let mut state = self.state.clone();
        state.in_action = None;
        state.minimum_raise = None;
        state.bet_index = None;
        state
    }

    /// `seat`'s hole cards this hand (empty when dealt nothing), whoever may see them.
    pub fn hole_cards(&self, seat: Seat) -> &[Card] {
        self.cards.cards(&self.state.players, seat)
    }

    /// Sets the version string shown for `seat` in every later document.
    ///
    /// # Errors
    /// [`UnknownSeat`] for a seat outside the table.
    pub fn set_version(&mut self, seat: Seat, version: String) -> Result<(), UnknownSeat> {
        let player = self.player_mut(seat)?;
        player.version = version;
        Ok(())
    }

    /// Adds a response time to `seat`'s `time_used` (microseconds, cumulative per game).
    ///
    /// # Errors
    /// [`UnknownSeat`] for a seat outside the table.
    pub fn add_time_used(&mut self, seat: Seat, micros: u64) -> Result<(), UnknownSeat> {
        let player = self.player_mut(seat)?;
        player.time_used = Some(player.time_used.unwrap_or(0).saturating_add(micros));
        Ok(())
    }

    fn player_mut(&mut self, seat: Seat) -> Result<&mut PlayerState, UnknownSeat> {
        let seat_count = self.seat_count;
        self.state
            .players
            .get_mut(seat.index())
            .ok_or(UnknownSeat { seat, seat_count })
    }

    /// The outcome, once the game is finished.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        self.phase == Phase::Finished
    }

    /// The configuration.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Seats at the table.
    pub fn seat_count(&self) -> usize {
        self.seat_count
    }

    /// The player's name at `seat`.
    pub fn player_name(&self, seat: Seat) -> Option<&str> {
        self.state
            .players
            .get(seat.index())
            .map(|player| player.name.as_str())
    }

    /// The version shown for the player at `seat`.
    pub fn player_version(&self, seat: Seat) -> Option<&str> {
        self.state
            .players
            .get(seat.index())
            .map(|player| player.version.as_str())
    }

    /// The current (or last) hand's number.
    pub fn round(&self) -> u64 {
        self.hand.round
    }

    /// Hands completed so far in this game.
    pub fn hands_played(&self) -> u64 {
        self.hands_played
    }

    /// Total chips still in the game (stacks plus bets): players × starting stack, less
    /// banned chips and chips discarded by the OSS odd-chip rule.
    pub fn chips_in_play(&self) -> Chips {
        self.state
            .players
            .iter()
            .map(PlayerState::total_chips)
            .sum()
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
                    tournament_id: self.state.tournament_id.clone().unwrap_or_default(),
                    game_id: self.state.game_id.clone().unwrap_or_default(),
                    seed: self.seed,
                    players: self.state.players.iter().map(|p| p.name.clone()).collect(),
                    starting_stack: self.config.starting_stack,
                    first_button: self.first_button,
                };
                self.emit(event)
            }
            Phase::StartHand => self.start_hand(),
            Phase::DealHole(index) => self.deal_hole_card(index),
            Phase::PostSmallBlind => self.post_blind(crate::event::Blind::Small),
            Phase::PostBigBlind => self.post_blind(crate::event::Blind::Big),
            Phase::Betting => self.next_visit(),
            Phase::AwaitingAnswer(seat) => Some(Step::BetRequest { seat }),
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
                self.cards.hide_all(&mut self.state.players);
                self.phase = Phase::StartHand;
                None
            }
            Phase::EndGame(reason) => self.end_game(reason),
            Phase::Finished => Some(Step::Finished),
        }
    }

    /// Applies an event's effect to the document and the bookkeeping.
    fn apply(&mut self, event: &GameEvent) {
        match event {
            GameEvent::GameStarted { .. }
            | GameEvent::HandEnded { .. }
            | GameEvent::GameEnded { .. } => {}
            GameEvent::HandStarted { .. } => self.apply_hand_started(),
            GameEvent::HoleCardDealt { seat, card } => {
                self.cards.deal(&mut self.state.players, *seat, *card);
            }
            GameEvent::BlindPosted {
                seat,
                amount,
                blind,
                ..
            } => self.apply_blind(*seat, *blind, *amount),
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
                let before = self.state.current_buy_in;
                let player = &mut self.state.players[seat.index()];
                player.stack = *stack_after;
                player.bet = *bet_after;
                if *action == shared::BetAction::Fold && player.status == PlayerStatus::Active {
                    player.status = PlayerStatus::Folded;
                    self.hand.in_hand = self.hand.in_hand.saturating_sub(1);
                }
                if *bet_after > before {
                    self.hand.last_aggressor = Some(*seat);
                }
                self.state.pot = *pot_after;
                self.state.current_buy_in = *current_buy_in_after;
                self.hand.minimum_raise = *minimum_raise_after;
                self.hand.visits += 1;
            }
            GameEvent::AnswerForgiven {
                seat,
                round,
                reason,
                counted_as,
            } => self.standing.warnings.push(WarningRecord {
                seat: *seat,
                name: self.state.players[seat.index()].name.clone(),
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
                let player = &mut self.state.players[seat.index()];
                if player.status == PlayerStatus::Active {
                    self.hand.in_hand = self.hand.in_hand.saturating_sub(1);
                }
                player.stack = Chips::ZERO;
                player.bet = Chips::ZERO;
                player.status = PlayerStatus::Out;
                self.standing.banned_this_hand |= 1 << seat.index();
                self.state.pot = *pot_after;
                self.state.current_buy_in = self
                    .state
                    .players
                    .iter()
                    .map(|p| p.bet)
                    .max()
                    .unwrap_or_default();
                self.hand.visits += 1;
                self.standing.chips_banned += *chips_removed;
                self.standing.bans.push(BanRecord {
                    seat: *seat,
                    name: self.state.players[seat.index()].name.clone(),
                    round: *round,
                    reason: reason.clone(),
                    chips_removed: *chips_removed,
                });
            }
            GameEvent::CommunityCardDealt { card, .. } => self.state.community_cards.push(*card),
            GameEvent::HandRevealed { seat, .. } => self.hand.revealed |= 1 << seat.index(),
            GameEvent::PotAwarded {
                level,
                shares,
                discarded,
                ..
            } => {
                for player in &mut self.state.players {
                    let taken = player.bet.min(*level);
                    player.bet -= taken;
                }
                for share in shares {
                    self.credit(share.seat, share.amount);
                }
                self.standing.chips_discarded += *discarded;
                self.after_payout();
            }
            GameEvent::ChipsReturned { seat, amount } => {
                let player = &mut self.state.players[seat.index()];
                player.bet = player.bet.saturating_sub(*amount);
                self.credit(*seat, *amount);
                self.after_payout();
            }
            GameEvent::PlayerEliminated {
                seat, round, place, ..
            } => {
                let player = &mut self.state.players[seat.index()];
                player.status = PlayerStatus::Out;
                self.standing.eliminate(*seat, *round, *place);
            }
        }
    }

    /// Pays `amount` from the pot to `seat` (its bet was already reduced).
    fn credit(&mut self, seat: Seat, amount: Chips) {
        let player = &mut self.state.players[seat.index()];
        player.stack += amount;
        self.hand.amount_won[seat.index()] += amount;
        let won = self.hand.amount_won[seat.index()];
        player.amount_won = (!won.is_zero()).then_some(won);
    }

    /// Keeps `pot`, `current_buy_in` and statuses consistent after chips left the pot.
    fn after_payout(&mut self) {
        let mut pot = Chips::ZERO;
        let mut largest = Chips::ZERO;
        for player in &mut self.state.players {
            pot += player.bet;
            largest = largest.max(player.bet);
            if player.total_chips().is_zero() {
                player.status = PlayerStatus::Out;
            }
        }
        self.state.pot = pot;
        self.state.current_buy_in = largest;
    }

    /// Ranks the survivors, builds the result and emits `GameEnded`.
    fn end_game(&mut self, reason: crate::event::GameEndReason) -> Option<Step> {
        let stacks: SeatList<Chips> = self.state.players.iter().map(|p| p.stack).collect();
        let survivors = (0..self.seat_count)
            .filter(|&index| self.standing.places[index].is_none())
            .fold(0u32, |mask, index| mask | 1 << index);
        let order = ranking::survivor_order(survivors, &stacks, self.hand.button);
        for (position, seat) in order.iter().enumerate() {
            self.standing.places[seat.index()] = Some(position + 1);
        }
        let places: Vec<usize> = self
            .standing
            .places
            .iter()
            .map(|place| place.unwrap_or(self.seat_count))
            .collect();
        let mut ranking: Vec<Seat> = (0..self.seat_count).map(Seat).collect();
        ranking.sort_by_key(|seat| places[seat.index()]);
        let result = GameResult {
            tournament_id: self.state.tournament_id.clone().unwrap_or_default(),
            game_id: self.state.game_id.clone().unwrap_or_default(),
            seed: self.seed,
            players: self.state.players.iter().map(|p| p.name.clone()).collect(),
            points: places
                .iter()
                .map(|&place| crate::result::points_for_place(place))
                .collect(),
            places,
            ranking: ranking.clone(),
            hands_played: self.hands_played,
            ended_by: reason,
            bans: self.standing.bans.clone(),
            warnings: self.standing.warnings.clone(),
            final_stacks: stacks.to_vec(),
            eliminated_in_round: self.standing.eliminated_in_round.clone(),
            chips_banned: self.standing.chips_banned,
            chips_discarded: self.standing.chips_discarded,
        };
        self.result = Some(result);
        self.phase = Phase::Finished;
        self.emit(GameEvent::GameEnded {
            reason,
            ranking: ranking.into_iter().collect(),
        })
    }

    /// Queues a `PlayerEliminated` for `seat` at the next free place.
    fn queue_elimination(&mut self, seat: Seat, place: usize, reason: EliminationReason) {
        self.queue.push_back(GameEvent::PlayerEliminated {
            seat,
            round: self.hand.round,
            place,
            reason,
        });
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
