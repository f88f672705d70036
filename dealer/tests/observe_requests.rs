//! `requests.jsonl`: one line per `bet_request`, the documents exactly as sent, loadable by
//! the SDK's testing kit.

use crate::observe_support;

use dealer::rules::{BadAnswerPolicy, GameRules};
use dealer::seat::SeatFailure;
use observe_support::{calling, object_keys, play_into, Mixed, Reply, SeatKind};
use player::testing::{Origin, RecordedAction};
use serde_json::value::RawValue;
use serde_json::Value;
use shared::{GameState, Seat};
use std::path::Path;

fn lines(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("requests.jsonl")).unwrap();
    assert!(text.ends_with('\n') || text.is_empty());
    text.lines().map(str::to_string).collect()
}

fn raw_game_state(line: &str) -> String {
    #[derive(serde::Deserialize)]
    struct Line<'a> {
        #[serde(borrow)]
        game_state: &'a RawValue,
    }
    let line: Line<'_> = serde_json::from_str(line).unwrap();
    line.game_state.get().to_string()
}

/// A player that answers badly in turn: valid, `"10\n"`, status 500, a timeout, JSON.
fn troublemaker(seat: Seat, state: &GameState) -> Reply {
    if seat != Seat(1) {
        return calling(seat, state);
    }
    match state.round.unwrap_or(0) % 5 {
        0 => Reply::Bet(state.call_amount().get()),
        1 => Reply::Raw {
            status: 200,
            body: b"10\n".to_vec(),
        },
        2 => Reply::Raw {
            status: 500,
            body: b"Internal \xff error".to_vec(),
        },
        3 => Reply::Fail(SeatFailure::Timeout { after_ms: 2000 }),
        _ => Reply::Raw {
            status: 200,
            body: b"{\"bet\":4}".to_vec(),
        },
    }
}

#[test]
fn requests_lines_have_the_contract_keys_in_order() {
    let dir = tempfile::tempdir().unwrap();
    play_into(
        dir.path(),
        &["A", "B", "C"],
        GameRules {
            bad_answers: BadAnswerPolicy::Forgive,
            hand_limit: Some(12),
            ..GameRules::default()
        },
        3,
        &mut troublemaker,
        SeatKind::Http,
    );
    let all = lines(dir.path());
    assert!(all.len() > 20);
    let mut errors = 0;
    for line in &all {
        let keys = object_keys(line);
        let value: Value = serde_json::from_str(line).unwrap();
        let expected: &[&str] = if value.get("error").is_some() {
            errors += 1;
            &[
                "round",
                "player",
                "seat",
                "game_state",
                "answer",
                "error",
                "action",
                "amount",
                "latency_us",
            ]
        } else {
            &[
                "round",
                "player",
                "seat",
                "game_state",
                "answer",
                "action",
                "amount",
                "latency_us",
            ]
        };
        assert_eq!(keys, expected, "{line}");
        // The document sent, byte for byte: our seat serialises exactly like to_json.
        let raw = raw_game_state(line);
        let state = GameState::from_json(&raw).unwrap();
        assert_eq!(state.to_json(), raw);
        assert_eq!(
            state.in_action,
            Some(Seat(value["seat"].as_u64().unwrap() as usize))
        );
        assert_eq!(value["round"], state.round.unwrap());
        let action = value["action"].as_str().unwrap();
        assert!(["fold", "check", "call", "raise", "allin"].contains(&action));
        // The amount is what the engine moved.
        if matches!(action, "fold" | "check") {
            assert_eq!(value["amount"], 0);
        }
    }
    assert!(errors >= 4, "forgiven answers keep their error");
    let reasons: Vec<String> = all
        .iter()
        .filter_map(|line| {
            serde_json::from_str::<Value>(line).unwrap()["error"]
                .as_str()
                .map(str::to_string)
        })
        .collect();
    assert!(reasons.iter().any(|r| r.contains("is not a bet")));
    assert!(reasons.iter().any(|r| r == "status 500"));
    assert!(reasons.iter().any(|r| r == "timeout after 2000 ms"));
    // The 500 body is kept (lossy UTF-8), a timeout has none.
    assert!(all
        .iter()
        .any(|line| line.contains("\"answer\":\"Internal \u{fffd} error\"")));
    assert!(all
        .iter()
        .any(|line| line.contains("\"answer\":null,\"error\":\"timeout")));
}

#[test]
fn requests_record_bans_with_their_reason() {
    let dir = tempfile::tempdir().unwrap();
    play_into(
        dir.path(),
        &["A", "B", "C"],
        GameRules::default(),
        4,
        &mut |seat: Seat, state: &GameState| {
            if seat == Seat(1) && state.round.unwrap_or(0) >= 1 {
                Reply::Fail(SeatFailure::ConnectionRefused)
            } else {
                calling(seat, state)
            }
        },
        SeatKind::Http,
    );
    let banned: Vec<Value> = lines(dir.path())
        .iter()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|value| value["action"] == "banned")
        .collect();
    assert_eq!(banned.len(), 1);
    assert_eq!(banned[0]["player"], "B");
    assert_eq!(banned[0]["seat"], 1);
    assert_eq!(banned[0]["amount"], 0);
    assert_eq!(banned[0]["error"], "connection refused");
    assert_eq!(banned[0]["answer"], Value::Null);
}

#[test]
fn requests_of_in_process_players_record_the_number_returned() {
    let dir = tempfile::tempdir().unwrap();
    play_into(
        dir.path(),
        &["A", "B"],
        GameRules {
            hand_limit: Some(3),
            ..GameRules::default()
        },
        5,
        &mut Mixed::new(5),
        SeatKind::InProcess,
    );
    for line in lines(dir.path()) {
        let value: Value = serde_json::from_str(&line).unwrap();
        let answer = value["answer"].as_str().expect("an answer");
        assert!(answer.parse::<u64>().is_ok(), "{line}");
        assert!(value.get("error").is_none());
    }
}

#[test]
fn requests_jsonl_loads_in_the_sdk_testing_kit() {
    let dir = tempfile::tempdir().unwrap();
    play_into(
        dir.path(),
        &["Ann", "Bob \"B\"", "Cé\n🃏"],
        GameRules {
            hand_limit: Some(20),
            ..GameRules::default()
        },
        6,
        &mut troublemaker,
        SeatKind::Http,
    );
    let written = lines(dir.path());
    let recorded = player::testing::load(dir.path().join("requests.jsonl"));
    assert_eq!(recorded.len(), written.len());
    let mut banned = 0;
    for (record, line) in recorded.iter().zip(&written) {
        let Origin::DealerRequest(dealer) = &record.origin else {
            panic!("a dealer request: {:?}", record.origin);
        };
        let value: Value = serde_json::from_str(line).unwrap();
        assert_eq!(Some(dealer.round), value["round"].as_u64());
        assert_eq!(Some(dealer.player.as_str()), value["player"].as_str());
        assert_eq!(Some(dealer.seat.index() as u64), value["seat"].as_u64());
        assert_eq!(dealer.answer.as_deref(), value["answer"].as_str());
        assert_eq!(dealer.error.as_deref(), value["error"].as_str());
        assert_eq!(Some(dealer.latency_us), value["latency_us"].as_u64());
        assert_eq!(Some(dealer.amount.get()), value["amount"].as_u64());
        assert_ne!(dealer.action, Some(RecordedAction::Unknown));
        if dealer.action == Some(RecordedAction::Banned) {
            banned += 1;
        }
        assert_eq!(record.state.to_json(), raw_game_state(line));
        assert!(record.is_bet_request());
    }
    assert_eq!(banned, 1, "the troublemaker is banned once, then out");
}
