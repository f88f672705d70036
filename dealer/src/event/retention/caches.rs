//! The disk budget and the free-space margin: which games' files give way (the least recently
//! used first, each only once its record reproduced them).

use super::{
    compact_game, compress_game, disk_usage, event_disk_usage, prune, remove_folder,
    thinning_target, CompactLog, PassReport, RetentionError, DEFAULT_COMPRESS_AFTER,
};
use crate::event::archive::{self, ArchiveError};
use crate::event::space::free_bytes;
use crate::event::store::{GameFiles, RetentionCandidate, StoreError, GAMES_DIR};
use crate::event::Event;
use crate::runner::StopSignal;
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::PoisonError;

pub(super) fn archive_error(error: ArchiveError) -> RetentionError {
    RetentionError::Archive(Box::new(error))
}

/// Records as incomplete a finished game whose folder has no `result.json` (the last file it
/// writes): its files were cut by a full disk, or by a crash before they were closed, and
/// the state could not be recorded then. Whether it was. A game this server is still
/// finishing is left alone, and one whose survived files its record was found not to give.
pub(super) fn note_if_cut(
    event: &Event,
    game: &RetentionCandidate,
) -> Result<bool, RetentionError> {
    let dir = event.settings().data.join(GAMES_DIR).join(&game.dir);
    let cut = game.has_record
        && !event.is_playing(game.number)
        && !is_unfaithful(event, game.number)
        && matches!(game.files, GameFiles::Kept | GameFiles::Compressed)
        && !dir.join(crate::event::outcome_files::RESULT_FILE).is_file();
    if cut {
        event
            .store()
            .set_game_files(game.number, GameFiles::Incomplete, None)?;
    }
    Ok(cut)
}

fn unfaithful(event: &Event, number: u32) {
    event
        .unfaithful
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(number);
}

pub(super) fn is_unfaithful(event: &Event, number: u32) -> bool {
    event
        .unfaithful
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .contains(&number)
}

/// Whether game `number`'s record, replayed, reproduces the files `dir` holds byte for byte:
/// `None` when it does, else the first difference.
fn record_differs(event: &Event, number: u32, dir: &Path) -> Result<Option<String>, ArchiveError> {
    let compact = archive::compact_game(event.store(), number)?.ok_or(StoreError::Record {
        game: number,
        reason: "it has no record".into(),
    })?;
    let report = archive::check_against_files(number, &compact, dir)?;
    Ok(report.difference.map(|difference| difference.to_string()))
}

/// What one pass's thinning did early, for the budget's counts.
#[derive(Debug, Default)]
struct Forced {
    compressed: u64,
    dropped: u64,
}

/// Makes old games' files smaller until the event's folder is within the budget less what the
/// games in play need ([`thinning_target`]) and the disk has a tenth more free space than the
/// margin. In order, each step only while still short:
///
/// 1. over the budget, the ended games still whole (the newest `compress_after`, which wait
///    for room otherwise) are compressed, the least recently used first: nothing is lost;
/// 2. the folders of the least recently used games whose record reproduces them are deleted
///    (they open from their records): older than the newest `compress_after` while only the
///    free space is short; over the budget, every ended game down to the games in play;
/// 3. the games without a faithful record are made compact, then pruned, the oldest first.
///
/// Says so once when even that is not enough.
pub(super) fn keep_within_limits(
    event: &Event,
    stop: &StopSignal,
    report: &mut PassReport,
) -> Result<(), RetentionError> {
    let store = event.store();
    let settings = event.settings();
    let retention = settings.retention;
    let usage = event_disk_usage(event)?;
    let over_budget = retention.disk_budget.map_or(0, |budget| {
        usage.saturating_sub(thinning_target(event, budget))
    });
    let short_of_space = match retention.min_free_space {
        Some(margin) => {
            let free = free_bytes(&settings.data).unwrap_or(u64::MAX);
            (margin + margin / 10).saturating_sub(free)
        }
        None => 0,
    };
    let need = over_budget.max(short_of_space);
    if need == 0 {
        event.over_budget_said.store(false, Ordering::Relaxed);
        return Ok(());
    }
    let mut freed = 0u64;
    let mut forced = Forced::default();
    let thinned = thin(
        event,
        stop,
        report,
        need,
        over_budget > 0,
        &mut freed,
        &mut forced,
    );
    event
        .budget
        .forced(store, forced.compressed, forced.dropped)?;
    thinned?;
    if freed < need && !stop.is_stopped() && !event.over_budget_said.swap(true, Ordering::Relaxed) {
        tracing::warn!(
            usage,
            budget = retention.disk_budget,
            min_free_space = retention.min_free_space,
            in_play_allowance = event.budget.in_play_allowance(),
            "every ended game's files that may go are gone and the event still needs {} more: the games in play, the database and games whose record does not reproduce them take the rest (said once)",
            bytesize::ByteSize::b(need - freed).display().si()
        );
    }
    Ok(())
}

/// The steps of [`keep_within_limits`], until `freed` reaches `need`.
fn thin(
    event: &Event,
    stop: &StopSignal,
    report: &mut PassReport,
    need: u64,
    over_budget: bool,
    freed: &mut u64,
    forced: &mut Forced,
) -> Result<(), RetentionError> {
    let store = event.store();
    let settings = event.settings();
    let games = settings.data.join(GAMES_DIR);
    let recent = settings
        .retention
        .compress_after
        .unwrap_or(DEFAULT_COMPRESS_AFTER);
    // Past the budget, the budget wins over `compress_after`: down to the games in play.
    let protected = if over_budget { 0 } else { recent };
    // The games `compress_after` alone would leave whole are those not in this list.
    let older: HashSet<u32> = if over_budget {
        store
            .cached_games_by_use(recent)?
            .iter()
            .map(|game| game.number)
            .collect()
    } else {
        HashSet::new()
    };
    let size = |game: &RetentionCandidate| match game.disk_bytes {
        Some(bytes) => Ok(bytes),
        None => disk_usage(&games.join(&game.dir)),
    };
    if over_budget {
        for game in store.cached_games_by_use(0)? {
            if *freed >= need || stop.is_stopped() {
                return Ok(());
            }
            if game.files != GameFiles::Kept || event.is_playing(game.number) {
                continue;
            }
            let dir = games.join(&game.dir);
            let before = size(&game)?;
            let Some(repaired) = compress_game(&dir, stop)? else {
                return Ok(());
            };
            report.repaired += repaired;
            let after = disk_usage(&dir)?;
            store.set_game_files(game.number, GameFiles::Compressed, Some(after))?;
            *freed += before.saturating_sub(after);
            report.compressed.push(game.number);
            forced.compressed += 1;
        }
    }
    for game in store.cached_games_by_use(protected)? {
        if *freed >= need || stop.is_stopped() {
            return Ok(());
        }
        if game.files == GameFiles::Incomplete
            || is_unfaithful(event, game.number)
            || event.is_playing(game.number)
        {
            continue;
        }
        let dir = games.join(&game.dir);
        if game.has_record && !dir.exists() {
            // Deleted by a pass that could not record it (a full disk): recorded now.
            store.set_game_files(game.number, GameFiles::Pruned, None)?;
            continue;
        }
        let has_record = game.has_record
            || archive::adopt_files(store, game.number, &dir).map_err(archive_error)?;
        if !has_record {
            continue;
        }
        let before = size(&game)?;
        match record_differs(event, game.number, &dir) {
            Ok(None) => {
                // The record is the game: its files go first, freeing the space a full disk
                // needs to record that they went (a pass that cannot finds them gone, above).
                remove_folder(&dir)?;
                *freed += before;
                report.pruned.push(game.number);
                if over_budget && !older.contains(&game.number) {
                    forced.dropped += 1;
                }
                store.set_game_files(game.number, GameFiles::Pruned, None)?;
            }
            Ok(Some(difference)) => {
                tracing::warn!(game = game.number, %difference, "the game's record does not reproduce its files: they are kept");
                unfaithful(event, game.number);
            }
            Err(error) => {
                tracing::warn!(game = game.number, %error, "the game's record cannot be checked: its files are kept");
                unfaithful(event, game.number);
            }
        }
    }
    // The games whose files are their only record (made by an older dealer, or not
    // reproduced by their record): compact first, pruned last.
    let without_record = |game: &RetentionCandidate| {
        game.files != GameFiles::Incomplete
            && !event.is_playing(game.number)
            && (!game.has_record || is_unfaithful(event, game.number))
    };
    for game in store.ended_games_beyond(protected, &[GameFiles::Kept, GameFiles::Compressed])? {
        if *freed >= need || stop.is_stopped() {
            return Ok(());
        }
        if !without_record(&game) {
            continue;
        }
        let dir = games.join(&game.dir);
        let before = size(&game)?;
        let Some(log) = compact_game(&dir, stop)? else {
            return Ok(());
        };
        if let CompactLog::Kept(reason) = &log {
            tracing::warn!(game = game.number, %reason, "compact game keeps its full log");
        }
        let after = disk_usage(&dir)?;
        store.set_game_files(game.number, GameFiles::Compact, Some(after))?;
        *freed += before.saturating_sub(after);
        report.compacted.push(game.number);
    }
    let kinds = [GameFiles::Kept, GameFiles::Compressed, GameFiles::Compact];
    for game in store.ended_games_beyond(protected, &kinds)? {
        if *freed >= need || stop.is_stopped() {
            return Ok(());
        }
        if !without_record(&game) {
            continue;
        }
        let before = size(&game)?;
        prune(event, &game)?;
        *freed += before;
        report.pruned.push(game.number);
    }
    Ok(())
}
