//! Serving a [`Player`]: [`serve`] for a team's `main`, [`ServerBuilder`] for everything else
//! (tests, the dealer's in-process house bots, custom setups).
//!
//! Lifecycle: [`ServerBuilder::bind`] binds the socket (port 0 picks a free port) and tells the
//! address; [`BoundServer::start`] starts serving inside the current Tokio runtime (any flavour:
//! actix's workers run on threads of their own); [`RunningServer::stop`] stops it gracefully.
//!
//! ```
//! # async fn demo() -> Result<(), player::ServeError> {
//! use player::{from_fn, ServerBuilder};
//! let caller = from_fn(|state| state.call_amount()); // your bot goes here
//! let server = ServerBuilder::new(caller)
//!     .address(([127, 0, 0, 1], 0).into())
//!     .workers(1)
//!     .start()?;
//! println!("serving on {}", server.url());
//! server.stop().await?;
//! # Ok(()) }
//! # tokio::runtime::Runtime::new().unwrap().block_on(demo()).unwrap();
//! ```
//!
//! The files, by job: `config.rs` (environment variables, defaults, errors), this file (the
//! builder), `running.rs` (binding, starting on actix-web, stopping, [`serve`]).

mod config;
mod running;

pub use config::{
    address_from_env, ConfigError, ServeError, AUTH_ENV, DEFAULT_BODY_LIMIT, DEFAULT_MAX_IN_FLIGHT,
    DEFAULT_PORT, DEFAULT_TIME_BUDGET, HOST_ENV, MAX_IN_FLIGHT_ENV, PORT_ENV, TIME_BUDGET_ENV,
    WORKERS_ENV,
};
pub use running::{local_url, serve, BoundServer, RunningServer, ServerTask, ShutdownHandle};

use crate::auth::Secret;
use crate::Player;
use config::{address_from, parse};
use shared::Chips;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;

/// Configures and starts a server for one [`Player`].
///
/// [`ServerBuilder::new`] reads no environment variables; [`ServerBuilder::from_env`] applies
/// the ones that are set (`PORT`, `PLAYER_HOST`, `PLAYER_AUTH`, `PLAYER_TIME_BUDGET_MS`,
/// `PLAYER_WORKERS`, `PLAYER_MAX_IN_FLIGHT`).
pub struct ServerBuilder {
    player: Arc<dyn Player>,
    address: SocketAddr,
    time_budget: Duration,
    fallback: Chips,
    secret: Option<Secret>,
    body_limit: usize,
    workers: Option<usize>,
    max_in_flight: usize,
    shutdown_timeout: Duration,
    stop_on_signals: bool,
}

impl std::fmt::Debug for ServerBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerBuilder")
            .field("address", &self.address)
            .field("time_budget", &self.time_budget)
            .field("fallback", &self.fallback)
            .field("auth", &self.secret.is_some())
            .field("body_limit", &self.body_limit)
            .field("workers", &self.workers)
            .field("max_in_flight", &self.max_in_flight)
            .field("shutdown_timeout", &self.shutdown_timeout)
            .field("stop_on_signals", &self.stop_on_signals)
            .finish_non_exhaustive()
    }
}

impl ServerBuilder {
    /// Defaults: `0.0.0.0:1337`, 1,500 ms budget, fallback `0`, no authentication, 1 MiB body
    /// limit, one worker per core, 64 strategy calls in flight, 5 s graceful shutdown, no
    /// signal handling.
    pub fn new(player: impl Player) -> ServerBuilder {
        ServerBuilder::from_arc(Arc::new(player))
    }

    /// Like [`ServerBuilder::new`] for a player that is already shared.
    pub fn from_arc(player: Arc<dyn Player>) -> ServerBuilder {
        ServerBuilder {
            player,
            address: SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), DEFAULT_PORT),
            time_budget: DEFAULT_TIME_BUDGET,
            fallback: Chips::ZERO,
            secret: None,
            body_limit: DEFAULT_BODY_LIMIT,
            workers: None,
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            shutdown_timeout: Duration::from_secs(5),
            stop_on_signals: false,
        }
    }

    /// Applies the environment variables that are set (see the constants in this crate).
    ///
    /// # Errors
    /// A [`ConfigError`] for a value that does not parse (a typo must not silently fall back to
    /// a default port).
    pub fn from_env(self) -> Result<ServerBuilder, ConfigError> {
        self.apply_env(|name| std::env::var(name).ok())
    }

    /// [`ServerBuilder::from_env`] with a custom variable lookup (for tests and embedding).
    ///
    /// # Errors
    /// As [`ServerBuilder::from_env`].
    pub fn apply_env(
        mut self,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<ServerBuilder, ConfigError> {
        self.address = address_from(&lookup, self.address)?;
        if let Some(value) = lookup(AUTH_ENV) {
            self.secret = Secret::new(value);
        }
        if let Some(value) = lookup(TIME_BUDGET_ENV) {
            const EXPECTED: &str = "a positive whole number of milliseconds";
            let millis: u64 = parse(TIME_BUDGET_ENV, &value, EXPECTED)?;
            // Zero would answer every bet_request with the fallback: surely a mistake.
            if millis == 0 {
                return Err(ConfigError {
                    name: TIME_BUDGET_ENV,
                    value,
                    expected: EXPECTED,
                });
            }
            self.time_budget = Duration::from_millis(millis);
        }
        if let Some(value) = lookup(WORKERS_ENV) {
            let workers: usize = parse(WORKERS_ENV, &value, "a positive number of threads")?;
            if workers == 0 {
                return Err(ConfigError {
                    name: WORKERS_ENV,
                    value,
                    expected: "a positive number of threads",
                });
            }
            self.workers = Some(workers);
        }
        if let Some(value) = lookup(MAX_IN_FLIGHT_ENV) {
            let max: usize = parse(MAX_IN_FLIGHT_ENV, &value, "a positive number of calls")?;
            if max == 0 {
                return Err(ConfigError {
                    name: MAX_IN_FLIGHT_ENV,
                    value,
                    expected: "a positive number of calls",
                });
            }
            self.max_in_flight = max;
        }
        Ok(self)
    }

    /// The address to listen on; port 0 picks a free port (see [`BoundServer::local_addr`]).
    pub fn address(mut self, address: SocketAddr) -> ServerBuilder {
        self.address = address;
        self
    }

    /// Only the port, keeping the host.
    pub fn port(mut self, port: u16) -> ServerBuilder {
        self.address.set_port(port);
        self
    }

    /// How long one `bet_request` (or `showdown`, `version`) may take before the fallback is
    /// answered. Keep it below the dealer's timeout (2 s on Lean Poker).
    pub fn time_budget(mut self, budget: Duration) -> ServerBuilder {
        self.time_budget = budget;
        self
    }

    /// The answer to a `bet_request` whose strategy panicked or overran (default 0: check when
    /// free, fold otherwise).
    pub fn fallback(mut self, answer: Chips) -> ServerBuilder {
        self.fallback = answer;
        self
    }

    /// Requires callers to present this secret (Bearer token, or the password of HTTP Basic
    /// auth with any user name). An empty secret turns authentication off.
    pub fn auth_secret(mut self, secret: impl Into<String>) -> ServerBuilder {
        self.secret = Secret::new(secret);
        self
    }

    /// The largest request body accepted; larger ones get `413`.
    pub fn body_limit(mut self, bytes: usize) -> ServerBuilder {
        self.body_limit = bytes;
        self
    }

    /// The number of HTTP worker threads (default: one per core). At least 1.
    pub fn workers(mut self, workers: usize) -> ServerBuilder {
        self.workers = Some(workers.max(1));
        self
    }

    /// The most strategy calls running at once, stuck ones included; also the most threads
    /// they can occupy. At least 1.
    pub fn max_in_flight(mut self, calls: usize) -> ServerBuilder {
        self.max_in_flight = calls.max(1);
        self
    }

    /// How long a graceful stop waits for requests in progress (default 5 s).
    pub fn shutdown_timeout(mut self, timeout: Duration) -> ServerBuilder {
        self.shutdown_timeout = timeout;
        self
    }

    /// Whether SIGTERM and SIGINT (Ctrl-C) stop the server gracefully. Off by default so that
    /// servers embedded in another program leave signals to it; [`serve`] turns it on.
    pub fn stop_on_signals(mut self, enabled: bool) -> ServerBuilder {
        self.stop_on_signals = enabled;
        self
    }

    /// Binds the listening socket now, so the address (and a port 0's real port) is known.
    ///
    /// # Errors
    /// [`ServeError::Bind`] when the address is in use or not permitted.
    pub fn bind(self) -> Result<BoundServer, ServeError> {
        let listener = TcpListener::bind(self.address).map_err(|source| ServeError::Bind {
            address: self.address,
            source,
        })?;
        let local_addr = listener.local_addr().map_err(|source| ServeError::Bind {
            address: self.address,
            source,
        })?;
        Ok(BoundServer {
            builder: self,
            listener,
            local_addr,
        })
    }

    /// [`ServerBuilder::bind`] then [`BoundServer::start`].
    ///
    /// # Errors
    /// As those two.
    pub fn start(self) -> Result<RunningServer, ServeError> {
        self.bind()?.start()
    }

    /// Starts and serves until stopped (by a signal if enabled, or a [`ShutdownHandle`]).
    ///
    /// # Errors
    /// As [`ServerBuilder::start`], or [`ServeError::Server`] if serving fails.
    pub async fn run(self) -> Result<(), ServeError> {
        self.start()?.wait().await
    }

    /// [`ServerBuilder::run`] on a runtime of its own, for programs without one.
    ///
    /// # Errors
    /// As [`ServerBuilder::run`].
    pub fn run_blocking(self) -> Result<(), ServeError> {
        if tokio::runtime::Handle::try_current().is_ok() {
            // Blocking inside a runtime would panic (or stall it): say what to do instead.
            return Err(ServeError::InsideRuntime);
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(ServeError::Threads)?;
        runtime.block_on(self.run())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Zero;
    impl Player for Zero {
        fn bet_request(&self, _: &shared::GameState) -> Chips {
            Chips::ZERO
        }
    }

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn spec_1_port_from_env_with_default_1337() {
        let builder = ServerBuilder::new(Zero).apply_env(env(&[])).unwrap();
        assert_eq!(builder.address, "0.0.0.0:1337".parse().unwrap());
        let builder = ServerBuilder::new(Zero)
            .apply_env(env(&[("PORT", "8080"), ("PLAYER_HOST", "127.0.0.1")]))
            .unwrap();
        assert_eq!(builder.address, "127.0.0.1:8080".parse().unwrap());
    }

    #[test]
    fn every_setting_comes_from_env() {
        let builder = ServerBuilder::new(Zero)
            .apply_env(env(&[
                ("PLAYER_AUTH", "s3cret"),
                ("PLAYER_TIME_BUDGET_MS", "900"),
                ("PLAYER_WORKERS", "3"),
                ("PLAYER_MAX_IN_FLIGHT", "7"),
            ]))
            .unwrap();
        assert!(builder.secret.is_some());
        assert_eq!(builder.time_budget, Duration::from_millis(900));
        assert_eq!(builder.workers, Some(3));
        assert_eq!(builder.max_in_flight, 7);
        let off = ServerBuilder::new(Zero)
            .apply_env(env(&[("PLAYER_AUTH", "")]))
            .unwrap();
        assert!(off.secret.is_none());
        assert!(!format!("{builder:?}").contains("s3cret"));
    }

    #[test]
    fn bad_env_values_are_errors_not_defaults() {
        for (name, value) in [
            ("PORT", "80a"),
            ("PORT", "70000"),
            ("PORT", "-1"),
            ("PLAYER_HOST", "localhost:1"),
            ("PLAYER_TIME_BUDGET_MS", "1.5"),
            ("PLAYER_TIME_BUDGET_MS", "0"),
            ("PLAYER_WORKERS", "0"),
            ("PLAYER_MAX_IN_FLIGHT", "none"),
        ] {
            let error = ServerBuilder::new(Zero)
                .apply_env(env(&[(name, value)]))
                .unwrap_err();
            assert_eq!(error.name, name);
            assert!(error.to_string().starts_with(name), "{error}");
        }
    }

    #[test]
    fn start_outside_a_runtime_is_an_error() {
        let bound = ServerBuilder::new(Zero)
            .address(([127, 0, 0, 1], 0).into())
            .bind()
            .unwrap();
        assert_ne!(bound.local_addr().port(), 0);
        assert!(matches!(bound.start(), Err(ServeError::NoRuntime)));
    }

    #[test]
    fn run_blocking_inside_a_runtime_is_an_error_not_a_panic() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let result = runtime.block_on(async {
            ServerBuilder::new(Zero)
                .address(([127, 0, 0, 1], 0).into())
                .run_blocking()
        });
        assert!(matches!(result, Err(ServeError::InsideRuntime)));
    }

    #[test]
    fn binding_a_used_port_says_which() {
        let taken = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = taken.local_addr().unwrap();
        let error = ServerBuilder::new(Zero)
            .address(address)
            .bind()
            .unwrap_err();
        assert!(error.to_string().contains(&address.to_string()), "{error}");
    }
}
