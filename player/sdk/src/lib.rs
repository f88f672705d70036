//! The Lean Poker player SDK: write a [`Player`], serve it over HTTP, test it with recorded games.
//!
//! - [`Player`]: the trait your bot implements (`bet_request`, `showdown`, `version`), or
//!   [`from_fn`] for a bot that is one function;
//! - [`serve`] and [`ServerBuilder`]: the actix-web service that speaks the Lean Poker protocol
//!   (spec §1, §6) and makes sure the dealer never bans you for a panic or a slow answer;
//! - [`testing`] (feature `testing`, on in this package's own tests): recorded game states, a
//!   builder for hand-made states, and an assertion that every answer is a legal, meaningful
//!   bet.
//!
//! ```no_run
//! use player::{Chips, GameState, Player};
//!
//! struct AlwaysCall;
//!
//! impl Player for AlwaysCall {
//!     fn bet_request(&self, state: &GameState) -> Chips {
//!         state.call_amount()
//!     }
//! }
//!
//! fn main() -> Result<(), player::ServeError> {
//!     player::serve(AlwaysCall) // 0.0.0.0:$PORT (default 1337) until SIGTERM or Ctrl-C
//! }
//! ```
//!
//! # Keeping learning state
//!
//! One player value answers every request, from several threads at once (the service has
//! several workers, and the dealer may run several games against you concurrently). That is why
//! [`Player`] methods take `&self` and the trait requires `Send + Sync`. Keep state that changes
//! behind a [`Mutex`](std::sync::Mutex) or in atomics; keep the lock short and never hold it
//! while doing heavy work.
//!
//! ```
//! use player::{Chips, GameState, Player};
//! use std::collections::HashMap;
//! use std::sync::atomic::{AtomicU64, Ordering};
//! use std::sync::Mutex;
//!
//! #[derive(Default)]
//! struct Learner {
//!     /// How many hands ended (a plain counter: an atomic is enough).
//!     hands_seen: AtomicU64,
//!     /// How often each opponent showed cards at showdown (a map: needs a lock).
//!     showdowns_by_name: Mutex<HashMap<String, u64>>,
//! }
//!
//! impl Player for Learner {
//!     fn bet_request(&self, state: &GameState) -> Chips {
//!         // Read under the lock, copy out what you need, release it before thinking.
//!         let showed_often = {
//!             let counts = self.showdowns_by_name.lock().unwrap_or_else(|e| e.into_inner());
//!             state.active_opponents().any(|p| counts.get(&p.name).copied().unwrap_or(0) > 3)
//!         };
//!         if showed_often { state.call_amount() } else { Chips::ZERO }
//!     }
//!
//!     fn showdown(&self, state: &GameState) {
//!         self.hands_seen.fetch_add(1, Ordering::Relaxed);
//!         // A showdown state has no in_action: recognise yourself by your team name.
//!         const MY_NAME: &str = "P0";
//!         // `into_inner` recovers the map even if a panic once poisoned the lock.
//!         let mut counts = self.showdowns_by_name.lock().unwrap_or_else(|e| e.into_inner());
//!         for opponent in state.players.iter().filter(|p| p.name != MY_NAME) {
//!             if opponent.hole_cards.as_ref().is_some_and(|cards| !cards.is_empty()) {
//!                 *counts.entry(opponent.name.clone()).or_default() += 1;
//!             }
//!         }
//!     }
//! }
//!
//! let learner = Learner::default();
//! let showdown = player::testing::heads_up()
//!     .cards(0, "3h 3d")
//!     .cards(1, "Ah Kd")
//!     .board("2c 7d 9h Js Qs")
//!     .showdown_state()
//!     .build();
//! learner.showdown(&showdown);
//! assert_eq!(learner.hands_seen.load(Ordering::Relaxed), 1);
//! assert_eq!(learner.showdowns_by_name.lock().unwrap()["P1"], 1);
//! ```
//!
//! Showdown calls for one game arrive one at a time, but calls from different games, and the
//! next `bet_request`, may overlap with them: design for that rather than relying on order.
#![warn(missing_docs)]

// `player::…` paths work inside this crate too, so the crate's examples read as a team's code.
extern crate self as player;

mod auth;
mod bet_check;
pub mod cli;
mod from_fn;
mod logging;
mod server;
mod service;
mod strategy_pool;
// Documented always, compiled only with the `testing` feature (on for tests; see Cargo.toml).
#[cfg(any(feature = "testing", doc))]
pub mod testing;

pub use bet_check::check_bet;
pub use from_fn::{from_fn, FnPlayer};
pub use logging::init_logging;
pub use server::{
    address_from_env, local_url, serve, BoundServer, ConfigError, RunningServer, ServeError,
    ServerBuilder, ServerTask, ShutdownHandle, AUTH_ENV, DEFAULT_BODY_LIMIT, DEFAULT_MAX_IN_FLIGHT,
    DEFAULT_PORT, DEFAULT_TIME_BUDGET, HOST_ENV, MAX_IN_FLIGHT_ENV, PORT_ENV, TIME_BUDGET_ENV,
    WORKERS_ENV,
};
pub use strategy_pool::panic_message;

/// The Rust snippets of this crate's `README.md` (the SDK's reference), compiled and run as
/// doctests so that the page cannot go stale. A team's page (`player/README.md`) is checked
/// where its snippets go, in the team's own crate (`.ci/team_checks.py`): the SDK's tests never
/// compile a team's code.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeSnippets;

/// The shared crate (wire format, cards, rules), re-exported so a bot needs one dependency.
pub use shared;
pub use shared::rules::{BetAction, BetReading};
pub use shared::{Card, Chips, GameState, PlayerState, PlayerStatus, Rank, Seat, Street, Suit};

use std::sync::Arc;

/// The SDK's own version text, the default answer to `action=version`.
pub const SDK_VERSION: &str = concat!("lean-poker-player ", env!("CARGO_PKG_VERSION"));

/// A poker bot: what the dealer talks to.
///
/// Only [`bet_request`](Player::bet_request) is required. The service calls these methods on a
/// thread of their own, never on the threads that do network I/O, with a time budget; a panic or
/// an overrun is logged and answered with a safe fallback, so it can never get you banned. See
/// the [crate docs](crate#keeping-learning-state) for how to keep state between calls.
pub trait Player: Send + Sync + 'static {
    /// Your turn: how many chips to put in now (spec §4).
    ///
    /// `0` checks when nothing is owed and folds otherwise; [`GameState::call_amount`] calls;
    /// [`GameState::minimum_raise_amount`] makes the smallest raise; [`GameState::all_in_amount`]
    /// goes all-in. [`GameState::read_bet`] tells exactly how the dealer will read an answer.
    fn bet_request(&self, state: &GameState) -> Chips;

    /// A hand ended: `state` shows the result, with the cards that were revealed. Learn here.
    fn showdown(&self, state: &GameState) {
        let _ = state;
    }

    /// The text shown on the leaderboard; change it whenever the behaviour changes, so you can
    /// see that a deploy went live. Default: [`SDK_VERSION`].
    fn version(&self) -> String {
        SDK_VERSION.to_string()
    }
}

/// Implements [`Player`] for a smart pointer by forwarding every method to the player it holds,
/// so a team can hand `Arc<dyn Player>` or `Box<dyn Player>` wherever a player goes. A macro
/// rather than one impl over `Deref`: that blanket impl would also claim any team type that
/// implements `Deref`, and could then clash with the team's own `impl Player`.
macro_rules! forward_player_through {
    ($($pointer:ident),+) => {$(
        impl<P: Player + ?Sized> Player for $pointer<P> {
            fn bet_request(&self, state: &GameState) -> Chips {
                (**self).bet_request(state)
            }
            fn showdown(&self, state: &GameState) {
                (**self).showdown(state)
            }
            fn version(&self) -> String {
                (**self).version()
            }
        }
    )+};
}

forward_player_through!(Arc, Box);

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(u64);
    impl Player for Fixed {
        fn bet_request(&self, _: &GameState) -> Chips {
            Chips(self.0)
        }
        fn version(&self) -> String {
            format!("fixed {}", self.0)
        }
    }

    #[test]
    fn boxed_and_shared_players_are_players() {
        let state = shared::testing_state();
        let boxed: Box<dyn Player> = Box::new(Fixed(7));
        let shared_player: Arc<dyn Player> = Arc::new(Fixed(9));
        assert_eq!(boxed.bet_request(&state), Chips(7));
        assert_eq!(shared_player.bet_request(&state), Chips(9));
        assert_eq!(boxed.version(), "fixed 7");
        fn takes_player(player: impl Player) -> String {
            player.version()
        }
        assert_eq!(takes_player(shared_player.clone()), "fixed 9");
        assert_eq!(takes_player(Arc::new(boxed)), "fixed 7");
    }

    #[test]
    fn default_version_is_the_sdk_version() {
        struct Plain;
        impl Player for Plain {
            fn bet_request(&self, _: &GameState) -> Chips {
                Chips::ZERO
            }
        }
        assert_eq!(Plain.version(), SDK_VERSION);
        assert!(SDK_VERSION.starts_with("lean-poker-player 0."));
        Plain.showdown(&shared::testing_state());
    }
}
