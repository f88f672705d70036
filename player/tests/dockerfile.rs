//! The container, without a Docker engine: builds the release binary exactly as the root
//! `Dockerfile` does (its build command and build-argument defaults are read from the file, so
//! they cannot drift), starts it the way the image does (only `PORT` set), and checks that it
//! answers `check`, a `bet_request` and its own `--healthcheck`, then stops on SIGTERM.
//!
//! The two tests that build are `#[ignore]`d: a cold optimised build takes minutes on two busy
//! cores, too slow for the normal suite. CI runs them explicitly:
//! `cargo test -p lean-poker-player --test dockerfile -- --ignored`. They reuse the workspace's
//! target directory, so a second run takes seconds.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("player/ is inside the workspace")
        .to_path_buf()
}

fn dockerfile() -> String {
    std::fs::read_to_string(workspace_root().join("Dockerfile")).expect("a root Dockerfile")
}

/// The Dockerfile's instructions, with `\` continuations joined.
fn instructions(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('#') || trimmed.is_empty() && current.is_empty() {
            continue;
        }
        if let Some(continued) = trimmed.strip_suffix('\\') {
            current.push_str(continued);
            current.push(' ');
        } else {
            current.push_str(trimmed);
            out.push(std::mem::take(&mut current));
        }
    }
    out
}

/// The build stage's `ARG` defaults and its `cargo build` command.
struct BuildRecipe {
    args: HashMap<String, String>,
    cargo_args: Vec<String>,
}

fn build_recipe() -> BuildRecipe {
    let mut args = HashMap::new();
    let mut cargo_args = None;
    let mut in_builder = false;
    for instruction in instructions(&dockerfile()) {
        if let Some(from) = instruction.strip_prefix("FROM ") {
            in_builder = from.trim_end().ends_with(" AS builder");
            continue;
        }
        if !in_builder {
            continue;
        }
        if let Some(arg) = instruction.strip_prefix("ARG ") {
            if let Some((name, value)) = arg.split_once('=') {
                args.insert(name.trim().to_string(), value.trim().to_string());
            }
        }
        if let Some(run) = instruction.strip_prefix("RUN ") {
            if let Some(command) = run.trim().strip_prefix("cargo build ") {
                let words: Vec<String> = command
                    .split_whitespace()
                    .map(|word| word.trim_matches('"').to_string())
                    .collect();
                cargo_args = Some(words);
            }
        }
    }
    BuildRecipe {
        args,
        cargo_args: cargo_args.expect("a RUN cargo build ... line in the builder stage"),
    }
}

impl BuildRecipe {
    /// The `cargo build` arguments with `$NAME` replaced by `overrides` or the ARG defaults.
    fn cargo_args(&self, overrides: &[(&str, &str)]) -> Vec<String> {
        let value = |name: &str| {
            overrides
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
                .or_else(|| self.args.get(name).cloned())
                .unwrap_or_else(|| panic!("no value for build argument {name}"))
        };
        let mut out = vec!["build".to_string()];
        for word in &self.cargo_args {
            match word.strip_prefix('$') {
                Some(name) => out.push(value(name.trim_matches(|c| c == '{' || c == '}'))),
                None => out.push(word.clone()),
            }
        }
        out
    }

    /// The value after `flag` in the build command.
    fn flag(&self, overrides: &[(&str, &str)], flag: &str) -> String {
        let args = self.cargo_args(overrides);
        let position = args
            .iter()
            .position(|a| a == flag)
            .unwrap_or_else(|| panic!("{flag} in {args:?}"));
        args[position + 1].clone()
    }
}

fn target_dir() -> PathBuf {
    let output = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(workspace_root())
        .output()
        .expect("cargo metadata");
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).expect("metadata");
    PathBuf::from(
        metadata["target_directory"]
            .as_str()
            .expect("target_directory"),
    )
}

/// Builds like the Dockerfile does and returns the release binary's path.
fn build_like_the_image(overrides: &[(&str, &str)]) -> PathBuf {
    let recipe = build_recipe();
    let args = recipe.cargo_args(overrides);
    let status = Command::new(env!("CARGO"))
        .args(&args)
        .current_dir(workspace_root())
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo {args:?} failed");
    let binary = target_dir()
        .join(recipe.flag(overrides, "--profile"))
        .join(recipe.flag(overrides, "--bin"));
    assert!(binary.exists(), "{}", binary.display());
    binary
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Kills the process if a test fails half-way.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(binary: &Path, port: u16) -> Running {
    let child = Command::new(binary)
        .env_clear()
        .env("PORT", port.to_string())
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the binary starts");
    Running(child)
}

fn wait_until_listening(port: u16) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "nothing listens on port {port}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Starts `binary` as the image would and checks the protocol, the health check and SIGTERM.
fn check_binary(binary: &Path, expect_version: Option<&str>) {
    let port = free_port();
    let mut running = start(binary, port);
    wait_until_listening(port);
    let address: std::net::SocketAddr = ([127, 0, 0, 1], port).into();

    let check = common::post(address, "action=check");
    assert_eq!((check.status, check.body.as_str()), (200, "OK"));
    let bet = common::post(
        address,
        &common::form("bet_request", &common::capture("09-")),
    );
    assert_eq!(bet.status, 200);
    assert!(
        shared::protocol::parse_bet_answer(bet.body.as_bytes()).is_ok(),
        "{bet:?}"
    );
    if let Some(version) = expect_version {
        assert_eq!(common::post(address, "action=version").body, version);
    }

    // The HEALTHCHECK command of the image, with the same environment.
    let healthcheck = Command::new(binary)
        .arg("--healthcheck")
        .env_clear()
        .env("PORT", port.to_string())
        .output()
        .expect("healthcheck runs");
    assert!(healthcheck.status.success(), "{healthcheck:?}");

    // docker stop: SIGTERM, then a clean exit.
    let pid = running.0.id().to_string();
    let kill = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(kill.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = running.0.try_wait().unwrap() {
            assert!(status.success(), "exit after SIGTERM: {status:?}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "still running 10 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Health check against a stopped server fails.
    let unhealthy = Command::new(binary)
        .arg("--healthcheck")
        .env_clear()
        .env("PORT", port.to_string())
        .output()
        .unwrap();
    assert!(!unhealthy.status.success());
}

#[test]
fn the_dockerfile_is_complete() {
    let text = dockerfile();
    let instructions = instructions(&text);
    let has = |prefix: &str| instructions.iter().any(|i| i.starts_with(prefix));
    assert!(has("FROM rust:"), "a Rust builder stage");
    assert!(has("FROM debian:bookworm-slim"), "a slim runtime stage");
    assert!(
        text.contains("cargo chef cook"),
        "a cached dependency layer"
    );
    assert!(has("USER 10001"), "a non-root user");
    assert!(has("EXPOSE ${PORT}"));
    assert!(has("ENV PORT=${PORT}"));
    assert!(has("HEALTHCHECK"));
    assert!(
        text.contains("\"/usr/local/bin/player\", \"--healthcheck\""),
        "the healthcheck runs the binary itself"
    );
    let recipe = build_recipe();
    assert_eq!(recipe.args["PACKAGE"], "lean-poker-player");
    assert_eq!(recipe.args["BIN"], "player");
    assert_eq!(recipe.args["PROFILE"], "container");
    assert_eq!(recipe.flag(&[], "--profile"), "container");
    assert_eq!(recipe.flag(&[("BIN", "equity")], "--bin"), "equity");
    assert!(workspace_root().join(".dockerignore").exists());
}

#[test]
#[ignore = "builds the optimised binary (minutes when cold); CI runs it with --ignored"]
fn the_image_binary_builds_starts_and_answers() {
    let binary = build_like_the_image(&[]);
    check_binary(&binary, Some(player::strategy::VERSION));
}

#[test]
#[ignore = "builds the optimised binary (minutes when cold); CI runs it with --ignored"]
fn an_example_bot_builds_through_the_build_arguments() {
    let overrides = [
        ("PACKAGE", "lean-poker-examples"),
        ("BIN", "calling-station"),
    ];
    let binary = build_like_the_image(&overrides);
    check_binary(&binary, Some("calling station 1"));
}
