//! The results viewer's JSON endpoints against a real bound server: a real `dealer run` folder
//! (house bots with hostile names), another dealer's log (the live captures), cut-off and
//! malformed logs, and every path-traversal form we know.

use dealer::web::{serve_results, RunningWebServer, WebOptions, MAX_REQUEST_BODY};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/web");

/// A served folder: `run/` (a real `dealer run`), `other/` (another dealer's log.json),
/// `cut/` (cut-off and malformed logs), and an `outside/` folder next to it that symlinks point
/// to.
struct Served {
    _temp: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
    server: RunningWebServer,
    client: reqwest::Client,
}

fn play_run(out: &Path) {
    let status = Command::new(env!("CARGO_BIN_EXE_dealer"))
        .args(["run", "--quiet", "--config"])
        .arg(Path::new(FIXTURES).join("run.toml"))
        .arg("--out")
        .arg(out)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("dealer runs");
    assert!(status.success(), "dealer run failed");
}

async fn served() -> Served {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().join("served");
    let outside = temp.path().join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(outside.join("game-1")).unwrap();
    std::fs::write(outside.join("secret.txt"), "TOP SECRET").unwrap();
    std::fs::copy(
        Path::new(FIXTURES).join("other-dealer/log.json"),
        outside.join("game-1/log.json"),
    )
    .unwrap();
    play_run(&root.join("run"));
    std::fs::create_dir_all(root.join("other")).unwrap();
    std::fs::copy(
        Path::new(FIXTURES).join("other-dealer/log.json"),
        root.join("other/log.json"),
    )
    .unwrap();
    let real_log = std::fs::read(root.join("run/game-1/log.json")).unwrap();
    let cut_logs: [&[u8]; 5] = [
        b"[",
        &real_log[..real_log.len() / 2],
        b"[{\"game_state\":{\"players\":\"nobody\"}}]",
        b"not json",
        b"",
    ];
    for (index, bytes) in cut_logs.iter().enumerate() {
        let dir = root.join(format!("cut/game-{}", index + 1));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("log.json"), bytes).unwrap();
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        // A run folder, a game folder and a file that point outside the served folder.
        symlink(&outside, root.join("escape")).unwrap();
        symlink(outside.join("game-1"), root.join("run/game-9")).unwrap();
        // A game folder whose log.json, or which itself, points outside.
        std::fs::create_dir_all(root.join("cut/game-6")).unwrap();
        symlink(outside.join("secret.txt"), root.join("cut/game-6/log.json")).unwrap();
        std::fs::create_dir_all(root.join("cut/game-7")).unwrap();
        symlink(
            outside.join("game-1/log.json"),
            root.join("cut/game-7/log.json"),
        )
        .unwrap();
    }
    let server = serve_results(
        root.clone(),
        WebOptions {
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            workers: Some(1),
        },
    )
    .unwrap();
    Served {
        _temp: temp,
        root,
        outside,
        server,
        client: reqwest::Client::new(),
    }
}

impl Served {
    async fn get(&self, path: &str) -> (u16, String) {
        let response = self
            .client
            .get(format!(
                "{}{}",
                self.server.url(),
                path.trim_start_matches('/')
            ))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.text().await.unwrap())
    }

    async fn json(&self, path: &str) -> Value {
        let (status, body) = self.get(path).await;
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    /// Sends `request_line` as written (no client normalises `..` away) and returns the
    /// status and the whole response.
    async fn raw(&self, request: &str) -> (u16, String) {
        let mut stream = tokio::net::TcpStream::connect(self.server.local_addr())
            .await
            .unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response).await;
        let text = String::from_utf8_lossy(&response).into_owned();
        let status = text
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or(0);
        (status, text)
    }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[tokio::test]
async fn runs_list_finds_every_run_and_no_symlink_out() {
    let served = served().await;
    let runs = served.json("/api/runs").await;
    let ids: Vec<&str> = runs
        .as_array()
        .unwrap()
        .iter()
        .map(|run| run["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["cut", "other", "run"]);
    let run = &runs[2];
    let results = read_json(&served.root.join("run/results.json"));
    assert_eq!(run["tournament_id"], results["tournament_id"]);
    assert_eq!(run["games_found"], 2, "game-9 points outside: {run}");
    assert_eq!(run["leader"], results["totals"][0]["name"]);
}

#[tokio::test]
async fn leaderboard_and_games_are_those_of_results_json() {
    let served = served().await;
    let summary = served.json("/api/runs/run").await;
    let results = read_json(&served.root.join("run/results.json"));
    assert_eq!(summary["results"]["totals"], results["totals"]);
    assert_eq!(summary["results"]["players"], results["players"]);
    assert!(summary["results"].get("games").is_none());
    let games = summary["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    for (game, recorded) in games.iter().zip(results["games"].as_array().unwrap()) {
        assert_eq!(game["game"], recorded["game"]);
        assert_eq!(game["winner"], recorded["standings"][0]["name"]);
        assert_eq!(game["hands_played"], recorded["hands_played"]);
        assert_eq!(game["has_log"], true);
    }
    let details = served.json("/api/runs/run/games/2").await;
    assert_eq!(details["result"], results["games"][1]);
    let names: Vec<&str> = details["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        results["games"][1]["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect::<Vec<_>>(),
        "players' logs in seat order with their exact (hostile) names"
    );
}

#[tokio::test]
async fn game_log_is_the_viewer_log_entry_for_entry() {
    let served = served().await;
    let log = served.json("/api/runs/run/games/1/log").await;
    let file = read_json(&served.root.join("run/game-1/log.json"));
    let (entries, file) = (log["entries"].as_array().unwrap(), file.as_array().unwrap());
    assert_eq!(entries.len(), file.len());
    for (ours, theirs) in entries.iter().zip(file) {
        assert_eq!(ours["message"], theirs["message"]);
        for key in ["pot", "round", "dealer", "community_cards", "small_blind"] {
            assert_eq!(ours["game_state"][key], theirs["game_state"][key], "{key}");
        }
        let stacks = |v: &Value| -> Vec<Value> {
            v["game_state"]["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["stack"].clone())
                .collect()
        };
        assert_eq!(stacks(ours), stacks(theirs));
    }
    let hands = log["hands"].as_array().unwrap();
    let rounds: Vec<u64> = hands.iter().map(|h| h["round"].as_u64().unwrap()).collect();
    assert_eq!(rounds, (0..rounds.len() as u64).collect::<Vec<_>>());
    for hand in hands {
        let entry = &file[hand["entry"].as_u64().unwrap() as usize];
        assert!(
            entry.get("message").is_none(),
            "a hand opens with game_state only"
        );
    }
}

#[tokio::test]
async fn another_dealers_log_of_live_captures_opens() {
    let served = served().await;
    let runs = served.json("/api/runs/other").await;
    assert_eq!(runs["games"][0]["game"], 1);
    assert_eq!(runs["games"][0]["recorded"], false);
    let log = served.json("/api/runs/other/games/1/log").await;
    assert_eq!(log["entries"].as_array().unwrap().len(), 7);
    assert_eq!(log["entries"][3]["on_turn"], 0);
    assert_eq!(log["entries"][6]["game_state"]["big_blind"], Value::Null);
    assert_eq!(
        log["entries"][4]["game_state"]["players"][4]["amount_won"],
        281
    );
    assert!(log["hands"].as_array().unwrap().len() >= 3);
}

#[tokio::test]
async fn cut_off_and_malformed_logs_are_clear_and_half_logs_read_to_the_last_entry() {
    let served = served().await;
    let expect = [
        (1, "cut off"),
        (3, "[0].game_state.players"),
        (4, "not valid JSON"),
        (5, "empty"),
        (6, "outside the served folder"),
        (7, "outside the served folder"),
    ];
    for (game, words) in expect {
        let (status, body) = served.get(&format!("/api/runs/cut/games/{game}/log")).await;
        let error: Value = serde_json::from_str(&body).unwrap();
        let message = error["error"].as_str().unwrap();
        assert!(message.contains(words), "game {game}: {message}");
        assert!(!body.contains("TOP SECRET"));
        assert!(matches!(status, 404 | 422), "game {game}: {status}");
        if game <= 5 {
            assert_eq!(status, 422);
        }
    }
    // Half a log (a game being written, or cut off): its complete entries, with a note, and
    // hole cards hidden (no results.json says the game is over).
    let log = served.json("/api/runs/cut/games/2/log").await;
    // The whole game as the viewer reads it (the fields it knows).
    let real = served.json("/api/runs/run/games/1/log").await["entries"].clone();
    let entries = log["entries"].as_array().unwrap();
    assert!(!entries.is_empty() && entries.len() < real.as_array().unwrap().len());
    assert!(
        log["partial"].as_str().unwrap().contains("not closed"),
        "{log}"
    );
    assert_eq!(log["cards_hidden"], true);
    for (index, entry) in entries.iter().enumerate() {
        let mut entry = entry.clone();
        let mut expected = real[index].clone();
        for state in [&mut entry, &mut expected] {
            for player in state["game_state"]["players"].as_array_mut().unwrap() {
                player.as_object_mut().unwrap().remove("hole_cards");
            }
        }
        assert_eq!(entry, expected, "entry {index}");
    }
}

#[tokio::test]
async fn nothing_outside_the_folder_is_ever_served() {
    let served = served().await;
    let outside = served.outside.display().to_string();
    let targets = [
        "/../outside/secret.txt",
        "/api/runs/../../outside/game-1/log",
        "/api/runs/..%2f..%2foutside/games/1/log",
        "/api/runs/%2e%2e/games/1/log",
        "/api/runs/%2e%2e%2foutside/games/1/log",
        "/api/runs/escape/games/1/log",
        "/api/runs/run/games/9/log",
        "/api/runs/run/games/9",
        "/api/runs/run/games/..%2f..%2f..%2foutside/log",
        "/api/runs/run/games/1/players/..%2f..%2f..%2f..%2foutside%2fsecret.txt",
        "/api/runs/run/games/1/requests/..%2f..%2fsecret.txt",
        "/api/runs/%2Ftmp/games/1/log",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/app.js/../../../../etc/passwd",
        "/api/runs/_/games/1/log",
    ];
    for target in targets {
        let (status, body) = served
            .raw(&format!(
                "GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            ))
            .await;
        assert!(status == 404 || status == 400, "{target}: {status} {body}");
        assert!(
            !body.contains("TOP SECRET") && !body.contains("root:"),
            "{target}"
        );
        assert!(!body.contains("\"entries\""), "{target}: served a log");
    }
    // An absolute path as the request target.
    let (status, body) = served
        .raw(&format!(
            "GET {outside}/secret.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        ))
        .await;
    assert!(status == 404 || status == 400, "{status} {body}");
    assert!(!body.contains("TOP SECRET"));
}

#[tokio::test]
async fn a_players_requests_and_the_fixture_download() {
    let served = served().await;
    let details = served.json("/api/runs/run/games/1").await;
    let name = details["players"][0]["name"].as_str().unwrap().to_string();
    let encoded = percent_encoding::utf8_percent_encode(&name, percent_encoding::NON_ALPHANUMERIC);
    let player = served
        .json(&format!("/api/runs/run/games/1/players/{encoded}"))
        .await;
    assert_eq!(player["name"], name.as_str());
    let text = std::fs::read_to_string(served.root.join("run/game-1/requests.jsonl")).unwrap();
    let expected: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| serde_json::from_str::<Value>(line).unwrap()["player"] == name.as_str())
        .map(|(index, line)| (index + 1, line))
        .collect();
    let requests = player["requests"].as_array().unwrap();
    assert_eq!(requests.len(), expected.len());
    assert!(!requests.is_empty());
    assert!(player["log"].as_str().unwrap().contains("bet_request"));
    assert!(player["problems"].as_array().unwrap().is_empty());

    let (line, raw) = expected[expected.len() / 2];
    assert_eq!(requests[expected.len() / 2]["line"], line);
    let response = served
        .client
        .get(format!(
            "{}api/runs/run/games/1/requests/{line}",
            served.server.url()
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(disposition.starts_with("attachment"), "{disposition}");
    let body = response.text().await.unwrap();
    let start = raw.find("\"game_state\":").unwrap() + "\"game_state\":".len();
    assert!(raw[start..].starts_with(&body), "the exact bytes sent");
    // The download is a fixture the SDK's testing kit loads.
    let fixture = served.root.join("fixture.json");
    std::fs::write(&fixture, &body).unwrap();
    let recorded = player::testing::load(&fixture);
    assert_eq!(recorded.len(), 1);

    let (status, _) = served.get("/api/runs/run/games/1/players/nobody").await;
    assert_eq!(status, 404);
    let (status, _) = served.get("/api/runs/run/games/1/requests/999999").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn read_only_capped_bodies_and_a_safe_page() {
    let served = served().await;
    let url = format!("{}api/runs", served.server.url());
    let response = served.client.post(&url).body("x").send().await.unwrap();
    assert_eq!(response.status().as_u16(), 405);
    let big = vec![b'x'; (MAX_REQUEST_BODY as usize) * 64];
    let response = served.client.post(&url).body(big).send().await;
    if let Ok(response) = response {
        assert_eq!(response.status().as_u16(), 413);
    }
    // Still serving after that.
    assert_eq!(served.get("/api/runs").await.0, 200);

    let response = served.client.get(served.server.url()).send().await.unwrap();
    let csp = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains("script-src 'self'"), "{csp}");
    let page = response.text().await.unwrap();
    // The helpers both pages share load first (the scripts are deferred: in document order).
    let common_at = page.find("/common.js").expect("the page loads common.js");
    assert!(common_at < page.find("/app.js").expect("the page loads app.js"));
    for path in ["/common.js", "/app.js", "/event.js"] {
        let (status, script) = served.get(path).await;
        assert_eq!(status, 200, "{path}");
        assert!(
            !script.contains(".innerHTML") && !script.contains("insertAdjacentHTML"),
            "{path}: the page builds the DOM with textContent only"
        );
    }
    // Browsers ask every page's icon: answered, so no visitor's console shows a 404.
    let icon = served
        .client
        .get(format!("{}favicon.ico", served.server.url()))
        .send()
        .await
        .unwrap();
    assert_eq!(icon.status().as_u16(), 200);
    assert_eq!(icon.headers()["content-type"], "image/svg+xml");
    assert!(icon.text().await.unwrap().starts_with("<svg"));
}

#[tokio::test]
async fn new_games_and_rewritten_results_show_without_a_restart() {
    let served = served().await;
    assert_eq!(
        served.json("/api/runs/run").await["games"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let copy = served.root.join("run/game-3");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(
        served.root.join("run/game-1/log.json"),
        copy.join("log.json"),
    )
    .unwrap();
    let games = served.json("/api/runs/run").await["games"].clone();
    assert_eq!(games.as_array().unwrap().len(), 3);
    assert_eq!(games[2]["recorded"], false);
    std::fs::write(served.root.join("run/results.json"), "{").unwrap();
    let summary = served.json("/api/runs/run").await;
    assert!(summary["run"]["results_error"]
        .as_str()
        .unwrap()
        .contains("results.json cannot be read"));
    assert_eq!(summary["games"].as_array().unwrap().len(), 3);
    // A run folder created empty, listed, then filled.
    std::fs::create_dir_all(served.root.join("later")).unwrap();
    assert_eq!(served.json("/api/runs").await.as_array().unwrap().len(), 3);
    std::fs::create_dir_all(served.root.join("later/game-1")).unwrap();
    let ids = served.json("/api/runs").await;
    assert_eq!(ids.as_array().unwrap().len(), 4);
}

#[test]
fn the_open_source_croupiers_log_reads() {
    // Written from the 2015 croupier's JSON log handler: entries joined by ",\n", `on_turn`
    // and `message` before `game_state`, no `type`, no `round`, `orbits` and `id` kept.
    let bytes = std::fs::read(Path::new(FIXTURES).join("oss-croupier/log.json")).unwrap();
    let log = dealer::web::log::parse_log(&bytes).unwrap();
    assert_eq!(log.entries.len(), 24);
    assert_eq!(log.partial, None);
    let starts: Vec<usize> = log.hands.iter().map(|hand| hand.entry).collect();
    assert_eq!(starts, vec![0, 23]);
    assert_eq!(log.entries[22].game_state.players[2].amount_won, Some(60));
}
