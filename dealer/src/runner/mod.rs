//! The runner: plays one sit'n'go by driving the [`Game`] step machine, talking to one
//! [`PlayerSeat`] per player and handing everything that happens to the observers.
//!
//! ```no_run
//! # async fn demo(seats: Vec<dealer::seat::PlayerSeat>) -> Result<(), dealer::runner::RunError> {
//! use dealer::rules::GameRules;
//! use dealer::engine::GameSetup;
//! use dealer::runner::{run_game, RunnerOptions, StopSignal};
//!
//! let setup = GameSetup::new(GameRules::default(), vec!["Ann".into(), "Bob".into()], 42);
//! let outcome = run_game(setup, seats, Vec::new(), &RunnerOptions::default(), &StopSignal::never())
//!     .await?;
//! println!("{:?}", outcome.result.ranking);
//! # Ok(()) }
//! ```
//!
//! # What happens, in order
//!
//! 1. **`check`** is polled on every seat until each answers or
//!    [`RunnerOptions::check`]'s deadline passes. Players that never came up are *absent*:
//!    by [`AbsentPolicy`], they sit out the whole game (seated with no chips, ranked last,
//!    sent nothing more), the game fails, or they are seated anyway.
//! 2. **`version`** is asked of every present player, concurrently; while it fails it is
//!    asked again at the start of every hand ([`crate::seat::VersionPolicy`]), and the player
//!    shows as `Unknown` meanwhile.
//! 3. The engine's steps are followed: every **`bet_request`** is sent in the engine's order,
//!    one at a time, with the configured timeout (the seat's deadline), and its answer fed
//!    back; after every hand **`showdown`** goes to every present player (out and banned ones
//!    too), concurrently, and all of them are answered or timed out before the next hand
//!    begins. A failed `showdown`, `version` or `check` never bans (spec §6).
//!
//! Observers receive every exchange and every event in the order things happened: a request's
//! [`Exchange`] comes before the engine's reading of its answer. `check` exchanges come before
//! [`GameEvent::GameStarted`] (the game is set up once it is known who came), as do the first
//! `version` exchanges. An observer that fails is reported ([`ObserverFailure`]) and not called
//! again; the game goes on.
//!
//! # Decisions where the spec is silent
//!
//! - **`time_used`** adds up the latency of `bet_request` exchanges only. The live captures
//!   show it: every `time_used` is 0 at a game's first request although `check` and `version`
//!   were asked before it, and players who are out (who still get `showdown` after every
//!   hand) keep the same `time_used` to the end of the game.
//! - **Absent players** are sent nothing after the `check` polling (not even `showdown`): a
//!   player that never came up would otherwise cost a full timeout after every hand.
//! - **The first button** of a game with absent players sitting out is drawn from the seed
//!   among the present players (stream 2 of the seed's ChaCha8 generator; the engine uses
//!   streams 0 and 1).
//! - In a **reproducible** run ([`Clock::Reproducible`]) every time-derived value is zero:
//!   latencies, `time_used`, and `sent_at` (the Unix epoch). The same seed and the same
//!   answers then give byte-identical logs. Timeouts still apply; their reason text (`timeout
//!   after N ms`) is the configured deadline, so it is reproducible too.

mod game_loop;
mod observers;
mod stop;

pub use observers::ObserverFailure;
pub use stop::{stop_signal, StopHandle, StopSignal};

use crate::engine::{Document, Game, GameSetup, SeatAnswer, SetupError, Step, TableStart, View};
use crate::game_event::GameEvent;
use crate::observe::{Exchange, Observer};
use crate::seat::{
    ask_versions, wait_until_up_reporting, CheckPolicy, PlayerSeat, PlayerVersion, Reply,
    SeatAttendance, SeatFailure, VersionPolicy,
};
use futures_util::future::join_all;
use game_loop::{DocumentJson, GameLoop};
use observers::ObserverSet;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use shared::protocol::Action;
use shared::state::JsonWriter;
use shared::{GameState, Seat};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use thiserror::Error;

/// What to do with players that did not answer `check` before the deadline.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AbsentPolicy {
    /// Start without them: they are seated with no chips, out from the start, ranked last,
    /// and sent nothing more. The game needs at least two players up.
    #[default]
    SitOut,
    /// Fail the game ([`RunError::PlayersDown`]).
    Fail,
    /// Seat them anyway with a full stack: a player still down is banned at its first
    /// `bet_request` (like a player that crashes during the game).
    Play,
}

/// Where time-derived values come from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Clock {
    /// Real latencies, `time_used` and wall-clock `sent_at`.
    #[default]
    Wall,
    /// Every latency, `time_used` and `sent_at` is zero (the Unix epoch): the same seed and
    /// the same answers give byte-identical logs.
    Reproducible,
}

impl Clock {
    fn now(self) -> SystemTime {
        match self {
            Clock::Wall => SystemTime::now(),
            Clock::Reproducible => UNIX_EPOCH,
        }
    }

    fn latency(self, measured: Duration) -> Duration {
        match self {
            Clock::Wall => measured,
            Clock::Reproducible => Duration::ZERO,
        }
    }

    /// When a request that took `latency` and just ended was sent.
    fn sent_before(self, latency: Duration) -> SystemTime {
        match self {
            Clock::Wall => SystemTime::now().checked_sub(latency).unwrap_or(UNIX_EPOCH),
            Clock::Reproducible => UNIX_EPOCH,
        }
    }
}

/// How the runner treats players around the engine's steps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunnerOptions {
    /// How long to wait for every player to answer `check` before the first hand.
    pub check: CheckPolicy,
    /// What to do with players that did not come up.
    pub absent: AbsentPolicy,
    /// How often a failing `version` is asked again.
    pub version: VersionPolicy,
    /// Real or zeroed time values.
    pub clock: Clock,
}

/// How one seat took part in a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatReport {
    /// The player's name.
    pub name: String,
    /// Its URL (without credentials) or `in-process`.
    pub address: String,
    /// Why it sat out the game, if it never answered `check` (see [`AbsentPolicy`]).
    pub absent: Option<String>,
    /// The version shown at the end of the game (`Unknown` if it never answered).
    pub version: String,
    /// `bet_request`s sent to it.
    pub bet_requests: u64,
    /// Its `time_used` at the end (microseconds; 0 in reproducible runs).
    pub time_used_us: u64,
}

/// A game that was played to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameOutcome {
    /// The engine's result: ranking, points, bans, warnings, final stacks.
    pub result: crate::result::GameResult,
    /// Per seat, in seat order.
    pub seats: Vec<SeatReport>,
    /// Requests sent to players, all actions together.
    pub requests: u64,
    /// Observers that failed during the game (each was dropped at its first error).
    pub observer_failures: Vec<ObserverFailure>,
}

/// Why a game could not be played to its end.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RunError {
    /// The setup was refused by the engine.
    #[error("cannot set up the game: {0}")]
    Setup(#[from] SetupError),
    /// The number of seats does not match the number of players.
    #[error("{seats} seats given for {players} players")]
    SeatCount {
        /// Seats given.
        seats: usize,
        /// Players in the setup.
        players: usize,
    },
    /// Players did not answer `check` in time, and [`AbsentPolicy::Fail`] was chosen.
    #[error("{} not up after {deadline_ms} ms: {}", plural(down.len()), list_down(down))]
    PlayersDown {
        /// The check deadline.
        deadline_ms: u64,
        /// Who, and the last reason.
        down: Vec<(String, String)>,
    },
    /// Fewer than two players answered `check`: there is no game to play.
    #[error(
        "only {up} of {players} players came up within {deadline_ms} ms ({}): a sit'n'go needs 2",
        list_down(down)
    )]
    TooFewUp {
        /// Players up.
        up: usize,
        /// Players seated.
        players: usize,
        /// The check deadline.
        deadline_ms: u64,
        /// Who was down, and the last reason.
        down: Vec<(String, String)>,
    },
    /// The game was stopped from outside ([`StopHandle::stop`]) before its end.
    #[error("stopped after {hands_played} hands")]
    Stopped {
        /// Hands completed.
        hands_played: u64,
    },
    /// The runner and the engine disagree (a bug): the game cannot continue.
    #[error("internal error: {0}")]
    Internal(String),
}

fn plural(count: usize) -> String {
    if count == 1 {
        "1 player".to_string()
    } else {
        format!("{count} players")
    }
}

fn list_down(down: &[(String, String)]) -> String {
    down.iter()
        .map(|(name, reason)| format!("{name} ({reason})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Plays one sit'n'go: `seats[i]` is the player named `setup.players[i]`. See the
/// [module docs](self) for the order of things.
///
/// Observers are finished (`Observer::finish`) whatever happens once the game is set up,
/// including when it is stopped.
///
/// # Errors
/// A [`RunError`]: a setup the engine refuses, players down (by [`AbsentPolicy`]), a stop.
pub async fn run_game(
    setup: GameSetup,
    seats: Vec<PlayerSeat>,
    observers: Vec<Box<dyn Observer>>,
    options: &RunnerOptions,
    stop: &StopSignal,
) -> Result<GameOutcome, RunError> {
    run_game_then(setup, seats, observers, options, stop, |_| {}).await
}

/// As [`run_game`], calling `ended` with the outcome of a game played to its end *before* the
/// observers finish (their last writes: `game.json`, the closing of `log.json`...), so that
/// what must outlive a crash or a full disk (an event's record of the game, in its database)
/// is written first. The outcome it sees lists the observers that failed so far; the one
/// returned, every one.
///
/// # Errors
/// As [`run_game`].
pub async fn run_game_then(
    setup: GameSetup,
    seats: Vec<PlayerSeat>,
    observers: Vec<Box<dyn Observer>>,
    options: &RunnerOptions,
    stop: &StopSignal,
    ended: impl FnOnce(&GameOutcome),
) -> Result<GameOutcome, RunError> {
    if seats.len() != setup.players.len() {
        return Err(RunError::SeatCount {
            seats: seats.len(),
            players: setup.players.len(),
        });
    }
    // Refuse a bad setup before talking to anyone.
    let mut game = Game::new(setup.clone())?;
    let clock = options.clock;

    // From here on every way out finishes the observers, so a game stopped or refused while
    // its players are checked still leaves complete (valid JSON) logs behind.
    let mut observers = ObserverSet::new(observers);
    let mut checks: Vec<(usize, SystemTime, Reply<()>)> = Vec::new();
    let attendance = tokio::select! {
        attendance = wait_until_up_reporting(&seats, options.check, |index, reply| {
            checks.push((index, clock.sent_before(reply.latency), reply.clone()));
        }) => attendance,
        () = stop.stopped() => {
            observers.finish(&game);
            return Err(RunError::Stopped { hands_played: 0 });
        }
    };
    let mut present = vec![true; seats.len()];
    let mut down = Vec::new();
    for (index, failure) in attendance.down() {
        down.push((setup.players[index].clone(), failure.to_string()));
        present[index] = options.absent == AbsentPolicy::Play;
    }
    let deadline_ms = u64::try_from(options.check.deadline.as_millis()).unwrap_or(u64::MAX);
    for (name, reason) in &down {
        tracing::warn!(player = %name, %reason, "player not up after {deadline_ms} ms");
    }
    if !down.is_empty() {
        match options.absent {
            AbsentPolicy::Fail => {
                observers.finish(&game);
                return Err(RunError::PlayersDown { deadline_ms, down });
            }
            AbsentPolicy::SitOut => {
                let up = present.iter().filter(|&&up| up).count();
                if up < crate::engine::MIN_SEATS {
                    observers.finish(&game);
                    return Err(RunError::TooFewUp {
                        up,
                        players: seats.len(),
                        deadline_ms,
                        down,
                    });
                }
                game = match Game::with_table(setup.clone(), sit_out_table(&setup, &present)) {
                    Ok(game) => game,
                    Err(error) => {
                        observers.finish(&game);
                        return Err(error.into());
                    }
                };
            }
            AbsentPolicy::Play => {}
        }
    }
    let absent: Vec<Option<String>> = attendance
        .seats
        .iter()
        .enumerate()
        .map(|(index, seat)| match seat {
            SeatAttendance::Down { last_failure, .. } if !present[index] => {
                Some(last_failure.to_string())
            }
            _ => None,
        })
        .collect();

    let mut game_loop = GameLoop {
        first_round: game.round(),
        showdowns: (0..seats.len()).map(|_| Document::new()).collect(),
        game,
        seats: &seats,
        eliminated: present.iter().map(|&up| !up).collect(),
        present,
        versions: vec![PlayerVersion::new(); seats.len()],
        bet_requests: vec![0; seats.len()],
        requests: 0,
        observers,
        json: DocumentJson::default(),
        options,
        stop,
    };
    for (index, sent_at, reply) in &checks {
        game_loop.deliver(Seat(*index), Action::Check, *sent_at, None, reply);
    }
    game_loop.requests += checks.len() as u64;
    drop(checks);

    let played = game_loop.play().await;
    let GameLoop {
        game,
        mut observers,
        versions,
        bet_requests,
        requests,
        ..
    } = game_loop;
    let result = match played.and_then(|()| {
        game.result()
            .cloned()
            .ok_or_else(|| RunError::Internal("the game finished without a result".into()))
    }) {
        Ok(result) => result,
        Err(error) => {
            observers.finish(&game);
            return Err(error);
        }
    };
    let public = game.public_state();
    let seats_report = seats
        .iter()
        .zip(public.players)
        .enumerate()
        .map(|(index, (seat, player))| SeatReport {
            name: player.name,
            address: seat.address().to_string(),
            absent: absent[index].clone(),
            version: versions[index].shown().to_string(),
            bet_requests: bet_requests[index],
            time_used_us: player.time_used.unwrap_or(0),
        })
        .collect();
    let mut outcome = GameOutcome {
        result,
        seats: seats_report,
        requests,
        observer_failures: observers.failures().to_vec(),
    };
    ended(&outcome);
    observers.finish(&game);
    outcome.observer_failures = observers.into_failures();
    Ok(outcome)
}

/// The starting table when absent players sit out: no chips for them, the first button drawn
/// from the seed among the others.
fn sit_out_table(setup: &GameSetup, present: &[bool]) -> TableStart {
    let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
    rng.set_stream(2);
    let up: Vec<usize> = (0..present.len()).filter(|&i| present[i]).collect();
    let button = up[rng.random_range(0..up.len())];
    TableStart {
        round: 0,
        button: Seat(button),
        stacks: present
            .iter()
            .map(|&up| {
                if up {
                    setup.config.starting_stack
                } else {
                    shared::Chips::ZERO
                }
            })
            .collect(),
    }
}
