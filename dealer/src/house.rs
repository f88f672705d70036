//! House bots ([`BotKind`], from the house bots' crate `lean-poker-bots`), played in process
//! (`dealer run --bot NAME=KIND`) or served over real HTTP on loopback (`dealer demo`).
//!
//! ```
//! use dealer::house::BotKind;
//! let kind: BotKind = "raiser".parse().unwrap();
//! let bot = kind.build(7);
//! assert_eq!(bot.version(), "raiser 1");
//! assert!("nope".parse::<BotKind>().unwrap_err().to_string().contains("calling-station"));
//! ```

use player::{Player, RunningServer, ServeError, ServerBuilder};
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

pub use bots::{BotKind, Opponent, UnknownBotKind};

/// The house bot `text` names: a kind (`raiser`, `real-a`, see `dealer bots`), or the path
/// of an opponent profile file (`cargo arena --field-from` writes them in
/// `target/arena/fields/`), played by a house bot.
///
/// # Errors
/// Neither a kind nor a readable profile: the message says both.
pub fn opponent(text: &str) -> Result<Opponent, String> {
    let text = text.trim();
    let unknown = match text.parse::<BotKind>() {
        Ok(kind) => return Ok(Opponent::Kind(kind)),
        Err(unknown) => unknown,
    };
    let looks_like_a_file = text.ends_with(".json") || text.contains('/') || text.contains('\\');
    if !looks_like_a_file {
        return Err(format!("{unknown}, or the path of a profile file (*.json)"));
    }
    let contents = std::fs::read_to_string(text)
        .map_err(|error| format!("cannot read the profile {text}: {error}"))?;
    let profile =
        bots::profile::Profile::from_json(&contents).map_err(|error| format!("{text}: {error}"))?;
    Ok(Opponent::Profile(Arc::new(profile.compile())))
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
