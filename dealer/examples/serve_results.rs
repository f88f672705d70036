//! Serves a results folder in the browser (read-only), until Ctrl-C: what `dealer serve --out
//! DIR` will do once the CLI has the subcommand.
//!
//! ```text
//! cargo run -p lean-poker-dealer --example serve_results -- games/ [--port 8080] [--network]
//! ```
//!
//! Prints `serving <DIR> at <URL>` on stdout once listening (the browser test reads it).

use clap::Parser;
use dealer::web::{serve_results, WebOptions, DEFAULT_PORT};
use std::io::Write as _;
use std::path::PathBuf;

/// Serve the results of `dealer run` folders (or another dealer's log.json) as a web page.
#[derive(Debug, Parser)]
struct Args {
    /// A `dealer run` folder, a folder of them, or a folder holding a `log.json`.
    dir: PathBuf,
    /// The port (0 picks a free one).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// Listen on every interface instead of 127.0.0.1 only.
    #[arg(long)]
    network: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let args = Args::parse();
    let mut options = if args.network {
        WebOptions::network(args.port)
    } else {
        WebOptions::default()
    };
    options.bind.set_port(args.port);
    let server = serve_results(args.dir.clone(), options)?;
    println!("serving {} at {}", args.dir.display(), server.url());
    std::io::stdout().flush()?;
    server.wait().await?;
    Ok(())
}
