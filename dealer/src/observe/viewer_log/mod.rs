//! `log.json`: the Lean Poker viewer log (spec §8), entry for entry in the live server's
//! format.
//!
//! The file is a JSON array of entries, written as the game goes (one entry in memory at a
//! time). The format was taken from a complete log of a live game (`temp3.json` in
//! `green-tree/poker-player-nobrainers`, 967 entries, 57 hands) and the open-source croupier's
//! message texts; `dealer/tests/observe_viewer_log.rs` compares our entries with real ones
//! byte for byte.
//!
//! # Entries
//!
//! The entry's keys are defined once, by [`shared::records::ViewerLogEntry`] (the writer below
//! builds the same bytes by hand; `dealer/tests/observe_records.rs` checks them). Keys in
//! this order; `game_state` is the whole table with **every** player's hole cards
//! (`[]` when none) and without `in_action`, `minimum_raise` and `bet_index`:
//!
//! | when | entry |
//! |---|---|
//! | a hand starts | `{"game_state":...}` only: nobody holds cards, bets and pot are 0, statuses reset |
//! | each hole card, in deal order | `{"type":"card_deal","message":"Tooling received hole_card 9 of Clubs",...}` |
//! | each blind | `{"type":"bet","on_turn":1,"message":"The QST Brothers made a bet of 4 (raise) and is left with 996 chips. The pot now contains 6 chips.",...}`: a blind is a `raise`, or `allin` when it empties the stack |
//! | each answer | the same `bet` entry with `fold`, `check`, `call`, `raise` or `allin`; the amount is the chips put in by this answer |
//! | each community card | `{"type":"card_deal","message":"community card Queen of Clubs",...}`, also for a board dealt out after an early end |
//! | each revealed hand | `{"type":"showdown","message":"veithGolang showed Queen of Clubs,Queen of Spades,King of Hearts,King of Spades,King of Diamonds making a full house",...}`: bets and pot before the payout |
//! | each winner of each pot | `{"type":"winner_announcement","message":"veithGolang won 4202",...}`: the state after the payout (`amount_won` on winners, busted players `out`) |
//!
//! Cards are named `2`..`10`, `Jack`, `Queen`, `King`, `Ace` `of` `Hearts`/`Diamonds`/
//! `Spades`/`Clubs`. Hand names are the ranking gem's: `high card`, `pair`, `two pairs`,
//! `three of a kind`, `straight`, `flush`, `full house`, `four of a kind`, `straight flush`.
//!
//! # Reproduced quirks of the live log
//!
//! - In a `fold` entry the folder is still `active` (the live server applies the fold after
//!   logging it); the next entry shows `folded`.
//! - Folded players stay `folded` in the winner announcements; the next hand's first entry
//!   resets them.
//! - A hand won without a contest has no `showdown` entry, only the board dealt out and
//!   `NAME won N`, where N includes the winner's own uncalled bet (`amount_won`, gross).
//! - The file has no trailing newline.
//!
//! # Decisions where the live log shows nothing (guesses)
//!
//! - **Revealed cards**: the five cards that make the hand, ascending by rank (ace high, also
//!   in a wheel), cards of equal rank in the order hole cards then board (that is what every
//!   live entry we saw shows). When several cards of one rank could play (a kicker pair on
//!   the board), which one is named is the evaluator's choice.
//! - **Several winners of one pot** (split pots): one announcement per winner in examination
//!   order, each showing the state as the open-source croupier had it at that moment: the
//!   pot already taken, the later winners not yet paid. The odd-chip rule is ours (spec §5).
//! - **Side pots**: one announcement per winner per pot, in pot order; a hand is revealed once
//!   per hand (the engine's reveal rule), where the open-source croupier may show it again
//!   when the next pot is examined.
//! - **Bans** (not seen in any live log; chips simply vanish there): a `bet` entry for the
//!   banned player's turn, written as a fold of 0, showing the state after the ban (status
//!   `out`, stack and bet 0, the pot without their chips), with the reason appended:
//!   `NAME made a bet of 0 (fold) and is left with 0 chips. The pot now contains 30 chips.
//!   Banned: timeout after 2000 ms; 990 chips left the game.` A parser of the usual message
//!   still matches its beginning.
//! - **Forgiven answers** (forgiving mode, not a live mode): logged as the check or fold they
//!   counted as, with no mark (the reason is in `requests.jsonl` and the player's log).
//! - **Chips returned after a ban** (no contender left for them): `NAME won N`, as they count
//!   in `amount_won`.
//!
//! # Crashes
//!
//! Entries are buffered and the file is flushed at the end of every hand with the closing `]`
//! in place, which the next entry overwrites: after every completed hand the file is a valid
//! JSON array of everything logged so far. A crash in the middle of a hand leaves the
//! complete hands intact; cut the text after the last complete entry and add `]` to read it.
//! A game watched live ([`LogFlush::Followed`]: `dealer run --live`, an event's games) is
//! also flushed at most [`FOLLOWED_FLUSH`] after every entry (without the `]`), by a thread
//! of its own, so a follower (the web viewer's `/live`) sees each action within that time
//! and a fast game does a few writes a second, not one per entry (see [`mod@file`]).
//!
//! The code is split by job: this file writes entries and follows the events; `entries`
//! words the messages; [`mod@file`] is the file and its flush policy.

mod entries;
pub mod file;

pub use file::{LogFile, LogFlush, FOLLOWED_FLUSH};

use super::text::push_json_str;
use super::Observer;
use crate::engine::{Game, View};
use crate::game_event::GameEvent;
use shared::records::EntryKind;
use shared::state::JsonWriter;
use shared::{BetAction, Chips, GameState, PlayerStatus, Seat};
use std::fmt::Write as _;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;

/// Writes `log.json`. See the [module docs](self).
#[derive(Debug)]
pub struct ViewerLog<W: Write + Seek> {
    out: W,
    /// Entries written so far.
    entries: u64,
    /// The output currently ends with the closing `]`.
    closed: bool,
    /// One entry's JSON, reused.
    entry: Vec<u8>,
    /// One message, reused.
    message: String,
    /// The table of the current entry ([`View::Viewer`]), rendered into again and again.
    state: Option<GameState>,
    /// Writes each entry's table, reusing the text of the players unchanged since the last.
    json: JsonWriter,
}

impl ViewerLog<LogFile> {
    /// Creates (or truncates) the log file at `path` and writes the opening `[`.
    ///
    /// # Errors
    /// The file cannot be created or written.
    pub fn create(path: &Path) -> io::Result<Self> {
        ViewerLog::create_flushed(path, LogFlush::EveryHand)
    }

    /// Like [`ViewerLog::create`], flushed as `flush` says.
    ///
    /// # Errors
    /// The file cannot be created or written, or its flusher thread cannot be started.
    pub fn create_flushed(path: &Path, flush: LogFlush) -> io::Result<Self> {
        ViewerLog::new(LogFile::create(path, flush)?)
    }
}

impl<W: Write + Seek> ViewerLog<W> {
    /// A log written to `out` (positioned at its start); writes the opening `[`.
    ///
    /// # Errors
    /// Writing to `out` failed.
    pub fn new(mut out: W) -> io::Result<Self> {
        out.write_all(b"[")?;
        Ok(ViewerLog {
            out,
            entries: 0,
            closed: false,
            entry: Vec::with_capacity(4096),
            message: String::with_capacity(160),
            state: None,
            json: JsonWriter::new(),
        })
    }

    /// The output, e.g. to read a log written to memory.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Appends the entry in `self.entry`.
    fn emit(&mut self) -> io::Result<()> {
        if self.closed {
            // Overwrite the `]` written at the last hand end.
            self.out.seek(SeekFrom::Current(-1))?;
            self.closed = false;
        }
        if self.entries > 0 {
            self.out.write_all(b",")?;
        }
        self.out.write_all(&self.entry)?;
        self.entries += 1;
        Ok(())
    }

    /// Closes the array and flushes: the file is valid JSON from here on.
    fn checkpoint(&mut self) -> io::Result<()> {
        if !self.closed {
            self.out.write_all(b"]")?;
            self.closed = true;
        }
        self.out.flush()
    }

    /// Renders the viewer's table of this moment into the reused document and takes it out
    /// (give it back with `self.state = Some(..)` after writing).
    fn snapshot(&mut self, game: &Game) -> GameState {
        match self.state.take() {
            Some(mut state) => {
                // The viewer's table exists at every moment.
                let _ = game.render(View::Viewer, &mut state);
                state
            }
            None => game.viewer_state(),
        }
    }

    /// Builds and appends one entry from the table of this moment.
    fn write_snapshot(
        &mut self,
        kind: Option<EntryKind>,
        on_turn: Option<Seat>,
        game: &Game,
    ) -> io::Result<()> {
        let state = self.snapshot(game);
        let written = self.write_entry(kind, on_turn, &state);
        self.state = Some(state);
        written
    }

    /// Builds and appends one entry; `self.message` holds the message when `kind` is set.
    fn write_entry(
        &mut self,
        kind: Option<EntryKind>,
        on_turn: Option<Seat>,
        state: &GameState,
    ) -> io::Result<()> {
        self.entry.clear();
        self.entry.push(b'{');
        if let Some(kind) = kind {
            self.entry.extend_from_slice(b"\"type\":\"");
            self.entry.extend_from_slice(kind.as_str().as_bytes());
            self.entry.extend_from_slice(b"\",");
            if let Some(seat) = on_turn {
                // Writing into a Vec cannot fail.
                let _ = write!(self.entry, "\"on_turn\":{seat},");
            }
            self.entry.extend_from_slice(b"\"message\":");
            push_json_str(&mut self.entry, &self.message);
            self.entry.push(b',');
        }
        self.entry.extend_from_slice(b"\"game_state\":");
        self.json.write(state, &mut self.entry);
        self.entry.push(b'}');
        self.emit()
    }
}

impl<W: Write + Seek + Send> Observer for ViewerLog<W> {
    fn on_event(&mut self, event: &GameEvent, game: &Game) -> io::Result<()> {
        match event {
            GameEvent::HandStarted { .. } => self.write_snapshot(None, None, game)?,
            GameEvent::HoleCardDealt { seat, card } => self.card_deal(game, Some(*seat), *card)?,
            GameEvent::CommunityCardDealt { card, .. } => self.card_deal(game, None, *card)?,
            GameEvent::BlindPosted {
                seat,
                amount,
                all_in,
                pot_after,
                ..
            } => {
                let stack = game.stack(*seat).unwrap_or_default();
                let action = if *all_in {
                    BetAction::AllIn
                } else {
                    BetAction::Raise
                };
                let name = game.player_name(*seat).unwrap_or_default();
                self.bet_message(name, *amount, action.as_str(), stack, *pot_after);
                self.write_snapshot(Some(EntryKind::Bet), Some(*seat), game)?;
            }
            GameEvent::BetPlaced {
                seat,
                action,
                put_in,
                stack_after,
                pot_after,
                ..
            } => {
                let name = game.player_name(*seat).unwrap_or_default();
                self.bet_message(name, *put_in, action.as_str(), *stack_after, *pot_after);
                let mut state = self.snapshot(game);
                if *action == BetAction::Fold {
                    // LIVE logs the fold before applying it.
                    if let Some(player) = state.players.get_mut(seat.index()) {
                        player.status = PlayerStatus::Active;
                    }
                }
                let written = self.write_entry(Some(EntryKind::Bet), Some(*seat), &state);
                self.state = Some(state);
                written?;
            }
            GameEvent::Banned {
                seat,
                reason,
                chips_removed,
                pot_after,
                ..
            } => {
                let name = game.player_name(*seat).unwrap_or_default();
                self.bet_message(name, Chips::ZERO, "fold", Chips::ZERO, *pot_after);
                let _ = write!(
                    self.message,
                    " Banned: {reason}; {chips_removed} chips left the game."
                );
                self.write_snapshot(Some(EntryKind::Bet), Some(*seat), game)?;
            }
            GameEvent::HandRevealed {
                seat,
                cards,
                best_five,
                strength,
                ..
            } => self.showdown(game, *seat, *cards, best_five, strength.category())?,
            GameEvent::PotAwarded {
                eligible, shares, ..
            } => self.winners(game, eligible, shares)?,
            GameEvent::ChipsReturned { seat, amount } => {
                self.winner_message(game, *seat, *amount);
                self.write_snapshot(Some(EntryKind::WinnerAnnouncement), None, game)?;
            }
            GameEvent::HandEnded { .. } | GameEvent::GameEnded { .. } => self.checkpoint()?,
            GameEvent::GameStarted { .. }
            | GameEvent::AnswerForgiven { .. }
            | GameEvent::PlayerEliminated { .. } => {}
        }
        Ok(())
    }

    fn finish(&mut self, _game: &Game) -> io::Result<()> {
        self.checkpoint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_a_valid_array_after_every_hand() {
        let mut log = ViewerLog::new(io::Cursor::new(Vec::new())).unwrap();
        log.checkpoint().unwrap();
        assert_eq!(log.out.get_ref().as_slice(), b"[]");
        log.message.push('m');
        log.entry = b"{\"a\":1}".to_vec();
        log.emit().unwrap();
        log.checkpoint().unwrap();
        assert_eq!(log.out.get_ref().as_slice(), b"[{\"a\":1}]");
        log.entry = b"{\"b\":2}".to_vec();
        log.emit().unwrap();
        log.checkpoint().unwrap();
        log.checkpoint().unwrap();
        assert_eq!(log.out.get_ref().as_slice(), b"[{\"a\":1},{\"b\":2}]");
    }

    /// A `Cursor` that counts flushes.
    struct Flushes(io::Cursor<Vec<u8>>, usize);

    impl Write for Flushes {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.write(bytes)
        }
        fn flush(&mut self) -> io::Result<()> {
            self.1 += 1;
            Ok(())
        }
    }

    impl Seek for Flushes {
        fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
            self.0.seek(to)
        }
    }

    #[test]
    fn the_writer_flushes_only_at_hand_ends() {
        // Between hand ends a followed log is flushed by its file's thread (`file`), never by
        // the game's own writes.
        let mut log = ViewerLog::new(Flushes(io::Cursor::new(Vec::new()), 0)).unwrap();
        for entry in [&b"{\"a\":1}"[..], b"{\"b\":2}"] {
            log.entry = entry.to_vec();
            log.emit().unwrap();
        }
        assert_eq!(log.out.1, 0);
        log.checkpoint().unwrap();
        assert_eq!(log.out.1, 1, "at the hand end");
    }
}
