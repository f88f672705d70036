//! `dealer serve --data DIR`, the binary, as an organiser runs it: every JSON endpoint, the
//! organiser API and its 401s, the leaderboard against the database, `kill -9` in the middle
//! of a game and a restart (nothing finished lost, the database intact), SIGTERM, and a games
//! folder that cannot be written (a clear error on the page and in the log).

use crate::support::wait::DEADLINE;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub(crate) const TOKEN: &str = "organiser-s3cret";

pub(crate) struct Server {
    child: Child,
    base: String,
    log: PathBuf,
    client: reqwest::Client,
}

impl Server {
    pub(crate) fn start(data: &Path, config: &str) -> Server {
        Server::start_with(data, config, "127.0.0.1", &[])
    }

    /// [`Server::start`] on another loopback address (`127.0.0.x`), with more arguments
    /// (`-v` for the info lines, a setting's flag).
    pub(crate) fn start_with(data: &Path, config: &str, ip: &str, more: &[&str]) -> Server {
        let config_path = data.with_extension("toml");
        std::fs::write(&config_path, config).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_dealer"));
        command
            .args([
                "serve",
                "--bind",
                &format!("{ip}:0"),
                "--admin-token",
                TOKEN,
            ])
            .args(more)
            .arg("--config")
            .arg(&config_path)
            .arg("--data")
            .arg(data);
        Server::launch(command, data.with_extension("log"))
    }

    /// `dealer serve --out DIR`: the read-only server of a folder.
    pub(crate) fn read_only(out: &Path) -> Server {
        Server::read_only_with(out, &[])
    }

    /// [`Server::read_only`] with more arguments.
    pub(crate) fn read_only_with(out: &Path, more: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_dealer"));
        command
            .args(["serve", "--bind", "127.0.0.1:0", "--out"])
            .arg(out)
            .args(more);
        Server::launch(command, out.with_extension("read-only.log"))
    }

    fn launch(mut command: Command, log: PathBuf) -> Server {
        let mut child = command
            .env_remove("RUST_LOG")
            .env_remove("DEALER_ADMIN_TOKEN")
            .stdout(Stdio::piped())
            .stderr(Stdio::from(std::fs::File::create(&log).unwrap()))
            .spawn()
            .expect("the dealer binary runs");
        let mut first_line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first_line)
            .unwrap();
        let url = first_line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| {
                panic!(
                    "no address in {first_line:?}; log: {}",
                    std::fs::read_to_string(&log).unwrap_or_default()
                )
            });
        Server {
            child,
            base: url
                .trim_end_matches("event")
                .trim_end_matches('/')
                .to_string(),
            log,
            client: reqwest::Client::new(),
        }
    }

    pub(crate) async fn get(&self, path: &str) -> (u16, Value) {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let bytes = response.bytes().await.unwrap_or_default();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    pub(crate) async fn organiser(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: String,
    ) -> (u16, Value) {
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let bytes = response.bytes().await.unwrap_or_default();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    /// Polls `/api/event` until `done` holds (panics after the tests' deadline,
    /// [`crate::support::wait::DEADLINE`]).
    pub(crate) async fn wait_for(&self, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let (_, status) = self.get("/api/event").await;
            if done(&status) {
                return status;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "{what} not reached in {DEADLINE:?}: {status}; log: {}",
                std::fs::read_to_string(&self.log).unwrap_or_default()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub(crate) fn signal(&mut self, signal: &str) -> Option<i32> {
        let status = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            assert!(start.elapsed() < DEADLINE, "the server did not stop");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The server's address, `http://IP:PORT` (no trailing slash).
    pub(crate) fn base(&self) -> &str {
        &self.base
    }

    /// What the server logged so far.
    pub(crate) fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) const BOTS: &str = "seed = 9\nhand_limit = 40\npause_ms = 20\nrecheck_ms = 200\n\
[[bot]]\nname = \"ann\"\nkind = \"raiser\"\n\
[[bot]]\nname = \"bob\"\nkind = \"random\"\n\
[[bot]]\nname = \"cy\"\nkind = \"equity\"\n";

pub(crate) fn db_points(data: &Path) -> Vec<(String, i64, i64)> {
    let db = rusqlite::Connection::open(data.join("event.sqlite")).unwrap();
    let mut statement = db
        .prepare("SELECT name, points, games FROM players WHERE status <> 'removed' ORDER BY name")
        .unwrap();
    let rows = statement
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap();
    rows.map(Result::unwrap).collect()
}

pub(crate) fn integrity_ok(data: &Path) {
    let db = rusqlite::Connection::open(data.join("event.sqlite")).unwrap();
    let check: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_endpoint_the_organiser_api_and_the_leaderboard_against_the_database() {
    let temp = tempfile::tempdir().unwrap();
    let data = temp.path().join("event");
    let mut server = Server::start(&data, BOTS);
    server
        .wait_for("3 finished games", |s| {
            s["games_finished"].as_u64() >= Some(3)
        })
        .await;

    // The organiser API refuses requests without the token, or with a wrong one.
    let post = reqwest::Method::POST;
    let add = json!({"name": "<script>alert(1)</script>", "bot": "calling-station"}).to_string();
    for token in [None, Some("wrong"), Some("organiser-s3cre")] {
        let (status, body) = server
            .organiser(post.clone(), "/api/event/players", token, add.clone())
            .await;
        assert_eq!(status, 401, "{token:?}: {body}");
        assert!(body["error"].as_str().is_some());
    }
    let (status, _) = server
        .organiser(
            reqwest::Method::DELETE,
            "/api/event/players/1",
            None,
            String::new(),
        )
        .await;
    assert_eq!(status, 401);
    let (status, _) = server
        .organiser(
            reqwest::Method::PATCH,
            "/api/event/players/1",
            Some("nope"),
            "{}".into(),
        )
        .await;
    assert_eq!(status, 401);
    // With it: a hostile name is data, kept byte for byte.
    let (status, created) = server
        .organiser(post.clone(), "/api/event/players", Some(TOKEN), add)
        .await;
    assert_eq!(status, 201, "{created}");
    let hostile = created["id"].as_i64().unwrap();
    // Bad bodies are clear 4xx answers.
    for (body, expected) in [
        ("{not json".to_string(), 400),
        (json!({"name": "x"}).to_string(), 400),
        (json!({"name": "x", "bot": "nope"}).to_string(), 400),
        (
            json!({"name": "x", "url": "localhost:9000"}).to_string(),
            400,
        ),
        (json!({"name": "ann", "bot": "folder"}).to_string(), 400),
        (json!({"name": " ", "bot": "folder"}).to_string(), 400),
        (
            json!({"name": "x".repeat(20_000), "bot": "folder"}).to_string(),
            413,
        ),
    ] {
        let (status, answer) = server
            .organiser(post.clone(), "/api/event/players", Some(TOKEN), body)
            .await;
        assert_eq!(status, expected, "{answer}");
    }
    let patch = reqwest::Method::PATCH;
    let (status, _) = server
        .organiser(
            patch.clone(),
            "/api/event/players/999",
            Some(TOKEN),
            json!({"status": "paused"}).to_string(),
        )
        .await;
    assert_eq!(status, 404);
    let (status, renamed) = server
        .organiser(
            patch.clone(),
            &format!("/api/event/players/{hostile}"),
            Some(TOKEN),
            json!({"name": "<b>cs</b>"}).to_string(),
        )
        .await;
    assert_eq!((status, renamed["name"].as_str()), (200, Some("<b>cs</b>")));
    let (status, removed) = server
        .organiser(
            reqwest::Method::DELETE,
            &format!("/api/event/players/{hostile}"),
            Some(TOKEN),
            String::new(),
        )
        .await;
    assert_eq!(status, 200, "{removed}");

    // Pause everyone: the games in progress end, no new one starts; then the API and the
    // database must say the same.
    let (_, players) = server.get("/api/event/players").await;
    for player in players.as_array().unwrap() {
        let id = player["id"].as_i64().unwrap();
        if player["status"] == "active" {
            let (status, _) = server
                .organiser(
                    patch.clone(),
                    &format!("/api/event/players/{id}"),
                    Some(TOKEN),
                    json!({"status": "paused"}).to_string(),
                )
                .await;
            assert_eq!(status, 200);
        }
    }
    let start = Instant::now();
    let games = loop {
        let (status, games) = server.get("/api/event/games?per_page=200").await;
        assert_eq!(status, 200);
        if games["running"].as_array().unwrap().is_empty() {
            break games;
        }
        assert!(start.elapsed() < DEADLINE, "games still running: {games}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let (status, board) = server.get("/api/event/leaderboard").await;
    assert_eq!(status, 200);
    let rows = board["players"].as_array().unwrap();
    assert_eq!(
        rows.len(),
        3,
        "the removed player is off the leaderboard: {board}"
    );
    let mut from_api: Vec<(String, i64, i64)> = rows
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["points"].as_i64().unwrap(),
                p["games"].as_i64().unwrap(),
            )
        })
        .collect();
    let points: Vec<i64> = from_api.iter().map(|p| p.1).collect();
    assert!(
        points.windows(2).all(|w| w[0] >= w[1]),
        "ordered by points: {points:?}"
    );
    from_api.sort();
    assert_eq!(from_api, db_points(&data));
    let finished = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["state"] == "finished")
        .count() as i64;
    // The removed player's points are off the leaderboard, not out of the games: on a busy
    // machine it can be seated in a round before its removal and score.
    let removed_points: i64 = rusqlite::Connection::open(data.join("event.sqlite"))
        .unwrap()
        .query_row(
            "SELECT COALESCE(SUM(points), 0) FROM players WHERE status = 'removed'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        points.iter().sum::<i64>() + removed_points,
        8 * finished,
        "5 + 3 points per game"
    );
    assert_eq!(board["event"]["games_finished"].as_i64(), Some(finished));
    for row in rows {
        assert!(
            row["version"].as_str().is_some_and(|v| v.ends_with(" 1")),
            "{row}"
        );
        assert!(row["last_seen"].as_i64().is_some());
    }

    // The chart: each series ends on the player's points.
    let (status, history) = server.get("/api/event/history").await;
    assert_eq!(status, 200);
    assert_eq!(history["games"].as_array().unwrap().len() as i64, finished);
    for series in history["series"].as_array().unwrap() {
        let last = series["points"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .as_i64();
        let row = rows.iter().find(|r| r["id"] == series["id"]).unwrap();
        assert_eq!(last, row["points"].as_i64());
    }
    let (status, sampled) = server.get("/api/event/history?max_points=2").await;
    assert_eq!(
        (status, sampled["games"].as_array().unwrap().len()),
        (200, 2)
    );
    // The start of the event stays on the chart however far it is sampled down.
    assert_eq!(sampled["games"][0], history["games"][0], "{sampled}");
    let (status, _) = server.get("/api/event/history?max_points=x").await;
    assert_eq!(status, 400);

    // Pages, and every game's folder is readable by the viewer.
    let (_, page) = server.get("/api/event/games?page=2&per_page=1").await;
    assert_eq!(page["games"].as_array().unwrap().len(), 1);
    assert_eq!(page["total"], games["total"]);
    let game = &games["games"][0];
    let number = game["number"].as_u64().unwrap();
    assert!(data.join(format!("games/game-{number}/log.json")).is_file());
    let (status, details) = server
        .get(&format!(
            "/api/runs/{}/games/{number}",
            game["run"].as_str().unwrap()
        ))
        .await;
    assert_eq!(status, 200, "{details}");
    // Its record is its own result.json, read again when asked: the viewer's index keeps only
    // what the games list shows of each game (issue 17: memory over a long event).
    let own: serde_json::Value = serde_json::from_slice(
        &std::fs::read(data.join(format!("games/game-{number}/result.json"))).unwrap(),
    )
    .unwrap();
    assert_eq!(game["state"], "finished", "{game}");
    assert_eq!(details["status"], "finished", "{details}");
    assert_eq!(details["result"], own, "{details}");
    let (_, summary) = server
        .get(&format!("/api/runs/{}", game["run"].as_str().unwrap()))
        .await;
    let listed = summary["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|listed| listed["game"].as_u64() == Some(number))
        .unwrap_or_else(|| panic!("game {number} is not listed: {summary}"));
    assert_eq!(listed["recorded"], true, "{listed}");
    assert_eq!(listed["winner"], own["standings"][0]["name"], "{listed}");
    assert_eq!(listed["hands_played"], own["hands_played"], "{listed}");
    let (status, log) = server
        .get(&format!("/api/runs/games/games/{number}/log"))
        .await;
    assert_eq!(status, 200, "{log}");

    // Rain Man is served here too.
    let cards = r#"[{"rank":"A","suit":"spades"},{"rank":"A","suit":"hearts"},{"rank":"K","suit":"clubs"},{"rank":"K","suit":"spades"},{"rank":"2","suit":"clubs"}]"#;
    let rank = server
        .client
        .get(format!("{}/rank", server.base))
        .query(&[("cards", cards)])
        .send()
        .await
        .unwrap();
    assert_eq!(rank.status().as_u16(), 200);
    let (status, _) = server.get("/event.js").await;
    assert_eq!(status, 200);

    // SIGTERM: a clean stop.
    assert_eq!(server.signal("-TERM"), Some(0), "{}", server.log_text());
    integrity_ok(&data);
}

/// A team whose every answer takes a while, so that a game lasts long enough to be killed in.
fn slow_player() -> player::RunningServer {
    player::ServerBuilder::new(player::from_fn(|state| {
        std::thread::sleep(Duration::from_millis(15));
        state.call_amount()
    }))
    .address("127.0.0.1:0".parse().unwrap())
    .workers(1)
    .start()
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_game_then_restart_loses_no_finished_game_or_point() {
    let temp = tempfile::tempdir().unwrap();
    let data = temp.path().join("event");
    let (slow_a, slow_b) = (slow_player(), slow_player());
    let config = format!(
        "seed = 4\nhand_limit = 25\npause_ms = 0\ntimeout_ms = 2000\n\
         [[player]]\nname = \"slow-a\"\nurl = \"{}\"\n[[player]]\nname = \"slow-b\"\nurl = \"{}\"\n\
         [[bot]]\nname = \"raiser\"\nkind = \"raiser\"\n",
        slow_a.url(),
        slow_b.url()
    );
    let mut server = Server::start(&data, &config);
    server
        .wait_for("2 finished games", |s| {
            s["games_finished"].as_u64() >= Some(2)
        })
        .await;
    // Wait until a game is in progress (between games there is none for a moment).
    let start = Instant::now();
    let before = loop {
        let (_, games) = server.get("/api/event/games?per_page=200").await;
        if !games["running"].as_array().unwrap().is_empty() {
            break games;
        }
        assert!(start.elapsed() < DEADLINE, "no game in progress");
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    // The projector's view of the same folder sees that game being played (issue 17: it said
    // "unrecorded" and `running: 0`, so the page had nothing to follow).
    let playing = before["running"][0]["number"].as_u64().unwrap();
    let (_, runs) = server.get("/api/runs").await;
    let run = runs
        .as_array()
        .unwrap()
        .iter()
        .find(|run| run["running"].as_u64() >= Some(1))
        .unwrap_or_else(|| panic!("no run lists a running game: {runs}"));
    let run_id = run["id"].as_str().unwrap().to_string();
    let (_, summary) = server.get(&format!("/api/runs/{run_id}")).await;
    let listed = summary["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|game| game["game"].as_u64() == Some(playing))
        .unwrap_or_else(|| panic!("game {playing} is not listed: {summary}"));
    assert_eq!(listed["status"], "running", "{listed}");
    assert_eq!(server.signal("-KILL"), None, "killed by a signal");
    let board_before = db_points(&data);
    let cut_off: Vec<u64> = before["running"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect();
    integrity_ok(&data);

    let server = Server::start(&data, &config);
    let (_, games) = server.get("/api/event/games?per_page=200").await;
    // Every game finished before the kill is there (a game may have finished between our
    // last look and the kill: then it is there too).
    for game in before["games"].as_array().unwrap() {
        let now = games["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["number"] == game["number"])
            .unwrap();
        assert_eq!(now["state"], game["state"]);
        assert_eq!(now["winner"], game["winner"]);
    }
    let mut abandoned = 0;
    for number in &cut_off {
        let game = games["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["number"].as_u64() == Some(*number))
            .expect("the game cut off is listed");
        // It was running at our last look; it may have ended just before the kill.
        assert!(
            game["state"] == "abandoned" || game["state"] == "finished",
            "{game}"
        );
        if game["state"] == "abandoned" {
            abandoned += 1;
            assert!(
                game["reason"].as_str().unwrap().contains("cut off"),
                "{game}"
            );
            assert!(
                game["standings"].as_array().unwrap().is_empty(),
                "not counted: {game}"
            );
            // The viewer's page of the game says why it stopped (from its abandoned.json),
            // not "not in a results.json".
            let (_, details) = server
                .get(&format!("/api/runs/{run_id}/games/{number}"))
                .await;
            assert_eq!(details["status"], "interrupted", "{details}");
            assert!(
                details["interrupted"]["reason"]
                    .as_str()
                    .is_some_and(|reason| reason.contains("cut off")),
                "{details}"
            );
        }
    }
    assert!(
        abandoned >= 1,
        "a 25-hand game of slow players outlives a 5 ms poll: {games}"
    );
    // The points after the restart are the ones of the database at the kill, and the new
    // server counted 8 per finished game.
    let (_, board) = server.get("/api/event/leaderboard").await;
    let finished = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["state"] == "finished")
        .count() as i64;
    let total: i64 = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["points"].as_i64().unwrap())
        .sum();
    let total_before: i64 = board_before.iter().map(|p| p.1).sum();
    assert!(total >= total_before);
    assert_eq!(total, 8 * finished, "{board}");
    drop(server);
    integrity_ok(&data);
    drop((slow_a, slow_b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_folder_that_cannot_be_written_is_an_error_on_the_page_and_in_the_log() {
    let temp = tempfile::tempdir().unwrap();
    let data = temp.path().join("event");
    let mut server = Server::start(&data, BOTS);
    server
        .wait_for("a finished game", |s| {
            s["games_finished"].as_u64() >= Some(1)
        })
        .await;
    // The folder is swapped for a file (as root, permissions would not stop a write).
    std::fs::rename(data.join("games"), data.join("games-moved")).unwrap();
    std::fs::write(data.join("games"), "not a folder").unwrap();
    let status = server
        .wait_for("a storage error", |s| s["storage_error"].is_string())
        .await;
    let message = status["storage_error"].as_str().unwrap();
    assert!(
        message.contains("cannot write the game's files"),
        "{message}"
    );
    assert_eq!(
        server.signal("-TERM"),
        Some(1),
        "a stop with an unresolved write error exits 1"
    );
    assert!(
        server.log_text().contains("cannot write the game's files"),
        "{}",
        server.log_text()
    );
}
