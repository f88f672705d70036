//! The arena: your [`Player`] against house bots, in process, under the live rules, with the
//! figures that answer "is it better?" after an edit (`cargo arena`, or this crate from a
//! test), in the event's currency: points (5 a win, 3 a second place).
//!
//! Every game is a sit'n'go on the rules engine ([`engine::Game`], [`GameRules::default`], the
//! rules of the live event), driven here as the dealer's runner drives it: a bet request goes
//! to the seat's player, its answer goes back as [`SeatAnswer::Bet`], a showdown goes to every
//! seat. Your player is called as the SDK would call it behind a real dealer: a panic or a call
//! longer than the SDK's time budget ([`player::DEFAULT_TIME_BUDGET`]) answers the SDK's
//! fallback (`0`, check or fold) and is reported with its hand.
//!
//! **Duplicate deals** by default, as `dealer run --duplicate`: each deal set is played once per
//! rotation of the seats with the same seed, so every entrant holds every seat's cards once
//! and the luck of the cards cancels within the set. Seeds and seatings follow the dealer's
//! plan: set `d` has the `d`-th seed of the run seed's ChaCha8 generator and a base seating
//! shuffled from it; rotation `r` seats at seat `s` whom the base seating has at `s + r`.
//!
//! **Luck taken out** (`engine::luck`, shared with the event server): what the cards dealt after the flop, turn and river gave your
//! seat beyond their expectation, valued in points by a fixed heuristic, is subtracted from
//! your points; the correction has zero mean, so the adjusted points estimate the same thing
//! with less variance. **The verdict** (`verdict.rs`) pairs two runs deal set by deal set
//! on those adjusted points.
//!
//! Results do not depend on the number of threads: each deal set is played by one thread from
//! its own seed, and sets are combined in order (with a strategy that keeps learning state
//! between calls, what it learns depends on which games ran before; the template keeps none).
//!
//! ```no_run
//! use arena::Arena;
//! use bots::{BotKind, SolidBot};
//!
//! // Your bot goes where the solid bot is.
//! let report = Arena::new(vec![BotKind::CallingStation]).games(200).run(&SolidBot::default())?;
//! assert!(report.outscores_the_table_with_confidence(), "{:?}", report.your_points);
//! # Ok::<(), arena::ArenaError>(())
//! ```

pub mod cli;
pub mod field;
mod report;
mod saved;
mod verdict;
pub mod why;

pub use engine::luck::{BETS_TO_COME, FLOP_SAMPLES, LUCK_STREAM_KEY, MIN_POT_SHARE};
/// The arithmetic of the verdict (means, intervals, games to tell), shared with the event.
pub use engine::stats;
pub use engine::stats::{Interval, MAX_SUGGESTED_GAMES};
pub use report::{ArenaReport, EntrantReport, HandReport, SetResult, YourPoints};
pub use saved::{Comparison, History, RunKey, SavedRun, SavedRunError, HISTORY_FORMAT};
pub use verdict::{judge, Finishes, GamesToTell, Judgement, Measure, Verdict};

use bots::{BotKind, Opponent};
use engine::game_event::GameEvent;
use engine::luck::LuckMeter;
use engine::rating::{Rating, Ratings};
use engine::rules::GameRules;
use engine::{Game, GameSetup, SeatAnswer, Step, MAX_SEATS};
use player::{check_bet, panic_message, Chips, GameState, Player, Seat};
use rand::seq::SliceRandom;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use thiserror::Error;

/// The opponents `cargo arena` plays against without `--vs`: the real field
/// ([`BotKind::REAL_FIELD`]), six real team bots from past events played by the profiles fitted
/// from their recorded games, a 7-seat table with yours.
pub const DEFAULT_VS: [BotKind; 6] = BotKind::REAL_FIELD;

/// Games played without `--games`.
pub const DEFAULT_GAMES: u32 = 600;

/// The run seed without `--seed`: fixed, so that two runs of the same command play the same
/// deals (an unchanged strategy gives identical results, and a changed one is compared on the
/// same cards).
pub const DEFAULT_SEED: u64 = 1;

/// Your entrant's name in the reports.
pub const YOUR_NAME: &str = "you";

/// The most games one run plays: about three hours of play on two cores, and a bound on the
/// plan kept in memory.
pub const MAX_GAMES: u32 = 1_000_000;

/// Hands kept in a report as examples of each kind of problem (the counts are complete).
pub const EXAMPLES_KEPT: usize = 5;

/// A run's settings: build with [`Arena::new`], adjust, then [`Arena::run`].
#[derive(Debug, Clone)]
pub struct Arena {
    vs: Vec<Opponent>,
    games: u32,
    seed: u64,
    duplicate: bool,
    threads: usize,
    rules: GameRules,
    time_budget: Duration,
}

/// A run that cannot be played as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ArenaError {
    /// No house bot to play against.
    #[error("no opponents: name at least one house bot kind (known kinds: {})", BotKind::names().join(", "))]
    NoOpponents,
    /// More seats than a table has.
    #[error("{seats} seats (you and {opponents} house bots): a table has at most {MAX_SEATS}")]
    TooManySeats {
        /// The house bots asked for.
        opponents: usize,
        /// Seats that would make, yours included.
        seats: usize,
    },
    /// Zero games.
    #[error("the number of games must be at least 1")]
    NoGames,
    /// Zero threads.
    #[error("the number of threads must be at least 1")]
    NoThreads,
    /// More games than [`MAX_GAMES`].
    #[error("too many games: {games} (at most {MAX_GAMES} in one run, here with {seats} seats)")]
    TooManyGames {
        /// The games asked for.
        games: u32,
        /// Rotations per deal set.
        seats: usize,
    },
    /// The rules are not playable.
    #[error("the rules are invalid: {0}")]
    Rules(String),
    /// The engine refused a game's setup.
    #[error("game {game} cannot start: {reason}")]
    Setup {
        /// The game's number in the run.
        game: u32,
        /// The engine's reason.
        reason: String,
    },
}

impl Arena {
    /// A run against `vs` (one seat per kind; a kind given twice sits twice) with the defaults:
    /// [`DEFAULT_GAMES`], [`DEFAULT_SEED`], duplicate deals, the live rules, the SDK's time
    /// budget, one thread per core.
    pub fn new<O: Into<Opponent>>(vs: impl IntoIterator<Item = O>) -> Arena {
        Arena {
            vs: vs.into_iter().map(Into::into).collect(),
            games: DEFAULT_GAMES,
            seed: DEFAULT_SEED,
            duplicate: true,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            rules: GameRules::default(),
            time_budget: player::DEFAULT_TIME_BUDGET,
        }
    }

    /// At least `games` games (a duplicate run plays whole deal sets: rounded up to a multiple
    /// of the seats).
    pub fn games(mut self, games: u32) -> Arena {
        self.games = games;
        self
    }

    /// The run seed: the same seed plays the same deals.
    pub fn seed(mut self, seed: u64) -> Arena {
        self.seed = seed;
        self
    }

    /// Plain games (each deal once, no rotations) instead of duplicate deals.
    pub fn plain(mut self) -> Arena {
        self.duplicate = false;
        self
    }

    /// Worker threads (results do not depend on it).
    pub fn threads(mut self, threads: usize) -> Arena {
        self.threads = threads;
        self
    }

    /// Other rules than the live ones.
    pub fn rules(mut self, rules: GameRules) -> Arena {
        self.rules = rules;
        self
    }

    /// The time budget of one call, after which the SDK answers its fallback.
    pub fn time_budget(mut self, budget: Duration) -> Arena {
        self.time_budget = budget;
        self
    }

    /// The key under which a run with these settings is saved to compare with the next one.
    pub fn key(&self) -> RunKey {
        RunKey {
            vs: self.vs.iter().map(Opponent::key).collect(),
            seed: self.seed,
            duplicate: self.duplicate,
        }
    }

    /// Checks the settings; returns the deal sets and the rotations per set.
    fn shape(&self) -> Result<(u32, usize), ArenaError> {
        if self.vs.is_empty() {
            return Err(ArenaError::NoOpponents);
        }
        let seats = self.vs.len() + 1;
        if seats > MAX_SEATS {
            return Err(ArenaError::TooManySeats {
                opponents: self.vs.len(),
                seats,
            });
        }
        if self.games == 0 {
            return Err(ArenaError::NoGames);
        }
        if self.games > MAX_GAMES {
            return Err(ArenaError::TooManyGames {
                games: self.games,
                seats,
            });
        }
        if self.threads == 0 {
            return Err(ArenaError::NoThreads);
        }
        self.rules
            .validate()
            .map_err(|error| ArenaError::Rules(error.to_string()))?;
        if !self.duplicate {
            return Ok((self.games, 1));
        }
        Ok((self.games.div_ceil(seats as u32), seats))
    }

    /// The entrants' names: yours first, then each house bot by kind (a second one of a kind
    /// gets `-2`, and so on).
    fn names(&self) -> Vec<String> {
        let mut names = vec![YOUR_NAME.to_string()];
        for (index, kind) in self.vs.iter().enumerate() {
            let same_before = self.vs[..index].iter().filter(|k| *k == kind).count();
            names.push(match same_before {
                0 => kind.name().to_string(),
                n => format!("{}-{}", kind.name(), n + 1),
            });
        }
        names
    }

    /// Plays the run with `player` in the first entrant's place.
    ///
    /// # Errors
    /// [`ArenaError`] when the settings cannot be played (checked before any game starts).
    pub fn run(&self, player: &dyn Player) -> Result<ArenaReport, ArenaError> {
        let (deal_sets, rotations) = self.shape()?;
        let names = self.names();
        let seats = names.len();
        let plan = plan(self.seed, deal_sets, seats);
        let started = Instant::now();
        let next = AtomicUsize::new(0);
        let outcomes: Mutex<Vec<Option<Result<SetOutcome, ArenaError>>>> =
            Mutex::new(vec![None; plan.len()]);
        let workers = self.threads.min(plan.len());
        std::thread::scope(|scope| {
            for worker in 0..workers {
                let (next, outcomes, plan) = (&next, &outcomes, &plan);
                std::thread::Builder::new()
                    .name(format!("arena-{worker}"))
                    .spawn_scoped(scope, move || loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(set) = plan.get(index) else { break };
                        let outcome = self.play_set(player, set, index, rotations);
                        let failed = outcome.is_err();
                        outcomes.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(outcome);
                        if failed {
                            // Stop the other workers early: the run is lost anyway.
                            next.store(plan.len(), Ordering::Relaxed);
                        }
                    })
                    .expect("cannot start an arena thread");
            }
        });
        let outcomes = outcomes.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut sets = Vec::with_capacity(outcomes.len());
        for outcome in outcomes {
            match outcome {
                Some(Ok(set)) => sets.push(set),
                Some(Err(error)) => return Err(error),
                // Only left out after another set failed, which returned above.
                None => {}
            }
        }
        Ok(ArenaReport::from_sets(
            self,
            player.version(),
            names,
            &sets,
            rotations,
            started.elapsed(),
        ))
    }

    /// Plays one deal set's rotations.
    fn play_set(
        &self,
        player: &dyn Player,
        set: &DealSet,
        index: usize,
        rotations: usize,
    ) -> Result<SetOutcome, ArenaError> {
        let seats = set.seating.len();
        let mut games = Vec::with_capacity(rotations);
        for rotation in 0..rotations {
            let seating: Vec<usize> = (0..seats)
                .map(|seat| set.seating[(seat + rotation) % seats])
                .collect();
            let number = (index * rotations + rotation + 1) as u32;
            games.push(self.play_game(player, number, set.seed, &seating)?);
        }
        Ok(SetOutcome { games })
    }

    /// Plays one game: `seating[seat]` is the entrant at that seat (0 is yours).
    fn play_game(
        &self,
        player: &dyn Player,
        number: u32,
        seed: u64,
        seating: &[usize],
    ) -> Result<GameOutcome, ArenaError> {
        let names = self.names();
        let seat_names = seating.iter().map(|&e| names[e].clone()).collect();
        let setup = GameSetup::new(self.rules.clone(), seat_names, seed);
        let mut game = Game::new(setup).map_err(|error| ArenaError::Setup {
            game: number,
            reason: error.to_string(),
        })?;
        // House bots are fresh for every game and seeded by seat, as the dealer builds them.
        let house: Vec<Option<std::sync::Arc<dyn Player>>> = seating
            .iter()
            .enumerate()
            .map(|(seat, &entrant)| (entrant > 0).then(|| self.house_bot(entrant, seed, seat)))
            .collect();
        let seat_player = |seat: usize| -> &dyn Player {
            match &house[seat] {
                Some(bot) => &**bot,
                None => player,
            }
        };
        let entrants = seating.len();
        let mut outcome = GameOutcome {
            hands: vec![0; entrants],
            bet_requests: vec![0; entrants],
            think_time: vec![Duration::ZERO; entrants],
            ..GameOutcome::default()
        };
        let yours = seating.iter().position(|&e| e == 0).unwrap_or(0);
        let mut luck = LuckMeter::for_seat(yours, entrants, seed);
        loop {
            match game.step() {
                Step::Event(event) => {
                    if let GameEvent::HandStarted { .. } = event {
                        for (seat, &entrant) in seating.iter().enumerate() {
                            if game.stack(Seat(seat)).is_some_and(|s| !s.is_zero()) {
                                outcome.hands[entrant] += 1;
                            }
                        }
                    }
                    luck.observe(&event);
                }
                Step::BetRequest { seat } => {
                    let Some(state) = game.bet_request_state() else {
                        break;
                    };
                    let started = Instant::now();
                    let (answer, failure) = ask(seat_player(seat.0), state, self.time_budget);
                    outcome.bet_requests[seating[seat.0]] += 1;
                    outcome.think_time[seating[seat.0]] += started.elapsed();
                    if seat.0 == yours {
                        outcome.answers += 1;
                        why::pack_answer(&mut outcome.your_answers, answer);
                        if let Some(what) = failure {
                            outcome
                                .incidents
                                .push(HandReport::new(number, state, answer, what));
                        } else if let Err(reason) = check_bet(state, answer) {
                            outcome
                                .misreads
                                .push(HandReport::new(number, state, answer, reason));
                        }
                    }
                    if game.answer(SeatAnswer::Bet(answer)).is_err() {
                        break;
                    }
                }
                Step::Showdown { .. } => {
                    for seat in 0..seating.len() {
                        if let Some(state) = game.showdown_state(Seat(seat)) {
                            let started = Instant::now();
                            let call = catch_unwind(AssertUnwindSafe(|| {
                                seat_player(seat).showdown(&state)
                            }));
                            let failure = match call {
                                Err(payload) => {
                                    Some(format!("showdown panicked: {}", panic_message(&*payload)))
                                }
                                Ok(()) if started.elapsed() > self.time_budget => {
                                    Some(overrun("showdown", self.time_budget, started))
                                }
                                Ok(()) => None,
                            };
                            if let (true, Some(what)) = (seat == yours, failure) {
                                outcome.incidents.push(HandReport {
                                    game: number,
                                    game_id: state.game_id.clone().unwrap_or_default(),
                                    round: state.round.unwrap_or(0),
                                    answer: None,
                                    what,
                                    state,
                                });
                            }
                        }
                    }
                }
                Step::Finished => break,
            }
        }
        let result = game.result().ok_or_else(|| ArenaError::Setup {
            game: number,
            reason: "the engine stopped before the game ended".to_string(),
        })?;
        let starting = self.rules.starting_stack.get() as i64;
        outcome.points = vec![0; entrants];
        outcome.places = vec![0; entrants];
        outcome.net_chips = vec![0; entrants];
        for (seat, &entrant) in seating.iter().enumerate() {
            outcome.points[entrant] = result.points[seat];
            outcome.places[entrant] = result.places[seat];
            outcome.net_chips[entrant] = result.final_stacks[seat].get() as i64 - starting;
        }
        outcome.finishing_order = result.ranking.iter().map(|s| seating[s.0]).collect();
        outcome.your_luck = luck.luck(yours);
        outcome.your_luck_parts = luck.luck_parts(yours);
        Ok(outcome)
    }
}

impl Arena {
    /// The house bot of `entrant` (1 or more) at `seat` of the game seeded `seed`: fresh for
    /// every game and seeded by seat, as the dealer builds them. The replays of `why/` build
    /// them here too, so that a replayed game is the game played.
    fn house_bot(&self, entrant: usize, seed: u64, seat: usize) -> std::sync::Arc<dyn Player> {
        self.vs[entrant - 1].build(seed.wrapping_add(seat as u64))
    }
}

/// Calls `bet_request` as the SDK would: a panic or an overrun answers the fallback, `0`.
fn ask(player: &dyn Player, state: &GameState, budget: Duration) -> (Chips, Option<String>) {
    let started = Instant::now();
    match catch_unwind(AssertUnwindSafe(|| player.bet_request(state))) {
        Ok(answer) if started.elapsed() <= budget => (answer, None),
        Ok(_) => (Chips::ZERO, Some(overrun("bet_request", budget, started))),
        Err(payload) => (
            Chips::ZERO,
            Some(format!(
                "bet_request panicked: {}; the SDK answered its fallback 0",
                panic_message(&*payload)
            )),
        ),
    }
}

/// The report of a call that took longer than the budget.
fn overrun(action: &str, budget: Duration, started: Instant) -> String {
    format!(
        "{action} took {} ms, over the {} ms budget; the SDK answered its fallback 0",
        started.elapsed().as_millis(),
        budget.as_millis()
    )
}

/// One deal set of the plan.
#[derive(Debug, Clone)]
struct DealSet {
    seed: u64,
    /// Entrant by seat in rotation 0.
    seating: Vec<usize>,
}

/// The dealer's plan (`dealer::tournament::plan`): set `d`'s seed is the `d`-th draw of the
/// run seed's generator, its base seating a shuffle from stream 3 of that seed.
fn plan(seed: u64, sets: u32, entrants: usize) -> Vec<DealSet> {
    let mut seeds = ChaCha8Rng::seed_from_u64(seed);
    (0..sets)
        .map(|_| {
            let seed = seeds.next_u64();
            let mut shuffle = ChaCha8Rng::seed_from_u64(seed);
            shuffle.set_stream(3);
            let mut seating: Vec<usize> = (0..entrants).collect();
            seating.shuffle(&mut shuffle);
            DealSet { seed, seating }
        })
        .collect()
}

/// What one game gave, by entrant (0 is yours).
#[derive(Debug, Clone, Default)]
struct GameOutcome {
    points: Vec<u32>,
    places: Vec<usize>,
    net_chips: Vec<i64>,
    /// Hands each entrant was dealt in.
    hands: Vec<u64>,
    /// Bet requests each entrant answered.
    bet_requests: Vec<u64>,
    /// Time each entrant spent in `bet_request`.
    think_time: Vec<Duration>,
    /// Entrants, first place first.
    finishing_order: Vec<usize>,
    /// The luck of the cards for you, in points (see `engine::luck`): your points minus it are
    /// your luck-adjusted points.
    your_luck: f64,
    /// The same in its two parts: the cards of your pots and of other players'.
    your_luck_parts: engine::luck::LuckParts,
    /// Your bet answers.
    answers: u64,
    misreads: Vec<HandReport>,
    incidents: Vec<HandReport>,
    /// Your answers, packed (`why/answers.rs`): with the seed they replay the game.
    your_answers: Vec<u8>,
}

/// The games of one deal set (one game in a plain run).
#[derive(Debug, Clone)]
struct SetOutcome {
    games: Vec<GameOutcome>,
}

#[cfg(test)]
mod tests;
