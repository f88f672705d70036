//! The Lean Poker house server: a deterministic rules engine for sit'n'go tournaments, the
//! seats that talk to players, and the outputs every tool reads.
//!
//! - [`engine`] (the `lean-poker-engine` crate, re-exported): the pure step machine that plays
//!   one sit'n'go ([`engine::Game`]), with its vocabulary, re-exported here too: [`rules`] (how
//!   a sit'n'go is played, [`rules::GameRules`]), [`game_event`] (what happened,
//!   [`game_event::GameEvent`], the stream every output observes) and [`result`] (how a
//!   sit'n'go ended, [`result::GameResult`]);
//! - [`settings`]: a run's settings from the command line and the config file;
//! - [`seat`]: talking to players over HTTP or in process;
//! - [`observe`]: the outputs, each one observer of the game's stream;
//! - [`runner`]: plays one sit'n'go, driving the engine, the seats and the observers;
//! - [`tournament`]: a run of N sit'n'gos (seeds, seating, parallel games, `results.json`);
//! - [`rating`]: ratings with uncertainty from finishing orders (Weng-Lin);
//! - [`replay`]: a recorded game played again from its folder, its logs compared (or
//!   regenerated, for a game an event thinned to its compact form);
//! - [`stored`]: a game's file kept as written or gzip-compressed (`X` or `X.gz`);
//! - [`rainman`]: the Rain Man hand-ranking service (spec §8), offline;
//! - [`event`]: the house server of an event (`dealer serve --data`): database,
//!   rounds of tables, health checks, points;
//! - [`house`]: house bots (the team's strategy and the example bots) by kind;
//! - [`progress`]: progress bars;
//! - [`web`]: the browser viewer of finished runs and games (read-only);
//! - [`cli`]: the `dealer` command line (`demo`, `run`, `serve`, `merge`, `rainman`, `bots`):
//!   arguments, commands, tables.
#![warn(missing_docs)]

pub mod cli;
pub mod event;
pub mod house;
pub mod observe;
pub mod progress;
pub mod rainman;
pub mod rating;
pub mod replay;
pub mod runner;
pub mod seat;
pub mod settings;
pub mod stored;
pub mod tournament;
pub mod web;

// The rules engine is its own crate (`engine/`, no I/O in its dependency tree); its modules are
// re-exported under their old paths so the dealer and its users name them as before.
pub use ::engine;
pub use ::engine::{game_event, result, rules};
