//! `dealer serve --out DIR` on an event's folder (issue 17: it showed no leaderboard, so the
//! final standings needed a `serve --data`, which starts playing again): the leaderboard, the
//! points chart and the games come from the event's database opened read-only, every change
//! is refused with 403, nothing in the folder is written, and it reads an event that another
//! server is still playing.

use super::event_serve::{db_points, integrity_ok, Server, BOTS, TOKEN};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

/// Every file under `dir` with its length and modification time, to show nothing changed;
/// SQLite's `-wal` and `-shm` files are left out: any reader of a WAL database (a read-only
/// one too) creates them to share its index with the writer, and they hold no data of ours.
fn snapshot(dir: &Path) -> Vec<(String, u64, std::time::SystemTime)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            if meta.is_dir() {
                stack.push(entry.path());
            } else if !entry.path().to_string_lossy().ends_with("-wal")
                && !entry.path().to_string_lossy().ends_with("-shm")
            {
                files.push((
                    entry.path().display().to_string(),
                    meta.len(),
                    meta.modified().unwrap(),
                ));
            }
        }
    }
    files.sort();
    files
}

fn points_of(board: &Value) -> Vec<(String, i64, i64)> {
    let mut points: Vec<(String, i64, i64)> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["points"].as_i64().unwrap(),
                p["games"].as_i64().unwrap(),
            )
        })
        .collect();
    points.sort();
    points
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_folder_served_read_only_shows_its_standings_and_changes_nothing() {
    let temp = tempfile::tempdir().unwrap();
    let data = temp.path().join("event");
    let mut live = Server::start(&data, BOTS);
    live.wait_for("3 finished games", |s| {
        s["games_finished"].as_u64() >= Some(3)
    })
    .await;

    // While the event plays on: a second, read-only server of the same folder (a second
    // projector, or the organiser's laptop on a shared disk) reads its standings.
    let watcher = Server::read_only(&data);
    let (status, mode) = watcher.get("/api/mode").await;
    assert_eq!(status, 200);
    assert_eq!(mode, json!({"event": true, "read_only": true}));
    let (status, board) = watcher.get("/api/event/leaderboard").await;
    assert_eq!(status, 200, "{board}");
    let seen = board["event"]["games_finished"].as_u64().unwrap();
    assert!(seen >= 3, "{board}");
    // Games the other server finishes from now on reach the watcher's status and chart too.
    live.wait_for("2 more finished games", |s| {
        s["games_finished"].as_u64() >= Some(seen + 2)
    })
    .await;

    assert_eq!(live.signal("-TERM"), Some(0));
    integrity_ok(&data);
    let in_database = db_points(&data);
    let (_, status) = watcher.get("/api/event").await;
    let watched = status["games_finished"].as_u64().unwrap();
    assert!(watched >= seen + 2, "{status}");
    let (_, history) = watcher.get("/api/event/history").await;
    for series in history["series"].as_array().unwrap() {
        let name = series["name"].as_str().unwrap();
        let last = series["points"].as_array().unwrap().last().unwrap();
        let expected = in_database.iter().find(|p| p.0 == name).unwrap().1;
        assert_eq!(last.as_i64(), Some(expected), "watcher, {name}: {history}");
    }
    drop(watcher);
    let before = snapshot(&data);

    let archive = Server::read_only(&data);
    let (_, status) = archive.get("/api/event").await;
    assert_eq!(status["read_only"], true, "{status}");
    assert_eq!(status["seed"], "9", "the event's seed, from its database");
    let finished = status["games_finished"].as_u64().unwrap();
    assert_eq!(
        finished, watched,
        "the watcher saw every game the archive has"
    );
    let (status, board) = archive.get("/api/event/leaderboard").await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(points_of(&board), in_database, "{board}");
    let total: i64 = in_database.iter().map(|p| p.1).sum();
    assert_eq!(total, 8 * finished as i64, "5 + 3 points a finished game");

    // The chart starts at the first game and ends at the leaderboard's points.
    let (status, history) = archive.get("/api/event/history").await;
    assert_eq!(status, 200, "{history}");
    assert_eq!(history["games"][0], 1, "{history}");
    for series in history["series"].as_array().unwrap() {
        let name = series["name"].as_str().unwrap();
        let last = series["points"].as_array().unwrap().last().unwrap();
        let expected = in_database.iter().find(|p| p.0 == name).unwrap().1;
        assert_eq!(last.as_i64(), Some(expected), "{name}: {history}");
    }
    let (_, games) = archive.get("/api/event/games?per_page=200").await;
    let ended = games["games"].as_array().unwrap();
    assert!(
        ended.iter().filter(|g| g["state"] == "finished").count() as u64 == finished,
        "{games}"
    );
    let (status, players) = archive.get("/api/event/players").await;
    assert_eq!(status, 200);
    assert_eq!(players.as_array().unwrap().len(), 3, "{players}");

    // Every change is refused, with the token too, and says why.
    let add = json!({"name": "dan", "bot": "raiser"}).to_string();
    for (method, path, body) in [
        (reqwest::Method::POST, "/api/event/players", add),
        (
            reqwest::Method::PATCH,
            "/api/event/players/1",
            json!({"status": "paused"}).to_string(),
        ),
        (
            reqwest::Method::DELETE,
            "/api/event/players/1",
            String::new(),
        ),
    ] {
        let (status, answer) = archive
            .organiser(method.clone(), path, Some(TOKEN), body)
            .await;
        assert_eq!(status, 403, "{method} {path}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains("read-only"),
            "{answer}"
        );
    }
    // The page and a game's log are served as by the event's own server.
    let (status, _) = archive.get("/event").await;
    assert_eq!(status, 200);
    let (_, runs) = archive.get("/api/runs").await;
    let run = runs[0]["id"].as_str().unwrap_or_else(|| panic!("{runs}"));
    let (status, log) = archive.get(&format!("/api/runs/{run}/games/1/log")).await;
    assert_eq!(status, 200, "{log}");
    drop(archive);

    assert_eq!(snapshot(&data), before, "serving read-only wrote nothing");
    assert_eq!(db_points(&data), in_database);
}

#[test]
fn a_database_from_a_newer_dealer_is_one_line_not_a_changed_file() {
    let temp = tempfile::tempdir().unwrap();
    let data = temp.path().join("event");
    std::fs::create_dir_all(&data).unwrap();
    let db = rusqlite::Connection::open(data.join("event.sqlite")).unwrap();
    db.execute_batch(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); PRAGMA user_version = 99;",
    )
    .unwrap();
    drop(db);
    let before = std::fs::read(data.join("event.sqlite")).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_dealer"))
        .env_remove("RUST_LOG")
        .args(["serve", "--bind", "127.0.0.1:0", "--out"])
        .arg(&data)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("schema version 99") && stderr.contains("newer dealer"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(data.join("event.sqlite")).unwrap(), before);
}
