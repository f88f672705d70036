//! `GET /api/runs/{run}/games/{n}/live`: a game followed as it is played, as server-sent
//! events.
//!
//! The stream tails the game's `log.json` (data flows one way: engine → observer → file →
//! page; the server never talks to the game). Every [`POLL`] it checks the file's length and
//! sends the entries completed since the last look:
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

use super::log::{CardHider, LogChunk, LogReader};
use super::store::{GameStatus, ResultsFolder, StoreError};
use super::{game_number, ApiError};
use actix_web::http::header;
use actix_web::http::StatusCode;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
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
/// The most read from the log in one step (a follower that starts at entry 0 of a long
/// game gets it in pieces).
const READ_STEP: u64 = 4 * 1024 * 1024;

/// `?from=N`.
#[derive(Debug, Deserialize)]
pub(super) struct LiveQuery {
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
    file: Option<File>,
    reader: LogReader,
    hider: Option<CardHider>,
    status: GameStatus,
    /// Entries before this index are not sent (the page has them).
    skip: usize,
    /// The file's length at the last read.
    seen_length: u64,
    last_growth: Instant,
    last_status: Instant,
    last_sent: Instant,
    done: bool,
}

/// What one step of a follower found.
enum Step {
    Chunk(LogChunk),
    Nothing,
    End(String),
}

impl Tail {
    /// Reads what was appended since the last step (blocking: runs on the blocking pool).
    fn read_new(mut self) -> (Tail, Step) {
        let Some(file) = self.file.as_mut() else {
            return (self, Step::End("the log is closed".to_string()));
        };
        let length = match file.metadata() {
            Ok(meta) => meta.len(),
            Err(error) => return (self, Step::End(format!("cannot read log.json: {error}"))),
        };
        let offset = self.reader.offset();
        if length < offset {
            return (
                self,
                Step::End("log.json was replaced; reload the page".to_string()),
            );
        }
        if length == offset || length == self.seen_length {
            return (self, Step::Nothing);
        }
        self.seen_length = length;
        let mut bytes = Vec::new();
        let read = file
            .seek(SeekFrom::Start(offset))
            .and_then(|_| file.take(READ_STEP).read_to_end(&mut bytes));
        if let Err(error) = read {
            return (self, Step::End(format!("cannot read log.json: {error}")));
        }
        match self.reader.feed(&bytes) {
            Ok(mut chunk) => {
                if let Some(hider) = self.hider.as_mut() {
                    hider.hide_chunk(&mut chunk.entries, chunk.first, &chunk.hands);
                }
                // Drop what the page already has.
                if chunk.first < self.skip {
                    let drop = (self.skip - chunk.first).min(chunk.entries.len());
                    chunk.entries.drain(..drop);
                    chunk.first += drop;
                    chunk.hands.retain(|hand| hand.entry >= self.skip);
                    chunk.bans.retain(|ban| ban.entry >= self.skip);
                }
                if chunk.entries.is_empty() {
                    (self, Step::Nothing)
                } else {
                    (self, Step::Chunk(chunk))
                }
            }
            Err(message) => (self, Step::End(message)),
        }
    }

    fn refresh_status(&mut self) {
        match self.folder.game_status(&self.run, self.game) {
            Ok(status) => self.status = status,
            Err(StoreError::NotFound(_)) => self.status = GameStatus::Unrecorded,
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
            Step::Chunk(chunk) => {
                tail.last_growth = Instant::now();
                let id = chunk.first + chunk.entries.len();
                let data = serde_json::to_vec(&chunk).unwrap_or_default();
                tail.last_sent = Instant::now();
                return Some((Ok(event("entries", Some(id), &data)), tail));
            }
            Step::End(reason) => {
                tail.done = true;
                return Some((Ok(end_event(tail.status, &reason)), tail));
            }
            Step::Nothing => {
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

/// The handler.
pub(super) async fn live(
    folder: web::Data<ResultsFolder>,
    path: web::Path<(String, String)>,
    query: web::Query<LiveQuery>,
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
    let now = Instant::now();
    let tail = Tail {
        folder,
        run,
        game,
        file: Some(file),
        reader: LogReader::new(),
        // A finished game is replayed whole; anything else may be in play.
        hider: (!matches!(status, GameStatus::Finished | GameStatus::Interrupted))
            .then(CardHider::new),
        status,
        skip,
        seen_length: 0,
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
