//! The testing kit itself: loading every file shape with file and line, the state builder, and
//! the meaningful-bet check.

use player::testing::{
    self, check_bet, check_bets, heads_up, load, table, try_load, LoadError, Origin, RecordedAction,
};
use player::{BetAction, Chips, GameState, Player, Seat};
use std::path::{Path, PathBuf};

/// The 24 real captures, kept once for the whole workspace in `shared`'s fixtures.
fn captures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tests/fixtures/gamestates")
}

pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A scratch directory of this test process (names are shared with `testing_kit_runs`).
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("player-kit-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn loads_every_real_capture_with_its_file() {
    let recorded = load(captures());
    assert_eq!(recorded.len(), 24);
    for item in &recorded {
        assert_eq!(item.origin, Origin::State);
        assert_eq!(item.source.line, 1);
        assert_eq!(item.source.entry, None);
        assert!(
            item.source.to_string().contains("gamestates/"),
            "{}",
            item.source
        );
    }
    // Sorted by name: 01 first, 24 last.
    assert!(recorded[0]
        .source
        .path
        .ends_with("01-preflop-r0-5-seats-banned-seat-out.json"));
    assert!(recorded[23]
        .source
        .path
        .ends_with("24-oss-preflop-2014-5-seats.json"));
    // Bet requests: the 12 live payloads and the 2014 OSS one; not showdowns or log entries.
    let bet_requests: Vec<String> = recorded
        .iter()
        .filter(|r| r.is_bet_request())
        .map(|r| r.source.path.file_name().unwrap().to_string_lossy()[..2].to_string())
        .collect();
    assert_eq!(
        bet_requests,
        ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "24"]
    );
}

#[test]
fn loads_a_viewer_log_with_entry_lines() {
    let recorded = load(fixtures().join("recordings/viewer-log.json"));
    assert_eq!(recorded.len(), 3);
    let lines: Vec<_> = recorded.iter().map(|r| r.source.line).collect();
    assert_eq!(lines, [2, 3, 4]);
    assert_eq!(recorded[1].source.entry, Some(1));
    assert_eq!(
        recorded[1].source.to_string().rsplit('/').next().unwrap(),
        "viewer-log.json:3 (entry 1)"
    );
    match &recorded[1].origin {
        Origin::LogEntry {
            kind,
            message,
            on_turn,
            ..
        } => {
            assert_eq!(*kind, Some(shared::records::EntryKind::Bet));
            assert!(message.as_deref().unwrap().contains("(allin)"));
            assert_eq!(*on_turn, Some(Seat(0)));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        &recorded[0].origin,
        Origin::LogEntry { kind: None, .. }
    ));
    // These entries are cut from different hands, so no decision can be rebuilt from them.
    assert!(recorded.iter().all(|r| !r.is_bet_request()));
}

/// Calls every bet (also used by `testing_kit_runs`).
pub(crate) struct Caller;
impl Player for Caller {
    fn bet_request(&self, state: &GameState) -> Chips {
        state.call_amount()
    }
}

fn dealer_run() -> PathBuf {
    fixtures().join("dealer-run")
}

#[test]
fn loads_a_whole_dealer_run_folder_as_it_is() {
    // results.json, hands/*.phh and players/*.log are skipped; log.json is skipped beside
    // requests.jsonl (the same decisions), so every decision is there exactly once.
    let recorded = load(dealer_run());
    assert_eq!(recorded.len(), 49);
    assert!(recorded
        .iter()
        .all(|r| r.is_bet_request() && matches!(r.origin, Origin::DealerRequest(_))));
    let report = check_bets(&Caller, &recorded);
    assert_eq!((report.checked, report.skipped), (49, 0));
    // Named on its own, a file without game states is an error.
    let error = try_load(dealer_run().join("results.json")).unwrap_err();
    assert!(error.to_string().contains("results.json"), "{error}");
}

#[test]
fn rebuilds_from_a_viewer_log_the_decisions_the_dealer_sent() {
    let from_log: Vec<GameState> = load(dealer_run().join("game-1/log.json"))
        .iter()
        .filter_map(|r| r.bet_request().cloned())
        .collect();
    let sent: Vec<GameState> = load(dealer_run().join("game-1/requests.jsonl"))
        .into_iter()
        .map(|r| r.state)
        .collect();
    assert_eq!(from_log.len(), sent.len());
    for (rebuilt, sent) in from_log.iter().zip(&sent) {
        let at = format!("round {:?}, seat {:?}", sent.round, sent.in_action);
        assert_eq!(rebuilt.round, sent.round, "{at}");
        assert_eq!(rebuilt.in_action, sent.in_action, "{at}");
        assert_eq!(rebuilt.minimum_raise, sent.minimum_raise, "{at}");
        assert_eq!(rebuilt.current_buy_in, sent.current_buy_in, "{at}");
        assert_eq!(rebuilt.pot, sent.pot, "{at}");
        assert_eq!(rebuilt.community_cards, sent.community_cards, "{at}");
        assert_eq!(rebuilt.players.len(), sent.players.len(), "{at}");
        for (mine, theirs) in rebuilt.players.iter().zip(&sent.players) {
            assert_eq!(
                (&mine.name, mine.stack, mine.bet, mine.status),
                (&theirs.name, theirs.stack, theirs.bet, theirs.status),
                "{at}"
            );
            // Only the asked player's own cards are visible, as in a real bet_request.
            assert_eq!(mine.hole_cards, theirs.hole_cards, "{at}: {}", mine.name);
        }
    }
    // The log's entries themselves are unchanged: every card visible, no in_action.
    let entries = load(dealer_run().join("game-1/log.json"));
    assert!(entries.iter().all(|r| r.state.in_action.is_none()));
}

#[test]
fn loads_a_pretty_printed_array_with_the_line_of_each_state() {
    let recorded = load(fixtures().join("recordings/states-array.json"));
    assert_eq!(recorded.len(), 2);
    assert_eq!(recorded[0].source.line, 2);
    // The second state starts on the line after the first one closes with "  },".
    let text = std::fs::read_to_string(fixtures().join("recordings/states-array.json")).unwrap();
    let first_end = text.lines().position(|line| line == "  },").unwrap();
    let expected_line = first_end + 2;
    assert!(expected_line > 50);
    assert_eq!(recorded[1].source.line, expected_line);
    let capture_03 =
        std::fs::read_to_string(captures().join("03-preflop-r4-heads-up-blinds.json")).unwrap();
    assert_eq!(
        recorded[0].state,
        GameState::from_json(&capture_03).unwrap()
    );
}

#[test]
fn loads_dealer_requests_jsonl() {
    let recorded = load(fixtures().join("recordings/requests.jsonl"));
    assert_eq!(recorded.len(), 8);
    for (index, item) in recorded.iter().enumerate() {
        assert_eq!(item.source.line, index + 1);
        assert!(item.is_bet_request(), "{}", item.source);
        let Origin::DealerRequest(record) = &item.origin else {
            panic!("{:?}", item.origin);
        };
        assert_eq!(Some(record.seat), item.state.in_action);
        assert_eq!(
            Some(record.player.as_str()),
            item.state.me().map(|p| p.name.as_str())
        );
    }
    let Origin::DealerRequest(first) = &recorded[0].origin else {
        unreachable!()
    };
    assert_eq!(first.action, Some(RecordedAction::Bet(BetAction::Call)));
    assert_eq!(first.answer.as_deref(), Some("0"));
    assert_eq!(first.error, None);
    assert_eq!(first.amount, Chips(0));
    assert_eq!(first.latency_us, 1200);
    // Line 7 carries its game_state as a string holding the JSON.
    let Origin::DealerRequest(banned) = &recorded[6].origin else {
        unreachable!()
    };
    assert_eq!(banned.action, Some(RecordedAction::Banned));
    assert_eq!(banned.answer.as_deref(), Some("10\n"));
    assert!(banned.error.as_deref().unwrap().contains("whitespace"));
    assert_eq!(recorded[6].state.round, Some(41));
    // Line 8 timed out: no answer at all.
    let Origin::DealerRequest(timeout) = &recorded[7].origin else {
        unreachable!()
    };
    assert_eq!(timeout.answer, None);
}

#[test]
fn loads_directories_recursively_skipping_other_files() {
    let recordings = load(fixtures().join("recordings"));
    assert_eq!(recordings.len(), 8 + 2 + 3);
    // Name order: requests.jsonl, states-array.json, viewer-log.json.
    assert!(recordings[0].source.path.ends_with("requests.jsonl"));
    assert!(recordings[12].source.path.ends_with("viewer-log.json"));
    // The whole tree: the 49 requests of the dealer run, the 38 + 27 of the run with every
    // output, the 13 recordings and the API page's example state used by the interop test;
    // README.md, INDEX.md, the Python script and the dealer runs' other files are skipped.
    assert_eq!(load(fixtures()).len(), 49 + 38 + 27 + 13 + 1);
}

#[test]
fn load_env_reads_paths_from_a_variable() {
    const VARIABLE: &str = "PLAYER_KIT_TEST_RECORDINGS_ONLY_HERE";
    assert!(testing::load_env(VARIABLE).is_none());
    let paths = std::env::join_paths([
        fixtures().join("recordings/viewer-log.json"),
        fixtures().join("recordings/requests.jsonl"),
    ])
    .unwrap();
    std::env::set_var(VARIABLE, paths);
    let loaded = testing::load_env(VARIABLE).unwrap();
    assert_eq!(loaded.len(), 3 + 8);
    std::env::remove_var(VARIABLE);
}

#[test]
fn load_errors_name_the_file_and_line() {
    let dir = scratch("errors");
    // A broken JSON text: the error is on line 3.
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "[\n  {\"a\": 1},\n  {\"a\" 2}\n]").unwrap();
    let error = try_load(&broken).unwrap_err();
    assert!(matches!(error, LoadError::Json { .. }), "{error}");
    assert!(error.to_string().contains("broken.json:3"), "{error}");

    // A bad rank in the second state of a pretty-printed array: the line of the rank.
    let capture = std::fs::read_to_string(fixtures().join("recordings/states-array.json")).unwrap();
    let mut lines: Vec<String> = capture.lines().map(str::to_string).collect();
    let last_rank = lines
        .iter()
        .rposition(|line| line.contains("\"rank\""))
        .unwrap();
    lines[last_rank] = lines[last_rank].replace("\"rank\": \"", "\"rank\": \"T");
    let bad_state = dir.join("bad-state.json");
    std::fs::write(&bad_state, lines.join("\n")).unwrap();
    let error = try_load(&bad_state).unwrap_err();
    assert!(matches!(error, LoadError::State { .. }), "{error}");
    let message = error.to_string();
    assert!(
        message.contains(&format!("bad-state.json:{} (entry 1)", last_rank + 1)),
        "{message}"
    );
    assert!(message.contains("unknown rank"), "{message}");

    // JSONL: the line number of the bad line.
    let jsonl = dir.join("requests.jsonl");
    std::fs::write(&jsonl, "{\"game_state\":{}}\n").unwrap();
    let error = try_load(&jsonl).unwrap_err();
    assert!(error.to_string().contains("requests.jsonl:1"), "{error}");
    // Read through shared::records::RequestRecord: the key the dealer always writes is named.
    assert!(
        error.to_string().contains("missing field `round`"),
        "{error}"
    );
    let good = std::fs::read_to_string(fixtures().join("recordings/requests.jsonl")).unwrap();
    std::fs::write(&jsonl, format!("{good}\nnot json\n")).unwrap();
    let error = try_load(&jsonl).unwrap_err();
    assert!(error.to_string().contains("requests.jsonl:10"), "{error}");

    // Not one of the shapes.
    let number = dir.join("number.json");
    std::fs::write(&number, "42").unwrap();
    assert!(matches!(try_load(&number), Err(LoadError::Shape { .. })));
    // A path that does not exist.
    let missing = dir.join("missing.json");
    let error = try_load(&missing).unwrap_err();
    assert!(matches!(error, LoadError::NotFound { .. }), "{error}");
    assert!(error.to_string().contains("missing.json"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[should_panic(expected = "cannot load recorded states")]
fn load_panics_with_the_reason() {
    load("/nonexistent/recordings");
}

#[test]
fn hand_made_states_are_valid_and_round_trip_through_the_protocol() {
    let states = [
        heads_up().build(),
        heads_up().hole_cards("Ah Kd").post_blinds().build(),
        heads_up()
            .hole_cards("10s 10c")
            .board("2c 7d Jh")
            .bets([40, 80])
            .stacks([500, 1200])
            .build(),
        table(6)
            .hole_cards("Qs Qd")
            .post_blinds()
            .fold(3)
            .out(4)
            .round(13)
            .blinds(15)
            .build(),
        table(3)
            .in_action(2)
            .hole_cards("5h 4h")
            .board("6h 7h 8c 9d")
            .bets([100, 300, 300])
            .stack(1, 0)
            .build(),
        heads_up()
            .cards(0, "Ah Kd")
            .cards(1, "")
            .board("2c 3c 4c 5c 6c")
            .showdown_state()
            .build(),
    ];
    for state in states {
        assert_eq!(state.validate(), Ok(()), "{state:?}");
        assert_eq!(GameState::from_json(&state.to_json()).unwrap(), state);
        let body = shared::protocol::Request::BetRequest(state.clone()).encode();
        let decoded = shared::protocol::Request::decode(body.as_bytes()).unwrap();
        assert_eq!(decoded.game_state(), Some(&state));
    }
}

#[test]
fn the_builder_computes_pot_buy_in_and_orbits() {
    let state = table(6)
        .hole_cards("Qs Qd")
        .post_blinds()
        .fold(3)
        .out(4)
        .round(13)
        .blinds(15)
        .build();
    // Button on 5: blinds 15/30 on seats 0 and 1; seat 2 acts.
    assert_eq!(state.pot, Chips(45));
    assert_eq!(state.current_buy_in, Chips(30));
    assert_eq!(state.big_blind, Some(Chips(30)));
    assert_eq!(state.orbits, 2);
    assert_eq!(state.in_action, Some(Seat(2)));
    assert_eq!(state.my_cards().len(), 2);
    assert_eq!(state.players[4].status, player::PlayerStatus::Out);
    assert_eq!(state.call_amount(), Chips(30));
    assert_eq!(state.minimum_raise_amount(), Chips(45));
    // An all-in player (stack 0 with a bet) stays active.
    let all_in = table(3).bets([100, 300, 300]).stack(1, 0).build();
    assert!(all_in.players[1].is_all_in());
}

#[test]
fn check_bet_defines_meaningful_answers() {
    // Preflop heads-up 10/20: seat 0 has 10 in, 990 behind; call 10, minimum raise answer 20.
    let state = heads_up().post_blinds().build();
    let read = |answer| check_bet(&state, Chips(answer)).map(|reading| reading.action);
    assert_eq!(read(0), Ok(BetAction::Fold));
    assert_eq!(read(10), Ok(BetAction::Call));
    assert_eq!(read(20), Ok(BetAction::Raise));
    assert_eq!(read(989), Ok(BetAction::Raise));
    assert_eq!(read(990), Ok(BetAction::AllIn));
    // Read differently from what the number says:
    assert!(read(9).unwrap_err().contains("read as a fold"));
    assert!(read(15).unwrap_err().contains("read as a call of 10"));
    assert!(read(991)
        .unwrap_err()
        .contains("more than the stack of 990"));
    assert!(read(u64::MAX).is_err());
    // Nothing owed: 0 checks; a too-small raise is a silent check.
    let free = heads_up().bets([20, 20]).build();
    assert_eq!(
        check_bet(&free, Chips(0)).map(|r| r.action),
        Ok(BetAction::Check)
    );
    assert!(check_bet(&free, Chips(5))
        .unwrap_err()
        .contains("read as a check"));
    // A short stack facing a big bet: calling means all-in with exactly the stack.
    let short = heads_up().stack(0, 50).bets([0, 200]).build();
    assert_eq!(short.call_amount(), Chips(50));
    assert_eq!(
        check_bet(&short, Chips(50)).map(|r| r.action),
        Ok(BetAction::AllIn)
    );
    // No receiver: not a decision.
    let showdown = heads_up().showdown_state().build();
    assert!(check_bet(&showdown, Chips(0)).is_err());
}

/// Calls one chip too much: a classic off-by-one that the dealer reads as a plain call.
struct OneChipOver;
impl Player for OneChipOver {
    fn bet_request(&self, state: &GameState) -> Chips {
        let call = state.call_amount();
        if call.is_zero() || call == state.all_in_amount() {
            call
        } else {
            call + Chips(1)
        }
    }
}

#[test]
fn check_bets_reports_each_bad_answer_with_file_and_line() {
    let recorded = load(fixtures().join("recordings/requests.jsonl"));
    let report = check_bets(&OneChipOver, &recorded);
    assert_eq!(report.checked, 8);
    assert_eq!(report.skipped, 0);
    assert!(!report.problems.is_empty());
    for problem in &report.problems {
        let text = problem.to_string();
        assert!(text.contains("requests.jsonl:"), "{text}");
        assert!(text.contains("is read as"), "{text}");
    }
    // Showdowns and log entries are skipped, not checked.
    let captures = load(captures());
    let report = check_bets(&OneChipOver, &captures);
    assert_eq!((report.checked, report.skipped), (13, 11));
}

#[test]
#[should_panic(expected = "requests.jsonl:")]
fn assert_legal_bets_panics_with_the_failing_state() {
    testing::assert_legal_bets(
        &OneChipOver,
        &load(fixtures().join("recordings/requests.jsonl")),
    );
}

struct Panics;
impl Player for Panics {
    fn bet_request(&self, _: &GameState) -> Chips {
        panic!("oops in strategy")
    }
}

#[test]
fn check_bets_reports_panics_apart_from_wrong_answers() {
    let recorded = load(fixtures().join("recordings/requests.jsonl"));
    let report = check_bets(&Panics, &recorded[..1]);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(report.panics.len(), 1);
    assert!(report.panics[0].problem.contains("oops in strategy"));
    assert_eq!(report.panics[0].answer, None);
}

/// A panic is the SDK's fallback `0` behind a dealer, always a meaningful answer: the
/// assertions report it and pass (a team's half-written bot must not turn its tests red),
/// while a wrong answer still fails them.
#[test]
fn the_assertions_report_panics_and_pass() {
    let recorded = load(fixtures().join("recordings/requests.jsonl"));
    let report = testing::assert_legal_bets(&Panics, &recorded);
    assert_eq!(report.panics.len(), report.checked);
    let states = testing::DealerStates {
        cases: 20,
        ..testing::DealerStates::default()
    };
    let report = testing::assert_answers_dealer_states(&Panics, &states);
    assert_eq!((report.panicked, report.failed), (20, 0));
    let spots = [("a spot", testing::heads_up().post_blinds().build())];
    assert_eq!(testing::assert_meaningful_answers(&Panics, spots), 1);
}

#[test]
#[should_panic(expected = "a spot: answer 15 is read as a call")]
fn assert_meaningful_answers_fails_on_a_wrong_answer_naming_the_spot() {
    let spots = [("a spot", testing::heads_up().post_blinds().build())];
    testing::assert_meaningful_answers(&player::from_fn(|_| Chips(15)), spots);
}

#[test]
#[should_panic(expected = "no recorded game states in it")]
fn load_env_refuses_a_path_that_holds_no_recording() {
    const VARIABLE: &str = "PLAYER_KIT_TEST_EMPTY_ONLY_HERE";
    let empty = scratch("empty-recordings");
    std::env::set_var(VARIABLE, &empty);
    testing::load_env(VARIABLE);
}

#[test]
#[should_panic(expected = "nothing was checked")]
fn assert_legal_bets_refuses_to_check_nothing() {
    let showdowns = load(fixtures().join("recordings/viewer-log.json"));
    testing::assert_legal_bets(&OneChipOver, &showdowns);
}
