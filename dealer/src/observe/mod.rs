//! Observers: every output of a game (viewer log, recorded requests, PHH hand histories,
//! per-player logs, progress) is one small [`Observer`] of a single stream, in the order things
//! happened:
//!
//! - [`GameEvent`]s from the engine, delivered at the moment they happen, so an observer can
//!   render [`View::Viewer`](crate::engine::View) (or read [`Game`]'s accessors) and get
//!   exactly the table of that moment; what happened is in the event itself (a reveal
//!   carries the five cards that play);
//! - [`Exchange`]s from the runner: one request sent to a player and what came back. For a
//!   `bet_request`, the exchange comes first and the engine's reading of the answer
//!   ([`GameEvent::BetPlaced`], [`GameEvent::Banned`] or [`GameEvent::AnswerForgiven`]) follows.
//!
//! Observers never change the game. An observer that fails (e.g. a full disk) is reported by
//! the runner and not called again; the game itself goes on.
//!
//! The per-game files, one observer each (created together by [`GameOutputs::create`]):
//!
//! - [`viewer_log`]: `log.json`, the Lean Poker viewer log, in the live server's format;
//! - [`requests`]: `requests.jsonl`, every `bet_request` as sent and answered (the SDK's
//!   testing kit loads it);
//! - [`phh`]: `hands/<round>.phh`, every hand as a PHH hand history (PokerKit reads it), or
//!   all in one `hands.phhs` when selected;
//! - [`player_log`]: `players/<name>.log`, every request per player, for teams to debug;
//! - [`decks`]: `decks.jsonl`, every hand's cards, to deal them again (`dealer run --decks`);
//! - [`game_record`]: `game.json`, the game's rules, seating, seed and versions, which with
//!   `decks.jsonl` and `requests.jsonl` is everything `dealer replay` needs.
//!
//! And one output that writes no file: [`compact`], an event game's compact record, built in
//! memory and kept in the event's database (everything above can be regenerated from it but
//! the players' logs).
//!
//! Each streams to a buffered file, flushes at least at every hand end, and never panics on
//! odd input. Given the same events and exchanges (times zeroed in reproducible runs), every
//! file is the same byte for byte. The runner serialises each exchange's document once, into
//! [`Exchange::sent_json`], when an observer [wants it](Observer::wants_sent_json), so no
//! observer serialises the same document again (and no one does when none wants it: an HTTP
//! seat writes the request body straight form-encoded, without the JSON text).

pub mod compact;
pub mod decks;
pub mod game_record;
pub mod outputs;
pub mod phh;
pub mod player_log;
pub mod requests;
mod text;
pub mod viewer_log;

pub use decks::{read_decks, DeckRecord, DecksFileError, DecksLog};
pub use game_record::{read_game_record, GameRecord, GameRecordLog};
pub use outputs::{GameOutputs, OutputSelection};
pub use phh::PhhHands;
pub use player_log::PlayerLogs;
pub use requests::RequestsLog;
pub use viewer_log::{LogFlush, ViewerLog};

use crate::engine::Game;
use crate::game_event::GameEvent;
use crate::seat::SeatFailure;
use shared::protocol::Action;
use shared::{GameState, Seat};
use std::io;
use std::time::{Duration, SystemTime};

/// One request sent to a player and the reply, as the runner saw it.
#[derive(Debug, Clone, Copy)]
pub struct Exchange<'a> {
    /// The hand the request belongs to (the upcoming first hand for `check`/`version` sent
    /// before it starts).
    pub round: u64,
    /// The player's seat.
    pub seat: Seat,
    /// The player's name.
    pub player: &'a str,
    /// Which request.
    pub action: Action,
    /// When the request was sent (wall clock; [`std::time::UNIX_EPOCH`] in reproducible
    /// runs, so logs are byte for byte the same for the same seed).
    pub sent_at: SystemTime,
    /// The document sent with `bet_request` and `showdown`.
    pub state: Option<&'a GameState>,
    /// The document's exact JSON text, rendered once by the runner when an observer
    /// [wants it](Observer::wants_sent_json) (an HTTP seat sent the form encoding of these
    /// bytes). When `None` and `state` is `Some`, [`GameState::to_json`] gives the same bytes.
    pub sent_json: Option<&'a str>,
    /// The HTTP status, when a response head arrived (`None` in-process).
    pub status: Option<u16>,
    /// The raw body received (at most the seat's body cap); `None` when no body was read.
    pub body: Option<&'a [u8]>,
    /// From sending to the end of the reply (zero in reproducible runs).
    pub latency: Duration,
    /// Why the reply is not a valid answer; `None` when it is.
    pub failure: Option<&'a SeatFailure>,
    /// Earlier attempts of this same request that the HTTP client handed back unsent, oldest
    /// first, with why each failed ([`crate::seat::Reply::unsent_attempts`]): the player never
    /// saw them, but every attempt is logged. Almost always empty.
    pub unsent_attempts: &'a [SeatFailure],
}

impl Exchange<'_> {
    /// The latency in whole microseconds, the unit of `time_used` and `latency_us`.
    pub fn latency_us(&self) -> u64 {
        u64::try_from(self.latency.as_micros()).unwrap_or(u64::MAX)
    }
}

/// One output of a game. All methods default to doing nothing, so an observer implements only
/// what it reads.
pub trait Observer: Send {
    /// The engine emitted `event`; `game` already reflects it.
    ///
    /// # Errors
    /// An I/O error writing the output; the runner reports it and stops calling this observer.
    fn on_event(&mut self, event: &GameEvent, game: &Game) -> io::Result<()> {
        let _ = (event, game);
        Ok(())
    }

    /// The runner exchanged one request with a player.
    ///
    /// # Errors
    /// As [`Observer::on_event`].
    fn on_exchange(&mut self, exchange: &Exchange<'_>, game: &Game) -> io::Result<()> {
        let _ = (exchange, game);
        Ok(())
    }

    /// Whether this observer writes an exchange's document as JSON text. When one does, the
    /// runner fills [`Exchange::sent_json`] for every exchange with a document (serialising
    /// it once, for every observer).
    fn wants_sent_json(&self) -> bool {
        false
    }

    /// The game is over (or was abandoned): write what is left and flush.
    ///
    /// # Errors
    /// As [`Observer::on_event`].
    fn finish(&mut self, game: &Game) -> io::Result<()> {
        let _ = game;
        Ok(())
    }
}
