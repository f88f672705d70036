//! Tests of the flag and file merge.

use super::*;
use crate::house::BotKind;

fn file(text: &str) -> RunFile {
    toml::from_str(text).unwrap()
}

fn two_bots() -> RunFlags {
    RunFlags {
        bots: vec![
            ("a".into(), BotKind::Raiser.into()),
            ("b".into(), BotKind::Folder.into()),
        ],
        out: Some("x".into()),
        seed: Some(3),
        ..RunFlags::default()
    }
}

fn error(flags: RunFlags, text: &str) -> String {
    resolve(flags, file(text)).unwrap_err().to_string()
}

#[test]
fn flags_win_over_the_file_and_players_add_up() {
    let plan = resolve(
        RunFlags {
            games: Some(2),
            bots: vec![("other".into(), BotKind::Folder.into())],
            ..RunFlags::default()
        },
        file(
            r#"
            games = 5
            seed = 1
            timeout_ms = 900
            stack = 3000
            absent = "play"
            out = "y"
            outputs = ["log"]
            duplicate = true
            [[blinds.custom]]
            from_round = 0
            small_blind = 7
            [[player]]
            name = "ann"
            url = "http://127.0.0.1:9001/"
            token = "s3cret"
            [[bot]]
            name = "house"
            kind = "calling-station"
            "#,
        ),
    )
    .unwrap();
    let names: Vec<&str> = plan.entrants.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["ann", "house", "other"]);
    match &plan.entrants[0].kind {
        EntrantKind::Http(endpoint) => {
            assert_eq!(
                endpoint.auth_scheme(),
                Some(crate::seat::AuthScheme::Bearer)
            )
        }
        other => panic!("{other:?}"),
    }
    let settings = &plan.settings;
    assert_eq!(settings.games, 2, "the flag wins");
    assert_eq!(settings.seed, 1, "the file's value when no flag");
    assert_eq!(settings.http.request_timeout, Duration::from_millis(900));
    assert_eq!(settings.game.starting_stack, Chips(3000));
    assert_eq!(settings.runner.absent, AbsentPolicy::Play);
    assert_eq!(settings.game.blinds.small_blind(0, 3), Chips(7));
    assert_eq!(settings.out_dir, PathBuf::from("y"));
    assert_eq!(
        plan.outputs,
        OutputSelection {
            viewer_log: true,
            ..OutputSelection::NONE
        }
    );
    assert!(plan.duplicate, "the file's duplicate = true");
    assert_eq!(plan.shard, None);
}

#[test]
fn defaults_when_nothing_is_said() {
    let plan = resolve(two_bots(), RunFile::default()).unwrap();
    assert_eq!(plan.settings.games, 1);
    assert_eq!(plan.settings.parallel, 1);
    assert_eq!(plan.settings.http, HttpSettings::default());
    assert_eq!(plan.settings.game, GameRules::default());
    assert_eq!(plan.outputs, OutputSelection::DEFAULT);
    assert_eq!(plan.settings.runner.clock, Clock::Wall);
    assert!(!plan.duplicate);
    assert_eq!(plan.shard, None);
    let none = RunFlags {
        outputs: Some(vec![OutputFile::None]),
        ..two_bots()
    };
    assert_eq!(
        resolve(none, RunFile::default()).unwrap().outputs,
        OutputSelection::NONE
    );
}

#[test]
fn errors_name_the_key_the_user_wrote() {
    let cases = [
        ("timeout_ms = 0", "timeout_ms must be at least 1 ms"),
        ("stack = 0", "stack must be at least 1 chip"),
        (
            "stack = 2000000000000000000",
            "stack 2000000000000000000 is larger",
        ),
        ("hand_limit = 0", "hand_limit must be at least 1"),
        ("games = 0", "games must be at least 1"),
        ("parallel = 0", "parallel must be at least 1"),
        ("wait_ms = 0", "wait_ms must be at least 1 ms"),
        (
            "[[blinds.custom]]\nfrom_round = 5\nsmall_blind = 10",
            "the first blind level must start at round 0, not 5",
        ),
        (
            "[[bot]]\nname = \"c\"\nkind = \"shark\"",
            "bot \"c\" in the config: unknown bot kind \"shark\"",
        ),
        (
            "[[player]]\nname = \"ann\"\nurl = \"nope\"",
            "player \"ann\" in the config: invalid player URL",
        ),
        (
            "[[bot]]\nname = \"a\"\nkind = \"folder\"",
            "two players are named \"a\"",
        ),
    ];
    for (text, expected) in cases {
        let message = error(two_bots(), text);
        assert!(message.contains(expected), "{text}: {message}");
        assert!(!message.contains("request_timeout_ms"), "{message}");
        assert!(!message.contains("starting_stack"), "{message}");
    }
    let one = RunFlags {
        bots: vec![("a".into(), BotKind::Raiser.into())],
        ..two_bots()
    };
    assert!(error(one, "").contains("at least 2 players, got 1"));
    let token = RunFlags {
        tokens: vec![("a".into(), "x".into())],
        ..two_bots()
    };
    assert!(error(token, "").contains("no HTTP player named \"a\""));
}

#[test]
fn the_file_is_read_with_line_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.toml");
    std::fs::write(&path, "games = 2\nblinds = \"turbo\"\n").unwrap();
    let message = read_run_file(&path).unwrap_err().to_string();
    assert!(message.contains("(line 2)"), "{message}");
    assert!(
        message.contains("unknown blind schedule \"turbo\""),
        "{message}"
    );
    assert!(!message.contains("`custom`"), "{message}");
    std::fs::write(&path, "request_timeout_ms = 5\n").unwrap();
    let message = read_run_file(&path).unwrap_err().to_string();
    assert!(
        message.contains("unknown field `request_timeout_ms`"),
        "{message}"
    );
    let missing = dir.path().join("missing.toml");
    assert!(read_run_file(&missing)
        .unwrap_err()
        .to_string()
        .starts_with("cannot read config"));
}
