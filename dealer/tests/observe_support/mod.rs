//! Drives a real [`Game`] with in-process answers and feeds observers exactly as the runner
//! does: events as they come out of the engine, and for every request an [`Exchange`] (for a
//! `bet_request`: the exchange first, then the engine's events that follow the answer).
#![allow(dead_code)]

use dealer::engine::{Game, GameSetup, SeatAnswer, Step};
use dealer::observe::{Exchange, GameOutputs, Observer};
use dealer::rules::GameRules;
use dealer::seat::SeatFailure;
use shared::protocol::{parse_bet_answer, Action};
use shared::{Chips, GameState, Seat};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// What a test player answers to `bet_request`.
#[derive(Debug, Clone)]
pub enum Reply {
    /// `200` with this number as the body.
    Bet(u64),
    /// This status and body (read by the real bet-reading rule).
    Raw { status: u16, body: Vec<u8> },
    /// No usable response.
    Fail(SeatFailure),
}

/// How the exchanges look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatKind {
    /// HTTP: status, body and the JSON sent are recorded.
    Http,
    /// In-process: no status, no body, no JSON.
    InProcess,
}

/// The answering side of a test game.
pub trait Bots {
    /// The answer of `seat` to `state`.
    fn answer(&mut self, seat: Seat, state: &GameState) -> Reply;
    /// The latency of `seat`'s answer to request number `request`.
    fn latency(&mut self, seat: Seat, request: u64) -> Duration {
        Duration::from_micros(1000 + 37 * seat.index() as u64 + request % 97)
    }
    /// The version string of `seat`.
    fn version(&mut self, seat: Seat) -> String {
        format!("test bot {}", seat.index())
    }
}

impl<F: FnMut(Seat, &GameState) -> Reply> Bots for F {
    fn answer(&mut self, seat: Seat, state: &GameState) -> Reply {
        self(seat, state)
    }
}

/// Calls every bet.
pub fn calling(_seat: Seat, state: &GameState) -> Reply {
    Reply::Bet(state.call_amount().get())
}

/// A deterministic mix of folds, calls, min-raises, big raises and all-ins, from a tiny
/// linear congruential generator (no dependency on the engine's randomness).
pub struct Mixed {
    state: u64,
}

impl Mixed {
    pub fn new(seed: u64) -> Mixed {
        Mixed {
            state: seed.wrapping_mul(6364136223846793005).wrapping_add(1),
        }
    }

    pub fn next(&mut self) -> u64 {
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.state >> 33
    }
}

impl Bots for Mixed {
    fn answer(&mut self, _seat: Seat, state: &GameState) -> Reply {
        let call = state.call_amount().get();
        let min_raise = state.minimum_raise.unwrap_or_default().get();
        let stack = state.me().map_or(0, |me| me.stack.get());
        Reply::Bet(match self.next() % 20 {
            0..=3 => 0,
            4..=11 => call,
            12..=14 => call + min_raise,
            15..=16 => call + min_raise * 3 + self.next() % 50,
            17 => call + min_raise.saturating_sub(1), // short raise: read as a call
            _ => stack,
        })
    }
}

/// Where the exchange's request stands in the game.
fn exchange<'a>(
    round: u64,
    seat: Seat,
    player: &'a str,
    action: Action,
    state: Option<&'a GameState>,
    sent_json: Option<&'a str>,
) -> Exchange<'a> {
    Exchange {
        round,
        seat,
        player,
        action,
        sent_at: UNIX_EPOCH,
        state,
        sent_json,
        status: None,
        body: None,
        latency: Duration::ZERO,
        failure: None,
        unsent_attempts: &[],
    }
}

/// Feeds `event`/`exchange` to every observer, failing the test on an I/O error.
fn each(observers: &mut [Box<dyn Observer>], mut call: impl FnMut(&mut dyn Observer)) {
    for observer in observers.iter_mut() {
        call(observer.as_mut());
    }
}

/// Options of a driven game.
#[derive(Debug, Clone, Copy)]
pub struct Drive {
    pub kind: SeatKind,
    /// Stop after this many steps without finishing (to test crashes); `None`: play to the end.
    pub stop_after_hands: Option<u64>,
    /// Wall-clock time of the first request (the epoch: reproducible).
    pub start: SystemTime,
}

impl Default for Drive {
    fn default() -> Self {
        Drive {
            kind: SeatKind::Http,
            stop_after_hands: None,
            start: UNIX_EPOCH,
        }
    }
}

/// Plays `game` to its end (or `drive.stop_after_hands`), feeding `observers`.
pub fn drive(
    game: &mut Game,
    observers: &mut [Box<dyn Observer>],
    bots: &mut dyn Bots,
    drive: Drive,
) {
    let seats = game.seat_count();
    let names: Vec<String> = (0..seats)
        .map(|seat| game.player_name(Seat(seat)).unwrap().to_string())
        .collect();
    let mut requests = 0u64;
    let mut clock = drive.start;
    let tick = |clock: &mut SystemTime| {
        if drive.start != UNIX_EPOCH {
            *clock += Duration::from_micros(1234);
        }
        *clock
    };
    // check and version before the first hand
    for seat in 0..seats {
        let seat = Seat(seat);
        for action in [Action::Check, Action::Version] {
            let version = bots.version(seat);
            let body = match action {
                Action::Version => version.clone().into_bytes(),
                _ => Vec::new(),
            };
            let mut ex = exchange(game.round(), seat, &names[seat.index()], action, None, None);
            ex.sent_at = tick(&mut clock);
            if drive.kind == SeatKind::Http {
                ex.status = Some(200);
                ex.body = Some(&body);
            }
            ex.latency = Duration::from_micros(500);
            each(observers, |o| o.on_exchange(&ex, game).unwrap());
            if action == Action::Version {
                game.set_version(seat, version).unwrap();
            }
        }
    }
    let mut hands = 0u64;
    loop {
        match game.step() {
            Step::Event(event) => {
                each(observers, |o| o.on_event(&event, game).unwrap());
            }
            Step::BetRequest { seat } => {
                let state = game.bet_request_state().unwrap().clone();
                let json = state.to_json();
                let reply = bots.answer(seat, &state);
                let latency = bots.latency(seat, requests);
                requests += 1;
                let (status, body, outcome): (
                    Option<u16>,
                    Option<Vec<u8>>,
                    Result<Chips, SeatFailure>,
                ) = match reply {
                    Reply::Bet(chips) => (
                        Some(200),
                        Some(chips.to_string().into_bytes()),
                        Ok(Chips(chips)),
                    ),
                    Reply::Raw { status, body } => {
                        let outcome = if status != 200 {
                            Err(SeatFailure::Status(status))
                        } else {
                            parse_bet_answer(&body).map_err(SeatFailure::InvalidBody)
                        };
                        (Some(status), Some(body), outcome)
                    }
                    Reply::Fail(failure) => (None, None, Err(failure)),
                };
                let http = drive.kind == SeatKind::Http;
                let mut ex = exchange(
                    game.round(),
                    seat,
                    &names[seat.index()],
                    Action::BetRequest,
                    Some(&state),
                    http.then_some(json.as_str()),
                );
                ex.sent_at = tick(&mut clock);
                ex.latency = latency;
                if http {
                    ex.status = status;
                    ex.body = body.as_deref();
                }
                let failure = outcome.as_ref().err().cloned();
                ex.failure = failure.as_ref();
                each(observers, |o| o.on_exchange(&ex, game).unwrap());
                game.add_time_used(seat, ex.latency_us()).unwrap();
                let answer = match outcome {
                    Ok(chips) => SeatAnswer::Bet(chips),
                    Err(failure) => SeatAnswer::Invalid {
                        reason: failure.to_string(),
                    },
                };
                game.answer(answer).unwrap();
            }
            Step::Showdown { round } => {
                for seat in 0..seats {
                    let seat = Seat(seat);
                    let state = game.showdown_state(seat).unwrap().clone();
                    let json = state.to_json();
                    let http = drive.kind == SeatKind::Http;
                    let mut ex = exchange(
                        round,
                        seat,
                        &names[seat.index()],
                        Action::Showdown,
                        Some(&state),
                        http.then_some(json.as_str()),
                    );
                    ex.sent_at = tick(&mut clock);
                    ex.latency = Duration::from_micros(300);
                    if http {
                        ex.status = Some(200);
                        ex.body = Some(b"");
                    }
                    each(observers, |o| o.on_exchange(&ex, game).unwrap());
                }
                hands += 1;
                if drive.stop_after_hands == Some(hands) {
                    return;
                }
            }
            Step::Finished => break,
        }
    }
    each(observers, |o| o.finish(game).unwrap());
}

/// A game of `names` with `config`, seeded.
pub fn new_game(names: &[&str], config: GameRules, seed: u64) -> Game {
    let setup = GameSetup::new(
        config,
        names.iter().map(|name| name.to_string()).collect(),
        seed,
    );
    Game::new(setup).unwrap()
}

/// Plays a whole game into `dir` with every output.
pub fn play_into(
    dir: &Path,
    names: &[&str],
    config: GameRules,
    seed: u64,
    bots: &mut dyn Bots,
    kind: SeatKind,
) -> Game {
    let mut game = new_game(names, config, seed);
    let mut observers =
        GameOutputs::create_selected(dir, names, dealer::observe::OutputSelection::ALL).unwrap();
    drive(
        &mut game,
        &mut observers,
        bots,
        Drive {
            kind,
            ..Drive::default()
        },
    );
    game
}

/// Every file under `dir`, relative path and content, sorted by path.
pub fn read_tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        for entry in std::fs::read_dir(&path).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.push((relative, std::fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

/// The keys of a JSON object, in the order written.
pub fn object_keys(json: &str) -> Vec<String> {
    use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
    struct Keys;
    impl<'de> Visitor<'de> for Keys {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<String>, A::Error> {
            let mut keys = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                map.next_value::<IgnoredAny>()?;
                keys.push(key);
            }
            Ok(keys)
        }
    }
    let mut deserializer = serde_json::Deserializer::from_str(json);
    deserializer.deserialize_map(Keys).expect("a JSON object")
}
