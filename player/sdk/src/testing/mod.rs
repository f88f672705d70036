//! A kit for testing a [`Player`](crate::Player) without a dealer.
//!
//! - [`load`]: recorded game states from a JSON file (one `game_state`, an array of them, or a
//!   Lean Poker viewer log), a JSONL `requests.jsonl` written by our dealer, or a directory of
//!   such files; each [`Recorded`] state knows its file and line.
//! - [`heads_up`] and [`table`]: concise hand-made states (`"Ah Kd"` notation) that pass
//!   [`GameState::validate`](shared::GameState::validate) and round-trip through JSON.
//! - [`assert_legal_bets`]: runs a player over recorded states and checks every answer is a
//!   legal, *meaningful* bet ([`check_bet`] defines that precisely), naming the file and line of
//!   each failure; [`check_answer`] does it for one state, catching a panic without printing
//!   it.
//! - [`DealerStates`] and [`assert_answers_dealer_states`]: hundreds of random states of the
//!   kind a Lean Poker dealer really sends (chips bounded by the seats' starting stacks), for
//!   checking a strategy beyond the spots someone thought of; a failure is reported once, with
//!   the state's JSON.
//!
//! ```
//! use player::{from_fn, testing};
//!
//! let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
//! for recorded in testing::load(fixtures) {
//!     assert!(recorded.state.players.len() >= 2, "{}", recorded.source);
//! }
//! // Your bot goes where this one-line caller is.
//! let caller = from_fn(|state| state.call_amount());
//! testing::assert_legal_bets(&caller, &testing::load(fixtures));
//!
//! let state = testing::heads_up().hole_cards("Ah Kd").post_blinds().build();
//! assert_eq!(state.call_amount(), player::Chips(10));
//! ```

mod build;
mod check;
mod dealer_states;
mod load;

pub use crate::check_bet;
pub use build::{heads_up, table, BuildError, StateBuilder};
pub use check::{
    assert_legal_bets, check_answer, check_bets, AnswerError, BetCheckReport, BetProblem,
};
pub use dealer_states::{
    assert_answers_dealer_states, check_dealer_states, DealerStateFailure, DealerStates,
    DealerStatesReport, LIVE_STARTING_STACK, MAX_SEATS, MAX_STARTING_STACK,
};
pub use load::{
    load, load_env, try_load, DealerRecord, LoadError, Origin, Recorded, RecordedAction, Source,
    RECORDINGS_ENV,
};
