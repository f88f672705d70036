//! The testing kit on whole `dealer run` folders: a run written with every output, loaded
//! from any of its folders; gzipped logs and event files skipped; relative paths tried from
//! here and from the workspace root, and through an environment variable.

use crate::testing_kit::{fixtures, scratch, Caller};
use player::testing::{self, check_bets, load, try_load, LoadError, Origin};
use std::path::{Path, PathBuf};

/// A `dealer run` written by the current dealer with every output on (see the fixtures'
/// README): two games, each with log.json, requests.jsonl, decks.jsonl, game.json, hands/ and
/// hands.phhs, players/.
fn full_run() -> PathBuf {
    fixtures().join("dealer-run-all-outputs")
}

/// The `requests.jsonl` lines of a game folder.
fn request_lines(game: &Path) -> usize {
    std::fs::read_to_string(game.join("requests.jsonl"))
        .unwrap()
        .lines()
        .filter(|line| !line.trim().is_empty())
        .count()
}

#[test]
fn loads_a_run_written_with_every_output_from_any_of_its_folders() {
    let games = [full_run().join("game-1"), full_run().join("game-2")];
    for game in &games {
        for file in ["log.json", "requests.jsonl", "decks.jsonl", "game.json"] {
            assert!(game.join(file).is_file(), "{}: no {file}", game.display());
        }
    }
    let per_game: Vec<usize> = games.iter().map(|game| request_lines(game)).collect();
    assert!(per_game.iter().all(|&n| n > 0), "{per_game:?}");
    // The run folder: every requests.jsonl line once (decks.jsonl, game.json, results.json,
    // hands, players' logs and log.json beside requests.jsonl are skipped).
    let run = load(full_run());
    assert_eq!(run.len(), per_game.iter().sum::<usize>());
    assert!(run
        .iter()
        .all(|r| r.is_bet_request() && matches!(r.origin, Origin::DealerRequest(_))));
    assert!(run
        .iter()
        .all(|r| r.source.path.ends_with("requests.jsonl")));
    // A game folder, its requests.jsonl, and its log.json (rebuilt decisions).
    for (game, lines) in games.iter().zip(&per_game) {
        assert_eq!(load(game).len(), *lines);
        assert_eq!(load(game.join("requests.jsonl")).len(), *lines);
        let rebuilt = load(game.join("log.json"))
            .iter()
            .filter(|r| r.is_bet_request())
            .count();
        assert_eq!(rebuilt, *lines, "{}", game.display());
    }
    // A folder of runs: this one and the older fixture run.
    let both = load(fixtures());
    let from_runs = both
        .iter()
        .filter(|r| r.source.path.to_string_lossy().contains("dealer-run"))
        .count();
    assert_eq!(from_runs, run.len() + 49);
    assert_eq!(check_bets(&Caller, &run).problems, []);
}

#[test]
fn a_file_named_on_its_own_that_is_no_recording_is_an_error() {
    let game = full_run().join("game-1");
    let error = try_load(game.join("decks.jsonl")).unwrap_err();
    assert!(matches!(error, LoadError::NotRecording { .. }), "{error}");
    assert!(error.to_string().contains("decks.jsonl"), "{error}");
    assert!(error.to_string().contains("game_state"), "{error}");
    let error = try_load(game.join("game.json")).unwrap_err();
    assert!(error.to_string().contains("game.json"), "{error}");
}

#[test]
fn skips_gzipped_logs_and_event_outcome_files_in_folders() {
    let dir = scratch("gzip");
    let game = dir.join("game-1");
    std::fs::create_dir_all(&game).unwrap();
    let source = full_run().join("game-1");
    for file in ["log.json", "decks.jsonl", "game.json"] {
        std::fs::copy(source.join(file), game.join(file)).unwrap();
    }
    // As `dealer serve --data` leaves an old game: requests.jsonl compressed in place (a real
    // gzip header; the kit never reads past it), and the event's outcome files beside it.
    let gzip = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0x03, 0x00,
    ];
    std::fs::write(game.join("requests.jsonl.gz"), gzip).unwrap();
    std::fs::write(dir.join("other-requests.jsonl"), gzip).unwrap();
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(full_run().join("results.json")).unwrap())
            .unwrap();
    std::fs::write(game.join("result.json"), results["games"][0].to_string()).unwrap();
    std::fs::write(
        game.join("abandoned.json"),
        r#"{"dir":"game-1","reason":"stopped","hands_played":3}"#,
    )
    .unwrap();
    // A game stopped before its first hand leaves an empty game.json.
    let stopped = dir.join("game-2");
    std::fs::create_dir_all(&stopped).unwrap();
    std::fs::write(stopped.join("game.json"), "").unwrap();
    // requests.jsonl is unreadable here, so the decisions come from log.json.
    let loaded = load(&dir);
    let decisions = loaded.iter().filter(|r| r.is_bet_request()).count();
    assert_eq!(decisions, request_lines(&source));
    assert!(loaded.iter().all(|r| r.source.path.ends_with("log.json")));

    // Named on its own, a compressed file is an error that says what to do.
    let error = try_load(game.join("requests.jsonl.gz")).unwrap_err();
    assert!(error.to_string().contains("gunzip"), "{error}");
    // A folder of nothing but compressed logs: an error too, not an empty success.
    let only_gz = dir.join("only-gz");
    std::fs::create_dir_all(&only_gz).unwrap();
    std::fs::write(only_gz.join("log.json.gz"), gzip).unwrap();
    let error = try_load(&only_gz).unwrap_err();
    assert!(
        matches!(error, LoadError::NoRecordings { gzipped: 1, .. }),
        "{error}"
    );
    assert!(error.to_string().contains("gunzip"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn relative_paths_are_tried_from_here_and_from_the_workspace_root() {
    // cargo runs these tests in player/sdk/; the dealer writes games/ at the repository root.
    assert!(!Path::new("player/sdk/tests/fixtures").exists());
    let from_root = load("player/sdk/tests/fixtures/dealer-run-all-outputs/game-1");
    assert_eq!(from_root.len(), request_lines(&full_run().join("game-1")));
    // Relative to the current directory still works, and wins.
    assert_eq!(load("tests/fixtures/dealer-run").len(), 49);
    // Nowhere: the error names both places.
    let error = try_load("games/no-such-run").unwrap_err();
    let LoadError::NotFound { tried, .. } = &error else {
        panic!("{error}");
    };
    assert_eq!(tried.len(), 2, "{error}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .unwrap();
    assert!(
        tried.contains(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/no-such-run")),
        "{error}"
    );
    assert!(tried.contains(&root.join("games/no-such-run")), "{error}");
    for path in tried {
        assert!(error.to_string().contains(&path.display().to_string()));
    }
}

#[test]
fn load_env_reads_a_run_folder_relative_to_the_workspace_root() {
    const VARIABLE: &str = "PLAYER_KIT_TEST_RUN_FOLDER_ONLY_HERE";
    std::env::set_var(VARIABLE, "player/sdk/tests/fixtures/dealer-run-all-outputs");
    let loaded = testing::load_env(VARIABLE).unwrap();
    std::env::remove_var(VARIABLE);
    assert_eq!(loaded.len(), load(full_run()).len());
}

#[test]
#[should_panic(expected = "PLAYER_KIT_TEST_MISSING_ONLY_HERE names (games/missing)")]
fn load_env_names_the_variable_and_the_paths_tried() {
    const VARIABLE: &str = "PLAYER_KIT_TEST_MISSING_ONLY_HERE";
    std::env::set_var(VARIABLE, "games/missing");
    testing::load_env(VARIABLE);
}
