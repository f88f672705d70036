//! Talking to players: over HTTP ([`HttpSeat`]) or in-process ([`InProcessSeat`]), behind one
//! enum ([`PlayerSeat`]) that the runner drives without caring which.
//!
//! Every call returns a [`Reply`]: the outcome (the bet, the version, or a [`SeatFailure`] whose
//! `Display` is the one-line reason recorded with a ban), plus what the logs need: HTTP status,
//! raw body (at most the body cap), latency (for `time_used`), and the exact JSON text sent.
//!
//! Which failures ban is the engine's business (spec §6): only `bet_request` failures do;
//! `check`, `version` and `showdown` failures are reported and never ban.
//!
//! Before the first hand, [`wait_until_up`] polls `check` on every seat until all answer or a
//! deadline passes. `version` is asked once per game per player and retried while it fails
//! (spec §7): [`PlayerVersion`] keeps that state per player and [`ask_versions`] asks every
//! player that still needs it, concurrently; the runner decides when.
//!
//! All calls run on the caller's task (nothing is spawned, so nothing outlives a call) and need
//! a tokio runtime with the time and IO drivers enabled. Their futures are `Send`, so a game can
//! run on any worker of a multi-threaded runtime.

mod connection;
mod endpoint;
mod failure;
mod http;
mod http_settings;
mod in_process;
#[cfg(feature = "tls")]
mod tls;
mod transport;
mod version;

pub use endpoint::{AuthScheme, EndpointError, PlayerEndpoint};
pub use failure::{reason_is_unreachable, SeatFailure};
pub use http::{GameEncoder, HttpClient, HttpSeat};
pub use http_settings::{ClientError, HttpSettings};
pub use in_process::{InProcessSeat, Player};
pub use version::{
    ask_versions, clean_version, PlayerVersion, VersionPolicy, UNKNOWN_VERSION, VERSION_MAX_CHARS,
};

use bytes::Bytes;
use futures_util::future::join_all;
use shared::{Chips, GameState};
use std::borrow::Cow;
use std::fmt;
use std::time::Duration;
use tokio::time::Instant;

/// The answer to one request, with what the logs need.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply<T> {
    /// The bet / version / acknowledgement, or why there is none.
    pub outcome: Result<T, SeatFailure>,
    /// The HTTP status, when a response head arrived (`None` in-process).
    pub status: Option<u16>,
    /// The raw body received: the whole body, or the part that arrived before a failure, cut
    /// at [`HttpSettings::body_limit`] bytes. `Some("")` for a complete empty body; `None` when
    /// not a byte of body was read (no response, a body refused from its declared length) and
    /// in-process.
    pub body: Option<Bytes>,
    /// From just before sending to the end of the body, or to the failure. This is what
    /// `time_used` adds up (spec §2, in microseconds: [`Reply::latency_us`]).
    pub latency: Duration,
    /// Earlier attempts of this same request that the HTTP client handed back **unsent** (the
    /// connection was found closed before a byte of the request was written), oldest first, with
    /// why each failed. The player never saw them; they are listed so that the logs can show
    /// every attempt. Almost always empty, and never more than one (see `http.rs`).
    pub unsent_attempts: Vec<SeatFailure>,
}

impl<T> Reply<T> {
    fn in_process(outcome: Result<T, SeatFailure>, latency: Duration) -> Reply<T> {
        Reply {
            outcome,
            status: None,
            body: None,
            latency,
            unsent_attempts: Vec::new(),
        }
    }

    /// The latency in whole microseconds, the unit of `time_used`.
    pub fn latency_us(&self) -> u64 {
        u64::try_from(self.latency.as_micros()).unwrap_or(u64::MAX)
    }

    /// The raw body as text (invalid UTF-8 replaced), for `requests.jsonl`'s `answer`.
    pub fn body_text(&self) -> Option<Cow<'_, str>> {
        self.body.as_deref().map(String::from_utf8_lossy)
    }

    /// The body as a quoted, escaped, length-limited excerpt for one-line logs.
    pub fn body_excerpt(&self) -> Option<String> {
        self.body.as_deref().map(shared::protocol::excerpt)
    }

    /// How many times the request was handed to the transport: 1, plus any
    /// [`Reply::unsent_attempts`].
    pub fn attempts(&self) -> usize {
        1 + self.unsent_attempts.len()
    }

    /// The failure, if any.
    pub fn failure(&self) -> Option<&SeatFailure> {
        self.outcome.as_ref().err()
    }
}

/// A player's seat, over HTTP or in-process. Methods dispatch by `match` (no boxing); the
/// futures borrow the seat and the state.
#[derive(Debug, Clone)]
pub enum PlayerSeat {
    /// A player reached over HTTP.
    Http(HttpSeat),
    /// A player called in-process.
    InProcess(InProcessSeat),
}

impl PlayerSeat {
    /// Asks for a bet (spec §1, §4, §6): `Ok(chips)` or the reason for a ban.
    pub async fn bet_request(&self, state: &GameState) -> Reply<Chips> {
        match self {
            PlayerSeat::Http(seat) => seat.bet_request(state).await,
            PlayerSeat::InProcess(seat) => seat.bet_request(state).await,
        }
    }

    /// Sends the end-of-hand state. A failure is reported, never a ban.
    pub async fn showdown(&self, state: &GameState) -> Reply<()> {
        match self {
            PlayerSeat::Http(seat) => seat.showdown(state).await,
            PlayerSeat::InProcess(seat) => seat.showdown(state).await,
        }
    }

    /// Asks the version ([`clean_version`] applied). A failure means `Unknown`, never a ban.
    pub async fn version(&self) -> Reply<String> {
        match self {
            PlayerSeat::Http(seat) => seat.version().await,
            PlayerSeat::InProcess(seat) => seat.version().await,
        }
    }

    /// Asks whether the player is up (any `200`).
    pub async fn check(&self) -> Reply<()> {
        match self {
            PlayerSeat::Http(seat) => seat.check().await,
            PlayerSeat::InProcess(seat) => seat.check().await,
        }
    }

    /// Where the player is, for logs and `results.json`: its URL without credentials, or
    /// `in-process`.
    pub fn address(&self) -> &str {
        match self {
            PlayerSeat::Http(seat) => seat.endpoint().url().as_str(),
            PlayerSeat::InProcess(_) => "in-process",
        }
    }
}

impl fmt::Display for PlayerSeat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.address())
    }
}

impl From<HttpSeat> for PlayerSeat {
    fn from(seat: HttpSeat) -> PlayerSeat {
        PlayerSeat::Http(seat)
    }
}

impl From<InProcessSeat> for PlayerSeat {
    fn from(seat: InProcessSeat) -> PlayerSeat {
        PlayerSeat::InProcess(seat)
    }
}

/// How long to wait for players to come up before the first hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckPolicy {
    /// Give up on a player after this long, from the start of the polling. Default 10 s.
    pub deadline: Duration,
    /// Pause between two `check`s of a player that failed. Default 250 ms.
    pub retry_interval: Duration,
}

impl Default for CheckPolicy {
    fn default() -> Self {
        CheckPolicy {
            deadline: Duration::from_secs(10),
            retry_interval: Duration::from_millis(250),
        }
    }
}

/// Whether one player came up during [`wait_until_up`].
#[derive(Debug, Clone, PartialEq)]
pub enum SeatAttendance {
    /// It answered `check` with a `200`.
    Up {
        /// `check`s sent, the successful one included.
        attempts: u32,
        /// From the start of the polling to its answer.
        after: Duration,
    },
    /// It did not answer in time.
    Down {
        /// `check`s sent.
        attempts: u32,
        /// Why the last one failed (a `check` cut by the polling deadline is a timeout).
        last_failure: SeatFailure,
    },
}

/// The result of [`wait_until_up`], in the order the seats were given.
#[derive(Debug, Clone, PartialEq)]
pub struct Attendance {
    /// One entry per seat, in input order.
    pub seats: Vec<SeatAttendance>,
}

impl Attendance {
    /// Whether every seat came up.
    pub fn all_up(&self) -> bool {
        self.seats
            .iter()
            .all(|seat| matches!(seat, SeatAttendance::Up { .. }))
    }

    /// Input indexes of the seats that came up.
    pub fn up(&self) -> impl Iterator<Item = usize> + '_ {
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, seat)| matches!(seat, SeatAttendance::Up { .. }))
            .map(|(index, _)| index)
    }

    /// Input indexes of the seats that did not come up, with the last failure.
    pub fn down(&self) -> impl Iterator<Item = (usize, &SeatFailure)> + '_ {
        self.seats
            .iter()
            .enumerate()
            .filter_map(|(index, seat)| match seat {
                SeatAttendance::Down { last_failure, .. } => Some((index, last_failure)),
                SeatAttendance::Up { .. } => None,
            })
    }
}

/// Polls `check` on every seat, concurrently, until each answers `200` or `policy.deadline`
/// passes (spec §7: OSS asks `check` while waiting for players before a game). Returns within
/// the deadline plus scheduling slack, whatever the players do; runs on the caller's task and
/// leaves nothing running behind it. The runner then starts without the absent seats, or fails.
pub async fn wait_until_up<'a>(
    seats: impl IntoIterator<Item = &'a PlayerSeat>,
    policy: CheckPolicy,
) -> Attendance {
    wait_until_up_reporting(seats, policy, |_, _| {}).await
}

/// [`wait_until_up`], calling `on_reply(seat_index, &reply)` for every `check` as soon as it
/// is answered (or cut by the deadline, reported as a timeout), so the runner can log every
/// request a player received. `seat_index` is the seat's position in `seats`.
pub async fn wait_until_up_reporting<'a>(
    seats: impl IntoIterator<Item = &'a PlayerSeat>,
    policy: CheckPolicy,
    on_reply: impl FnMut(usize, &Reply<()>) + Send,
) -> Attendance {
    let started = Instant::now();
    let give_up = started + policy.deadline;
    // The polls run concurrently on this one task; a mutex (never contended) lets them share
    // the callback while keeping the future `Send`.
    let on_reply = &std::sync::Mutex::new(on_reply);
    let polls = seats.into_iter().enumerate().map(|(index, seat)| {
        poll_until_up(
            seat,
            policy.retry_interval,
            started,
            give_up,
            move |reply| {
                let mut report = on_reply.lock().unwrap_or_else(|e| e.into_inner());
                (*report)(index, reply);
            },
        )
    });
    Attendance {
        seats: join_all(polls).await,
    }
}

async fn poll_until_up(
    seat: &PlayerSeat,
    retry_interval: Duration,
    started: Instant,
    give_up: Instant,
    report: impl Fn(&Reply<()>),
) -> SeatAttendance {
    let mut attempts = 0;
    loop {
        attempts += 1;
        let attempt_started = Instant::now();
        let remaining = give_up.saturating_duration_since(attempt_started);
        let reply = match tokio::time::timeout(remaining, seat.check()).await {
            Ok(reply) => reply,
            Err(_) => Reply {
                outcome: Err(SeatFailure::Timeout {
                    after_ms: failure::millis(attempt_started.elapsed()),
                }),
                status: None,
                body: None,
                latency: attempt_started.elapsed(),
                unsent_attempts: Vec::new(),
            },
        };
        report(&reply);
        let failure = match reply.outcome {
            Ok(()) => {
                return SeatAttendance::Up {
                    attempts,
                    after: started.elapsed(),
                }
            }
            Err(failure) => failure,
        };
        let next = Instant::now() + retry_interval;
        if next >= give_up {
            return SeatAttendance::Down {
                attempts,
                last_failure: failure,
            };
        }
        tokio::time::sleep_until(next).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>(_: &T) {}

    #[allow(dead_code)] // Compiles or not: never run.
    fn every_future_is_send(seat: &PlayerSeat, seats: &[PlayerSeat], state: &GameState) {
        assert_send(&seat.bet_request(state));
        assert_send(&seat.showdown(state));
        assert_send(&seat.version());
        assert_send(&seat.check());
        assert_send(&wait_until_up(seats, CheckPolicy::default()));
        assert_send(&wait_until_up_reporting(
            seats,
            CheckPolicy::default(),
            |_, _| {},
        ));
        let mut versions = vec![PlayerVersion::new(); seats.len()];
        let policy = VersionPolicy::default();
        assert_send(&ask_versions(
            seats.iter().zip(versions.iter_mut()),
            &policy,
        ));
    }
}
