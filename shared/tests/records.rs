//! The record types read real files and write them back byte for byte: a whole dealer game
//! folder (`requests.jsonl` and `log.json`, kept as the player's testing-kit fixtures) and
//! entries of a live server's viewer log (kept as the dealer's fixture).

use serde_json::value::RawValue;
use shared::records::{EntryKind, RecordedAction, RequestRecord, ViewerLogEntry};
use shared::{BetAction, GameState, Seat};
use std::path::PathBuf;

/// A fixture kept once in the workspace (see each folder's README).
fn workspace_fixture(path: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

#[test]
fn dealer_requests_jsonl_round_trips_byte_for_byte() {
    let text = workspace_fixture("player/sdk/tests/fixtures/dealer-run/game-1/requests.jsonl");
    let mut lines = 0;
    for line in text.lines() {
        let raw: RequestRecord<&RawValue> = serde_json::from_str(line).unwrap();
        assert_eq!(serde_json::to_string(&raw).unwrap(), line);
        // Parsed, the document serialises to the bytes the dealer sent.
        let parsed: RequestRecord<GameState> = serde_json::from_str(line).unwrap();
        assert_eq!(serde_json::to_string(&parsed).unwrap(), line);
        assert_eq!(parsed.game_state.in_action, Some(parsed.seat));
        assert_eq!(parsed.game_state.round, Some(parsed.round));
        assert!(matches!(parsed.action, Some(RecordedAction::Bet(_))));
        lines += 1;
    }
    assert_eq!(lines, 49);
}

#[test]
fn hand_written_request_lines_round_trip_including_a_document_held_as_a_string() {
    let text = workspace_fixture("player/sdk/tests/fixtures/recordings/requests.jsonl");
    let records: Vec<RequestRecord<&RawValue>> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    for (record, line) in records.iter().zip(text.lines()) {
        assert_eq!(serde_json::to_string(record).unwrap(), line);
    }
    assert_eq!(
        records[0].action,
        Some(RecordedAction::Bet(BetAction::Call))
    );
    assert!(records[6].game_state.get().starts_with('"'));
    assert_eq!(records[6].action, Some(RecordedAction::Banned));
    assert_eq!(records[7].answer, None);
    assert!(records[7].error.is_some());
}

#[test]
fn dealer_viewer_log_round_trips_byte_for_byte() {
    let text = workspace_fixture("player/sdk/tests/fixtures/dealer-run/game-1/log.json");
    let raw: Vec<ViewerLogEntry<&RawValue>> = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_string(&raw).unwrap(), text);
    let parsed: Vec<ViewerLogEntry<GameState>> = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_string(&parsed).unwrap(), text);
    // Four hands, each opened by an entry with only a game_state.
    let openings = parsed.iter().filter(|entry| entry.kind.is_none()).count();
    assert_eq!(openings, 4);
    assert!(parsed
        .iter()
        .all(|entry| entry.kind.is_none() == entry.message.is_none()));
    assert!(parsed
        .iter()
        .all(|entry| (entry.kind == Some(EntryKind::Bet)) == entry.on_turn.is_some()));
}

#[test]
fn live_viewer_log_entries_round_trip_byte_for_byte() {
    let text = workspace_fixture("dealer/tests/fixtures/live_log_hand0_entries.json");
    let entries: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with('{'))
        .map(|line| line.trim_end_matches(','))
        .collect();
    assert_eq!(entries.len(), 4);
    let kinds: Vec<_> = entries
        .iter()
        .map(|entry| {
            let raw: ViewerLogEntry<&RawValue> = serde_json::from_str(entry).unwrap();
            assert_eq!(serde_json::to_string(&raw).unwrap(), *entry);
            let parsed: ViewerLogEntry<GameState> = serde_json::from_str(entry).unwrap();
            (parsed.kind, parsed.on_turn)
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (Some(EntryKind::Bet), Some(Seat(1))),
            (Some(EntryKind::Bet), Some(Seat(0))),
            (Some(EntryKind::Showdown), None),
            (Some(EntryKind::WinnerAnnouncement), None),
        ]
    );
}
