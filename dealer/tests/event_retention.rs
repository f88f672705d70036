//! What an all-day event keeps of its old games (`event::retention`): logs compressed in
//! place and served by the viewer exactly as before, folders pruned with every point kept,
//! half-done compressions repaired at start-up, a damaged `.gz` a clear error, and event
//! games opened by the read-only runs view (`dealer serve --out DATA`).

use crate::support::wait::DEADLINE;
use dealer::event::queries::games_page;
use dealer::event::retention::{compress_game, run_pass, PassReport};
use dealer::event::settings::{resolve_event, EventFile, EventFlags, FreeSpace, GamesLimit};
use dealer::event::store::{GameFiles, GAMES_DIR};
use dealer::event::{scheduler, Event};
use dealer::runner::StopSignal;
use dealer::web::store::{FolderError, GameStatus, ResultsFolder};
use dealer::web::{serve_results, WebOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Three house bots, short games (a hand limit), no pause: a few games a second.
const EVENT: &str = "hand_limit = 12\npause_ms = 1\nseed = 11\n\
    [[bot]]\nname = \"ann\"\nkind = \"raiser\"\n\
    [[bot]]\nname = \"bob\"\nkind = \"calling-station\"\n\
    [[bot]]\nname = \"cy\"\nkind = \"random\"\n";

fn open_event(data: &Path, compress_after: &str, keep_games: &str) -> Arc<Event> {
    let settings = crate::support::event::settings(
        data,
        EVENT,
        EventFlags {
            compress_after: Some(GamesLimit::parse(compress_after).unwrap()),
            keep_games: Some(GamesLimit::parse(keep_games).unwrap()),
            ..EventFlags::default()
        },
    );
    Event::open(settings).unwrap()
}

/// Plays rounds with nothing compressed until `games` have finished, then stops.
async fn play_games(data: &Path, games: usize) {
    let event = open_event(data, "off", "off");
    let (handle, stop) = dealer::runner::stop_signal();
    let rounds = tokio::spawn(scheduler::run_rounds(Arc::clone(&event), stop));
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

/// Every file of a game folder (relative path → bytes), `.gz` decompressed under the plain
/// name.
fn plain_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let name = path.strip_prefix(dir).unwrap().display().to_string();
            let bytes = std::fs::read(&path).unwrap();
            match name.strip_suffix(".gz") {
                Some(plain) => {
                    let mut out = Vec::new();
                    std::io::Read::read_to_end(
                        &mut flate2::read::GzDecoder::new(&bytes[..]),
                        &mut out,
                    )
                    .unwrap();
                    files.push((plain.to_string(), out));
                }
                None => files.push((name, bytes)),
            }
        }
    }
    files.sort();
    files
}

/// What the viewer answers for game `number` of the event: details, log, every player's
/// requests and log, the first request as a fixture, and the live view's bytes.
fn viewer_answers(data: &Path, number: u32) -> Vec<String> {
    let folder = ResultsFolder::new(data).unwrap();
    let details = folder.game(GAMES_DIR, number).unwrap();
    let mut answers = vec![
        serde_json::to_string(&details).unwrap(),
        serde_json::to_string(&folder.game_log(GAMES_DIR, number).unwrap()).unwrap(),
        serde_json::to_string(&folder.request_state(GAMES_DIR, number, 1).unwrap()).unwrap(),
    ];
    assert_eq!(details.players.len(), 3, "{details:?}");
    for player in &details.players {
        answers.push(
            serde_json::to_string(&folder.player(GAMES_DIR, number, &player.name).unwrap())
                .unwrap(),
        );
    }
    let (mut live, _) = folder.open_log(GAMES_DIR, number).unwrap();
    let mut bytes = String::new();
    std::io::Read::read_to_string(&mut live, &mut bytes).unwrap();
    answers.push(bytes);
    answers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_games_are_compressed_in_place_and_the_viewer_serves_them_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("event");
    play_games(&data, 4).await;
    let before: Vec<_> = (1..=3).map(|n| viewer_answers(&data, n)).collect();
    let files_before: Vec<_> = (1..=3).map(|n| plain_files(&game_dir(&data, n))).collect();

    let event = open_event(&data, "1", "off");
    let ended = event
        .store()
        .ended_games_beyond(0, &[GameFiles::Kept])
        .unwrap();
    let report = run_pass(&event, true, &StopSignal::never()).unwrap();
    let expected: Vec<u32> = ended.iter().rev().skip(1).rev().map(|g| g.number).collect();
    assert_eq!(report.compressed, expected, "all but the newest ended game");
    assert!(report.compressed.len() >= 3, "{report:?}");

    for number in 1..=3 {
        let game = game_dir(&data, number);
        for plain in ["log.json", "requests.jsonl"] {
            assert!(!game.join(plain).exists(), "{plain} is replaced");
            assert!(game.join(format!("{plain}.gz")).is_file());
        }
        assert!(game.join("players/ann.log.gz").is_file());
        // The setup, the decks and the result stay readable as they are.
        assert!(game.join("game.json").is_file() && game.join("result.json").is_file());
        assert_eq!(plain_files(&game), files_before[number as usize - 1]);
        assert_eq!(viewer_answers(&data, number), before[number as usize - 1]);
    }
    let page = games_page(event.store(), 1, 50).unwrap();
    assert!(page
        .games
        .iter()
        .all(|g| (g.files == GameFiles::Compressed) == report.compressed.contains(&g.number)));
    // A second pass has nothing left to do.
    assert_eq!(
        run_pass(&event, false, &StopSignal::never()).unwrap(),
        PassReport::default()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pruning_deletes_old_folders_and_keeps_points_leaderboard_and_history() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("event");
    play_games(&data, 4).await;
    let event = open_event(&data, "off", "off");
    let leaderboard = serde_json::to_value(event.leaderboard().unwrap().players).unwrap();
    let history = serde_json::to_value(event.history(1000).unwrap()).unwrap();
    let games = games_page(event.store(), 1, 50).unwrap();
    drop(event);

    let event = open_event(&data, "off", "2");
    let report = run_pass(&event, true, &StopSignal::never()).unwrap();
    assert_eq!(report.pruned.len(), games.games.len() - 2, "{report:?}");
    for game in &games.games {
        let pruned = report.pruned.contains(&game.number);
        assert_eq!(!game_dir(&data, game.number).exists(), pruned);
    }
    assert_eq!(
        serde_json::to_value(event.leaderboard().unwrap().players).unwrap(),
        leaderboard
    );
    assert_eq!(
        serde_json::to_value(event.history(1000).unwrap()).unwrap(),
        history
    );
    let after = games_page(event.store(), 1, 50).unwrap();
    for (old, new) in games.games.iter().zip(&after.games) {
        assert_eq!(
            (old.number, &old.standings, old.hands),
            (new.number, &new.standings, new.hands)
        );
        let expected = if report.pruned.contains(&new.number) {
            GameFiles::Pruned
        } else {
            GameFiles::Kept
        };
        assert_eq!(new.files, expected, "game {}", new.number);
    }
    // The read-only view lists the kept games only, and still opens them.
    let folder = ResultsFolder::new(&data).unwrap();
    let listed: Vec<u32> = folder
        .run(GAMES_DIR)
        .unwrap()
        .games
        .iter()
        .map(|g| g.game)
        .collect();
    assert!(
        report.pruned.iter().all(|n| !listed.contains(n)),
        "{listed:?}"
    );
    assert!(matches!(
        folder.game(GAMES_DIR, report.pruned[0]),
        Err(FolderError::NotFound(_))
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_done_compression_and_pruning_are_repaired_at_start_up() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("event");
    play_games(&data, 3).await;
    let game = game_dir(&data, 1);
    let before = plain_files(&game);
    let answers = viewer_answers(&data, 1);
    // kill -9 while writing: a partial temporary file beside the original.
    std::fs::write(game.join("log.json.gz.tmp"), b"\x1f\x8b partial").unwrap();
    // kill -9 between the rename and the removal: both the original and a `.gz`.
    std::fs::write(game.join("requests.jsonl.gz"), b"\x1f\x8b cut").unwrap();
    std::fs::write(game.join("players/bob.log.gz"), b"not gzip").unwrap();
    // The viewer reads the originals meanwhile.
    assert_eq!(viewer_answers(&data, 1), answers);
    // kill -9 in the middle of a prune: recorded pruned, folder still there.
    let event = open_event(&data, "off", "off");
    event
        .store()
        .set_game_files(2, GameFiles::Pruned, None)
        .unwrap();
    drop(event);

    // A restart with compression off still repairs, and keeps every original.
    let event = open_event(&data, "off", "off");
    let report = run_pass(&event, true, &StopSignal::never()).unwrap();
    assert_eq!(report.repaired, 3, "{report:?}");
    assert!(
        !game_dir(&data, 2).exists(),
        "the pruned game's folder is deleted again"
    );
    assert_eq!(plain_files(&game), before, "only the originals are left");
    assert!(!game.join("log.json.gz.tmp").exists());
    drop(event);

    // A stop during a pass leaves the game as it was.
    let (handle, stop) = dealer::runner::stop_signal();
    handle.stop();
    assert_eq!(compress_game(&game, &stop).unwrap(), None);
    assert!(game.join("log.json").is_file() && !game.join("log.json.gz").exists());

    // Then compression happens as if nothing had been interrupted.
    let event = open_event(&data, "0", "off");
    let report = run_pass(&event, true, &StopSignal::never()).unwrap();
    assert!(report.compressed.contains(&1), "{report:?}");
    assert!(!game.join("log.json").exists());
    assert_eq!(plain_files(&game), before);
    assert_eq!(viewer_answers(&data, 1), answers);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_gz_is_a_clear_error_never_a_500() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("event");
    play_games(&data, 2).await;
    let event = open_event(&data, "0", "off");
    run_pass(&event, true, &StopSignal::never()).unwrap();
    let game = game_dir(&data, 1);
    let log = std::fs::read(game.join("log.json.gz")).unwrap();
    // Cut in half, and garbage.
    std::fs::write(game.join("log.json.gz"), &log[..log.len() / 2]).unwrap();
    std::fs::write(game.join("requests.jsonl.gz"), b"\x1f\x8b\x08\x00garbage").unwrap();

    let server = serve_results(
        data.clone(),
        WebOptions {
            bind: "127.0.0.1:0".parse().unwrap(),
            workers: Some(1),
        },
    )
    .unwrap();
    let client = reqwest::Client::new();
    let base = format!("{}api/runs/{GAMES_DIR}/games/1", server.url());
    for path in ["/log", "/requests/1", "/players/ann"] {
        let response = client.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 422, "{path}");
        let body: serde_json::Value =
            serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
        let error = body["error"].as_str().unwrap();
        assert!(
            error.contains("is damaged or cut off") && error.contains(".gz"),
            "{path}: {error}"
        );
    }
    // The game itself and the other games are still served.
    let response = client.get(&base).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let other = format!("{}api/runs/{GAMES_DIR}/games/2/log", server.url());
    assert_eq!(
        client.get(other).send().await.unwrap().status().as_u16(),
        200
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn event_games_open_in_the_read_only_runs_view() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("event");
    play_games(&data, 2).await;
    let event = open_event(&data, "off", "off");
    let games = games_page(event.store(), 1, 50).unwrap();
    let folder = ResultsFolder::new(&data).unwrap();
    let runs = folder.runs().unwrap();
    assert!(runs.iter().any(|run| run.id == GAMES_DIR), "{runs:?}");
    let summary = folder.run(GAMES_DIR).unwrap();
    for row in &games.games {
        let listed = summary.games.iter().find(|g| g.game == row.number).unwrap();
        let details = folder.game(GAMES_DIR, row.number).unwrap();
        if row.state == "finished" {
            assert_eq!(listed.status, GameStatus::Finished, "game {}", row.number);
            assert!(listed.recorded);
            assert_eq!(listed.winner, row.winner);
            let result = details.result.expect("the game's result");
            let names: Vec<&str> = result.standings.iter().map(|s| s.name.as_str()).collect();
            let expected: Vec<&str> = row.standings.iter().map(|s| s.name.as_str()).collect();
            assert_eq!(names, expected);
            assert_eq!(Some(result.result.hands_played as i64), row.hands);
        } else {
            // The game cut off by the stop.
            assert_eq!(
                listed.status,
                GameStatus::Interrupted,
                "game {}",
                row.number
            );
        }
        assert_eq!(details.status, listed.status);
    }
    assert!(games.games.iter().filter(|g| g.state == "finished").count() >= 2);
}

#[test]
fn retention_settings_come_from_the_file_and_the_flags_with_clear_errors() {
    let resolve = |file: &str, flags: EventFlags| {
        toml::from_str::<EventFile>(file)
            .map_err(|error| error.to_string())
            .and_then(|file| resolve_event(flags, file).map_err(|error| error.to_string()))
            .map(|settings| settings.retention)
    };
    let defaults = resolve("", EventFlags::default()).unwrap();
    assert_eq!(
        (defaults.compress_after, defaults.keep_games),
        (Some(20), None)
    );
    let set = resolve(
        "compress_after = \"off\"\nkeep_games = 500\n",
        EventFlags::default(),
    )
    .unwrap();
    assert_eq!((set.compress_after, set.keep_games), (None, Some(500)));
    let flags = EventFlags {
        compress_after: Some(GamesLimit::parse("3").unwrap()),
        keep_games: Some(GamesLimit::Off),
        ..EventFlags::default()
    };
    let flagged = resolve("compress_after = 9\nkeep_games = 500\n", flags).unwrap();
    assert_eq!(
        (flagged.compress_after, flagged.keep_games),
        (Some(3), None)
    );
    for (file, expected) in [
        (
            "compress_after = \"never\"",
            "expected a number of games or \"off\", got \"never\"",
        ),
        (
            "keep_games = -1",
            "expected a number of games or \"off\", got -1",
        ),
        ("keep_games = 0", "keep_games"),
    ] {
        let error = resolve(file, EventFlags::default()).unwrap_err();
        assert!(error.contains(expected), "{file}: {error}");
    }
    assert!(GamesLimit::parse("soon").is_err());
    // The free-space margin: 256 MB unless set, any size, or off.
    assert_eq!(defaults.min_free_space, Some(256_000_000));
    let margin = |file: &str, flag: Option<&str>| {
        let flags = EventFlags {
            min_free_space: flag.map(|text| FreeSpace::parse(text).unwrap()),
            ..EventFlags::default()
        };
        resolve(file, flags).map(|retention| retention.min_free_space)
    };
    assert_eq!(
        margin("min_free_space = \"1 GiB\"", None),
        Ok(Some(1 << 30))
    );
    assert_eq!(margin("min_free_space = \"1 GiB\"", Some("off")), Ok(None));
    assert_eq!(margin("", Some("2MB")), Ok(Some(2_000_000)));
    let error = margin("min_free_space = \"lots\"", None).unwrap_err();
    assert!(
        error.contains("expected a disk size such as \"256 MB\""),
        "{error}"
    );
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_dealer"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for text in [
        "--compress-after <N|off>",
        "--keep-games <N|off>",
        "compress_after = 20",
        "--min-free-space <SIZE|off>",
        "min_free_space = \"256 MB\"",
    ] {
        assert!(help.contains(text), "{text} in:\n{help}");
    }
}
