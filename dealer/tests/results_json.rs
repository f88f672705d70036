//! What `results.json` records beyond the games played: games interrupted by a stop, failed
//! `showdown` requests, seeds as strings and place counts (issue 10, "Dealer defects").

use crate::support;

use dealer::engine::Game;
use dealer::game_event::GameEvent;
use dealer::house::BotKind;
use dealer::observe::{GameOutputs, Observer};
use dealer::rules::GameRules;
use dealer::runner::{stop_signal, RunnerOptions, StopHandle, StopSignal};
use dealer::seat::{CheckPolicy, HttpSettings, PlayerEndpoint};
use dealer::tournament::{
    Entrant, GameContext, ObserverFactory, RunEnd, RunResults, Tournament, TournamentSettings,
};
use shared::protocol::Action;
use std::io;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use support::misbehaving::{spawn_player_with, Misbehaviour, PlayerOptions};

fn bot(name: &str, kind: &str) -> Entrant {
    Entrant::bot(name, kind.parse::<BotKind>().unwrap())
}

fn settings(out_dir: &Path, games: u32, seed: u64) -> TournamentSettings {
    TournamentSettings {
        game: GameRules {
            hand_limit: Some(40),
            ..GameRules::default()
        },
        http: HttpSettings::with_request_timeout(Duration::from_millis(300)),
        games,
        seed,
        parallel: 1,
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

fn read_results(path: &Path) -> (RunResults, serde_json::Value) {
    let text = std::fs::read_to_string(path).unwrap();
    (
        serde_json::from_str(&text).unwrap(),
        serde_json::from_str(&text).unwrap(),
    )
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
async fn a_game_in_progress_at_a_stop_is_listed_as_interrupted() {
    let out = tempfile::tempdir().unwrap();
    let (handle, signal) = stop_signal();
    let factory: ObserverFactory = Arc::new(move |context: &GameContext<'_>| {
        let mut observers = GameOutputs::create(context.dir, &context.setup.players)?;
        if context.number == 2 {
            observers.push(Box::new(StopAt {
                hand: 3,
                handle: handle.clone(),
            }));
        }
        Ok(observers)
    });
    let entrants = vec![
        bot("station", "calling-station"),
        bot("raiser", "raiser"),
        bot("folder", "folder"),
    ];
    let report = Tournament::new(entrants, settings(out.path(), 3, 5))
        .unwrap()
        .with_observers(factory)
        .run(&signal)
        .await
        .unwrap();
    assert_eq!(report.end, RunEnd::Stopped);
    let (results, _) = read_results(&report.results_path);
    assert_eq!(results.games.len(), 1);
    assert_eq!(results.interrupted.len(), 1, "{:?}", results.interrupted);
    let interrupted = &results.interrupted[0];
    assert_eq!(interrupted.game, 2);
    assert_eq!(interrupted.dir, "game-2");
    assert_eq!(interrupted.hands_played, Some(3));
    assert_eq!(
        interrupted.reason,
        "stopped by the user (Ctrl-C or SIGTERM)"
    );
    // Its folder holds a closed, valid viewer log.
    let log = std::fs::read_to_string(GameOutputs::viewer_log_path(
        &out.path().join(&interrupted.dir),
    ))
    .unwrap();
    let entries: serde_json::Value = serde_json::from_str(&log).unwrap();
    assert!(entries
        .as_array()
        .is_some_and(|entries| !entries.is_empty()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spec_6_failed_showdowns_are_warnings_in_results_json() {
    let out = tempfile::tempdir().unwrap();
    let failing = spawn_player_with(
        Misbehaviour::Status(500),
        PlayerOptions {
            misbehave_on: &[Action::Showdown],
            ..PlayerOptions::default()
        },
    )
    .await;
    let entrants = vec![
        bot("station", "calling-station"),
        bot("raiser", "raiser"),
        Entrant::http("no-showdown", PlayerEndpoint::parse(failing.url()).unwrap()),
    ];
    let report = Tournament::new(entrants, settings(out.path(), 1, 11))
        .unwrap()
        .run(&StopSignal::never())
        .await
        .unwrap();
    assert_eq!(report.end, RunEnd::Complete);
    let (results, raw) = read_results(&report.results_path);
    let game = &results.games[0];
    assert!(game.result.bans.is_empty(), "a failed showdown never bans");
    let warnings = &game.showdown_warnings;
    assert_eq!(warnings.len() as u64, game.result.hands_played);
    let seat = game
        .result
        .players
        .iter()
        .position(|name| name == "no-showdown")
        .unwrap();
    for (round, warning) in warnings.iter().enumerate() {
        assert_eq!(warning.round, round as u64);
        assert_eq!(
            (warning.name.as_str(), warning.seat, warning.action),
            ("no-showdown", seat, Action::Showdown)
        );
        assert_eq!(warning.reason, "status 500");
    }
    assert_eq!(
        raw["games"][0]["showdown_warnings"][0]["action"],
        "showdown"
    );
    failing.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeds_are_strings_and_totals_count_places() {
    let out = tempfile::tempdir().unwrap();
    let seed = 17_871_781_140_237_706_511;
    let entrants = vec![
        bot("station", "calling-station"),
        bot("raiser", "raiser"),
        bot("all-in", "all-in"),
    ];
    let report = Tournament::new(entrants, settings(out.path(), 2, seed))
        .unwrap()
        .run(&StopSignal::never())
        .await
        .unwrap();
    let (results, raw) = read_results(&report.results_path);
    assert_eq!(raw["seed"], "17871781140237706511");
    assert_eq!(results.seed, seed);
    for (index, game) in results.games.iter().enumerate() {
        assert_eq!(raw["games"][index]["seed"], game.result.seed.to_string());
    }
    let places =
        |pick: fn(&dealer::tournament::Total) -> u32| results.totals.iter().map(pick).sum::<u32>();
    assert_eq!(places(|t| t.first_places), 2);
    assert_eq!(places(|t| t.second_places), 2);
    assert_eq!(places(|t| t.third_places), 2);
    assert!(raw["totals"][0].get("seconds").is_none());
    assert!(raw["totals"][0].get("second_places").is_some());
}
