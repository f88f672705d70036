//! The Lean Poker wire format and poker knowledge shared by the player SDK and the dealer.
//!
//! - [`state`]: the `game_state` document, exact to the live server, with bot helpers;
//! - [`protocol`]: the form-encoded requests and the digits-only bet answer;
//! - [`rules`]: the one bet-reading rule both sides use (spec §4);
//! - [`card`]: cards, short notation, `rs_poker` conversions (feature `rs_poker`, on by default);
//! - [`eval`]: hand evaluation (best five of up to seven cards);
//! - [`equity`]: win/tie equity against random opponents;
//! - [`records`]: the records of the files a game leaves (`requests.jsonl`, the viewer log).
#![warn(missing_docs)]

pub mod card;
mod chips;
pub mod equity;
pub mod eval;
pub mod protocol;
pub mod records;
pub mod rules;
pub mod state;

pub use card::{Card, Rank, Suit};
pub use chips::{Chips, Seat};
pub use rules::{BetAction, BetReading};
pub use state::{GameState, GameStateError, PlayerState, PlayerStatus, Street};

#[doc(hidden)]
pub use state::testing_state;
