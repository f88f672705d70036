//! Players over HTTP (spec §1): one form-encoded `POST` per request, on a keep-alive pool shared
//! by every seat of a run.
//!
//! What a player can do to the dealer is bounded:
//! - **time**: every request has one total deadline ([`HttpSettings::request_timeout`], 2,000 ms
//!   by default) covering connecting, sending, waiting and reading the body; a player that never
//!   answers, answers late or drips its body byte by byte fails with `timeout after N ms`;
//! - **memory**: the body is read as a stream and reading stops past
//!   [`HttpSettings::body_limit`] (4 KiB by default; a bet is a few digits); a declared
//!   `Content-Length` over the limit is refused before any of the body is read. Response heads
//!   are bounded by hyper's own limit (about 400 KiB; an endless head costs the dealer under
//!   1 MiB at peak, measured in `tests/seat_memory.rs`);
//! - **connections**: an abandoned request (deadline, oversized body) drops its connection, so
//!   nothing keeps running after a seat call returns; healthy connections go back to the pool.
//!
//! Keep-alive has one classic hazard: the player closes an idle pooled connection just as the
//! dealer sends on it. A request is sent again only when it **provably never reached the
//! player**: the HTTP client hands it back unsent (hyper's "canceled" error: the connection was
//! found closed before a byte of the request was written). hyper-util's pool already does this
//! itself, invisibly, for a reused connection; the dealer does it once more, within the same
//! deadline, when it happens on a fresh connection, and records the unsent attempt
//! ([`SeatFailure::NotSent`]) in [`Reply::unsent_attempts`], which the runner passes on to
//! `requests.jsonl` and the player's log. A request that was written and then met a closed
//! connection is never sent twice (the player may have seen it): it fails with "connection
//! closed before the response was complete". Idle connections are also dropped after 3 s,
//! before the usual 5 s server keep-alive timeouts, so the hazard is rare in the first place.
//!
//! Redirects are not followed (a `3xx` is `status 302`, a bad answer), environment proxies are
//! ignored (players are on the LAN or loopback), and responses are never decompressed.
//!
//! The player's address is in `endpoint.rs`; reading a body through the cap and naming a
//! transport failure in `transport.rs`.

use super::endpoint::PlayerEndpoint;
use super::failure::millis;
use super::transport::{classify, error_chain, never_sent, read_capped, BodyBuffer};
use super::{clean_version, Reply, SeatFailure};
use bytes::Bytes;
use reqwest::header::{HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use reqwest::Method;
use shared::protocol::{encode_request, parse_bet_answer, Action};
use shared::{Chips, GameState};
use std::time::{Duration, Instant};
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

/// The connection pool of a run: build one, then make an [`HttpSeat`] per player with
/// [`HttpClient::seat`]. Cloning is cheap and shares the pool.
#[derive(Debug, Clone)]
pub struct HttpClient {
    client: reqwest::Client,
    settings: HttpSettings,
}

impl HttpClient {
    /// Builds the pool.
    ///
    /// # Errors
    /// A [`ClientError`] for a zero timeout, a body cap under 20 bytes, or a client that cannot be
    /// built.
    pub fn new(settings: HttpSettings) -> Result<HttpClient, ClientError> {
        if settings.request_timeout.is_zero() {
            return Err(ClientError::ZeroTimeout);
        }
        if settings
            .connect_timeout
            .is_some_and(|timeout| timeout.is_zero())
        {
            return Err(ClientError::ZeroConnectTimeout);
        }
        if settings.body_limit < HttpSettings::MIN_BODY_LIMIT {
            return Err(ClientError::BodyLimitTooSmall {
                got: settings.body_limit,
            });
        }
        let mut builder = reqwest::Client::builder()
            .http1_only()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .referer(false)
            .tcp_nodelay(true)
            .pool_idle_timeout(settings.pool_idle_timeout)
            .user_agent(concat!("lean-poker-dealer/", env!("CARGO_PKG_VERSION")));
        if let Some(timeout) = settings.connect_timeout {
            builder = builder.connect_timeout(timeout);
        }
        builder = trust_ssl_cert_file(builder)?;
        let client = builder
            .build()
            .map_err(|error| ClientError::Build(error_chain(&error)))?;
        Ok(HttpClient { client, settings })
    }

    /// The settings every seat of this pool uses.
    pub fn settings(&self) -> &HttpSettings {
        &self.settings
    }

    /// A seat talking to `endpoint` through this pool.
    pub fn seat(&self, endpoint: PlayerEndpoint) -> HttpSeat {
        HttpSeat {
            client: self.client.clone(),
            settings: self.settings,
            endpoint,
        }
    }
}

/// https players (the `tls` feature, on by default) are checked against Mozilla's roots (built
/// in) and the system's store, which `SSL_CERT_FILE` replaces when set, as in OpenSSL. The file
/// is also read here, so that a missing file or one without a certificate is a clear error at
/// start-up instead of every https player failing its handshake later.
#[cfg(feature = "tls")]
fn trust_ssl_cert_file(
    builder: reqwest::ClientBuilder,
) -> Result<reqwest::ClientBuilder, ClientError> {
    let Some(path) = std::env::var_os("SSL_CERT_FILE").filter(|path| !path.is_empty()) else {
        return Ok(builder);
    };
    let problem = |reason: String| {
        let shown = std::path::Path::new(&path).display();
        ClientError::Build(format!("SSL_CERT_FILE={shown}: {reason}"))
    };
    let pem = std::fs::read(&path).map_err(|error| problem(error.to_string()))?;
    let certificates = reqwest::Certificate::from_pem_bundle(&pem)
        .map_err(|error| problem(error_chain(&error)))?;
    if certificates.is_empty() {
        return Err(problem("no PEM certificate in it".to_string()));
    }
    Ok(certificates
        .into_iter()
        .fold(builder, |builder, certificate| {
            builder.add_root_certificate(certificate)
        }))
}

/// Without the `tls` feature there is nothing to trust: https URLs are refused.
#[cfg(not(feature = "tls"))]
fn trust_ssl_cert_file(
    builder: reqwest::ClientBuilder,
) -> Result<reqwest::ClientBuilder, ClientError> {
    Ok(builder)
}

/// One player reached over HTTP. Made by [`HttpClient::seat`]; all seats of a pool share its
/// connections.
#[derive(Debug, Clone)]
pub struct HttpSeat {
    client: reqwest::Client,
    settings: HttpSettings,
    endpoint: PlayerEndpoint,
}

/// What the caller does with a response body.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BodyUse {
    /// A bet: a body over the cap or cut short is a failure.
    Bet,
    /// Free text (`version`): cut at the cap, but it must arrive complete up to there.
    Text,
    /// Ignored (`check`, `showdown`): the status decides; the body is read (up to the cap) only
    /// so that the connection can be reused, and for the logs.
    Ignored,
}

/// What one exchange produced, before the body is interpreted.
struct RoundTrip {
    status: Option<u16>,
    body: Option<Bytes>,
    latency: Duration,
    result: Result<(), SeatFailure>,
    unsent_attempts: Vec<SeatFailure>,
}

impl HttpSeat {
    /// The player's address (no credentials).
    pub fn endpoint(&self) -> &PlayerEndpoint {
        &self.endpoint
    }

    /// The settings this seat uses.
    pub fn settings(&self) -> &HttpSettings {
        &self.settings
    }

    /// Sends `bet_request` with `state` and reads the bet (spec §1, §6). Any answer that is not
    /// `200` with a digits-only body is a failure; the reply keeps the exact JSON text sent.
    pub async fn bet_request(&self, state: &GameState) -> Reply<Chips> {
        let json = state.to_json();
        let exchange = self
            .exchange(Action::BetRequest, Some(&json), BodyUse::Bet)
            .await;
        let outcome = exchange.result.and_then(|()| {
            parse_bet_answer(exchange.body.as_deref().unwrap_or_default())
                .map_err(SeatFailure::InvalidBody)
        });
        Reply {
            outcome,
            status: exchange.status,
            body: exchange.body,
            latency: exchange.latency,
            unsent_attempts: exchange.unsent_attempts,
            sent_json: Some(json),
        }
    }

    /// Sends `showdown` with `state`. Succeeds on any `200`, whatever the body.
    pub async fn showdown(&self, state: &GameState) -> Reply<()> {
        let json = state.to_json();
        let exchange = self
            .exchange(Action::Showdown, Some(&json), BodyUse::Ignored)
            .await;
        Reply {
            outcome: exchange.result,
            status: exchange.status,
            body: exchange.body,
            latency: exchange.latency,
            unsent_attempts: exchange.unsent_attempts,
            sent_json: Some(json),
        }
    }

    /// Asks `version`: the body of a `200`, cleaned by [`clean_version`] (kept verbatim except
    /// for control characters and a length cap).
    pub async fn version(&self) -> Reply<String> {
        let exchange = self.exchange(Action::Version, None, BodyUse::Text).await;
        let outcome = exchange
            .result
            .map(|()| clean_version(exchange.body.as_deref().unwrap_or_default()));
        Reply {
            outcome,
            status: exchange.status,
            body: exchange.body,
            latency: exchange.latency,
            unsent_attempts: exchange.unsent_attempts,
            sent_json: None,
        }
    }

    /// Sends `check`: succeeds on any `200`, whatever the body.
    pub async fn check(&self) -> Reply<()> {
        let exchange = self.exchange(Action::Check, None, BodyUse::Ignored).await;
        Reply {
            outcome: exchange.result,
            status: exchange.status,
            body: exchange.body,
            latency: exchange.latency,
            unsent_attempts: exchange.unsent_attempts,
            sent_json: None,
        }
    }

    async fn exchange(&self, action: Action, json: Option<&str>, body_use: BodyUse) -> RoundTrip {
        let form = encode_request(action, json);
        let mut status = None;
        let mut body = BodyBuffer::default();
        let started = Instant::now();
        let deadline = self.settings.request_timeout;
        let mut unsent_attempts = Vec::new();
        let sent = async {
            let mut form = Some(form);
            loop {
                let mut unsent = false;
                // Encoded again for a resend: the rare resend pays for it, not every request.
                let body_text = form.take().unwrap_or_else(|| encode_request(action, json));
                let result = self
                    .send_and_read(body_text, body_use, &mut status, &mut body, &mut unsent)
                    .await;
                match result {
                    // Handed back unsent: the player cannot have seen it. One resend.
                    Err(failure) if unsent && unsent_attempts.is_empty() => {
                        tracing::info!(
                            url = self.endpoint.url.as_str(),
                            %action,
                            %failure,
                            "request not sent (connection closed first): sending it once more"
                        );
                        unsent_attempts.push(failure);
                    }
                    other => break other,
                }
            }
        };
        let result = match tokio::time::timeout(deadline, sent).await {
            Ok(result) => result,
            // The response head decides for answers whose body is ignored, and for error
            // statuses (their body is only read for the logs).
            Err(_) => match status {
                Some(code) if code != 200 => Err(SeatFailure::Status(code)),
                Some(_) if body_use == BodyUse::Ignored => Ok(()),
                _ => Err(SeatFailure::Timeout {
                    after_ms: millis(deadline),
                }),
            },
        };
        let latency = started.elapsed();
        if let Err(failure) = &result {
            tracing::debug!(
                url = self.endpoint.url.as_str(),
                %action,
                latency_us = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX),
                %failure,
                "player request failed"
            );
        }
        RoundTrip {
            status,
            body: body.finish(),
            latency,
            result,
            unsent_attempts,
        }
    }

    /// Sends one request and reads the response through the body cap. Partial results land in
    /// `status` and `body` so that they survive the caller's deadline dropping this future;
    /// `unsent` is set when the client handed the request back without writing a byte of it.
    async fn send_and_read(
        &self,
        form: String,
        body_use: BodyUse,
        status: &mut Option<u16>,
        body: &mut BodyBuffer,
        unsent: &mut bool,
    ) -> Result<(), SeatFailure> {
        // Per request, reqwest needs its own `Url` (one small copy); the header values are
        // static or shared, and the form body is moved, not copied.
        let mut request = reqwest::Request::new(Method::POST, self.endpoint.url.clone());
        let headers = request.headers_mut();
        headers.insert(
            CONTENT_TYPE,
            HeaderValue::from_static("application/x-www-form-urlencoded"),
        );
        if let Some((_, value)) = &self.endpoint.authorization {
            headers.insert(AUTHORIZATION, value.clone());
        }
        *request.body_mut() = Some(form.into());

        let mut response = self.client.execute(request).await.map_err(|error| {
            *unsent = never_sent(&error);
            if *unsent {
                // Not classified by its cause: a reset found on the idle connection would read
                // "closed before the response was complete", as if the player had seen it.
                SeatFailure::NotSent
            } else {
                classify(&error, &self.settings)
            }
        })?;
        let code = response.status().as_u16();
        *status = Some(code);
        let limit = self.settings.body_limit;
        let declared_too_large = response
            .content_length()
            .is_some_and(|length| length > limit as u64);
        if code != 200 {
            if !declared_too_large {
                // Only for the logs: whatever arrives before the end, an error or the cap.
                loop {
                    match response.chunk().await {
                        Ok(Some(chunk)) => {
                            if !body.push(chunk, limit) {
                                break;
                            }
                        }
                        Ok(None) => break body.mark_complete(),
                        Err(_) => break,
                    }
                }
            }
            return Err(SeatFailure::Status(code));
        }
        if declared_too_large {
            return match body_use {
                BodyUse::Bet => Err(SeatFailure::BodyTooLarge { limit }),
                // Free text is cut at the cap, whatever length was declared.
                BodyUse::Text => {
                    match read_capped(&mut response, body, limit, &self.settings).await {
                        Err(SeatFailure::BodyTooLarge { .. }) => Ok(()),
                        other => other,
                    }
                }
                BodyUse::Ignored => Ok(()),
            };
        }
        match read_capped(&mut response, body, limit, &self.settings).await {
            Ok(()) => Ok(()),
            Err(SeatFailure::BodyTooLarge { .. }) if body_use == BodyUse::Text => Ok(()),
            Err(_) if body_use == BodyUse::Ignored => Ok(()),
            Err(failure) => Err(failure),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_that_cannot_work_are_refused() {
        let zero = HttpSettings::with_request_timeout(Duration::ZERO);
        assert_eq!(HttpClient::new(zero).unwrap_err(), ClientError::ZeroTimeout);
        let tiny = HttpSettings {
            body_limit: 4,
            ..HttpSettings::default()
        };
        assert_eq!(
            HttpClient::new(tiny).unwrap_err().to_string(),
            "the body limit must be at least 20 bytes (got 4)"
        );
        let no_connect = HttpSettings {
            connect_timeout: Some(Duration::ZERO),
            ..HttpSettings::default()
        };
        assert_eq!(
            HttpClient::new(no_connect).unwrap_err(),
            ClientError::ZeroConnectTimeout
        );
    }
}
