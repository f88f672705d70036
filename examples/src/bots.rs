//! The example bots, simplest first: [`CallingStation`] and [`Folder`], then [`RandomBot`]
//! (legal random play, seedable), [`Raiser`] and [`AllIn`] (aggression), and [`EquityBot`] (a
//! bot that actually thinks); [`BotKind`] names them for the dealer's `--bot NAME=KIND`.
//!
//! Their code is the SDK's `player::bots` (player/src/bots.rs, the `house-bots` feature), so
//! that the arena (`cargo arena`) plays the same house bots in process without the dealer;
//! this module keeps the paths the dealer and the example binaries use.

pub use player::bots::{
    AllIn, BotKind, CallingStation, EquityBot, Folder, Raiser, RandomBot, UnknownBotKind,
};
