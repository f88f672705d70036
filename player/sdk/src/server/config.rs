//! The server's settings from the environment, and its errors.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;
use thiserror::Error;

/// The port to listen on (spec §1: templates read `PORT`).
pub const PORT_ENV: &str = "PORT";
/// The address to bind (default `0.0.0.0`, every interface, as a container needs).
pub const HOST_ENV: &str = "PLAYER_HOST";
/// The shared secret callers must present; unset or empty means authentication is off.
pub const AUTH_ENV: &str = "PLAYER_AUTH";
/// The time budget of one strategy call, in milliseconds.
pub const TIME_BUDGET_ENV: &str = "PLAYER_TIME_BUDGET_MS";
/// The number of HTTP worker threads.
pub const WORKERS_ENV: &str = "PLAYER_WORKERS";
/// The most strategy calls that may run at once (stuck ones included).
pub const MAX_IN_FLIGHT_ENV: &str = "PLAYER_MAX_IN_FLIGHT";

/// Port 1337, like the JavaScript template.
pub const DEFAULT_PORT: u16 = 1337;
/// 1.5 s: below the dealer's 2 s read timeout, with room for the network.
pub const DEFAULT_TIME_BUDGET: Duration = Duration::from_millis(1500);
/// 1 MiB: a 10-player `game_state` is about 4 KiB, so this is generous and still bounded.
pub const DEFAULT_BODY_LIMIT: usize = 1024 * 1024;
/// Enough for many concurrent games; also the most threads stuck strategy calls can hold.
pub const DEFAULT_MAX_IN_FLIGHT: usize = 64;

/// A configuration value (usually an environment variable) that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{name}={value:?} is not {expected}")]
pub struct ConfigError {
    /// The setting, e.g. `PORT`.
    pub name: &'static str,
    /// The value that was given.
    pub value: String,
    /// What was expected instead.
    pub expected: &'static str,
}

/// Why the server could not start or stopped with an error.
#[derive(Debug, Error)]
pub enum ServeError {
    /// A setting is invalid.
    #[error("invalid configuration: {0}")]
    Config(#[from] ConfigError),
    /// The address could not be bound (in use, no permission).
    #[error("cannot listen on {address}: {source}")]
    Bind {
        /// The address asked for.
        address: SocketAddr,
        /// The OS error.
        source: std::io::Error,
    },
    /// Starting needs a Tokio runtime and none is running on this thread.
    #[error("start() must be called inside a Tokio runtime (use serve() or ServerBuilder::run_blocking otherwise)")]
    NoRuntime,
    /// [`serve`](super::serve) or [`ServerBuilder::run_blocking`](super::ServerBuilder::run_blocking) was called from async code.
    #[error("serve() blocks and cannot run inside an async runtime; use ServerBuilder::run().await there")]
    InsideRuntime,
    /// A runtime or thread pool could not be created.
    #[error("cannot create the server's threads: {0}")]
    Threads(std::io::Error),
    /// The server failed while running.
    #[error("the server failed: {0}")]
    Server(std::io::Error),
}

pub(super) fn parse<T: std::str::FromStr>(
    name: &'static str,
    value: &str,
    expected: &'static str,
) -> Result<T, ConfigError> {
    value.trim().parse().map_err(|_| ConfigError {
        name,
        value: value.to_string(),
        expected,
    })
}

/// `default` with the port and host replaced by `PORT` and `PLAYER_HOST` when they are set.
pub(super) fn address_from(
    lookup: &impl Fn(&str) -> Option<String>,
    default: SocketAddr,
) -> Result<SocketAddr, ConfigError> {
    let mut address = default;
    if let Some(value) = lookup(PORT_ENV) {
        let port: u16 = parse(PORT_ENV, &value, "a port number (0-65535)")?;
        address.set_port(port);
    }
    if let Some(value) = lookup(HOST_ENV) {
        let host: IpAddr = parse(HOST_ENV, &value, "an IP address such as 0.0.0.0")?;
        address.set_ip(host);
    }
    Ok(address)
}

/// The address [`serve`](super::serve) listens on, from `PORT` and `PLAYER_HOST` (default `0.0.0.0:1337`).
///
/// # Errors
/// A [`ConfigError`] for a value that does not parse.
pub fn address_from_env() -> Result<SocketAddr, ConfigError> {
    address_from(
        &|name: &str| std::env::var(name).ok(),
        SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), DEFAULT_PORT),
    )
}
