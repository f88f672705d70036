//! The compatibility corpus: 24 real `game_state` documents from the live server (2015–2024)
//! and the 2014 open-source croupier (see `fixtures/gamestates/INDEX.md`), spec §2.

use shared::{Card, Chips, GameState, PlayerStatus, Seat, Street};
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gamestates")
}

fn corpus() -> Vec<(String, String)> {
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

fn load(prefix: &str) -> GameState {
    let (_, json) = corpus()
        .into_iter()
        .find(|(name, _)| name.starts_with(prefix))
        .unwrap();
    GameState::from_json(&json).unwrap()
}

/// Fidelity per INDEX.md; only `edited` files are exempt from the byte test.
fn is_edited(name: &str) -> bool {
    name.contains("EDITED")
}

#[test]
fn spec_2_every_capture_parses() {
    let files = corpus();
    assert_eq!(files.len(), 24, "the corpus has 24 documents");
    for (name, json) in &files {
        let state = GameState::from_json(json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!state.players.is_empty(), "{name}");
    }
}

#[test]
fn spec_2_captures_reserialise_byte_for_byte() {
    let mut checked = 0;
    for (name, json) in corpus() {
        if is_edited(&name) {
            continue;
        }
        let state = GameState::from_json(&json).unwrap();
        assert_eq!(state.to_json(), json, "{name} does not round-trip");
        checked += 1;
    }
    assert_eq!(checked, 23);
}

#[test]
fn spec_2_hidden_cards_and_dealt_nothing_are_different() {
    // File 13: the receiver is out and has `hole_cards: []`; others' cards are hidden.
    let state = load("13-");
    assert_eq!(state.players[1].hole_cards, Some(vec![]));
    assert_eq!(state.players[0].hole_cards, None);
    let json = state.to_json();
    assert!(json.contains(r#""bet":0,"hole_cards":[],"time_used""#));
    // The showdown state has no in_action, minimum_raise or bet_index.
    assert_eq!(state.in_action, None);
    assert_eq!(state.minimum_raise, None);
    assert_eq!(state.bet_index, None);
    assert_eq!(state.players[2].amount_won, Some(Chips(15)));
}

#[test]
fn spec_2_old_formats_keep_their_shape() {
    // 2016: big_blind but no time_used.
    let state = load("11-");
    assert_eq!(state.big_blind, Some(Chips(10)));
    assert!(state.players.iter().all(|p| p.time_used.is_none()));
    // 2014 OSS: players first, no tournament fields, no big_blind, no bet_index.
    let state = load("24-");
    assert_eq!(state.tournament_id, None);
    assert_eq!(state.round, None);
    assert_eq!(state.big_blind, None);
    assert_eq!(state.big_blind(), Chips(20));
    assert_eq!(state.in_action, Some(Seat(4)));
}

#[test]
fn helpers_on_real_states() {
    // File 05: heads-up, receiver on the button posted the BB (30) and faces a raise to 961.
    let state = load("05-");
    let me = state.me().unwrap();
    assert_eq!(me.bet, Chips(30));
    assert_eq!(state.call_amount(), Chips(931));
    assert_eq!(state.minimum_raise(), Chips(931));
    assert_eq!(state.street(), Some(Street::Preflop));
    assert_eq!(state.position(state.in_action().unwrap()), Some(0));
    // File 10: 8 seats, facing an all-in of 1992.
    let state = load("10-");
    assert_eq!(state.call_amount(), Chips(974)); // capped at the stack
    assert_eq!(state.active_opponents().count(), 2);
    assert!(state.players[7].is_all_in());
    assert_eq!(state.read_bet(Chips(974)).action, shared::BetAction::AllIn);
    // File 04: the turn.
    assert_eq!(load("04-").street(), Some(Street::Turn));
    assert_eq!(load("04-").minimum_raise(), Chips(10));
}

#[test]
fn live_states_are_valid_documents() {
    // Live bet_request and showdown payloads satisfy every structural rule, except where a
    // banned player's chips vanished (pot still consistent) — which validate() allows.
    for (name, json) in corpus() {
        if is_edited(&name) || name.starts_with("24-") || name.contains("-log-") {
            continue;
        }
        let state = GameState::from_json(&json).unwrap();
        if let Err(problems) = state.validate() {
            panic!("{name}: {problems:?}");
        }
    }
}

#[test]
fn docs_examples_parse() {
    let annotated = GameState::from_json(include_str!("fixtures/api-docs-example.json")).unwrap();
    assert_eq!(annotated.players[2].status, PlayerStatus::Out);
    assert_eq!(annotated.big_blind, None);
    let curl = GameState::from_json(include_str!("fixtures/api-docs-curl-example.json")).unwrap();
    assert_eq!(curl.in_action, None);
    assert_eq!(curl.players[0].hole_cards, Some(vec![]));
    // Re-serialising moves keys into live order.
    assert!(curl
        .to_json()
        .starts_with(r#"{"tournament_id":"550d1d68cd7bd10003000003","game_id""#));
}

#[test]
fn unknown_keys_are_ignored() {
    let json = load("09-").to_json();
    let extra = json
        .replacen("{", r#"{"shiny_new_field":{"nested":[1,2,3]},"#, 1)
        .replace(r#""id":0}"#, r#""id":0,"avatar":"x"}"#);
    assert_eq!(GameState::from_json(&extra).unwrap().to_json(), json);
}

fn error_for(json: &str) -> shared::GameStateError {
    GameState::from_json(json).unwrap_err()
}

#[test]
fn invalid_documents_name_the_field_and_position() {
    let json = load("01-").to_json();
    let error = error_for(&json.replacen(r#""rank":"8""#, r#""rank":"T""#, 1));
    assert_eq!(error.path, "players[1].hole_cards[0].rank");
    assert!(error.message.contains(r#"unknown rank "T""#), "{error}");
    assert_eq!(error.line, 1);
    assert!(error.column > 300, "{error}");

    let error = error_for(&json.replacen(r#""suit":"spades""#, r#""suit":"hearts1""#, 1));
    assert_eq!(error.path, "players[1].hole_cards[0].suit");
    assert!(error.message.contains("hearts1"), "{error}");

    let error = error_for(&json.replacen(r#""stack":998"#, r#""stack":-5"#, 1));
    assert_eq!(error.path, "players[1].stack");
    assert!(error.message.contains("-5"), "{error}");

    let error = error_for(&json.replacen(r#""status":"folded""#, r#""status":"sleeping""#, 1));
    assert_eq!(error.path, "players[0].status");

    let error = error_for(&json.replacen(r#""pot":6,"#, "", 1));
    assert!(error.message.contains("missing field `pot`"), "{error}");

    let error = error_for(&json.replacen(r#""small_blind":2"#, r#""small_blind":2.5"#, 1));
    assert_eq!(error.path, "small_blind");

    let error = error_for(&json[..json.len() - 10]);
    assert!(error.message.contains("EOF"), "{error}");

    let error = error_for(&format!("{json} trailing"));
    assert_eq!(error.path, "document");

    // A syntax error before any field is known.
    let error = error_for("x");
    assert_eq!(error.path, "document", "{error}");

    let error = error_for("");
    assert_eq!(error.path, "document");
    assert!(error
        .to_string()
        .starts_with("invalid game_state at document (line 1, column 0)"));
}

#[test]
fn hole_cards_null_reads_as_hidden() {
    let json = load("09-").to_json().replace(
        r#""bet":0,"time_used""#,
        r#""bet":0,"hole_cards":null,"time_used""#,
    );
    let state = GameState::from_json(&json).unwrap();
    assert!(
        state
            .players
            .iter()
            .filter(|p| p.hole_cards.is_none())
            .count()
            >= 4
    );
    let card: Card = "Ah".parse().unwrap();
    assert_eq!(card.rank, shared::Rank::Ace);
}
