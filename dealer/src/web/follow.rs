//! `GET /api/runs/{run}/games/{n}/live`: a game followed as it is played, as server-sent
//! events; and `GET .../log`, the whole log, which a page reads before it follows and once
//! the game is over. Both read through the [`LogCache`], so every page on a game shares one
//! reading of its log.
//!
//! The stream tails the game's `log.json` (data flows one way: engine → observer → file →
//! page; the server never talks to the game), read once for every page through the
//! [`LogCache`]. Every [`POLL`] it checks the file's length and sends the entries completed
//! since the last look:
//!
//! - `event: entries`, `id: <entries sent so far>`, `data:` a [`LogChunk`] (`first`,
//!   `entries`, `hands`, `bans`, `closed`), hole cards hidden until shown at a showdown
//!   while the game is played;
//! - `event: end`, `data: {"status": ..., "reason": ...}` when the game is over (recorded or
//!   interrupted in `results.json`, or an unrecorded log that stopped growing), when the log
//!   has not grown for [`IDLE_LIMIT`], was replaced, or became unreadable. The page closes
//!   the stream then (a browser would otherwise reconnect);
//! - a comment line every [`KEEP_ALIVE`] so proxies keep the connection.
//!
//! `?from=N` (or the `Last-Event-ID` a reconnecting browser sends) skips the first N entries.

use super::log::{LogCache, SharedLog};
use super::store::{FolderError, GameStatus, ResultsFolder, MAX_LOG_BYTES};
use super::{blocking_json, game_number, ApiError};
use actix_web::http::header;
use actix_web::http::StatusCode;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::sync::PoisonError;
use std::time::{Duration, Instant};

/// How often the log's length is checked.
pub const POLL: Duration = Duration::from_millis(100);
/// How often the game's status (from `results.json`) is checked.
const STATUS_EVERY: Duration = Duration::from_secs(1);
/// A comment is sent when nothing else was for this long.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// A log of a running game that has not grown for this long ends the stream.
pub const IDLE_LIMIT: Duration = Duration::from_secs(600);
/// An unrecorded log (no `results.json` to say the game is over) that has not grown for this
/// long ends the stream.
const UNRECORDED_IDLE: Duration = Duration::from_secs(30);

/// `?from=N`.
#[derive(Debug, Deserialize)]
pub(super) struct FollowQuery {
    from: Option<usize>,
}

#[derive(Serialize)]
struct EndEvent<'a> {
    status: GameStatus,
    reason: &'a str,
}

/// One follower's position in the log.
struct Tail {
    folder: web::Data<ResultsFolder>,
    run: String,
    game: u32,
    file: File,
    /// The game's log, shared with every other page on it.
    log: SharedLog,
    /// The log's generation when this follower started (see [`SharedLog`]).
    generation: u64,
    /// Whether hole cards are hidden until shown (the game may be in play).
    hide_cards: bool,
    status: GameStatus,
    /// The next entry to send (the page has those before).
    next: usize,
    last_growth: Instant,
    last_status: Instant,
    last_sent: Instant,
    done: bool,
}

/// What one step of a follower found.
enum FollowStep {
    /// A chunk's JSON.
    Chunk(Vec<u8>),
    Nothing,
    End(String),
}

impl Tail {
    /// Reads what was appended since the last step and takes what this follower has not
    /// sent (blocking: runs on the blocking pool).
    fn read_new(mut self) -> (Tail, FollowStep) {
        let step = {
            let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
            match log.refresh(&mut self.file, MAX_LOG_BYTES) {
                Err(message) => FollowStep::End(message),
                Ok(()) if log.generation() != self.generation => {
                    FollowStep::End("log.json was replaced; reload the page".to_string())
                }
                Ok(()) => match log.chunk_json(self.next, self.hide_cards) {
                    Ok(Some((json, end))) => {
                        self.next = end;
                        FollowStep::Chunk(json)
                    }
                    Ok(None) => FollowStep::Nothing,
                    Err(message) => FollowStep::End(message),
                },
            }
        };
        (self, step)
    }

    fn refresh_status(&mut self) {
        match self.folder.game_status(&self.run, self.game) {
            Ok(status) => self.status = status,
            Err(FolderError::NotFound(_)) => self.status = GameStatus::Unrecorded,
            Err(_) => {}
        }
        self.last_status = Instant::now();
    }

    /// Why to stop following, if the game is over.
    fn over(&self, nothing_new: bool) -> Option<String> {
        let idle = self.last_growth.elapsed();
        match self.status {
            GameStatus::Finished if nothing_new => Some("the game is over".to_string()),
            GameStatus::Interrupted if nothing_new => Some("the game was interrupted".to_string()),
            GameStatus::Unrecorded if nothing_new && idle >= UNRECORDED_IDLE => Some(format!(
                "log.json has not grown for {} s",
                UNRECORDED_IDLE.as_secs()
            )),
            _ if idle >= IDLE_LIMIT => Some(format!(
                "log.json has not grown for {} minutes",
                IDLE_LIMIT.as_secs() / 60
            )),
            _ => None,
        }
    }
}

fn event(name: &str, id: Option<usize>, data: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(data.len() + 48);
    out.extend_from_slice(b"event: ");
    out.extend_from_slice(name.as_bytes());
    out.push(b'\n');
    if let Some(id) = id {
        out.extend_from_slice(format!("id: {id}\n").as_bytes());
    }
    out.extend_from_slice(b"data: ");
    out.extend_from_slice(data);
    out.extend_from_slice(b"\n\n");
    Bytes::from(out)
}

fn end_event(status: GameStatus, reason: &str) -> Bytes {
    let data = serde_json::to_vec(&EndEvent { status, reason }).unwrap_or_default();
    event("end", None, &data)
}

/// One step of the stream: the next event to send, or `None` when it is over.
async fn next_event(mut tail: Tail) -> Option<(Result<Bytes, actix_web::Error>, Tail)> {
    loop {
        if tail.done {
            return None;
        }
        if tail.last_status.elapsed() >= STATUS_EVERY {
            tail.refresh_status();
        }
        let (back, step) = match web::block(move || tail.read_new()).await {
            Ok(pair) => pair,
            // The blocking pool is gone (the server is stopping).
            Err(_) => return None,
        };
        tail = back;
        match step {
            FollowStep::Chunk(data) => {
                tail.last_growth = Instant::now();
                tail.last_sent = Instant::now();
                return Some((Ok(event("entries", Some(tail.next), &data)), tail));
            }
            FollowStep::End(reason) => {
                tail.done = true;
                return Some((Ok(end_event(tail.status, &reason)), tail));
            }
            FollowStep::Nothing => {
                if let Some(reason) = tail.over(true) {
                    tail.done = true;
                    return Some((Ok(end_event(tail.status, &reason)), tail));
                }
                if tail.last_sent.elapsed() >= KEEP_ALIVE {
                    tail.last_sent = Instant::now();
                    return Some((Ok(Bytes::from_static(b": still here\n\n")), tail));
                }
                tokio::time::sleep(POLL).await;
            }
        }
    }
}

/// The `/log` handler: the viewer log ([`GameLog`](super::log::GameLog)), read through the
/// [`LogCache`], so every page on a game shares one reading of it.
pub(super) async fn game_log(
    folder: web::Data<ResultsFolder>,
    logs: web::Data<LogCache>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, game) = path.into_inner();
    let game = game_number(&game)?;
    blocking_json(folder, move |folder| {
        let (mut file, status) = folder.open_log(&id, game)?;
        let log = logs.game(&id, game);
        let mut log = log.lock().unwrap_or_else(PoisonError::into_inner);
        log.refresh(&mut file, MAX_LOG_BYTES)
            .map_err(FolderError::Unreadable)?;
        log.whole_json(status.hides_cards())
            .map_err(FolderError::Unreadable)
    })
    .await
}

/// The `/live` handler.
pub(super) async fn follow(
    folder: web::Data<ResultsFolder>,
    cache: web::Data<LogCache>,
    path: web::Path<(String, String)>,
    query: web::Query<FollowQuery>,
    request: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let (run, game) = path.into_inner();
    let game = game_number(&game)?;
    let resume = request
        .headers()
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<usize>().ok());
    let skip = resume.or(query.from).unwrap_or(0);
    let opened = {
        let folder = folder.clone();
        let run = run.clone();
        web::block(move || folder.open_log(&run, game))
            .await
            .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is busy"))??
    };
    let (file, status) = opened;
    let log = cache.game(&run, game);
    let generation = log
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .generation();
    let now = Instant::now();
    let tail = Tail {
        folder,
        run,
        game,
        file,
        log,
        generation,
        // A finished game is replayed whole; anything else may be in play.
        hide_cards: !matches!(status, GameStatus::Finished | GameStatus::Interrupted),
        status,
        next: skip,
        last_growth: now,
        last_status: now,
        last_sent: now,
        done: false,
    };
    let stream = futures_util::stream::unfold(tail, next_event);
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(stream))
}
