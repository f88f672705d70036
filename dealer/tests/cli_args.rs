//! The `dealer` binary's bad arguments: a one-line error, a non-zero exit code, never a panic.

use std::path::Path;
use std::process::{Command, Output};

fn dealer(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dealer"))
        .args(args)
        .current_dir(dir)
        .env_remove("RUST_LOG")
        .output()
        .expect("the dealer binary runs")
}

/// Runs `args` and checks the error is exactly one line containing `expected`.
fn fails_with(args: &[&str], expected: &str) {
    let dir = tempfile::tempdir().unwrap();
    let output = dealer(args, dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: one line, got {stderr:?}");
    assert!(lines[0].starts_with("error: "), "{args:?}: {stderr}");
    assert!(lines[0].contains(expected), "{args:?}: {stderr}");
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "{args:?}: nothing written"
    );
}

#[test]
fn malformed_urls() {
    fails_with(
        &["run", "--player", "ann=localhost:9000", "--bot", "b=raiser"],
        "invalid value 'ann=localhost:9000' for '--player <NAME=URL>': invalid player URL: it must start with http:// or https:// (did you mean http://localhost:9000?)",
    );
    fails_with(
        &["run", "--player", "ann=ftp://host/", "--bot", "b=raiser"],
        "scheme \"ftp\" is not supported",
    );
    fails_with(
        &["run", "--player", "ann=http://", "--bot", "b=raiser"],
        "invalid player URL",
    );
    fails_with(
        &["run", "--player", "ann", "--bot", "b=raiser"],
        "expected NAME=URL",
    );
    fails_with(
        &["run", "--player", "=http://h/", "--bot", "b=raiser"],
        "must not be blank",
    );
}

#[test]
fn duplicate_names() {
    fails_with(
        &[
            "run",
            "--player",
            "ann=http://127.0.0.1:9000",
            "--bot",
            "ann=raiser",
        ],
        "two players are named \"ann\"; names must be unique",
    );
}

#[test]
fn fewer_than_two_players() {
    fails_with(&["run"], "a sit'n'go needs at least 2 players, got 0");
    fails_with(
        &["run", "--player", "ann=http://127.0.0.1:9000"],
        "a sit'n'go needs at least 2 players, got 1",
    );
    fails_with(
        &["demo", "--bots", "raiser"],
        "--bots needs 2 to 10 bots, got 1",
    );
}

#[test]
fn zero_and_bad_numbers() {
    let two = ["run", "--bot", "a=raiser", "--bot", "b=folder"];
    for (flag, value, expected) in [
        ("--timeout-ms", "0", "must be at least 1"),
        ("--games", "0", "must be at least 1"),
        ("--parallel", "0", "must be at least 1"),
        ("--stack", "0", "must be at least 1"),
        ("--hand-limit", "0", "must be at least 1"),
        ("--wait-ms", "0", "must be at least 1"),
        ("--games", "-3", "unexpected argument '-3'"),
        ("--games", "ten", "\"ten\" is not a whole number"),
        ("--stack", "99999999999999999999", "is not a whole number"),
        (
            "--blinds",
            "turbo",
            "invalid value 'turbo' for '--blinds <SCHEDULE>' (one of: live, classic)",
        ),
        (
            "--absent",
            "maybe",
            "invalid value 'maybe' for '--absent <POLICY>'",
        ),
        (
            "--outputs",
            "log,phh",
            "invalid value 'phh' for '--outputs <FILE,...>' (one of: log, requests, hands, hands-file, players, decks, none)",
        ),
    ] {
        let mut args = two.to_vec();
        args.extend([flag, value]);
        fails_with(&args, expected);
    }
    fails_with(
        &[
            "run",
            "--bot",
            "a=raiser",
            "--bot",
            "b=folder",
            "--stack",
            "1000000000000000001",
        ],
        "stack 1000000000000000001 is larger than the maximum",
    );
}

#[test]
fn unknown_bot_kinds() {
    fails_with(
        &["run", "--bot", "a=raiser", "--bot", "b=shark"],
        "unknown bot kind \"shark\" (known kinds: folder, calling-station",
    );
    fails_with(
        &["demo", "--bots", "raiser,shark"],
        "unknown bot kind \"shark\"",
    );
}

#[test]
fn unreadable_or_invalid_config_files() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.toml");
    fails_with(
        &["run", "--config", missing.to_str().unwrap()],
        "cannot read config",
    );
    let cases = [
        ("typo.toml", "games = 2\ngamez = 3\n", "(line 2): unknown field `gamez`"),
        ("syntax.toml", "games = \n", "(line 1)"),
        ("type.toml", "games = \"two\"\n", "invalid type: string \"two\", expected u32"),
        (
            "url.toml",
            "[[player]]\nname = \"ann\"\nurl = \"nope\"\n[[bot]]\nname = \"b\"\nkind = \"raiser\"\n",
            "player \"ann\" in the config: invalid player URL",
        ),
        (
            "kind.toml",
            "[[bot]]\nname = \"a\"\nkind = \"shark\"\n[[bot]]\nname = \"b\"\nkind = \"raiser\"\n",
            "bot \"a\" in the config: unknown bot kind \"shark\"",
        ),
        (
            "timeout.toml",
            "timeout_ms = 0\n[[bot]]\nname = \"a\"\nkind = \"folder\"\n[[bot]]\nname = \"b\"\nkind = \"raiser\"\n",
            "timeout_ms must be at least 1 ms",
        ),
        (
            "turbo.toml",
            "games = 2\nblinds = \"turbo\"\n",
            "(line 2): unknown blind schedule \"turbo\": use \"live\", \"classic\", or custom levels",
        ),
        (
            "outputs.toml",
            "outputs = [\"log\", \"phh\"]\n",
            "(line 1): unknown variant `phh`, expected one of `log`, `requests`, `hands`, `hands-file`, `players`, `decks`, `none`",
        ),
        (
            "blinds.toml",
            "[[blinds.custom]]\nfrom_round = 5\nsmall_blind = 10\n[[bot]]\nname = \"a\"\nkind = \"folder\"\n[[bot]]\nname = \"b\"\nkind = \"raiser\"\n",
            "the first blind level must start at round 0, not 5",
        ),
    ];
    for (name, text, expected) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        fails_with(&["run", "--config", path.to_str().unwrap()], expected);
    }
    // Not UTF-8.
    let binary = dir.path().join("binary.toml");
    std::fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
    fails_with(
        &["run", "--config", binary.to_str().unwrap()],
        "cannot read config",
    );
}

#[test]
fn tokens_must_name_an_http_player() {
    fails_with(
        &[
            "run", "--bot", "a=raiser", "--bot", "b=folder", "--token", "a=s3cret",
        ],
        "--token a=…: there is no HTTP player named \"a\"",
    );
    fails_with(
        &[
            "run",
            "--player",
            "ann=http://127.0.0.1:9000",
            "--bot",
            "b=folder",
            "--token",
            "ann=has space",
        ],
        "invalid bearer token",
    );
}

#[test]
fn secrets_in_urls_are_never_echoed() {
    let dir = tempfile::tempdir().unwrap();
    let output = dealer(
        &[
            "run",
            "--player",
            "ann=team:hunter2@localhost:9000",
            "--bot",
            "b=raiser",
        ],
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2));
    assert!(!stderr.contains("hunter2"), "{stderr}");
}

#[test]
fn unknown_flags_and_commands() {
    fails_with(&["frob"], "unrecognized subcommand 'frob'");
    fails_with(
        &["run", "--players", "x"],
        "unexpected argument '--players'",
    );
}

#[test]
fn help_and_bot_list_succeed() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--help"][..],
        &["run", "--help"],
        &["demo", "--help"],
        &["--version"],
    ] {
        let output = dealer(args, dir.path());
        assert!(output.status.success(), "{args:?}");
        assert!(!output.stdout.is_empty());
    }
    let help = String::from_utf8(dealer(&["run", "--help"], dir.path()).stdout).unwrap();
    for needle in [
        "--player <NAME=URL>",
        "--bot <NAME=KIND>",
        "--config <FILE.toml>",
        "Config file",
        "[[player]]",
    ] {
        assert!(help.contains(needle), "run --help lacks {needle}");
    }
    let bots = dealer(&["bots"], dir.path());
    assert!(bots.status.success());
    let list = String::from_utf8(bots.stdout).unwrap();
    for kind in dealer::house::BotKind::ALL {
        assert!(list.contains(kind.name()), "{kind}");
    }
    // No command: the help, and a usage error code.
    let output = dealer(&[], dir.path());
    assert_eq!(output.status.code(), Some(2));
}
