//! Example bots for Lean Poker, built on the [`player`] SDK.
//!
//! Each bot in [`bots`] is a small [`Player`](player::Player) meant to be read: start with
//! [`bots::CallingStation`] and [`bots::Folder`], then [`bots::RandomBot`] (legal random play,
//! seedable), [`bots::Raiser`] and [`bots::AllIn`] (aggression), and [`bots::EquityBot`] (a bot
//! that actually thinks); then the field that plays like an event's teams ([`bots::TightBot`],
//! [`bots::LooseBot`], [`bots::PushFoldBot`], [`bots::SolidBot`], [`bots::ShoverBot`]). Each
//! also has a binary that serves it (`cargo run -p lean-poker-examples --bin
//! calling-station`), and the dealer uses them as in-process house bots through
//! [`bots::BotKind`].
#![warn(missing_docs)]

pub mod bots;
