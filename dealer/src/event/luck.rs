//! Every finished game's luck of the cards, by seat, in points (issue 32): what the board's
//! cards gave each seat beyond their expectation, by the arena's valuation
//! ([`engine::luck::LuckMeter`], the same figures to the bit), so that a team's points can be
//! read with the luck taken out.
//!
//! A game is valued from its compact record (`observe::compact`): the record replays the game
//! on the engine ([`crate::replay::play_compact`], nothing written), and its events feed one
//! meter that values every seat in one pass. The figures go beside the game's standings
//! (`standings.luck`, `games.luck`) in one transaction ([`EventStore::record_luck`]), with the
//! game's hands to look at from the same pass ([`engine::luck::HandLedger`]): each seat's
//! [`COSTLY_HANDS_KEPT`] costliest hands with the luck taken out and every answer the dealer
//! read differently than it says, forgiven, timed out or banned (`hand_notes`).
//!
//! **Never on a round's path.** One thread of its own ([`spawn_valuer`]), at the lowest CPU
//! priority where the OS has one (Linux: nice 19, per thread), values the games still to value,
//! oldest first, one at a time, and sleeps until the scheduler says a round ended. A round
//! never waits for it; a game recorded while it works waits for the next turn.
//!
//! **Resumable.** The games to value are the finished ones whose `games.luck` is NULL: a new
//! game, every game of an event upgraded from a dealer without luck (back-filled on start),
//! and the game a `kill -9` cut off mid-valuation (its transaction never committed). A game
//! that cannot be valued says so and counts raw: `no_record` (recorded by a dealer from before
//! records; valued after all if its record is made later from its files) or `unreplayable`
//! (the record stops before the game's end).

use super::archive;
use super::store::{EventStore, HandNote, HandNoteKind, LuckState, StoreError, GAMES_DIR};
use super::Event;
use crate::engine::Game;
use crate::game_event::GameEvent;
use crate::observe::compact::CompactGame;
use crate::observe::Observer;
use crate::runner::StopSignal;
use ::engine::luck::{Decision, HandLedger, NoteKind, SeatHand};
use shared::{Card, Chips};
use std::sync::Arc;

/// The costliest hands kept per seat and game (with the luck taken out): a team's worst hands
/// of a version are then the worst of these, whatever the number asked, up to this many per
/// game.
pub const COSTLY_HANDS_KEPT: usize = 3;

/// Feeds a replay's events to a ledger (and its meter).
struct Metered(HandLedger);

impl Observer for Metered {
    fn on_event(&mut self, event: &GameEvent, _game: &Game) -> std::io::Result<()> {
        self.0.observe(event);
        Ok(())
    }
}

/// A game's valuation: every seat's luck and its hands to look at.
#[derive(Debug, Clone, PartialEq)]
pub struct Valuation {
    /// Every seat's luck in points, by seat.
    pub luck: Vec<f64>,
    /// Each seat's [`COSTLY_HANDS_KEPT`] costliest hands (with a positive cost) and every
    /// answer worth a second look, numbered as game `0` (the store writes the game's number).
    pub notes: Vec<HandNote>,
}

/// Every seat's luck in the game `compact` records and its hands to look at, from one pass of
/// the meter; why not when the record does not replay to the game's end.
///
/// # Errors
/// The record's setup is refused, or it stops before the game's end.
pub fn value_game(compact: &CompactGame) -> Result<Valuation, String> {
    let seats = compact.game.players.len();
    let mut ledger = Metered(HandLedger::all_seats(seats, compact.game.seed));
    match crate::replay::play_compact(compact, &mut ledger) {
        Ok(Some(_)) => Ok(Valuation {
            luck: ledger.0.meter().lucks(),
            notes: notes_of(&ledger.0),
        }),
        Ok(None) => Err("its record stops before the game's end".into()),
        Err(error) => Err(error.to_string()),
    }
}

/// Whether a reason a seat reported is a timeout (`SeatFailure::Timeout` and
/// `SeatFailure::ConnectTimeout` as written in events).
pub fn is_timeout(reason: &str) -> bool {
    reason.starts_with("timeout after ") || reason.starts_with("connect timeout after ")
}

/// A ledger's notes as stored: each seat's costliest hands, then its answers.
fn notes_of(ledger: &HandLedger) -> Vec<HandNote> {
    let hands = ledger.hands();
    let mut notes = Vec::new();
    let mut seats: Vec<usize> = hands.iter().map(|hand| hand.seat).collect();
    seats.sort_unstable();
    seats.dedup();
    for seat in seats {
        let mut costly: Vec<&SeatHand> = hands
            .iter()
            .filter(|hand| hand.seat == seat && hand.cost() > 0.0 && hand.cost().is_finite())
            .collect();
        costly.sort_by(|a, b| b.cost().total_cmp(&a.cost()).then(a.round.cmp(&b.round)));
        for hand in costly.into_iter().take(COSTLY_HANDS_KEPT) {
            notes.push(note(
                HandNoteKind::Costly,
                hand.seat,
                hand.round,
                Some(hand),
                &hand.hole,
                &hand.board,
                hand.decision.as_ref(),
                None,
            ));
        }
    }
    for answer in ledger.notes() {
        let reason = answer.reason.as_deref();
        let kind = match answer.kind {
            NoteKind::Misread => HandNoteKind::Misread,
            NoteKind::Forgiven if reason.is_some_and(is_timeout) => HandNoteKind::Timeout,
            NoteKind::Forgiven => HandNoteKind::Forgiven,
            NoteKind::Banned => HandNoteKind::Banned,
        };
        let hand = hands
            .iter()
            .find(|hand| hand.round == answer.round && hand.seat == answer.seat);
        notes.push(note(
            kind,
            answer.seat,
            answer.round,
            hand,
            &answer.hole,
            &answer.board,
            Some(&answer.decision),
            reason,
        ));
    }
    notes
}

#[allow(clippy::too_many_arguments)] // One row's columns, named at the two calls.
fn note(
    kind: HandNoteKind,
    seat: usize,
    round: u64,
    hand: Option<&SeatHand>,
    hole: &[Card],
    board: &[Card],
    decision: Option<&Decision>,
    reason: Option<&str>,
) -> HandNote {
    let cards = |cards: &[Card]| {
        cards
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    HandNote {
        game: 0,
        run: GAMES_DIR,
        seat,
        round,
        kind,
        cost: hand.map(SeatHand::cost),
        luck: hand.map(|hand| hand.luck),
        hole: cards(hole),
        board: cards(board),
        street: decision.map(|d| d.street.as_str().to_owned()),
        price: decision.map(|d| d.price.get()),
        pot: decision.map(|d| d.pot_before.get()),
        answer: decision.and_then(|d| d.answer.map(Chips::get)),
        action: decision.map(|d| d.action.as_str().to_owned()),
        put_in: decision.map(|d| d.put_in.get()),
        reason: reason.map(str::to_owned),
    }
}

/// Values the oldest finished game not valued yet and records what came of it. `None` when
/// no game waits.
///
/// # Errors
/// The database cannot be read or written (the game stays to value).
pub fn value_next(store: &EventStore) -> Result<Option<(u32, LuckState)>, StoreError> {
    let Some(number) = store.next_unvalued_game()? else {
        return Ok(None);
    };
    let compact = match archive::compact_game(store, number) {
        Ok(compact) => compact,
        Err(StoreError::Record { reason, .. }) => {
            tracing::warn!(game = number, %reason, "luck: the game's record is damaged; it counts raw");
            store.record_no_luck(number, LuckState::Unreplayable)?;
            return Ok(Some((number, LuckState::Unreplayable)));
        }
        Err(other) => return Err(other),
    };
    let Some(compact) = compact else {
        store.record_no_luck(number, LuckState::NoRecord)?;
        return Ok(Some((number, LuckState::NoRecord)));
    };
    let state = match value_game(&compact) {
        Ok(valuation) => match store.record_luck(number, &valuation.luck, &valuation.notes) {
            Ok(()) => LuckState::Valued,
            Err(StoreError::Record { reason, .. }) => {
                tracing::warn!(game = number, %reason, "luck: the game cannot be valued; it counts raw");
                store.record_no_luck(number, LuckState::Unreplayable)?;
                LuckState::Unreplayable
            }
            Err(other) => return Err(other),
        },
        Err(reason) => {
            tracing::warn!(game = number, %reason, "luck: the game cannot be valued; it counts raw");
            store.record_no_luck(number, LuckState::Unreplayable)?;
            LuckState::Unreplayable
        }
    };
    Ok(Some((number, state)))
}

/// Values every game waiting, oldest first, until none is left or `stop`. Returns how many
/// were valued (or marked not valuable).
///
/// # Errors
/// The database cannot be read or written: the games left stay to value.
pub fn value_waiting(store: &EventStore, stop: &StopSignal) -> Result<u64, StoreError> {
    let mut done = 0;
    while !stop.is_stopped() {
        if value_next(store)?.is_none() {
            break;
        }
        done += 1;
    }
    Ok(done)
}

/// Starts the valuer on a thread of its own (at the lowest priority), which values the games
/// waiting, then again after every round, until `stop`. Call it within the tokio runtime the
/// scheduler runs on (the thread waits for its rounds there); join the thread after the
/// scheduler stopped: it stops after the game it is valuing.
///
/// # Errors
/// The OS refuses a thread.
pub fn spawn_valuer(
    event: Arc<Event>,
    stop: StopSignal,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    let runtime = tokio::runtime::Handle::current();
    std::thread::Builder::new()
        .name("event-luck".into())
        .spawn(move || {
            lower_this_threads_priority();
            while !stop.is_stopped() {
                match value_waiting(event.store(), &stop) {
                    Ok(0) => {}
                    Ok(games) => tracing::debug!(games, "luck: games valued"),
                    Err(error) => {
                        tracing::warn!(%error, "luck: valuing stopped; retried after the next round");
                    }
                }
                runtime.block_on(async {
                    tokio::select! {
                        _ = event.luck_wanted.notified() => {}
                        _ = stop.stopped() => {}
                    }
                });
            }
        })
}

/// The calling thread at the lowest CPU priority: the games and the page come first.
pub(crate) fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority takes no pointer; on Linux, PRIO_PROCESS with 0 is the calling
    // thread alone (the nice value is per thread).
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}
