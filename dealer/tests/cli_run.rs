//! `dealer run` and `dealer demo` end to end: the binary against players served over HTTP by
//! our SDK on loopback (in this test process) plus in-process house bots.

use crate::support;

use dealer::tournament::{plan, RunResults};
use player::{RunningServer, ServerBuilder};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use support::files::files;

fn dealer(args: Vec<String>, dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dealer"))
        .args(args)
        .current_dir(dir)
        .env_remove("RUST_LOG")
        .output()
        .expect("the dealer binary runs")
}

/// A house bot served by the SDK on 127.0.0.1, optionally requiring a secret.
fn serve(kind: &str, secret: Option<&str>) -> RunningServer {
    let bot = kind.parse::<dealer::house::BotKind>().unwrap().build(1);
    let mut builder = ServerBuilder::from_arc(Arc::clone(&bot))
        .address(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .workers(1);
    if let Some(secret) = secret {
        builder = builder.auth_secret(secret);
    }
    builder.start().expect("a loopback player")
}

fn read_results(path: &Path) -> RunResults {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|arg| arg.to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_plays_several_games_between_http_players_and_house_bots() {
    let station = serve("calling-station", None);
    let raiser = serve("raiser", Some("s3cret"));
    let random = serve("random", Some("t0ken"));
    let raiser_url = raiser.url().replacen("http://", "http://team:s3cret@", 1);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let args = vec![
        "run".to_string(),
        "--player".into(),
        format!("station={}", station.url()),
        "--player".into(),
        format!("raiser={raiser_url}"),
        "--player".into(),
        format!("random={}", random.url()),
        "--token".into(),
        "random=t0ken".into(),
        "--bot".into(),
        "house-allin=all-in".into(),
        "--bot".into(),
        "house-folder=folder".into(),
        "--games".into(),
        "4".into(),
        "--parallel".into(),
        "2".into(),
        "--seed".into(),
        "77".into(),
        "--timeout-ms".into(),
        "1500".into(),
        "--hand-limit".into(),
        "150".into(),
        "--out".into(),
        out.to_str().unwrap().into(),
        "--quiet".into(),
    ];
    let cwd = dir.path().to_path_buf();
    let output = tokio::task::spawn_blocking(move || dealer(args, &cwd))
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Points after 4 of 4 games (seed 77)"),
        "{stdout}"
    );
    assert!(stdout.contains("Bans: none"), "{stdout}");
    assert!(!stdout.contains("s3cret") && !stdout.contains("t0ken"));

    let results_path = out.join("results.json");
    let text = std::fs::read_to_string(&results_path).unwrap();
    assert!(
        !text.contains("s3cret") && !text.contains("t0ken"),
        "no secret in results"
    );
    let results = read_results(&results_path);
    assert!(results.complete);
    assert_eq!(results.seed, 77);
    assert_eq!(results.games.len(), 4);
    assert_eq!(results.request_timeout_ms, 1500);
    let names: Vec<&str> = results.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        ["station", "raiser", "random", "house-allin", "house-folder"]
    );
    assert_eq!(
        results.players[1].url.as_deref(),
        Some(raiser.url().as_str())
    );
    assert_eq!(results.players[3].bot.as_deref(), Some("all-in"));
    let planned = plan(77, 4, 5);
    for (game, planned) in results.games.iter().zip(&planned) {
        assert_eq!(game.result.seed, planned.seed);
        assert!(game.result.bans.is_empty(), "{:?}", game.result.bans);
        assert!(game.absent.is_empty());
        assert_eq!(game.result.points.iter().sum::<u32>(), 8);
        let chips: u64 = game.result.final_stacks.iter().map(|c| c.get()).sum();
        assert_eq!(chips, 5000);
        // The HTTP players answered `version` (auth included).
        for (seat, name) in game.result.players.iter().enumerate() {
            match name.as_str() {
                "raiser" => assert_eq!(game.versions[seat], "raiser 1"),
                "random" => assert_eq!(game.versions[seat], "random 1"),
                "station" => assert_eq!(game.versions[seat], "calling station 1"),
                _ => {}
            }
        }
        assert!(out.join(&game.dir).is_dir());
    }
    let total: u64 = results.totals.iter().map(|t| t.points).sum();
    assert_eq!(total, 32);
    drop((station, raiser, random));
}

#[test]
fn demo_plays_a_sit_n_go_over_http_and_says_where_the_logs_are() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo");
    let output = dealer(
        strings(&[
            "demo",
            "--seed",
            "5",
            "--hand-limit",
            "25",
            "--out",
            out.to_str().unwrap(),
        ]),
        dir.path(),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("house bots over HTTP on 127.0.0.1, seed 5"),
        "{stdout}"
    );
    assert!(stdout.contains("Ranking after"), "{stdout}");
    assert!(stdout.contains("Bans"), "{stdout}");
    assert!(stdout.contains(&format!("Logs: {}", out.join("game-1").display())));
    let results = read_results(&out.join("results.json"));
    assert!(results.complete);
    assert_eq!(results.games.len(), 1);
    let game = &results.games[0];
    assert!(game.result.hands_played <= 25);
    assert!(
        game.result.players.len() >= 4,
        "at least three different bots"
    );
    for player in &results.players {
        let url = player.url.as_deref().expect("HTTP players");
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        assert!(stdout.contains(&player.name));
    }
    assert!(game.result.bans.is_empty(), "house bots are never banned");
    assert!(
        game.versions.iter().all(|v| v != "Unknown"),
        "{:?}",
        game.versions
    );
}

#[test]
fn demo_with_the_same_seed_in_reproducible_mode_writes_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut outputs: Vec<PathBuf> = Vec::new();
    for name in ["a", "b"] {
        let out = dir.path().join(name);
        let output = dealer(
            strings(&[
                "demo",
                "--seed",
                "11",
                "--hand-limit",
                "15",
                "--bots",
                "calling-station,raiser,random,folder",
                "--reproducible",
                "--out",
                out.to_str().unwrap(),
            ]),
            dir.path(),
        );
        assert!(output.status.success());
        outputs.push(out);
    }
    let a = read_results(&outputs[0].join("results.json"));
    let b = read_results(&outputs[1].join("results.json"));
    // The players' ports differ between the two runs (results.json lists their URLs); every
    // game file is the same, byte for byte.
    assert_eq!(a.games[0], b.games[0]);
    assert!(a.reproducible);
    let first = files(&outputs[0].join("game-1"));
    let second = files(&outputs[1].join("game-1"));
    assert!(first.contains_key(Path::new("log.json")));
    assert!(first.contains_key(Path::new("requests.jsonl")));
    assert!(first.contains_key(Path::new("players/raiser.log")));
    assert!(first.contains_key(Path::new("hands.phhs")));
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        second.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &first {
        assert!(bytes == &second[path], "{} differs", path.display());
    }
}

#[test]
fn sigterm_stops_the_run_gracefully_and_keeps_the_finished_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let child = Command::new(env!("CARGO_BIN_EXE_dealer"))
        .args([
            "run",
            "--bot",
            "a=calling-station",
            "--bot",
            "b=calling-station",
            "--bot",
            "c=calling-station",
            "--games",
            "100000",
            "--seed",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
        .current_dir(dir.path())
        .env_remove("RUST_LOG")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until a game is done.
    let results_path = out.join("results.json");
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let done = std::fs::read_to_string(&results_path)
            .ok()
            .and_then(|text| serde_json::from_str::<RunResults>(&text).ok())
            .is_some_and(|results| !results.games.is_empty());
        if done {
            break;
        }
        assert!(std::time::Instant::now() < give_up, "no game finished");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: kill only sends a signal to the child we started.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    assert_eq!(sent, 0);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("error: interrupted: ") && last.contains("games completed"),
        "{stderr}"
    );
    let results = read_results(&results_path);
    assert!(!results.complete);
    assert!(!results.games.is_empty());
    assert_eq!(
        results.stopped_because.as_deref(),
        Some("stopped by the user (Ctrl-C or SIGTERM)")
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("Points after"),
        "the table of the finished games: {stdout}"
    );
    // The game in progress was abandoned, its logs finished (valid JSON).
    let unfinished = out.join(format!("game-{}", results.games.len() + 1));
    if unfinished.join("log.json").exists() {
        let log = std::fs::read_to_string(unfinished.join("log.json")).unwrap();
        assert!(serde_json::from_str::<serde_json::Value>(&log).is_ok());
    }
}

/// `dealer ... | head -1`: the reader goes away; the dealer must finish quietly, not panic
/// with "failed printing to stdout".
#[test]
fn a_closed_stdout_is_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let runs: [&[&str]; 2] = [
        &[
            "run",
            "--bot",
            "a=raiser",
            "--bot",
            "b=folder",
            "--games",
            "2",
            "--hand-limit",
            "5",
            "--seed",
            "3",
            "--out",
            "run",
        ],
        &["demo", "--hand-limit", "5", "--seed", "3", "--out", "demo"],
    ];
    for args in runs {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dealer"))
            .args(args)
            .current_dir(dir.path())
            .env_remove("RUST_LOG")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Close the read end before the dealer prints anything.
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(dir
            .path()
            .join(args[args.len() - 1])
            .join("results.json")
            .exists());
    }
}

#[test]
fn outputs_choose_the_files_of_each_game() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("quiet.toml");
    std::fs::write(&config, "outputs = []\n").unwrap();
    let cases: [(&[&str], &[&str]); 3] = [
        (&["--outputs", "log,hands"], &["hands", "log.json"]),
        (&["--outputs", "none"], &[]),
        (&["--config", config.to_str().unwrap()], &[]),
    ];
    for (index, (extra, expected)) in cases.into_iter().enumerate() {
        let out = dir.path().join(format!("run-{index}"));
        let mut args = strings(&[
            "run",
            "--bot",
            "a=raiser",
            "--bot",
            "b=calling-station",
            "--hand-limit",
            "5",
            "--seed",
            "4",
            "--out",
            out.to_str().unwrap(),
        ]);
        args.extend(strings(extra));
        let output = dealer(args, dir.path());
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{extra:?}: {stdout}");
        let mut written: Vec<String> = std::fs::read_dir(out.join("game-1"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        written.sort();
        assert_eq!(written, expected, "{extra:?}");
        assert!(out.join("results.json").exists());
        assert!(!stdout.contains("requests.jsonl"), "{extra:?}: {stdout}");
    }
}

/// `--bot NAME=FILE` seats an opponent profile (the arena's `--field-from` writes them), here
/// a shipped one, beside a kind by name; a file that is no profile, or is missing, is a clear
/// error before any game.
#[test]
fn a_profile_file_is_a_house_bot_and_a_bad_one_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let profile = Path::new(env!("CARGO_MANIFEST_DIR")).join("../player/bots/profiles/real-c.json");
    let out = dir.path().join("run");
    let output = dealer(
        strings(&[
            "run",
            "--bot",
            &format!("c={}", profile.display()),
            "--bot",
            "b=real-b",
            "--bot",
            "f=folder",
            "--games",
            "2",
            "--hand-limit",
            "30",
            "--seed",
            "5",
            "--out",
            out.to_str().unwrap(),
        ]),
        dir.path(),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let results = read_results(&out.join("results.json"));
    let bots: Vec<Option<String>> = results.players.iter().map(|p| p.bot.clone()).collect();
    assert!(
        bots[0].as_deref().is_some_and(|b| b.starts_with("real-c@")),
        "the profile's name and fingerprint: {bots:?}"
    );
    assert_eq!(bots[1].as_deref(), Some("real-b"));
    assert_eq!(results.games.len(), 2);
    // The profile's bot answered: its version names it.
    assert!(results.games[0]
        .versions
        .iter()
        .any(|v| v.starts_with("profile real-c ")));

    let not_a_profile = dir.path().join("notes.json");
    std::fs::write(&not_a_profile, "{\"format\": 2}").unwrap();
    // A profile fitted by an older build: refused with what to do.
    let older = dir.path().join("older.json");
    std::fs::write(&older, "{\"format\": 1}").unwrap();
    for (file, says) in [
        (not_a_profile, "not an opponent profile"),
        (
            older,
            "profile format 1, this build reads format 2: fit it again",
        ),
        (dir.path().join("missing.json"), "cannot read the profile"),
    ] {
        let output = dealer(
            strings(&[
                "run",
                "--bot",
                &format!("x={}", file.display()),
                "--bot",
                "y=folder",
            ]),
            dir.path(),
        );
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{stderr}");
    }
    let output = dealer(
        strings(&["run", "--bot", "x=shark", "--bot", "y=folder"]),
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("unknown bot kind \"shark\""), "{stderr}");
    assert!(stderr.contains("or the path of a profile file"), "{stderr}");
}
