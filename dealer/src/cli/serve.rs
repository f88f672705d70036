//! `dealer serve --out DIR`: the browser viewer of earlier runs ([`crate::web`]) until Ctrl-C
//! or SIGTERM.

use super::args::ServeArgs;
use super::Failure;
use crate::progress::Screen;
use crate::web::{serve_results, WebOptions};

/// Serves `args.out` at `args.bind` until stopped; the address is printed first, so a script
/// (or a person) knows where to point the browser.
pub async fn serve(args: ServeArgs, screen: &Screen) -> Result<(), Failure> {
    let options = WebOptions {
        bind: args.bind,
        workers: None,
    };
    let server = serve_results(args.out.clone(), options)
        .map_err(|error| Failure::run(error.to_string()))?;
    super::report::print(&format!(
        "serving {} at {} (Ctrl-C to stop)\n",
        args.out.display(),
        server.url()
    ));
    if !args.bind.ip().is_loopback() {
        screen.println(&format!(
            "note: listening on {}: anyone on the network can read these results",
            args.bind
        ));
    }
    // actix stops the server on Ctrl-C or SIGTERM itself; waiting for it is waiting for that.
    server
        .wait()
        .await
        .map_err(|error| Failure::run(error.to_string()))
}
