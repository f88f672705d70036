//! Random `bet_request` states that a Lean Poker dealer can really send, to check a strategy on
//! situations nobody wrote by hand.
//!
//! Every state is one a sit'n'go can reach: 2 to [`MAX_SEATS`] seats that all started with the
//! same stack (spec §7: 1000 on the live server; our dealer accepts up to
//! [`MAX_STARTING_STACK`]), so the chips in play never exceed `seats × starting stack` (they can
//! be fewer: a banned player's chips leave the game, spec §6). Stacks, bets, blinds (the live
//! schedule, or any size up to the starting stack), folded, all-in and busted players, the
//! board of every street, and a receiver with chips behind and two hole cards vary from case to
//! case. Each state passes [`GameState::validate`].
//!
//! What it does not generate: documents no dealer sends (numbers near `u64::MAX`, a receiver
//! without cards, a card twice). The SDK already answers those with a fold, and a strategy
//! need not defend against them.
//!
//! ```
//! use player::testing::{assert_answers_dealer_states, DealerStates};
//! use player::{from_fn, Chips};
//!
//! // Calls, and raises ten times the call with a pair: fine for every chip count a dealer
//! // deals, since chips in play stay far below u64::MAX.
//! let bot = from_fn(|state| {
//!     let cards = state.my_cards();
//!     let call = state.call_amount();
//!     if cards.len() == 2 && cards[0].rank == cards[1].rank {
//!         state.raise_to_amount(call * 10).max(state.minimum_raise_amount()).min(state.all_in_amount())
//!     } else {
//!         call
//!     }
//! });
//! let report = assert_answers_dealer_states(&bot, &DealerStates::default());
//! assert_eq!(report.checked, DealerStates::default().cases);
//! ```

use crate::testing::check::{check_answer, report_panics, AnswerError};
use crate::Player;
use shared::{Card, Chips, GameState, PlayerState, PlayerStatus, Seat};
use std::fmt;

/// The most seats at a table of our dealer (`dealer::engine::MAX_SEATS`; the live server seats
/// up to 10 teams as well). A dealer test keeps the two equal.
pub const MAX_SEATS: usize = 10;

/// The largest starting stack our dealer accepts (`engine::rules::MAX_STARTING_STACK`, which a
/// dealer test keeps equal to this): `10^15` chips, so `seats × starting stack` is at most
/// `10^16`, more than 1,800 times below `u64::MAX`.
pub const MAX_STARTING_STACK: Chips = Chips(1_000_000_000_000_000);

/// The live server's starting stack (spec §7).
pub const LIVE_STARTING_STACK: Chips = Chips(1000);

/// Which states to generate. `Default`: 400 cases, a fixed seed (the same states on every run,
/// so a failure reproduces), 2 to 10 seats, starting stacks up to [`MAX_STARTING_STACK`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealerStates {
    /// How many states [`check_dealer_states`] asks about.
    pub cases: usize,
    /// The seed the states are drawn from; case `n` depends only on `seed` and `n`.
    pub seed: u64,
    /// The fewest seats at the table (at least 2).
    pub min_seats: usize,
    /// The most seats at the table (at most [`MAX_SEATS`]).
    pub max_seats: usize,
    /// The largest starting stack. Even-numbered cases start with the live server's 1000
    /// chips (when this allows it); odd-numbered ones with any stack from 1 to this, spread
    /// over every order of magnitude. Lower it to [`LIVE_STARTING_STACK`] if your bot only
    /// ever plays on the live server.
    pub max_starting_stack: Chips,
}

impl Default for DealerStates {
    fn default() -> Self {
        DealerStates {
            cases: 400,
            seed: 0x1EA4_F0CE,
            min_seats: 2,
            max_seats: MAX_SEATS,
            max_starting_stack: MAX_STARTING_STACK,
        }
    }
}

impl DealerStates {
    /// The state of case `case` (the same for the same settings, on every machine).
    pub fn state(&self, case: usize) -> GameState {
        self.case(case).state
    }

    /// Every case's state, in order.
    pub fn states(&self) -> impl Iterator<Item = GameState> + '_ {
        (0..self.cases).map(|case| self.state(case))
    }

    fn case(&self, case: usize) -> Case {
        let mut rng =
            SplitMix64::new(self.seed ^ (case as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let min_seats = self.min_seats.clamp(2, MAX_SEATS);
        let max_seats = self.max_seats.clamp(min_seats, MAX_SEATS);
        let max_stack = self
            .max_starting_stack
            .get()
            .clamp(1, MAX_STARTING_STACK.get());
        let seats = rng.between(min_seats as u64, max_seats as u64) as usize;
        let starting_stack = if case.is_multiple_of(2) && LIVE_STARTING_STACK.get() <= max_stack {
            LIVE_STARTING_STACK.get()
        } else {
            rng.log_between(1, max_stack)
        };
        let state = generate(&mut rng, seats, starting_stack);
        debug_assert_eq!(state.validate(), Ok(()), "{}", state.to_json());
        Case {
            seats,
            starting_stack: Chips(starting_stack),
            state,
        }
    }
}

struct Case {
    seats: usize,
    starting_stack: Chips,
    state: GameState,
}

/// The live server's small blind at hand `round` (spec §7: it steps every 10 hands).
fn live_small_blind(round: u64) -> u64 {
    const STEPS: [u64; 17] = [
        2, 3, 5, 10, 15, 20, 30, 40, 50, 70, 100, 150, 200, 300, 500, 1000, 2000,
    ];
    STEPS[((round / 10) as usize).min(STEPS.len() - 1)]
}

/// One state at a table of `seats` that each started with `starting_stack` chips.
fn generate(rng: &mut SplitMix64, seats: usize, starting_stack: u64) -> GameState {
    // Everything below is bounded by `seats × starting_stack` <= 10^16: no sum overflows.
    let total = seats as u64 * starting_stack;
    // Busted players (at least two still have chips), then the chips in play: all of them,
    // or fewer after a ban took some off the table.
    let alive = rng.between(2, seats as u64) as usize;
    let mut order: Vec<usize> = (0..seats).collect();
    rng.shuffle(&mut order);
    let mut alive_seats = order[..alive].to_vec();
    alive_seats.sort_unstable();
    let in_play = if rng.chance(4) {
        rng.between(alive as u64, total)
    } else {
        total
    };
    let mut chips = vec![0u64; seats];
    for (seat, share) in alive_seats.iter().zip(rng.split(in_play, alive)) {
        chips[*seat] = share;
    }

    let round = rng.between(0, 200);
    let small_blind = if rng.chance(2) {
        live_small_blind(round)
    } else {
        rng.log_between(1, starting_stack.max(1))
    };
    let big_blind = small_blind * 2;
    let street_cards = [0, 3, 4, 5][rng.between(0, 3) as usize];

    // The hand so far. Bets are totals for the whole hand (spec §2): after the flop everyone
    // still in has put in at least what the street started at (`base`, at least the big
    // blind unless all-in for less); the current bet (`level`) is `base` plus this street's
    // betting. A player has put in `level`, or less if yet to act, or everything if that is
    // all they had (all-in). Some players have folded, with whatever they had put in.
    let most = alive_seats.iter().map(|&s| chips[s]).max().unwrap_or(0);
    let base = if street_cards == 0 {
        0
    } else {
        rng.log_between(big_blind.min(most), most)
    };
    let level = match rng.between(0, 3) {
        0 => base,
        1 => base.max(big_blind.min(most)),
        _ => base + rng.log_between(0, most - base),
    };
    let mut status = vec![PlayerStatus::Out; seats];
    let mut bets = vec![0u64; seats];
    for &seat in &alive_seats {
        let folded = rng.chance(4);
        let put_in = if folded {
            rng.between(0, level)
        } else if rng.chance(2) {
            level
        } else {
            rng.between(base, level)
        };
        bets[seat] = put_in.min(chips[seat]);
        status[seat] = if folded {
            PlayerStatus::Folded
        } else {
            PlayerStatus::Active
        };
    }
    // The receiver: an active player with chips behind, and at least one opponent still in
    // the hand.
    let receiver = alive_seats[rng.between(0, alive as u64 - 1) as usize];
    status[receiver] = PlayerStatus::Active;
    if bets[receiver] >= chips[receiver] {
        bets[receiver] = chips[receiver] - 1;
    }
    let others: Vec<usize> = alive_seats
        .iter()
        .copied()
        .filter(|&s| s != receiver)
        .collect();
    if !others.iter().any(|&s| status[s] == PlayerStatus::Active) {
        let other = others[rng.between(0, others.len() as u64 - 1) as usize];
        status[other] = PlayerStatus::Active;
    }
    // Preflop, the blinds are in: someone has bet.
    if bets.iter().all(|&bet| bet == 0) {
        let poster = others[rng.between(0, others.len() as u64 - 1) as usize];
        bets[poster] = big_blind.min(chips[poster]);
    }
    // A dealer asks only a player who has something to decide: when every opponent still in
    // is all-in, the receiver faces a bet (an all-in bet is at least 1 chip).
    let opponents_all_in = others
        .iter()
        .filter(|&&s| status[s] == PlayerStatus::Active)
        .all(|&s| bets[s] == chips[s]);
    if opponents_all_in {
        let largest = others
            .iter()
            .filter(|&&s| status[s] == PlayerStatus::Active)
            .map(|&s| bets[s])
            .max()
            .unwrap_or(1);
        bets[receiver] = bets[receiver].min(largest - 1);
    }
    let current_buy_in = bets.iter().copied().max().unwrap_or(0);
    // Spec §4: the small blind preflop, the big blind on later streets, then at least the
    // largest raise of the street so far.
    let street_minimum = if street_cards == 0 {
        small_blind
    } else {
        big_blind
    };
    let minimum_raise = if rng.chance(2) {
        street_minimum
    } else {
        street_minimum.max(rng.between(0, current_buy_in))
    };

    let mut deck: Vec<Card> = Card::deck().collect();
    rng.shuffle(&mut deck);
    let mut deck = deck.into_iter();
    let players = (0..seats)
        .map(|seat| PlayerState {
            name: format!("team {seat}"),
            stack: Chips(chips[seat] - bets[seat]),
            status: status[seat],
            bet: Chips(bets[seat]),
            hole_cards: (seat == receiver).then(|| deck.by_ref().take(2).collect()),
            time_used: Some(rng.between(0, 2_000_000)),
            version: "Default Rust player".to_string(),
            amount_won: None,
            id: Seat(seat),
        })
        .collect();
    GameState {
        tournament_id: Some("5a5f6e0d3b5e1f0004a1b2c3".to_string()),
        game_id: Some(format!("5a5f6e0d3b5e1f{:010x}", rng.next() >> 24)),
        round: Some(round),
        players,
        small_blind: Chips(small_blind),
        big_blind: (!rng.chance(8)).then_some(Chips(big_blind)),
        orbits: round / seats as u64,
        dealer: Seat(alive_seats[rng.between(0, alive as u64 - 1) as usize]),
        community_cards: deck.take(street_cards).collect(),
        current_buy_in: Chips(current_buy_in),
        pot: Chips(bets.iter().sum()),
        in_action: Some(Seat(receiver)),
        minimum_raise: Some(Chips(minimum_raise)),
        bet_index: rng.chance(2).then(|| rng.between(0, 3 * seats as u64)),
    }
}

/// A small, fast, well-mixed generator (SplitMix64), so that the kit needs no `rand` and the
/// states are the same on every platform and version.
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `low..=high` (`low` when `high < low`).
    fn between(&mut self, low: u64, high: u64) -> u64 {
        if high <= low {
            return low;
        }
        let span = u128::from(high - low) + 1;
        low + (u128::from(self.next()) % span) as u64
    }

    /// In `low..=high`, every order of magnitude about as likely as any other (a uniform draw
    /// up to 10^15 would almost never give a stack of 7).
    fn log_between(&mut self, low: u64, high: u64) -> u64 {
        let digits = self.between(0, u64::from(high.max(1).ilog10()));
        let top = 10u64.saturating_pow(digits as u32 + 1) - 1;
        self.between(low, high.min(top))
    }

    /// True one time in `n`.
    fn chance(&mut self, n: u64) -> bool {
        self.next().is_multiple_of(n)
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for index in (1..items.len()).rev() {
            let other = self.between(0, index as u64) as usize;
            items.swap(index, other);
        }
    }

    /// `total` split into `parts` shares of at least 1 chip each (`total >= parts`).
    fn split(&mut self, total: u64, parts: usize) -> Vec<u64> {
        let weights: Vec<u64> = (0..parts).map(|_| self.between(1, 1000)).collect();
        let weight_sum: u64 = weights.iter().sum();
        let spare = total - parts as u64;
        let mut shares: Vec<u64> = weights
            .iter()
            .map(|&w| 1 + (u128::from(spare) * u128::from(w) / u128::from(weight_sum)) as u64)
            .collect();
        let given: u64 = shares.iter().sum();
        shares[0] += total - given;
        shares
    }
}

/// The first state a player failed on, and how many of the cases failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealerStateFailure {
    /// The case number (see [`DealerStates::state`]).
    pub case: usize,
    /// Seats at its table.
    pub seats: usize,
    /// The stack every seat started with.
    pub starting_stack: Chips,
    /// The state.
    pub state: GameState,
    /// What went wrong.
    pub error: AnswerError,
}

/// The result of [`check_dealer_states`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DealerStatesReport {
    /// States the player was asked about.
    pub checked: usize,
    /// How many of them were answered with a bet the dealer reads differently from what it
    /// says.
    pub failed: usize,
    /// The first of those, in full.
    pub first_failure: Option<DealerStateFailure>,
    /// How many calls panicked (the SDK answers `0` for them: not a wrong answer).
    pub panicked: usize,
    /// The first of those, in full.
    pub first_panic: Option<DealerStateFailure>,
}

impl fmt::Display for DealerStatesReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(first) = &self.first_failure else {
            return write!(
                f,
                "all {} states a dealer can send were answered with meaningful bets",
                self.checked
            );
        };
        writeln!(
            f,
            "{} of {} states a Lean Poker dealer can send were answered wrongly; the first, \
             case {} ({} seats that started with {} chips each):",
            self.failed, self.checked, first.case, first.seats, first.starting_stack
        )?;
        writeln!(f, "  {}", first.error)?;
        write!(f, "  game_state: {}", first.state.to_json())
    }
}

/// Asks `player` about every state of `states` and checks each answer with
/// [`check_answer`](crate::testing::check_answer): a meaningful bet, or a panic (caught without
/// printing, counted apart).
pub fn check_dealer_states<P: Player + ?Sized>(
    player: &P,
    states: &DealerStates,
) -> DealerStatesReport {
    let mut report = DealerStatesReport::default();
    for number in 0..states.cases {
        let case = states.case(number);
        report.checked += 1;
        if let Err(error) = check_answer(player, &case.state) {
            let (count, first) = match error {
                AnswerError::Panicked { .. } => (&mut report.panicked, &mut report.first_panic),
                AnswerError::NotMeaningful { .. } => {
                    (&mut report.failed, &mut report.first_failure)
                }
            };
            *count += 1;
            first.get_or_insert(DealerStateFailure {
                case: number,
                seats: case.seats,
                starting_stack: case.starting_stack,
                state: case.state,
                error,
            });
        }
    }
    report
}

/// [`check_dealer_states`], panicking with one message if any answer is wrong: how many
/// states failed, and the first one in full (its error and its `game_state` JSON, ready to
/// paste into a test with `GameState::from_json`). Panics of `bet_request` are reported on
/// the terminal the same way (with the panic's file and line), not failed: the SDK answers
/// `0` for them.
#[track_caller]
pub fn assert_answers_dealer_states<P: Player + ?Sized>(
    player: &P,
    states: &DealerStates,
) -> DealerStatesReport {
    let report = check_dealer_states(player, states);
    if let Some(first) = &report.first_panic {
        let place = format!(
            "random dealer state {} ({} seats that started with {} chips each)",
            first.case, first.seats, first.starting_stack
        );
        report_panics(
            report.panicked,
            report.checked,
            Some((&place, &first.error, &first.state)),
        );
    }
    if report.first_failure.is_some() {
        panic!("{report}");
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_is_valid_bounded_and_a_decision() {
        let states = DealerStates {
            cases: 3000,
            ..DealerStates::default()
        };
        let mut streets = [0usize; 6];
        let mut live_stacks = 0;
        for number in 0..states.cases {
            let case = states.case(number);
            let state = &case.state;
            assert_eq!(
                state.validate(),
                Ok(()),
                "case {number}: {}",
                state.to_json()
            );
            let in_play: u64 = state.players.iter().map(|p| p.total_chips().get()).sum();
            assert!(in_play <= case.seats as u64 * case.starting_stack.get());
            assert!((2..=MAX_SEATS).contains(&state.players.len()));
            let me = state.me().expect("a receiver");
            assert!(me.can_act() && me.stack > Chips::ZERO, "case {number}");
            assert_eq!(state.my_cards().len(), 2);
            assert!(state.active_opponents().count() >= 1, "case {number}");
            assert!(
                state.current_buy_in > Chips::ZERO,
                "case {number}: blinds are in"
            );
            let someone_else_can_act = state.active_opponents().any(|p| p.can_act());
            assert!(
                someone_else_can_act || state.call_amount() > Chips::ZERO,
                "case {number}: nothing to decide"
            );
            streets[state.community_cards.len()] += 1;
            live_stacks += usize::from(case.starting_stack == LIVE_STARTING_STACK);
        }
        // Every street is well represented, and half the cases use the live stack.
        for cards in [0, 3, 4, 5] {
            assert!(streets[cards] > 500, "{streets:?}");
        }
        assert!(live_stacks >= 1500);
        // The same settings give the same states.
        assert_eq!(states.state(17), states.state(17));
    }

    #[test]
    fn live_only_settings_keep_every_stack_at_1000() {
        let states = DealerStates {
            max_starting_stack: LIVE_STARTING_STACK,
            cases: 200,
            ..DealerStates::default()
        };
        for number in 0..states.cases {
            let case = states.case(number);
            assert!(case.starting_stack <= LIVE_STARTING_STACK);
        }
    }
}
