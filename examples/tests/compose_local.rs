//! `examples/compose-local.sh`, run for real (with `PROFILE=dev` binaries): extra
//! arguments override the compose command's (its own example, `--games 2`, used to fail as a
//! repeated argument), a taken player address stops it before the dealer starts, and a player
//! that dies during the run stops the dealer with an error.
//!
//! The three cases share the player addresses (127.0.0.10 and up), so they run one after the
//! other in one test. It builds the binaries with the script's own `cargo build --profile dev`
//! (minutes when cold; seconds after `cargo test --workspace`, whose dependencies it shares):
//! `#[ignore]`d, and run by CI with
//! `cargo test -p lean-poker-examples --test examples_tests -- --ignored compose_local::`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("examples/ is inside the workspace")
        .to_path_buf()
}

fn script(args: &[&str]) -> Command {
    let mut command = Command::new("bash");
    command
        .arg(workspace_root().join("examples/compose-local.sh"))
        .args(args)
        .env("PROFILE", "dev")
        .env("CARGO", env!("CARGO"))
        .stdin(Stdio::null());
    command
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("compose-local-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
#[ignore = "builds the players and the dealer with the script's cargo build (minutes when cold); CI runs it"]
fn compose_local_overrides_arguments_and_stops_on_dead_players() {
    if Command::new("python3")
        .args(["-c", "import yaml"])
        .status()
        .map_or(true, |status| !status.success())
    {
        panic!("compose-local.sh needs python3 with PyYAML (apt-get install -y python3-yaml)");
    }

    // 1. --games and --seed override the compose command's --games 10 and --seed 2024.
    let out = scratch("run");
    let run = script(&[
        "--games",
        "1",
        "--hand-limit",
        "3",
        "--seed",
        "5",
        "--out",
        out.to_str().unwrap(),
    ])
    .output()
    .expect("bash runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["games_planned"], 1, "{results}");
    assert_eq!(results["seed"].to_string().trim_matches('"'), "5");
    assert_eq!(results["players"].as_array().unwrap().len(), 4);
    let _ = std::fs::remove_dir_all(&out);

    // 2. A taken address: a clear error, and no dealer.
    let taken = std::net::TcpListener::bind("127.0.0.10:1337").expect("bind 127.0.0.10:1337");
    let refused = script(&["--games", "1"]).output().expect("bash runs");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{stderr}");
    assert!(
        stderr.contains("127.0.0.10:1337 is already taken"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("\ndealer "),
        "the dealer must not start: {stderr}"
    );
    drop(taken);

    // 3. A player killed during the run stops everything with an error naming it. Enough games
    // that the run cannot end by itself first (ten ended within the half second on a quick
    // machine).
    let out = scratch("killed");
    let mut child = script(&["--games", "1000", "--out", out.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash runs");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut victim = None;
    let mut seen = String::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        seen.push_str(&line);
        seen.push('\n');
        if victim.is_none() && line.starts_with("raiser: ") {
            let pid = line.rsplit("(pid ").next().unwrap().trim_end_matches(')');
            victim = Some(pid.to_string());
        }
        if line.starts_with("dealer ") {
            break;
        }
    }
    let victim = victim.unwrap_or_else(|| panic!("no raiser pid in: {seen}"));
    std::thread::sleep(Duration::from_millis(500));
    assert!(Command::new("kill")
        .args(["-KILL", &victim])
        .status()
        .unwrap()
        .success());
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "still running after a player died"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let rest = rest.join("\n");
    assert!(!status.success(), "{rest}");
    assert!(
        rest.contains("player raiser") && rest.contains("exited"),
        "{rest}"
    );
    let _ = std::fs::remove_dir_all(&out);
}
