//! Issue #9, exact deal replay: decks by seat position (the rotations of a duplicate set share
//! every hand's cards whoever has busted), `decks.jsonl`, `dealer run --decks FILE` and
//! `dealer replay GAME_DIR` (identical logs, and the first difference of a tampered folder).

use crate::support;

use dealer::engine::{deck::cards_per_hand, Game};
use dealer::game_event::{GameEndReason, GameEvent};
use dealer::house::BotKind;
use dealer::observe::{read_decks, DeckRecord, GameOutputs, Observer, OutputSelection};
use dealer::replay::replay;
use dealer::rules::GameRules;
use dealer::runner::{Clock, RunnerOptions, StopSignal};
use dealer::seat::{HttpSettings, PlayerEndpoint};
use dealer::tournament::{
    Entrant, GameContext, ObserverFactory, RunEnd, RunResults, Tournament, TournamentSettings,
};
use shared::{Card, Seat};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use support::misbehaving::{spawn_player, Misbehaviour};

fn bot(name: &str, kind: &str) -> Entrant {
    Entrant::bot(name, kind.parse::<BotKind>().unwrap())
}

fn settings(out_dir: &Path, games: u32, seed: u64, clock: Clock) -> TournamentSettings {
    TournamentSettings {
        game: GameRules::default(),
        http: HttpSettings {
            request_timeout: Duration::from_millis(300),
            ..HttpSettings::default()
        },
        games,
        seed,
        parallel: 2,
        runner: RunnerOptions {
            clock,
            ..RunnerOptions::default()
        },
        out_dir: out_dir.to_path_buf(),
    }
}

async fn play(tournament: Tournament) -> RunResults {
    let report = tournament.run(&StopSignal::never()).await.unwrap();
    assert_eq!(report.end, RunEnd::Complete);
    report.results
}

fn outputs(selection: OutputSelection) -> ObserverFactory {
    Arc::new(move |context: &GameContext<'_>| {
        GameOutputs::create_selected(context.dir, &context.setup.players, selection)
    })
}

fn decks_of(dir: &Path) -> Vec<DeckRecord> {
    std::fs::read_to_string(dir.join("decks.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Per game: per hand, the seats with chips at its start, each seat's hole cards, the board.
type Dealt = Arc<Mutex<BTreeMap<u32, Vec<(Vec<Seat>, BTreeMap<Seat, Vec<Card>>, Vec<Card>)>>>>;

struct DealtCards {
    game: u32,
    dealt: Dealt,
}

impl Observer for DealtCards {
    fn on_event(&mut self, event: &GameEvent, _game: &Game) -> io::Result<()> {
        let mut dealt = self.dealt.lock().unwrap();
        let hands = dealt.entry(self.game).or_default();
        match event {
            GameEvent::HandStarted { stacks, .. } => {
                let seated = (0..stacks.len())
                    .filter(|&i| !stacks[i].is_zero())
                    .map(Seat)
                    .collect();
                hands.push((seated, BTreeMap::new(), Vec::new()));
            }
            GameEvent::HoleCardDealt { seat, card } => {
                if let Some(hand) = hands.last_mut() {
                    hand.1.entry(*seat).or_default().push(*card);
                }
            }
            GameEvent::CommunityCardDealt { card, .. } => {
                if let Some(hand) = hands.last_mut() {
                    hand.2.push(*card);
                }
            }
            _ => {}
        }
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_rotations_share_every_hands_deck_after_busts() {
    let out = tempfile::tempdir().unwrap();
    // Bots that go all in and bust at different hands in different rotations.
    let entrants = || {
        vec![
            bot("station", "calling-station"),
            bot("raiser", "raiser"),
            bot("random", "random"),
            bot("all-in", "all-in"),
        ]
    };
    let players = entrants().len();
    let dealt: Dealt = Arc::default();
    let files = outputs(OutputSelection {
        decks: true,
        ..OutputSelection::NONE
    });
    let factory: ObserverFactory = {
        let dealt = dealt.clone();
        Arc::new(move |context: &GameContext<'_>| {
            let mut observers = files(context)?;
            observers.push(Box::new(DealtCards {
                game: context.number,
                dealt: dealt.clone(),
            }));
            Ok(observers)
        })
    };
    let results = play(
        Tournament::new(entrants(), settings(out.path(), 3, 17, Clock::Reproducible))
            .unwrap()
            .with_duplicate(true)
            .unwrap()
            .with_observers(factory),
    )
    .await;
    let dealt = dealt.lock().unwrap();
    let mut shared_after_different_busts = 0;
    for set in results.games.chunks(players) {
        let decks: Vec<Vec<DeckRecord>> = set
            .iter()
            .map(|g| decks_of(&out.path().join(&g.dir)))
            .collect();
        let longest = decks.iter().map(Vec::len).max().unwrap();
        for hand in 0..longest {
            let reached: Vec<usize> = (0..players).filter(|&r| decks[r].len() > hand).collect();
            for &rotation in &reached {
                let record = &decks[rotation][hand];
                assert_eq!(record.hand, hand as u64);
                assert_eq!(record.deck.len(), cards_per_hand(players));
                assert_eq!(
                    record, &decks[reached[0]][hand],
                    "hand {hand}: every rotation that reaches it deals the same deck"
                );
                // Each seat dealt in got its own slice, the board the last five cards.
                let (seated, hole, board) = &dealt[&set[rotation].game][hand];
                for seat in seated {
                    let slice = &record.deck[2 * seat.index()..2 * seat.index() + 2];
                    assert_eq!(hole[seat], slice, "hand {hand}, seat {seat}");
                }
                assert_eq!(hole.len(), seated.len());
                assert_eq!(
                    board[..],
                    record.deck[2 * players..2 * players + board.len()]
                );
            }
            let seated: Vec<&Vec<Seat>> = reached
                .iter()
                .map(|&r| &dealt[&set[r].game][hand].0)
                .collect();
            if seated.iter().any(|s| *s != seated[0]) {
                shared_after_different_busts += 1;
            }
        }
    }
    assert!(
        shared_after_different_busts >= 3,
        "hands dealt alike after different busts: {shared_after_different_busts}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decks_file_deals_its_cards_and_the_game_ends_when_they_run_out() {
    let out = tempfile::tempdir().unwrap();
    // Folders never bust in three hands.
    let calm = || {
        vec![
            bot("a", "folder"),
            bot("b", "folder"),
            bot("c", "calling-station"),
        ]
    };
    let recorded = out.path().join("recorded");
    play(
        Tournament::new(calm(), settings(&recorded, 1, 5, Clock::Reproducible))
            .unwrap()
            .with_observers(outputs(OutputSelection::ALL)),
    )
    .await;
    let mut lines = std::fs::read_to_string(recorded.join("game-1").join("decks.jsonl")).unwrap();
    lines = lines.lines().take(3).map(|l| format!("{l}\n")).collect();
    let file = out.path().join("three.jsonl");
    std::fs::write(&file, &lines).unwrap();

    let dealt = out.path().join("dealt");
    let results = play(
        Tournament::new(calm(), settings(&dealt, 2, 99, Clock::Reproducible))
            .unwrap()
            .with_decks(Arc::new(read_decks(&file).unwrap()))
            .unwrap()
            .with_observers(outputs(OutputSelection::ALL)),
    )
    .await;
    for game in &results.games {
        assert_eq!(game.result.ended_by, GameEndReason::DecksRanOut);
        assert_eq!(game.result.hands_played, 3);
        let written = std::fs::read_to_string(dealt.join(&game.dir).join("decks.jsonl")).unwrap();
        assert_eq!(written, lines, "game {} dealt the file's cards", game.game);
    }
    // Too few cards for a bigger table: refused before any game.
    let mut four = calm();
    four.push(bot("d", "folder"));
    let error = Tournament::new(four, settings(&out.path().join("x"), 1, 1, Clock::Wall))
        .unwrap()
        .with_decks(Arc::new(read_decks(&file).unwrap()))
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("a table of 4 seats deals from 13"),
        "{error}"
    );
}

fn dealer(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dealer"))
        .args(args)
        .current_dir(dir)
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("the dealer binary runs")
}

fn one_line_error(output: &Output, code: i32, expected: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(code), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains(expected),
        "{stderr}"
    );
}

#[test]
fn bad_decks_files_are_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let deck: Vec<String> = Card::deck().take(9).map(|c| format!("\"{c}\"")).collect();
    let good = format!("{{\"hand\":0,\"deck\":[{}]}}", deck.join(","));
    let mut twice = deck.clone();
    twice[8] = twice[0].clone();
    let cases = [
        ("missing.jsonl", None, "cannot read"),
        (
            "broken.jsonl",
            Some(format!("{good}\n{{\"hand\":1,")),
            "line 2",
        ),
        (
            "card.jsonl",
            Some(r#"{"hand":0,"deck":["Zz"]}"#.to_string()),
            "line 1",
        ),
        (
            "twice.jsonl",
            Some(format!("{{\"hand\":0,\"deck\":[{}]}}", twice.join(","))),
            "appears more than once",
        ),
        (
            "gap.jsonl",
            Some(format!(
                "{good}\n{}",
                good.replace("\"hand\":0", "\"hand\":2")
            )),
            "hand 2 follows hand 0",
        ),
        ("empty.jsonl", Some(String::new()), "no deck is recorded"),
        (
            "short.jsonl",
            Some(good.clone()),
            "9 cards recorded, a table of 3 seats deals from 11",
        ),
    ];
    for (name, content, expected) in cases {
        let path = dir.path().join(name);
        if let Some(content) = content {
            std::fs::write(&path, content).unwrap();
        }
        let output = dealer(
            &[
                "run", "--bot", "a=folder", "--bot", "b=folder", "--bot", "c=folder", "--decks",
                name, "--out", "run", "-q",
            ],
            dir.path(),
        );
        one_line_error(&output, 2, expected);
        assert!(
            !dir.path().join("run").join("results.json").exists(),
            "{name}"
        );
    }
}

/// A run with a player that times out and one that answers a fraction (both banned), in wall
/// time, so latencies and `time_used` are real numbers the replay must reproduce.
async fn recorded_run(out: &Path) -> PathBuf {
    let slow = spawn_player(Misbehaviour::AnswersAfter(Duration::from_millis(500))).await;
    let fraction = spawn_player(Misbehaviour::Body(b"12.5")).await;
    let healthy = spawn_player(Misbehaviour::Healthy).await;
    let entrants = vec![
        Entrant::http("slow", PlayerEndpoint::parse(slow.url()).unwrap()),
        Entrant::http("fraction", PlayerEndpoint::parse(fraction.url()).unwrap()),
        Entrant::http("healthy", PlayerEndpoint::parse(healthy.url()).unwrap()),
        bot("station", "calling-station"),
        bot("random", "random"),
    ];
    let results = play(
        Tournament::new(entrants, settings(out, 1, 23, Clock::Wall))
            .unwrap()
            .with_observers(outputs(OutputSelection {
                hands_file: true,
                ..OutputSelection::ALL
            })),
    )
    .await;
    slow.stop().await;
    fraction.stop().await;
    healthy.stop().await;
    assert_eq!(results.games[0].result.bans.len(), 2);
    out.join("game-1")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replayed_game_writes_the_same_logs_and_a_tampered_one_shows_the_first_difference() {
    let out = tempfile::tempdir().unwrap();
    let game = recorded_run(out.path()).await;
    let requests = std::fs::read_to_string(game.join("requests.jsonl")).unwrap();
    assert!(
        requests.contains("\"error\":\"timeout after 300 ms\""),
        "{requests}"
    );
    assert!(requests.contains("\"action\":\"banned\""));

    let report = replay(&game, &out.path().join("replayed")).unwrap();
    assert_eq!(report.difference, None, "{:?}", report.difference);
    assert_eq!(report.answers, requests.lines().count());
    for file in [
        "log.json",
        "requests.jsonl",
        "decks.jsonl",
        "game.json",
        "hands.phhs",
    ] {
        assert!(report.compared.iter().any(|f| f == file), "{file}");
    }
    assert!(report.compared.iter().any(|f| f.starts_with("hands/")));
    // The command line agrees, and removes its temporary folder.
    let output = dealer(&["replay", game.to_str().unwrap()], out.path());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("Identical"), "{stdout}");

    // A timeout recorded as a quick answer: the player is no longer banned there.
    let tampered = out.path().join("tampered");
    copy_dir(&game, &tampered);
    let line = requests
        .lines()
        .position(|l| l.contains("timeout after 300 ms"))
        .unwrap();
    let changed: String = requests
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let l = if i == line {
                l.replace(
                    "\"answer\":null,\"error\":\"timeout after 300 ms\"",
                    "\"answer\":\"0\"",
                )
            } else {
                l.to_string()
            };
            format!("{l}\n")
        })
        .collect();
    assert_ne!(changed, requests);
    std::fs::write(tampered.join("requests.jsonl"), changed).unwrap();
    let report = replay(&tampered, &out.path().join("replayed-tampered")).unwrap();
    let difference = report.difference.expect("a difference");
    assert_eq!(difference.file, "log.json", "{difference}");
    let output = dealer(&["replay", tampered.to_str().unwrap()], out.path());
    one_line_error(&output, 1, "the replay differs: log.json line 1, byte ");

    // Missing and malformed records are usage errors.
    std::fs::remove_file(tampered.join("game.json")).unwrap();
    let output = dealer(&["replay", tampered.to_str().unwrap()], out.path());
    one_line_error(&output, 2, "has no game.json");
    std::fs::write(tampered.join("game.json"), "{}").unwrap();
    let output = dealer(&["replay", tampered.to_str().unwrap()], out.path());
    one_line_error(&output, 2, "game.json");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The SDK's recordings loader (`PLAYER_RECORDINGS`) reads a folder written by this dealer with
/// every output on: the run folder, a folder of runs, each game folder and each recording file.
/// The outputs are listed from `--outputs`' own values, so an output added later is on here too
/// and cannot break a team's tests unnoticed.
#[test]
fn the_recordings_loader_reads_a_run_with_every_output() {
    use clap::ValueEnum;
    let runs = tempfile::tempdir().unwrap();
    let every: Vec<String> = dealer::settings::OutputFile::value_variants()
        .iter()
        .filter_map(|file| file.to_possible_value())
        .map(|value| value.get_name().to_string())
        .filter(|name| name != "none")
        .collect();
    assert!(every.len() >= 6, "{every:?}");
    let outputs = every.join(",");
    let out = runs.path().join("run");
    let run = dealer(
        &[
            "-q",
            "run",
            "--reproducible",
            "--seed",
            "5",
            "--games",
            "2",
            "--hand-limit",
            "6",
            "--outputs",
            &outputs,
            "--bot",
            "a=raiser",
            "--bot",
            "b=calling-station",
            "--bot",
            "c=random",
            "--out",
            out.to_str().unwrap(),
        ],
        runs.path(),
    );
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );

    let from_run = player::testing::try_load(&out).unwrap();
    assert!(from_run.iter().any(|record| record.is_bet_request()));
    let from_runs = player::testing::try_load(runs.path()).unwrap();
    assert_eq!(from_runs.len(), from_run.len());
    let mut from_games = 0;
    for game in ["game-1", "game-2"] {
        let dir = out.join(game);
        let records = player::testing::try_load(&dir).unwrap();
        assert!(!records.is_empty(), "{game}");
        from_games += records.len();
        assert!(!player::testing::try_load(dir.join("requests.jsonl"))
            .unwrap()
            .is_empty());
        assert!(!player::testing::try_load(dir.join("log.json"))
            .unwrap()
            .is_empty());
    }
    assert_eq!(from_games, from_run.len());
}

/// A run with the default outputs (`hands.phhs`, no `hands/`: `docs/decisions.md`, "Hand
/// histories: one file a game by default") is read by every reader of a dealer's output: the
/// recordings loader, `dealer replay` (which compares `hands.phhs`), `dealer merge` and the
/// viewer's store.
#[test]
fn every_reader_reads_a_run_with_the_default_outputs() {
    let runs = tempfile::tempdir().unwrap();
    let play = |name: &str, extra: &[&str]| {
        let out = runs.path().join(name);
        let mut args = vec![
            "-q",
            "run",
            "--reproducible",
            "--seed",
            "11",
            "--games",
            "2",
            "--hand-limit",
            "8",
            "--bot",
            "a=raiser",
            "--bot",
            "b=calling-station",
            "--bot",
            "c=random",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let run = dealer(&args, runs.path());
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        out
    };
    let out = play("run", &[]);
    let game = out.join("game-1");
    let phhs = std::fs::read_to_string(GameOutputs::hands_file_path(&game)).unwrap();
    assert!(phhs.contains("\n[0]\n"), "{phhs}");
    assert!(!GameOutputs::hands_dir(&game).exists());
    for file in ["log.json", "requests.jsonl", "decks.jsonl", "game.json"] {
        assert!(game.join(file).is_file(), "{file}");
    }
    assert!(GameOutputs::players_dir(&game).is_dir());

    let records = player::testing::try_load(&out).unwrap();
    assert!(records.iter().any(|record| record.is_bet_request()));

    let report = replay(&game, &runs.path().join("replayed")).unwrap();
    assert_eq!(report.difference, None, "{:?}", report.difference);
    assert!(report.compared.iter().any(|f| f == "hands.phhs"));
    assert!(!report.compared.iter().any(|f| f.starts_with("hands/")));

    let shards: Vec<PathBuf> = (0..2)
        .map(|k| play(&format!("shard-{k}"), &["--shard", &format!("{k}/2")]))
        .collect();
    let merged = runs.path().join("merged");
    let mut args = vec!["-q", "merge", "--out", merged.to_str().unwrap()];
    args.extend(shards.iter().map(|dir| dir.to_str().unwrap()));
    let merge = dealer(&args, runs.path());
    assert!(
        merge.status.success(),
        "{}",
        String::from_utf8_lossy(&merge.stderr)
    );
    for game in ["game-1", "game-2"] {
        assert_eq!(
            std::fs::read(merged.join(game).join("hands.phhs")).unwrap(),
            std::fs::read(out.join(game).join("hands.phhs")).unwrap(),
            "{game}"
        );
    }

    let folder = dealer::web::store::ResultsFolder::new(runs.path()).unwrap();
    let details = folder.game("run", 1).unwrap();
    assert!(details.has_log && details.has_requests);
    assert_eq!(details.players.len(), 3);
    assert!(folder.game_log("run", 1).is_ok());
}
