//! House bots: the SDK's template bot and the example bots, by kind name, to play in process
//! (`dealer run --bot NAME=KIND`) or served over real HTTP on loopback (`dealer demo`).
//!
//! ```
//! use dealer::house::BotKind;
//! let kind: BotKind = "raiser".parse().unwrap();
//! let bot = kind.build(7);
//! assert_eq!(bot.version(), "raiser 1");
//! assert!("nope".parse::<BotKind>().unwrap_err().to_string().contains("template"));
//! ```

use player::{Player, RunningServer, ServeError, ServerBuilder};
use std::fmt;
use std::net::{Ipv4Addr, SocketAddr};
use std::str::FromStr;
use std::sync::Arc;
use thiserror::Error;

/// The SDK's template bot (`player::strategy::TemplatePlayer`), what a team starts from.
pub const TEMPLATE: &str = "template";

/// Every kind, the template first, then `examples::bots::KINDS` in their order.
pub fn kinds() -> Vec<&'static str> {
    std::iter::once(TEMPLATE)
        .chain(examples::bots::KINDS.iter().copied())
        .collect()
}

/// A known house bot kind (see [`kinds`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BotKind(String);

/// A kind that is not in [`kinds`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown bot kind {kind:?} (known kinds: {known})")]
pub struct UnknownBotKind {
    /// The kind asked for.
    pub kind: String,
    /// The known kinds, comma-separated.
    pub known: String,
}

impl FromStr for BotKind {
    type Err = UnknownBotKind;
    fn from_str(kind: &str) -> Result<BotKind, UnknownBotKind> {
        if kinds().contains(&kind) {
            Ok(BotKind(kind.to_string()))
        } else {
            Err(UnknownBotKind {
                kind: kind.to_string(),
                known: kinds().join(", "),
            })
        }
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl BotKind {
    /// The kind's name.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A fresh bot of this kind. A bot with random choices (`random`) draws them from `seed`,
    /// so a game with house bots replays exactly from its seed.
    pub fn build(&self, seed: u64) -> Arc<dyn Player> {
        match self.0.as_str() {
            TEMPLATE => Arc::new(player::strategy::TemplatePlayer::default()),
            "random" => Arc::new(examples::bots::RandomBot::with_seed(seed)),
            kind => match examples::bots::by_name(kind) {
                Some(bot) => Arc::from(bot),
                // `FromStr` only accepts kinds that `by_name` knows.
                None => Arc::new(examples::bots::Folder),
            },
        }
    }
}

/// Serves `bot` over HTTP on `127.0.0.1`, on a port the system picks, with our SDK (one
/// worker thread: a house bot needs no more). Needs a running Tokio runtime; dropping the
/// server stops it.
///
/// # Errors
/// A [`ServeError`] if no port can be bound or the server cannot start.
pub fn serve_on_loopback(bot: Arc<dyn Player>) -> Result<RunningServer, ServeError> {
    ServerBuilder::from_arc(bot)
        .address(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .workers(1)
        .start()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_builds_and_unknown_ones_are_listed() {
        for kind in kinds() {
            let bot = kind.parse::<BotKind>().unwrap().build(1);
            assert!(!bot.version().is_empty());
        }
        let error = "calling_station".parse::<BotKind>().unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "unknown bot kind \"calling_station\" (known kinds: {})",
                kinds().join(", ")
            )
        );
    }
}
