//! Seating a sit'n'go (spec §2, §7): the players, ids, seed and configuration checked, the
//! first button drawn, or a table taken over mid-tournament ([`TableStart`]); and cards preset
//! for a replay ([`PresetDeal`]).

use super::model::Table;
use super::{ranking, DeckError, DeckSource, Game, HandProgress, Phase, UnknownSeat, MAX_SEATS};
use crate::rules::{GameRules, RulesError};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shared::{Card, Chips, PlayerStatus, Seat};
use std::collections::VecDeque;
use thiserror::Error;

/// The fewest players a sit'n'go can start with.
pub const MIN_SEATS: usize = 2;

/// The version string shown until a player answers `version` (spec §2).
pub const UNKNOWN_VERSION: &str = "Unknown";

/// Everything needed to start one sit'n'go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSetup {
    /// The rules.
    pub config: GameRules,
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
    pub fn new(config: GameRules, players: Vec<String>, seed: u64) -> GameSetup {
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
/// given are still drawn from the seeded deck.
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
/// let id = engine::object_id(&mut rand_chacha::ChaCha8Rng::seed_from_u64(1));
/// assert_eq!(id.len(), 24);
/// assert!(engine::is_object_id(&id));
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
    /// A [`TableStart`] stack beyond [`crate::rules::MAX_STARTING_STACK`].
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
    Config(#[from] RulesError),
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
        let mut hand = HandProgress::new();
        hand.button = first_button;
        hand.small_blind = config.blinds.small_blind(0, seat_count);
        hand.big_blind = hand.small_blind * 2;
        let table = Table::new(
            tournament_id,
            game_id,
            players,
            config.starting_stack,
            UNKNOWN_VERSION,
            hand.header(),
        );
        Ok(Game {
            config,
            seed,
            decks: super::deck::Dealer::new(seed, decks),
            table,
            seat_count,
            phase: Phase::NotStarted,
            queue: VecDeque::with_capacity(32),
            hand,
            first_button,
            first_round: 0,
            hands_played: 0,
            roster: ranking::Roster::new(seat_count),
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
    /// players with chips, a stack beyond [`crate::rules::MAX_STARTING_STACK`], or a button on
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
            .position(|stack| *stack > crate::rules::MAX_STARTING_STACK)
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
        for (index, stack) in stacks.iter().enumerate() {
            game.table.update_seat(Seat(index), |player| {
                player.stack = *stack;
                if stack.is_zero() {
                    player.status = PlayerStatus::Out;
                }
            });
            if stack.is_zero() {
                out_at_start |= 1 << index;
            }
        }
        let mut place = game.seat_count;
        for &seat in ranking::bust_order(out_at_start, &stacks, button).iter() {
            game.roster.places[seat.index()] = Some(place);
            game.roster.remaining -= 1;
            place -= 1;
        }
        game.first_button = button;
        game.first_round = round;
        game.hand.round = round;
        game.hand.button = button;
        game.hand.small_blind = game.config.blinds.small_blind(round, game.seat_count);
        game.hand.big_blind = game.hand.small_blind * 2;
        game.table.set_header(game.hand.header());
        Ok(game)
    }

    /// Deals `deal`'s cards in the next hand that starts (hole cards to the given seats, the
    /// board in order); every other card still comes from the seeded shuffle.
    ///
    /// # Errors
    /// A card given twice, more than five board cards, an unknown seat, or a finished game.
    pub fn preset_next_hand(&mut self, deal: PresetDeal) -> Result<(), PresetError> {
        if self.phase == Phase::EndGame(crate::game_event::GameEndReason::HandLimit)
            || self.phase == Phase::EndGame(crate::game_event::GameEndReason::LastPlayerStanding)
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
}
