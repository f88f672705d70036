//! `players/<name>.log`: for each player, every request the dealer sent and what came back,
//! so a team can debug their bot. Plain text, one block per request:
//!
//! ```text
//! # Lean Poker dealer: requests to "Team Stuttgart" (seat 5), game 5a099be0c4f0940004000100, tournament 59f783998508c00004000002
//! 2017-11-13T13:10:55.412345Z  round 0  check  status 200  1203 us  body ""
//! 2017-11-13T13:10:55.413580Z  round 0  version  status 200  803 us  body "Default Java folding player"
//!
//! == round 0: button 5, blinds 2/4, your stack 1000 ==
//! 2017-11-13T13:10:56.020000Z  round 0  bet_request  status 200  34746 us  body "1000"
//!     sent  {"tournament_id":"59f783998508c00004000002",...,"in_action":5,"minimum_raise":196,"bet_index":7}
//!     read  allin: answered 1000, put in 1000 (bet 1000, stack 0)
//! 2017-11-13T13:10:56.300000Z  round 0  showdown  status 200  512 us  body ""
//!     sent  {"tournament_id":"59f783998508c00004000002",...}
//! ```
//!
//! - Times are [`Exchange::sent_at`] in RFC 3339, UTC, microseconds (the epoch in
//!   reproducible runs); latencies are microseconds.
//! - A failed request reads `FAILED <reason>` instead of the status (`status` follows when a
//!   response head arrived), then the latency and the body, if any was read.
//! - An attempt that the HTTP client handed back unsent (the connection was found closed before
//!   a byte was written, so the request was sent again) has a line of its own before the
//!   request's line: `NOT SENT <reason>  (attempt 1 of 2, sent again)`. The player never saw it.
//! - Bodies are excerpts: quoted, escaped, cut after 64 bytes with the full length noted.
//! - `sent` is the exact `game_state` JSON sent (compact, one line).
//! - `read` is how the engine read a `bet_request` answer: the action, the number answered,
//!   the chips put in and the player's bet and stack afterwards; or `banned` with the chips
//!   that left the game; or `forgiven` with what the invalid answer counted as.
//!
//! File names come from player names made safe (see `file_stems`); the header line has the
//! exact name. Every file is flushed at the end of every hand.

use super::text::{file_stems, push_json_str, push_number, push_one_line, push_rfc3339};
use super::{Exchange, Observer};
use crate::engine::Game;
use crate::game_event::GameEvent;
use shared::protocol::excerpt;
use shared::Seat;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes one log per player. See the [module docs](self).
#[derive(Debug)]
pub struct PlayerLogs<W: Write> {
    /// One output per seat.
    files: Vec<W>,
    /// Text being written, reused.
    text: String,
    /// JSON being written, reused.
    json: Vec<u8>,
    /// Whether each seat's header line is written.
    headers: Vec<bool>,
    /// Each seat's `== round N ... ==` line, written before the seat's first line of the hand:
    /// a seat sent nothing in a hand (one sitting the game out) gets no empty heading.
    round_headings: Vec<String>,
}

impl PlayerLogs<BufWriter<File>> {
    /// Creates `<dir>/<name>.log` for every player (seat order), `dir` included.
    ///
    /// # Errors
    /// The directory or a file cannot be created.
    pub fn create<S: AsRef<str>>(dir: &Path, players: &[S]) -> io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        let files = PlayerLogs::paths(dir, players)
            .into_iter()
            .map(|path| Ok(BufWriter::with_capacity(16 * 1024, File::create(path)?)))
            .collect::<io::Result<Vec<_>>>()?;
        Ok(PlayerLogs::new(files))
    }

    /// The file each player's log is written to, in seat order: safe, unique names.
    pub fn paths<S: AsRef<str>>(dir: &Path, players: &[S]) -> Vec<PathBuf> {
        file_stems(players)
            .into_iter()
            .map(|stem| dir.join(format!("{stem}.log")))
            .collect()
    }
}

impl<W: Write> PlayerLogs<W> {
    /// Logs written to `files`, one per seat in seat order.
    pub fn new(files: Vec<W>) -> Self {
        PlayerLogs {
            headers: vec![false; files.len()],
            round_headings: vec![String::new(); files.len()],
            files,
            text: String::with_capacity(256),
            json: Vec::with_capacity(4096),
        }
    }

    /// The outputs, in seat order.
    pub fn into_inner(self) -> Vec<W> {
        self.files
    }

    /// Appends `self.text` to `seat`'s log (after the hand's heading, the first time).
    fn write_text(&mut self, seat: Seat) -> io::Result<()> {
        self.write_round_heading(seat)?;
        match self.files.get_mut(seat.index()) {
            Some(file) => file.write_all(self.text.as_bytes()),
            None => Ok(()),
        }
    }

    /// Writes `seat`'s pending `== round N ==` heading, if any.
    fn write_round_heading(&mut self, seat: Seat) -> io::Result<()> {
        let (Some(heading), Some(file)) = (
            self.round_headings.get_mut(seat.index()),
            self.files.get_mut(seat.index()),
        ) else {
            return Ok(());
        };
        if !heading.is_empty() {
            file.write_all(heading.as_bytes())?;
            heading.clear();
        }
        Ok(())
    }

    fn flush_all(&mut self) -> io::Result<()> {
        for file in &mut self.files {
            file.flush()?;
        }
        Ok(())
    }

    /// Writes `seat`'s header line before its first line.
    fn ensure_header(&mut self, seat: Seat, game: &Game) -> io::Result<()> {
        match self.headers.get(seat.index()) {
            Some(false) => {}
            _ => return Ok(()),
        }
        self.headers[seat.index()] = true;
        let state = game.public_state();
        self.json.clear();
        push_json_str(&mut self.json, game.player_name(seat).unwrap_or_default());
        let mut header = String::with_capacity(160);
        let _ = writeln!(
            header,
            "# Lean Poker dealer: requests to {} (seat {seat}), game {}, tournament {}",
            String::from_utf8_lossy(&self.json),
            state.game_id.as_deref().unwrap_or("?"),
            state.tournament_id.as_deref().unwrap_or("?"),
        );
        match self.files.get_mut(seat.index()) {
            Some(file) => file.write_all(header.as_bytes()),
            None => Ok(()),
        }
    }

    fn exchange(&mut self, exchange: &Exchange<'_>, game: &Game) -> io::Result<()> {
        self.ensure_header(exchange.seat, game)?;
        self.unsent_attempts(exchange)?;
        let text = &mut self.text;
        push_line_start(text, exchange);
        match (exchange.failure, exchange.status) {
            (Some(failure), status) => {
                text.push_str("FAILED ");
                // Reasons are one line already; keep the log's structure whatever happens.
                push_one_line(text, &failure.to_string());
                if let Some(status) = status {
                    text.push_str("  status ");
                    push_number(text, u64::from(status));
                }
            }
            (None, Some(status)) => {
                text.push_str("status ");
                push_number(text, u64::from(status));
            }
            (None, None) => text.push_str("ok (in-process)"),
        }
        text.push_str("  ");
        push_number(text, exchange.latency_us());
        text.push_str(" us");
        if let Some(body) = exchange.body {
            text.push_str("  body ");
            text.push_str(&excerpt(body));
        }
        text.push('\n');
        if exchange.action.has_game_state() {
            text.push_str("    sent  ");
        }
        self.write_text(exchange.seat)?;
        if !exchange.action.has_game_state() {
            return Ok(());
        }
        let Some(file) = self.files.get_mut(exchange.seat.index()) else {
            return Ok(());
        };
        match (exchange.sent_json, exchange.state) {
            // Compact JSON never has a line break; keep the log line-based whatever comes.
            (Some(json), _) if memchr::memchr2(b'\n', b'\r', json.as_bytes()).is_none() => {
                file.write_all(json.as_bytes())?
            }
            (Some(json), _) => file.write_all(json.replace(['\n', '\r'], " ").as_bytes())?,
            (None, Some(state)) => {
                self.json.clear();
                state.write_json(&mut self.json);
                file.write_all(&self.json)?;
            }
            (None, None) => file.write_all(b"(not recorded)")?,
        }
        file.write_all(b"\n")
    }

    /// One line per attempt of `exchange` that never went out, oldest first.
    fn unsent_attempts(&mut self, exchange: &Exchange<'_>) -> io::Result<()> {
        let attempts = exchange.unsent_attempts.len() + 1;
        for (index, failure) in exchange.unsent_attempts.iter().enumerate() {
            let text = &mut self.text;
            push_line_start(text, exchange);
            text.push_str("NOT SENT ");
            push_one_line(text, &failure.to_string());
            let _ = writeln!(text, "  (attempt {} of {attempts}, sent again)", index + 1);
            self.write_text(exchange.seat)?;
        }
        Ok(())
    }

    fn hand_started(&mut self, event: &GameEvent, game: &Game) -> io::Result<()> {
        let GameEvent::HandStarted {
            round,
            button,
            small_blind,
            big_blind,
            stacks,
            ..
        } = event
        else {
            return Ok(());
        };
        for (index, stack) in stacks.iter().enumerate() {
            self.ensure_header(Seat(index), game)?;
            if let Some(heading) = self.round_headings.get_mut(index) {
                heading.clear();
                let _ = writeln!(
                    heading,
                    "\n== round {round}: button {button}, blinds {small_blind}/{big_blind}, your stack {stack} =="
                );
            }
        }
        Ok(())
    }

    /// The engine's reading of an answer, and eliminations, in the player's log.
    fn reading(&mut self, event: &GameEvent, game: &Game) -> io::Result<()> {
        let text = &mut self.text;
        text.clear();
        let seat = match event {
            GameEvent::BetPlaced {
                seat,
                action,
                answer,
                put_in,
                bet_after,
                stack_after,
                ..
            } => {
                // One line per answer: numbers by `push_number`, not through `write!`.
                text.push_str("    read  ");
                text.push_str(action.as_str());
                text.push_str(": ");
                match answer {
                    Some(answer) => {
                        text.push_str("answered ");
                        push_number(text, answer.get());
                        text.push_str(", ");
                    }
                    None => text.push_str("invalid answer forgiven, "),
                }
                text.push_str("put in ");
                push_number(text, put_in.get());
                text.push_str(" (bet ");
                push_number(text, bet_after.get());
                text.push_str(", stack ");
                push_number(text, stack_after.get());
                text.push_str(")\n");
                *seat
            }
            GameEvent::AnswerForgiven {
                seat,
                reason,
                counted_as,
                ..
            } => {
                text.push_str("    read  forgiven (");
                push_one_line(text, reason);
                let _ = writeln!(text, "): counted as {counted_as}");
                *seat
            }
            GameEvent::Banned {
                seat,
                reason,
                chips_removed,
                ..
            } => {
                text.push_str("    read  banned (");
                push_one_line(text, reason);
                let _ = writeln!(text, "): {chips_removed} chips left the game");
                *seat
            }
            GameEvent::PlayerEliminated {
                seat, place, round, ..
            } => {
                let _ = writeln!(text, "== out in round {round}, place {place} ==");
                *seat
            }
            _ => return Ok(()),
        };
        self.ensure_header(seat, game)?;
        self.write_text(seat)
    }
}

impl<W: Write + Send> Observer for PlayerLogs<W> {
    fn wants_sent_json(&self) -> bool {
        true
    }

    fn on_event(&mut self, event: &GameEvent, game: &Game) -> io::Result<()> {
        match event {
            GameEvent::HandStarted { .. } => self.hand_started(event, game),
            GameEvent::HandEnded { .. } | GameEvent::GameEnded { .. } => self.flush_all(),
            _ => self.reading(event, game),
        }
    }

    fn on_exchange(&mut self, exchange: &Exchange<'_>, game: &Game) -> io::Result<()> {
        self.exchange(exchange, game)
    }

    fn finish(&mut self, _game: &Game) -> io::Result<()> {
        self.flush_all()
    }
}

/// Starts an exchange's line afresh: `<sent at>  round <n>  <action>  `, what every line about
/// a request begins with, sent or not.
fn push_line_start(text: &mut String, exchange: &Exchange<'_>) {
    text.clear();
    push_rfc3339(text, exchange.sent_at);
    text.push_str("  round ");
    push_number(text, exchange.round);
    text.push_str("  ");
    text.push_str(exchange.action.as_str());
    text.push_str("  ");
}
