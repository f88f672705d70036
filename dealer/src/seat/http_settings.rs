//! How the dealer talks HTTP to every player of a run ([`HttpSettings`]), and the settings that
//! cannot work ([`ClientError`]). Below every other file of the HTTP client: the connections,
//! TLS and the seats read these; nothing here reads them.

use std::time::Duration;
use thiserror::Error;

/// How the dealer talks HTTP to every player of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpSettings {
    /// Total deadline of one request: connect + send + wait + read the body (spec §6; OSS uses
    /// 2 s to connect and 2 s to read, LIVE bans after about 2 s). Default 2,000 ms.
    pub request_timeout: Duration,
    /// A shorter deadline for setting up a TCP connection, reported as `connect timeout after N
    /// ms`. `None` (the default): connecting is bounded by `request_timeout` only.
    pub connect_timeout: Option<Duration>,
    /// The most body bytes read from one response. Default 4,096: a bet is at most 20 digits.
    pub body_limit: usize,
    /// How long an idle keep-alive connection stays in the pool. Default 3 s: shorter than the
    /// usual server keep-alive timeouts (5 s in Node and actix-web), so the dealer does not send
    /// a request on a connection the player is closing at that moment.
    pub pool_idle_timeout: Duration,
}

impl HttpSettings {
    /// The default request deadline: 2,000 ms.
    pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_millis(2000);
    /// The default body cap: 4 KiB.
    pub const DEFAULT_BODY_LIMIT: usize = 4096;
    /// The smallest allowed body cap: the length of the largest chip count in digits.
    pub const MIN_BODY_LIMIT: usize = 20;

    /// The defaults with another request deadline (the CLI's `--timeout-ms`).
    pub fn with_request_timeout(request_timeout: Duration) -> HttpSettings {
        HttpSettings {
            request_timeout,
            ..HttpSettings::default()
        }
    }
}

impl Default for HttpSettings {
    fn default() -> Self {
        HttpSettings {
            request_timeout: HttpSettings::DEFAULT_REQUEST_TIMEOUT,
            connect_timeout: None,
            body_limit: HttpSettings::DEFAULT_BODY_LIMIT,
            pool_idle_timeout: Duration::from_secs(3),
        }
    }
}

/// Settings that cannot work, or a client that could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ClientError {
    /// A zero request timeout would ban every player.
    #[error("the request timeout must be more than 0 ms")]
    ZeroTimeout,
    /// A zero connect timeout would refuse every player.
    #[error("the connect timeout must be more than 0 ms")]
    ZeroConnectTimeout,
    /// A body cap too small for a valid bet.
    #[error(
        "the body limit must be at least {min} bytes (got {got})",
        min = HttpSettings::MIN_BODY_LIMIT
    )]
    BodyLimitTooSmall {
        /// The rejected limit.
        got: usize,
    },
    /// The HTTP client could not be initialised (e.g. no TLS backend).
    #[error("cannot build the HTTP client: {0}")]
    Build(String),
}
