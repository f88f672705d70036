//! Log setup for binaries: `tracing` to stderr, filtered by `RUST_LOG`.
//!
//! `RUST_LOG` takes a level (`info`), or a default level and per-module levels
//! (`warn,player=debug`), as `tracing_subscriber::filter::Targets` reads them. The regex-based
//! `EnvFilter` is deliberately not used: it adds a regex engine to every build of every bot,
//! and these directives cover what a player needs.

use std::io::IsTerminal;
use std::str::FromStr;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The filter used when `RUST_LOG` is not set: one line per request at `info`.
pub const DEFAULT_LOG_FILTER: &str = "info";

/// The filter `RUST_LOG` asks for; the default when it is unset, empty or malformed (a typo in
/// a log setting should not silence the server, so the reason is printed instead).
fn filter_from_env() -> Targets {
    let default = || Targets::from_str(DEFAULT_LOG_FILTER).unwrap_or_default();
    match std::env::var("RUST_LOG") {
        Ok(directives) if !directives.trim().is_empty() => {
            Targets::from_str(directives.trim()).unwrap_or_else(|error| {
                eprintln!("RUST_LOG={directives:?} is not a log filter ({error}); using {DEFAULT_LOG_FILTER}");
                default()
            })
        }
        _ => default(),
    }
}

/// Installs a `tracing` subscriber that writes to stderr, filtered by `RUST_LOG` (default
/// `info`: one line per request). Does nothing and returns `false` if the program already
/// installed one, so it is safe to call from [`serve`](crate::serve) and from your own `main`.
///
/// `RUST_LOG=warn` keeps only fallbacks, panics, overruns and rejected requests;
/// `RUST_LOG=info,player=debug` adds 404/405 noise and the status page.
pub fn init_logging() -> bool {
    let format = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        // Colours only on a terminal: container logs must stay plain text.
        .with_ansi(std::io::stderr().is_terminal());
    tracing_subscriber::registry()
        .with(format)
        .with(filter_from_env())
        .try_init()
        .is_ok()
}
