//! `dealer rainman`: the offline Rain Man service ([`crate::rainman`]) until Ctrl-C or SIGTERM.

use super::args::RainmanArgs;
use super::{report, signals, Failure};
use crate::progress::Screen;
use crate::rainman;
use player::ServerTask;
use std::net::TcpListener;

/// Serves `/rank` on `--bind` until the first Ctrl-C or SIGTERM, then stops (requests in
/// flight are answered first).
///
/// # Errors
/// A [`Failure`] (code 1) when the address cannot be listened on.
pub async fn rainman(args: RainmanArgs, screen: &Screen) -> Result<(), Failure> {
    let cannot =
        |error: std::io::Error| Failure::run(format!("cannot listen on {}: {error}", args.bind));
    let listener = TcpListener::bind(args.bind).map_err(cannot)?;
    let address = listener.local_addr().map_err(cannot)?;
    let server = ServerTask::spawn(
        rainman::serve(listener).map_err(cannot)?,
        &tokio::runtime::Handle::current(),
    );
    let stop = signals::stop_on_signal(screen, "stopping Rain Man");
    // The first line names the address (port 0 picks one), so scripts can read it.
    report::print(&format!(
        "Rain Man listening on http://{address}/rank (GET ?cards=[...] or POST cards=[...]); Ctrl-C stops it\n"
    ));
    stop.stopped().await;
    server
        .stop()
        .await
        .map_err(|error| Failure::run(format!("Rain Man failed: {error}")))
}
