//! `log.json`, the Lean Poker viewer log (spec §8): compared with a real live log byte for
//! byte, and checked over whole games (structure, messages, states, bans, crash safety).

use crate::observe_support;

use dealer::engine::{Game, GameSetup, PresetDeal, TableStart};
use dealer::observe::{Observer, ViewerLog};
use dealer::rules::GameRules;
use dealer::seat::SeatFailure;
use observe_support::{calling, drive, play_into, Bots, Drive, Mixed, Reply, SeatKind};
use serde_json::value::RawValue;
use serde_json::Value;
use shared::card::parse_cards;
use shared::{Chips, GameState, Seat};
use std::io::Cursor;
use std::time::Duration;

const LIVE_ENTRIES: &str = include_str!("fixtures/live_log_hand0_entries.json");

/// An observer that keeps a viewer log in memory and can hand its text out.
struct Captured {
    log: Option<ViewerLog<Cursor<Vec<u8>>>>,
    sink: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
}

impl Observer for Captured {
    fn on_event(
        &mut self,
        event: &dealer::game_event::GameEvent,
        game: &Game,
    ) -> std::io::Result<()> {
        self.log.as_mut().unwrap().on_event(event, game)
    }
    fn on_exchange(
        &mut self,
        exchange: &dealer::observe::Exchange<'_>,
        game: &Game,
    ) -> std::io::Result<()> {
        self.log.as_mut().unwrap().on_exchange(exchange, game)
    }
    fn finish(&mut self, game: &Game) -> std::io::Result<()> {
        let mut log = self.log.take().unwrap();
        log.finish(game)?;
        *self.sink.lock().unwrap() = log.into_inner().into_inner();
        Ok(())
    }
}

/// Plays `game` to its end with `bots` and returns the whole `log.json` text.
fn viewer_log(game: &mut Game, bots: &mut dyn Bots) -> String {
    let sink = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut observers: Vec<Box<dyn Observer>> = vec![Box::new(Captured {
        log: Some(ViewerLog::new(Cursor::new(Vec::new())).unwrap()),
        sink: sink.clone(),
    })];
    drive(game, &mut observers, bots, Drive::default());
    let bytes = sink.lock().unwrap().clone();
    String::from_utf8(bytes).unwrap()
}

/// The raw text of every entry.
fn entries(log: &str) -> Vec<&str> {
    let raw: Vec<&RawValue> = serde_json::from_str(log).expect("log.json is a JSON array");
    raw.into_iter().map(RawValue::get).collect()
}

/// The raw `game_state` text of an entry.
fn raw_state(entry: &str) -> &str {
    #[derive(serde::Deserialize)]
    struct Entry<'a> {
        #[serde(borrow)]
        game_state: &'a RawValue,
    }
    let entry: Entry<'_> = serde_json::from_str(entry).unwrap();
    entry.game_state.get()
}

/// The keys of an entry, in order.
fn keys(entry: &str) -> Vec<String> {
    observe_support::object_keys(entry)
}

/// Hand 0 of the live log: names, versions, ids, cards, answers and response times.
struct LiveHandZero {
    step: usize,
}

impl LiveHandZero {
    /// (seat, answer, response time in µs) in the order asked.
    const ANSWERS: [(usize, u64, u64); 9] = [
        (2, 4, 14908),
        (3, 200, 70842),
        (4, 397, 37948),
        (5, 1000, 34746),
        (0, 0, 28481),
        (1, 996, 47499),
        (2, 996, 29368),
        (3, 0, 38728),
        (4, 603, 39594),
    ];
}

impl Bots for LiveHandZero {
    fn answer(&mut self, seat: Seat, _state: &GameState) -> Reply {
        let (expected, answer, _) = Self::ANSWERS[self.step];
        assert_eq!(seat, Seat(expected), "asked in the live order");
        self.step += 1;
        Reply::Bet(answer)
    }
    fn latency(&mut self, _seat: Seat, request: u64) -> Duration {
        Duration::from_micros(Self::ANSWERS[request as usize].2)
    }
    fn version(&mut self, seat: Seat) -> String {
        [
            "Tooling Player",
            "Default Java folding player",
            "NoBrainer Player",
            "FunkSoBrothers 0.9",
            "bet r",
            "Default Java folding player",
        ][seat.index()]
        .to_string()
    }
}

fn live_hand_zero_game() -> Game {
    let names = [
        "Tooling",
        "The QST Brothers",
        "noBrainers",
        "Funksobrothers",
        "veithGolang",
        "Team Stuttgart",
    ];
    let config = GameRules {
        hand_limit: Some(1),
        ..GameRules::default()
    };
    let setup = GameSetup {
        config,
        players: names.iter().map(|name| name.to_string()).collect(),
        seed: 1,
        tournament_id: "59f783998508c00004000002".into(),
        game_id: "5a099be0c4f0940004000100".into(),
        decks: Default::default(),
    };
    let table = TableStart {
        round: 0,
        button: Seat(5),
        stacks: vec![Chips(1000); 6],
    };
    let mut game = Game::with_table(setup, table).unwrap();
    let hole = ["9c 3h", "4d 7s", "4c 8c", "9s 3s", "Ad Kh", "9h Jh"];
    game.preset_next_hand(PresetDeal {
        hole_cards: hole
            .iter()
            .enumerate()
            .map(|(seat, cards)| {
                let cards = parse_cards(cards).unwrap();
                (Seat(seat), [cards[0], cards[1]])
            })
            .collect(),
        board: parse_cards("Qc 5s Ks Kd Qs").unwrap(),
    })
    .unwrap();
    game
}

#[test]
fn spec_8_live_hand_zero_is_reproduced_byte_for_byte() {
    let mut game = live_hand_zero_game();
    let log = viewer_log(&mut game, &mut LiveHandZero { step: 0 });
    let ours = entries(&log);
    let live = entries(LIVE_ENTRIES);
    assert_eq!(live.len(), 4);
    for real in &live {
        assert!(
            ours.contains(real),
            "our log has no entry identical to the live entry\n{real}\n\nours:\n{}",
            ours.join("\n")
        );
    }
    // The whole hand has the live shape: start, 12 hole cards, 2 blinds, 9 answers, 5 board
    // cards, 2 reveals, 1 winner.
    let kinds: Vec<String> = ours
        .iter()
        .map(|entry| {
            let value: Value = serde_json::from_str(entry).unwrap();
            value["type"].as_str().unwrap_or("start").to_string()
        })
        .collect();
    let count = |kind: &str| kinds.iter().filter(|k| *k == kind).count();
    assert_eq!(ours.len(), 1 + 12 + 2 + 9 + 5 + 2 + 1);
    assert_eq!(kinds[0], "start");
    assert_eq!(count("card_deal"), 17);
    assert_eq!(count("bet"), 11);
    assert_eq!(count("showdown"), 2);
    assert_eq!(count("winner_announcement"), 1);
    // The first entry has only a game_state, with every hole_cards [] and an empty pot.
    assert_eq!(keys(ours[0]), ["game_state"]);
    let start: Value = serde_json::from_str(ours[0]).unwrap();
    for player in start["game_state"]["players"].as_array().unwrap() {
        assert_eq!(player["hole_cards"], Value::Array(vec![]));
    }
    assert_eq!(start["game_state"]["pot"], 0);
    // Deal messages as the live log writes them.
    let first_deal: Value = serde_json::from_str(ours[1]).unwrap();
    assert_eq!(
        first_deal["message"],
        "Tooling received hole_card 9 of Clubs"
    );
    let flop: Value = serde_json::from_str(ours[24]).unwrap();
    assert_eq!(flop["message"], "community card Queen of Clubs");
    // No trailing newline, like the live file.
    assert!(log.ends_with("}]"));
}

#[test]
fn spec_8_entry_keys_and_messages_match_the_live_format() {
    let live = entries(LIVE_ENTRIES);
    for real in &live {
        let kind = serde_json::from_str::<Value>(real).unwrap()["type"].clone();
        let expected = if kind == "bet" {
            vec!["type", "on_turn", "message", "game_state"]
        } else {
            vec!["type", "message", "game_state"]
        };
        assert_eq!(keys(real), expected);
    }
    let mut game = observe_support::new_game(&["A", "B", "C", "D"], GameRules::default(), 42);
    let log = viewer_log(&mut game, &mut Mixed::new(42));
    let bet = regex_like_bet();
    for entry in entries(&log) {
        let value: Value = serde_json::from_str(entry).unwrap();
        let state = &value["game_state"];
        let raw = raw_state(entry);
        let parsed = GameState::from_json(raw).unwrap();
        assert_eq!(parsed.to_json(), raw, "the state is in the wire format");
        for key in ["in_action", "minimum_raise", "bet_index"] {
            assert!(state.get(key).is_none(), "{key} in a log entry");
        }
        for player in state["players"].as_array().unwrap() {
            assert!(
                player["hole_cards"].is_array(),
                "every player's cards are shown"
            );
        }
        match value["type"].as_str() {
            None => assert_eq!(keys(entry), ["game_state"]),
            Some("bet") => {
                assert_eq!(keys(entry), ["type", "on_turn", "message", "game_state"]);
                let message = value["message"].as_str().unwrap();
                assert!(bet(message), "bet message: {message}");
            }
            Some("card_deal") => {
                assert_eq!(keys(entry), ["type", "message", "game_state"]);
                let message = value["message"].as_str().unwrap();
                assert!(
                    message.starts_with("community card ")
                        || message.contains(" received hole_card "),
                    "{message}"
                );
            }
            Some("showdown") => {
                let message = value["message"].as_str().unwrap();
                let (_, rest) = message.split_once(" showed ").unwrap();
                let (cards, hand) = rest.split_once(" making a ").unwrap();
                assert_eq!(cards.split(',').count(), 5, "{message}");
                assert!(
                    [
                        "high card",
                        "pair",
                        "two pairs",
                        "three of a kind",
                        "straight",
                        "flush",
                        "full house",
                        "four of a kind",
                        "straight flush"
                    ]
                    .contains(&hand),
                    "{message}"
                );
            }
            Some("winner_announcement") => {
                assert_eq!(keys(entry), ["type", "message", "game_state"]);
                let message = value["message"].as_str().unwrap();
                let (_, amount) = message.rsplit_once(" won ").unwrap();
                assert!(amount.parse::<u64>().unwrap() > 0);
            }
            Some(other) => panic!("unknown entry type {other}"),
        }
    }
}

/// `NAME made a bet of N (action) and is left with S chips. The pot now contains P chips.`
fn regex_like_bet() -> impl Fn(&str) -> bool {
    |message: &str| {
        let Some((_, rest)) = message.split_once(" made a bet of ") else {
            return false;
        };
        let Some((amount, rest)) = rest.split_once(" (") else {
            return false;
        };
        let Some((action, rest)) = rest.split_once(") and is left with ") else {
            return false;
        };
        let Some((stack, rest)) = rest.split_once(" chips. The pot now contains ") else {
            return false;
        };
        let pot = rest.split(" chips.").next().unwrap_or("");
        amount.parse::<u64>().is_ok()
            && ["fold", "check", "call", "raise", "allin"].contains(&action)
            && stack.parse::<u64>().is_ok()
            && pot.parse::<u64>().is_ok()
            && rest.starts_with(pot)
    }
}

#[test]
fn spec_8_a_fold_entry_still_shows_the_folder_active() {
    let mut game = live_hand_zero_game();
    let log = viewer_log(&mut game, &mut LiveHandZero { step: 0 });
    let all = entries(&log);
    let fold = all
        .iter()
        .position(|entry| entry.contains("Tooling made a bet of 0 (fold)"))
        .unwrap();
    let during: Value = serde_json::from_str(all[fold]).unwrap();
    let after: Value = serde_json::from_str(all[fold + 1]).unwrap();
    assert_eq!(during["game_state"]["players"][0]["status"], "active");
    assert_eq!(after["game_state"]["players"][0]["status"], "folded");
}

#[test]
fn spec_7_an_uncontested_hand_deals_the_board_and_announces_the_gross_win() {
    // Heads-up: the small blind (not the button) raises, the big blind folds.
    let mut game = observe_support::new_game(
        &["A", "B"],
        GameRules {
            hand_limit: Some(1),
            ..GameRules::default()
        },
        3,
    );
    let log = viewer_log(&mut game, &mut |_seat: Seat, state: &GameState| {
        if state.call_amount().is_zero() || state.bet_index == Some(2) {
            Reply::Bet(state.call_amount().get() + 7)
        } else {
            Reply::Bet(0)
        }
    });
    let all = entries(&log);
    let messages: Vec<String> = all
        .iter()
        .filter_map(|entry| {
            serde_json::from_str::<Value>(entry).unwrap()["message"]
                .as_str()
                .map(str::to_string)
        })
        .collect();
    assert!(messages.iter().all(|m| !m.contains(" showed ")));
    assert_eq!(
        messages
            .iter()
            .filter(|m| m.starts_with("community card "))
            .count(),
        5
    );
    let won = messages.last().unwrap();
    // Blinds 2/4: the raise to 11 (answer 9 = call 2 + 7), the fold; 11 + 4 = 15 won.
    assert!(won.ends_with(" won 15"), "{won}");
    let last: Value = serde_json::from_str(all.last().unwrap()).unwrap();
    let state = &last["game_state"];
    assert_eq!(state["pot"], 0);
    assert_eq!(state["current_buy_in"], 0);
    let players = state["players"].as_array().unwrap();
    assert!(players.iter().any(|p| p["amount_won"] == 15));
    assert!(players.iter().any(|p| p["status"] == "folded"));
}

#[test]
fn spec_6_a_ban_is_a_fold_entry_with_the_reason_and_the_chips_gone() {
    let mut game = observe_support::new_game(
        &["Ann", "Bob \"the bot\"", "Cy"],
        GameRules {
            hand_limit: Some(2),
            ..GameRules::default()
        },
        5,
    );
    let log = viewer_log(&mut game, &mut |seat: Seat, state: &GameState| {
        if seat == Seat(1) {
            Reply::Fail(SeatFailure::Timeout { after_ms: 2000 })
        } else {
            calling(seat, state)
        }
    });
    let all = entries(&log);
    let ban = all
        .iter()
        .find(|entry| entry.contains("Banned: timeout after 2000 ms"))
        .expect("a ban entry");
    let value: Value = serde_json::from_str(ban).unwrap();
    assert_eq!(value["type"], "bet");
    assert_eq!(value["on_turn"], 1);
    let message = value["message"].as_str().unwrap();
    assert!(
        message.starts_with("Bob \"the bot\" made a bet of 0 (fold) and is left with 0 chips."),
        "{message}"
    );
    assert!(regex_like_bet()(message));
    let bob = &value["game_state"]["players"][1];
    assert_eq!(bob["status"], "out");
    assert_eq!(bob["stack"], 0);
    assert_eq!(bob["bet"], 0);
    // Chips left the game: the pot no longer has Bob's blind.
    let pot = value["game_state"]["pot"].as_u64().unwrap();
    let bets: u64 = value["game_state"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["bet"].as_u64().unwrap())
        .sum();
    assert_eq!(pot, bets);
}

#[test]
fn spec_8_after_every_hand_the_file_on_disk_is_a_valid_array() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.json");
    let mut game = observe_support::new_game(&["A", "B", "C"], GameRules::default(), 9);
    let mut observers: Vec<Box<dyn Observer>> = vec![Box::new(ViewerLog::create(&path).unwrap())];
    let mut previous = 0;
    for hands in 1..=4 {
        // A fresh game each time would restart; instead drive the same game hand by hand.
        drive(
            &mut game,
            &mut observers,
            &mut Mixed::new(hands),
            Drive {
                stop_after_hands: Some(1),
                kind: SeatKind::InProcess,
                ..Drive::default()
            },
        );
        // Not finished: as after a crash between hands.
        let text = std::fs::read_to_string(&path).unwrap();
        let count = entries(&text).len();
        assert!(count > previous, "hand {hands} added entries");
        previous = count;
    }
    drop(observers);
    // A crash in the middle of a hand: everything up to the last hand end is kept.
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(entries(&text).len(), previous);
}

#[test]
fn spec_8_split_pots_announce_every_winner_in_order() {
    // Everyone calls to the river on a board that plays for all: the pot is split.
    let names = ["A", "B", "C"];
    let config = GameRules {
        hand_limit: Some(1),
        ..GameRules::default()
    };
    let mut game = Game::new(GameSetup::new(
        config,
        names.iter().map(|n| n.to_string()).collect(),
        11,
    ))
    .unwrap();
    game.preset_next_hand(PresetDeal {
        hole_cards: vec![
            (Seat(0), two("2c 3d")),
            (Seat(1), two("2d 3h")),
            (Seat(2), two("2h 3c")),
        ],
        board: parse_cards("As Ks Qs Js Ts").unwrap(),
    })
    .unwrap();
    let log = viewer_log(&mut game, &mut calling);
    let all = entries(&log);
    let winners: Vec<Value> = all
        .iter()
        .map(|entry| serde_json::from_str::<Value>(entry).unwrap())
        .filter(|value| value["type"] == "winner_announcement")
        .collect();
    assert_eq!(winners.len(), 3, "one announcement per winner");
    // Each announcement shows the winners paid so far; the last shows the whole payout.
    let paid = |value: &Value| -> Vec<u64> {
        value["game_state"]["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["amount_won"].as_u64().unwrap_or(0))
            .collect()
    };
    let first = paid(&winners[0]).iter().filter(|won| **won > 0).count();
    let last = paid(&winners[2]).iter().filter(|won| **won > 0).count();
    assert_eq!((first, last), (1, 3));
    let total: u64 = paid(&winners[2]).iter().sum();
    assert_eq!(total, 12);
    let showdowns = all
        .iter()
        .filter(|e| e.contains("\"type\":\"showdown\""))
        .count();
    assert_eq!(showdowns, 3, "ties are revealed");
    assert!(all.iter().any(|e| e.contains("making a straight flush")));
}

fn two(cards: &str) -> [shared::Card; 2] {
    let cards = parse_cards(cards).unwrap();
    [cards[0], cards[1]]
}

#[test]
fn spec_8_the_viewer_log_loads_in_the_sdk_testing_kit() {
    let dir = tempfile::tempdir().unwrap();
    let game = play_into(
        dir.path(),
        &["A", "B", "C"],
        GameRules::default(),
        17,
        &mut Mixed::new(17),
        SeatKind::Http,
    );
    assert!(game.is_finished());
    let recorded = player::testing::load(dir.path().join("log.json"));
    assert!(recorded.len() > 10);
    for record in &recorded {
        assert!(matches!(
            record.origin,
            player::testing::Origin::LogEntry { .. }
        ));
    }
}
