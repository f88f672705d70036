//! Recording a game as it ends: a finished game's record first (one transaction, room made
//! from the cache when the disk is full), its files second; and the games that wait in memory
//! when even that fails, written again later or named as lost at the stop ([`StillWaiting`]).

use super::*;

/// The games still waiting to be recorded when writing fails even with room made for them:
/// what a stop loses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StillWaiting {
    /// The finished games, oldest first, each with its seats by place (name, points).
    pub finished: Vec<(u32, Vec<(String, u32)>)>,
    /// The abandoned games (a restart records them abandoned all the same: cut off).
    pub abandoned: Vec<u32>,
    /// Why they cannot be written.
    pub error: String,
    /// Whether for want of space (every file the event could delete for them is gone).
    pub disk_full: bool,
}

impl StillWaiting {
    /// What a stop loses, as one paragraph: the finished games by number with their points
    /// by place, the abandoned games a restart records cut off, and why (`data`: the event's
    /// folder).
    pub fn lost(&self, data: &std::path::Path) -> String {
        let numbers = |games: &[u32]| {
            games
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut said = String::new();
        if !self.finished.is_empty() {
            let numbers_of: Vec<u32> = self.finished.iter().map(|(number, _)| *number).collect();
            let standings: Vec<String> = self
                .finished
                .iter()
                .map(|(number, seats)| {
                    let places: Vec<String> = seats
                        .iter()
                        .enumerate()
                        .map(|(index, (name, points))| format!("{}. {name} {points}", index + 1))
                        .collect();
                    format!("game {number}, points by place: {}", places.join(", "))
                })
                .collect();
            let one = self.finished.len() == 1;
            said.push_str(&format!(
                "finished game{} {} could not be recorded and {} lost: {} count{} for nobody \
                 ({}), and a restart records {} abandoned. ",
                plural(self.finished.len()),
                numbers(&numbers_of),
                if one { "is" } else { "are" },
                if one { "its result" } else { "their results" },
                if one { "s" } else { "" },
                standings.join("; "),
                if one { "it" } else { "them" },
            ));
        }
        if !self.abandoned.is_empty() {
            said.push_str(&format!(
                "Abandoned game{} {} could not be recorded so: a restart records {} cut off \
                 (counted for nobody either way). ",
                plural(self.abandoned.len()),
                numbers(&self.abandoned),
                if self.abandoned.len() == 1 {
                    "it"
                } else {
                    "them"
                },
            ));
        }
        if self.disk_full {
            said.push_str(&format!(
                "The disk holding {} is full, with no reserve left and no game folder on it \
                 that a record regenerates: {}",
                data.display(),
                self.error
            ));
        } else {
            said.push_str(&format!("The database refuses the write: {}", self.error));
        }
        said
    }
}

pub(super) fn plural(count: usize) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

/// Records the games that ended while the database could not be written, oldest first, making
/// room for each as a record as it ends does; `Ok` once none is left (the storage error then
/// cleared), else what still waits (the error on the page says so). Also run at the stop,
/// where what still waits is lost.
///
/// # Errors
/// The games still waiting, when one cannot be written.
pub fn record_unrecorded(event: &Event) -> Result<(), StillWaiting> {
    let mut waiting = event.unrecorded();
    if waiting.is_empty() {
        return Ok(());
    }
    while let Some(game) = waiting.first().cloned() {
        let written = match &game {
            Unrecorded::Finished(finished, entry) => {
                record_finished(event, finished, true).map(|totals| {
                    finished_in_database(event, finished, &totals);
                    finished_files(event, entry);
                })
            }
            Unrecorded::Abandoned {
                number,
                reason,
                hands_played,
                ended_at,
            } => write_making_room(event, &format!("abandoned game {number}"), None, || {
                event.store().abandon_game(*number, reason, *ended_at)
            })
            .map(|()| abandoned_recorded(event, *number, reason, *hands_played)),
        };
        match written {
            Ok(()) => {
                waiting.remove(0);
            }
            Err(error) => {
                let still = still_waiting(&waiting, &error);
                drop(waiting);
                let finished: Vec<String> = still
                    .finished
                    .iter()
                    .map(|(number, _)| number.to_string())
                    .collect();
                event.set_storage_error_of(
                    Some(format!(
                        "{} ended game(s) wait to be recorded (finished: {}; kept in memory, \
                         tried again every recheck_ms and when a game ends; no new game until \
                         then; lost if still waiting at the stop{}): {error}",
                        still.finished.len() + still.abandoned.len(),
                        if finished.is_empty() {
                            "none".to_string()
                        } else {
                            finished.join(", ")
                        },
                        if still.disk_full {
                            ": free space on the disk holding the event's folder"
                        } else {
                            ""
                        }
                    )),
                    still.disk_full,
                );
                return Err(still);
            }
        }
    }
    drop(waiting);
    tracing::info!("the games that waited are recorded");
    event.set_storage_error(None);
    Ok(())
}

/// The games of `waiting` and why they cannot be written.
pub(super) fn still_waiting(waiting: &[Unrecorded], error: &StoreError) -> StillWaiting {
    let mut still = StillWaiting {
        finished: Vec::new(),
        abandoned: Vec::new(),
        error: error.to_string(),
        disk_full: error.is_disk_full(),
    };
    for game in waiting {
        match game {
            Unrecorded::Finished(finished, _) => {
                let mut seats: Vec<&SeatRecord> = finished.seats.iter().collect();
                seats.sort_by_key(|seat| seat.place);
                still.finished.push((
                    finished.number,
                    seats
                        .into_iter()
                        .map(|seat| (seat.name.clone(), seat.points))
                        .collect(),
                ));
            }
            Unrecorded::Abandoned { number, .. } => still.abandoned.push(*number),
        }
    }
    still
}

/// Writes a finished game, its standings and its compact record (one transaction), the moment
/// it ended (before its logs are closed), and appends it to the history; kept in memory for
/// later when the database cannot be written.
pub(super) fn record(
    event: &Event,
    number: u32,
    seated: &[Seated],
    outcome: &GameOutcome,
    recorder: &CompactRecorder,
) {
    let result = &outcome.result;
    let seats: Vec<SeatRecord> = seated
        .iter()
        .enumerate()
        .map(|(index, seat)| {
            let report = outcome.seats.get(index);
            SeatRecord {
                seat: index,
                player_id: seat.player_id,
                name: seat.name.clone(),
                place: result.places.get(index).copied().unwrap_or(0),
                points: result.points.get(index).copied().unwrap_or(0),
                banned: result
                    .bans
                    .iter()
                    .find(|ban| ban.seat.index() == index)
                    .map(|ban| ban.reason.clone()),
                absent: report.and_then(|r| r.absent.clone()),
                version: report.map_or_else(|| "Unknown".to_string(), |r| r.version.clone()),
                deploy: seat.deploy,
            }
        })
        .collect();
    for seat in &seats {
        if let Some(reason) = &seat.absent {
            mark_down(
                event,
                seated,
                &seat.name,
                &format!("absent from a game: {reason}"),
            );
        }
        // Banned because nothing answered at its address: it is down (a redeploy under way,
        // most often) until a `check` succeeds, which then starts its next deploy.
        if let Some(reason) = seat.banned.as_deref().filter(|r| reason_is_unreachable(r)) {
            mark_down(
                event,
                seated,
                &seat.name,
                &format!("banned from game {number}: {reason}"),
            );
        }
    }
    let compact = recorder.take(
        event.settings().outputs,
        outcome.requests,
        outcome
            .seats
            .iter()
            .map(|seat| seat.absent.clone())
            .collect(),
        outcome
            .seats
            .iter()
            .map(|seat| seat.version.clone())
            .collect(),
    );
    let record = compact.and_then(|compact| match compact.encode() {
        Ok(bytes) => Some(StoredRecord {
            format: COMPACT_FORMAT,
            bytes,
        }),
        Err(error) => {
            tracing::error!(game = number, %error, "the game's record cannot be made");
            None
        }
    });
    let game = FinishedGame {
        number,
        hands: result.hands_played,
        ended_at: now_ms(),
        seats,
        record,
    };
    match record_finished(event, &game, false) {
        Ok(totals) => finished_in_database(event, &game, &totals),
        Err(error) => {
            event.set_storage_error_of(
                Some(format!(
                    "game {number} finished but cannot be recorded yet (kept in memory, tried \
                     again once its files are closed, which may then give way, and every \
                     recheck_ms; lost if still waiting at the stop): {error}"
                )),
                error.is_disk_full(),
            );
            let entry = GameEntry::new(number, game_dir_name(number), outcome.clone());
            event
                .unrecorded()
                .push(Unrecorded::Finished(game, Box::new(entry)));
        }
    }
}

/// Writes a finished game to the database, making room for it on a full disk
/// ([`write_making_room`]); its own folder may give way too once its game is over
/// (`own_folder`: not while its files are being closed).
pub(super) fn record_finished(
    event: &Event,
    game: &FinishedGame,
    own_folder: bool,
) -> Result<Vec<(i64, i64)>, StoreError> {
    let number = game.number;
    write_making_room(
        event,
        &format!("game {number}"),
        own_folder.then_some(number),
        || event.store().record_finished(game),
    )
}

/// Writes a record (`write`, of `what`); when the disk is full, deletes the event's reserve to
/// make room and tries again, then deletes game folders that records regenerate one at a
/// time, trying again after each ([`CacheForRecords`]; game `own`'s folder last), whatever
/// the disk budget and the margin say. The games whose folders went are recorded pruned, and
/// the reserve is made again if there is room for it now.
pub(super) fn write_making_room<T>(
    event: &Event,
    what: &str,
    own: Option<u32>,
    mut write: impl FnMut() -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let full =
        |result: &Result<T, StoreError>| matches!(result, Err(error) if error.is_disk_full());
    let mut result = write();
    if !full(&result) {
        return result;
    }
    let _one_at_a_time = event
        .making_room
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // Another record may have made room meanwhile.
    result = write();
    if full(&result) && event.reserve().release() {
        tracing::warn!(
            "the disk is full: the event's reserve ({} MiB) was deleted to record {what}",
            RESERVE_BYTES >> 20
        );
        result = write();
    }
    let mut cache = CacheForRecords::new(event, own);
    while full(&result) && cache.give_way().is_some() {
        result = write();
    }
    if !cache.deleted().is_empty() {
        let games: Vec<String> = cache.deleted().iter().map(u32::to_string).collect();
        if result.is_ok() {
            tracing::warn!(
                "the disk is full: game folders deleted to record {what} (their records \
                 regenerate them; opened from them from now on): games {}",
                games.join(", ")
            );
        } else {
            tracing::warn!(
                "the disk is full: game folders deleted for {what}, which still cannot be \
                 recorded: games {}",
                games.join(", ")
            );
        }
        cache.note_pruned(result.is_ok());
    }
    if result.is_ok() {
        if let Ok(free) = crate::event::space::free_bytes(&event.settings().data) {
            crate::event::space::remake_reserve(event, free);
        }
    }
    result
}

/// What follows a finished game's record: the history, the log line.
pub(super) fn finished_in_database(event: &Event, game: &FinishedGame, totals: &[(i64, i64)]) {
    let number = game.number;
    event.record_history(number, totals);
    let winner = game
        .seats
        .iter()
        .find(|s| s.place == 1)
        .map(|s| s.name.as_str());
    tracing::info!(game = number, winner, hands = game.hands, "game finished");
}

/// What follows once a recorded game's logs are closed: its `result.json`, and, when its files
/// could not all be written, the database told so (the game is then shown from its record,
/// and retention repairs its files: `event::cut_files`).
pub(super) fn finished_files(event: &Event, entry: &GameEntry) {
    let number = entry.game;
    if !event
        .settings()
        .data
        .join(GAMES_DIR)
        .join(&entry.dir)
        .is_dir()
    {
        // Deleted to make room for its record: the game is pruned, opened from its record.
        return;
    }
    let mut failures: Vec<String> = entry
        .observer_errors
        .iter()
        .map(ToString::to_string)
        .collect();
    if let Err(error) = write_result(&event.settings().data.join(GAMES_DIR), entry) {
        failures.push(format!("result.json: {error}"));
    }
    if failures.is_empty() {
        return;
    }
    tracing::warn!(
        game = number,
        failures = ?failures,
        "the game is recorded, but its files could not all be written: it is shown from its record, and its files are written again from it (or deleted while the disk is below its margin)"
    );
    if let Err(error) = event
        .store()
        .set_game_files(number, GameFiles::Incomplete, None)
    {
        event.report_write_failure("cannot mark a game's files incomplete", &error);
        event.files_cut(number);
    }
}
