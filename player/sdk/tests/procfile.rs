//! The Heroku-style deploy (root `Procfile` and `RustConfig`, read by the common Rust
//! buildpack): the buildpack runs `cargo build $RUST_CARGO_BUILD_FLAGS`, then the platform
//! starts the Procfile's `web` command with `PORT` set. These tests read both files, so they
//! cannot drift apart: the flags build only the player, the command is the binary they
//! produce, and that binary serves `check` on `$PORT`.

use crate::common;

use common::process::{cargo, free_port, start, target_dir, wait_until_listening, workspace_root};

fn read(name: &str) -> String {
    std::fs::read_to_string(workspace_root().join(name))
        .unwrap_or_else(|error| panic!("a root {name}: {error}"))
}

/// The Procfile's `web` command, split into words.
fn web_command() -> Vec<String> {
    let procfile = read("Procfile");
    let web = procfile
        .lines()
        .find_map(|line| line.strip_prefix("web:"))
        .expect("a `web:` process in the Procfile");
    web.split_whitespace().map(str::to_string).collect()
}

/// `RUST_CARGO_BUILD_FLAGS` from `RustConfig` (a shell file of `NAME="value"` lines).
fn build_flags() -> Vec<String> {
    let config = read("RustConfig");
    let value = config
        .lines()
        .find_map(|line| line.trim().strip_prefix("RUST_CARGO_BUILD_FLAGS="))
        .expect("RUST_CARGO_BUILD_FLAGS in RustConfig");
    let value = value.trim().trim_matches('"');
    assert!(
        !value.contains(['$', '`', '\'', '\\']),
        "keep the flags plain words: {value}"
    );
    value.split_whitespace().map(str::to_string).collect()
}

fn flag_value(flags: &[String], names: &[&str]) -> String {
    let at = flags
        .iter()
        .position(|flag| names.contains(&flag.as_str()))
        .unwrap_or_else(|| panic!("one of {names:?} in {flags:?}"));
    flags[at + 1].clone()
}

/// The profile folder the flags build into (`--release` is `release`).
fn profile_dir(flags: &[String]) -> String {
    if flags.iter().any(|flag| flag == "--release") {
        "release".to_string()
    } else {
        flag_value(flags, &["--profile"])
    }
}

#[test]
fn the_procfile_starts_the_binary_the_buildpack_builds() {
    let flags = build_flags();
    assert_eq!(
        flag_value(&flags, &["-p", "--package"]),
        "team",
        "the buildpack builds the team's crate (player/team)"
    );
    assert!(flags.iter().any(|flag| flag == "--locked"), "{flags:?}");
    let bin = flag_value(&flags, &["--bin"]);
    // The buildpack serves `./target/release/...`, and the deploy tuning lives in
    // `[profile.release]` (the root Cargo.toml).
    assert_eq!(profile_dir(&flags), "release");
    let command = web_command();
    assert_eq!(
        command,
        [format!("./target/{}/{bin}", profile_dir(&flags))],
        "the web process is the built binary, with no arguments (PORT comes from the platform)"
    );
}

#[test]
#[ignore = "builds the optimised binary (minutes when cold); CI runs it with --ignored"]
fn the_procfile_command_serves_check_on_port() {
    let flags = build_flags();
    let mut args = vec!["build".to_string()];
    args.extend(flags.iter().cloned());
    cargo(&args);
    // The buildpack builds in the app's folder, so `./target/...` is relative to it; here the
    // target folder may be elsewhere (CARGO_TARGET_DIR).
    let command = web_command();
    let relative = command[0]
        .strip_prefix("./target/")
        .expect("a binary under ./target/");
    let binary = target_dir().join(relative);
    assert!(binary.exists(), "{}", binary.display());
    let port = free_port();
    let _running = start(&binary, &[], port);
    wait_until_listening(port);
    let address = ([127, 0, 0, 1], port).into();
    let check = common::post(address, "action=check");
    assert_eq!((check.status, check.body.as_str()), (200, "OK"));
    let version = common::post(address, "action=version");
    assert_eq!(version.body, common::process::bot_version(&binary));
}
