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
//! dealer sends on it, and the request dies without any response byte. Such a request would
//! ban an innocent player, so it is sent once more on a fresh connection (within the same
//! deadline). Only then is "connection closed before the response was complete" recorded. Idle
//! connections are also dropped after 3 s, before the usual 5 s server keep-alive timeouts.
//!
//! Redirects are not followed (a `3xx` is `status 302`, a bad answer), environment proxies are
//! ignored (players are on the LAN or loopback), and responses are never decompressed.

use super::failure::{millis, one_line};
use super::{clean_version, Reply, SeatFailure};
use base64::Engine as _;
use bytes::{Bytes, BytesMut};
use reqwest::header::{HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use reqwest::{Method, Url};
use shared::protocol::{encode_request, parse_bet_answer, Action};
use shared::{Chips, GameState};
use std::error::Error as StdError;
use std::fmt;
use std::str::FromStr;
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

/// How a player authenticates the dealer (the SDK accepts either).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuthScheme {
    /// `Authorization: Basic …`, from the URL's userinfo (`http://team:secret@host:port/`).
    Basic,
    /// `Authorization: Bearer <secret>`.
    Bearer,
}

/// A validated player address: `http` or `https`, a host, no credentials in it (they are moved
/// to a pre-built, sensitive `Authorization` header), no fragment.
///
/// `Display` and [`PlayerEndpoint::url`] never show the secret, so both are safe for logs.
#[derive(Clone, PartialEq, Eq)]
pub struct PlayerEndpoint {
    url: Url,
    authorization: Option<(AuthScheme, HeaderValue)>,
}

/// Why a player URL or token was rejected. One line, safe to print (never echoes a secret).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EndpointError {
    /// Not a URL at all.
    #[error("invalid player URL: {reason}")]
    Syntax {
        /// What the URL parser said.
        reason: String,
    },
    /// No `scheme://` at all (`localhost:9000`).
    #[error("invalid player URL: it must start with http:// or https://{hint}")]
    MissingScheme {
        /// `" (did you mean http://…?)"`, or empty when the text may hold a secret.
        hint: String,
    },
    /// A scheme other than `http` or `https`.
    #[error("invalid player URL: scheme {0:?} is not supported (expected http:// or https://)")]
    Scheme(String),
    /// An `https` URL in a dealer built without the `tls` feature (on by default).
    #[error(
        "invalid player URL: https needs the dealer built with the `tls` feature (on by default; \
         this one was built with --no-default-features)"
    )]
    HttpsUnsupported,
    /// No host.
    #[error("invalid player URL: no host")]
    NoHost,
    /// Percent-encoded credentials that are not UTF-8.
    #[error("invalid player URL: the {0} in the userinfo is not UTF-8 once percent-decoded")]
    Credentials(&'static str),
    /// A token that cannot be sent in a header (empty, or with control or non-ASCII characters).
    #[error("invalid bearer token: it must be non-empty visible ASCII")]
    Token,
}

impl PlayerEndpoint {
    /// Validates a player URL such as `http://127.0.0.1:9000/` or
    /// `http://team:secret@10.0.0.7:8080/`. Userinfo becomes Basic credentials (percent-decoded,
    /// so a secret with `@` or `:` is written `%40`, `%3A`; `http://team@host/` sends an empty
    /// password) and is removed from the URL. A path and query are kept; a fragment is dropped.
    ///
    /// ```
    /// use dealer::seat::PlayerEndpoint;
    /// let endpoint = PlayerEndpoint::parse("http://team:s3cret@127.0.0.1:9000").unwrap();
    /// assert_eq!(endpoint.to_string(), "http://127.0.0.1:9000/");
    /// assert!(PlayerEndpoint::parse("localhost:9000").unwrap_err().to_string()
    ///     .contains("did you mean http://localhost:9000?"));
    /// ```
    ///
    /// # Errors
    /// An [`EndpointError`] saying what is wrong.
    pub fn parse(text: &str) -> Result<PlayerEndpoint, EndpointError> {
        let hint = || {
            // Never echo something that may hold a secret.
            if text.contains('@') || text.chars().count() > 100 {
                String::new()
            } else {
                format!(" (did you mean http://{}?)", text.trim())
            }
        };
        if !text.contains("://") {
            return Err(EndpointError::MissingScheme { hint: hint() });
        }
        let mut url = Url::parse(text).map_err(|error| EndpointError::Syntax {
            reason: error.to_string(),
        })?;
        match url.scheme() {
            "http" => {}
            "https" if cfg!(feature = "tls") => {}
            "https" => return Err(EndpointError::HttpsUnsupported),
            other => return Err(EndpointError::Scheme(one_line(other))),
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(EndpointError::NoHost);
        }
        let authorization = if !url.username().is_empty() || url.password().is_some() {
            let username = percent_decoded(url.username(), "username")?;
            let password = percent_decoded(url.password().unwrap_or(""), "password")?;
            // Both calls only fail for URLs without a host, rejected above.
            let _ = url.set_username("");
            let _ = url.set_password(None);
            Some((AuthScheme::Basic, basic_header(&username, &password)))
        } else {
            None
        };
        url.set_fragment(None);
        Ok(PlayerEndpoint { url, authorization })
    }

    /// Uses `Authorization: Bearer <token>` instead of any credentials from the URL (the
    /// runner's per-player token option).
    ///
    /// # Errors
    /// [`EndpointError::Token`] for an empty token or one that is not visible ASCII.
    pub fn with_bearer_token(mut self, token: &str) -> Result<PlayerEndpoint, EndpointError> {
        if token.is_empty() || !token.bytes().all(|byte| byte.is_ascii_graphic()) {
            return Err(EndpointError::Token);
        }
        let mut value =
            HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| EndpointError::Token)?;
        value.set_sensitive(true);
        self.authorization = Some((AuthScheme::Bearer, value));
        Ok(self)
    }

    /// The URL requests go to, without credentials: safe for logs.
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// How the dealer authenticates, if it does.
    pub fn auth_scheme(&self) -> Option<AuthScheme> {
        self.authorization.as_ref().map(|(scheme, _)| *scheme)
    }
}

impl FromStr for PlayerEndpoint {
    type Err = EndpointError;
    fn from_str(text: &str) -> Result<PlayerEndpoint, EndpointError> {
        PlayerEndpoint::parse(text)
    }
}

impl fmt::Display for PlayerEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.url.as_str())
    }
}

impl fmt::Debug for PlayerEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlayerEndpoint")
            .field("url", &self.url.as_str())
            .field("auth", &self.auth_scheme())
            .finish()
    }
}

fn percent_decoded(text: &str, what: &'static str) -> Result<String, EndpointError> {
    percent_encoding::percent_decode_str(text)
        .decode_utf8()
        .map(|decoded| decoded.into_owned())
        .map_err(|_| EndpointError::Credentials(what))
}

fn basic_header(username: &str, password: &str) -> HeaderValue {
    let encoded =
        base64::engine::general_purpose::STANDARD.encode(format!("{username}:{password}"));
    // Base64 output is always a valid header value.
    let mut value = HeaderValue::from_str(&format!("Basic {encoded}"))
        .unwrap_or_else(|_| HeaderValue::from_static("Basic"));
    value.set_sensitive(true);
    value
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
struct Exchange {
    status: Option<u16>,
    body: Option<Bytes>,
    latency: Duration,
    result: Result<(), SeatFailure>,
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
            sent_json: None,
        }
    }

    async fn exchange(&self, action: Action, json: Option<&str>, body_use: BodyUse) -> Exchange {
        let form = encode_request(action, json);
        let mut status = None;
        let mut body = BodyBuffer::default();
        let started = Instant::now();
        let deadline = self.settings.request_timeout;
        let sent = async {
            match self
                .send_and_read(form, body_use, &mut status, &mut body)
                .await
            {
                // Closed before any response byte: most likely a pooled keep-alive connection
                // that the player closed as the request went out (its idle timer fired). One
                // resend on a fresh connection, within the same deadline; a player that really
                // hangs up on the request fails the same way again.
                Err(SeatFailure::ConnectionClosed) if status.is_none() => {
                    tracing::debug!(
                        url = self.endpoint.url.as_str(),
                        %action,
                        "connection closed before any response: sending once more"
                    );
                    // Encoded again: the rare resend pays for it, not every request.
                    let form = encode_request(action, json);
                    self.send_and_read(form, body_use, &mut status, &mut body)
                        .await
                }
                other => other,
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
        Exchange {
            status,
            body: body.finish(),
            latency,
            result,
        }
    }

    /// Sends one request and reads the response through the body cap. Partial results land in
    /// `status` and `body` so that they survive the caller's deadline dropping this future.
    async fn send_and_read(
        &self,
        form: String,
        body_use: BodyUse,
        status: &mut Option<u16>,
        body: &mut BodyBuffer,
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

        let mut response = self
            .client
            .execute(request)
            .await
            .map_err(|error| classify(&error, &self.settings))?;
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
                BodyUse::Text => read_capped(&mut response, body, limit, &self.settings).await,
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

/// Reads the body until its end, or fails with [`SeatFailure::BodyTooLarge`] once more than
/// `limit` bytes arrived (keeping the first `limit`).
async fn read_capped(
    response: &mut reqwest::Response,
    body: &mut BodyBuffer,
    limit: usize,
    settings: &HttpSettings,
) -> Result<(), SeatFailure> {
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                if !body.push(chunk, limit) {
                    return Err(SeatFailure::BodyTooLarge { limit });
                }
            }
            Ok(None) => {
                body.mark_complete();
                return Ok(());
            }
            Err(error) => return Err(classify(&error, settings)),
        }
    }
}

/// The received body, at most the cap. A body that arrives in one chunk (the usual case) is
/// kept without copying.
#[derive(Default)]
struct BodyBuffer {
    first: Option<Bytes>,
    more: Option<BytesMut>,
}

impl BodyBuffer {
    /// Appends `chunk`, keeping at most `limit` bytes in all; `false` when the cap was passed.
    fn push(&mut self, chunk: Bytes, limit: usize) -> bool {
        let held = self.len();
        let room = limit.saturating_sub(held);
        let over = chunk.len() > room;
        let chunk = if over { chunk.slice(..room) } else { chunk };
        if let Some(more) = &mut self.more {
            more.extend_from_slice(&chunk);
        } else if let Some(first) = &self.first {
            let mut more = BytesMut::with_capacity(held + chunk.len());
            more.extend_from_slice(first);
            more.extend_from_slice(&chunk);
            self.more = Some(more);
        } else {
            self.first = Some(chunk);
        }
        !over
    }

    /// The body ended: an empty body is then `Some("")`, not "no body".
    fn mark_complete(&mut self) {
        if self.first.is_none() {
            self.first = Some(Bytes::new());
        }
    }

    fn len(&self) -> usize {
        match (&self.more, &self.first) {
            (Some(more), _) => more.len(),
            (None, Some(first)) => first.len(),
            (None, None) => 0,
        }
    }

    fn finish(self) -> Option<Bytes> {
        match (self.more, self.first) {
            (Some(more), _) => Some(more.freeze()),
            (None, first) => first,
        }
    }
}

/// Maps a transport error to the precise reason: the kinds that matter are found by walking
/// the error chain (reqwest → hyper → io), never by matching message texts.
fn classify(error: &reqwest::Error, settings: &HttpSettings) -> SeatFailure {
    if error.is_connect() && error.is_timeout() {
        if let Some(timeout) = settings.connect_timeout {
            return SeatFailure::ConnectTimeout {
                after_ms: millis(timeout),
            };
        }
    }
    let mut source: Option<&(dyn StdError + 'static)> = Some(error);
    while let Some(current) = source {
        if let Some(hyper_error) = current.downcast_ref::<hyper::Error>() {
            if hyper_error.is_incomplete_message() {
                return SeatFailure::ConnectionClosed;
            }
            if hyper_error.is_parse() || hyper_error.is_parse_status() {
                return SeatFailure::InvalidResponse(one_line(&hyper_error.to_string()));
            }
        }
        if let Some(io_error) = current.downcast_ref::<std::io::Error>() {
            use std::io::ErrorKind;
            match io_error.kind() {
                ErrorKind::ConnectionRefused => return SeatFailure::ConnectionRefused,
                ErrorKind::ConnectionReset
                | ErrorKind::ConnectionAborted
                | ErrorKind::BrokenPipe
                | ErrorKind::UnexpectedEof => return SeatFailure::ConnectionClosed,
                _ => {}
            }
        }
        source = current.source();
    }
    if error.is_connect() {
        SeatFailure::Connect(error_chain(error))
    } else {
        SeatFailure::Http(error_chain(error))
    }
}

/// `outer: inner: innermost` on one bounded line, skipping a cause whose text its parent
/// already shows.
fn error_chain(error: &(dyn StdError + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    one_line(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_validated_with_clear_errors() {
        let ok = PlayerEndpoint::parse("http://127.0.0.1:9000").unwrap();
        assert_eq!(ok.url().as_str(), "http://127.0.0.1:9000/");
        assert_eq!(ok.auth_scheme(), None);
        let with_path = PlayerEndpoint::parse("http://example.test/bots/a?x=1#frag").unwrap();
        assert_eq!(with_path.to_string(), "http://example.test/bots/a?x=1");

        let error = |text: &str| PlayerEndpoint::parse(text).unwrap_err().to_string();
        assert_eq!(
            error("ftp://host/"),
            "invalid player URL: scheme \"ftp\" is not supported (expected http:// or https://)"
        );
        assert_eq!(
            error("localhost:9000"),
            "invalid player URL: it must start with http:// or https:// \
             (did you mean http://localhost:9000?)"
        );
        assert!(error("127.0.0.1:9000").contains("did you mean http://127.0.0.1:9000?"));
        assert!(error("http://").starts_with("invalid player URL: "));
        assert!(error("http://[::1").starts_with("invalid player URL: "));
        assert!(error("").starts_with("invalid player URL: "));
        if !cfg!(feature = "tls") {
            assert_eq!(
                error("https://host/"),
                "invalid player URL: https needs the dealer built with the `tls` feature (on by \
                 default; this one was built with --no-default-features)"
            );
        }
    }

    #[test]
    fn credentials_move_from_the_url_to_a_sensitive_header() {
        let endpoint = PlayerEndpoint::parse("http://team:s%40cret@127.0.0.1:9000/").unwrap();
        assert_eq!(endpoint.to_string(), "http://127.0.0.1:9000/");
        assert_eq!(endpoint.auth_scheme(), Some(AuthScheme::Basic));
        let (_, value) = endpoint.authorization.as_ref().unwrap();
        // base64("team:s@cret")
        assert_eq!(value.to_str().unwrap(), "Basic dGVhbTpzQGNyZXQ=");
        assert!(value.is_sensitive());
        let debug = format!("{endpoint:?}");
        assert!(
            !debug.contains("cret") && !debug.contains("dGVhb"),
            "{debug}"
        );

        let error = PlayerEndpoint::parse("team:secret@host:9000").unwrap_err();
        assert!(!error.to_string().contains("secret"), "{error}");

        let bearer = endpoint.with_bearer_token("t0ken").unwrap();
        assert_eq!(bearer.auth_scheme(), Some(AuthScheme::Bearer));
        assert_eq!(
            bearer.authorization.as_ref().unwrap().1.to_str().unwrap(),
            "Bearer t0ken"
        );
        let plain = PlayerEndpoint::parse("http://h/").unwrap();
        assert_eq!(
            plain.clone().with_bearer_token(""),
            Err(EndpointError::Token)
        );
        assert_eq!(plain.with_bearer_token("a b\n"), Err(EndpointError::Token));
    }

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

    #[test]
    fn the_body_buffer_keeps_at_most_the_cap() {
        let mut one = BodyBuffer::default();
        assert!(one.push(Bytes::from_static(b"240"), 8));
        assert_eq!(one.finish().unwrap(), Bytes::from_static(b"240"));

        let mut split = BodyBuffer::default();
        assert!(split.push(Bytes::from_static(b"12"), 8));
        assert!(split.push(Bytes::from_static(b"34"), 8));
        assert!(!split.push(Bytes::from_static(b"56789"), 8));
        assert_eq!(split.finish().unwrap(), Bytes::from_static(b"12345678"));

        assert_eq!(BodyBuffer::default().finish(), None);
    }
}
