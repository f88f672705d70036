use super::*;
use crate::web::log::{parse_log, GameLog};
use serde_json::{json, Value};

/// A seat as `(name, stack, bet, status)`.
type Seat<'a> = (&'a str, u64, u64, &'a str);

fn state(round: u64, seats: &[Seat<'_>], pot: u64) -> Value {
    let players: Vec<Value> = seats
        .iter()
        .map(|(name, stack, bet, status)| {
            json!({"name": name, "stack": stack, "bet": bet, "status": status, "hole_cards": []})
        })
        .collect();
    json!({"round": round, "small_blind": 10, "big_blind": 20, "dealer": 0, "pot": pot,
           "community_cards": [], "current_buy_in": 0, "players": players})
}

fn start(round: u64, seats: &[Seat<'_>]) -> Value {
    json!({"game_state": state(round, seats, 0)})
}

fn bet(seat: usize, message: &str, round: u64, seats: &[Seat<'_>], pot: u64) -> Value {
    json!({"type": "bet", "on_turn": seat, "message": message, "game_state": state(round, seats, pot)})
}

fn entry(kind: &str, message: &str, round: u64, seats: &[Seat<'_>], pot: u64) -> Value {
    json!({"type": kind, "message": message, "game_state": state(round, seats, pot)})
}

fn parse(entries: Vec<Value>) -> GameLog {
    parse_log(Value::Array(entries).to_string().as_bytes()).expect("a valid log")
}

/// A blinds-only hand at a table of three with 3,000 chips: Cy folds to the big blind.
fn quiet_hand(round: u64) -> Vec<Value> {
    let full = [
        ("Ann", 1000, 0, "active"),
        ("<b>Bo</b>", 1000, 0, "active"),
        ("Cy", 1000, 0, "active"),
    ];
    vec![
        start(round, &full),
        bet(
            1,
            "Bo made a bet of 10",
            round,
            &[
                ("Ann", 1000, 0, "active"),
                ("<b>Bo</b>", 990, 10, "active"),
                ("Cy", 1000, 0, "active"),
            ],
            10,
        ),
        bet(
            2,
            "Cy made a bet of 20",
            round,
            &[
                ("Ann", 1000, 0, "active"),
                ("<b>Bo</b>", 990, 10, "active"),
                ("Cy", 980, 20, "active"),
            ],
            30,
        ),
        bet(
            0,
            "Ann folds",
            round,
            &[
                ("Ann", 1000, 0, "folded"),
                ("<b>Bo</b>", 990, 10, "active"),
                ("Cy", 980, 20, "active"),
            ],
            30,
        ),
        bet(
            1,
            "Bo folds",
            round,
            &[
                ("Ann", 1000, 0, "folded"),
                ("<b>Bo</b>", 990, 0, "folded"),
                ("Cy", 1010, 0, "active"),
            ],
            0,
        ),
    ]
}

/// Four quiet hands, then an all-in pushed by Ann that everyone folds to (hand 4), then Ann's
/// all-in called by Bo, who loses everything at the showdown (hand 5: a big pot, a knockout,
/// the last two left), then the final hand, in which Cy is banned.
fn game() -> GameLog {
    let mut entries: Vec<Value> = (0..4).flat_map(quiet_hand).collect();
    let full = [
        ("Ann", 1000, 0, "active"),
        ("<b>Bo</b>", 1000, 0, "active"),
        ("Cy", 1000, 0, "active"),
    ];
    entries.push(start(4, &full));
    entries.push(bet(
        0,
        "Ann made a bet of 1000 (allin)",
        4,
        &[
            ("Ann", 0, 1000, "active"),
            ("<b>Bo</b>", 1000, 0, "active"),
            ("Cy", 1000, 0, "active"),
        ],
        1000,
    ));
    entries.push(bet(
        1,
        "Bo folds",
        4,
        &[
            ("Ann", 0, 1000, "active"),
            ("<b>Bo</b>", 1000, 0, "folded"),
            ("Cy", 1000, 0, "active"),
        ],
        1000,
    ));
    entries.push(bet(
        2,
        "Cy folds",
        4,
        &[
            ("Ann", 1000, 0, "active"),
            ("<b>Bo</b>", 1000, 0, "folded"),
            ("Cy", 1000, 0, "folded"),
        ],
        0,
    ));
    entries.push(start(5, &full));
    entries.push(bet(
        0,
        "Ann made a bet of 1000 (allin)",
        5,
        &[
            ("Ann", 0, 1000, "active"),
            ("<b>Bo</b>", 1000, 0, "active"),
            ("Cy", 1000, 0, "active"),
        ],
        1000,
    ));
    entries.push(bet(
        1,
        "Bo made a bet of 1000 (allin)",
        5,
        &[
            ("Ann", 0, 1000, "active"),
            ("<b>Bo</b>", 0, 1000, "active"),
            ("Cy", 1000, 0, "active"),
        ],
        2000,
    ));
    entries.push(bet(
        2,
        "Cy folds",
        5,
        &[
            ("Ann", 0, 1000, "active"),
            ("<b>Bo</b>", 0, 1000, "active"),
            ("Cy", 1000, 0, "folded"),
        ],
        2000,
    ));
    entries.push(entry(
        "showdown",
        "Ann showed",
        5,
        &[
            ("Ann", 0, 1000, "active"),
            ("<b>Bo</b>", 0, 1000, "active"),
            ("Cy", 1000, 0, "folded"),
        ],
        2000,
    ));
    entries.push(entry(
        "winner_announcement",
        "Ann won 2000",
        5,
        &[
            ("Ann", 2000, 0, "active"),
            ("<b>Bo</b>", 0, 0, "out"),
            ("Cy", 1000, 0, "folded"),
        ],
        0,
    ));
    let two = [
        ("Ann", 2000, 0, "active"),
        ("<b>Bo</b>", 0, 0, "out"),
        ("Cy", 1000, 0, "active"),
    ];
    entries.push(start(6, &two));
    entries.push(bet(
        2,
        "Cy made a bet of 0 (fold). Banned: the answer was not a number",
        6,
        &[
            ("Ann", 2000, 0, "active"),
            ("<b>Bo</b>", 0, 0, "out"),
            ("Cy", 0, 0, "out"),
        ],
        0,
    ));
    parse(entries)
}

fn kinds(highlights: &[Highlight]) -> Vec<&'static str> {
    highlights
        .iter()
        .map(|h| match h {
            Highlight::AllIn { .. } => "all_in",
            Highlight::BigPot { .. } => "big_pot",
            Highlight::Knockout { .. } => "knockout",
            Highlight::Banned { .. } => "banned",
            Highlight::FirstWin { .. } => "first_win",
            Highlight::TakesLead { .. } => "takes_lead",
        })
        .collect()
}

#[test]
fn only_called_all_ins_and_pots_big_for_this_game_are_highlights() {
    let reading = read_log(&game());
    assert_eq!(reading.hands.len(), 7);
    // Ann's all-in in hand 4 took the blinds: no moment. In hand 5 it was called.
    assert!(
        reading.hands[4].moments.is_empty(),
        "{:?}",
        reading.hands[4]
    );
    assert_eq!(
        kinds(&reading.highlights),
        ["all_in", "all_in", "big_pot", "knockout", "banned"],
        "{:?}",
        reading.highlights
    );
    assert!(reading.highlights.iter().all(|h| !matches!(h,
        Highlight::AllIn { hand, .. } | Highlight::BigPot { hand, .. } if *hand != 5)));
    assert_eq!(
        reading.highlights[2],
        Highlight::BigPot {
            entry: 26,
            hand: 5,
            pot: 2000,
            // 2000 / 3000 against the usual (median) called pot, 20 / 3000 (the big blind
            // called by nobody is not in the pot).
            times_usual: 100
        }
    );
    assert_eq!(
        reading.highlights[3],
        Highlight::Knockout {
            entry: 29,
            hand: 5,
            player: "<b>Bo</b>".to_string(),
            left: 2
        }
    );
    assert!(
        matches!(&reading.highlights[4], Highlight::Banned { entry: 31, player, hand: 6, .. } if player == "Cy")
    );
    assert_eq!(
        reading.hands[5].moments,
        [HandMoment::Bubble, HandMoment::Knockout, HandMoment::BigPot]
    );
    assert_eq!(
        reading.hands[6].moments,
        [HandMoment::Final, HandMoment::Ban]
    );
    // One big pot and one ban.
    assert_eq!(score(&reading.highlights), BIG_POT_SCORE + BAN_SCORE);
}

#[test]
fn the_decisive_hands_are_shown_the_final_first() {
    let reading = read_log(&game());
    let shown: Vec<u64> = reading
        .hands
        .iter()
        .filter(|h| h.shown)
        .map(|h| h.round)
        .collect();
    assert_eq!(shown, [5, 6]);
    // Of many decisive hands, at most MAX_SHOWN_HANDS, the final one always.
    let mut many = read_log(&game()).hands;
    for hand in &mut many {
        hand.moments = vec![HandMoment::BigPot];
        hand.shown = false;
    }
    many.last_mut()
        .unwrap()
        .moments
        .insert(0, HandMoment::Final);
    reading::choose_shown(&mut many);
    assert_eq!(many.iter().filter(|h| h.shown).count(), MAX_SHOWN_HANDS);
    assert!(many.last().unwrap().shown);
}

#[test]
fn a_game_of_an_all_in_bot_has_no_big_pot_every_hand() {
    // Every hand Ann pushes and the others fold: a fifth of the chips each time, the usual
    // pot for this table.
    let mut entries = Vec::new();
    for round in 0..6 {
        let full = [
            ("Ann", 1000, 0, "active"),
            ("<b>Bo</b>", 1000, 0, "active"),
            ("Cy", 1000, 0, "active"),
        ];
        entries.push(start(round, &full));
        entries.push(bet(
            0,
            "Ann made a bet of 1000 (allin)",
            round,
            &[
                ("Ann", 0, 1000, "active"),
                ("<b>Bo</b>", 1000, 0, "active"),
                ("Cy", 1000, 0, "active"),
            ],
            1000,
        ));
        entries.push(bet(
            2,
            "Cy folds",
            round,
            &[
                ("Ann", 1000, 0, "active"),
                ("<b>Bo</b>", 1000, 0, "folded"),
                ("Cy", 1000, 0, "folded"),
            ],
            0,
        ));
    }
    let reading = read_log(&parse(entries));
    assert!(reading.highlights.is_empty(), "{:?}", reading.highlights);
    assert_eq!(
        reading
            .hands
            .iter()
            .filter(|h| !h.moments.is_empty())
            .count(),
        1,
        "only the final hand"
    );
    assert_eq!(score(&reading.highlights), 0);
}

#[test]
fn scores_count_big_pots_up_to_a_cap_and_the_event_moments_in_full() {
    let big_pots: Vec<Highlight> = (0..20)
        .map(|hand| Highlight::BigPot {
            entry: hand,
            hand: hand as u64,
            pot: 100,
            times_usual: 3,
        })
        .collect();
    assert_eq!(score(&big_pots), BIG_POT_SCORE * MAX_SCORED_HANDS);
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
        Highlight::AllIn {
            entry: 3,
            hand: 1,
            player: "A".into(),
            amount: 5,
        },
    ];
    assert_eq!(score(&event), FIRST_WIN_SCORE + LEAD_CHANGE_SCORE);
    // A first win outweighs every pot and ban a game can have.
    const {
        assert!(
            LEAD_CHANGE_SCORE > FIRST_WIN_SCORE
                && FIRST_WIN_SCORE > BAN_SCORE + BIG_POT_SCORE * MAX_SCORED_HANDS
        );
    }
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
