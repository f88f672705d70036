//! Delivering the game's stream to its observers: in order, each one isolated from the
//! others, a failed one reported once and never called again.

use crate::engine::Game;
use crate::game_event::GameEvent;
use crate::observe::{Exchange, Observer};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io;

/// An observer that returned an error and was dropped for the rest of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObserverFailure {
    /// Its position in the list of observers the game was started with.
    pub observer: usize,
    /// What it was doing: `event`, `exchange` or `finish`.
    pub during: String,
    /// The hand the game was in.
    pub round: u64,
    /// The error, one line.
    pub error: String,
}

impl fmt::Display for ObserverFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "output #{} failed during {} in hand {}: {}",
            self.observer, self.during, self.round, self.error
        )
    }
}

/// The observers of one game.
pub(crate) struct ObserverSet {
    /// `None` once an observer failed.
    observers: Vec<Option<Box<dyn Observer>>>,
    failures: Vec<ObserverFailure>,
    /// Some observer writes documents as JSON text ([`Observer::wants_sent_json`]).
    wants_sent_json: bool,
}

impl ObserverSet {
    pub(crate) fn new(observers: Vec<Box<dyn Observer>>) -> ObserverSet {
        ObserverSet {
            wants_sent_json: observers.iter().any(|observer| observer.wants_sent_json()),
            observers: observers.into_iter().map(Some).collect(),
            failures: Vec::new(),
        }
    }

    /// Whether an observer writes documents as JSON text, so that the runner serialises a
    /// document the seat did not (once, for all of them).
    pub(crate) fn wants_sent_json(&self) -> bool {
        self.wants_sent_json
    }

    pub(crate) fn event(&mut self, event: &GameEvent, game: &Game) {
        self.each("event", game, |observer| observer.on_event(event, game));
    }

    pub(crate) fn exchange(&mut self, exchange: &Exchange<'_>, game: &Game) {
        self.each("exchange", game, |observer| {
            observer.on_exchange(exchange, game)
        });
    }

    /// Calls `finish` on every observer still working.
    pub(crate) fn finish(&mut self, game: &Game) {
        self.each("finish", game, |observer| observer.finish(game));
        self.observers.clear();
    }

    /// The observers that failed so far.
    pub(crate) fn failures(&self) -> &[ObserverFailure] {
        &self.failures
    }

    pub(crate) fn into_failures(self) -> Vec<ObserverFailure> {
        self.failures
    }

    fn each(
        &mut self,
        during: &'static str,
        game: &Game,
        mut call: impl FnMut(&mut dyn Observer) -> io::Result<()>,
    ) {
        for (index, slot) in self.observers.iter_mut().enumerate() {
            let Some(observer) = slot else { continue };
            if let Err(error) = call(observer.as_mut()) {
                let failure = ObserverFailure {
                    observer: index,
                    during: during.to_string(),
                    round: game.round(),
                    error: one_line(&error.to_string()),
                };
                tracing::error!(
                    game_id = game.game_id(),
                    "{failure}; it is not called again in this game"
                );
                self.failures.push(failure);
                *slot = None;
            }
        }
    }
}

/// Keeps an error message on one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
