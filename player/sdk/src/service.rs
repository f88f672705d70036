//! The HTTP side of the protocol (spec §1, §6): one handler for every request.
//!
//! | request | answer |
//! |---|---|
//! | `POST /` `action=check` | `200` `OK` |
//! | `POST /` `action=version` | `200` the player's version text (`500` if `version()` panics) |
//! | `POST /` `action=bet_request` | `200` digits only (the fallback on panic, overrun or busy) |
//! | `POST /` `action=showdown` | `200` `OK`, after `showdown()` returned, failed, or ran out of time |
//! | `POST /` `bet_request` or `showdown` with an unreadable `game_state` | `200` the fallback or `OK`, and an error log |
//! | `POST /` any other undecodable body | `400` one line saying why |
//! | `POST /` body over the limit | `413` |
//! | `POST /` without valid credentials (auth on) | `401` with `WWW-Authenticate` |
//! | `GET /`, `HEAD /` | `200` a short status: SDK name and version, the player's version |
//! | any other method on `/` | `405` with `Allow` |
//! | any other path | `404` |
//!
//! The `Content-Type` of a request is not checked (some dealers send none, or the wrong one):
//! the body is always read as a form. `GET /` needs no credentials so that health checks work
//! without the secret; it shows nothing but versions.

use crate::auth::{Secret, CHALLENGES};
use crate::strategy_pool::{CallFailure, Caller, StrategyPool};
use crate::{Player, SDK_VERSION};
use actix_web::body::{BodyStream, MessageBody};
use actix_web::dev::Extensions;
use actix_web::error::PayloadError;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::web::{Bytes, BytesMut};
use actix_web::{web, HttpRequest, HttpResponse};
use shared::protocol::{Action, Request, RequestError};
use shared::Chips;
use std::any::Any;
use std::cell::Cell;
use std::future::poll_fn;
use std::pin::pin;
use std::sync::Arc;
use std::time::Instant;

thread_local! {
    /// Connections open on this I/O thread: an actix worker serves each of its connections on
    /// its own thread, from the connection's start (`on_connect`) to its drop.
    static OPEN_CONNECTIONS: Cell<usize> = const { Cell::new(0) };
}

/// Counts a connection in [`OPEN_CONNECTIONS`] for as long as it is open: it lives in the
/// connection's extensions, which are dropped with the connection on the same thread.
struct OpenConnection;

impl OpenConnection {
    fn open() -> OpenConnection {
        OPEN_CONNECTIONS.with(|open| open.set(open.get() + 1));
        OpenConnection
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        OPEN_CONNECTIONS.with(|open| open.set(open.get().saturating_sub(1)));
    }
}

/// The server's `on_connect` hook: counts the new connection on the thread that serves it.
pub(crate) fn count_connection(_connection: &dyn Any, extensions: &mut Extensions) {
    extensions.insert(OpenConnection::open());
}

/// How this I/O thread waits for a strategy call: on the spot only when it serves no other
/// connection (the dealer's case, one request at a time), whose requests it would hold up.
fn this_thread_as_caller() -> Caller {
    if OPEN_CONNECTIONS.with(Cell::get) <= 1 {
        Caller::Alone
    } else {
        Caller::Busy
    }
}

/// Everything the handler needs, shared by every worker.
pub(crate) struct ServiceState {
    pub(crate) player: Arc<dyn Player>,
    pub(crate) strategies: StrategyPool,
    pub(crate) fallback: Chips,
    pub(crate) secret: Option<Secret>,
    pub(crate) body_limit: usize,
}

const TEXT: HeaderValue = HeaderValue::from_static("text/plain; charset=utf-8");

fn text(status: StatusCode, body: impl Into<String>) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((header::CONTENT_TYPE, TEXT))
        .body(body.into())
}

fn micros(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// Logs and builds a 4xx answer with a one-line reason.
fn reject(started: Instant, method: &Method, status: StatusCode, reason: &str) -> HttpResponse {
    let latency_us = micros(started);
    if matches!(
        status,
        StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED
    ) {
        tracing::debug!(%method, status = status.as_u16(), latency_us, reason, "rejected");
    } else {
        tracing::warn!(%method, status = status.as_u16(), latency_us, reason, "rejected");
    }
    text(status, reason)
}

/// The single handler behind every route.
pub(crate) async fn handle(
    request: HttpRequest,
    payload: web::Payload,
    state: web::Data<ServiceState>,
) -> HttpResponse {
    let started = Instant::now();
    let method = request.method();
    if request.path() != "/" {
        return reject(
            started,
            method,
            StatusCode::NOT_FOUND,
            "not found: the player answers POST / (and GET / for status)",
        );
    }
    if method == Method::GET || method == Method::HEAD {
        return status_page(&state, started).await;
    }
    if method != Method::POST {
        let mut response = reject(
            started,
            method,
            StatusCode::METHOD_NOT_ALLOWED,
            "method not allowed: use POST / (or GET / for status)",
        );
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD, POST"));
        return response;
    }
    if let Some(secret) = &state.secret {
        let header = request
            .headers()
            .get(header::AUTHORIZATION)
            .map(HeaderValue::as_bytes);
        if let Err(denied) = secret.check(header) {
            let mut response = reject(started, method, StatusCode::UNAUTHORIZED, denied.reason());
            for challenge in CHALLENGES {
                response.headers_mut().append(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static(challenge),
                );
            }
            return response;
        }
    }
    let too_large = || {
        reject(
            started,
            method,
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!(
                "request body too large: the limit is {} bytes",
                state.body_limit
            ),
        )
    };
    // Refuse early on a declared length, before reading anything.
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > state.body_limit as u64) {
        return too_large();
    }
    let body = match read_body(payload, state.body_limit).await {
        Ok(body) => body,
        Err(BodyError::Read(error)) => {
            return reject(
                started,
                method,
                StatusCode::BAD_REQUEST,
                &format!("could not read the request body: {error}"),
            )
        }
        Err(BodyError::TooLarge) => return too_large(),
    };
    let decoded = match Request::decode(&body) {
        Ok(decoded) => decoded,
        Err(error) => return undecodable(&state, started, method, &body, error),
    };
    match decoded {
        Request::Check => {
            let latency_us = micros(started);
            after_the_answer(move || {
                tracing::info!(action = "check", latency_us, "answered");
            });
            text(StatusCode::OK, "OK")
        }
        Request::Version => version(&state, started).await,
        Request::BetRequest(game_state) => bet_request(&state, started, game_state).await,
        Request::Showdown(game_state) => showdown(&state, started, game_state).await,
    }
}

/// A body [`Request::decode`] refused. A `bet_request` or `showdown` whose `game_state` is
/// missing or has a type the SDK does not expect (a rank `"T"`) still gets a `200`: dealers
/// treat any other status as a ban, which costs the team the game, while the fallback `0`
/// costs at most a hand (docs/decisions.md, "Unreadable game_state"). The error is logged
/// loudly, naming the field, so that the team sees it. Everything else is a `400`.
fn undecodable(
    state: &ServiceState,
    started: Instant,
    method: &Method,
    body: &[u8],
    error: RequestError,
) -> HttpResponse {
    let action = match &error {
        RequestError::MissingGameState(action) => Some(*action),
        RequestError::InvalidGameState(_) => requested_action(body),
        RequestError::MissingAction | RequestError::UnknownAction(_) => None,
    };
    let latency_us = micros(started);
    match action {
        Some(Action::BetRequest) => {
            tracing::error!(
                action = "bet_request",
                answer = state.fallback.get(),
                latency_us,
                reason = %error,
                "could not read the bet_request; answered the fallback instead of a 400 (a ban)"
            );
            text(StatusCode::OK, state.fallback.get().to_string())
        }
        Some(Action::Showdown) => {
            tracing::error!(
                action = "showdown",
                latency_us,
                reason = %error,
                "could not read the showdown; answered OK without calling showdown()"
            );
            text(StatusCode::OK, "OK")
        }
        _ => reject(started, method, StatusCode::BAD_REQUEST, &error.to_string()),
    }
}

/// The action a body asks for, read on its own (the first `action` field, decoded exactly as
/// [`Request::decode`] decodes it), for a body whose `game_state` could not be read.
fn requested_action(body: &[u8]) -> Option<Action> {
    let value = body
        .split(|byte| *byte == b'&')
        .filter_map(|field| {
            let equals = field.iter().position(|byte| *byte == b'=')?;
            (&field[..equals] == b"action").then_some(&field[equals + 1..])
        })
        .next()?;
    let alone = [b"action=".as_slice(), value].concat();
    match Request::decode(&alone) {
        Ok(request) => Some(request.action()),
        Err(RequestError::MissingGameState(action)) => Some(action),
        Err(_) => None,
    }
}

/// Why a request body could not be read.
enum BodyError {
    /// More than the limit arrived.
    TooLarge,
    /// The connection failed or the body was malformed.
    Read(PayloadError),
}

/// Reads the whole body, refusing it past `limit` bytes. A body that arrives in one chunk (the
/// usual case: a request fits in one read) is kept as it is, without a copy; actix's own
/// `to_bytes_limited` reserves 32 KiB and copies the body into it, at every request.
async fn read_body(payload: web::Payload, limit: usize) -> Result<Bytes, BodyError> {
    let mut stream = pin!(BodyStream::new(payload));
    let mut first: Option<Bytes> = None;
    let mut more: Option<BytesMut> = None;
    let mut length = 0usize;
    while let Some(chunk) = poll_fn(|context| stream.as_mut().poll_next(context)).await {
        let chunk = chunk.map_err(BodyError::Read)?;
        length = length.saturating_add(chunk.len());
        if length > limit {
            return Err(BodyError::TooLarge);
        }
        if let Some(more) = &mut more {
            more.extend_from_slice(&chunk);
        } else if let Some(first) = first.take() {
            let mut joined = BytesMut::with_capacity(length);
            joined.extend_from_slice(&first);
            joined.extend_from_slice(&chunk);
            more = Some(joined);
        } else {
            first = Some(chunk);
        }
    }
    Ok(match more {
        Some(more) => more.freeze(),
        None => first.unwrap_or_default(),
    })
}

/// Writes the `info` line of an answered request, once the answer has been sent when this I/O
/// thread serves a single connection: formatting it and writing it to stderr took a few
/// microseconds of the answer's latency there. It then runs as a task of this I/O thread,
/// after the connection's task has written the answer and before the thread sleeps, so it
/// costs no wake-up; `latency_us` is still measured before the answer leaves. With more
/// connections, where throughput counts and the task's ~2,000 instructions would not pay,
/// and when `info` is off, nothing is spawned.
fn after_the_answer(log: impl FnOnce() + 'static) {
    if !tracing::level_enabled!(tracing::Level::INFO) {
        return;
    }
    match this_thread_as_caller() {
        Caller::Alone => drop(actix_web::rt::spawn(async move { log() })),
        Caller::Busy => log(),
    }
}

/// The fields that identify a request in the log.
struct Ids {
    game_id: String,
    round: Option<u64>,
    in_action: Option<usize>,
}

impl Ids {
    fn of(state: &shared::GameState) -> Ids {
        Ids {
            game_id: state.game_id.clone().unwrap_or_default(),
            round: state.round,
            in_action: state.in_action.map(|seat| seat.index()),
        }
    }
}

async fn bet_request(
    state: &ServiceState,
    started: Instant,
    game_state: shared::GameState,
) -> HttpResponse {
    let answer = game_call(
        state,
        started,
        "bet_request",
        game_state,
        |player, game_state| player.bet_request(game_state),
        state.fallback,
        |answer| Some(answer.get()),
    )
    .await;
    // Digits only, no newline (spec §1): u64's Display is exactly that.
    text(StatusCode::OK, answer.get().to_string())
}

async fn showdown(
    state: &ServiceState,
    started: Instant,
    game_state: shared::GameState,
) -> HttpResponse {
    // A failed showdown never bans (spec §6): it is logged and answered OK all the same.
    game_call(
        state,
        started,
        "showdown",
        game_state,
        |player, game_state| player.showdown(game_state),
        (),
        |()| None,
    )
    .await;
    text(StatusCode::OK, "OK")
}

/// Runs one of the player's calls about a game (`bet_request`, `showdown`) on the strategy
/// pool and logs how it went, with the request's ids and `logged_answer` of what was answered.
/// A call that fails (panic, overrun, pool saturated) gives `fallback`, what the dealer gets
/// instead.
async fn game_call<T: Copy + Send + 'static>(
    state: &ServiceState,
    started: Instant,
    action: &'static str,
    game_state: shared::GameState,
    call: fn(&dyn Player, &shared::GameState) -> T,
    fallback: T,
    logged_answer: fn(T) -> Option<u64>,
) -> T {
    let ids = Ids::of(&game_state);
    let player = state.player.clone();
    let outcome = state
        .strategies
        .run(action, this_thread_as_caller(), move || {
            call(&*player, &game_state)
        })
        .await;
    let latency_us = micros(started);
    match outcome {
        Ok(answer) => {
            after_the_answer(move || {
                tracing::info!(
                    action,
                    game_id = %ids.game_id,
                    round = ids.round,
                    in_action = ids.in_action,
                    answer = logged_answer(answer),
                    latency_us,
                    "answered"
                );
            });
            answer
        }
        Err(failure) => {
            tracing::warn!(
                action,
                game_id = %ids.game_id,
                round = ids.round,
                in_action = ids.in_action,
                answer = logged_answer(fallback),
                latency_us,
                reason = %failure,
                "{action} failed; answered the fallback"
            );
            fallback
        }
    }
}

async fn player_version(state: &ServiceState) -> Result<String, CallFailure> {
    let player = state.player.clone();
    state
        .strategies
        .run("version", Caller::Busy, move || player.version())
        .await
}

async fn version(state: &ServiceState, started: Instant) -> HttpResponse {
    match player_version(state).await {
        Ok(version) => {
            tracing::info!(
                action = "version",
                answer = %version,
                latency_us = micros(started),
                "answered"
            );
            text(StatusCode::OK, version)
        }
        Err(failure) => {
            // Not bad input: the player's own code failed. The dealer shows "Unknown".
            let reason = format!("version() {failure}");
            tracing::error!(
                action = "version",
                latency_us = micros(started),
                reason = %reason,
                "version failed"
            );
            text(StatusCode::INTERNAL_SERVER_ERROR, reason)
        }
    }
}

async fn status_page(state: &ServiceState, started: Instant) -> HttpResponse {
    let version = match player_version(state).await {
        Ok(version) => version,
        Err(failure) => format!("unavailable (version() {failure})"),
    };
    tracing::debug!(latency_us = micros(started), "status page");
    // For HEAD, actix sends the same headers (Content-Length included) and no body.
    text(
        StatusCode::OK,
        format!("{SDK_VERSION} is up; player version: {version}\n"),
    )
}
