//! An event's disk over a day (issues 17 and 26): every finished game's compact record is in
//! the database; the disk budget deletes the least recently used games' files (after their
//! record reproduced them) and the viewer and `dealer replay` still open them with the log
//! they wrote; a game cut off by `kill -9` gets its hand count from its log at the next
//! start; a full disk (filled during play, stopped by SIGTERM and by `kill -9` while full)
//! loses no finished game, pauses play with its reason said once, and play resumes by itself
//! once space is back (`event_full_disk.rs`).

use crate::support::wait::DEADLINE;
use dealer::event::queries::games_page;
use dealer::event::retention::{event_disk_usage, run_pass, BUDGET_HEADROOM};
use dealer::event::settings::{EventFlags, GamesLimit};
use dealer::event::store::{GameFiles, GAMES_DIR, WAL_LIMIT_BYTES};
use dealer::event::{scheduler, Event};
use dealer::runner::StopSignal;
use dealer::web::event_api::EventArchive;
use dealer::web::store::ResultsFolder;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Three house bots, short games (a hand limit), no pause: a few games a second.
fn event_config(outputs: &str) -> String {
    format!(
        "hand_limit = 12\npause_ms = 1\nseed = 17\noutputs = {outputs}\n\
         [[bot]]\nname = \"ann\"\nkind = \"raiser\"\n\
         [[bot]]\nname = \"bob\"\nkind = \"calling-station\"\n\
         [[bot]]\nname = \"cy\"\nkind = \"random\"\n"
    )
}

/// The per-hand PHH files (`hands`, the default until now) and the one-file form.
const PER_HAND: &str = r#"["log", "requests", "hands", "players", "decks"]"#;
const ONE_FILE: &str = r#"["log", "requests", "hands-file", "players", "decks"]"#;

fn open_event(data: &Path, outputs: &str, budget: Option<u64>) -> Arc<Event> {
    open_event_compressing(data, outputs, budget, "2")
}

fn open_event_compressing(
    data: &Path,
    outputs: &str,
    budget: Option<u64>,
    compress_after: &str,
) -> Arc<Event> {
    let mut settings = crate::support::event::settings(
        data,
        &event_config(outputs),
        EventFlags {
            compress_after: Some(GamesLimit::parse(compress_after).unwrap()),
            ..EventFlags::default()
        },
    );
    // Below the smallest budget the settings accept: these games are tiny.
    settings.retention.disk_budget = budget;
    Event::open(settings).unwrap()
}

/// Plays rounds until `games` have finished, then stops.
async fn play_games(event: &Arc<Event>, games: usize) {
    let (handle, stop) = dealer::runner::stop_signal();
    let rounds = tokio::spawn(scheduler::run_rounds(Arc::clone(event), stop));
    let started = Instant::now();
    while event.status().games_finished < games {
        assert!(
            started.elapsed() < DEADLINE,
            "{games} games not finished in {DEADLINE:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    handle.stop();
    rounds.await.unwrap();
}

fn game_dir(data: &Path, number: u32) -> PathBuf {
    data.join(GAMES_DIR).join(format!("game-{number}"))
}

/// The event's viewer, as `dealer serve` serves it: games whose folders were deleted are
/// regenerated from their records.
fn viewer(event: &Arc<Event>) -> ResultsFolder {
    ResultsFolder::new(&event.settings().data)
        .unwrap()
        .with_archive(EventArchive::shared(Arc::clone(event)))
}

/// `dealer replay` on an event game's folder (which may be gone): its report, and its
/// `log.json` (written with `--out`).
fn dealer_replay(game: &Path, out: &Path) -> (String, String) {
    let replay = Command::new(env!("CARGO_BIN_EXE_dealer"))
        .env_remove("RUST_LOG")
        .arg("replay")
        .arg(game)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&replay.stdout),
        String::from_utf8_lossy(&replay.stderr)
    );
    assert!(replay.status.success(), "{}: {said}", game.display());
    let log = std::fs::read_to_string(out.join("log.json")).unwrap_or_default();
    (said, log)
}

/// What the viewer shows of a game: its log (checked and indexed) and the first request;
/// `None` for a game stopped before its first hand (its log has no entry to show).
fn viewer_view(event: &Arc<Event>, number: u32) -> Option<(String, String)> {
    let folder = viewer(event);
    let log = match folder.game_log(GAMES_DIR, number) {
        Ok(log) => log,
        Err(error) if error.to_string().contains("never started") => return None,
        Err(error) => panic!("game {number}: {error}"),
    };
    let mut live = String::new();
    let (mut file, _) = folder.open_log(GAMES_DIR, number).unwrap();
    std::io::Read::read_to_string(&mut file, &mut live).unwrap();
    assert!(folder.game(GAMES_DIR, number).unwrap().has_log);
    Some((serde_json::to_string(&log).unwrap(), live))
}

/// Every game's standings and the leaderboard, as the page shows them.
fn recorded(event: &Event) -> (String, String) {
    let page = games_page(event.store(), 1, 1000).unwrap();
    let standings: Vec<_> = page
        .games
        .iter()
        .map(|g| (g.number, g.state.clone(), g.hands, g.standings.clone()))
        .collect();
    (
        format!("{standings:?}"),
        serde_json::to_string(&event.leaderboard().unwrap().players).unwrap(),
    )
}

/// The budget under which retention thins the measured folder to `target`: it holds back
/// the larger of a twentieth and the room of a game in play (the largest this event wrote).
fn budget_thinning_to(data: &Path, outputs: &str, target: u64) -> u64 {
    let event = open_event(data, outputs, Some(u64::MAX));
    let in_play = event.status().disk_budget.unwrap().in_play_allowance;
    (target + in_play).max(target * BUDGET_HEADROOM / (BUDGET_HEADROOM - 1))
}

async fn budget_prunes_the_least_recently_used(outputs: &str) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("event");
    let event = open_event(&data, outputs, None);
    play_games(&event, 10).await;
    let mut ended: Vec<u32> = games_page(event.store(), 1, 1000)
        .unwrap()
        .games
        .iter()
        .map(|g| g.number)
        .collect();
    // Opened oldest first, so the order of use is the order of play.
    ended.sort_unstable();
    let views: Vec<_> = ended.iter().map(|&n| viewer_view(&event, n)).collect();
    // Only a game cut by the stop can have no hand to show; every finished one has its log
    // and its record.
    let page = games_page(event.store(), 1, 1000).unwrap();
    for game in &page.games {
        let view = &views[ended.iter().position(|&n| n == game.number).unwrap()];
        assert!(
            view.is_some() || game.state == "abandoned",
            "game {} has no log to show",
            game.number
        );
        assert_eq!(
            game.has_record,
            game.state == "finished",
            "game {}",
            game.number
        );
    }
    let before = recorded(&event);
    // Measured, and every game compressed (a budget compresses the newest games before any
    // game's files go: here the order in which files go is looked at); no budget yet.
    drop(event);
    let event = open_event_compressing(&data, outputs, None, "0");
    let report = run_pass(&event, true, &StopSignal::never()).unwrap();
    assert!(report.compacted.is_empty() && report.pruned.is_empty());
    drop(event);
    // Measured as the next open sees it (closing the database folds its write-ahead log in).
    let event = open_event(&data, outputs, None);
    let usage = event_disk_usage(&event).unwrap();
    let oldest = *ended.iter().min().unwrap();
    let oldest_bytes = dealer::event::retention::disk_usage(&game_dir(&data, oldest)).unwrap();
    drop(event);

    // A budget one old game over: the oldest game's folder goes (its record stays), nothing
    // is made compact.
    let budget = budget_thinning_to(&data, outputs, usage - oldest_bytes / 2);
    let event = open_event(&data, outputs, Some(budget));
    let report = run_pass(&event, true, &StopSignal::never()).unwrap();
    assert!(report.compacted.is_empty(), "{report:?}");
    assert_eq!(
        report.pruned.first(),
        Some(&oldest),
        "oldest first: {report:?}"
    );
    let on_disk: u64 = ended
        .iter()
        .map(|&n| dealer::event::retention::disk_usage(&game_dir(&data, n)).unwrap())
        .sum();
    assert_eq!(
        event.store().games_disk_bytes().unwrap(),
        on_disk,
        "the database's measure is the disk's"
    );
    for &number in &report.pruned {
        let game = game_dir(&data, number);
        assert!(!game.exists(), "game {number}'s folder is deleted");
        let index = ended.iter().position(|&n| n == number).unwrap();
        assert_eq!(
            viewer_view(&event, number),
            views[index],
            "game {number} regenerated from its record"
        );
        // `dealer replay` plays it from the database's record and checks its result there.
        let out = dir.path().join(format!("replayed-{number}"));
        let (said, log) = dealer_replay(&game, &out);
        assert!(
            said.contains("Identical") && said.contains("record"),
            "game {number}: {said}"
        );
        assert_eq!(
            Some(log.as_str()),
            views[index].as_ref().map(|(_, live)| live.as_str()),
            "game {number}: dealer replay's log.json"
        );
    }
    // A game whose files are still there: `dealer replay` compares the record's replay with
    // every one of them.
    let newest = games_page(event.store(), 1, 1000)
        .unwrap()
        .games
        .iter()
        .filter(|g| g.state == "finished")
        .map(|g| g.number)
        .max()
        .unwrap();
    let (said, _) = dealer_replay(
        &game_dir(&data, newest),
        &dir.path().join("replayed-newest"),
    );
    assert!(
        said.contains("Identical") && said.contains("log.json") && said.contains("requests.jsonl"),
        "{said}"
    );
    assert_eq!(recorded(&event), before, "the database keeps every result");

    // The most recently opened games keep their files longest: open the oldest game still
    // kept, then tighten the budget by one game: the one after it goes instead.
    let mut cached: Vec<u32> = ended
        .iter()
        .copied()
        .filter(|&n| game_dir(&data, n).exists())
        .collect();
    cached.sort_unstable();
    let (opened, next) = (cached[0], cached[1]);
    viewer(&event).open_log(GAMES_DIR, opened).unwrap();
    // The open is noted by the next pass (the viewer never writes to the database itself);
    // within the budget, it deletes nothing.
    let report = run_pass(&event, false, &StopSignal::never()).unwrap();
    assert!(report.pruned.is_empty(), "{report:?}");
    drop(event);
    let event = open_event(&data, outputs, None);
    let usage = event_disk_usage(&event).unwrap();
    drop(event);
    let next_bytes = dealer::event::retention::disk_usage(&game_dir(&data, next)).unwrap();
    let budget = budget_thinning_to(&data, outputs, usage - next_bytes / 2);
    let event = open_event(&data, outputs, Some(budget));
    let report = run_pass(&event, false, &StopSignal::never()).unwrap();
    assert!(report.pruned.contains(&next), "{report:?}");
    assert!(!report.pruned.contains(&opened), "{report:?}");
    assert!(game_dir(&data, opened).exists());

    // A budget below what the newest games take: the budget wins over `compress_after`, every
    // game's files go (none is being played), every result and record stays, every game
    // still opens.
    drop(event);
    let event = open_event(&data, outputs, Some(1));
    run_pass(&event, false, &StopSignal::never()).unwrap();
    for &number in &ended {
        assert!(!game_dir(&data, number).exists(), "game {number}");
    }
    let forced = event.status().disk_budget.unwrap();
    assert!(forced.dropped_early >= 1, "{forced:?}");
    let page = games_page(event.store(), 1, 1000).unwrap();
    for (index, &number) in ended.iter().enumerate() {
        let game = page.games.iter().find(|g| g.number == number).unwrap();
        if game.state == "finished" {
            assert_eq!(viewer_view(&event, number), views[index], "game {number}");
        } else {
            // A game cut by the stop has no record: its files were the last to go.
            assert_eq!(game.files, GameFiles::Pruned, "game {number}");
        }
    }
    assert_eq!(recorded(&event), before, "the database keeps every result");
    assert!(page
        .games
        .iter()
        .all(|g| g.files != GameFiles::Compact && (g.has_record || g.state == "abandoned")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_disk_budget_deletes_the_least_recently_used_files_and_games_still_open_one_hands_file()
{
    budget_prunes_the_least_recently_used(ONE_FILE).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_disk_budget_deletes_the_least_recently_used_files_and_games_still_open_per_hand_files()
{
    budget_prunes_the_least_recently_used(PER_HAND).await;
}

/// Short of free space on the disk (below the margin and a tenth), retention deletes old
/// games' full files to make room as it does for the budget: all but the newest
/// `compress_after`, every game still opening from its record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn below_the_free_space_margin_old_games_files_make_room() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("event");
    let event = open_event(&data, ONE_FILE, None);
    play_games(&event, 8).await;
    run_pass(&event, true, &StopSignal::never()).unwrap();
    let ended: Vec<u32> = games_page(event.store(), 1, 1000)
        .unwrap()
        .games
        .iter()
        .map(|g| g.number)
        .collect();
    let views: Vec<_> = ended.iter().map(|&n| viewer_view(&event, n)).collect();
    let before = recorded(&event);
    drop(event);
    // A margin just over what the disk has free: the event's own files are the room it can make.
    let free = dealer::event::space::free_bytes(&data).unwrap();
    let mut settings = crate::support::event::settings(
        &data,
        &event_config(ONE_FILE),
        EventFlags {
            compress_after: Some(GamesLimit::parse("2").unwrap()),
            ..EventFlags::default()
        },
    );
    settings.retention.disk_budget = None;
    settings.retention.min_free_space = Some(free);
    let event = Event::open(settings).unwrap();
    let report = run_pass(&event, false, &StopSignal::never()).unwrap();
    let mut newest = ended.clone();
    newest.sort_unstable();
    let (old, recent) = newest.split_at(newest.len() - 2);
    for &number in old {
        assert!(report.pruned.contains(&number), "game {number}: {report:?}");
        assert!(!game_dir(&data, number).exists());
    }
    for &number in recent {
        assert!(game_dir(&data, number).exists(), "game {number}");
    }
    for (index, &number) in ended.iter().enumerate() {
        assert_eq!(viewer_view(&event, number), views[index], "game {number}");
    }
    assert_eq!(recorded(&event), before, "the database keeps every result");
    // The SDK's recordings loader reads the event's folder as it is now (the database, the
    // reserve and the kept games' files beside deleted ones): the newest games' requests.
    assert!(data.join(dealer::event::space::RESERVE_FILE).is_file());
    let loaded = player::testing::try_load(&data).unwrap();
    let kept_states = recent
        .iter()
        .map(|&n| {
            std::fs::read_to_string(game_dir(&data, n).join("requests.jsonl"))
                .map(|text| text.lines().count())
                .unwrap_or(0)
        })
        .sum::<usize>();
    assert_eq!(loaded.len(), kept_states);
}

/// The hands of a viewer log that reached their winner announcement, counted from the text
/// (each entry's `round` follows its `type`), independently of the dealer's log reader.
fn finished_hands_in(log: &str) -> u64 {
    let mut rounds = std::collections::BTreeSet::new();
    for (at, _) in log.match_indices(r#"{"type":"winner_announcement""#) {
        let rest = &log[at..];
        let Some(round_at) = rest.find(r#""round":"#) else {
            continue;
        };
        let digits: String = rest[round_at + 8..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        // An entry cut before its round is not a finished hand.
        if rest[round_at + 8 + digits.len()..].starts_with(',') {
            rounds.insert(digits.parse::<u64>().unwrap());
        }
    }
    rounds.len() as u64
}

#[test]
fn a_game_cut_off_by_kill_9_gets_its_hand_count_from_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("event");
    let config = dir.path().join("event.toml");
    // No hand limit: games long enough to be cut in the middle.
    let text = event_config(ONE_FILE).replace("hand_limit = 12\n", "");
    std::fs::write(&config, text).unwrap();
    let serve = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_dealer"));
        command
            .env_remove("RUST_LOG")
            .args(["serve", "--bind", "127.0.0.1:0", "--quiet", "--config"])
            .arg(&config)
            .arg("--data")
            .arg(&data)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command
    };
    let running_games = || -> Vec<u32> {
        let Ok(db) = rusqlite::Connection::open_with_flags(
            data.join("event.sqlite"),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        ) else {
            return Vec::new();
        };
        let Ok(mut statement) = db.prepare("SELECT number FROM games WHERE state = 'running'")
        else {
            return Vec::new();
        };
        let rows = statement.query_map([], |row| row.get(0)).unwrap();
        rows.collect::<Result<_, _>>().unwrap_or_default()
    };
    // Kill while a game that played a few hands is running; a game can end between the look
    // and the kill (three bots finish fast), so try again with a new start then.
    let mut running = Vec::new();
    for _attempt in 0..5 {
        let mut child = serve().spawn().unwrap();
        let started = Instant::now();
        loop {
            assert!(started.elapsed() < DEADLINE, "no game played 3 hands");
            std::thread::sleep(Duration::from_millis(10));
            let playing = running_games();
            let deep_enough = playing.iter().any(|&number| {
                let log = std::fs::read_to_string(game_dir(&data, number).join("log.json"))
                    .unwrap_or_default();
                finished_hands_in(&log) >= 3
            });
            if deep_enough {
                break;
            }
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        // The database still says running: the next start records the games cut off.
        running = running_games();
        if !running.is_empty() {
            break;
        }
    }
    assert!(!running.is_empty(), "kill -9 cut no game in five tries");
    let event = crate::support::event::open(&data, &std::fs::read_to_string(&config).unwrap());
    let page = games_page(event.store(), 1, 1000).unwrap();
    for number in running {
        let log = std::fs::read_to_string(game_dir(&data, number).join("log.json")).unwrap();
        let expected = finished_hands_in(&log);
        let row = page.games.iter().find(|g| g.number == number).unwrap();
        assert_eq!(row.state, "abandoned");
        assert_eq!(
            row.hands,
            Some(expected as i64),
            "game {number} in the database"
        );
        let abandoned: serde_json::Value = serde_json::from_slice(
            &std::fs::read(game_dir(&data, number).join("abandoned.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(
            abandoned["hands_played"],
            serde_json::json!(expected),
            "game {number}'s abandoned.json"
        );
        assert!(
            expected >= 3,
            "game {number} had {expected} hands at the kill"
        );
    }
}

/// The budget wins over `compress_after` (issue 34): with games ending faster than a pass
/// thins them (pause 1 ms) and a budget of the database and two games' full files, the folder, sampled
/// every few ms and at every game's end while 24 games are played, never holds more than the
/// budget, beyond what a game writes past the largest before it (the room held back for the
/// game in play) and the database's pages written since the last pass. The newest games are
/// compressed, then their files deleted, early; every finished game still opens from its
/// record, as it was played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_folder_keeps_within_its_disk_budget_while_games_are_played() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("event");
    // Learn what a game and the database take here, with no budget.
    let event = open_event(&data, PER_HAND, None);
    play_games(&event, 4).await;
    let largest_game = (1..=4)
        .map(|n| dealer::event::retention::disk_usage(&game_dir(&data, n)).unwrap())
        .max()
        .unwrap();
    drop(event);
    let disk = |path: &Path| dealer::event::retention::disk_usage(path).unwrap();
    // The database (its write-ahead log at its limit) and the reserve, and two games' full
    // files: one for the game in play.
    let budget = disk(&data) - disk(&data.join(GAMES_DIR)) + WAL_LIMIT_BYTES + 3 * largest_game / 2;
    let event = open_event(&data, PER_HAND, Some(budget));
    // The folder the first part left is over the new budget: thinned before sampling.
    run_pass(&event, true, &StopSignal::never()).unwrap();
    let (handle, stop) = dealer::runner::stop_signal();
    let retention = tokio::spawn(dealer::event::retention::run_retention(
        Arc::clone(&event),
        stop.clone(),
    ));
    let rounds = tokio::spawn(scheduler::run_rounds(Arc::clone(&event), stop));
    let started = Instant::now();
    let (mut most, mut most_games, mut finished) = (0, 0, 0);
    let mut at_game_ends = 0;
    while finished < 28 {
        assert!(
            started.elapsed() < DEADLINE,
            "28 games not finished in {DEADLINE:?}"
        );
        // What the disk holds (the game being played too), not the database's view of it.
        if let Ok(now) = dealer::event::retention::disk_usage(&data) {
            if now > most {
                let games = dealer::event::retention::disk_usage(&data.join(GAMES_DIR));
                most_games = games.unwrap_or(0);
            }
            most = most.max(now);
        }
        let now_finished = event.status().games_finished;
        if now_finished > finished {
            at_game_ends += 1;
            finished = now_finished;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    handle.stop();
    rounds.await.unwrap();
    retention.await.unwrap();
    let status = event.status().disk_budget.unwrap();
    // One table a round: the allowance is the largest game measured over the run.
    let grown = status.in_play_allowance.saturating_sub(largest_game);
    // What the database writes between two passes (the games' rows and records: a few KB a
    // game; a page or two past its log's limit while a checkpoint waits) is not held back.
    const DATABASE_GROWTH: u64 = 64 * 1024;
    assert!(
        most <= budget + grown + DATABASE_GROWTH,
        "the folder reached {most} bytes ({most_games} of games) for a budget of {budget} \
         (a game took up to {largest_game} before, {} during the run)",
        status.in_play_allowance
    );
    assert!(at_game_ends >= 10, "sampled at {at_game_ends} game ends");
    assert!(
        status.compressed_early + status.dropped_early >= 3,
        "the budget forced nothing early: {status:?}"
    );
    let page = games_page(event.store(), 1, 1000).unwrap();
    let pruned = page
        .games
        .iter()
        .filter(|g| g.files == GameFiles::Pruned)
        .count();
    assert!(pruned >= 3, "{pruned} games' files deleted");
    for game in page.games.iter().filter(|g| g.state == "finished") {
        assert!(game.has_record, "game {}", game.number);
        assert!(
            viewer_view(&event, game.number).is_some(),
            "game {} opens",
            game.number
        );
    }
}
