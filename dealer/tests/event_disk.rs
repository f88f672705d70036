//! An event's disk over a day (issue 17): the disk budget thins the oldest games to their
//! compact form (then prunes them) and the viewer still opens them with the log they wrote;
//! a game cut off by `kill -9` gets its hand count from its log at the next start; a full
//! disk pauses the event with a visible reason, loses nothing, and play resumes by itself
//! once space is back.

use dealer::event::queries::games_page;
use dealer::event::retention::{event_disk_usage, run_pass, BUDGET_HEADROOM};
use dealer::event::settings::{resolve_event, EventFile, EventFlags, GamesLimit};
use dealer::event::store::{GameFiles, GAMES_DIR};
use dealer::event::{scheduler, Event};
use dealer::runner::StopSignal;
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
    let file: EventFile = toml::from_str(&event_config(outputs)).unwrap();
    let mut settings = resolve_event(
        EventFlags {
            data: Some(data.to_path_buf()),
            compress_after: Some(GamesLimit::parse("2").unwrap()),
            ..EventFlags::default()
        },
        file,
    )
    .unwrap();
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
            started.elapsed() < Duration::from_secs(60),
            "{games} games not finished in a minute"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    handle.stop();
    rounds.await.unwrap();
}

fn game_dir(data: &Path, number: u32) -> PathBuf {
    data.join(GAMES_DIR).join(format!("game-{number}"))
}

/// What the viewer shows of a game: its log (checked and indexed) and the first request;
/// `None` for a game stopped before its first hand (its log has no entry to show).
fn viewer_view(data: &Path, number: u32) -> Option<(String, String)> {
    let folder = ResultsFolder::new(data).unwrap();
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

async fn budget_thins_then_prunes(outputs: &str) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("event");
    let event = open_event(&data, outputs, None);
    play_games(&event, 10).await;
    let ended: Vec<u32> = games_page(event.store(), 1, 1000)
        .unwrap()
        .games
        .iter()
        .map(|g| g.number)
        .collect();
    let views: Vec<_> = ended.iter().map(|&n| viewer_view(&data, n)).collect();
    // Only a game cut by the stop can have no hand to show; every finished one has its log.
    let page = games_page(event.store(), 1, 1000).unwrap();
    for (game, view) in page.games.iter().zip(&views) {
        assert!(
            view.is_some() || game.state == "abandoned",
            "game {} has no log to show",
            game.number
        );
    }
    let before = recorded(&event);
    // Measured, compressed beyond the newest two; no budget yet.
    let report = run_pass(&event, true, &StopSignal::never()).unwrap();
    assert!(report.compacted.is_empty() && report.pruned.is_empty());
    drop(event);
    // Measured as the next open sees it (closing the database folds its write-ahead log in).
    let event = open_event(&data, outputs, None);
    let usage = event_disk_usage(&event).unwrap();
    let games_bytes = event.store().games_disk_bytes().unwrap();
    let oldest = *ended.iter().min().unwrap();
    let oldest_bytes = dealer::event::retention::disk_usage(&game_dir(&data, oldest)).unwrap();
    drop(event);

    // A budget one old game over: the oldest games are made compact, none pruned.
    let budget = (usage - oldest_bytes / 2) * BUDGET_HEADROOM / (BUDGET_HEADROOM - 1);
    let event = open_event(&data, outputs, Some(budget));
    let report = run_pass(&event, true, &StopSignal::never()).unwrap();
    assert!(!report.compacted.is_empty(), "{report:?}");
    assert!(report.pruned.is_empty(), "{report:?}");
    assert_eq!(report.compacted[0], oldest, "oldest first: {report:?}");
    let after = event.store().games_disk_bytes().unwrap();
    assert!(
        after <= games_bytes - oldest_bytes / 2,
        "{after} bytes of games, {games_bytes} before, for a budget of {budget}"
    );
    assert_eq!(
        after,
        ended
            .iter()
            .map(|&n| dealer::event::retention::disk_usage(&game_dir(&data, n)).unwrap())
            .sum::<u64>(),
        "the database's measure is the disk's"
    );
    for &number in &report.compacted {
        let game = game_dir(&data, number);
        for gone in ["log.json", "log.json.gz", "players", "hands", "decks.jsonl"] {
            assert!(!game.join(gone).exists(), "game {number} keeps {gone}");
        }
        for kept in [
            "game.json",
            "decks.jsonl.gz",
            "requests.jsonl.gz",
            "result.json",
        ] {
            assert!(game.join(kept).is_file(), "game {number} lost {kept}");
        }
        if outputs == ONE_FILE {
            assert!(game.join("hands.phhs.gz").is_file(), "game {number}");
        }
        let index = ended.iter().position(|&n| n == number).unwrap();
        assert_eq!(
            viewer_view(&data, number),
            views[index],
            "game {number} regenerated"
        );
        // `dealer replay` reads the compact folder as it is and writes the full log again.
        let out = dir.path().join(format!("replayed-{number}"));
        let replay = Command::new(env!("CARGO_BIN_EXE_dealer"))
            .env_remove("RUST_LOG")
            .arg("replay")
            .arg(&game)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&replay.stdout);
        assert!(
            replay.status.success() && said.contains("Identical") && said.contains(".gz"),
            "game {number}: {said}{}",
            String::from_utf8_lossy(&replay.stderr)
        );
        let log = std::fs::read_to_string(out.join("log.json")).unwrap();
        assert_eq!(
            Some(log.as_str()),
            views[index].as_ref().map(|(_, live)| live.as_str()),
            "game {number}: dealer replay's log.json"
        );
    }
    let page = games_page(event.store(), 1, 1000).unwrap();
    for game in &page.games {
        let compact = report.compacted.contains(&game.number);
        assert_eq!(
            game.files == GameFiles::Compact,
            compact,
            "game {}",
            game.number
        );
    }
    assert_eq!(recorded(&event), before, "the database keeps every result");

    // A budget below what the compact games take: the oldest are pruned, the newest two
    // stay whole, every result stays.
    drop(event);
    let event = open_event(&data, outputs, Some(1));
    let report = run_pass(&event, false, &StopSignal::never()).unwrap();
    assert_eq!(report.pruned.len(), ended.len() - 2, "{report:?}");
    for &number in &report.pruned {
        assert!(!game_dir(&data, number).exists());
    }
    let mut newest = ended.clone();
    newest.sort_unstable();
    for &number in &newest[newest.len() - 2..] {
        let index = ended.iter().position(|&n| n == number).unwrap();
        assert_eq!(viewer_view(&data, number), views[index]);
    }
    assert_eq!(recorded(&event), before, "the database keeps every result");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_disk_budget_makes_old_games_compact_and_they_still_open_one_hands_file() {
    budget_thins_then_prunes(ONE_FILE).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_disk_budget_makes_old_games_compact_and_they_still_open_per_hand_files() {
    budget_thins_then_prunes(PER_HAND).await;
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
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "no game played 3 hands"
            );
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
    let file: EventFile = toml::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    let settings = resolve_event(
        EventFlags {
            data: Some(data.clone()),
            ..EventFlags::default()
        },
        file,
    )
    .unwrap();
    let event = Event::open(settings).unwrap();
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

/// A tmpfs mounted for one test, unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// Mounts a `size` tmpfs, or says why not (not root, no mount permission in a container).
    fn mount(size: &str) -> Result<SmallDisk, String> {
        let dir = tempfile::tempdir().map_err(|error| error.to_string())?;
        let output = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .output()
            .map_err(|error| format!("cannot run mount: {error}"))?;
        if !output.status.success() {
            return Err(String::from_utf8_lossy(&output.stderr).trim().to_string());
        }
        Ok(SmallDisk { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        // Lazy: a file still open (a failed test's server) does not keep it mounted.
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

/// Each finished game's number, hands and standings as the database has them.
fn finished_games(event: &Event) -> Vec<(u32, Option<i64>, String)> {
    games_page(event.store(), 1, 100_000)
        .unwrap()
        .games
        .iter()
        .filter(|g| g.state == "finished")
        .map(|g| (g.number, g.hands, format!("{:?}", g.standings)))
        .collect()
}

fn integrity(data: &Path) -> String {
    let db = rusqlite::Connection::open_with_flags(
        data.join("event.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    db.query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_pauses_the_event_with_its_reason_loses_nothing_and_play_resumes() {
    let disk = match SmallDisk::mount("8m") {
        Ok(disk) => disk,
        Err(reason) => {
            eprintln!("skipped: cannot mount a small tmpfs to fill ({reason})");
            return;
        }
    };
    let filler = disk.path().join("filler");
    std::fs::write(&filler, vec![7u8; 2 << 20]).unwrap();
    let data = disk.path().join("event");
    let text = format!("recheck_ms = 100\n{}", event_config(PER_HAND));
    let file: EventFile = toml::from_str(&text).unwrap();
    let mut settings = resolve_event(
        EventFlags {
            data: Some(data.clone()),
            compress_after: Some(GamesLimit::parse("2").unwrap()),
            ..EventFlags::default()
        },
        file,
    )
    .unwrap();
    // The disk fills up: no budget to keep it from it.
    settings.retention.disk_budget = None;
    let event = Event::open(settings).unwrap();
    let (handle, stop) = dealer::runner::stop_signal();
    let rounds = tokio::spawn(scheduler::run_rounds(Arc::clone(&event), stop.clone()));
    let retention = tokio::spawn(dealer::event::retention::run_retention(
        Arc::clone(&event),
        stop,
    ));

    let started = Instant::now();
    while event.storage_error().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the 8 MB disk did not fill in two minutes ({} games)",
            event.status().games_finished
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Full: the page's status says why, the scheduling waits.
    let reason = event.status().storage_error.unwrap();
    assert!(
        reason.contains("space") || reason.contains("full"),
        "{reason}"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let full = finished_games(&event);
    assert!(!full.is_empty());
    assert_eq!(integrity(&data), "ok");
    for (number, hands, _) in &full {
        let result = game_dir(&data, *number).join("result.json");
        if let Ok(bytes) = std::fs::read(&result) {
            let result: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(result["hands_played"].as_i64(), *hands);
        }
    }
    let api = serde_json::to_value(event.status()).unwrap();
    assert!(api["storage_error"].is_string(), "{api}");

    // Space comes back: play resumes by itself, the error clears.
    std::fs::remove_file(&filler).unwrap();
    let freed = Instant::now();
    while event.storage_error().is_some() || finished_games(&event).len() <= full.len() + 2 {
        assert!(
            freed.elapsed() < Duration::from_secs(60),
            "no game after space came back: {:?}",
            event.storage_error()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    handle.stop();
    rounds.await.unwrap();
    retention.await.unwrap();
    // Every game ended is recorded (none left "running" for want of a write), and nothing
    // recorded before the disk filled up was lost or changed.
    let page = games_page(event.store(), 1, 100_000).unwrap();
    assert!(page.running.is_empty(), "{:?}", page.running);
    let after = finished_games(&event);
    for game in &full {
        assert!(after.contains(game), "game {} changed or lost", game.0);
    }
    assert_eq!(integrity(&data), "ok");
}

/// With games ending faster than a pass thins them (pause 1 ms), the scheduler holds the next
/// round until retention has brought the folder back within its budget: sampled every few ms
/// while 24 games are played, the folder never grows past the budget by more than the games of
/// one round (the soak bench had written 5.6 GB against a 200 MB budget at pause 0).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_next_round_waits_while_the_folder_is_over_its_disk_budget() {
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
    let usage = dealer::event::retention::disk_usage(&data).unwrap();
    // Room for about three more full games: retention must thin (compact, then prune) to
    // keep up with 24.
    let budget = usage + 3 * largest_game;
    let event = open_event(&data, PER_HAND, Some(budget));
    let (handle, stop) = dealer::runner::stop_signal();
    let retention = tokio::spawn(dealer::event::retention::run_retention(
        Arc::clone(&event),
        stop.clone(),
    ));
    let rounds = tokio::spawn(scheduler::run_rounds(Arc::clone(&event), stop));
    let started = Instant::now();
    let mut most = 0;
    while event.status().games_finished < 28 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "24 games not finished in two minutes"
        );
        // What the disk holds (the game being played too), not the database's view of it.
        if let Ok(now) = dealer::event::retention::disk_usage(&data) {
            most = most.max(now);
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    handle.stop();
    rounds.await.unwrap();
    retention.await.unwrap();
    // One table a round (three bots): the game being played and the one just ended past the
    // budget before a pass thins.
    assert!(
        most <= budget + 2 * largest_game,
        "the folder reached {most} bytes for a budget of {budget} (a game takes up to {largest_game})"
    );
    let thinned = games_page(event.store(), 1, 1000)
        .unwrap()
        .games
        .iter()
        .filter(|g| matches!(g.files, GameFiles::Compact | GameFiles::Pruned))
        .count();
    assert!(thinned >= 3, "{thinned} games thinned");
}
