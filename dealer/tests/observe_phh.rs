//! `hands/<round>.phh`: every hand as a PHH hand history; parsed as TOML here, and replayed
//! with PokerKit (the independent rule engine) when it is installed.

use crate::observe_support;

use dealer::engine::{Game, GameSetup, PresetDeal};
use dealer::observe::{GameOutputs, OutputSelection};
use dealer::rules::{BadAnswerPolicy, GameRules, OddChipRule};
use dealer::seat::SeatFailure;
use observe_support::{calling, drive, play_into, Bots, Drive, Mixed, Reply, SeatKind};
use shared::card::parse_cards;
use shared::{GameState, Seat};
use std::path::Path;
use std::process::Command;

fn hands(dir: &Path) -> Vec<(u64, toml::Table, String)> {
    let mut hands: Vec<(u64, toml::Table, String)> = std::fs::read_dir(dir.join("hands"))
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let round: u64 = path.file_stem().unwrap().to_str().unwrap().parse().unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            let table: toml::Table = toml::from_str(&text)
                .unwrap_or_else(|error| panic!("{} is not TOML: {error}\n{text}", path.display()));
            (round, table, text)
        })
        .collect();
    hands.sort_by_key(|(round, _, _)| *round);
    hands
}

fn ints(table: &toml::Table, key: &str) -> Vec<i64> {
    table[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is an array"))
        .iter()
        .map(|value| value.as_integer().unwrap())
        .collect()
}

fn strings(table: &toml::Table, key: &str) -> Vec<String> {
    table[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|value| value.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn phh_every_hand_has_the_required_fields_and_conserves_chips() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["Ann", "Bob \"B\"", "Cy\nnewline", "Dé 🃏"];
    let game = play_into(
        dir.path(),
        &names,
        GameRules::default(),
        21,
        &mut Mixed::new(21),
        SeatKind::Http,
    );
    let all = hands(dir.path());
    assert_eq!(all.len() as u64, game.hands_played());
    for (round, table, text) in &all {
        assert!(text.starts_with("# Lean Poker hand history in PHH"));
        assert_eq!(table["variant"].as_str(), Some("NT"));
        let players = strings(table, "players");
        let count = players.len();
        assert!(count >= 2);
        for name in &players {
            assert!(names.contains(&name.as_str()), "{name:?} round trips");
        }
        assert_eq!(ints(table, "antes"), vec![0; count]);
        let blinds = ints(table, "blinds_or_straddles");
        let starting = ints(table, "starting_stacks");
        let finishing = ints(table, "finishing_stacks");
        let winnings = ints(table, "winnings");
        assert_eq!(
            (
                blinds.len(),
                starting.len(),
                finishing.len(),
                winnings.len()
            ),
            (count, count, count, count)
        );
        assert_eq!(
            table["min_bet"].as_integer().unwrap(),
            if count == 2 { blinds[1] } else { blinds[0] },
            "min_bet is the small blind"
        );
        assert_eq!(table["hand"].as_integer(), Some(*round as i64));
        assert_eq!(table["_lean_round"].as_integer(), Some(*round as i64));
        assert_eq!(table["seat_count"].as_integer(), Some(4));
        assert_eq!(ints(table, "seats").len(), count);
        assert_eq!(
            starting.iter().sum::<i64>(),
            finishing.iter().sum::<i64>(),
            "round {round}: chips are conserved without bans"
        );
        let actions = strings(table, "actions");
        let dealt = actions.iter().filter(|a| a.starts_with("d dh ")).count();
        assert_eq!(dealt, count, "every player is dealt in");
        for action in &actions {
            let words: Vec<&str> = action.split_whitespace().collect();
            match words.as_slice() {
                ["d", "dh", player, cards] => {
                    assert!(player.starts_with('p'));
                    assert_eq!(cards.len(), 4);
                }
                ["d", "db", cards] => assert!(cards.len() == 6 || cards.len() == 2),
                [player, "f" | "cc"] => assert!(player.starts_with('p')),
                [player, "cbr", amount] => {
                    assert!(player.starts_with('p'));
                    assert!(amount.parse::<u64>().unwrap() > 0);
                }
                [player, "sm", cards] => {
                    assert!(player.starts_with('p'));
                    assert_eq!(cards.len(), 4);
                }
                other => panic!("unexpected action {other:?}"),
            }
        }
    }
}

#[test]
fn phh_heads_up_lists_the_small_blind_first_with_blinds_big_then_small() {
    let dir = tempfile::tempdir().unwrap();
    play_into(
        dir.path(),
        &["A", "B"],
        GameRules {
            hand_limit: Some(4),
            ..GameRules::default()
        },
        8,
        &mut calling,
        SeatKind::InProcess,
    );
    for (_, table, _) in hands(dir.path()) {
        assert_eq!(ints(&table, "blinds_or_straddles"), vec![4, 2]);
        // p1 is the small blind and has no button; the button is the last player.
        let button = table["_lean_button"].as_integer().unwrap();
        let seats = ints(&table, "seats");
        assert_eq!(seats[1] - 1, button);
        // Lean Poker: the small blind acts first before and after the flop.
        let actions = strings(&table, "actions");
        let first_bet = actions.iter().find(|a| a.starts_with('p')).unwrap();
        assert!(first_bet.starts_with("p1 "), "{first_bet}");
        let flop = actions.iter().position(|a| a.starts_with("d db")).unwrap();
        assert!(actions[flop + 1].starts_with("p1 "));
    }
}

#[test]
fn phh_bans_and_boards_dealt_out_are_marked() {
    let dir = tempfile::tempdir().unwrap();
    play_into(
        dir.path(),
        &["A", "B", "C"],
        GameRules {
            hand_limit: Some(3),
            ..GameRules::default()
        },
        4,
        &mut |seat: Seat, state: &GameState| {
            if seat == Seat(2) {
                Reply::Raw {
                    status: 200,
                    body: b"10\n".to_vec(),
                }
            } else {
                // Check when possible, else fold: hands end early.
                let _ = state;
                Reply::Bet(0)
            }
        },
        SeatKind::Http,
    );
    let all = hands(dir.path());
    let banned: Vec<_> = all
        .iter()
        .filter(|(_, table, _)| table.contains_key("_lean_bans"))
        .collect();
    assert_eq!(banned.len(), 1, "one ban");
    let (_, table, text) = banned[0];
    let bans = strings(table, "_lean_bans");
    assert!(bans[0].contains("is not a bet"), "{bans:?}");
    assert!(text.contains("# banned: "));
    // Everyone folds to a bet at some point: the board dealt out afterwards is commented.
    assert!(
        all.iter()
            .any(|(_, _, text)| text.contains("# \"d db") && text.contains("dealt out after")),
        "a board dealt out after an early end is a comment"
    );
}

/// Whether `python3 -c "import pokerkit"` works here.
fn pokerkit_available() -> bool {
    Command::new("python3")
        .args(["-c", "import pokerkit"])
        .output()
        .is_ok_and(|output| output.status.success())
}

/// Runs `tests/phh_check.py` on `dir`; returns its summary output.
fn check_with_pokerkit(dir: &Path) -> Option<String> {
    if !pokerkit_available() {
        println!(
            "SKIPPED: PokerKit is not installed (pip install pokerkit) — the PHH files were not replayed"
        );
        return None;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/phh_check.py");
    let output = Command::new("python3")
        .arg(script)
        .arg(dir)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "PokerKit rejected hands:\n{text}");
    println!("{text}");
    Some(text)
}

/// Plays a game of `seats` players with mixed answers into `dir/game-<seed>`, its hands in the
/// default form (`hands.phhs`), which PokerKit reads with `HandHistory.load_all`.
fn mixed_game(dir: &Path, seats: usize, seed: u64, config: GameRules) {
    let names: Vec<String> = (0..seats).map(|seat| format!("player {seat}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let game_dir = dir.join(format!("game-{seed}"));
    let mut game = Game::new(GameSetup::new(config, names.clone(), seed)).unwrap();
    let mut observers = GameOutputs::create_selected(
        &game_dir,
        &refs,
        OutputSelection {
            hands_file: OutputSelection::DEFAULT.hands_file,
            hands: OutputSelection::DEFAULT.hands,
            ..OutputSelection::NONE
        },
    )
    .unwrap();
    drive(
        &mut game,
        &mut observers,
        &mut Mixed::new(seed),
        Drive {
            kind: SeatKind::InProcess,
            ..Drive::default()
        },
    );
}

#[test]
fn phh_pokerkit_replays_every_hand_of_many_games() {
    let dir = tempfile::tempdir().unwrap();
    let dir = if let Some(keep) = std::env::var_os("PHH_KEEP_DIR") {
        let _ = std::fs::remove_dir_all(&keep);
        std::fs::create_dir_all(&keep).unwrap();
        KeptDir(std::path::PathBuf::from(keep), Some(dir))
    } else {
        KeptDir(dir.path().to_path_buf(), Some(dir))
    };
    for seed in 0..24u64 {
        let seats = 2 + (seed as usize % 9);
        mixed_game(dir.path(), seats, seed, GameRules::default());
    }
    if let Some(summary) = check_with_pokerkit(dir.path()) {
        assert!(summary.contains(" 0 failed"), "{summary}");
    }
}

#[test]
fn phh_pokerkit_accepts_split_pots_side_pots_and_known_differences() {
    let dir = tempfile::tempdir().unwrap();
    // A three-way split with an odd chip, an all-in side pot, a forgiving-mode game, a
    // game with bans and one under the OSS odd-chip rule.
    let names = ["A", "B", "C"];
    let mut game = Game::new(GameSetup::new(
        GameRules {
            hand_limit: Some(1),
            ..GameRules::default()
        },
        names.iter().map(|n| n.to_string()).collect(),
        2,
    ))
    .unwrap();
    let two = |text: &str| {
        let cards = parse_cards(text).unwrap();
        [cards[0], cards[1]]
    };
    game.preset_next_hand(PresetDeal {
        hole_cards: vec![
            (Seat(0), two("2c 3d")),
            (Seat(1), two("2d 3h")),
            (Seat(2), two("2h 3c")),
        ],
        board: parse_cards("As Ks Qs Js Ts").unwrap(),
    })
    .unwrap();
    let mut observers =
        GameOutputs::create_selected(&dir.path().join("split"), &names, OutputSelection::ALL)
            .unwrap();
    drive(&mut game, &mut observers, &mut calling, Drive::default());
    drop(observers);
    for seed in 0..6 {
        mixed_game(
            dir.path(),
            3 + seed as usize,
            100 + seed,
            GameRules {
                bad_answers: BadAnswerPolicy::Forgive,
                ..GameRules::default()
            },
        );
        mixed_game(
            dir.path(),
            3 + seed as usize,
            200 + seed,
            GameRules {
                odd_chips: OddChipRule::DiscardLikeOss,
                ..GameRules::default()
            },
        );
    }
    let ban_dir = dir.path().join("bans");
    play_into(
        &ban_dir,
        &["A", "B", "C", "D"],
        GameRules::default(),
        31,
        &mut BanSecond,
        SeatKind::Http,
    );
    reopen_game(&dir.path().join("reopen"));
    odd_chip_game(&dir.path().join("odd"), OddChipRule::LeftOfButton);
    odd_chip_game(&dir.path().join("oss"), OddChipRule::DiscardLikeOss);
    let odd = std::fs::read_to_string(dir.path().join("odd/hands/0.phh")).unwrap();
    assert!(odd.contains("winnings = [0, 5, 5, 4]"), "{odd}");
    let oss = std::fs::read_to_string(dir.path().join("oss/hands/0.phh")).unwrap();
    assert!(oss.contains("_lean_chips_discarded = "), "{oss}");
    let reopen = std::fs::read_to_string(dir.path().join("reopen/hands/0.phh")).unwrap();
    assert!(reopen.contains("\"p1 cbr 100\""), "{reopen}");
    assert!(reopen.contains("\"p2 cbr 120\""), "{reopen}");
    assert!(reopen.contains("\"p1 cbr 400\""), "{reopen}");
    // Those four games write both forms (`hands/0.phh` and `hands.phhs`): each known
    // difference is found once in each.
    if let Some(summary) = check_with_pokerkit(dir.path()) {
        assert!(summary.contains(" 0 failed"), "{summary}");
        assert!(
            summary.contains("ban 2"),
            "the ban is a known difference: {summary}"
        );
        assert!(
            summary.contains("reopen 2"),
            "no re-opening rule: {summary}"
        );
        assert!(summary.contains("odd-chips 2"), "odd chips: {summary}");
        assert!(summary.contains("discarded 2"), "OSS odd chips: {summary}");
    }
}

/// Seat 1 times out from the second hand on; everyone else calls.
struct BanSecond;

impl Bots for BanSecond {
    fn answer(&mut self, seat: Seat, state: &GameState) -> Reply {
        if seat == Seat(1) && state.round.unwrap_or(0) >= 1 {
            return Reply::Fail(SeatFailure::Timeout { after_ms: 2000 });
        }
        calling(seat, state)
    }
}

/// Answers from a script per seat (then checks/calls).
struct Scripted(Vec<std::collections::VecDeque<u64>>);

impl Bots for Scripted {
    fn answer(&mut self, seat: Seat, state: &GameState) -> Reply {
        match self.0[seat.index()].pop_front() {
            Some(answer) => Reply::Bet(answer),
            None => calling(seat, state),
        }
    }
}

/// Lean Poker has no re-opening rule: after a short all-in, a player who already acted may
/// raise again. Standard rules (PokerKit) refuse; the checker knows it as "reopen".
fn reopen_game(dir: &Path) {
    let names = ["A", "B", "C"];
    let setup = GameSetup::new(
        GameRules {
            hand_limit: Some(1),
            ..GameRules::default()
        },
        names.iter().map(|n| n.to_string()).collect(),
        5,
    );
    let table = dealer::engine::TableStart {
        round: 0,
        button: Seat(2),
        stacks: vec![shared::Chips(1000), shared::Chips(124), shared::Chips(1000)],
    };
    let mut game = Game::with_table(setup, table).unwrap();
    // Preflop: C calls 4, A completes, B checks. Flop: A bets 100, B is all in for 120 (a
    // short raise), C calls, A raises again by 280.
    let mut bots = Scripted(vec![
        [2, 100, 300].into_iter().collect(),
        [0, 120].into_iter().collect(),
        [4, 120, 280].into_iter().collect(),
    ]);
    let mut observers = GameOutputs::create_selected(dir, &names, OutputSelection::ALL).unwrap();
    drive(&mut game, &mut observers, &mut bots, Drive::default());
}

/// Four players, the small blind folds, three tie on a royal board: 14 chips split three
/// ways, two odd chips.
fn odd_chip_game(dir: &Path, odd_chips: OddChipRule) {
    let names = ["A", "B", "C", "D"];
    let setup = GameSetup::new(
        GameRules {
            hand_limit: Some(1),
            odd_chips,
            ..GameRules::default()
        },
        names.iter().map(|n| n.to_string()).collect(),
        6,
    );
    let table = dealer::engine::TableStart {
        round: 0,
        button: Seat(3),
        stacks: vec![shared::Chips(1000); 4],
    };
    let mut game = Game::with_table(setup, table).unwrap();
    let two = |text: &str| {
        let cards = parse_cards(text).unwrap();
        [cards[0], cards[1]]
    };
    game.preset_next_hand(PresetDeal {
        hole_cards: vec![
            (Seat(0), two("2c 3d")),
            (Seat(1), two("2d 3h")),
            (Seat(2), two("2h 3c")),
            (Seat(3), two("4h 4c")),
        ],
        board: parse_cards("As Ks Qs Js Ts").unwrap(),
    })
    .unwrap();
    let mut bots = Scripted(vec![
        [0].into_iter().collect(),
        Default::default(),
        Default::default(),
        Default::default(),
    ]);
    let mut observers = GameOutputs::create_selected(dir, &names, OutputSelection::ALL).unwrap();
    drive(&mut game, &mut observers, &mut bots, Drive::default());
}

/// A directory to write into: a temporary one (deleted on drop), or `PHH_KEEP_DIR` to look
/// at the files afterwards.
struct KeptDir(
    std::path::PathBuf,
    #[allow(dead_code)] Option<tempfile::TempDir>,
);

impl KeptDir {
    fn path(&self) -> &Path {
        &self.0
    }
}

/// The tables of a `hands.phhs` file by round, with the text of the whole file.
fn compact_hands(game_dir: &Path) -> (Vec<(u64, toml::Table)>, String) {
    let path = GameOutputs::hands_file_path(game_dir);
    let text = std::fs::read_to_string(&path).unwrap();
    let file: toml::Table = toml::from_str(&text)
        .unwrap_or_else(|error| panic!("{} is not TOML: {error}", path.display()));
    let mut hands: Vec<(u64, toml::Table)> = file
        .into_iter()
        .map(|(round, table)| {
            let table = match table {
                toml::Value::Table(table) => table,
                other => panic!("[{round}] is not a table: {other:?}"),
            };
            (round.parse().unwrap(), table)
        })
        .collect();
    hands.sort_by_key(|(round, _)| *round);
    (hands, text)
}

#[test]
fn phh_compact_file_holds_every_hand_as_the_per_hand_files_do() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..6).map(|seat| format!("player {seat}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let game_dir = dir.path().join("game");
    let config = GameRules {
        hand_limit: Some(40),
        ..GameRules::default()
    };
    let mut game = Game::new(GameSetup::new(config, names.clone(), 7)).unwrap();
    let mut observers = GameOutputs::create_selected(
        &game_dir,
        &refs,
        OutputSelection {
            hands: true,
            hands_file: true,
            ..OutputSelection::NONE
        },
    )
    .unwrap();
    let mut mixed = Mixed::new(7);
    drive(
        &mut game,
        &mut observers,
        // One player raises, folds and shoves; the rest call, so the game lasts.
        &mut |seat: Seat, state: &GameState| {
            if seat.index() == 0 && state.round.unwrap_or(0).is_multiple_of(3) {
                mixed.answer(seat, state)
            } else {
                calling(seat, state)
            }
        },
        Drive {
            kind: SeatKind::InProcess,
            ..Drive::default()
        },
    );
    let per_hand = hands(&game_dir);
    let (compact, compact_text) = compact_hands(&game_dir);
    assert!(per_hand.len() > 10, "a real game: {} hands", per_hand.len());
    let per_hand_tables: Vec<(u64, toml::Table)> = per_hand
        .iter()
        .map(|(round, table, _)| (*round, table.clone()))
        .collect();
    assert_eq!(compact, per_hand_tables, "the same hands, key for key");
    // The Lean Poker comment once at the top, not once per hand.
    assert_eq!(compact_text.matches("# Lean Poker hand history").count(), 1);
    let per_hand_bytes: usize = per_hand.iter().map(|(_, _, text)| text.len()).sum();
    assert!(compact_text.len() < per_hand_bytes);
    println!(
        "6 players, {} hands: per-hand {} files {} bytes ({} per hand), compact 1 file {} bytes ({} per hand)",
        per_hand.len(),
        per_hand.len(),
        per_hand_bytes,
        per_hand_bytes / per_hand.len(),
        compact_text.len(),
        compact_text.len() / per_hand.len()
    );
    // PokerKit's multi-hand loader replays the compact file alone.
    std::fs::remove_dir_all(GameOutputs::hands_dir(&game_dir)).unwrap();
    if let Some(summary) = check_with_pokerkit(&game_dir) {
        let expected = format!("phh_check: {} hands,", per_hand.len());
        assert!(summary.contains(&expected), "{summary}");
        assert!(summary.contains(" 0 failed"), "{summary}");
    }
}
