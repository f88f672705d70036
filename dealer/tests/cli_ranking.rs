//! Issue #9 on the command line: `dealer run --duplicate`, `dealer run --shard K/N` with the
//! shards as separate processes, `dealer merge`, `dealer rainman` as a process, and their bad
//! input (one line on stderr, a non-zero exit code, never a panic).

use crate::support;

use dealer::tournament::RunResults;
use player::{RunningServer, ServerBuilder};
use std::io::{BufRead, BufReader};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::files::files;

fn command(args: &[String], dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dealer"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn dealer(args: &[String], dir: &Path) -> Output {
    command(args, dir).output().expect("the dealer binary runs")
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|arg| arg.to_string()).collect()
}

/// A house bot served by the SDK on 127.0.0.1.
fn serve(kind: &str) -> RunningServer {
    let bot = kind.parse::<dealer::house::BotKind>().unwrap().build(1);
    ServerBuilder::from_arc(Arc::clone(&bot))
        .address(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .workers(1)
        .start()
        .expect("a loopback player")
}

fn read_results(dir: &Path) -> RunResults {
    serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap()
}

fn stderr_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The error is one line, starts with `error: `, contains `expected`; the exit code is `code`.
fn assert_one_line_error(output: &Output, code: i32, expected: &str) {
    let stderr = stderr_of(output);
    assert_eq!(output.status.code(), Some(code), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line, got {stderr:?}");
    assert!(lines[0].starts_with("error: "), "{stderr}");
    assert!(lines[0].contains(expected), "{stderr}");
}

/// The arguments of one run: an HTTP player served here and three house bots, reproducible.
fn run_args(http_player: &RunningServer, games: u32, out: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = strings(&[
        "run",
        "--player",
        &format!("served={}", http_player.url()),
        "--bot",
        "station=calling-station",
        "--bot",
        "raiser=raiser",
        "--bot",
        "random=random",
        "--games",
        &games.to_string(),
        "--seed",
        "11",
        "--hand-limit",
        "60",
        "--reproducible",
        "--out",
        out.to_str().unwrap(),
    ]);
    args.extend(strings(extra));
    args
}

/// Plays the run unsharded, then as `shards` processes at once, merges them with `dealer
/// merge` (another process), and checks the merged folder is the unsharded one byte for byte.
fn shards_merge_into_the_unsharded_run(games: u32, shards: u32, extra: &[&str]) -> RunResults {
    let http_player = serve("calling-station");
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let output = dealer(&run_args(&http_player, games, &whole, extra), dir.path());
    assert!(output.status.success(), "{}", stderr_of(&output));

    let shard_dirs: Vec<PathBuf> = (0..shards)
        .map(|k| dir.path().join(format!("shard-{k}")))
        .collect();
    let children: Vec<Child> = shard_dirs
        .iter()
        .enumerate()
        .map(|(k, out)| {
            let shard = format!("{k}/{shards}");
            let mut extra = extra.to_vec();
            extra.extend(["--shard", &shard]);
            command(&run_args(&http_player, games, out, &extra), dir.path())
                .spawn()
                .unwrap()
        })
        .collect();
    for (k, child) in children.into_iter().enumerate() {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "shard {k}: {}", stderr_of(&output));
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains(&format!("shard {k}/{shards}")),
            "the header and table name the shard: {stdout}"
        );
        let results = read_results(&shard_dirs[k]);
        assert_eq!(
            results.shard.map(|s| s.to_string()),
            Some(format!("{k}/{shards}"))
        );
        assert!(results.complete);
    }

    let merged = dir.path().join("merged");
    let mut merge = strings(&["merge", "--out", merged.to_str().unwrap()]);
    // In reverse order: the order of the folders does not matter.
    merge.extend(
        shard_dirs
            .iter()
            .rev()
            .map(|d| d.to_str().unwrap().to_string()),
    );
    let output = dealer(&merge, dir.path());
    assert!(output.status.success(), "{}", stderr_of(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(&format!("Merged {shards} shards")) && stdout.contains(" ± "),
        "{stdout}"
    );

    let (whole_files, merged_files) = (files(&whole), files(&merged));
    assert_eq!(
        whole_files.keys().collect::<Vec<_>>(),
        merged_files.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &whole_files {
        assert!(&merged_files[path] == bytes, "{} differs", path.display());
    }
    assert!(whole_files.contains_key(Path::new("game-1/log.json")));
    read_results(&merged)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shards_as_processes_merge_into_the_unsharded_run_byte_for_byte() {
    let results = shards_merge_into_the_unsharded_run(5, 3, &[]);
    assert_eq!(results.games.len(), 5);
    assert!(results.complete && !results.duplicate && results.shard.is_none());
    assert!(results.totals.iter().all(|t| t.rating.is_some()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_shards_merge_into_the_unsharded_duplicate_run() {
    let results = shards_merge_into_the_unsharded_run(2, 2, &["--duplicate"]);
    assert!(results.duplicate);
    assert_eq!(
        results.games.len(),
        2 * 4,
        "two deal sets, four seatings each"
    );
    assert_eq!(results.deal_sets.len(), 2);
    assert!(results.deal_sets.iter().all(|set| set.complete));
}

#[test]
fn duplicate_from_the_config_file_and_the_rating_column() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("run.toml");
    std::fs::write(
        &config,
        "games = 2\nseed = 3\nduplicate = true\noutputs = []\n\
         [[bot]]\nname = \"a\"\nkind = \"raiser\"\n\
         [[bot]]\nname = \"b\"\nkind = \"calling-station\"\n\
         [[bot]]\nname = \"c\"\nkind = \"folder\"\n",
    )
    .unwrap();
    let out = dir.path().join("run");
    let output = dealer(
        &strings(&[
            "run",
            "--config",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]),
        dir.path(),
    );
    assert!(output.status.success(), "{}", stderr_of(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("2 deal sets x 3 seatings = 6 games (duplicate)"),
        "{stdout}"
    );
    assert!(stdout.contains("rating"), "{stdout}");
    assert!(
        stdout.contains("Deal sets: 2 of 2 played in every seating"),
        "{stdout}"
    );
    let results = read_results(&out);
    assert!(results.duplicate);
    assert_eq!(results.games.len(), 6);
    for total in &results.totals {
        let line = stdout
            .lines()
            .find(|line| line.split_whitespace().nth(1) == Some(total.name.as_str()))
            .unwrap_or_else(|| panic!("a row for {}: {stdout}", total.name));
        let shown = format!(
            "{:.1} ± {:.1}",
            total.rating.unwrap(),
            total.uncertainty.unwrap()
        );
        assert!(line.ends_with(&shown), "{line} vs {shown}");
    }
}

#[test]
fn bad_shards_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for (shard, expected) in [
        (
            "2/2",
            "a shard is K/N with K from 0 to N-1 (like 0/4), not \"2/2\"",
        ),
        ("0/0", "not \"0/0\""),
        ("1", "not \"1\""),
        ("a/b", "not \"a/b\""),
        ("-1/2", "not \"-1/2\""),
    ] {
        // `--shard=K/N`: the one form in which a value may start with '-'.
        let shard = format!("--shard={shard}");
        let output = dealer(
            &strings(&["run", "--bot", "a=raiser", "--bot", "b=folder", &shard]),
            dir.path(),
        );
        assert_one_line_error(&output, 2, expected);
    }
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "nothing written"
    );
}

#[test]
fn merge_refuses_what_is_not_one_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let play = |out: &str, extra: &[&str]| {
        let mut args = strings(&[
            "run",
            "--bot",
            "a=raiser",
            "--bot",
            "b=folder",
            "--games",
            "3",
            "--seed",
            "4",
            "--outputs",
            "none",
            "--out",
            out,
        ]);
        args.extend(strings(extra));
        let output = dealer(&args, dir.path());
        assert!(output.status.success(), "{}", stderr_of(&output));
    };
    play("s0", &["--shard", "0/2"]);
    play("s1", &["--shard", "1/2"]);
    play("other1", &["--shard", "1/2", "--stack", "500"]);
    play("plain", &[]);
    let merge = |args: &[&str]| {
        let mut all = vec!["merge"];
        all.extend_from_slice(args);
        dealer(&strings(&all), dir.path())
    };
    assert_one_line_error(
        &merge(&["--out", "m", "s0"]),
        2,
        "shard 1/2 is missing; merge needs every shard of the run",
    );
    assert_one_line_error(
        &merge(&["--out", "m", "s0", "s0", "s1"]),
        2,
        "shard 0/2 is given twice",
    );
    assert_one_line_error(
        &merge(&["--out", "m", "s0", "other1"]),
        2,
        "is from another run than s0: its config differs",
    );
    assert_one_line_error(
        &merge(&["--out", "m", "s0", "plain"]),
        2,
        "plain is not a shard's output",
    );
    assert_one_line_error(
        &merge(&["--out", "m", "s0", "nowhere"]),
        2,
        "cannot read nowhere/results.json",
    );
    assert_one_line_error(&merge(&["--out", "m"]), 2, "SHARD_DIR");
    assert_one_line_error(&merge(&["s0", "s1"]), 2, "--out");
    assert!(!dir.path().join("m").exists(), "no refused merge writes");
    // A folder holding a run is never written over.
    assert_one_line_error(&merge(&["--out", "plain", "s0", "s1"]), 1, "plain");
    let output = merge(&["--out", "m", "s1", "s0"]);
    assert!(output.status.success(), "{}", stderr_of(&output));
    assert_eq!(read_results(&dir.path().join("m")).games.len(), 3);
}

/// The `dealer rainman` process: its first line names the address; it answers `/rank` over
/// GET and POST as the library does; SIGTERM stops it with exit code 0.
#[test]
fn rainman_serves_get_and_post_until_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = command(&strings(&["rainman", "--bind", "127.0.0.1:0"]), dir.path())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    let url = first
        .split_whitespace()
        .find(|word| word.starts_with("http://"))
        .unwrap_or_else(|| panic!("an address in {first:?}"))
        .to_string();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/rank"),
        "{url}"
    );

    let cards = r#"[{"rank":"A","suit":"spades"},{"rank":"A","suit":"hearts"},{"rank":"K","suit":"clubs"},{"rank":"K","suit":"diamonds"},{"rank":"2","suit":"spades"}]"#;
    let form = form_urlencoded::Serializer::new(String::new())
        .append_pair("cards", cards)
        .finish();
    let expected = serde_json::to_value(shared::eval::rain_man_rank_json(cards).unwrap()).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = reqwest::Client::new();
        let get = client.get(format!("{url}?{form}")).send().await.unwrap();
        assert_eq!(get.status(), 200);
        let body: serde_json::Value = serde_json::from_str(&get.text().await.unwrap()).unwrap();
        assert_eq!(body, expected);
        let post = client
            .post(&url)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(post.status(), 200);
        let body: serde_json::Value = serde_json::from_str(&post.text().await.unwrap()).unwrap();
        assert_eq!(body, expected);
        let bad = client.get(format!("{url}?cards=[")).send().await.unwrap();
        assert_eq!(bad.status(), 400);
        assert!(bad.text().await.unwrap().starts_with("Bad request: "));
    });

    // SAFETY: kill only sends a signal to the child we started.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    assert_eq!(sent, 0);
    let give_up = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > give_up {
            let _ = child.kill();
            panic!("rainman did not stop on SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
}

#[test]
fn rainman_bad_addresses_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let output = dealer(&strings(&["rainman", "--bind", "localhost"]), dir.path());
    assert_one_line_error(
        &output,
        2,
        "expected an IP address and a port, like 127.0.0.1:4567",
    );
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    let output = dealer(&strings(&["rainman", "--bind", &address]), dir.path());
    assert_one_line_error(&output, 1, &format!("cannot listen on {address}"));
}
