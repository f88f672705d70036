//! Players over HTTP (spec §1): one form-encoded `POST` per request, on keep-alive connections
//! shared by every seat of a client at the same player address.
//!
//! The client is hyper's HTTP/1.1 connection API (`connection.rs`): each connection is driven
//! by the task that sends on it, the game's own, with no background task per connection and no
//! hop between tasks per request.
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
//!   nothing keeps running after a seat call returns; connections whose exchange ended cleanly
//!   go back to the pool.
//!
//! Keep-alive has one classic hazard: the player closes an idle pooled connection just as the
//! dealer sends on it. An idle connection is first checked (a close that already arrived is
//! seen, and the connection is not used); past that, a request is sent again only when it
//! **provably never reached the player**: hyper hands it back unsent (the connection was found
//! closed before a byte of the request was written). That resend happens once, within the same
//! deadline, on another connection, and the unsent attempt is recorded in
//! [`Reply::unsent_attempts`] as [`SeatFailure::NotSent`], which the runner passes on to
//! `requests.jsonl` and the player's log. A request that was written and then met a closed connection is
//! never sent twice (the player may have seen it): it fails with "connection closed before the
//! response was complete". Idle connections are also dropped after 3 s, before the usual 5 s
//! server keep-alive timeouts, so the hazard is rare in the first place.
//!
//! Redirects are not followed (a `3xx` is `status 302`, a bad answer), proxies are never used
//! (players are on the LAN or loopback), and responses are never decompressed.
//!
//! The player's address is in `endpoint.rs`; connections and their pool in `connection.rs`;
//! reading a body through the cap and naming a transport failure in `transport.rs`; TLS in
//! `tls.rs`.

use super::connection::{Connection, Connector, Pool, Pools, RequestBody};
use super::endpoint::PlayerEndpoint;
use super::failure::millis;
use super::http_settings::{ClientError, HttpSettings};
use super::transport::{classify, read_capped, BodyBuffer};
use super::{clean_version, Reply, SeatFailure};
use bytes::Bytes;
use http::header::{HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE, HOST, USER_AGENT};
use http::{Method, Request};
use http_body_util::Full;
use shared::protocol::{encode_request_body, parse_bet_answer, Action, RequestEncoder};
use shared::{Chips, GameState};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The `User-Agent` of every request.
const USER_AGENT_TEXT: &str = concat!("lean-poker-dealer/", env!("CARGO_PKG_VERSION"));

/// The connections of a run: build one, then make an [`HttpSeat`] per player with
/// [`HttpClient::seat`]. Cloning is cheap and shares the connections.
#[derive(Debug, Clone)]
pub struct HttpClient {
    settings: HttpSettings,
    connector: Connector,
    pools: Arc<Pools>,
}

impl HttpClient {
    /// Builds the client (and, for https players, its TLS configuration: see `tls.rs`).
    ///
    /// # Errors
    /// A [`ClientError`] for a zero timeout, a body cap under 20 bytes, or a client that cannot be
    /// built (an unusable `SSL_CERT_FILE`).
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
        Ok(HttpClient {
            settings,
            connector: Connector::new()?,
            pools: Arc::default(),
        })
    }

    /// The settings every seat of this client uses.
    pub fn settings(&self) -> &HttpSettings {
        &self.settings
    }

    /// A seat talking to `endpoint` through this client's connections.
    pub fn seat(&self, endpoint: PlayerEndpoint) -> HttpSeat {
        self.seat_in_game(endpoint, None)
    }

    /// Like [`HttpClient::seat`], for a seat of a game whose HTTP seats all encode their
    /// bodies with `encoder` (made once per game): one game's documents, one after another,
    /// differ in a player or two, and the encoded text of the others is reused. Without one,
    /// each body is encoded whole.
    pub fn seat_in_game(
        &self,
        endpoint: PlayerEndpoint,
        encoder: Option<&GameEncoder>,
    ) -> HttpSeat {
        HttpSeat {
            encoder: encoder.cloned(),
            pool: self.pools.of(&endpoint),
            connector: self.connector.clone(),
            settings: self.settings,
            endpoint,
        }
    }
}

/// The request encoder the HTTP seats of one game share ([`HttpClient::seat_in_game`]):
/// cloning shares it. It is locked only while a body is written, never across an await.
#[derive(Debug, Clone, Default)]
pub struct GameEncoder(Arc<Mutex<RequestEncoder>>);

impl GameEncoder {
    fn encode(&self, action: Action, state: Option<&GameState>) -> Vec<u8> {
        let mut encoder = self.0.lock().unwrap_or_else(|poisoned| {
            // A panic while a body was written may have left a player's text half kept.
            let mut encoder = poisoned.into_inner();
            *encoder = RequestEncoder::new();
            encoder
        });
        encoder.encode(action, state)
    }
}

/// One player reached over HTTP. Made by [`HttpClient::seat`]; all seats of a client at the
/// same player address share its idle connections.
#[derive(Debug, Clone)]
pub struct HttpSeat {
    /// The game's encoder, shared with its other HTTP seats; `None`: bodies encoded whole.
    encoder: Option<GameEncoder>,
    pool: Arc<Pool>,
    connector: Connector,
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

impl RoundTrip {
    /// The reply to the caller: `read` interprets the body of an exchange that succeeded (a
    /// failed one keeps its failure).
    fn into_reply<T>(self, read: impl FnOnce(&[u8]) -> Result<T, SeatFailure>) -> Reply<T> {
        let outcome = self
            .result
            .and_then(|()| read(self.body.as_deref().unwrap_or_default()));
        Reply {
            outcome,
            status: self.status,
            body: self.body,
            latency: self.latency,
            unsent_attempts: self.unsent_attempts,
        }
    }
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
    /// `200` with a digits-only body is a failure. The document goes straight into the body,
    /// form-encoded, without its JSON text: the runner renders that for the logs only when an
    /// output writes it ([`GameState::write_json`] gives the bytes that were encoded).
    pub async fn bet_request(&self, state: &GameState) -> Reply<Chips> {
        self.exchange(Action::BetRequest, Some(state), BodyUse::Bet)
            .await
            .into_reply(|body| parse_bet_answer(body).map_err(SeatFailure::InvalidBody))
    }

    /// Sends `showdown` with `state`. Succeeds on any `200`, whatever the body.
    pub async fn showdown(&self, state: &GameState) -> Reply<()> {
        self.exchange(Action::Showdown, Some(state), BodyUse::Ignored)
            .await
            .into_reply(|_| Ok(()))
    }

    /// Asks `version`: the body of a `200`, cleaned by [`clean_version`] (kept verbatim except
    /// for control characters and a length cap).
    pub async fn version(&self) -> Reply<String> {
        self.exchange(Action::Version, None, BodyUse::Text)
            .await
            .into_reply(|body| Ok(clean_version(body)))
    }

    /// Sends `check`: succeeds on any `200`, whatever the body.
    pub async fn check(&self) -> Reply<()> {
        self.exchange(Action::Check, None, BodyUse::Ignored)
            .await
            .into_reply(|_| Ok(()))
    }

    async fn exchange(
        &self,
        action: Action,
        state: Option<&GameState>,
        body_use: BodyUse,
    ) -> RoundTrip {
        let body = match &self.encoder {
            Some(encoder) => encoder.encode(action, state),
            None => encode_request_body(action, state),
        };
        let request = self.request(body.into());
        let mut status = None;
        let mut body = BodyBuffer::default();
        let started = Instant::now();
        let deadline = self.settings.request_timeout;
        let mut unsent_attempts = Vec::new();
        let sent = async {
            let mut request = request;
            loop {
                match self
                    .send_and_read(request, body_use, &mut status, &mut body)
                    .await
                {
                    // Handed back unsent: the player cannot have seen it. One resend.
                    Sent::Unsent {
                        request: unsent,
                        failure,
                    } if unsent_attempts.is_empty() => {
                        tracing::info!(
                            url = self.endpoint.url.as_str(),
                            %action,
                            %failure,
                            "request not sent (connection closed first): sending it once more"
                        );
                        unsent_attempts.push(failure);
                        request = *unsent;
                    }
                    Sent::Unsent { failure, .. } => break Err(failure),
                    Sent::Done(result) => break result,
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
        RoundTrip {
            status,
            body: body.finish(),
            latency,
            result,
            unsent_attempts,
        }
    }

    /// The request for a form body. The target and every header value are made once per
    /// endpoint (or are static) and shared here; the body is moved, not copied.
    fn request(&self, form: Bytes) -> Request<RequestBody> {
        let mut request = Request::new(Full::new(form));
        *request.method_mut() = Method::POST;
        *request.uri_mut() = self.endpoint.target.path_and_query.clone();
        let headers = request.headers_mut();
        headers.reserve(6);
        headers.insert(HOST, self.endpoint.target.host.clone());
        headers.insert(USER_AGENT, HeaderValue::from_static(USER_AGENT_TEXT));
        headers.insert(ACCEPT, HeaderValue::from_static("*/*"));
        headers.insert(
            CONTENT_TYPE,
            HeaderValue::from_static("application/x-www-form-urlencoded"),
        );
        if let Some((_, value)) = &self.endpoint.authorization {
            headers.insert(AUTHORIZATION, value.clone());
        }
        request
    }

    /// An idle connection that is still open, or a new one.
    async fn connection(&self) -> Result<Connection, SeatFailure> {
        while let Some(mut idle) = self.pool.take(self.settings.pool_idle_timeout) {
            // Polls the connection once: a close (or anything else) the player sent while it
            // was idle is seen now, before a request is handed to it.
            if idle.ready().await {
                return Ok(idle);
            }
        }
        self.pool.connect(&self.settings, &self.connector).await
    }

    /// Sends one request and reads the response through the body cap. Partial results land in
    /// `status` and `body` so that they survive the caller's deadline dropping this future. A
    /// connection whose exchange ended cleanly (the whole body read) goes back to the pool;
    /// any other is dropped, which closes it.
    async fn send_and_read(
        &self,
        request: Request<RequestBody>,
        body_use: BodyUse,
        status: &mut Option<u16>,
        body: &mut BodyBuffer,
    ) -> Sent {
        let mut connection = match self.connection().await {
            Ok(connection) => connection,
            Err(failure) => return Sent::Done(Err(failure)),
        };
        let response = connection.sender.try_send_request(request);
        let response = match connection.drive(response).await {
            Ok(response) => response,
            Err(mut error) => {
                return match error.take_message() {
                    // Not classified by its cause: a reset found on the connection would read
                    // "closed before the response was complete", as if the player had seen it.
                    Some(request) => Sent::Unsent {
                        request: Box::new(request),
                        failure: SeatFailure::NotSent,
                    },
                    None => Sent::Done(Err(classify(error.error()))),
                };
            }
        };
        let code = response.status().as_u16();
        *status = Some(code);
        let limit = self.settings.body_limit;
        let declared_too_large = hyper::body::Body::size_hint(response.body())
            .exact()
            .is_some_and(|length| length > limit as u64);
        let mut incoming = response.into_body();
        if code != 200 {
            if !declared_too_large {
                // Only for the logs: whatever arrives before the end, an error or the cap.
                if read_capped(&mut connection, &mut incoming, body, limit)
                    .await
                    .is_ok()
                {
                    self.pool.put_back(connection);
                }
            }
            return Sent::Done(Err(SeatFailure::Status(code)));
        }
        if declared_too_large {
            return Sent::Done(match body_use {
                BodyUse::Bet => Err(SeatFailure::BodyTooLarge { limit }),
                // Free text is cut at the cap, whatever length was declared.
                BodyUse::Text => {
                    match read_capped(&mut connection, &mut incoming, body, limit).await {
                        Err(SeatFailure::BodyTooLarge { .. }) => Ok(()),
                        other => other,
                    }
                }
                BodyUse::Ignored => Ok(()),
            });
        }
        let read = read_capped(&mut connection, &mut incoming, body, limit).await;
        if read.is_ok() {
            self.pool.put_back(connection);
        }
        Sent::Done(match read {
            Ok(()) => Ok(()),
            Err(SeatFailure::BodyTooLarge { .. }) if body_use == BodyUse::Text => Ok(()),
            Err(_) if body_use == BodyUse::Ignored => Ok(()),
            Err(failure) => Err(failure),
        })
    }
}

/// How one attempt at a request ended.
enum Sent {
    /// The request reached the transport: its result.
    Done(Result<(), SeatFailure>),
    /// hyper handed the request back without writing a byte of it: it may be sent again.
    Unsent {
        request: Box<Request<RequestBody>>,
        failure: SeatFailure,
    },
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
