//! The command line every player binary shares: serve, or check a running server's health.
//!
//! ```text
//! player                 serve on 0.0.0.0:$PORT (default 1337) until SIGTERM or Ctrl-C
//! player --healthcheck   GET / on 127.0.0.1:$PORT; exit 0 on 200, 1 otherwise
//! player --version       the bot's version() text and the SDK version
//! player --help          this, and the settings
//! ```
//!
//! The health check exists so that a slim container image needs no `curl` for its
//! `HEALTHCHECK`. All other settings come from the environment (see
//! [`ServerBuilder::from_env`](crate::ServerBuilder::from_env)). Three flags do not need
//! `clap`, whose build is a tenth of the player's cold build: `lexopt` reads them, strictly.

use crate::server::address_from_env;
use crate::{Player, SDK_VERSION};
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::process::ExitCode;
use std::time::Duration;
use thiserror::Error;

const HELP: &str = "A Lean Poker player: answers the dealer's HTTP requests.

Usage: player [--healthcheck | --version | --help]

Options:
      --healthcheck  Check that the server on 127.0.0.1:$PORT answers GET / with 200, then exit (0 = healthy)
  -V, --version      Print the bot's version (what the leaderboard shows) and the SDK version
  -h, --help         Print this help

Environment: PORT (default 1337), PLAYER_HOST (default 0.0.0.0), PLAYER_AUTH (shared secret;
off when unset), PLAYER_TIME_BUDGET_MS (default 1500), PLAYER_WORKERS (default: one per core),
PLAYER_MAX_IN_FLIGHT (default 64), RUST_LOG (default info).";

/// What the command line asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Command {
    Serve,
    HealthCheck,
    Version,
    Help,
}

/// Reads the arguments (without the program name); the error is one line for stderr.
fn parse(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Command, String> {
    use lexopt::Arg::{Long, Short};
    let mut parser = lexopt::Parser::from_args(args);
    let mut command = Command::Serve;
    while let Some(arg) = parser.next().map_err(|error| error.to_string())? {
        let wanted = match arg {
            Long("healthcheck") => Command::HealthCheck,
            Short('V') | Long("version") => Command::Version,
            Short('h') | Long("help") => return Ok(Command::Help),
            other => return Err(other.unexpected().to_string()),
        };
        if command != Command::Serve && command != wanted {
            return Err("--healthcheck and --version cannot be used together".to_string());
        }
        command = wanted;
    }
    Ok(command)
}

/// Runs a player binary: parses the command line, then serves `player` (see [`crate::serve`]),
/// runs the health check, or prints the version or help. Returns the process exit code.
pub fn main(player: impl Player) -> ExitCode {
    let command = match parse(std::env::args_os().skip(1)) {
        Ok(command) => command,
        Err(error) => {
            eprintln!("error: {error}\n\nUsage: player [--healthcheck | --version | --help]");
            return ExitCode::from(2);
        }
    };
    match command {
        Command::Help => {
            println!("{HELP}");
            ExitCode::SUCCESS
        }
        Command::Version => {
            println!("{} ({SDK_VERSION})", player.version());
            ExitCode::SUCCESS
        }
        Command::HealthCheck => {
            let address = match health_check_address() {
                Ok(address) => address,
                Err(error) => {
                    eprintln!("unhealthy: {error}");
                    return ExitCode::FAILURE;
                }
            };
            match health_check(address, Duration::from_secs(3)) {
                Ok(status) => {
                    println!("healthy: {}", status.trim_end());
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    eprintln!("unhealthy: {error}");
                    ExitCode::FAILURE
                }
            }
        }
        // The error goes to stderr once: not also through the log, which writes to stderr too.
        Command::Serve => match crate::serve(player) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("error: {error}");
                ExitCode::FAILURE
            }
        },
    }
}

/// Where the health check connects: the configured port, on loopback unless `PLAYER_HOST`
/// names a specific address.
fn health_check_address() -> Result<SocketAddr, crate::ConfigError> {
    let configured = address_from_env()?;
    let ip = if configured.ip().is_unspecified() {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    } else {
        configured.ip()
    };
    Ok(SocketAddr::new(ip, configured.port()))
}

/// Why a health check failed.
#[derive(Debug, Error)]
pub enum HealthCheckError {
    /// Could not connect, send or receive.
    #[error("no answer from {address}: {source}")]
    Io {
        /// The address checked.
        address: SocketAddr,
        /// The error.
        source: std::io::Error,
    },
    /// An answer, but not `200`.
    #[error("{address} answered {status_line:?}")]
    Status {
        /// The address checked.
        address: SocketAddr,
        /// The first line of the answer.
        status_line: String,
    },
}

/// `GET /` on `address` with a plain HTTP/1.0 request; the body of a `200` answer.
///
/// # Errors
/// [`HealthCheckError`] when the server does not answer within `timeout` or answers non-200.
pub fn health_check(address: SocketAddr, timeout: Duration) -> Result<String, HealthCheckError> {
    let io = |source| HealthCheckError::Io { address, source };
    let mut stream = TcpStream::connect_timeout(&address, timeout).map_err(io)?;
    stream.set_read_timeout(Some(timeout)).map_err(io)?;
    stream.set_write_timeout(Some(timeout)).map_err(io)?;
    write!(
        stream,
        "GET / HTTP/1.0\r\nHost: {address}\r\nUser-Agent: player-healthcheck\r\n\r\n"
    )
    .map_err(io)?;
    let mut answer = Vec::with_capacity(512);
    // HTTP/1.0: the server closes the connection after the answer. Cap what we keep.
    stream
        .take(64 * 1024)
        .read_to_end(&mut answer)
        .map_err(io)?;
    let text = String::from_utf8_lossy(&answer);
    let status_line = text.lines().next().unwrap_or_default().to_string();
    let mut parts = status_line.split_whitespace();
    let is_http = parts.next().is_some_and(|v| v.starts_with("HTTP/1."));
    if !is_http || parts.next() != Some("200") {
        return Err(HealthCheckError::Status {
            address,
            status_line,
        });
    }
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
        .unwrap_or_default();
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Result<Command, String> {
        parse(args.iter().map(std::ffi::OsString::from))
    }

    #[test]
    fn flags_are_read_strictly() {
        assert_eq!(parsed(&[]), Ok(Command::Serve));
        assert_eq!(parsed(&["--healthcheck"]), Ok(Command::HealthCheck));
        assert_eq!(parsed(&["--version"]), Ok(Command::Version));
        assert_eq!(parsed(&["-V"]), Ok(Command::Version));
        assert_eq!(parsed(&["-h"]), Ok(Command::Help));
        assert_eq!(parsed(&["--version", "--help"]), Ok(Command::Help));
        assert!(parsed(&["--healthcheck", "--version"]).is_err());
        assert!(parsed(&["--port=3"]).unwrap_err().contains("--port"));
        assert!(parsed(&["serve"]).unwrap_err().contains("serve"));
        assert!(parsed(&["--healthcheck=yes"]).is_err());
    }
}
