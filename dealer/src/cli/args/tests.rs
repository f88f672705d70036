//! The command line's parsing and its resolution into settings.

use super::*;
use crate::observe::OutputSelection;
use crate::settings::resolve;
use std::time::Duration;

fn flags(args: &[&str]) -> Result<RunFlags, String> {
    let mut argv = vec!["dealer", "run"];
    argv.extend_from_slice(args);
    match Cli::try_parse_from(argv)
        .map_err(|error| error.to_string())?
        .command
    {
        Command::Run(args) => Ok(args.into_flags().0),
        _ => Err("not run".into()),
    }
}

#[test]
fn flags_become_settings() {
    let flags = flags(&[
        "--player",
        "ann=http://127.0.0.1:9001",
        "--bot",
        "house=raiser",
        "--bot",
        "me=equity",
        "--games",
        "3",
        "--seed",
        "9",
        "--blinds",
        "classic",
        "--stack",
        "500",
        "--timeout-ms",
        "700",
        "--forgiving",
        "--parallel",
        "2",
        "--hand-limit",
        "40",
        "--absent",
        "fail",
        "--out",
        "x",
        "--outputs",
        "log,hands",
    ])
    .unwrap();
    assert_eq!(flags.bots[1].1, BotKind::Equity.into());
    assert!(!flags.duplicate && flags.shard.is_none());
    let plan = resolve(flags, crate::settings::RunFile::default()).unwrap();
    let settings = &plan.settings;
    assert_eq!(plan.entrants.len(), 3);
    assert_eq!(plan.entrants[0].name, "ann");
    assert_eq!(settings.games, 3);
    assert_eq!(settings.seed, 9);
    assert_eq!(settings.parallel, 2);
    assert_eq!(settings.game.blinds, BlindSchedule::Classic);
    assert_eq!(settings.game.starting_stack, shared::Chips(500));
    assert_eq!(settings.http.request_timeout, Duration::from_millis(700));
    assert_eq!(settings.game.hand_limit, Some(40));
    assert_eq!(
        settings.game.bad_answers,
        crate::rules::BadAnswerPolicy::Forgive
    );
    assert_eq!(settings.runner.absent, AbsentPolicy::Fail);
    assert_eq!(settings.out_dir, PathBuf::from("x"));
    assert_eq!(
        plan.outputs,
        OutputSelection {
            viewer_log: true,
            hands: true,
            ..OutputSelection::NONE
        }
    );
}

#[test]
fn bad_values_are_one_clear_line() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--player", "ann=localhost:9000"],
            "did you mean http://localhost:9000?",
        ),
        (&["--player", "ann"], "expected NAME=URL"),
        (&["--timeout-ms", "0"], "must be at least 1"),
        (&["--bot", "a=nope"], "unknown bot kind \"nope\""),
        (&["--outputs", "logs"], "invalid value 'logs'"),
        (&["--token", "a="], "the token is empty"),
        (&["--shard", "2/2"], "a shard is K/N with K from 0 to N-1"),
        (&["--shard", "1"], "a shard is K/N"),
        (&["--shard", "0/0"], "a shard is K/N"),
    ];
    for (args, expected) in cases {
        let error = flags(args).unwrap_err();
        assert!(error.contains(expected), "{args:?}: {error}");
    }
    assert_eq!(shorten("ann=http://u:secret@host"), "ann=…");
}

#[test]
fn duplicate_and_shard_flags() {
    let flags = flags(&["--duplicate", "--shard", "1/3"]).unwrap();
    assert!(flags.duplicate);
    assert_eq!(flags.shard, Some(Shard::new(1, 3).unwrap()));
}

#[test]
fn merge_and_rainman_arguments() {
    let parse = |args: &[&str]| {
        let mut argv = vec!["dealer"];
        argv.extend_from_slice(args);
        Cli::try_parse_from(argv).map(|cli| cli.command)
    };
    match parse(&["merge", "--out", "m", "a", "b"]).unwrap() {
        Command::Merge(args) => {
            assert_eq!(args.out, PathBuf::from("m"));
            assert_eq!(args.shards, [PathBuf::from("a"), PathBuf::from("b")]);
        }
        other => panic!("{other:?}"),
    }
    assert!(parse(&["merge", "--out", "m"]).is_err(), "no shard folder");
    match parse(&["rainman"]).unwrap() {
        Command::Rainman(args) => assert_eq!(args.bind.to_string(), DEFAULT_RAINMAN_BIND),
        other => panic!("{other:?}"),
    }
    let error = parse(&["rainman", "--bind", "localhost"]).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("expected an IP address and a port"),
        "{error}"
    );
}
