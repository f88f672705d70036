//! The Lean Poker house server: a deterministic rules engine for sit'n'go tournaments, the
//! seats that talk to players, and the outputs every tool reads.
//!
//! - [`config`]: how a sit'n'go is played ([`config::GameConfig`]);
//! - [`engine`]: the pure step machine that plays one sit'n'go ([`engine::Game`]);
//! - [`event`]: what happened ([`event::GameEvent`]), the stream every output observes;
//! - [`result`]: how a sit'n'go ended ([`result::GameResult`]);
//! - [`seat`]: talking to players over HTTP or in process;
//! - [`observe`]: the outputs, each one observer of the game's stream.
#![warn(missing_docs)]

pub mod config;
pub mod engine;
pub mod event;
pub mod observe;
pub mod result;
pub mod seat;
