//! The arena: your [`Player`] against house bots, in process, under the live rules, with the
//! figures that answer "is it better?" after an edit (`cargo arena`, or this module from a
//! test).
//!
//! Every game is a sit'n'go on the rules engine ([`engine::Game`], [`GameRules::default`], the
//! rules of the live event), driven here as the dealer's runner drives it: a bet request goes
//! to the seat's player, its answer goes back as [`SeatAnswer::Bet`], a showdown goes to every
//! seat. Your player is called as the SDK would call it behind a real dealer: a panic or a call
//! longer than the SDK's time budget ([`crate::DEFAULT_TIME_BUDGET`]) answers the SDK's
//! fallback (`0`, check or fold) and is reported with its hand.
//!
//! **Duplicate deals** by default, as `dealer run --duplicate`: each deal set is played once per
//! rotation of the seats with the same seed, so every entrant holds every seat's cards once
//! and the luck of the cards cancels within the set. Seeds and seatings follow the dealer's
//! plan: set `d` has the `d`-th seed of the run seed's ChaCha8 generator and a base seating
//! shuffled from it; rotation `r` seats at seat `s` whom the base seating has at `s + r`.
//!
//! Results do not depend on the number of threads: each deal set is played by one thread from
//! its own seed, and sets are combined in order (with a strategy that keeps learning state
//! between calls, what it learns depends on which games ran before; the template keeps none).
//!
//! ```no_run
//! use player::arena::Arena;
//! use player::bots::BotKind;
//! use player::strategy::TemplatePlayer;
//!
//! let report = Arena::new(vec![BotKind::CallingStation]).games(200).run(&TemplatePlayer::default())?;
//! assert!(report.you().chips_per_100.low() > 0.0, "{}", report.you().chips_per_100.mean);
//! # Ok::<(), player::arena::ArenaError>(())
//! ```

mod saved;
mod stats;

pub use saved::{Comparison, History, RunKey, SavedRun, SavedRunError};
pub use stats::{compare, Interval, MoreGames, Verdict, MAX_SUGGESTED_GAMES};

use crate::bots::BotKind;
use crate::strategy_pool::panic_message;
use crate::testing::check_bet;
use crate::{Chips, GameState, Player, Seat};
use engine::game_event::GameEvent;
use engine::rating::{Rating, Ratings};
use engine::rules::GameRules;
use engine::{Game, GameSetup, SeatAnswer, Step, MAX_SEATS};
use rand::seq::SliceRandom;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use thiserror::Error;

/// The house bots `cargo arena` plays against without `--vs`: one of each kind that plays
/// (the folder gives nothing to learn from), five seats beside yours as at a live table.
pub const DEFAULT_VS: [BotKind; 5] = [
    BotKind::CallingStation,
    BotKind::Raiser,
    BotKind::AllIn,
    BotKind::Random,
    BotKind::Equity,
];

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
    vs: Vec<BotKind>,
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
    pub fn new(vs: Vec<BotKind>) -> Arena {
        Arena {
            vs,
            games: DEFAULT_GAMES,
            seed: DEFAULT_SEED,
            duplicate: true,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            rules: GameRules::default(),
            time_budget: crate::DEFAULT_TIME_BUDGET,
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
            vs: self.vs.iter().map(|kind| kind.name().to_string()).collect(),
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
            .map(|(seat, &entrant)| {
                (entrant > 0).then(|| self.vs[entrant - 1].build(seed.wrapping_add(seat as u64)))
            })
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
        loop {
            match game.step() {
                Step::Event(GameEvent::HandStarted { .. }) => {
                    for (seat, &entrant) in seating.iter().enumerate() {
                        if game.stack(Seat(seat)).is_some_and(|s| !s.is_zero()) {
                            outcome.hands[entrant] += 1;
                        }
                    }
                }
                Step::Event(_) => {}
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
        Ok(outcome)
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
    /// Your bet answers.
    answers: u64,
    misreads: Vec<HandReport>,
    incidents: Vec<HandReport>,
}

/// The games of one deal set (one game in a plain run).
#[derive(Debug, Clone)]
struct SetOutcome {
    games: Vec<GameOutcome>,
}

/// One of your answers or calls worth a look, with the hand it happened in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HandReport {
    /// The game's number in the run (1 is the first).
    pub game: u32,
    /// The engine's game id.
    pub game_id: String,
    /// The hand (`round`).
    pub round: u64,
    /// The answer the dealer got (`None` for a showdown call).
    pub answer: Option<u64>,
    /// What happened, in one line.
    pub what: String,
    /// The document your player was given.
    pub state: GameState,
}

impl HandReport {
    fn new(game: u32, state: &GameState, answer: Chips, what: String) -> HandReport {
        HandReport {
            game,
            game_id: state.game_id.clone().unwrap_or_default(),
            round: state.round.unwrap_or(0),
            answer: Some(answer.get()),
            what,
            state: state.clone(),
        }
    }
}

/// One entrant's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntrantReport {
    /// [`YOUR_NAME`] or the house bot's kind (with `-2`, ... for a second one).
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Points (5 for a win, 3 for second, as the live event scores).
    pub points: u64,
    /// How often it finished in each place: `places[0]` wins, `places[1]` seconds, ...
    pub places: Vec<u64>,
    /// Its Weng-Lin rating over the run, as `dealer run` rates (one update per deal set).
    pub rating: Rating,
    /// Chips won per 100 hands it was dealt in (net chips at the end of each game), with the
    /// 95% interval over deal sets.
    pub chips_per_100: Interval,
    /// Hands it was dealt in.
    pub hands: u64,
    /// Bet requests it answered.
    pub bet_requests: u64,
    /// Seconds it spent in `bet_request`, all threads together: where the arena's time goes
    /// (the engine's own share is small).
    pub think_seconds: f64,
}

impl EntrantReport {
    /// Its mean time per `bet_request`, in microseconds.
    pub fn micros_per_decision(&self) -> f64 {
        if self.bet_requests == 0 {
            0.0
        } else {
            self.think_seconds * 1e6 / self.bet_requests as f64
        }
    }
}

/// Everything a run found: the figures `cargo arena` prints (and writes with `--json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArenaReport {
    /// The settings that identify the run for comparisons.
    pub key: RunKey,
    /// Games played.
    pub games: u64,
    /// Deal sets (games in a plain run).
    pub deal_sets: u64,
    /// Games per deal set (1 in a plain run).
    pub rotations: u64,
    /// Hands played, all games.
    pub hands: u64,
    /// Wall time of the games.
    pub play_seconds: f64,
    /// The entrants, yours first.
    pub entrants: Vec<EntrantReport>,
    /// Your chips per 100 hands in each deal set, in order: the samples of the interval and
    /// of the comparison with the next run.
    pub your_chips_per_100_by_set: Vec<f64>,
    /// Your bet answers.
    pub answers: u64,
    /// Answers the dealer reads differently from what they say (`testing::check_bet`: a raise
    /// too small, read as a call; a call too small, read as a fold; more than the stack; ...).
    pub misread_answers: u64,
    /// The first [`EXAMPLES_KEPT`] of them, in game order.
    pub misread_examples: Vec<HandReport>,
    /// Calls that panicked or overran the time budget (the SDK answered its fallback).
    pub failed_calls: u64,
    /// The first [`EXAMPLES_KEPT`] of them, in game order.
    pub failed_call_examples: Vec<HandReport>,
}

impl ArenaReport {
    fn from_sets(
        arena: &Arena,
        names: Vec<String>,
        sets: &[SetOutcome],
        rotations: usize,
        elapsed: Duration,
    ) -> ArenaReport {
        let entrants = names.len();
        let mut ratings = Ratings::new(names.iter().cloned());
        let mut report = ArenaReport {
            key: arena.key(),
            games: 0,
            deal_sets: sets.len() as u64,
            rotations: rotations as u64,
            hands: 0,
            play_seconds: elapsed.as_secs_f64(),
            entrants: Vec::with_capacity(entrants),
            your_chips_per_100_by_set: Vec::with_capacity(sets.len()),
            answers: 0,
            misread_answers: 0,
            misread_examples: Vec::new(),
            failed_calls: 0,
            failed_call_examples: Vec::new(),
        };
        let mut points = vec![0u64; entrants];
        let mut places = vec![vec![0u64; entrants]; entrants];
        let mut hands = vec![0u64; entrants];
        let mut bet_requests = vec![0u64; entrants];
        let mut think_time = vec![Duration::ZERO; entrants];
        let mut per_set: Vec<Vec<f64>> = vec![Vec::with_capacity(sets.len()); entrants];
        for set in sets {
            let mut orders: Vec<Vec<&str>> = Vec::with_capacity(set.games.len());
            let mut set_chips = vec![0i64; entrants];
            let mut set_hands = vec![0u64; entrants];
            for game in &set.games {
                report.games += 1;
                report.hands += game.hands.iter().max().copied().unwrap_or(0);
                report.answers += game.answers;
                report.misread_answers += game.misreads.len() as u64;
                report.failed_calls += game.incidents.len() as u64;
                keep(&mut report.misread_examples, &game.misreads);
                keep(&mut report.failed_call_examples, &game.incidents);
                for entrant in 0..entrants {
                    points[entrant] += u64::from(game.points[entrant]);
                    places[entrant][game.places[entrant].saturating_sub(1).min(entrants - 1)] += 1;
                    hands[entrant] += game.hands[entrant];
                    bet_requests[entrant] += game.bet_requests[entrant];
                    think_time[entrant] += game.think_time[entrant];
                    set_chips[entrant] += game.net_chips[entrant];
                    set_hands[entrant] += game.hands[entrant];
                }
                orders.push(
                    game.finishing_order
                        .iter()
                        .map(|&e| names[e].as_str())
                        .collect(),
                );
            }
            // One rating update per deal set, as `dealer run` rates a duplicate run.
            match orders.as_slice() {
                [order] => ratings.record(order),
                _ => ratings.record_deal_set(&orders),
            }
            for entrant in 0..entrants {
                per_set[entrant].push(per_100(set_chips[entrant], set_hands[entrant]));
            }
        }
        for (entrant, name) in names.into_iter().enumerate() {
            report.entrants.push(EntrantReport {
                rating: ratings.get(&name).unwrap_or(Rating {
                    rating: 25.0,
                    uncertainty: 25.0 / 3.0,
                }),
                name,
                games: report.games,
                points: points[entrant],
                places: places[entrant].clone(),
                chips_per_100: Interval::of(&per_set[entrant]),
                hands: hands[entrant],
                bet_requests: bet_requests[entrant],
                think_seconds: think_time[entrant].as_secs_f64(),
            });
        }
        report.your_chips_per_100_by_set = std::mem::take(&mut per_set[0]);
        report
    }

    /// Your results.
    pub fn you(&self) -> &EntrantReport {
        &self.entrants[0]
    }

    /// A house bot's results by name (its kind, e.g. `calling-station`).
    pub fn entrant(&self, name: &str) -> Option<&EntrantReport> {
        self.entrants.iter().find(|e| e.name == name)
    }

    /// Whether you win chips from the table with 95% confidence: the low end of your
    /// chips/100 interval is above 0. Against one house bot, that is "beats it".
    pub fn wins_chips_with_confidence(&self) -> bool {
        self.you().chips_per_100.low() > 0.0
    }

    /// How this run compares with `previous` (a run with the same key), or `None` when they
    /// have fewer than two deal sets in common.
    pub fn verdict_against(&self, previous: &SavedRun) -> Option<Verdict> {
        compare(
            &self.your_chips_per_100_by_set,
            &previous.your_chips_per_100_by_set,
            self.rotations as usize,
        )
    }
}

/// Chips per 100 hands (0 when no hand was played).
fn per_100(chips: i64, hands: u64) -> f64 {
    if hands == 0 {
        0.0
    } else {
        chips as f64 * 100.0 / hands as f64
    }
}

/// Keeps the first [`EXAMPLES_KEPT`] examples.
fn keep(kept: &mut Vec<HandReport>, more: &[HandReport]) {
    let room = EXAMPLES_KEPT.saturating_sub(kept.len());
    kept.extend(more.iter().take(room).cloned());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{CallingStation, Folder};

    #[test]
    fn bad_settings_are_refused_before_any_game() {
        let me = Folder;
        assert_eq!(
            Arena::new(vec![]).run(&me).unwrap_err(),
            ArenaError::NoOpponents
        );
        assert_eq!(
            Arena::new(vec![BotKind::Folder])
                .games(0)
                .run(&me)
                .unwrap_err(),
            ArenaError::NoGames
        );
        assert_eq!(
            Arena::new(vec![BotKind::Folder; 10]).run(&me).unwrap_err(),
            ArenaError::TooManySeats {
                opponents: 10,
                seats: 11
            }
        );
        assert_eq!(
            Arena::new(vec![BotKind::Folder])
                .threads(0)
                .run(&me)
                .unwrap_err(),
            ArenaError::NoThreads
        );
    }

    #[test]
    fn duplicate_runs_play_whole_sets_and_do_not_depend_on_threads() {
        let arena = Arena::new(vec![BotKind::Raiser, BotKind::Random]).games(7);
        let one = arena.clone().threads(1).run(&CallingStation).unwrap();
        let three = arena.threads(3).run(&CallingStation).unwrap();
        assert_eq!(one.games, 9);
        assert_eq!((one.deal_sets, one.rotations), (3, 3));
        assert_eq!(
            one.your_chips_per_100_by_set,
            three.your_chips_per_100_by_set
        );
        for (a, b) in one.entrants.iter().zip(&three.entrants) {
            assert_eq!(
                (
                    &a.name,
                    a.points,
                    &a.places,
                    a.rating,
                    a.chips_per_100,
                    a.hands
                ),
                (
                    &b.name,
                    b.points,
                    &b.places,
                    b.rating,
                    b.chips_per_100,
                    b.hands
                )
            );
            assert_eq!(a.bet_requests, b.bet_requests);
        }
        let points: u64 = one.entrants.iter().map(|e| e.points).sum();
        assert_eq!(points, 9 * 8, "5 + 3 points per game");
        for entrant in &one.entrants {
            assert_eq!(entrant.places.iter().sum::<u64>(), 9);
        }
    }

    #[test]
    fn a_folder_does_not_beat_a_calling_station() {
        // The template's test (strategy.rs) with the folder in its place: it must fail.
        let report = Arena::new(vec![BotKind::CallingStation])
            .games(20)
            .run(&Folder)
            .unwrap();
        assert!(!report.wins_chips_with_confidence());
        assert!(report.you().chips_per_100.mean < 0.0);
    }

    #[test]
    fn every_seat_holds_every_entrant_once_per_set() {
        for set in plan(5, 4, 4) {
            for seat in 0..4 {
                let mut holders: Vec<usize> = (0..4).map(|r| set.seating[(seat + r) % 4]).collect();
                holders.sort_unstable();
                assert_eq!(holders, [0, 1, 2, 3]);
            }
        }
    }

    #[test]
    fn panics_and_misreads_are_reported_with_their_hand() {
        let clumsy = crate::from_fn(|state: &GameState| {
            if state.round == Some(0) {
                panic!("round zero");
            }
            // One chip more than the call: a raise too small, read as a call.
            state.call_amount().saturating_add(Chips(1))
        });
        let report = Arena::new(vec![BotKind::CallingStation])
            .games(2)
            .run(&clumsy)
            .unwrap();
        assert!(report.failed_calls > 0);
        let failed = &report.failed_call_examples[0];
        assert_eq!(failed.round, 0);
        assert!(failed.what.contains("round zero"), "{}", failed.what);
        assert_eq!(failed.answer, Some(0));
        assert!(report.misread_answers > 0);
        assert!(report.misread_examples[0].round > 0);
        assert!(report.answers >= report.misread_answers + report.failed_calls);
    }

    #[test]
    fn an_overrun_answers_the_fallback() {
        let slow = crate::from_fn(|state: &GameState| {
            std::thread::sleep(Duration::from_millis(3));
            state.all_in_amount()
        });
        let report = Arena::new(vec![BotKind::Folder])
            .games(2)
            .time_budget(Duration::from_millis(1))
            .run(&slow)
            .unwrap();
        assert_eq!(report.failed_calls, report.answers);
        assert!(report.failed_call_examples[0]
            .what
            .contains("over the 1 ms budget"));
        assert_eq!(report.failed_call_examples[0].answer, Some(0));
    }
}
