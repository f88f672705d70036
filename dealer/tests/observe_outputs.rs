//! Every output of a game together (`GameOutputs`): odd names, ten seats, bans mid-hand,
//! forgiven answers, byte-for-byte reproducibility, and the per-player logs.

use crate::observe_support;

use dealer::engine::{Game, GameSetup};
use dealer::observe::{GameOutputs, PlayerLogs};
use dealer::rules::{BadAnswerPolicy, GameRules};
use dealer::seat::SeatFailure;
use observe_support::{drive, play_into, read_tree, Bots, Drive, Mixed, Reply, SeatKind};
use serde_json::value::RawValue;
use shared::{GameState, Seat};
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

const ODD_NAMES: [&str; 10] = [
    "Team \"Quotes\"",
    "new\nline",
    "Zoë Ünïcødé",
    "🃏 Joker 🃏",
    "../../etc/passwd",
    "a/b",
    "a_b",
    ".hidden",
    "Bob",
    "bob",
];

/// Mixed answers, with some players misbehaving now and then.
struct Chaos(Mixed);

impl Bots for Chaos {
    fn answer(&mut self, seat: Seat, state: &GameState) -> Reply {
        match self.0.next() % 60 {
            0 => Reply::Fail(SeatFailure::Timeout { after_ms: 2000 }),
            1 => Reply::Raw {
                status: 200,
                body: b"-5".to_vec(),
            },
            2 => Reply::Raw {
                status: 404,
                body: "nöt found \u{1F4A5}\r\n".as_bytes().to_vec(),
            },
            3 => Reply::Fail(SeatFailure::Panicked("boom\nwith \"quotes\"".into())),
            4 => Reply::Raw {
                status: 200,
                body: vec![0xff, 0xfe, b'1'],
            },
            _ => self.0.answer(seat, state),
        }
    }
}

fn play_chaos(dir: &Path, names: &[&str], config: GameRules, seed: u64, kind: SeatKind) -> Game {
    play_into(dir, names, config, seed, &mut Chaos(Mixed::new(seed)), kind)
}

#[test]
fn outputs_ten_seats_with_odd_names_are_all_written_and_parse() {
    for policy in [BadAnswerPolicy::Ban, BadAnswerPolicy::Forgive] {
        ten_seats_with_odd_names(policy);
    }
}

fn ten_seats_with_odd_names(policy: BadAnswerPolicy) {
    let dir = tempfile::tempdir().unwrap();
    let game = play_chaos(
        dir.path(),
        &ODD_NAMES,
        GameRules {
            bad_answers: policy,
            ..GameRules::default()
        },
        7,
        SeatKind::Http,
    );
    let result = game.result().unwrap();
    match policy {
        BadAnswerPolicy::Ban => assert!(!result.bans.is_empty(), "chaos bans someone"),
        BadAnswerPolicy::Forgive => assert!(result.warnings.len() > 3, "chaos is forgiven"),
    }
    // log.json
    let log = std::fs::read_to_string(dir.path().join("log.json")).unwrap();
    let entries: Vec<&RawValue> = serde_json::from_str(&log).unwrap();
    assert!(entries.len() > 30, "{} entries", entries.len());
    // requests.jsonl
    let requests = std::fs::read_to_string(dir.path().join("requests.jsonl")).unwrap();
    for line in requests.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
    // hands
    let hands = std::fs::read_dir(dir.path().join("hands")).unwrap().count() as u64;
    assert_eq!(hands, game.hands_played());
    for entry in std::fs::read_dir(dir.path().join("hands")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let table: toml::Table = toml::from_str(&text).unwrap();
        for name in table["players"].as_array().unwrap() {
            assert!(ODD_NAMES.contains(&name.as_str().unwrap()));
        }
    }
    // players: one safe, unique file per player
    let paths = PlayerLogs::paths(&GameOutputs::players_dir(dir.path()), &ODD_NAMES);
    let mut stems: Vec<String> = paths
        .iter()
        .map(|path| path.file_name().unwrap().to_str().unwrap().to_string())
        .collect();
    for stem in &stems {
        assert!(!stem.starts_with('.'), "{stem}");
        assert!(stem.ends_with(".log"));
        assert!(stem
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)));
    }
    stems.sort_by_key(|stem| stem.to_ascii_lowercase());
    stems.dedup_by_key(|stem| stem.to_ascii_lowercase());
    assert_eq!(stems.len(), ODD_NAMES.len(), "unique even ignoring case");
    for (seat, path) in paths.iter().enumerate() {
        assert_eq!(path.parent().unwrap(), dir.path().join("players"));
        let text = std::fs::read_to_string(path).unwrap();
        let quoted = serde_json::to_string(ODD_NAMES[seat]).unwrap();
        let header = text.lines().next().unwrap();
        assert!(
            header.starts_with(&format!(
                "# Lean Poker dealer: requests to {quoted} (seat {seat}), game "
            )),
            "{header}"
        );
        assert!(text.contains("  check  status 200"));
        assert!(text.contains("  version  status 200"));
        assert!(text.contains("  showdown  status 200"));
        // Every line is one record: nothing a player sent breaks the structure.
        for line in text.lines() {
            assert!(
                line.is_empty()
                    || line.starts_with("# ")
                    || line.starts_with("1970-01-01T00:00:00.000000Z  round ")
                    || line.starts_with("    sent  {")
                    || line.starts_with("    read  ")
                    || line.starts_with("== "),
                "{line:?}"
            );
        }
    }
}

#[test]
fn outputs_are_reproducible_byte_for_byte() {
    let config = GameRules {
        bad_answers: BadAnswerPolicy::Forgive,
        ..GameRules::default()
    };
    let names = ["A", "B", "C", "D", "E"];
    let first = tempfile::tempdir().unwrap();
    let second = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    play_chaos(first.path(), &names, config.clone(), 99, SeatKind::Http);
    play_chaos(second.path(), &names, config.clone(), 99, SeatKind::Http);
    play_chaos(other.path(), &names, config, 100, SeatKind::Http);
    let first = read_tree(first.path());
    let second = read_tree(second.path());
    assert!(first.len() > 5);
    assert_eq!(
        first.iter().map(|(path, _)| path).collect::<Vec<_>>(),
        second.iter().map(|(path, _)| path).collect::<Vec<_>>()
    );
    for ((path, a), (_, b)) in first.iter().zip(&second) {
        assert!(a == b, "{path} differs between two runs of the same game");
    }
    let other = read_tree(other.path());
    let log = |tree: &[(String, Vec<u8>)]| {
        tree.iter()
            .find(|(path, _)| path == "log.json")
            .unwrap()
            .1
            .clone()
    };
    assert_ne!(log(&first), log(&other), "another seed is another game");
}

#[test]
fn outputs_survive_many_chaotic_games() {
    let root = tempfile::tempdir().unwrap();
    for seed in 0..30u64 {
        let seats = 2 + (seed as usize % 9);
        let names: Vec<String> = (0..seats).map(|seat| format!("p{seat}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let config = GameRules {
            bad_answers: if seed % 2 == 0 {
                BadAnswerPolicy::Ban
            } else {
                BadAnswerPolicy::Forgive
            },
            hand_limit: Some(60),
            ..GameRules::default()
        };
        let kind = if seed % 3 == 0 {
            SeatKind::InProcess
        } else {
            SeatKind::Http
        };
        let dir = root.path().join(format!("game-{seed}"));
        let game = play_chaos(&dir, &refs, config, seed, kind);
        let log = std::fs::read_to_string(dir.join("log.json")).unwrap();
        let entries: Vec<&RawValue> = serde_json::from_str(&log).unwrap();
        for entry in entries {
            #[derive(serde::Deserialize)]
            struct Entry<'a> {
                #[serde(borrow)]
                game_state: &'a RawValue,
            }
            let entry: Entry<'_> = serde_json::from_str(entry.get()).unwrap();
            GameState::from_json(entry.game_state.get()).unwrap();
        }
        let requests = player::testing::load(dir.join("requests.jsonl"));
        assert!(!requests.is_empty());
        let bans = requests
            .iter()
            .filter(|record| match &record.origin {
                player::testing::Origin::DealerRequest(dealer) => {
                    dealer.action == Some(player::testing::RecordedAction::Banned)
                }
                _ => false,
            })
            .count();
        assert_eq!(bans, game.result().unwrap().bans.len());
    }
}

#[test]
fn player_logs_record_requests_answers_and_readings_with_times() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["Ann", "Bob"];
    let mut game = Game::new(GameSetup::new(
        GameRules {
            hand_limit: Some(2),
            ..GameRules::default()
        },
        names.iter().map(|n| n.to_string()).collect(),
        12,
    ))
    .unwrap();
    let mut observers =
        GameOutputs::create_selected(dir.path(), &names, dealer::observe::OutputSelection::ALL)
            .unwrap();
    // 2017-11-13T13:10:56Z
    let start = UNIX_EPOCH + Duration::from_secs(1_510_578_656);
    drive(
        &mut game,
        &mut observers,
        &mut |seat: Seat, state: &GameState| {
            if seat == Seat(1) && state.round == Some(1) {
                Reply::Raw {
                    status: 200,
                    body: b"10\n".to_vec(),
                }
            } else {
                Reply::Bet(state.call_amount().get())
            }
        },
        Drive {
            start,
            ..Drive::default()
        },
    );
    drop(observers);
    let bob = std::fs::read_to_string(dir.path().join("players/Bob.log")).unwrap();
    assert!(bob.starts_with("# Lean Poker dealer: requests to \"Bob\" (seat 1), game "));
    assert!(
        bob.contains("2017-11-13T13:10:56.003702Z  round 0  check  status 200  500 us  body \"\"")
    );
    assert!(bob.contains("  version  status 200  500 us  body \"test bot 1\""));
    assert!(bob.contains("\n== round 0: button "));
    assert!(bob.contains("  bet_request  status 200  "));
    assert!(bob.contains("    sent  {\"tournament_id\":"));
    assert!(bob.contains("\"in_action\":1"));
    assert!(bob.contains("    read  call: answered "));
    // The bad answer, the ban and the elimination.
    assert!(bob.contains(
        "  bet_request  FAILED body \"10\\n\" is not a bet: whitespace at byte 2 (only ASCII digits are allowed)  status 200"
    ));
    assert!(bob.contains("body \"10\\n\"\n"));
    assert!(bob.contains("    read  banned (body \"10\\n\" is not a bet"));
    assert!(bob.contains("chips left the game\n"));
    assert!(bob.contains("== out in round 1, place 2 =="));
    let ann = std::fs::read_to_string(dir.path().join("players/Ann.log")).unwrap();
    assert!(ann.contains("  showdown  status 200  300 us  body \"\""));
    assert!(
        !ann.contains("in_action\":1"),
        "Ann's log has only Ann's requests"
    );
}
