//! `dealer serve --out DIR`: the binary serves a real `dealer run` folder to a browser (its JSON
//! API answers), and bad folders or addresses are one-line errors, never a panic.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};

fn dealer() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dealer"));
    command.env_remove("RUST_LOG");
    command
}

/// A plain HTTP/1.0 GET (no client library: this is what a browser's first request looks like).
fn get(address: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(address).expect("the viewer accepts connections");
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {address}\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

fn play_one_game(out: &Path) {
    let status = dealer()
        .args(["run", "--bot", "ann=calling-station", "--bot", "bob=raiser"])
        .args([
            "--games",
            "1",
            "--seed",
            "5",
            "--reproducible",
            "--hand-limit",
            "20",
            "--quiet",
        ])
        .arg("--out")
        .arg(out)
        .stdout(Stdio::null())
        .status()
        .expect("the dealer binary runs");
    assert!(status.success());
}

#[test]
fn serves_a_run_folder_until_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("friday");
    play_one_game(&run);
    let mut child = dealer()
        .args(["serve", "--bind", "127.0.0.1:0", "--out"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first_line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first_line)
        .unwrap();
    let url = first_line
        .split_whitespace()
        .find(|word| word.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {first_line:?}"));
    let address = url.trim_start_matches("http://").trim_end_matches('/');
    let page = get(address, "/");
    assert!(
        page.starts_with("HTTP/1.0 200") || page.starts_with("HTTP/1.1 200"),
        "{page}"
    );
    let runs = get(address, "/api/runs");
    assert!(runs.contains("friday"), "{runs}");
    let outside = get(address, "/api/runs/..%2f..%2fetc");
    assert!(!outside.contains(" 200 "), "{outside}");
    stop_with_sigterm(&mut child);
}

fn stop_with_sigterm(child: &mut std::process::Child) {
    // SIGTERM, as `docker stop` sends: the server stops cleanly.
    let status = Command::new("kill")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(
        exit.code().is_some(),
        "stopped by a clean exit, not killed: {exit:?}"
    );
}

#[test]
fn a_missing_folder_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let output = dealer()
        .args(["serve", "--bind", "127.0.0.1:0", "--out"])
        .arg(dir.path().join("nowhere"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains("nowhere"),
        "{stderr}"
    );
}

#[test]
fn a_bad_address_is_a_usage_error() {
    let output = dealer()
        .args(["serve", "--out", ".", "--bind", "localhost"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// A disk budget below what the event needs (the files of a round's games in play, the
/// reserve and the database) is refused at start with the sum, not discovered mid-event.
#[test]
fn a_disk_budget_below_the_events_minimum_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("big.toml");
    let bots: String = (1..=40)
        .map(|n| format!("[[bot]]\nname = \"bot{n}\"\nkind = \"raiser\"\n"))
        .collect();
    std::fs::write(&config, bots).unwrap();
    let serve = |budget: &str| {
        dealer()
            .args([
                "serve",
                "--bind",
                "127.0.0.1:0",
                "--disk-budget",
                budget,
                "--config",
            ])
            .arg(&config)
            .arg("--data")
            .arg(dir.path().join("event"))
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let output = serve("50MB");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("too small for this event")
            && stderr.contains(
                " MB = 4 tables x 15.0 MB (the files of a game in play) + 4.2 MB (the reserve)"
            )
            && stderr.contains("the reserve")
            && stderr.contains("the database"),
        "{stderr}"
    );
}
