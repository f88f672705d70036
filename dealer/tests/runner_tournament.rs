//! Runs of several sit'n'gos: seeds and seating from the run seed, parallel games, results.json,
//! stopping, failures, and byte-identical outputs for the same seed in reproducible mode.

use crate::support;

use dealer::engine::Game;
use dealer::game_event::GameEvent;
use dealer::house::BotKind;
use dealer::observe::{Exchange, Observer};
use dealer::rules::GameRules;
use dealer::runner::{stop_signal, AbsentPolicy, Clock, RunnerOptions, StopHandle, StopSignal};
use dealer::seat::{CheckPolicy, HttpSettings, PlayerEndpoint};
use dealer::tournament::{
    plan, tournament_id, Entrant, GameContext, ObserverFactory, RunEnd, RunResults, Tournament,
    TournamentError, TournamentSettings,
};
use rand::{RngCore, SeedableRng};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use support::files::files;
use support::misbehaving::{spawn_player, Misbehaviour};
use support::results::assert_same_results;

fn bot(name: &str, kind: &str) -> Entrant {
    Entrant::bot(name, kind.parse::<BotKind>().unwrap())
}

fn house() -> Vec<Entrant> {
    vec![
        bot("station", "calling-station"),
        bot("raiser", "raiser"),
        bot("random", "random"),
        bot("all-in", "all-in"),
        bot("folder", "folder"),
    ]
}

fn settings(out_dir: &Path, games: u32, seed: u64, parallel: usize) -> TournamentSettings {
    TournamentSettings {
        game: GameRules::default(),
        http: HttpSettings::with_request_timeout(Duration::from_millis(300)),
        games,
        seed,
        parallel,
        runner: RunnerOptions {
            check: CheckPolicy {
                deadline: Duration::from_millis(300),
                retry_interval: Duration::from_millis(50),
            },
            ..RunnerOptions::default()
        },
        out_dir: out_dir.to_path_buf(),
    }
}

fn read_results(path: &Path) -> RunResults {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn seeds_seating_and_ids_follow_the_run_seed_as_documented() {
    let planned = plan(7, 6, 5);
    assert_eq!(planned, plan(7, 6, 5), "the same seed gives the same plan");
    assert_ne!(planned, plan(8, 6, 5));
    let mut seeds = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for (index, game) in planned.iter().enumerate() {
        assert_eq!(game.number, index as u32 + 1);
        assert_eq!(game.seed, seeds.next_u64(), "game n: the n-th draw");
        let mut seating = game.seating.clone();
        seating.sort_unstable();
        assert_eq!(seating, [0, 1, 2, 3, 4], "a permutation of the entrants");
    }
    assert!(
        planned
            .iter()
            .any(|game| game.seating != planned[0].seating),
        "seats are shuffled per game"
    );
    // A longer run starts with the same games.
    assert_eq!(plan(7, 9, 5)[..6], planned[..]);
    assert_eq!(tournament_id(7), tournament_id(7));
    assert!(dealer::engine::is_object_id(&tournament_id(7)));
    assert_ne!(tournament_id(7), tournament_id(8));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_writes_results_json_for_every_game() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("run");
    let report = Tournament::new(house(), settings(&dir, 4, 99, 2))
        .unwrap()
        .run(&StopSignal::never())
        .await
        .unwrap();
    assert_eq!(report.end, RunEnd::Complete);
    assert_eq!(report.results_path, dir.join("results.json"));
    let results = read_results(&report.results_path);
    assert_same_results(&results, &report.results);
    assert!(results.complete);
    assert_eq!(results.stopped_because, None);
    assert_eq!(results.seed, 99);
    assert_eq!(results.tournament_id, tournament_id(99));
    assert_eq!(results.players.len(), 5);
    assert_eq!(results.players[0].bot.as_deref(), Some("calling-station"));
    assert_eq!(results.games.len(), 4);
    let planned = plan(99, 4, 5);
    let mut points: BTreeMap<String, u64> = BTreeMap::new();
    for (game, planned) in results.games.iter().zip(&planned) {
        assert_eq!(game.game, planned.number);
        assert_eq!(game.dir, format!("game-{}", game.game));
        assert!(dir.join(&game.dir).is_dir());
        assert_eq!(game.result.seed, planned.seed);
        assert_eq!(game.result.tournament_id, results.tournament_id);
        let seated: Vec<&str> = planned
            .seating
            .iter()
            .map(|&i| results.players[i].name.as_str())
            .collect();
        assert_eq!(game.result.players, seated, "seat order from the plan");
        assert_eq!(game.standings.len(), 5);
        for (place, standing) in game.standings.iter().enumerate() {
            assert_eq!(standing.place, place + 1);
            assert_eq!(game.result.players[standing.seat], standing.name);
            assert_eq!(standing.points, game.result.points[standing.seat]);
            *points.entry(standing.name.clone()).or_default() += u64::from(standing.points);
        }
        let chips: u64 = game.standings.iter().map(|s| s.final_stack).sum();
        assert_eq!(chips + game.result.chips_banned.get(), 5000);
        assert!(game.requests > 0);
        assert_eq!(game.versions.len(), 5);
    }
    assert_eq!(results.totals.len(), 5);
    for pair in results.totals.windows(2) {
        assert!(pair[0].points >= pair[1].points, "most points first");
    }
    for total in &results.totals {
        assert_eq!(total.points, points.get(&total.name).copied().unwrap_or(0));
        assert_eq!(total.games, 4);
    }
    assert_eq!(results.totals.iter().map(|t| t.points).sum::<u64>(), 32);

    // The run folder is never reused.
    let again = Tournament::new(house(), settings(&dir, 1, 99, 1))
        .unwrap()
        .run(&StopSignal::never())
        .await
        .unwrap_err();
    assert!(matches!(again, TournamentError::OutputExists(_)));
    assert!(again.to_string().contains("already holds a run"));
}

/// Writes the whole stream (events and exchanges, with every time value) to
/// `<game dir>/stream.jsonl`, so two runs can be compared byte for byte.
struct StreamFile(io::BufWriter<std::fs::File>);

impl Observer for StreamFile {
    fn on_event(&mut self, event: &GameEvent, game: &Game) -> io::Result<()> {
        serde_json::to_writer(&mut self.0, event)?;
        writeln!(self.0, "\t{}", game.viewer_state().to_json())
    }

    fn on_exchange(&mut self, exchange: &Exchange<'_>, _game: &Game) -> io::Result<()> {
        let sent_at = exchange
            .sent_at
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        writeln!(
            self.0,
            "{} {} {} {} {:?} {:?} {} {:?} {:?}",
            exchange.round,
            exchange.seat,
            exchange.player,
            exchange.action,
            exchange.state.map(|s| s.to_json()),
            exchange.body.map(String::from_utf8_lossy),
            exchange.latency_us(),
            exchange.failure.map(|f| f.to_string()),
            sent_at,
        )
    }

    fn finish(&mut self, _game: &Game) -> io::Result<()> {
        self.0.flush()
    }
}

/// Every output of the `dealer` CLI (viewer log, requests, PHH hands, player logs), plus the
/// whole stream with its time values.
fn stream_files() -> ObserverFactory {
    Arc::new(|context: &GameContext<'_>| {
        let mut observers = dealer::observe::GameOutputs::create_selected(
            context.dir,
            &context.setup.players,
            dealer::observe::OutputSelection::ALL,
        )?;
        let file = std::fs::File::create(context.dir.join("stream.jsonl"))?;
        observers.push(Box::new(StreamFile(io::BufWriter::new(file))));
        Ok(observers)
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reproducible_runs_with_the_same_seed_write_identical_files() {
    let out = tempfile::tempdir().unwrap();
    let mut runs = Vec::new();
    for (name, parallel) in [("first", 1), ("second", 3)] {
        let mut settings = settings(&out.path().join(name), 3, 2024, parallel);
        settings.runner.clock = Clock::Reproducible;
        let report = Tournament::new(house(), settings)
            .unwrap()
            .with_observers(stream_files())
            .run(&StopSignal::never())
            .await
            .unwrap();
        assert_eq!(report.end, RunEnd::Complete);
        runs.push(files(&out.path().join(name)));
    }
    let names: Vec<&PathBuf> = runs[0].keys().collect();
    assert!(names.contains(&&PathBuf::from("results.json")));
    for file in [
        "game-3/stream.jsonl",
        "game-3/log.json",
        "game-3/requests.jsonl",
        "game-3/hands/0.phh",
        "game-3/players/raiser.log",
    ] {
        assert!(
            names.contains(&&PathBuf::from(file)),
            "{file} written: {names:?}"
        );
    }
    assert_eq!(
        runs[0].keys().collect::<Vec<_>>(),
        runs[1].keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &runs[0] {
        assert!(
            bytes == &runs[1][path],
            "{} differs between two runs of the same seed",
            path.display()
        );
    }

    // A different seed plays different games.
    let mut settings = settings(&out.path().join("other"), 1, 2025, 1);
    settings.runner.clock = Clock::Reproducible;
    Tournament::new(house(), settings)
        .unwrap()
        .with_observers(stream_files())
        .run(&StopSignal::never())
        .await
        .unwrap();
    let other = files(&out.path().join("other"));
    assert_ne!(
        other[Path::new("game-1/stream.jsonl")],
        runs[0][Path::new("game-1/stream.jsonl")]
    );
}

/// Stops the run when game `game` reaches hand `hand`.
struct StopAt {
    hand: u64,
    handle: StopHandle,
}

impl Observer for StopAt {
    fn on_event(&mut self, event: &GameEvent, _game: &Game) -> io::Result<()> {
        if matches!(event, GameEvent::HandStarted { round, .. } if *round == self.hand) {
            self.handle.stop();
        }
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_run_keeps_the_games_it_finished() {
    let out = tempfile::tempdir().unwrap();
    let (handle, signal) = stop_signal();
    let factory: ObserverFactory = Arc::new(move |context: &GameContext<'_>| {
        let mut observers: Vec<Box<dyn Observer>> = Vec::new();
        if context.number == 2 {
            observers.push(Box::new(StopAt {
                hand: 1,
                handle: handle.clone(),
            }));
        }
        Ok(observers)
    });
    let report = Tournament::new(house(), settings(out.path(), 4, 3, 1))
        .unwrap()
        .with_observers(factory)
        .run(&signal)
        .await
        .unwrap();
    assert_eq!(report.end, RunEnd::Stopped);
    let results = read_results(&report.results_path);
    assert!(!results.complete);
    assert_eq!(results.games.len(), 1);
    assert_eq!(results.games[0].game, 1);
    assert_eq!(
        results.stopped_because.as_deref(),
        Some("stopped by the user (Ctrl-C or SIGTERM)")
    );
    assert_eq!(results.totals.iter().map(|t| t.points).sum::<u64>(), 8);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_cannot_be_played_ends_the_run_with_its_reason() {
    let out = tempfile::tempdir().unwrap();
    let refusing = spawn_player(Misbehaviour::RefusesConnections).await;
    let mut entrants = house();
    entrants.push(Entrant::http(
        "down",
        PlayerEndpoint::parse(refusing.url()).unwrap(),
    ));
    let mut settings = settings(out.path(), 3, 1, 2);
    settings.runner.absent = AbsentPolicy::Fail;
    let report = Tournament::new(entrants, settings)
        .unwrap()
        .run(&StopSignal::never())
        .await
        .unwrap();
    match &report.end {
        RunEnd::Failed(reason) => {
            assert!(
                reason.contains("not up after 300 ms: down (connection refused)"),
                "{reason}"
            )
        }
        other => panic!("{other:?}"),
    }
    let results = read_results(&report.results_path);
    assert!(!results.complete);
    assert_eq!(results.players[5].url.as_deref(), Some(refusing.url()));
}

#[tokio::test]
async fn outputs_that_cannot_be_created_end_the_run() {
    let out = tempfile::tempdir().unwrap();
    let factory: ObserverFactory = Arc::new(|_: &GameContext<'_>| {
        Err(io::Error::new(io::ErrorKind::PermissionDenied, "read-only"))
    });
    let report = Tournament::new(house(), settings(out.path(), 2, 1, 1))
        .unwrap()
        .with_observers(factory)
        .run(&StopSignal::never())
        .await
        .unwrap();
    match &report.end {
        RunEnd::Failed(reason) => assert!(reason.contains("cannot create the outputs"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_runs_are_refused_before_they_start() {
    let out = Path::new("unused");
    let cases: Vec<(Vec<Entrant>, TournamentSettings, &str)> = vec![
        (
            vec![bot("a", "raiser")],
            settings(out, 1, 1, 1),
            "at least 2 players",
        ),
        (
            vec![bot("a", "raiser"), bot("a", "folder")],
            settings(out, 1, 1, 1),
            "two players are named \"a\"",
        ),
        (
            house(),
            settings(out, 0, 1, 1),
            "--games must be at least 1",
        ),
        (
            house(),
            settings(out, 1, 1, 0),
            "--parallel must be at least 1",
        ),
        (
            (0..11).map(|i| bot(&format!("p{i}"), "folder")).collect(),
            settings(out, 1, 1, 1),
            "at most 10 players",
        ),
    ];
    for (entrants, settings, expected) in cases {
        let error = Tournament::new(entrants, settings).unwrap_err();
        assert!(error.to_string().contains(expected), "{error}");
    }
    let mut zero_timeout = settings(out, 1, 1, 1);
    zero_timeout.http.request_timeout = Duration::ZERO;
    let error = Tournament::new(house(), zero_timeout).unwrap_err();
    assert!(error.to_string().contains("request timeout"), "{error}");
}
