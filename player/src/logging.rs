//! Log setup for binaries: `tracing` to stderr, filtered by `RUST_LOG`.

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// The filter used when `RUST_LOG` is not set: one line per request at `info`.
pub const DEFAULT_LOG_FILTER: &str = "info";

/// Installs a `tracing` subscriber that writes to stderr, filtered by `RUST_LOG` (default
/// `info`: one line per request). Does nothing and returns `false` if the program already
/// installed one, so it is safe to call from [`serve`](crate::serve) and from your own `main`.
///
/// `RUST_LOG=warn` keeps only fallbacks, panics, overruns and rejected requests;
/// `RUST_LOG=player=debug` adds 404/405 noise and late-call details.
pub fn init_logging() -> bool {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        // A malformed RUST_LOG should not silence the server: fall back to the default.
        EnvFilter::new(DEFAULT_LOG_FILTER)
    });
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colours only on a terminal: container logs must stay plain text.
        .with_ansi(std::io::stderr().is_terminal())
        .try_init()
        .is_ok()
}
