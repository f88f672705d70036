//! Wire compatibility with an independently written player: a Lean Poker player in Python,
//! written like the official Python template (standard library HTTP/1.0 server, `parse_qs`,
//! `json.loads`), plays a sit'n'go on our dealer binary. Skips, saying so, without `python3`.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

const PLAYER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/interop/python_player.py"
);

struct PythonPlayer {
    child: Child,
    url: String,
}

impl Drop for PythonPlayer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn python_player(style: &str) -> Option<PythonPlayer> {
    let mut child = Command::new("python3")
        .args([PLAYER, style])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .ok()?;
    let mut port = String::new();
    BufReader::new(child.stdout.take()?)
        .read_line(&mut port)
        .ok()?;
    let port: u16 = port.trim().parse().ok()?;
    Some(PythonPlayer {
        child,
        url: format!("http://127.0.0.1:{port}/"),
    })
}

#[test]
fn a_python_template_player_plays_a_full_sit_n_go() {
    let players: Option<Vec<PythonPlayer>> = ["call", "fold", "call"]
        .into_iter()
        .map(python_player)
        .collect();
    let Some(players) = players else {
        eprintln!("python3 is not available: skipping the Python interop test");
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let run_dir = out.path().join("run");
    let mut command = Command::new(env!("CARGO_BIN_EXE_dealer"));
    command.args([
        "run",
        "-q",
        "--games",
        "2",
        "--seed",
        "11",
        "--hand-limit",
        "40",
    ]);
    for (index, player) in players.iter().enumerate() {
        command
            .arg("--player")
            .arg(format!("py{index}={}", player.url));
    }
    command
        .args(["--bot", "house=raiser", "--out"])
        .arg(&run_dir);
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "dealer failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );

    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run_dir.join("results.json")).unwrap())
            .unwrap();
    let games = results["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    for game in games {
        assert_eq!(game["bans"].as_array().map(Vec::len), Some(0), "{game}");
        let versions = game["versions"].as_array().unwrap();
        assert!(
            versions.iter().any(|v| v == "Default Python call player"),
            "{game}"
        );
    }

    // Every answer of the Python players was a valid bet, read as the style intends.
    let mut answers = 0;
    for game in ["game-1", "game-2"] {
        let lines = std::fs::read_to_string(run_dir.join(game).join("requests.jsonl")).unwrap();
        for line in lines.lines() {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            let player = record["player"].as_str().unwrap();
            if !player.starts_with("py") {
                continue;
            }
            answers += 1;
            assert!(record.get("error").is_none(), "{line}");
            let action = record["action"].as_str().unwrap();
            if player == "py1" {
                assert!(matches!(action, "fold" | "check"), "{line}");
            } else {
                assert!(matches!(action, "call" | "check" | "allin"), "{line}");
            }
        }
    }
    assert!(
        answers > 10,
        "only {answers} answers from the Python players"
    );
}
