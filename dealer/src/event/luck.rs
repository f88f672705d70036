//! Every finished game's luck of the cards, by seat, in points (issue 32): what the board's
//! cards gave each seat beyond their expectation, by the arena's valuation
//! ([`engine::luck::LuckMeter`], the same figures to the bit), so that a team's points can be
//! read with the luck taken out.
//!
//! A game is valued from its compact record (`observe::compact`): the record replays the game
//! on the engine ([`crate::replay::play_compact`], nothing written), and its events feed one
//! meter that values every seat in one pass. The figures go beside the game's standings
//! (`standings.luck`, `games.luck`) in one transaction ([`EventStore::record_luck`]).
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
use super::store::{EventStore, LuckState, StoreError};
use super::Event;
use crate::engine::Game;
use crate::game_event::GameEvent;
use crate::observe::compact::CompactGame;
use crate::observe::Observer;
use crate::runner::StopSignal;
use ::engine::luck::LuckMeter;
use std::sync::Arc;

/// Feeds a replay's events to a meter.
struct Metered(LuckMeter);

impl Observer for Metered {
    fn on_event(&mut self, event: &GameEvent, _game: &Game) -> std::io::Result<()> {
        self.0.observe(event);
        Ok(())
    }
}

/// Every seat's luck in the game `compact` records, in points, by seat; why not when the
/// record does not replay to the game's end.
///
/// # Errors
/// The record's setup is refused, or it stops before the game's end.
pub fn value_record(compact: &CompactGame) -> Result<Vec<f64>, String> {
    let seats = compact.game.players.len();
    let mut meter = Metered(LuckMeter::all_seats(seats, compact.game.seed));
    match crate::replay::play_compact(compact, &mut meter) {
        Ok(Some(_)) => Ok(meter.0.lucks()),
        Ok(None) => Err("its record stops before the game's end".into()),
        Err(error) => Err(error.to_string()),
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
    let state = match value_record(&compact) {
        Ok(luck) => match store.record_luck(number, &luck) {
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
fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority takes no pointer; on Linux, PRIO_PROCESS with 0 is the calling
    // thread alone (the nice value is per thread).
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}
