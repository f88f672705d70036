//! `requests.jsonl`: every `bet_request` of a game, one JSON object per line, in the order
//! asked. This is the recorded-game-state format the SDK's testing kit loads
//! (`player::testing::load`), so a team can replay the exact documents their bot saw.
//!
//! The format is defined once, by [`shared::records::RequestRecord`] (its docs list the keys,
//! in order, and what each holds). This writer builds the same bytes by hand, so that a line
//! costs one copy of the document (checked byte for byte against the record type by
//! `dealer/tests/observe_records.rs`):
//!
//! - `game_state` is exactly the document sent: [`Exchange::sent_json`] when the runner
//!   serialised it, else [`shared::GameState::write_json`] of [`Exchange::state`], which gives
//!   the same bytes (an HTTP seat sends the form encoding of exactly those bytes);
//! - an in-process player has no body: its valid answer is written as the number it
//!   returned, in digits;
//! - `unsent_attempts` is written only when the HTTP client handed the request back unsent
//!   before it went out (the connection was found closed first; see `seat/`), one reason per
//!   attempt, oldest first: the player never saw them;
//! - a line is written when the engine's reading of the answer arrives (the event that follows
//!   the exchange), and the file is flushed at the end of every hand.

use super::text::push_json_str;
use super::{Exchange, Observer};
use crate::engine::Game;
use crate::game_event::GameEvent;
use shared::protocol::Action;
use shared::records::RecordedAction;
use shared::{Chips, Seat};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// A `bet_request` exchange waiting for the engine's reading of the answer.
#[derive(Debug, Default)]
struct Pending {
    /// Whether the fields below hold a request.
    active: bool,
    round: u64,
    seat: Seat,
    /// The line up to and including `"answer":...,` and `"error":...,` when invalid.
    head: Vec<u8>,
    /// The body was read (so `answer` is already in `head`).
    has_body: bool,
    /// The reply was a failure.
    failed: bool,
    latency_us: u64,
    /// `,"unsent_attempts":[...]` when the request had unsent attempts, else empty.
    unsent_attempts: Vec<u8>,
}

/// Writes `requests.jsonl`. See the [module docs](self).
#[derive(Debug)]
pub struct RequestsLog<W: Write> {
    out: W,
    pending: Pending,
    /// The end of a line, reused.
    line: Vec<u8>,
}

impl RequestsLog<BufWriter<File>> {
    /// Creates (or truncates) the file at `path`.
    ///
    /// # Errors
    /// The file cannot be created.
    pub fn create(path: &Path) -> io::Result<Self> {
        Ok(RequestsLog::new(BufWriter::with_capacity(
            64 * 1024,
            File::create(path)?,
        )))
    }
}

impl<W: Write> RequestsLog<W> {
    /// A log written to `out`.
    pub fn new(out: W) -> Self {
        RequestsLog {
            out,
            pending: Pending::default(),
            line: Vec::with_capacity(4096),
        }
    }

    /// The output, e.g. to read a log written to memory.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Remembers a `bet_request` exchange until the engine reads its answer.
    fn hold(&mut self, exchange: &Exchange<'_>) -> io::Result<()> {
        if self.pending.active {
            // The previous request never got an answer applied (should not happen).
            self.write_pending(None, Chips::ZERO, None)?;
        }
        let pending = &mut self.pending;
        pending.active = true;
        pending.round = exchange.round;
        pending.seat = exchange.seat;
        pending.latency_us = exchange.latency_us();
        pending.failed = exchange.failure.is_some();
        pending.has_body = exchange.body.is_some();
        write_unsent_attempts(&mut pending.unsent_attempts, exchange);
        let head = &mut pending.head;
        head.clear();
        let _ = write!(head, "{{\"round\":{},\"player\":", exchange.round);
        push_json_str(head, exchange.player);
        let _ = write!(head, ",\"seat\":{},\"game_state\":", exchange.seat);
        match (exchange.sent_json, exchange.state) {
            (Some(json), _) if looks_like_object(json) => head.extend_from_slice(json.as_bytes()),
            (_, Some(state)) => state.write_json(head),
            (Some(json), None) => push_json_str(head, json),
            (None, None) => head.extend_from_slice(b"null"),
        }
        if let Some(body) = exchange.body {
            head.extend_from_slice(b",\"answer\":");
            push_json_str(head, &String::from_utf8_lossy(body));
        }
        if let Some(failure) = exchange.failure {
            if exchange.body.is_none() {
                head.extend_from_slice(b",\"answer\":null");
            }
            head.extend_from_slice(b",\"error\":");
            push_json_str(head, &failure.to_string());
        }
        Ok(())
    }

    /// Writes the held request with the engine's reading.
    fn write_pending(
        &mut self,
        action: Option<RecordedAction>,
        amount: Chips,
        answer: Option<Chips>,
    ) -> io::Result<()> {
        let pending = &mut self.pending;
        pending.active = false;
        self.out.write_all(&pending.head)?;
        let line = &mut self.line;
        line.clear();
        if !pending.has_body && !pending.failed {
            // In-process: no body; the number the player returned is the answer.
            match answer {
                Some(answer) => {
                    let _ = write!(line, ",\"answer\":\"{answer}\"");
                }
                None => line.extend_from_slice(b",\"answer\":null"),
            }
        }
        line.extend_from_slice(b",\"action\":");
        match action {
            Some(action) => {
                line.push(b'"');
                line.extend_from_slice(action.as_str().as_bytes());
                line.push(b'"');
            }
            None => line.extend_from_slice(b"null"),
        }
        let _ = write!(
            line,
            ",\"amount\":{amount},\"latency_us\":{}",
            pending.latency_us
        );
        line.extend_from_slice(&pending.unsent_attempts);
        line.extend_from_slice(b"}\n");
        self.out.write_all(line)
    }

    fn applies_to(&self, seat: Seat) -> bool {
        self.pending.active && self.pending.seat == seat
    }
}

/// `,"unsent_attempts":["reason",...]` into `out` (cleared first), only when there were any, so
/// that the lines of ordinary requests keep their bytes.
fn write_unsent_attempts(out: &mut Vec<u8>, exchange: &Exchange<'_>) {
    out.clear();
    for (index, failure) in exchange.unsent_attempts.iter().enumerate() {
        out.extend_from_slice(if index == 0 {
            b",\"unsent_attempts\":["
        } else {
            b","
        });
        push_json_str(out, &failure.to_string());
    }
    if !out.is_empty() {
        out.push(b']');
    }
}

/// Whether `json` can be embedded as an object as it is (the seat's own serialisation always
/// can; anything else is quoted as a string rather than corrupting the line).
fn looks_like_object(json: &str) -> bool {
    json.starts_with('{') && json.ends_with('}') && !json.contains('\n')
}

impl<W: Write + Send> Observer for RequestsLog<W> {
    fn on_event(&mut self, event: &GameEvent, _game: &Game) -> io::Result<()> {
        match event {
            GameEvent::BetPlaced {
                seat,
                action,
                put_in,
                answer,
                ..
            } if self.applies_to(*seat) => {
                self.write_pending(Some((*action).into()), *put_in, *answer)?;
            }
            GameEvent::Banned { seat, .. } if self.applies_to(*seat) => {
                self.write_pending(Some(RecordedAction::Banned), Chips::ZERO, None)?;
            }
            GameEvent::HandEnded { .. } | GameEvent::GameEnded { .. } => self.out.flush()?,
            _ => {}
        }
        Ok(())
    }

    fn on_exchange(&mut self, exchange: &Exchange<'_>, _game: &Game) -> io::Result<()> {
        if exchange.action == Action::BetRequest {
            self.hold(exchange)?;
        }
        Ok(())
    }

    fn wants_sent_json(&self) -> bool {
        true
    }

    fn finish(&mut self, _game: &Game) -> io::Result<()> {
        if self.pending.active {
            self.write_pending(None, Chips::ZERO, None)?;
        }
        self.out.flush()
    }
}
