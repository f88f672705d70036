//! Misbehaving Lean Poker players for tests: real sockets on 127.0.0.1, raw tokio TCP, so a
//! player can break HTTP in ways no server framework allows (never answer, drip bytes, close
//! mid-response, send 10 MB).
//!
//! ```ignore
//! mod support;
//! use support::misbehaving::{spawn_player, Misbehaviour};
//! let player = spawn_player(Misbehaviour::Status(500)).await;
//! // ... point a seat at player.url() ...
//! player.stop().await;
//! ```
//!
//! A player misbehaves only on the actions in [`PlayerOptions::misbehave_on`] (`bet_request` by
//! default) and answers the others like a healthy player: `check` and `showdown` with `200 OK`,
//! `version` with [`PlayerOptions::version`], `bet_request` with [`PlayerOptions::healthy_answer`]
//! (a call by default). So a sit'n'go can run with them, and each is banned at its first
//! `bet_request` with [`Misbehaviour::expected_failure`].
//!
//! Every player counts what the dealer did to it ([`MisbehavingPlayer::accepted_connections`],
//! [`MisbehavingPlayer::open_connections`], ...), which is how tests see keep-alive reuse and
//! connections the dealer failed to close. Stopping (or dropping) a player ends all its tasks.
#![allow(dead_code)] // Each test binary uses a different part of this module.

use dealer::seat::{HttpSettings, SeatFailure};
use shared::protocol::{parse_bet_answer, Action};
use shared::GameState;
use std::io;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot};
use tokio::task::{JoinHandle, JoinSet};

/// What a player does wrong when asked one of its [`PlayerOptions::misbehave_on`] actions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Misbehaviour {
    /// Nothing wrong: answers like a healthy player.
    Healthy,
    /// Reads the request and never answers (waits for the dealer to hang up).
    NeverAnswers,
    /// Answers like a healthy player, but only after this delay.
    AnswersAfter(Duration),
    /// Nothing listens on its port.
    RefusesConnections,
    /// Answers with this status (and a short text body).
    Status(u16),
    /// Answers `200` with exactly this body (`""`, `"-5"`, `"12.5"`, `"10\n"`, JSON...).
    Body(&'static [u8]),
    /// Answers `200` declaring (`Content-Length`) and sending a body of this many bytes (digits).
    HugeBody {
        /// Body length in bytes.
        bytes: u64,
    },
    /// Answers `200` with a chunked body that never ends.
    EndlessBody,
    /// Answers `200`, declares a 64-byte body and sends one digit per interval.
    SlowDrip {
        /// The pause between two bytes.
        every: Duration,
    },
    /// Declares a 10-byte body, sends 2 bytes and closes the connection.
    ClosesMidResponse,
    /// Reads the request and closes the connection without a byte of response. The request
    /// reached the player, so the dealer never sends it again.
    HangsUp,
    /// Crashes when asked: stops listening, then drops every connection without answering.
    /// Unlike [`Misbehaviour::RefusesConnections`] it answers `check` and `version` first (when
    /// only `bet_request` misbehaves), so it is seated and then banned: the connection closes
    /// under the request it read, and every later request finds nothing listening,
    /// `connection refused`. It never comes back.
    Crashes,
    /// Answers like a healthy player, on a keep-alive response, then closes the connection as
    /// a server whose keep-alive timer fires does: the dealer's next request must go out on a
    /// fresh connection, never be lost on the closed one.
    AnswersThenCloses,
    /// Misbehaves the first `times` times it is asked, then is healthy.
    FailsThenHealthy {
        /// How many requests get the misbehaviour.
        times: usize,
        /// The misbehaviour.
        failure: Box<Misbehaviour>,
    },
}

/// The body of [`Misbehaviour::SlowDrip`], in bytes.
pub const DRIP_LENGTH: u64 = 64;

impl Misbehaviour {
    /// The issue's list of misbehaving players (issue 4, "Robustness"), plus two ways of hanging
    /// up, for a dealer whose request deadline is `timeout`: every one of them must be banned
    /// with its own reason. [`Misbehaviour::RefusesConnections`] also fails `check`, so a runner
    /// that seats only the players that are up never seats it; [`Misbehaviour::Crashes`] is a
    /// player that was up and dies under a request.
    pub fn catalogue(timeout: Duration) -> Vec<Misbehaviour> {
        vec![
            Misbehaviour::NeverAnswers,
            Misbehaviour::AnswersAfter(timeout + Duration::from_millis(500)),
            Misbehaviour::RefusesConnections,
            Misbehaviour::Status(500),
            Misbehaviour::Body(b""),
            Misbehaviour::Body(b"-5"),
            Misbehaviour::Body(b"12.5"),
            Misbehaviour::Body(b"10\n"),
            Misbehaviour::Body(br#"{"bet":10}"#),
            Misbehaviour::HugeBody {
                bytes: 10 * 1024 * 1024,
            },
            Misbehaviour::EndlessBody,
            Misbehaviour::SlowDrip {
                every: Duration::from_millis(200),
            },
            Misbehaviour::ClosesMidResponse,
            Misbehaviour::HangsUp,
            Misbehaviour::Crashes,
        ]
    }

    /// A short name, usable as a player name (`status-500`, `body-"10\n"`...).
    pub fn label(&self) -> String {
        match self {
            Misbehaviour::Healthy => "healthy".into(),
            Misbehaviour::NeverAnswers => "never-answers".into(),
            Misbehaviour::AnswersAfter(delay) => format!("answers-after-{}ms", delay.as_millis()),
            Misbehaviour::RefusesConnections => "refuses-connections".into(),
            Misbehaviour::Status(code) => format!("status-{code}"),
            Misbehaviour::Body(body) => format!("body-{}", shared::protocol::excerpt(body)),
            Misbehaviour::HugeBody { bytes } => format!("huge-body-{bytes}"),
            Misbehaviour::EndlessBody => "endless-body".into(),
            Misbehaviour::SlowDrip { every } => format!("slow-drip-{}ms", every.as_millis()),
            Misbehaviour::ClosesMidResponse => "closes-mid-response".into(),
            Misbehaviour::HangsUp => "hangs-up".into(),
            Misbehaviour::Crashes => "crashes".into(),
            Misbehaviour::AnswersThenCloses => "answers-then-closes".into(),
            Misbehaviour::FailsThenHealthy { times, failure } => {
                format!("{}-{times}-times-then-healthy", failure.label())
            }
        }
    }

    /// The failure a `bet_request` must produce against a dealer with `settings` (for
    /// [`Misbehaviour::FailsThenHealthy`], while it still fails); `None` when the answer is a
    /// valid bet.
    pub fn expected_failure(&self, settings: &HttpSettings) -> Option<SeatFailure> {
        let timeout = SeatFailure::Timeout {
            after_ms: settings.request_timeout.as_millis() as u64,
        };
        let too_large = SeatFailure::BodyTooLarge {
            limit: settings.body_limit,
        };
        match self {
            Misbehaviour::Healthy | Misbehaviour::AnswersThenCloses => None,
            Misbehaviour::NeverAnswers => Some(timeout),
            Misbehaviour::AnswersAfter(delay) => {
                (*delay >= settings.request_timeout).then_some(timeout)
            }
            Misbehaviour::RefusesConnections => Some(SeatFailure::ConnectionRefused),
            Misbehaviour::Status(200) => None,
            Misbehaviour::Status(code) => Some(SeatFailure::Status(*code)),
            Misbehaviour::Body(body) => parse_bet_answer(body).err().map(SeatFailure::InvalidBody),
            Misbehaviour::HugeBody { bytes } if *bytes > settings.body_limit as u64 => {
                Some(too_large)
            }
            Misbehaviour::HugeBody { bytes } => parse_bet_answer(&vec![DIGIT; *bytes as usize])
                .err()
                .map(SeatFailure::InvalidBody),
            Misbehaviour::EndlessBody => Some(too_large),
            Misbehaviour::SlowDrip { every } => {
                (*every * DRIP_LENGTH as u32 >= settings.request_timeout).then_some(timeout)
            }
            Misbehaviour::ClosesMidResponse | Misbehaviour::HangsUp | Misbehaviour::Crashes => {
                Some(SeatFailure::ConnectionClosed)
            }
            Misbehaviour::FailsThenHealthy { failure, .. } => failure.expected_failure(settings),
        }
    }
}

/// How a healthy answer to `bet_request` is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HealthyAnswer {
    /// Call (reads `current_buy_in` and the player's `bet` from the state).
    Call,
    /// Always this many chips.
    Fixed(u64),
    /// One chip more than a call: a raise below the minimum, which the dealer reads as a call
    /// (or a check when nothing is owed), unless it is the whole stack.
    CallPlusOne,
}

/// Everything about a test player other than its misbehaviour.
#[derive(Debug, Clone)]
pub struct PlayerOptions {
    /// The actions that get the misbehaviour; the others are answered healthily.
    pub misbehave_on: &'static [Action],
    /// The healthy answer to `bet_request`.
    pub healthy_answer: HealthyAnswer,
    /// The healthy answer to `version`.
    pub version: String,
    /// When set, requests whose `Authorization` header is not exactly this get `401`.
    pub required_authorization: Option<String>,
}

impl Default for PlayerOptions {
    fn default() -> Self {
        PlayerOptions {
            misbehave_on: &[Action::BetRequest],
            healthy_answer: HealthyAnswer::Call,
            version: "misbehaving test player".into(),
            required_authorization: None,
        }
    }
}

/// What the dealer did to a player.
#[derive(Debug, Default)]
struct Stats {
    accepted: AtomicUsize,
    open: AtomicUsize,
    requests: AtomicUsize,
    misbehaved: AtomicUsize,
    body_bytes_written: AtomicU64,
    authorizations: Mutex<Vec<Option<String>>>,
}

struct Shared {
    misbehaviour: Misbehaviour,
    options: PlayerOptions,
    stats: Stats,
    /// Requests for a `misbehave_on` action so far (drives `FailsThenHealthy`).
    asked: AtomicUsize,
    /// [`Misbehaviour::Crashes`]: asks the accept loop to close the listener; it acknowledges
    /// once nothing listens any more.
    crash: mpsc::UnboundedSender<oneshot::Sender<()>>,
}

/// A running test player. Stop it with [`MisbehavingPlayer::stop`]; dropping it aborts its tasks.
pub struct MisbehavingPlayer {
    url: String,
    shared: Arc<Shared>,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

/// Starts a player with `misbehaviour` (on `bet_request`) on 127.0.0.1, port chosen by the OS.
pub async fn spawn_player(misbehaviour: Misbehaviour) -> MisbehavingPlayer {
    spawn_player_with(misbehaviour, PlayerOptions::default()).await
}

/// Starts a player with `misbehaviour` and `options` on 127.0.0.1, port chosen by the OS.
///
/// # Panics
/// If no loopback port can be bound (a broken test machine).
pub async fn spawn_player_with(
    misbehaviour: Misbehaviour,
    options: PlayerOptions,
) -> MisbehavingPlayer {
    spawn_player_at("127.0.0.1:0", misbehaviour, options).await
}

/// Starts a player with `misbehaviour` and `options` at `address` (`127.0.0.1:PORT`): the
/// same address as a player stopped before, as a redeployed player comes back.
///
/// # Panics
/// If the address cannot be bound.
pub async fn spawn_player_at(
    address: &str,
    misbehaviour: Misbehaviour,
    options: PlayerOptions,
) -> MisbehavingPlayer {
    let listener = TcpListener::bind(address)
        .await
        .unwrap_or_else(|error| panic!("bind {address}: {error}"));
    let address = listener.local_addr().expect("a bound address");
    let (crash, crashes) = mpsc::unbounded_channel();
    let shared = Arc::new(Shared {
        misbehaviour: misbehaviour.clone(),
        options,
        stats: Stats::default(),
        asked: AtomicUsize::new(0),
        crash,
    });
    let url = format!("http://{address}/");
    if misbehaviour == Misbehaviour::RefusesConnections {
        // Closing the listener leaves a port with nothing listening: connections are refused.
        drop(listener);
        return MisbehavingPlayer {
            url,
            shared,
            shutdown: None,
            task: None,
        };
    }
    let (shutdown, stop) = oneshot::channel();
    let task = tokio::spawn(serve(listener, Arc::clone(&shared), stop, crashes));
    MisbehavingPlayer {
        url,
        shared,
        shutdown: Some(shutdown),
        task: Some(task),
    }
}

impl MisbehavingPlayer {
    /// `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The player's URL with credentials: `http://USER:PASSWORD@127.0.0.1:PORT/`.
    pub fn url_with_credentials(&self, user: &str, password: &str) -> String {
        self.url
            .replacen("http://", &format!("http://{user}:{password}@"), 1)
    }

    /// The misbehaviour it was started with.
    pub fn misbehaviour(&self) -> &Misbehaviour {
        &self.shared.misbehaviour
    }

    /// TCP connections accepted so far.
    pub fn accepted_connections(&self) -> usize {
        self.shared.stats.accepted.load(Ordering::SeqCst)
    }

    /// TCP connections currently open on the player's side.
    pub fn open_connections(&self) -> usize {
        self.shared.stats.open.load(Ordering::SeqCst)
    }

    /// Complete requests received so far.
    pub fn requests(&self) -> usize {
        self.shared.stats.requests.load(Ordering::SeqCst)
    }

    /// Requests that got the misbehaviour.
    pub fn misbehaved(&self) -> usize {
        self.shared.stats.misbehaved.load(Ordering::SeqCst)
    }

    /// Body bytes of [`Misbehaviour::HugeBody`]/[`Misbehaviour::EndlessBody`] answers that the
    /// kernel accepted before the dealer hung up.
    pub fn body_bytes_written(&self) -> u64 {
        self.shared.stats.body_bytes_written.load(Ordering::SeqCst)
    }

    /// The `Authorization` header of every request, in order.
    pub fn authorizations(&self) -> Vec<Option<String>> {
        self.shared
            .stats
            .authorizations
            .lock()
            .map(|seen| seen.clone())
            .unwrap_or_default()
    }

    /// Waits until the player has no open connection (the dealer hung up), polling every 10 ms.
    /// `false` if connections are still open after `within`.
    pub async fn wait_until_no_open_connections(&self, within: Duration) -> bool {
        let give_up = tokio::time::Instant::now() + within;
        while self.open_connections() > 0 {
            if tokio::time::Instant::now() >= give_up {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        true
    }

    /// Stops accepting, closes every connection, and waits for all its tasks to end.
    pub async fn stop(mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for MisbehavingPlayer {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            // Aborting the accept loop drops its JoinSet, which aborts every connection task.
            task.abort();
        }
    }
}

async fn serve(
    listener: TcpListener,
    shared: Arc<Shared>,
    mut stop: oneshot::Receiver<()>,
    mut crashes: mpsc::UnboundedReceiver<oneshot::Sender<()>>,
) {
    let mut connections = JoinSet::new();
    let mut crashed = None;
    loop {
        tokio::select! {
            _ = &mut stop => break,
            Some(acknowledge) = crashes.recv() => {
                crashed = Some(acknowledge);
                break;
            }
            accepted = listener.accept() => {
                if let Ok((stream, _)) = accepted {
                    shared.stats.accepted.fetch_add(1, Ordering::SeqCst);
                    connections.spawn(connection(stream, Arc::clone(&shared)));
                }
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    // Nothing listens from here on; only then do connections close, so that a dealer that
    // reconnects at once is refused rather than accepted and reset.
    drop(listener);
    if let Some(acknowledge) = crashed {
        let _ = acknowledge.send(());
    }
    connections.shutdown().await;
}

/// Counts an open connection for as long as it lives (also when its task is aborted).
struct OpenGuard(Arc<Shared>);

impl Drop for OpenGuard {
    fn drop(&mut self) {
        self.0.stats.open.fetch_sub(1, Ordering::SeqCst);
    }
}

struct Request {
    action: Option<Action>,
    body: Vec<u8>,
    /// `Authorization` was required and did not match.
    unauthorized: bool,
}

/// The most a request may take before the player hangs up (a game state is a few KiB).
const REQUEST_LIMIT: usize = 1 << 20;
/// What huge and endless bodies are made of: digits, so only their size makes them invalid.
const DIGIT: u8 = b'9';
static CHUNK: [u8; 64 * 1024] = [DIGIT; 64 * 1024];

async fn connection(mut stream: TcpStream, shared: Arc<Shared>) {
    shared.stats.open.fetch_add(1, Ordering::SeqCst);
    let _open = OpenGuard(Arc::clone(&shared));
    let _ = stream.set_nodelay(true);
    let mut buffer = Vec::with_capacity(16 * 1024);
    while let Ok(Some(request)) = read_request(&mut stream, &mut buffer, &shared).await {
        shared.stats.requests.fetch_add(1, Ordering::SeqCst);
        if request.unauthorized {
            if respond(&mut stream, 401, b"wrong credentials")
                .await
                .is_err()
            {
                return;
            }
            continue;
        }
        let Some(action) = request.action else {
            if respond(&mut stream, 400, b"missing or unknown action")
                .await
                .is_err()
            {
                return;
            }
            continue;
        };
        let behaviour = if shared.options.misbehave_on.contains(&action) {
            let asked = shared.asked.fetch_add(1, Ordering::SeqCst);
            match &shared.misbehaviour {
                Misbehaviour::FailsThenHealthy { times, failure } if asked < *times => {
                    failure.as_ref()
                }
                Misbehaviour::FailsThenHealthy { .. } => &Misbehaviour::Healthy,
                other => other,
            }
        } else {
            &Misbehaviour::Healthy
        };
        if *behaviour != Misbehaviour::Healthy {
            shared.stats.misbehaved.fetch_add(1, Ordering::SeqCst);
        }
        match misbehave(&mut stream, behaviour, action, &request, &shared).await {
            Ok(Next::KeepAlive) => {}
            Ok(Next::Close) | Err(_) => return,
        }
    }
}

enum Next {
    KeepAlive,
    Close,
}

async fn misbehave(
    stream: &mut TcpStream,
    behaviour: &Misbehaviour,
    action: Action,
    request: &Request,
    shared: &Shared,
) -> io::Result<Next> {
    match behaviour {
        Misbehaviour::Healthy | Misbehaviour::FailsThenHealthy { .. } => {
            let body = healthy_answer(action, request, &shared.options);
            respond(stream, 200, body.as_bytes()).await?;
        }
        Misbehaviour::NeverAnswers | Misbehaviour::RefusesConnections => {
            // Wait for the dealer to hang up; never write anything.
            let mut scratch = [0u8; 1024];
            while stream.read(&mut scratch).await? > 0 {}
            return Ok(Next::Close);
        }
        Misbehaviour::AnswersAfter(delay) => {
            tokio::time::sleep(*delay).await;
            let body = healthy_answer(action, request, &shared.options);
            respond(stream, 200, body.as_bytes()).await?;
        }
        Misbehaviour::Status(code) => respond(stream, *code, b"misbehaving on purpose").await?,
        Misbehaviour::Body(body) => respond(stream, 200, body).await?,
        Misbehaviour::HugeBody { bytes } => {
            head(stream, 200, &format!("Content-Length: {bytes}\r\n")).await?;
            let mut left = *bytes;
            while left > 0 {
                let take = left.min(CHUNK.len() as u64) as usize;
                stream.write_all(&CHUNK[..take]).await?;
                shared
                    .stats
                    .body_bytes_written
                    .fetch_add(take as u64, Ordering::SeqCst);
                left -= take as u64;
            }
        }
        Misbehaviour::EndlessBody => {
            head(stream, 200, "Transfer-Encoding: chunked\r\n").await?;
            let size_line = format!("{:x}\r\n", CHUNK.len());
            loop {
                stream.write_all(size_line.as_bytes()).await?;
                stream.write_all(&CHUNK).await?;
                stream.write_all(b"\r\n").await?;
                shared
                    .stats
                    .body_bytes_written
                    .fetch_add(CHUNK.len() as u64, Ordering::SeqCst);
            }
        }
        Misbehaviour::SlowDrip { every } => {
            head(stream, 200, &format!("Content-Length: {DRIP_LENGTH}\r\n")).await?;
            for _ in 0..DRIP_LENGTH {
                stream.write_all(b"1").await?;
                tokio::time::sleep(*every).await;
            }
        }
        Misbehaviour::Crashes => {
            let (acknowledge, acknowledged) = oneshot::channel();
            if shared.crash.send(acknowledge).is_ok() {
                // The accept loop closes the listener, then aborts this task with the others.
                let _ = acknowledged.await;
                std::future::pending::<()>().await;
            }
            return Ok(Next::Close);
        }
        Misbehaviour::HangsUp => {
            let _ = stream.shutdown().await;
            return Ok(Next::Close);
        }
        Misbehaviour::AnswersThenCloses => {
            let body = healthy_answer(action, request, &shared.options);
            respond(stream, 200, body.as_bytes()).await?;
            let _ = stream.shutdown().await;
            return Ok(Next::Close);
        }
        Misbehaviour::ClosesMidResponse => {
            head(stream, 200, "Content-Length: 10\r\n").await?;
            stream.write_all(b"12").await?;
            stream.flush().await?;
            // The whole request was read, so closing sends a clean FIN, not a reset.
            let _ = stream.shutdown().await;
            return Ok(Next::Close);
        }
    }
    Ok(Next::KeepAlive)
}

fn healthy_answer(action: Action, request: &Request, options: &PlayerOptions) -> String {
    match action {
        Action::Check | Action::Showdown => "OK".into(),
        Action::Version => options.version.clone(),
        Action::BetRequest => match options.healthy_answer {
            HealthyAnswer::Fixed(chips) => chips.to_string(),
            HealthyAnswer::Call => form_urlencoded::parse(&request.body)
                .find(|(key, _)| key == "game_state")
                .and_then(|(_, json)| GameState::from_json(&json).ok())
                .map_or_else(|| "0".to_string(), |state| state.call_amount().to_string()),
            HealthyAnswer::CallPlusOne => form_urlencoded::parse(&request.body)
                .find(|(key, _)| key == "game_state")
                .and_then(|(_, json)| GameState::from_json(&json).ok())
                .map_or_else(
                    || "1".to_string(),
                    |state| (state.call_amount().get() + 1).to_string(),
                ),
        },
    }
}

async fn head(stream: &mut TcpStream, status: u16, extra_headers: &str) -> io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Misbehaving",
    };
    let head =
        format!("HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\n{extra_headers}\r\n");
    stream.write_all(head.as_bytes()).await
}

async fn respond(stream: &mut TcpStream, status: u16, body: &[u8]) -> io::Result<()> {
    let mut response = Vec::with_capacity(128 + body.len());
    let reason = if status == 200 { "OK" } else { "Misbehaving" };
    response.extend_from_slice(
        format!(
            "HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    );
    response.extend_from_slice(body);
    stream.write_all(&response).await
}

/// Reads one request (head and `Content-Length` body); `None` when the dealer hung up cleanly.
/// Records `Authorization`, and checks it when the options require it.
async fn read_request(
    stream: &mut TcpStream,
    buffer: &mut Vec<u8>,
    shared: &Shared,
) -> io::Result<Option<Request>> {
    loop {
        let mut headers = [httparse::EMPTY_HEADER; 32];
        let mut parsed = httparse::Request::new(&mut headers);
        let status = parsed
            .parse(buffer)
            .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error))?;
        if let httparse::Status::Complete(head_length) = status {
            let header = |name: &str| {
                parsed
                    .headers
                    .iter()
                    .find(|header| header.name.eq_ignore_ascii_case(name))
                    .map(|header| String::from_utf8_lossy(header.value).into_owned())
            };
            let content_length: usize = header("content-length")
                .and_then(|value| value.trim().parse().ok())
                .unwrap_or(0);
            let authorization = header("authorization");
            if content_length > REQUEST_LIMIT {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "request too large",
                ));
            }
            while buffer.len() < head_length + content_length {
                if read_more(stream, buffer).await? == 0 {
                    return Err(io::ErrorKind::UnexpectedEof.into());
                }
            }
            let body = buffer[head_length..head_length + content_length].to_vec();
            buffer.drain(..head_length + content_length);
            if let Ok(mut seen) = shared.stats.authorizations.lock() {
                seen.push(authorization.clone());
            }
            let unauthorized = shared
                .options
                .required_authorization
                .as_ref()
                .is_some_and(|required| authorization.as_deref() != Some(required.as_str()));
            let action = form_urlencoded::parse(&body)
                .find(|(key, _)| key == "action")
                .and_then(|(_, value)| value.parse().ok());
            return Ok(Some(Request {
                action,
                body,
                unauthorized,
            }));
        }
        if buffer.len() > REQUEST_LIMIT {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "head too large"));
        }
        if read_more(stream, buffer).await? == 0 {
            return if buffer.is_empty() {
                Ok(None)
            } else {
                Err(io::ErrorKind::UnexpectedEof.into())
            };
        }
    }
}

async fn read_more(stream: &mut TcpStream, buffer: &mut Vec<u8>) -> io::Result<usize> {
    let mut chunk = [0u8; 8192];
    let read = stream.read(&mut chunk).await?;
    buffer.extend_from_slice(&chunk[..read]);
    Ok(read)
}
