//! `GET /api/event/hands`: the event's finished games as one gzip'd PHH file, streamed as the
//! records are replayed ([`crate::event::hand_histories`]), for anyone who can see the event
//! (no token; the organiser's `hand_histories = "off"` makes it 403).
//!
//! Parameters: `since=N` (games numbered above N), `player=NAME` and `version=TEXT` (repeated
//! for several); anything else is a 400 saying what is taken. The answer's headers say what it
//! holds before a byte of it comes: `Lean-Poker-Event` (the event's tournament id: another
//! event at the same address has another), `Lean-Poker-Games` (games in it),
//! `Lean-Poker-Last-Game` (the next `since`), `Lean-Poker-Games-Without-Record` (games left
//! out: recorded by a dealer from before records). At most [`DOWNLOADS_AT_ONCE`] answers are
//! written at a time; another request meanwhile gets a 503 with `Retry-After`.

use super::ApiError;
use crate::event::hand_histories::{select, write_games, HandHistoryQuery};
use crate::event::Event;
use actix_web::http::header::{self, ContentDisposition, DispositionParam, DispositionType};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use bytes::Bytes;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How many answers are written at once: each replays games on a thread of its own (at the
/// lowest priority), about a millisecond of CPU a game.
pub const DOWNLOADS_AT_ONCE: usize = 2;

/// Seconds a client refused for [`DOWNLOADS_AT_ONCE`] is told to wait.
pub const RETRY_AFTER_SECONDS: u64 = 5;

/// Compressed pieces waiting to be sent: the producer waits while the client reads.
const PIECES_IN_FLIGHT: usize = 4;

/// The answers being written, shared by every worker.
#[derive(Debug, Default)]
pub struct Downloads {
    running: Arc<AtomicUsize>,
}

/// One of the [`DOWNLOADS_AT_ONCE`], given back when dropped.
struct DownloadSlot(Arc<AtomicUsize>);

impl Drop for DownloadSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Downloads {
    fn take(&self) -> Option<DownloadSlot> {
        self.running
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |running| {
                (running < DOWNLOADS_AT_ONCE).then_some(running + 1)
            })
            .ok()
            .map(|_| DownloadSlot(Arc::clone(&self.running)))
    }
}

fn error(status: StatusCode, message: impl Into<String>) -> HttpResponse {
    actix_web::ResponseError::error_response(&ApiError::new(status, message))
}

/// `GET /api/event/hands`: see the [module docs](self).
pub(super) async fn hands(
    event: web::Data<Event>,
    downloads: web::Data<Downloads>,
    request: HttpRequest,
) -> HttpResponse {
    if !event.settings().hand_histories.served() {
        return error(
            StatusCode::FORBIDDEN,
            "the organiser turned this event's hand histories off (dealer serve \
             --hand-histories off, or hand_histories = \"off\" in its config)",
        );
    }
    let query = match HandHistoryQuery::parse(request.query_string()) {
        Ok(query) => query,
        Err(message) => return error(StatusCode::BAD_REQUEST, message),
    };
    let Some(slot) = downloads.take() else {
        let mut response = error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "{DOWNLOADS_AT_ONCE} downloads of hand histories are being written: try again \
                 in {RETRY_AFTER_SECONDS} s"
            ),
        );
        response.headers_mut().insert(
            header::RETRY_AFTER,
            header::HeaderValue::from(RETRY_AFTER_SECONDS),
        );
        return response;
    };
    let event = event.into_inner();
    let counted = {
        let event = Arc::clone(&event);
        let query = query.clone();
        web::block(move || select(event.store(), &query)).await
    };
    let selection = match counted {
        Ok(Ok(selection)) => selection,
        Ok(Err(failure)) => {
            tracing::error!(%failure, "event hand histories");
            return error(StatusCode::INTERNAL_SERVER_ERROR, failure.to_string());
        }
        Err(_) => return error(StatusCode::SERVICE_UNAVAILABLE, "the server is busy"),
    };
    let (pieces, received) =
        tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(PIECES_IN_FLIGHT);
    let tournament_id = event.status().tournament_id;
    let producer = {
        let query = query.clone();
        std::thread::Builder::new()
            .name("event-hands".into())
            .spawn(move || {
                let _slot = slot;
                crate::event::luck::lower_this_threads_priority();
                let started = Instant::now();
                let written = write_games(event.store(), &query, &selection, |piece| {
                    pieces.blocking_send(Ok(Bytes::from(piece))).is_ok()
                });
                match written {
                    Ok(sent) => tracing::info!(
                        since = query.since,
                        players = ?query.players,
                        versions = ?query.versions,
                        games = sent.games,
                        of = selection.games,
                        unreplayable = sent.unreplayable,
                        bytes = sent.bytes,
                        seconds = started.elapsed().as_secs_f64(),
                        complete = sent.complete,
                        "hand histories sent"
                    ),
                    Err(failure) => {
                        tracing::warn!(%failure, since = query.since, "hand histories cut");
                        let _ = pieces.blocking_send(Err(std::io::Error::other(failure)));
                    }
                }
            })
    };
    if let Err(failure) = producer {
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("cannot start writing the hand histories: {failure}"),
        );
    }
    let body = futures_util::stream::unfold(received, |mut received| async move {
        received.recv().await.map(|piece| (piece, received))
    });
    let last_game = selection.last_game.unwrap_or(query.since);
    HttpResponse::Ok()
        .content_type("application/gzip")
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(format!(
                "hands-after-{}.phhs.gz",
                query.since
            ))],
        })
        .insert_header(("Lean-Poker-Event", tournament_id))
        .insert_header(("Lean-Poker-Games", selection.games.to_string()))
        .insert_header(("Lean-Poker-Last-Game", last_game.to_string()))
        .insert_header((
            "Lean-Poker-Games-Without-Record",
            selection.without_record.to_string(),
        ))
        .streaming(body)
}
