//! The container, without a Docker engine: builds the release binary exactly as the root
//! `Dockerfile` does (its build command and build-argument defaults are read from the file, so
//! they cannot drift), starts it the way the image does (only `PORT` set), and checks that it
//! answers `check`, a `bet_request` and its own `--healthcheck`, then stops on SIGTERM.
//!
//! The two tests that build are `#[ignore]`d: a cold optimised build takes minutes on two busy
//! cores, too slow for the normal suite. CI runs them explicitly:
//! `cargo test -p lean-poker-player --test player_tests -- --ignored dockerfile::`. They reuse
//! the workspace's target directory, so a second run takes seconds. They build the team's
//! crate at run time, as the image does: the SDK's tests never compile it.

use crate::common;

use common::process::{cargo, free_port, start, target_dir, wait_until_listening, workspace_root};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

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
    stage_recipe("builder")
}

/// The `ARG` defaults and `cargo build` command of the stage named `stage`.
fn stage_recipe(stage: &str) -> BuildRecipe {
    let mut args = HashMap::new();
    let mut cargo_args = None;
    let mut in_builder = false;
    let suffix = format!(" AS {stage}");
    for instruction in instructions(&dockerfile()) {
        if let Some(from) = instruction.strip_prefix("FROM ") {
            in_builder = from.trim_end().ends_with(&suffix);
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
        cargo_args: cargo_args
            .unwrap_or_else(|| panic!("a RUN cargo build ... line in the {stage} stage")),
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

/// Builds like the Dockerfile does and returns the release binary's path.
fn build_like_the_image(overrides: &[(&str, &str)]) -> PathBuf {
    let recipe = build_recipe();
    let args = recipe.cargo_args(overrides);
    cargo(&args);
    assert!(args.contains(&"--release".to_string()), "{args:?}");
    let binary = target_dir()
        .join("release")
        .join(recipe.flag(overrides, "--bin"));
    assert!(binary.exists(), "{}", binary.display());
    binary
}

/// Starts `binary` as the image would and checks the protocol, the health check and SIGTERM.
fn check_binary(binary: &Path, expect_version: Option<&str>) {
    let port = free_port();
    let mut running = start(binary, &[], port);
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
    assert_eq!(
        recipe.args["PACKAGE"], "team",
        "the team's crate (player/team)"
    );
    assert_eq!(recipe.args["BIN"], "player");
    assert!(recipe.cargo_args(&[]).contains(&"--release".to_string()));
    assert_eq!(recipe.flag(&[("BIN", "equity")], "--bin"), "equity");
    assert!(workspace_root().join(".dockerignore").exists());
}

/// `docker build --target dealer .` without build arguments installs the dealer binary as
/// `dealer`, built in a stage of its own, whatever the player stage's arguments say.
#[test]
fn the_dealer_target_installs_the_dealer_binary_without_build_arguments() {
    let recipe = stage_recipe("dealer-builder");
    for overrides in [
        &[][..],
        &[("PACKAGE", "lean-poker-examples"), ("BIN", "equity")],
    ] {
        assert_eq!(recipe.flag(overrides, "--package"), "lean-poker-dealer");
        assert_eq!(recipe.flag(overrides, "--bin"), "dealer");
        assert!(recipe
            .cargo_args(overrides)
            .contains(&"--release".to_string()));
    }
    let instructions = instructions(&dockerfile());
    let stage_of = |instruction: &str| {
        let mut stage = String::new();
        for line in &instructions {
            if let Some(from) = line.strip_prefix("FROM ") {
                stage = from.rsplit(' ').next().unwrap_or_default().to_string();
            }
            if line == instruction {
                return stage;
            }
        }
        panic!("no instruction {instruction:?}");
    };
    let copy = "COPY --from=dealer-builder /app/dealer-binary /usr/local/bin/dealer";
    assert_eq!(stage_of(copy), "dealer");
    assert_eq!(
        stage_of("RUN cp \"target/release/dealer\" /app/dealer-binary"),
        "dealer-builder"
    );
    assert!(instructions
        .iter()
        .any(|i| i == "ENTRYPOINT [\"/usr/local/bin/dealer\"]"));
}

#[test]
#[ignore = "builds the optimised binary (minutes when cold); CI runs it with --ignored"]
fn the_image_binary_builds_starts_and_answers() {
    let binary = build_like_the_image(&[]);
    let version = common::process::bot_version(&binary);
    check_binary(&binary, Some(&version));
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
