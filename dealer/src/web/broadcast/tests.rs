use super::*;
use crate::web::log::{parse_log, GameLog};

/// A viewer log of two hands at a table of two: the first quiet (the small blind folds),
/// the second with an all-in called, a big pot and a ban.
fn two_hands() -> GameLog {
    let state = |round: u64, stacks: [(u64, u64, &str); 2], pot: u64| {
        serde_json::json!({
            "round": round, "small_blind": 10, "big_blind": 20, "dealer": 0, "pot": pot,
            "community_cards": [], "current_buy_in": 0,
            "players": [
                {"name": "<b>Ann</b>", "stack": stacks[0].0, "bet": stacks[0].1, "status": stacks[0].2, "hole_cards": []},
                {"name": "Bob", "stack": stacks[1].0, "bet": stacks[1].1, "status": stacks[1].2, "hole_cards": []}
            ]
        })
    };
    let bet = |seat: u64, message: &str, game_state| serde_json::json!({"type": "bet", "on_turn": seat, "message": message, "game_state": game_state});
    let log = serde_json::json!([
        {"game_state": state(0, [(1000, 0, "active"), (1000, 0, "active")], 0)},
        bet(0, "<b>Ann</b> made a bet of 10", state(0, [(990, 10, "active"), (1000, 0, "active")], 10)),
        bet(1, "Bob made a bet of 20", state(0, [(990, 10, "active"), (980, 20, "active")], 30)),
        bet(0, "<b>Ann</b> folds", state(0, [(990, 0, "folded"), (1010, 0, "active")], 0)),
        {"game_state": state(1, [(990, 0, "active"), (1010, 0, "active")], 0)},
        bet(0, "<b>Ann</b> made a bet of 990", state(1, [(0, 990, "active"), (1010, 0, "active")], 990)),
        bet(1, "Bob made a bet of 990", state(1, [(0, 990, "active"), (20, 990, "active")], 1980)),
        bet(1, "Bob made a bet of 0 (fold). Banned: the answer was not a number", state(1, [(0, 990, "active"), (20, 990, "out")], 1980)),
    ]);
    parse_log(log.to_string().as_bytes()).expect("a valid log")
}

#[test]
fn a_log_is_read_into_hands_all_ins_big_pots_and_bans() {
    let log = two_hands();
    let reading = read_log(&log);
    assert_eq!(reading.last_entry, 7);
    assert_eq!(
        reading.hands,
        [
            HandSummary {
                round: 0,
                first: 0,
                last: 3,
                pot: 30,
                chips: 2000,
                quiet: true
            },
            HandSummary {
                round: 1,
                first: 4,
                last: 7,
                pot: 1980,
                chips: 2000,
                quiet: false
            },
        ]
    );
    let kinds: Vec<&str> = reading
        .highlights
        .iter()
        .map(|h| match h {
            Highlight::AllIn { .. } => "all_in",
            Highlight::BigPot { .. } => "big_pot",
            Highlight::Banned { .. } => "banned",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        ["all_in", "big_pot", "banned"],
        "{:?}",
        reading.highlights
    );
    assert_eq!(
        reading.highlights[0],
        Highlight::AllIn {
            entry: 5,
            hand: 1,
            player: "<b>Ann</b>".to_string(),
            amount: 990
        }
    );
    assert_eq!(
        reading.highlights[1],
        Highlight::BigPot {
            entry: 6,
            hand: 1,
            pot: 1980
        }
    );
    assert!(
        matches!(&reading.highlights[2], Highlight::Banned { entry: 7, player, .. } if player == "Bob")
    );
    // One all-in hand, one big pot, one ban.
    assert_eq!(
        score(&reading.highlights),
        ALL_IN_SCORE + BIG_POT_SCORE + BAN_SCORE
    );
}

#[test]
fn the_last_hand_is_never_quiet_and_a_small_pot_is() {
    let log = two_hands();
    let mut first_hand_only = log.clone();
    first_hand_only.entries.truncate(4);
    first_hand_only.hands.truncate(1);
    first_hand_only.bans.clear();
    let reading = read_log(&first_hand_only);
    assert_eq!(reading.hands.len(), 1);
    assert!(!reading.hands[0].quiet, "the game's last hand is played");
    assert!(reading.highlights.is_empty());
    assert_eq!(score(&reading.highlights), 0);
}

#[test]
fn scores_count_each_kind_up_to_a_cap_and_the_event_moments_in_full() {
    let all_ins: Vec<Highlight> = (0..20)
        .map(|hand| Highlight::AllIn {
            entry: hand,
            hand: hand as u64,
            player: "A".into(),
            amount: 1,
        })
        .collect();
    assert_eq!(score(&all_ins), ALL_IN_SCORE * MAX_SCORED_HANDS);
    let two_in_one_hand = [
        Highlight::AllIn {
            entry: 1,
            hand: 3,
            player: "A".into(),
            amount: 1,
        },
        Highlight::AllIn {
            entry: 2,
            hand: 3,
            player: "B".into(),
            amount: 1,
        },
    ];
    assert_eq!(score(&two_in_one_hand), ALL_IN_SCORE);
    let event = [
        Highlight::FirstWin {
            entry: 9,
            player: "A".into(),
            id: 1,
        },
        Highlight::TakesLead {
            entry: 9,
            player: "A".into(),
            id: 1,
        },
    ];
    assert_eq!(score(&event), FIRST_WIN_SCORE + LEAD_CHANGE_SCORE);
}

#[test]
fn pruned_and_abandoned_games_are_skipped_with_their_reason() {
    let game = |state: &str, files: GameFiles| GameRow {
        number: 7,
        round: 2,
        table: 1,
        state: state.to_string(),
        run: crate::event::store::GAMES_DIR,
        started_at: 0,
        ended_at: Some(1),
        hands: Some(3),
        winner: None,
        reason: (state == "abandoned").then(|| "the server stopped".to_string()),
        players: Vec::new(),
        standings: Vec::new(),
        files,
        has_record: false,
    };
    assert_eq!(skip_reason(&game("finished", GameFiles::Kept)), None);
    assert_eq!(skip_reason(&game("finished", GameFiles::Compressed)), None);
    assert!(skip_reason(&game("finished", GameFiles::Pruned)).is_some_and(|r| r.contains("pruned")));
    assert_eq!(
        skip_reason(&game("abandoned", GameFiles::Kept)).as_deref(),
        Some("abandoned: the server stopped")
    );
}
