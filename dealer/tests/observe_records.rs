//! The hand-built writers of `requests.jsonl` and `log.json` against the one definition of
//! their records (`shared::records`): every line and every entry, read through the record
//! type and written back by serde, gives the writer's bytes exactly (keys, order, optional
//! keys, string escapes), for HTTP and in-process seats, with bans, forgiven answers and
//! names and bodies that need escaping.

use crate::observe_support;

use dealer::rules::{BadAnswerPolicy, GameRules};
use dealer::seat::SeatFailure;
use observe_support::{calling, play_into, Mixed, Reply, SeatKind};
use serde_json::value::RawValue;
use shared::records::{EntryKind, RecordedAction, RequestRecord, ViewerLogEntry};
use shared::{GameState, Seat};
use std::path::Path;

/// Names and answers a JSON writer must escape: quotes, backslashes, control characters,
/// non-ASCII, invalid UTF-8.
const NAMES: [&str; 4] = [
    "Ann \"A\" \\",
    "B\u{1}\u{7f}\t",
    "Cé\n🃏",
    "D\u{2028}</script>",
];

/// Seat 1 answers badly in turn; seat 3 stops answering after a few hands (a ban, unless
/// answers are forgiven).
fn troublemaker(seat: Seat, state: &GameState) -> Reply {
    let round = state.round.unwrap_or(0);
    match seat {
        Seat(1) => match round % 5 {
            0 => Reply::Bet(state.call_amount().get()),
            1 => Reply::Raw {
                status: 200,
                body: b"10\n\x00\"".to_vec(),
            },
            2 => Reply::Raw {
                status: 500,
                body: b"Internal \xff error \x1b[31m".to_vec(),
            },
            3 => Reply::Fail(SeatFailure::Timeout { after_ms: 2000 }),
            _ => Reply::Raw {
                status: 200,
                body: "{\"bet\":4} ✓".as_bytes().to_vec(),
            },
        },
        Seat(3) if round >= 3 => Reply::Fail(SeatFailure::ConnectionRefused),
        _ => calling(seat, state),
    }
}

/// Checks both files of a game folder against the record types; returns the requests read.
fn assert_files_are_their_records(dir: &Path) -> Vec<RequestRecord<GameState>> {
    let text = std::fs::read_to_string(dir.join("requests.jsonl")).unwrap();
    let mut records = Vec::new();
    for line in text.lines() {
        let raw: RequestRecord<&RawValue> = serde_json::from_str(line).unwrap();
        assert_eq!(serde_json::to_string(&raw).unwrap(), line);
        let parsed: RequestRecord<GameState> = serde_json::from_str(line).unwrap();
        assert_eq!(serde_json::to_string(&parsed).unwrap(), line);
        assert_ne!(parsed.action, Some(RecordedAction::Unknown), "{line}");
        records.push(parsed);
    }
    assert!(!records.is_empty());

    let log = std::fs::read_to_string(dir.join("log.json")).unwrap();
    let raw: Vec<ViewerLogEntry<&RawValue>> = serde_json::from_str(&log).unwrap();
    assert_eq!(serde_json::to_string(&raw).unwrap(), log);
    let parsed: Vec<ViewerLogEntry<GameState>> = serde_json::from_str(&log).unwrap();
    assert_eq!(serde_json::to_string(&parsed).unwrap(), log);
    assert!(parsed
        .iter()
        .all(|entry| entry.kind != Some(EntryKind::Unknown)));
    records
}

#[test]
fn http_games_write_exactly_their_records_with_bans_and_odd_text() {
    let dir = tempfile::tempdir().unwrap();
    play_into(
        dir.path(),
        &NAMES,
        GameRules {
            hand_limit: Some(12),
            ..GameRules::default()
        },
        11,
        &mut troublemaker,
        SeatKind::Http,
    );
    let records = assert_files_are_their_records(dir.path());
    let banned: Vec<_> = records
        .iter()
        .filter(|record| record.action == Some(RecordedAction::Banned))
        .collect();
    assert!(!banned.is_empty());
    assert!(banned.iter().all(|record| record.error.is_some()));
    assert!(records.iter().any(|record| record.player == NAMES[2]));
}

#[test]
fn forgiven_answers_write_exactly_their_records() {
    let dir = tempfile::tempdir().unwrap();
    play_into(
        dir.path(),
        &NAMES,
        GameRules {
            bad_answers: BadAnswerPolicy::Forgive,
            hand_limit: Some(15),
            ..GameRules::default()
        },
        12,
        &mut troublemaker,
        SeatKind::Http,
    );
    let records = assert_files_are_their_records(dir.path());
    let forgiven = records
        .iter()
        .filter(|record| record.error.is_some())
        .count();
    assert!(forgiven >= 4, "{forgiven}");
    assert!(records
        .iter()
        .any(|record| record.answer.as_deref() == Some("Internal \u{fffd} error \u{1b}[31m")));
}

#[test]
fn in_process_games_write_exactly_their_records() {
    let dir = tempfile::tempdir().unwrap();
    play_into(
        dir.path(),
        &NAMES,
        GameRules {
            hand_limit: Some(10),
            ..GameRules::default()
        },
        13,
        &mut Mixed::new(13),
        SeatKind::InProcess,
    );
    let records = assert_files_are_their_records(dir.path());
    assert!(records.iter().all(|record| record
        .answer
        .as_deref()
        .is_some_and(|a| a.parse::<u64>().is_ok())));
}
