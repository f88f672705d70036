//! The rounds: every round seats the players who can play ([`super::health::can_play`]) at
//! balanced tables ([`super::seating`]), plays the tables at the same time, and records each
//! game as it ends. Until stopped.
//!
//! A game is inserted in the database as `running` before it starts and its folder is
//! `<data>/games/game-<n>` with the files `dealer run` writes (so the results viewer opens
//! it). When it ends, its result, standings, the players' counters and its compact record
//! (`observe::compact`, built in memory as it was played) are written in one transaction
//! *before anything else about it*, even before its logs are closed; then its `result.json`
//! or `abandoned.json` ([`super::outcome_files`]). A finished game whose files could not all be
//! written (a full disk) is recorded all the same, its files marked incomplete: it is shown
//! from its record, and its files written again or dropped ([`super::cut_files`]). No round starts while the disk
//! has less free space than the margin ([`super::space`]); the page, the API and the log say
//! why, once, and when play resumes. A game stopped by Ctrl-C or SIGTERM, or that could not
//! start (players down, a folder that cannot be written), is recorded as abandoned with the
//! reason and counts for nobody. A write that fails stops the scheduling (there is no point
//! playing games that cannot be kept) and is shown on the page; it is retried every
//! `recheck_ms`.
//!
//! When the database cannot take a finished game's record for want of space, the event's
//! reserve ([`super::space`]) is deleted and the write tried again; then, one at a time,
//! game folders that records regenerate, whatever the disk budget and the margin say
//! (`retention::for_records`): the record first, the cache second. A game that
//! still cannot be recorded (SQLite's transaction is rolled back whole) is kept in memory
//! ([`Unrecorded`]) and tried again, making room the same way, as soon as a game's task ends
//! (its own folder may then give way), before any new round, and at the stop, where what is
//! still waiting is named as lost ([`StillWaiting`]).

use super::health::can_play;
use super::outcome_files::{write_abandoned, write_result};
use super::retention::CacheForRecords;
use super::seating::{fill_count, game_seed, seat_round};
use super::settings::Contact;
use super::space::{room_to_play, RESERVE_BYTES};
use super::store::{
    FinishedGame, GameFiles, NewGame, SeatRecord, StoreError, StoredRecord, GAMES_DIR,
};
use super::{now_ms, Event};
use crate::engine::GameSetup;
use crate::observe::compact::{CompactRecorder, COMPACT_FORMAT};
use crate::observe::{GameOutputs, LogFlush};
use crate::runner::{run_game_then, GameOutcome, RunError, StopSignal};
use crate::seat::{reason_is_unreachable, GameEncoder, InProcessSeat, PlayerSeat};
use crate::tournament::{game_dir_name, GameEntry, InterruptedGame};
use futures_util::future::join_all;
use std::sync::atomic::Ordering;
use std::sync::Arc;

mod record;

use record::*;
pub use record::{record_unrecorded, StillWaiting};

/// The reason recorded for a game stopped by Ctrl-C or SIGTERM.
pub const STOPPED: &str = "stopped by the organiser (Ctrl-C or SIGTERM)";

/// One seat of a table about to play.
#[derive(Debug, Clone)]
struct Seated {
    /// The event player, `None` for a house bot filling the table.
    player_id: Option<i64>,
    name: String,
    contact: Contact,
    /// The event player's deploy now (`StoredPlayer::deploys`): its game counts for it.
    deploy: i64,
}

/// Plays rounds until `stop`; the games in progress then end (stopped) and are recorded as
/// abandoned. Returns once every game task has ended.
pub async fn run_rounds(event: Arc<Event>, stop: StopSignal) {
    let mut round = match event.store().last_round() {
        Ok(round) => round,
        Err(error) => {
            event.report_write_failure("cannot read the event's rounds", &error);
            0
        }
    };
    // A folder over its budget at the start (a restart, a smaller budget) is thinned by
    // retention's first pass before the first round adds to it.
    wait_for_disk_budget(&event, &stop, 0).await;
    while !stop.is_stopped() {
        let changed = event.changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let recorded = record_unrecorded(&event).is_ok();
        // Looked at even when nothing can be recorded: the page then says both why.
        let room = room_to_play(&event);
        if !recorded || !room {
            // Still cannot write, or too little room: wait, without playing games that could
            // not be kept either.
            tokio::select! {
                _ = tokio::time::sleep(event.settings().recheck) => {}
                _ = stop.stopped() => {}
            }
            continue;
        }
        let tables = match plan_round(&event, round + 1) {
            Ok(tables) => tables,
            Err(error) => {
                event.report_write_failure("cannot read the players", &error);
                Vec::new()
            }
        };
        if tables.is_empty() {
            // Nobody to play (or nothing can be written): wait for a change or a recheck.
            tokio::select! {
                _ = tokio::time::sleep(event.settings().recheck) => {}
                _ = &mut changed => {}
                _ = stop.stopped() => {}
            }
            continue;
        }
        round += 1;
        tracing::info!(round, tables = tables.len(), "round starts");
        event.budget.round_started(tables.len());
        let games = tables.into_iter().enumerate().map(|(index, table)| {
            let (event, stop) = (&event, &stop);
            async move {
                play_table(event, round, index as u32 + 1, table, stop).await;
                // A game that could not be recorded as it ended is tried again now that its
                // own files are closed (they may give way for its record).
                if !event.unrecorded().is_empty() {
                    let _ = record_unrecorded(event);
                }
                // Each game's files are thinned as it ends, not only after the round: the
                // folder keeps within the budget while the round's other games play on.
                event.games_ended.notify_one();
            }
        });
        join_all(games).await;
        // One stored permit: a pass still running when the round ends runs again after.
        let passes_before = event.retention_started.load(Ordering::Acquire);
        event.games_ended.notify_one();
        event.luck_wanted.notify_one();
        if !stop.is_stopped() {
            // After a write error, retry at the recheck pace rather than make a stream of
            // abandoned games.
            let pause = if event.storage_error().is_some() {
                event.settings().recheck
            } else {
                event.settings().pause
            };
            tokio::select! {
                _ = tokio::time::sleep(pause) => {}
                _ = stop.stopped() => {}
            }
            wait_for_disk_budget(&event, &stop, passes_before).await;
        }
    }
}

/// A game that ended but could not be recorded yet: written by [`record_unrecorded`] once the
/// database takes writes again.
#[derive(Debug, Clone)]
pub enum Unrecorded {
    /// A finished game, its standings and its `result.json`.
    Finished(FinishedGame, Box<GameEntry>),
    /// An abandoned game.
    Abandoned {
        /// The game.
        number: u32,
        /// Why.
        reason: String,
        /// Hands played, when known.
        hands_played: Option<u64>,
        /// When it ended.
        ended_at: i64,
    },
}

/// The tables of a round, empty when fewer than two can play (and no house bot fills).
fn plan_round(event: &Event, round: u32) -> Result<Vec<Vec<Seated>>, super::StoreError> {
    let players = event.store().players()?;
    let taken: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    let ready: Vec<Seated> = players
        .into_iter()
        .filter(can_play)
        .map(|p| Seated {
            player_id: Some(p.id),
            name: p.name,
            contact: p.contact,
            deploy: p.deploys,
        })
        .collect();
    let settings = event.settings();
    let mut tables = seat_round(ready, event.seed(), round, settings.table_size);
    if let Some((kind, fill_to)) = settings.fill {
        for table in &mut tables {
            let mut number = 0;
            for _ in 0..fill_count(table.len(), fill_to) {
                let name = loop {
                    number += 1;
                    let name = format!("house {number}");
                    if !taken.contains(&name) {
                        break name;
                    }
                };
                table.push(Seated {
                    player_id: None,
                    name,
                    contact: Contact::Bot(kind),
                    deploy: 0,
                });
            }
        }
    }
    tables.retain(|table| table.len() >= crate::engine::MIN_SEATS);
    Ok(tables)
}

/// Marks a game as played by this server until dropped (retention leaves its files alone).
struct Playing<'a>(&'a Event, u32);

impl<'a> Playing<'a> {
    fn new(event: &'a Event, number: u32) -> Playing<'a> {
        event
            .playing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(number);
        Playing(event, number)
    }
}

impl Drop for Playing<'_> {
    fn drop(&mut self) {
        self.0
            .playing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&self.1);
    }
}

/// Plays one table's game and records it.
async fn play_table(event: &Event, round: u32, table: u32, seated: Vec<Seated>, stop: &StopSignal) {
    let names: Vec<String> = seated.iter().map(|s| s.name.clone()).collect();
    let started_at = now_ms();
    let event_seed = event.seed();
    let new_game = NewGame {
        round,
        table,
        players: names.clone(),
        started_at,
    };
    let (number, dir, seed) = match event
        .store()
        .start_game(&new_game, |number| game_seed(event_seed, number))
    {
        Ok(started) => started,
        Err(error) => {
            event.set_storage_error_of(
                Some(format!("cannot record a new game: {error}")),
                error.is_disk_full(),
            );
            return;
        }
    };
    let _playing = Playing::new(event, number);
    let mut setup = GameSetup::new(event.settings().game.clone(), names.clone(), seed);
    setup.tournament_id = event.tournament_id.clone();
    let game_dir = event.settings().data.join(GAMES_DIR).join(&dir);
    // The event's page follows its games: each action reaches log.json within 50 ms.
    let outputs = event.settings().outputs;
    let created = GameOutputs::create_followed(&game_dir, &names, outputs, LogFlush::Followed);
    let mut observers = match created {
        Ok(observers) => observers,
        Err(error) => {
            let reason = format!(
                "cannot write the game's files in {}: {error}",
                game_dir.display()
            );
            let disk_full = error.kind() == std::io::ErrorKind::StorageFull;
            event.set_storage_error_of(Some(reason.clone()), disk_full);
            abandon(event, number, &reason);
            return;
        }
    };
    // The game's HTTP seats share one encoder, as a run's do (`tournament::play`).
    let encoder = GameEncoder::default();
    let seats: Result<Vec<PlayerSeat>, String> = seated
        .iter()
        .enumerate()
        .map(|(index, seat)| match &seat.contact {
            Contact::Http { url, token } => Contact::endpoint(url, token.as_deref())
                .map(|endpoint| {
                    PlayerSeat::from(event.client.seat_in_game(endpoint, Some(&encoder)))
                })
                .map_err(|reason| format!("{}: {reason}", seat.name)),
            Contact::Bot(kind) => Ok(PlayerSeat::from(InProcessSeat::new(
                kind.build(seed.wrapping_add(index as u64)),
            ))),
        })
        .collect();
    let seats = match seats {
        Ok(seats) => seats,
        Err(reason) => {
            abandon(event, number, &reason);
            return;
        }
    };
    // The record the database keeps, made in memory as the game is played.
    let recorder = CompactRecorder::default();
    observers.push(recorder.observer());
    // The game's files can be written: an earlier write error is over.
    event.set_storage_error(None);
    tracing::info!(game = number, round, table, players = ?names, "game starts");
    let runner = &event.settings().runner;
    let ended = |outcome: &GameOutcome| record(event, number, &seated, outcome, &recorder);
    match run_game_then(setup, seats, observers, runner, stop, ended).await {
        Ok(outcome) => {
            let entry = GameEntry::new(number, game_dir_name(number), outcome);
            let mut waiting = event.unrecorded();
            match waiting
                .iter_mut()
                .find(|game| matches!(game, Unrecorded::Finished(f, _) if f.number == number))
            {
                // Still waiting for the database: it learns how the files went when recorded.
                Some(Unrecorded::Finished(_, kept)) => **kept = entry,
                _ => {
                    drop(waiting);
                    finished_files(event, &entry);
                }
            }
        }
        Err(RunError::Stopped { hands_played }) => {
            abandon_after(
                event,
                number,
                &format!("{STOPPED} after {hands_played} hands"),
                Some(hands_played),
            );
        }
        Err(error) => {
            if let RunError::TooFewUp { down, .. } | RunError::PlayersDown { down, .. } = &error {
                for (name, reason) in down {
                    mark_down(
                        event,
                        &seated,
                        name,
                        &format!("absent from a game: {reason}"),
                    );
                }
            }
            abandon(event, number, &error.to_string());
        }
    }
}

/// Marks the event player seated as `name` down for `reason`: it sits out until a `check`
/// succeeds.
fn mark_down(event: &Event, seated: &[Seated], name: &str, reason: &str) {
    if let Some(id) = seated
        .iter()
        .find(|s| s.name == name)
        .and_then(|s| s.player_id)
    {
        if let Err(error) = event.store().set_health(id, Some(reason), now_ms()) {
            event.report_write_failure("cannot record a player down", &error);
        }
    }
}

fn abandon(event: &Event, number: u32, reason: &str) {
    abandon_after(event, number, reason, None);
}

/// Records an abandoned game, then its `abandoned.json` (for the read-only viewer); kept for
/// later when the database cannot be written.
fn abandon_after(event: &Event, number: u32, reason: &str, hands_played: Option<u64>) {
    tracing::warn!(game = number, reason, "game abandoned");
    let ended_at = now_ms();
    let written = write_making_room(event, &format!("abandoned game {number}"), None, || {
        event.store().abandon_game(number, reason, ended_at)
    });
    if let Err(error) = written {
        event.set_storage_error_of(
            Some(format!(
                "game {number} ended but cannot be recorded yet: {error}"
            )),
            error.is_disk_full(),
        );
        event.unrecorded().push(Unrecorded::Abandoned {
            number,
            reason: reason.to_string(),
            hands_played,
            ended_at,
        });
        return;
    }
    abandoned_recorded(event, number, reason, hands_played);
}

/// What follows an abandoned game's record: its `abandoned.json`.
fn abandoned_recorded(event: &Event, number: u32, reason: &str, hands_played: Option<u64>) {
    let game = InterruptedGame {
        game: number,
        dir: game_dir_name(number),
        hands_played,
        reason: reason.to_string(),
    };
    if let Err(error) = write_abandoned(&event.settings().data.join(GAMES_DIR), &game) {
        // A copy for the files' readers: the database has the game.
        tracing::warn!(game = number, %error, "cannot write the game's abandoned.json");
    }
}

/// Holds the next round while the event's folder is over its disk budget and retention is
/// still making old games smaller: with a short `pause_ms`, games can end faster than a pass
/// compacts them, and the budget would only be a wish (measured: 5.6 GB written against a
/// 200 MB budget at pause 0). The folder's size is the database's, which learns a game's size
/// from the pass after it ended, so the wait first lets the pass asked for at the end of the
/// round (one that started after `passes_before`) finish; at the default pause it already has.
/// Play goes on as soon as the folder leaves room in the budget for the next round's games
/// ([`super::retention::thinning_target`]), or when a pass could thin nothing more (what
/// cannot go exceeds it: retention warns in the log), so a budget too small never stops the
/// event; and at once when no retention task runs.
async fn wait_for_disk_budget(event: &Arc<Event>, stop: &StopSignal, passes_before: u64) {
    let Some(budget) = event.settings().retention.disk_budget else {
        return;
    };
    let mut asked_after = passes_before;
    let mut announced = false;
    loop {
        // Wait for a pass that began after these games ended (or the last request).
        loop {
            let passed = event.retention_passed.notified();
            tokio::pin!(passed);
            passed.as_mut().enable();
            if stop.is_stopped() || !event.retention_running.load(Ordering::Acquire) {
                return;
            }
            if event.retention_done.load(Ordering::Acquire) > asked_after {
                break;
            }
            tokio::select! {
                _ = &mut passed => {}
                _ = stop.stopped() => return,
            }
        }
        let thinned = event.retention_thinned.load(Ordering::Acquire);
        let measuring = Arc::clone(event);
        let usage = match tokio::task::spawn_blocking(move || {
            super::retention::event_disk_usage(&measuring)
        })
        .await
        {
            Ok(Ok(usage)) => usage,
            // Not measurable now: retention logs why; never hold the event on it.
            _ => return,
        };
        // Room for the next round's games too.
        if usage <= super::retention::thinning_target(event, budget) {
            if announced {
                tracing::info!(usage, budget, "within the disk budget again: play goes on");
            }
            return;
        }
        if announced && !thinned {
            return;
        }
        if !announced {
            tracing::info!(
                usage,
                budget,
                "over the disk budget: the next round waits for old games to be made smaller"
            );
            announced = true;
        }
        asked_after = event.retention_started.load(Ordering::Acquire);
        event.games_ended.notify_one();
    }
}
