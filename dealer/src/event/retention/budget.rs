//! What the disk budget holds back for the games in play, the smallest budget an event can
//! keep to, and what the budget forced (the page and `/api/event` show it).
//!
//! The budget covers everything in the event's folder, the games being played included. Their
//! files grow during a round and cannot be thinned, so retention keeps the rest (the ended
//! games' files, the database and the reserve) within the budget less the **in-play
//! allowance**: the tables of a round times the largest game folder this event has written
//! (measured when each game ends, kept in the database's `meta`). The folder then exceeds the
//! budget only when a game writes more than any before it, by that excess, and by what the
//! database writes between two passes (a few KB a game: its log already counts at its limit).

use super::{database_usage, RetentionError, BUDGET_HEADROOM};
use crate::event::seating::split_tables;
use crate::event::space::RESERVE_BYTES;
use crate::event::store::{EventStore, StoreError};
use crate::event::Event;
use serde::Serialize;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a game in play is assumed to write per seat before this event has measured one: a
/// six-player game's full files take 4-9 MB (`dealer/benches/event_disk.py`).
pub const GAME_BYTES_PER_SEAT: u64 = 1_500_000;

const LARGEST_GAME_KEY: &str = "largest_game_bytes";
const COMPRESSED_EARLY_KEY: &str = "budget_compressed_early";
const DROPPED_EARLY_KEY: &str = "budget_dropped_early";

/// The budget's figures an event keeps while it runs.
#[derive(Debug, Default)]
pub struct BudgetState {
    /// The tables of the last round started.
    round_tables: AtomicU64,
    /// The largest game folder measured when its game ended (`meta`, so a restart knows it).
    largest_game: AtomicU64,
    /// Games compressed before `compress_after` would have, to keep within the budget.
    compressed_early: AtomicU64,
    /// Games among the newest `compress_after` whose files were deleted to keep within the
    /// budget (regenerated from their records when opened).
    dropped_early: AtomicU64,
    /// The folder's disk as the last retention pass measured it (0: not yet).
    usage: AtomicU64,
}

fn meta_count(store: &EventStore, key: &str) -> Result<u64, StoreError> {
    Ok(store
        .meta(key)?
        .and_then(|text| text.parse().ok())
        .unwrap_or(0))
}

impl BudgetState {
    /// The figures an earlier run of the event left in its database.
    ///
    /// # Errors
    /// The database cannot be read.
    pub(crate) fn load(store: &EventStore) -> Result<BudgetState, StoreError> {
        Ok(BudgetState {
            largest_game: AtomicU64::new(meta_count(store, LARGEST_GAME_KEY)?),
            compressed_early: AtomicU64::new(meta_count(store, COMPRESSED_EARLY_KEY)?),
            dropped_early: AtomicU64::new(meta_count(store, DROPPED_EARLY_KEY)?),
            ..BudgetState::default()
        })
    }

    /// Notes how many tables the round now starting plays.
    pub(crate) fn round_started(&self, tables: usize) {
        self.round_tables
            .store(u64::try_from(tables).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    /// Notes an ended game's folder as it was written (before any compression).
    pub(super) fn note_game_size(&self, store: &EventStore, bytes: u64) -> Result<(), StoreError> {
        if self.largest_game.fetch_max(bytes, Ordering::Relaxed) < bytes {
            store.set_meta(LARGEST_GAME_KEY, &bytes.to_string())?;
        }
        Ok(())
    }

    /// What the games of a round may write: its tables (at least one: before the first
    /// round, the one to come) times the largest game so far.
    pub fn in_play_allowance(&self) -> u64 {
        self.round_tables
            .load(Ordering::Relaxed)
            .max(1)
            .saturating_mul(self.largest_game.load(Ordering::Relaxed))
    }

    /// Counts games the budget compressed or emptied early.
    pub(super) fn forced(
        &self,
        store: &EventStore,
        compressed: u64,
        dropped: u64,
    ) -> Result<(), StoreError> {
        for (count, key, more) in [
            (&self.compressed_early, COMPRESSED_EARLY_KEY, compressed),
            (&self.dropped_early, DROPPED_EARLY_KEY, dropped),
        ] {
            if more > 0 {
                let total = count.fetch_add(more, Ordering::Relaxed) + more;
                store.set_meta(key, &total.to_string())?;
            }
        }
        Ok(())
    }

    pub(super) fn measured(&self, usage: u64) {
        self.usage.store(usage, Ordering::Relaxed);
    }
}

/// The disk budget as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiskBudgetStatus {
    /// The budget, bytes of disk blocks.
    pub budget: u64,
    /// The event folder's disk without the games in play, at the last retention pass.
    pub usage: Option<u64>,
    /// What is held back for the games in play (see [`BudgetState::in_play_allowance`]).
    pub in_play_allowance: u64,
    /// Ended games whose logs the budget compressed before `compress_after` would have.
    pub compressed_early: u64,
    /// Games among the newest `compress_after` whose files the budget deleted (each opens
    /// from its record).
    pub dropped_early: u64,
}

/// The budget's figures for the page; `None` without a budget.
pub fn budget_status(event: &Event) -> Option<DiskBudgetStatus> {
    let budget = event.settings().retention.disk_budget?;
    let state = &event.budget;
    let usage = state.usage.load(Ordering::Relaxed);
    Some(DiskBudgetStatus {
        budget,
        usage: (usage > 0).then_some(usage),
        in_play_allowance: state.in_play_allowance(),
        compressed_early: state.compressed_early.load(Ordering::Relaxed),
        dropped_early: state.dropped_early.load(Ordering::Relaxed),
    })
}

/// What retention keeps the measured folder (ended games, database, reserve) within: the
/// budget less the in-play allowance, and never more than 95 % of it (the rest for the
/// write-ahead log and the games ended since the last pass).
pub fn thinning_target(event: &Event, budget: u64) -> u64 {
    let held_back = (budget / BUDGET_HEADROOM).max(event.budget.in_play_allowance());
    budget.saturating_sub(held_back)
}

/// The smallest disk budget an event can keep to (see [`minimum_budget`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinimumBudget {
    /// The tables of a round with the players enrolled now.
    pub tables: u64,
    /// What one game in play writes: the largest this event measured, or
    /// [`GAME_BYTES_PER_SEAT`] a seat.
    pub per_game: u64,
    /// The reserve ([`crate::event::space`]).
    pub reserve: u64,
    /// The database as it is now.
    pub database: u64,
}

impl MinimumBudget {
    /// The sum.
    pub fn total(&self) -> u64 {
        self.tables
            .saturating_mul(self.per_game)
            .saturating_add(self.reserve)
            .saturating_add(self.database)
    }
}

impl fmt::Display for MinimumBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = |bytes: u64| bytesize::ByteSize::b(bytes).display().si().to_string();
        write!(
            f,
            "{} = {} table{} x {} (the files of a game in play) + {} (the reserve) + {} (the database)",
            size(self.total()),
            self.tables,
            if self.tables == 1 { "" } else { "s" },
            size(self.per_game),
            size(self.reserve),
            size(self.database),
        )
    }
}

/// The smallest budget the event can keep to with the players enrolled now: the files of a
/// round's games in play, the reserve and the database. Everything else (every ended game's
/// files) can be deleted, each game opening from its record, so any budget at or above it
/// holds.
///
/// # Errors
/// The database cannot be read or measured.
pub fn minimum_budget(event: &Event) -> Result<MinimumBudget, RetentionError> {
    let settings = event.settings();
    let enrolled = event
        .store()
        .players()?
        .iter()
        .filter(|player| player.status == crate::event::players::Enrollment::Active)
        .count()
        .max(1);
    let tables = split_tables(vec![(); enrolled], settings.table_size);
    let widest = tables.iter().map(Vec::len).max().unwrap_or(1);
    let seats = match settings.fill {
        Some((_, fill_to)) => widest.max(fill_to),
        None => widest,
    }
    .max(crate::engine::MIN_SEATS);
    let estimate = u64::try_from(seats).unwrap_or(u64::MAX) * GAME_BYTES_PER_SEAT;
    let reserve_on_disk = super::disk_usage(event.reserve().path())?;
    Ok(MinimumBudget {
        tables: u64::try_from(tables.len().max(1)).unwrap_or(u64::MAX),
        per_game: estimate.max(event.budget.largest_game.load(Ordering::Relaxed)),
        reserve: RESERVE_BYTES,
        database: database_usage(&settings.data)?.saturating_sub(reserve_on_disk),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_room_held_back_is_a_rounds_tables_times_the_largest_game_and_one_before_a_round() {
        let state = BudgetState::default();
        assert_eq!(state.in_play_allowance(), 0, "nothing measured yet");
        state.largest_game.store(8_000_000, Ordering::Relaxed);
        assert_eq!(state.in_play_allowance(), 8_000_000, "the round to come");
        state.round_started(3);
        assert_eq!(state.in_play_allowance(), 24_000_000);
    }

    #[test]
    fn the_minimum_says_its_sum() {
        let minimum = MinimumBudget {
            tables: 2,
            per_game: 9_000_000,
            reserve: RESERVE_BYTES,
            database: 1_500_000,
        };
        assert_eq!(minimum.total(), 18_000_000 + RESERVE_BYTES + 1_500_000);
        assert_eq!(
            minimum.to_string(),
            "23.7 MB = 2 tables x 9.0 MB (the files of a game in play) + 4.2 MB (the reserve) \
             + 1.5 MB (the database)"
        );
    }
}
