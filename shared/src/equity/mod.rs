//! Win/tie equity of two hole cards against random opponents.
//!
//! A [`Scenario`] is what is known: our hole cards, the board (0, 3, 4 or 5 cards), cards known
//! to be out of the deck (dead cards), and how many opponents are still in the hand. Their hole
//! cards and the rest of the board are unknown and dealt at random from the remaining deck.
//!
//! - [`Scenario::monte_carlo`]: `trials` random deals, reproducible from a seed;
//! - [`Scenario::monte_carlo_for`]: as many deals as fit in a time budget;
//! - [`Scenario::exact`]: every deal, when the enumeration is cheap: one or two opponents
//!   from the flop on (about a million showdowns at most), three on the turn and river;
//!   never preflop (billions of deals) nor four or more opponents (Monte Carlo then);
//! - [`Scenario::estimate`]: exact when that is no more work than the requested trials, else
//!   Monte Carlo;
//! - [`equity_for`]: the receiver of a `game_state` against its active opponents.
//!
//! ```
//! use shared::card::parse_cards;
//! use shared::equity::Scenario;
//! let scenario = Scenario::new(&parse_cards("Ah Kh").unwrap(), &[], 3).unwrap();
//! let result = scenario.monte_carlo(20_000, 42).unwrap();
//! assert!((0.39..0.44).contains(&result.equity())); // about 41.5%
//! assert_eq!(result, scenario.monte_carlo(20_000, 42).unwrap()); // same seed, same numbers
//! ```
//!
//! Equity here is the expected share of the pot: a win counts 1 and a tie between `k` players
//! counts `1/k` ([`EquityResult::tie`]). Random dealing is uniform without replacement: each
//! trial deals a fresh random sample of the remaining deck by a partial Fisher–Yates shuffle
//! driven by unbiased bounded integers (Lemire's method with rejection).

mod exact;
mod sample;

use crate::card::Card;
use crate::eval::{card_code, HandKey};
use crate::state::GameState;
use exact::{binomial, for_each_subset, ExactTally};
use sample::Sampler;
use std::time::{Duration, Instant};
use thiserror::Error;

/// The most opponents a deck can serve: 2 hole cards each, ours and a full board leave 45.
pub const MAX_OPPONENTS: usize = 22;

/// Exact enumeration refuses to do more than this many showdown evaluations (about 10 ms).
const EXACT_LIMIT: u64 = 3_000_000;

/// Why equity could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EquityError {
    /// We need exactly two hole cards.
    #[error("equity needs exactly 2 hole cards, got {0}")]
    HoleCards(usize),
    /// The board must be a Hold'em street: 0, 3, 4 or 5 cards.
    #[error("the board must have 0, 3, 4 or 5 cards, got {0}")]
    BoardSize(usize),
    /// A card was given twice (in the hole cards, the board or the dead cards).
    #[error("card {0} appears more than once")]
    DuplicateCard(Card),
    /// Equity against nobody is meaningless.
    #[error("equity needs at least one opponent")]
    NoOpponents,
    /// The deck cannot deal the board and two cards to every opponent.
    #[error("{opponents} opponents need {needed} more cards but only {available} are left")]
    TooManyOpponents {
        /// Opponents asked for.
        opponents: usize,
        /// Cards the deal needs (two per opponent plus the rest of the board).
        needed: usize,
        /// Cards left in the deck.
        available: usize,
    },
    /// Monte Carlo with zero trials would divide by zero.
    #[error("at least one trial is needed")]
    NoTrials,
}

/// The outcome of an equity calculation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EquityResult {
    /// Probability of winning the whole pot alone.
    pub win: f64,
    /// Expected pot share from ties: a tie between `k` players (us included) counts `1/k`.
    pub tie: f64,
    /// Deals examined: random trials, or every possible deal when [`exact`](Self::exact).
    pub trials: u64,
    /// Whether every possible deal was enumerated (no sampling error).
    pub exact: bool,
}

impl EquityResult {
    /// Our expected share of the pot: `win + tie`, between 0 and 1.
    pub fn equity(&self) -> f64 {
        self.win + self.tie
    }
}

/// What is known about a hand, for equity calculations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    hole: HandKey,
    board: HandKey,
    board_len: usize,
    /// Every known card: hole, board and dead.
    known: u64,
    opponents: usize,
}

pub(super) fn card_bit(card: Card) -> u64 {
    1u64 << card.index()
}

fn add_known(known: &mut u64, cards: &[Card]) -> Result<(), EquityError> {
    for &card in cards {
        if *known & card_bit(card) != 0 {
            return Err(EquityError::DuplicateCard(card));
        }
        *known |= card_bit(card);
    }
    Ok(())
}

impl Scenario {
    /// Our two hole cards, the board (0, 3, 4 or 5 cards) and the number of opponents
    /// (1..=[`MAX_OPPONENTS`], as far as the deck allows).
    ///
    /// # Errors
    /// [`EquityError::HoleCards`], [`EquityError::BoardSize`], [`EquityError::DuplicateCard`],
    /// [`EquityError::NoOpponents`], [`EquityError::TooManyOpponents`].
    pub fn new(hole: &[Card], board: &[Card], opponents: usize) -> Result<Scenario, EquityError> {
        if hole.len() != 2 {
            return Err(EquityError::HoleCards(hole.len()));
        }
        if !matches!(board.len(), 0 | 3 | 4 | 5) {
            return Err(EquityError::BoardSize(board.len()));
        }
        let mut known = 0u64;
        add_known(&mut known, hole)?;
        add_known(&mut known, board)?;
        let scenario = Scenario {
            // Both sets hold distinct cards and at most five, checked above.
            hole: HandKey::from_cards(hole).map_err(|_| EquityError::HoleCards(hole.len()))?,
            board: HandKey::from_cards(board).map_err(|_| EquityError::BoardSize(board.len()))?,
            board_len: board.len(),
            known,
            opponents,
        };
        scenario.check_deal()?;
        Ok(scenario)
    }

    /// The same scenario with `dead` cards known to be out of the deck (folded cards someone
    /// showed, a burnt card seen by accident).
    ///
    /// # Errors
    /// [`EquityError::DuplicateCard`] when a dead card is already known,
    /// [`EquityError::TooManyOpponents`] when the deck becomes too small.
    pub fn with_dead(mut self, dead: &[Card]) -> Result<Scenario, EquityError> {
        add_known(&mut self.known, dead)?;
        self.check_deal()?;
        Ok(self)
    }

    /// The number of opponents.
    pub fn opponents(&self) -> usize {
        self.opponents
    }

    fn check_deal(&self) -> Result<(), EquityError> {
        if self.opponents == 0 {
            return Err(EquityError::NoOpponents);
        }
        let needed = self.cards_to_deal();
        let available = self.deck_len();
        if self.opponents > MAX_OPPONENTS || needed > available {
            return Err(EquityError::TooManyOpponents {
                opponents: self.opponents,
                needed,
                available,
            });
        }
        Ok(())
    }

    /// Cards each deal needs: the rest of the board and two per opponent.
    fn cards_to_deal(&self) -> usize {
        5 - self.board_len + 2 * self.opponents
    }

    fn deck_len(&self) -> usize {
        52 - self.known.count_ones() as usize
    }

    /// The cards not known to be anywhere, as evaluator codes.
    fn deck(&self) -> ([u16; 52], usize) {
        let mut deck = [0u16; 52];
        let mut len = 0;
        for card in Card::deck() {
            if self.known & card_bit(card) == 0 {
                deck[len] = card_code(card);
                len += 1;
            }
        }
        (deck, len)
    }

    /// Equity from `trials` random deals; the same `seed` gives the same result.
    ///
    /// # Errors
    /// [`EquityError::NoTrials`] when `trials` is zero.
    pub fn monte_carlo(&self, trials: u64, seed: u64) -> Result<EquityResult, EquityError> {
        if trials == 0 {
            return Err(EquityError::NoTrials);
        }
        let mut sampler = Sampler::new(self, seed);
        sampler.run(trials);
        Ok(sampler.result())
    }

    /// Equity from as many random deals as fit in `budget` (at least one batch of 1,024).
    /// Deals follow `seed`, but how many there are depends on the machine.
    pub fn monte_carlo_for(&self, budget: Duration, seed: u64) -> EquityResult {
        const BATCH: u64 = 1024;
        let start = Instant::now();
        let mut sampler = Sampler::new(self, seed);
        loop {
            sampler.run(BATCH);
            if start.elapsed() >= budget {
                return sampler.result();
            }
        }
    }

    /// The work exact enumeration needs, in showdown evaluations (or the equivalent), or
    /// `None` when it is not available (four or more opponents).
    pub fn exact_cost(&self) -> Option<u64> {
        if self.opponents > 3 {
            return None;
        }
        let deck = self.deck_len() as u64;
        let to_board = 5 - self.board_len as u64;
        let boards = binomial(deck, to_board);
        let rest = deck - to_board;
        let hands = binomial(rest, 2);
        // With three opponents each holding also costs a pass over the remaining cards,
        // measured at about one evaluation per card.
        let per_board = if self.opponents == 3 {
            hands + hands * rest
        } else {
            hands + 1
        };
        Some(boards.saturating_mul(per_board))
    }

    /// Equity from every possible deal, when that is cheap (at most a few milliseconds): one
    /// or two opponents from the flop on, three opponents on the turn and the river. `None`
    /// otherwise.
    pub fn exact(&self) -> Option<EquityResult> {
        if self.exact_cost()? > EXACT_LIMIT {
            return None;
        }
        Some(self.enumerate())
    }

    /// Exact equity when enumerating costs no more than `trials` random deals would,
    /// otherwise Monte Carlo with `trials` and `seed`.
    ///
    /// # Errors
    /// [`EquityError::NoTrials`] when `trials` is zero.
    pub fn estimate(&self, trials: u64, seed: u64) -> Result<EquityResult, EquityError> {
        if trials == 0 {
            return Err(EquityError::NoTrials);
        }
        let monte_carlo_cost = trials.saturating_mul(self.opponents as u64 + 1);
        match self.exact_cost() {
            Some(cost) if cost <= monte_carlo_cost && cost <= EXACT_LIMIT => Ok(self.enumerate()),
            _ => self.monte_carlo(trials, seed),
        }
    }

    /// Enumerates every board completion and, on each, every holding of the (one to three)
    /// opponents.
    fn enumerate(&self) -> EquityResult {
        let (deck, len) = self.deck();
        let deck = &deck[..len];
        let to_board = 5 - self.board_len;
        let mut tally = ExactTally::default();
        let mut board_cards = [0u16; 5];
        for_each_subset(deck, to_board, &mut board_cards, &mut |extra| {
            let mut board = self.board;
            for &index in extra {
                board = board.add_code_unchecked(index);
            }
            let ours = board.join_unchecked(self.hole).strength_unchecked();
            let mut rest = [0u16; 52];
            let mut rest_len = 0;
            for &index in deck {
                if !extra.contains(&index) {
                    rest[rest_len] = index;
                    rest_len += 1;
                }
            }
            tally.add_board(board, ours, &rest[..rest_len], self.opponents);
        });
        tally.result()
    }
}

/// Equity of the receiving player of `state` against its active opponents (all-in ones
/// included): exact whenever [`Scenario::exact`] is available (one or two opponents from the
/// flop on, three from the turn on; a few milliseconds at most), else `trials` Monte Carlo
/// deals.
///
/// The seed is derived from the state (game, round, cards, players in the hand), so the same
/// decision gets the same number every time, which keeps bots reproducible.
///
/// ```
/// let state = shared::testing_state(); // Bob holds 6h Ks on a 4s Ah 6c flop
/// let result = shared::equity::equity_for(&state, 10_000).unwrap();
/// assert!(result.exact); // heads-up on the flop is enumerated
/// assert!((0.0..=1.0).contains(&result.equity()));
/// ```
///
/// # Errors
/// [`EquityError::HoleCards`] when the receiver's two cards are not known, and the errors of
/// [`Scenario::new`] and [`Scenario::estimate`] (e.g. [`EquityError::NoOpponents`] when
/// everybody else folded).
pub fn equity_for(state: &GameState, trials: u64) -> Result<EquityResult, EquityError> {
    let hole = state.my_cards();
    let opponents = state.active_opponents().count();
    let scenario = Scenario::new(hole, &state.community_cards, opponents)?;
    // FNV-1a over what identifies the decision.
    let mut seed = 0xCBF2_9CE4_8422_2325u64;
    let mut mix = |byte: u8| {
        seed ^= u64::from(byte);
        seed = seed.wrapping_mul(0x0000_0100_0000_01B3);
    };
    for byte in state.game_id.as_deref().unwrap_or("").bytes() {
        mix(byte);
    }
    for byte in state.round.unwrap_or(0).to_le_bytes() {
        mix(byte);
    }
    for card in hole.iter().chain(&state.community_cards) {
        mix(card.index());
    }
    mix(opponents as u8);
    match scenario.exact() {
        Some(result) => Ok(result),
        None => scenario.monte_carlo(trials, seed),
    }
}
