//! The engine rebuilds real LIVE documents byte for byte (spec §2): each test replays the
//! hand that led to a captured `game_state` (same players, ids, stacks, button, round and
//! cards) and compares the engine's document with the capture. Only `version` and
//! `time_used`, which the caller provides, are copied from the capture.

use crate::engine_support;

use dealer::engine::Game;
use dealer::game_event::GameEvent;
use engine_support::{Table, TableBuilder};
use shared::{GameState, Seat};

macro_rules! capture {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/tests/fixtures/gamestates/",
            $name
        ))
    };
}

fn parse(json: &str) -> GameState {
    GameState::from_json(json).expect("capture parses")
}

/// A table seated like the capture: names and ids.
fn table_like(capture: &GameState, round: u64, button: usize, stacks: &[u64]) -> Table {
    let names: Vec<&str> = capture.players.iter().map(|p| p.name.as_str()).collect();
    TableBuilder::new(&names)
        .ids(
            capture.tournament_id.as_deref().unwrap(),
            capture.game_id.as_deref().unwrap(),
        )
        .start(round, button, stacks)
        .build()
}

/// Copies the caller-provided fields (`version`, `time_used`) from the capture.
fn copy_caller_fields(game: &mut Game, capture: &GameState) {
    let current = game.viewer_state();
    for (index, player) in capture.players.iter().enumerate() {
        let seat = Seat(index);
        game.set_version(seat, player.version.clone()).unwrap();
        let now = current.players[index].time_used.unwrap_or(0);
        let target = player.time_used.unwrap_or(0);
        assert!(target >= now, "time_used only grows");
        game.add_time_used(seat, target - now).unwrap();
    }
}

fn assert_same_document(ours: &GameState, capture_json: &str) {
    assert_eq!(
        ours.to_json(),
        capture_json,
        "\nours:    {}\ncapture: {}",
        ours.to_json(),
        capture_json
    );
}

#[test]
fn spec_3_capture_01_bet_index_counts_blinds_banned_and_folded_seats() {
    let json = capture!("01-preflop-r0-5-seats-banned-seat-out.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 0, 0, &[1000; 5]);
    table.deal(&[(1, "8s 7c")], "");
    // Button 0: small blind seat 1 (visit 0), big blind seat 2 (visit 1).
    assert_eq!(table.fold(3).bet_index, Some(2));
    let banned = table.invalid(4, "timeout after 2000 ms");
    assert_eq!(banned.bet_index, Some(3));
    assert_eq!(table.fold(0).bet_index, Some(4));
    table.expect(1);
    copy_caller_fields(&mut table.game, &capture);
    let ours = table.game.bet_request_state().unwrap().clone();
    assert_same_document(&ours, json);
    // The banned player's chips vanished (4000 of 5000 left).
    assert_eq!(table.game.chips_in_play().get(), 4000);
}

#[test]
fn spec_3_capture_03_heads_up_button_posts_big_blind() {
    let json = capture!("03-preflop-r4-heads-up-blinds.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 4, 0, &[988, 0, 2012]);
    table.deal(&[(2, "2d 5h")], "");
    let state = table.expect(2);
    assert_eq!(
        state.players[0].bet.get(),
        4,
        "the button posts the big blind"
    );
    assert_eq!(state.players[2].bet.get(), 2);
    copy_caller_fields(&mut table.game, &capture);
    assert_same_document(table.game.bet_request_state().unwrap(), json);
}

#[test]
fn spec_4_capture_05_minimum_raise_after_a_raise() {
    let json = capture!("05-preflop-r47-heads-up-facing-961-raise.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 47, 2, &[1907, 0, 1093]);
    table.deal(&[(2, "9h 5s")], "");
    // Small blind (15) raises to 961: raise_by 931 over the big blind.
    let sent = table.bet(0, 946);
    assert_eq!(sent.bet_index, Some(3));
    assert_eq!(sent.minimum_raise.unwrap().get(), 15);
    table.expect(2);
    copy_caller_fields(&mut table.game, &capture);
    assert_same_document(table.game.bet_request_state().unwrap(), json);
}

#[test]
fn spec_3_capture_09_first_request_of_a_game() {
    let json = capture!("09-preflop-r0-6-seats-first-request.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 0, 0, &[1000; 6]);
    table.deal(&[(3, "8c Jd")], "");
    table.expect(3);
    copy_caller_fields(&mut table.game, &capture);
    assert_same_document(table.game.bet_request_state().unwrap(), json);
}

#[test]
fn spec_5_captures_10_and_15_all_in_side_pot_and_reveals() {
    let request_json = capture!("10-preflop-r23-8-seats-facing-all-in.json");
    let showdown_json = capture!("15-showdown-r23-revealed-cards-two-winners.json");
    let request_capture = parse(request_json);
    let showdown_capture = parse(showdown_json);
    let mut table = table_like(
        &request_capture,
        23,
        0,
        &[797, 0, 1176, 984, 2222, 0, 829, 1992],
    );
    table.deal(
        &[(3, "Js Ac"), (7, "Jh Qh"), (4, "10c 7d")],
        "9h 8s 2c 4c 3d",
    );
    table.bet(4, 10); // call
    table.fold(6);
    table.bet(7, 1992); // all-in, raise_by 1982
    table.fold(0);
    table.fold(2);
    table.expect(3);
    copy_caller_fields(&mut table.game, &request_capture);
    assert_same_document(table.game.bet_request_state().unwrap(), request_json);

    table.bet(3, 974); // all-in for less than a call
    table.bet(4, 1982); // call; nobody else can act, so the board is dealt without betting
    table.showdown();
    copy_caller_fields(&mut table.game, &showdown_capture);
    let ours = table.game.showdown_state(Seat(3)).unwrap().clone();
    assert_same_document(&ours, showdown_json);
    let revealed: Vec<usize> = table
        .events
        .iter()
        .filter_map(|event| match event {
            GameEvent::HandRevealed { seat, .. } => Some(seat.index()),
            _ => None,
        })
        .collect();
    assert_eq!(revealed, vec![7, 3], "examined from the last aggressor (7)");
}

#[test]
fn spec_2_capture_13_showdown_to_an_out_receiver_after_uncontested_hand() {
    let json = capture!("13-showdown-r21-receiver-out.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 21, 3, &[941, 0, 2111, 948, 0]);
    table.deal(&[], "6c 3s Kc 9c 9h");
    table.fold(3);
    table.fold(0);
    let states = table.showdown();
    assert!(!states.is_empty());
    copy_caller_fields(&mut table.game, &capture);
    let ours = table.game.showdown_state(Seat(1)).unwrap().clone();
    assert_same_document(&ours, json);
}

#[test]
fn spec_2_capture_14_uncontested_winner_reveals_nothing() {
    let json = capture!("14-showdown-r21-uncontested-unreachable-seat.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 21, 5, &[0, 947, 879, 0, 0, 3174]);
    table.deal(&[(2, "6c 8h")], "10d Qh Kd 8c Jh");
    table.bet(5, 3174); // all-in
    table.fold(1);
    table.fold(2);
    table.showdown();
    copy_caller_fields(&mut table.game, &capture);
    let ours = table.game.showdown_state(Seat(2)).unwrap().clone();
    assert_same_document(&ours, json);
    assert!(!table
        .events
        .iter()
        .any(|event| matches!(event, GameEvent::HandRevealed { .. })));
}

#[test]
fn spec_5_capture_16_short_small_blind_all_in_and_returned_excess() {
    let json = capture!("16-showdown-r162-receiver-out-blinds-2000.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 162, 5, &[308, 0, 0, 0, 0, 6700, 0, 0]);
    table.deal(&[(0, "7d 8c"), (5, "7h 4s")], "2s Jc 8h 9h 6d");
    // The small blind is all-in for 308; the big blind (the button) is the only player who
    // can still act and gets its option (spec §3's visit rule, as OSS).
    let option = table.check(5);
    assert_eq!(option.bet_index, Some(13));
    table.showdown();
    copy_caller_fields(&mut table.game, &capture);
    let ours = table.game.showdown_state(Seat(3)).unwrap().clone();
    assert_same_document(&ours, json);
}

#[test]
fn spec_8_capture_17_hand_start_viewer_entry() {
    let json = capture!("17-log-r0-hand-start-6-seats.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 0, 5, &[1000; 6]);
    copy_caller_fields(&mut table.game, &capture);
    let viewer = table.until_event(|event| matches!(event, GameEvent::HandStarted { .. }));
    assert_same_document(&viewer, json);
}

#[test]
fn spec_8_capture_18_four_way_all_in_busted_players_out_with_cards() {
    let json = capture!("18-log-r0-river-four-way-all-in-won.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 0, 5, &[1000; 6]);
    table.deal(
        &[
            (0, "9c 3h"),
            (1, "4d 7s"),
            (2, "4c 8c"),
            (3, "9s 3s"),
            (4, "Ad Kh"),
            (5, "9h Jh"),
        ],
        "Qc 5s Ks Kd Qs",
    );
    table.bet(2, 100); // raise to 100
    table.bet(3, 200); // raise to 200
    table.bet(4, 1000); // all-in
    table.bet(5, 1000); // all-in call
    table.fold(0);
    table.bet(1, 996); // all-in call
    table.bet(2, 900); // all-in call
    table.fold(3);
    copy_caller_fields(&mut table.game, &capture);
    let viewer = table.until_event(|event| matches!(event, GameEvent::PotAwarded { .. }));
    assert_same_document(&viewer, json);
}

#[test]
fn spec_7_capture_19_board_dealt_out_after_a_preflop_fold() {
    let json = capture!("19-log-r7-uncontested-board-dealt-out.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 7, 0, &[976, 0, 0, 0, 5024, 0]);
    table.deal(&[(0, "3d 2c"), (4, "9s Jh")], "10s 7d 9h 4s 2d");
    table.bet(4, 7); // small blind raises to 9
    table.fold(0);
    copy_caller_fields(&mut table.game, &capture);
    let viewer = table.until_event(|event| matches!(event, GameEvent::PotAwarded { .. }));
    assert_same_document(&viewer, json);
    let board_deals = table
        .events
        .iter()
        .filter(|event| matches!(event, GameEvent::CommunityCardDealt { .. }))
        .count();
    assert_eq!(board_deals, 5);
}

#[test]
fn spec_8_capture_20_all_in_bet_entry() {
    let json = capture!("20-log-r48-flop-all-in-heads-up.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 48, 4, &[60, 0, 0, 0, 5940, 0]);
    table.deal(&[(0, "6h 7c"), (4, "4s 10s")], "3c 4d 5c");
    table.bet(0, 15); // small blind completes
    table.check(4);
    table.bet(0, 30); // all-in on the flop
    copy_caller_fields(&mut table.game, &capture);
    let last = table.until_event(|event| matches!(event, GameEvent::BetPlaced { .. }));
    assert_same_document(&last, json);
}

#[test]
fn spec_7_capture_21_last_hand_one_pot_when_the_bigger_stack_wins() {
    let json = capture!("21-log-r56-game-over.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 56, 4, &[120, 0, 0, 0, 5880, 0]);
    table.deal(&[(0, "9c 3h"), (4, "4h As")], "Ks 8d 10c Ad Kd");
    table.bet(0, 20); // small blind completes to 40
    table.check(4);
    table.check(0);
    table.bet(4, 121); // bets to 161
    table.bet(0, 80); // all-in call for less
    copy_caller_fields(&mut table.game, &capture);
    let viewer = table.until_event(|event| matches!(event, GameEvent::PotAwarded { .. }));
    // The winner covered the loser: one pot of 281, its own excess included (gross).
    assert_same_document(&viewer, json);
}

#[test]
fn spec_3_capture_02_out_seat_between_the_blinds_is_a_visit() {
    let json = capture!("02-preflop-r41-5-seats-2-out.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 41, 0, &[782, 1420, 0, 798, 0]);
    table.deal(&[(1, "8h 4h")], "");
    // Small blind seat 1 (visit 0), seat 2 out (1), big blind seat 3 (2), seat 4 out (3).
    assert_eq!(table.fold(0).bet_index, Some(4));
    table.expect(1);
    copy_caller_fields(&mut table.game, &capture);
    assert_same_document(table.game.bet_request_state().unwrap(), json);
}

#[test]
fn spec_3_capture_04_first_visit_of_the_turn() {
    let json = capture!("04-turn-r25-heads-up-bet-index-0.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 25, 0, &[963, 0, 2037]);
    table.deal(&[(2, "7c Kc")], "2h Qs As 4h");
    table.bet(2, 5); // the small blind completes
    table.check(0);
    table.check(2); // flop
    table.check(0);
    let turn = table.expect(2);
    assert_eq!(
        turn.minimum_raise,
        Some(shared::Chips(10)),
        "the big blind again"
    );
    copy_caller_fields(&mut table.game, &capture);
    assert_same_document(table.game.bet_request_state().unwrap(), json);
}

#[test]
fn spec_3_capture_06_heads_up_small_blind_acts_first() {
    let json = capture!("06-preflop-r20-heads-up-sb-to-act.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 20, 0, &[1019, 0, 1981]);
    table.deal(&[(2, "Ad 3h")], "");
    table.expect(2);
    copy_caller_fields(&mut table.game, &capture);
    assert_same_document(table.game.bet_request_state().unwrap(), json);
}

#[test]
fn spec_3_capture_07_out_seat_between_the_blinds_round_1() {
    let json = capture!("07-preflop-r1-6-seats-1-out.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 1, 1, &[1000, 998, 996, 0, 2006, 1000]);
    table.deal(&[(5, "Kc 10h")], "");
    table.expect(5);
    copy_caller_fields(&mut table.game, &capture);
    assert_same_document(table.game.bet_request_state().unwrap(), json);
}

#[test]
fn spec_3_capture_08_button_asked_after_the_blinds() {
    let json = capture!("08-preflop-r17-4-seats-1-out.json");
    let capture = parse(json);
    let mut table = table_like(&capture, 17, 1, &[962, 2080, 0, 958]);
    table.deal(&[(1, "4d 9h")], "");
    table.expect(1);
    copy_caller_fields(&mut table.game, &capture);
    assert_same_document(table.game.bet_request_state().unwrap(), json);
}
