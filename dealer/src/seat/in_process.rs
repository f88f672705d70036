//! Players that live in the dealer's process (house bots, fast simulation): called directly,
//! with no HTTP and no JSON.
//!
//! A panic in the player is caught and becomes [`SeatFailure::Panicked`] (a ban for a
//! `bet_request`, like a crashed HTTP player). This needs the default `panic = "unwind"`; a
//! binary built with `panic = "abort"` would stop instead.
//!
//! By default calls run **inline** on the runner's task: in-process players are trusted code
//! (our house bots answer in microseconds), and a thread hop per call would cost more than the
//! call itself. The price is that a player that never returns hangs the game, exactly as a
//! hanging function would hang any program; that is acceptable for code we ship and test. For
//! code that is not trusted (a team's bot plugged in for simulation),
//! [`InProcessSeat::with_deadline`] runs every call on its own thread under the same deadline as
//! HTTP players: a call that overruns fails with `timeout after N ms` and its thread is left
//! behind (a thread cannot be killed; it ends with the process or when the call returns).

use super::failure::{millis, one_line};
use super::{clean_version, Reply, SeatFailure};
use shared::{Chips, GameState};
use std::any::Any;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The SDK's bot trait, re-exported so that the runner and house bots need only `dealer`.
pub use player::Player;

/// One in-process player.
#[derive(Clone)]
pub struct InProcessSeat {
    player: Arc<dyn Player>,
    deadline: Option<Duration>,
}

impl fmt::Debug for InProcessSeat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InProcessSeat")
            .field("deadline", &self.deadline)
            .finish_non_exhaustive()
    }
}

impl InProcessSeat {
    /// A seat that calls `player` inline (see the module docs).
    pub fn new(player: Arc<dyn Player>) -> InProcessSeat {
        InProcessSeat {
            player,
            deadline: None,
        }
    }

    /// Runs every call on its own thread and gives up after `deadline` (`timeout after N ms`).
    /// Costs a thread start and a `GameState` clone per call.
    pub fn with_deadline(self, deadline: Duration) -> InProcessSeat {
        InProcessSeat {
            deadline: Some(deadline),
            ..self
        }
    }

    /// The deadline, when calls run on their own thread.
    pub fn deadline(&self) -> Option<Duration> {
        self.deadline
    }

    /// Asks the player for a bet.
    pub async fn bet_request(&self, state: &GameState) -> Reply<Chips> {
        self.game_call(state, |player, state| player.bet_request(state))
            .await
    }

    /// Tells the player the hand is over.
    pub async fn showdown(&self, state: &GameState) -> Reply<()> {
        self.game_call(state, |player, state| player.showdown(state))
            .await
    }

    /// Asks the player's version, cleaned like an HTTP answer ([`clean_version`]).
    pub async fn version(&self) -> Reply<String> {
        let started = Instant::now();
        let outcome = match self.deadline {
            None => self.run_inline(|player| player.version()),
            Some(deadline) => self.run_guarded(deadline, |player| player.version()).await,
        };
        let outcome = outcome.map(|version| clean_version(version.as_bytes()));
        Reply::in_process(outcome, started.elapsed())
    }

    /// An in-process player is always up.
    pub async fn check(&self) -> Reply<()> {
        Reply::in_process(Ok(()), Duration::ZERO)
    }

    /// Calls the player about `state`: inline, borrowing it, without a deadline; with one, on
    /// a guarded thread that gets its own copy (it may outlive the request).
    async fn game_call<T: Send + 'static>(
        &self,
        state: &GameState,
        call: fn(&dyn Player, &GameState) -> T,
    ) -> Reply<T> {
        let started = Instant::now();
        let outcome = match self.deadline {
            None => self.run_inline(|player| call(player, state)),
            Some(deadline) => {
                let state = state.clone();
                self.run_guarded(deadline, move |player| call(player, &state))
                    .await
            }
        };
        Reply::in_process(outcome, started.elapsed())
    }

    fn run_inline<T>(&self, call: impl FnOnce(&dyn Player) -> T) -> Result<T, SeatFailure> {
        // A player that panicked may hold broken state of its own; it is the player's state,
        // and the dealer keeps none across the call, so unwinding out of it is safe here.
        catch_unwind(AssertUnwindSafe(|| call(&*self.player)))
            .map_err(|payload| SeatFailure::Panicked(panic_message(payload.as_ref())))
    }

    async fn run_guarded<T: Send + 'static>(
        &self,
        deadline: Duration,
        call: impl FnOnce(&dyn Player) -> T + Send + 'static,
    ) -> Result<T, SeatFailure> {
        let player = Arc::clone(&self.player);
        let (sender, receiver) = tokio::sync::oneshot::channel();
        // A plain thread, not `spawn_blocking`: a runtime waits for its blocking tasks when it
        // shuts down, so a player that never returns would keep the dealer from exiting.
        let spawned = std::thread::Builder::new()
            .name("in-process-player".into())
            .spawn(move || {
                let outcome = catch_unwind(AssertUnwindSafe(|| call(&*player)))
                    .map_err(|payload| SeatFailure::Panicked(panic_message(payload.as_ref())));
                // The dealer may have given up already; then nobody wants the answer.
                let _ = sender.send(outcome);
            });
        if let Err(error) = spawned {
            return Err(SeatFailure::Thread(one_line(&error.to_string())));
        }
        match tokio::time::timeout(deadline, receiver).await {
            Ok(Ok(outcome)) => outcome,
            // Only if the thread died without unwinding through `catch_unwind`.
            Ok(Err(_)) => Err(SeatFailure::Thread(
                "the call ended without an answer".into(),
            )),
            Err(_) => Err(SeatFailure::Timeout {
                after_ms: millis(deadline),
            }),
        }
    }
}

/// The text of a panic payload (`panic!("...")` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&'static str>() {
        one_line(text)
    } else if let Some(text) = payload.downcast_ref::<String>() {
        one_line(text)
    } else {
        "a panic without a message".to_string()
    }
}
