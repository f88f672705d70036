//! Following a game as it is played: a `log.json` written piece by piece (cut mid-entry, the
//! way a writer leaves it between two writes) is read up to its last complete entry, the
//! `/live` stream sends every entry once, in order, with hole cards hidden until a showdown,
//! and ends when `results.json` records the game; `dealer run --live` writes the same log.

use dealer::web::{serve_results, RunningWebServer, WebOptions};
use serde_json::Value;
use std::io::Write;
use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/web");

fn play_run(out: &Path, extra: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_dealer"))
        .args(["run", "--quiet", "--config"])
        .arg(Path::new(FIXTURES).join("run.toml"))
        .args(extra)
        .arg("--out")
        .arg(out)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("dealer runs");
    assert!(status.success(), "dealer run failed");
}

fn serve(root: &Path) -> RunningWebServer {
    serve_results(
        root.to_path_buf(),
        WebOptions {
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            workers: Some(2),
        },
    )
    .unwrap()
}

async fn get_json(server: &RunningWebServer, path: &str) -> (u16, Value) {
    let response = reqwest::get(format!("{}{}", server.url(), path.trim_start_matches('/')))
        .await
        .unwrap();
    let status = response.status().as_u16();
    let body = response.text().await.unwrap();
    (status, serde_json::from_str(&body).unwrap())
}

/// A server-sent-event stream read over a raw HTTP/1.0 connection (so the body is not chunked).
struct Events {
    stream: tokio::net::TcpStream,
    buffer: Vec<u8>,
}

impl Events {
    async fn open(server: &RunningWebServer, path: &str, headers: &str) -> (u16, Events) {
        let mut stream = tokio::net::TcpStream::connect(server.local_addr())
            .await
            .unwrap();
        let request = format!("GET {path} HTTP/1.0\r\nHost: test\r\n{headers}\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut events = Events {
            stream,
            buffer: Vec::new(),
        };
        let head = events.block(Duration::from_secs(10)).await.expect("a head");
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or(0);
        (status, events)
    }

    /// The next block of text ending with a blank line, or `None` at the end of the stream.
    async fn block(&mut self, wait: Duration) -> Option<String> {
        loop {
            let text = String::from_utf8_lossy(&self.buffer).into_owned();
            let end = text
                .find("\r\n\r\n")
                .map(|at| (at, 4))
                .or_else(|| text.find("\n\n").map(|at| (at, 2)));
            if let Some((at, len)) = end {
                let block = text[..at].to_string();
                self.buffer.drain(..at + len);
                return Some(block);
            }
            let mut chunk = [0u8; 65536];
            let read = tokio::time::timeout(wait, self.stream.read(&mut chunk))
                .await
                .expect("the stream answers in time")
                .unwrap();
            if read == 0 {
                return None;
            }
            self.buffer.extend_from_slice(&chunk[..read]);
        }
    }

    /// The next event (name and data), skipping comments.
    async fn next(&mut self) -> Option<(String, Value)> {
        loop {
            let block = self.block(Duration::from_secs(10)).await?;
            let mut name = None;
            let mut data = None;
            for line in block.lines() {
                if let Some(rest) = line.strip_prefix("event: ") {
                    name = Some(rest.to_string());
                } else if let Some(rest) = line.strip_prefix("data: ") {
                    data = Some(serde_json::from_str(rest).unwrap());
                }
            }
            if let (Some(name), Some(data)) = (name, data) {
                return Some((name, data));
            }
        }
    }
}

/// Entries without hole cards, to compare a hidden log with the file.
fn without_cards(entries: &[Value]) -> Vec<Value> {
    entries
        .iter()
        .map(|entry| {
            let mut entry = entry.clone();
            for player in entry["game_state"]["players"].as_array_mut().unwrap() {
                player.as_object_mut().unwrap().remove("hole_cards");
            }
            entry
        })
        .collect()
}

/// Hole cards may show only from the entry where their owner showed them, in that hand.
fn assert_cards_hidden_until_shown(entries: &[Value]) {
    let mut shown: Vec<String> = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        if entry.get("message").is_none() {
            shown.clear();
        }
        if let Some(message) = entry["message"].as_str() {
            if let Some((name, _)) = message.split_once(" showed ") {
                shown.push(name.to_string());
            }
        }
        for player in entry["game_state"]["players"].as_array().unwrap() {
            let cards = player["hole_cards"].as_array().unwrap();
            let name = player["name"].as_str().unwrap();
            assert!(
                cards.is_empty() || shown.iter().any(|shown| shown == name),
                "entry {index}: {name}'s cards are shown live"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_being_written_is_followed_entry_by_entry_until_recorded() {
    let temp = tempfile::tempdir().unwrap();
    let played = temp.path().join("played");
    play_run(&played, &[]);
    let full_log = std::fs::read(played.join("game-1/log.json")).unwrap();
    // As the viewer reads it (the fields it knows).
    let full: Vec<Value> = serde_json::from_value(
        serde_json::to_value(dealer::web::log::parse_log(&full_log).unwrap().entries).unwrap(),
    )
    .unwrap();
    let final_results = std::fs::read(played.join("results.json")).unwrap();

    // The same run while game 1 is being played: results.json as `dealer run` writes it at
    // the start (nothing recorded, not complete, not stopped) and a log cut mid-entry.
    let root = temp.path().join("served");
    let game_dir = root.join("live/game-1");
    std::fs::create_dir_all(&game_dir).unwrap();
    let mut started: Value = serde_json::from_slice(&final_results).unwrap();
    started["games"] = Value::Array(Vec::new());
    started["complete"] = Value::Bool(false);
    std::fs::write(
        root.join("live/results.json"),
        serde_json::to_vec(&started).unwrap(),
    )
    .unwrap();
    let first_cut = full_log.len() / 4 + 7;
    let mut file = std::fs::File::create(game_dir.join("log.json")).unwrap();
    file.write_all(&full_log[..first_cut]).unwrap();
    file.flush().unwrap();
    let server = serve(&root);

    let (status, summary) = get_json(&server, "/api/runs/live").await;
    assert_eq!(status, 200);
    assert_eq!(summary["games"][0]["status"], "running");
    assert_eq!(summary["run"]["running"], 1);

    // The page's first read: the complete entries so far, cards hidden, a note.
    let (status, log) = get_json(&server, "/api/runs/live/games/1/log").await;
    assert_eq!(status, 200, "{log}");
    let read = log["entries"].as_array().unwrap();
    assert!(read.len() > 2 && read.len() < full.len());
    assert_eq!(without_cards(read), without_cards(&full[..read.len()]));
    assert!(log["partial"].as_str().unwrap().contains("not closed"));
    assert_eq!(log["cards_hidden"], true);
    assert_cards_hidden_until_shown(read);

    // Follow from the start; the log grows in three more pieces.
    let (status, mut events) =
        Events::open(&server, "/api/runs/live/games/1/live?from=0", "").await;
    assert_eq!(status, 200);
    let mut got: Vec<Value> = Vec::new();
    let mut hands: Vec<Value> = Vec::new();
    let cuts = [
        full_log.len() / 2,
        full_log.len() * 3 / 4 + 3,
        full_log.len(),
    ];
    let mut written = first_cut;
    for cut in cuts {
        file.write_all(&full_log[written..cut]).unwrap();
        file.flush().unwrap();
        written = cut;
        let complete = serde_json::from_slice::<Vec<Value>>(&full_log[..cut])
            .map(|all| all.len())
            .unwrap_or_else(|_| {
                // Count entries the way a follower can: up to the last complete one.
                dealer::web::log::parse_log(&full_log[..cut])
                    .unwrap()
                    .entries
                    .len()
            });
        while got.len() < complete {
            let (name, data) = events.next().await.expect("entries arrive");
            assert_eq!(name, "entries", "{data}");
            assert_eq!(data["first"].as_u64().unwrap() as usize, got.len());
            got.extend(data["entries"].as_array().unwrap().iter().cloned());
            hands.extend(data["hands"].as_array().unwrap().iter().cloned());
        }
        assert_eq!(got.len(), complete, "no entry twice");
    }
    assert_eq!(without_cards(&got), without_cards(&full));
    assert_cards_hidden_until_shown(&got);
    let rounds: Vec<u64> = hands
        .iter()
        .map(|hand| hand["round"].as_u64().unwrap())
        .collect();
    assert_eq!(rounds, (0..rounds.len() as u64).collect::<Vec<_>>());

    // A reconnecting browser resumes after the last id it saw.
    let (_, mut resumed) = Events::open(
        &server,
        "/api/runs/live/games/1/live",
        &format!("Last-Event-ID: {}\r\n", full.len() - 3),
    )
    .await;
    let (name, data) = resumed.next().await.unwrap();
    assert_eq!(name, "entries");
    assert_eq!(data["first"].as_u64().unwrap() as usize, full.len() - 3);
    assert_eq!(data["entries"].as_array().unwrap().len(), 3);

    // results.json records the game: the stream ends, and the log shows every card.
    std::fs::write(root.join("live/results.json"), &final_results).unwrap();
    let (name, data) = events.next().await.expect("an end event");
    assert_eq!(name, "end", "{data}");
    assert_eq!(data["status"], "finished");
    assert!(events.next().await.is_none(), "the stream closes after end");
    let (_, log) = get_json(&server, "/api/runs/live/games/1/log").await;
    assert_eq!(log["partial"], Value::Null);
    assert_eq!(log["cards_hidden"], false);
    assert_eq!(log["entries"].as_array().unwrap(), &full);
}

#[tokio::test]
async fn following_unknown_games_or_paths_outside_is_a_404() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().join("served");
    std::fs::create_dir_all(root.join("run/game-1")).unwrap();
    std::fs::write(temp.path().join("log.json"), b"[]").unwrap();
    let server = serve(&root);
    for path in [
        "/api/runs/run/games/2/live",
        "/api/runs/run/games/1/live",
        "/api/runs/..%2f/games/1/live",
        "/api/runs/%2e%2e/games/1/live",
        "/api/runs/run/games/..%2f..%2flog.json/live",
    ] {
        let (status, body) = get_json(&server, path).await;
        assert_eq!(status, 404, "{path}: {body}");
    }
}

#[tokio::test]
async fn dealer_run_live_writes_the_same_log() {
    // `--live` changes when the file is written (within 50 ms of every entry: see
    // observe::viewer_log::file's tests), not what is in it.
    let temp = tempfile::tempdir().unwrap();
    play_run(&temp.path().join("hands"), &[]);
    play_run(&temp.path().join("entries"), &["--live"]);
    for game in ["game-1", "game-2"] {
        let a = std::fs::read(temp.path().join("hands").join(game).join("log.json")).unwrap();
        let b = std::fs::read(temp.path().join("entries").join(game).join("log.json")).unwrap();
        assert!(a == b, "{game}: --live wrote another log");
    }
}
