//! The example bots, simplest first: [`CallingStation`] and [`Folder`], then [`RandomBot`]
//! (legal random play, seedable), [`Raiser`] and [`AllIn`] (aggression), and [`EquityBot`] (a
//! bot that actually thinks); then the field, which plays like the teams at an event:
//! [`ShoverBot`], [`SolidBot`], [`TightBot`], [`LooseBot`] and [`PushFoldBot`]; then the real
//! field, six real team bots played by the profiles fitted from their games
//! ([`BotKind::REAL_FIELD`], [`ProfileBot`]). [`BotKind`] names them for the dealer's `--bot
//! NAME=KIND`.
//!
//! Their code is the house bots' crate (`lean-poker-bots`, player/bots/), which the arena
//! (`cargo arena`) and the dealer play in process; this module keeps the paths the example
//! binaries use.

pub use bots::profile::ProfileBot;
pub use bots::{
    AllIn, BotKind, CallingStation, EquityBot, Folder, LooseBot, PushFoldBot, Raiser, RandomBot,
    ShoverBot, SolidBot, TightBot, UnknownBotKind,
};
