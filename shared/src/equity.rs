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

use crate::card::Card;
use crate::eval::{card_code, CardEntry, HandKey, HandStrength};
use crate::state::GameState;
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

fn card_bit(card: Card) -> u64 {
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

/// Calls `visit` with every `k`-subset of `items` (k <= 5), in lexicographic order.
fn for_each_subset(items: &[u16], k: usize, buffer: &mut [u16; 5], visit: &mut dyn FnMut(&[u16])) {
    fn recurse(
        items: &[u16],
        start: usize,
        depth: usize,
        k: usize,
        buffer: &mut [u16; 5],
        visit: &mut dyn FnMut(&[u16]),
    ) {
        if depth == k {
            visit(&buffer[..k]);
            return;
        }
        for i in start..items.len() {
            buffer[depth] = items[i];
            recurse(items, i + 1, depth + 1, k, buffer, visit);
        }
    }
    recurse(items, 0, 0, k.min(5), buffer, visit);
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut result = 1u64;
    for i in 0..k {
        result = result * (n - i) / (i + 1);
    }
    result
}

/// A distinct index below 64 for the card with evaluator `code` (`rank value | suit << 8`):
/// `suit * 16 + rank value`, for the per-card tables of the exact enumeration.
#[inline(always)]
fn small_index(code: u16) -> usize {
    usize::from(code >> 8 & 3) << 4 | usize::from(code & 15)
}

/// Exact counts over equally likely deals.
#[derive(Default)]
struct ExactTally {
    deals: u64,
    wins: u64,
    /// Deals where we share the pot with one opponent (two ways).
    two_way: u64,
    /// ... with two opponents (three ways).
    three_way: u64,
    /// ... with three opponents (four ways).
    four_way: u64,
}

/// How an opponent's holding compares with our hand.
const LOSE: u8 = 0;
const TIE: u8 = 1;
const WIN: u8 = 2;

/// Holdings we beat (`W`) and tie (`T`) among a set of cards, with per-card counts: enough to
/// count pairs of disjoint holdings without visiting them.
struct HoldingStats {
    /// Cards available.
    cards: u64,
    beaten: u64,
    tied: u64,
    /// Per card code: holdings in `W` / `T` containing that card.
    beaten_by_card: [u64; 64],
    tied_by_card: [u64; 64],
}

/// The per-card sums that [`disjoint_pairs`] needs: `sum d_W (d_W - 1)`, `sum d_T (d_T - 1)`
/// and `sum d_W d_T` over the cards.
#[derive(Default)]
struct CardSums {
    beaten_shared: u64,
    tied_shared: u64,
    across: u64,
}

impl CardSums {
    fn add(&mut self, beaten: u64, tied: u64) {
        self.beaten_shared += beaten * beaten.saturating_sub(1);
        self.tied_shared += tied * tied.saturating_sub(1);
        self.across += beaten * tied;
    }
}

/// Unordered pairs of disjoint holdings among `cards` cards of which `beaten` holdings are
/// in `W` and `tied` in `T`: `(all pairs, both beaten, one beaten and one tied, both tied)`.
///
/// The ordered pairs of distinct holdings in a set `S` number `|S|^2 - |S|`, of which
/// `sum over cards c of d(c) * (d(c) - 1)` share a card (`d(c)` = holdings in `S` containing
/// `c`); between two disjoint sets `A` and `B` there are `|A| |B| - sum d_A(c) d_B(c)`
/// disjoint pairs. Every card is in `n - 1` of all `n (n - 1) / 2` holdings.
fn disjoint_pairs(cards: u64, beaten: u64, tied: u64, sums: &CardSums) -> (u64, u64, u64, u64) {
    let n = cards;
    let all = n * n.saturating_sub(1) / 2;
    let all_pairs = (all * all - all - n * n.saturating_sub(1) * n.saturating_sub(2)) / 2;
    (
        all_pairs,
        (beaten * beaten - beaten - sums.beaten_shared) / 2,
        beaten * tied - sums.across,
        (tied * tied - tied - sums.tied_shared) / 2,
    )
}

impl ExactTally {
    /// Adds every holding of the opponents (one to three) from `rest` on a complete `board`.
    fn add_board(&mut self, board: HandKey, ours: HandStrength, rest: &[u16], opponents: usize) {
        let mut stats = HoldingStats {
            cards: rest.len() as u64,
            beaten: 0,
            tied: 0,
            beaten_by_card: [0; 64],
            tied_by_card: [0; 64],
        };
        // Outcome of each holding, by code pair (codes are < 64).
        let mut outcome = [LOSE; 64 * 64];
        for (i, &first) in rest.iter().enumerate() {
            let with_first = board.add_code_unchecked(first);
            for &second in &rest[i + 1..] {
                let theirs = with_first.add_code_unchecked(second).strength_unchecked();
                let (a, b) = (small_index(first), small_index(second));
                let result = if theirs < ours {
                    stats.beaten += 1;
                    stats.beaten_by_card[a] += 1;
                    stats.beaten_by_card[b] += 1;
                    WIN
                } else if theirs == ours {
                    stats.tied += 1;
                    stats.tied_by_card[a] += 1;
                    stats.tied_by_card[b] += 1;
                    TIE
                } else {
                    LOSE
                };
                outcome[a * 64 + b] = result;
                outcome[b * 64 + a] = result;
            }
        }
        match opponents {
            1 => {
                self.deals += stats.cards * stats.cards.saturating_sub(1) / 2;
                self.wins += stats.beaten;
                self.two_way += stats.tied;
            }
            2 => {
                let mut sums = CardSums::default();
                for &card in rest {
                    let c = small_index(card);
                    sums.add(stats.beaten_by_card[c], stats.tied_by_card[c]);
                }
                let (all, both_beaten, beaten_tied, both_tied) =
                    disjoint_pairs(stats.cards, stats.beaten, stats.tied, &sums);
                self.deals += all;
                self.wins += both_beaten;
                self.two_way += beaten_tied;
                self.three_way += both_tied;
            }
            _ => self.add_three(&stats, &outcome, rest),
        }
    }

    /// Three opponents: for each holding of one of them, the other two are counted as pairs
    /// among the remaining cards. Every deal is met three times (once per opponent taken
    /// first), hence the division.
    fn add_three(&mut self, stats: &HoldingStats, outcome: &[u8; 64 * 64], rest: &[u16]) {
        let mut tally = ExactTally::default();
        let beats = |a: usize, b: usize| u64::from(outcome[a * 64 + b] == WIN);
        let ties = |a: usize, b: usize| u64::from(outcome[a * 64 + b] == TIE);
        for (i, &first) in rest.iter().enumerate() {
            for &second in &rest[i + 1..] {
                let (a, b) = (small_index(first), small_index(second));
                // The holdings left once `a` and `b` are gone.
                let beaten =
                    stats.beaten + beats(a, b) - stats.beaten_by_card[a] - stats.beaten_by_card[b];
                let tied = stats.tied + ties(a, b) - stats.tied_by_card[a] - stats.tied_by_card[b];
                let mut sums = CardSums::default();
                for &other in rest {
                    let c = small_index(other);
                    if c != a && c != b {
                        sums.add(
                            stats.beaten_by_card[c] - beats(c, a) - beats(c, b),
                            stats.tied_by_card[c] - ties(c, a) - ties(c, b),
                        );
                    }
                }
                let (all, both_beaten, beaten_tied, both_tied) =
                    disjoint_pairs(stats.cards - 2, beaten, tied, &sums);
                tally.deals += all;
                match outcome[a * 64 + b] {
                    WIN => {
                        tally.wins += both_beaten;
                        tally.two_way += beaten_tied;
                        tally.three_way += both_tied;
                    }
                    TIE => {
                        tally.two_way += both_beaten;
                        tally.three_way += beaten_tied;
                        tally.four_way += both_tied;
                    }
                    _ => {}
                }
            }
        }
        self.deals += tally.deals / 3;
        self.wins += tally.wins / 3;
        self.two_way += tally.two_way / 3;
        self.three_way += tally.three_way / 3;
        self.four_way += tally.four_way / 3;
    }

    fn result(&self) -> EquityResult {
        let deals = self.deals.max(1) as f64;
        let shares =
            self.two_way as f64 / 2.0 + self.three_way as f64 / 3.0 + self.four_way as f64 / 4.0;
        EquityResult {
            win: self.wins as f64 / deals,
            tie: shares / deals,
            trials: self.deals,
            exact: true,
        }
    }
}

/// Monte Carlo state: the deck, the generator and the counts so far.
struct Sampler {
    /// The cards left, as evaluator entries; positions past `deck_len` are unused. 64 long so
    /// that a position masked with 63 is always in range.
    deck: [CardEntry; 64],
    deck_len: usize,
    board: HandKey,
    hole: HandKey,
    to_board: usize,
    opponents: usize,
    rng: WyRand,
    trials: u64,
    /// `outcomes[0]`: trials won alone; `outcomes[k]` for `k` in `1..=MAX_OPPONENTS`: trials
    /// where we shared the pot with `k` opponents; `outcomes[LOST]`: trials lost.
    outcomes: [u64; OUTCOMES],
}

/// Where [`Sampler`] counts lost trials.
const LOST: usize = MAX_OPPONENTS + 1;
/// The length of [`Sampler`]'s outcome counts: a power of two above [`LOST`], so that a masked
/// index needs no bounds check.
const OUTCOMES: usize = 32;

impl Sampler {
    fn new(scenario: &Scenario, seed: u64) -> Sampler {
        let mut deck = [CardEntry::default(); 64];
        let mut deck_len = 0;
        // The same order as `Scenario::deck`: the deals depend on it.
        for card in Card::deck() {
            if scenario.known & card_bit(card) == 0 {
                deck[deck_len] = CardEntry::of(card);
                deck_len += 1;
            }
        }
        Sampler {
            deck,
            deck_len,
            board: scenario.board,
            hole: scenario.hole,
            to_board: 5 - scenario.board_len,
            opponents: scenario.opponents,
            rng: WyRand::new(seed),
            trials: 0,
            outcomes: [0; OUTCOMES],
        }
    }

    fn run(&mut self, trials: u64) {
        // Locals, so that the hot loop keeps them in registers. `Scenario::check_deal`
        // guarantees `needed <= deck_len <= 52` and at most `MAX_OPPONENTS` opponents; the
        // `min`s only tell the compiler so.
        let deck_len = self.deck_len.min(52);
        let to_board = self.to_board.min(5);
        let needed = (to_board + 2 * self.opponents.min(MAX_OPPONENTS)).min(deck_len);
        let (board, hole) = (self.board, self.hole);
        let mut deck = self.deck;
        let mut rng = WyRand::new(self.rng.state);
        let mut outcomes = self.outcomes;
        for _ in 0..trials {
            // A partial Fisher–Yates shuffle: positions 0..needed become a uniform random
            // sample in random order, whatever order the deck was left in by the last trial.
            // Every bound is at least 1 because `needed <= deck_len`.
            let mut i = 0;
            while i < needed {
                // Two draws from one 64-bit output.
                let bits = rng.next_u64();
                let j = i + rng.below_nonzero(bits as u32, (deck_len - i) as u32) as usize;
                deck.swap(i & 63, j & 63);
                i += 1;
                if i < needed {
                    let bound = (deck_len - i) as u32;
                    let j = i + rng.below_nonzero((bits >> 32) as u32, bound) as usize;
                    deck.swap(i & 63, j & 63);
                    i += 1;
                }
            }
            let mut full_board = board;
            for &entry in &deck[..to_board] {
                full_board = full_board.add_entry_unchecked(entry);
            }
            let ours = full_board.join_unchecked(hole).strength_unchecked();
            // Every opponent is evaluated (no early exit on a loss): a data-dependent branch
            // per opponent costs more in mispredictions than the evaluations it saves.
            let mut best = 0;
            let mut tied = 0;
            for holding in deck[to_board..needed].chunks_exact(2) {
                let theirs = full_board
                    .add_entry_unchecked(holding[0])
                    .add_entry_unchecked(holding[1])
                    .strength_unchecked();
                best = best.max(theirs.index());
                tied += usize::from(theirs == ours);
            }
            // Won alone: nobody tied, index 0; split: index = opponents tied; lost: LOST.
            let outcome = if ours.index() < best { LOST } else { tied };
            outcomes[outcome & (OUTCOMES - 1)] += 1;
        }
        self.deck = deck;
        self.rng = rng;
        self.outcomes = outcomes;
        self.trials += trials;
    }

    fn result(&self) -> EquityResult {
        let trials = self.trials.max(1) as f64;
        let tie_share: f64 = self.outcomes[1..=MAX_OPPONENTS]
            .iter()
            .enumerate()
            .map(|(others, &count)| count as f64 / (others as f64 + 2.0))
            .sum();
        EquityResult {
            win: self.outcomes[0] as f64 / trials,
            tie: tie_share / trials,
            trials: self.trials,
            exact: false,
        }
    }
}

/// wyrand (Wang Yi's generator from wyhash): 64 bits of state, one multiply per output, passes
/// BigCrush and PractRand. Written out here (rather than taken from `rand`) so that a seed
/// gives the same deals on every platform and in every future version.
struct WyRand {
    state: u64,
}

impl WyRand {
    fn new(seed: u64) -> WyRand {
        WyRand { state: seed }
    }

    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xA076_1D64_78BD_642F);
        let product = u128::from(self.state) * u128::from(self.state ^ 0xE703_7ED1_A0B4_28DB);
        (product as u64) ^ ((product >> 64) as u64)
    }

    /// A uniform integer in `0..bound` (`bound >= 1`; 0 for 0) from the uniform 32-bit
    /// `first`.
    #[cfg(test)]
    fn below_from(&mut self, first: u32, bound: u32) -> u32 {
        self.below_nonzero(first, bound.max(1))
    }

    /// A uniform integer in `0..bound` from the uniform 32-bit `first`, for `bound >= 1`,
    /// without bias: Lemire's multiply-shift, rejecting the few low products that would
    /// favour some results (then drawing fresh bits; probability below bound / 2^32).
    #[inline(always)]
    fn below_nonzero(&mut self, first: u32, bound: u32) -> u32 {
        let mut product = u64::from(first) * u64::from(bound);
        if (product as u32) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (product as u32) < threshold {
                product = u64::from(self.next_u64() as u32) * u64::from(bound);
            }
        }
        (product >> 32) as u32
    }

    /// A uniform integer in `0..bound` (`bound >= 1`).
    #[cfg(test)]
    fn below(&mut self, bound: u32) -> u32 {
        let bits = self.next_u64() as u32;
        self.below_from(bits, bound)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = WyRand::new(7);
        let mut seen = [0u32; 52];
        for _ in 0..52_000 {
            let value = rng.below(52) as usize;
            seen[value] += 1;
        }
        assert!(
            seen.iter().all(|&count| (800..1200).contains(&count)),
            "{seen:?}"
        );
        assert_eq!(rng.below(1), 0);
        assert_eq!(rng.below(0), 0);
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(52, 5), 2_598_960);
        assert_eq!(binomial(45, 2), 990);
        assert_eq!(binomial(3, 5), 0);
        assert_eq!(binomial(7, 0), 1);
    }
}
