//! The runner plays one sit'n'go: requests in engine order, `showdown` to every player after
//! every hand, `version` retried while it fails, `check` polling and absent players, observers
//! in true order, `time_used`, the reproducible clock, and stopping.

use crate::runner_support;
use crate::support;

use dealer::engine::GameSetup;
use dealer::game_event::GameEvent;
use dealer::observe::Observer;
use dealer::rules::GameRules;
use dealer::runner::{
    run_game, stop_signal, AbsentPolicy, Clock, RunError, RunnerOptions, StopHandle, StopSignal,
};
use dealer::seat::{
    CheckPolicy, HttpClient, HttpSettings, InProcessSeat, PlayerEndpoint, PlayerSeat,
};
use runner_support::{Failing, Recorder, Seen};
use shared::protocol::Action;
use shared::{Chips, Seat};
use std::time::{Duration, Instant, UNIX_EPOCH};
use support::misbehaving::{spawn_player, spawn_player_with, Misbehaviour, PlayerOptions};

const TIMEOUT: Duration = Duration::from_millis(300);

fn bot(kind: &str) -> PlayerSeat {
    let kind: bots::BotKind = kind.parse().expect("a known bot kind");
    PlayerSeat::from(InProcessSeat::new(kind.build(0)))
}

fn client() -> HttpClient {
    HttpClient::new(HttpSettings::with_request_timeout(TIMEOUT)).unwrap()
}

fn http(client: &HttpClient, url: &str) -> PlayerSeat {
    PlayerSeat::from(client.seat(PlayerEndpoint::parse(url).unwrap()))
}

fn setup(names: &[&str], seed: u64, hand_limit: Option<u64>) -> GameSetup {
    let config = GameRules {
        hand_limit,
        ..GameRules::default()
    };
    GameSetup::new(config, names.iter().map(|n| n.to_string()).collect(), seed)
}

fn options() -> RunnerOptions {
    RunnerOptions {
        check: CheckPolicy {
            deadline: Duration::from_millis(400),
            retry_interval: Duration::from_millis(50),
        },
        ..RunnerOptions::default()
    }
}

fn on(actions: &'static [Action]) -> PlayerOptions {
    PlayerOptions {
        misbehave_on: actions,
        ..PlayerOptions::default()
    }
}

#[test]
fn the_game_future_is_send() {
    fn assert_send<T: Send>(_: &T) {}
    let options = RunnerOptions::default();
    let stop = StopSignal::never();
    let future = run_game(setup(&["a", "b"], 1, None), vec![], vec![], &options, &stop);
    assert_send(&future);
}

#[tokio::test]
async fn spec_3_in_process_game_in_engine_order_with_showdown_to_everyone() {
    let recorder = Recorder::new();
    let seats = vec![bot("calling-station"), bot("raiser"), bot("random")];
    let outcome = run_game(
        setup(&["station", "raiser", "random"], 11, None),
        seats,
        vec![recorder.boxed()],
        &options(),
        &StopSignal::never(),
    )
    .await
    .expect("the game completes");
    let result = &outcome.result;
    assert_eq!(result.ranking.len(), 3);
    assert_eq!(result.points.iter().sum::<u32>(), 8);
    let total: u64 = result.final_stacks.iter().map(|c| c.get()).sum();
    assert_eq!(
        total + result.chips_banned.get(),
        3000,
        "chips are conserved"
    );
    assert!(result.bans.is_empty(), "house bots never get banned");

    let seen = recorder.seen();
    // check and version come first, then the game starts.
    let first_event = seen
        .iter()
        .position(|s| matches!(s, Seen::Event(_)))
        .unwrap();
    let before: Vec<Action> = seen[..first_event]
        .iter()
        .map(|s| match s {
            Seen::Exchange(e) => e.action,
            other => panic!("not an exchange before the first event: {other:?}"),
        })
        .collect();
    assert_eq!(
        before,
        [
            Action::Check,
            Action::Check,
            Action::Check,
            Action::Version,
            Action::Version,
            Action::Version
        ]
    );
    assert!(matches!(
        seen[first_event],
        Seen::Event(GameEvent::GameStarted { .. })
    ));
    assert!(matches!(
        seen.last(),
        Some(Seen::Finish { finished: true, .. })
    ));

    // Every bet_request exchange is followed at once by the engine's reading of its answer.
    let mut bet_requests = 0;
    for (index, item) in seen.iter().enumerate() {
        if let Seen::Exchange(exchange) = item {
            if exchange.action == Action::BetRequest {
                bet_requests += 1;
                assert!(exchange.failure.is_none());
                let state = exchange.state_json.as_deref().expect("the document sent");
                assert!(state.contains(r#""in_action":"#));
                match &seen[index + 1] {
                    Seen::Event(GameEvent::BetPlaced { seat, .. }) => {
                        assert_eq!(*seat, exchange.seat)
                    }
                    other => panic!("after a bet_request: {other:?}"),
                }
            }
        }
    }
    assert_eq!(
        bet_requests,
        outcome.seats.iter().map(|s| s.bet_requests).sum::<u64>()
    );

    // After every hand, every player (out ones too) gets showdown before the next hand starts.
    let mut showdowns_this_hand: Vec<Seat> = Vec::new();
    let mut hands = 0;
    for item in &seen {
        match item {
            Seen::Event(GameEvent::HandStarted { round, .. }) => {
                if *round > 0 {
                    assert_eq!(showdowns_this_hand, [Seat(0), Seat(1), Seat(2)]);
                }
                showdowns_this_hand.clear();
                hands += 1;
            }
            Seen::Exchange(exchange) if exchange.action == Action::Showdown => {
                let state = exchange.state_json.as_deref().unwrap();
                assert!(!state.contains("in_action"));
                showdowns_this_hand.push(exchange.seat);
            }
            Seen::Exchange(exchange) if exchange.action == Action::BetRequest => {
                assert!(showdowns_this_hand.is_empty(), "a request before showdown");
            }
            _ => {}
        }
    }
    assert_eq!(showdowns_this_hand, [Seat(0), Seat(1), Seat(2)]);
    assert_eq!(hands, result.hands_played);
    let versions: Vec<&str> = outcome.seats.iter().map(|s| s.version.as_str()).collect();
    assert_eq!(versions, ["calling station 1", "raiser 1", "random 1"]);
    assert!(outcome.seats.iter().all(|s| s.absent.is_none()));
    assert!(outcome.observer_failures.is_empty());
}

#[tokio::test]
async fn spec_2_time_used_adds_up_bet_request_latencies_only() {
    let healthy = [
        spawn_player(Misbehaviour::Healthy).await,
        spawn_player(Misbehaviour::Healthy).await,
    ];
    let client = client();
    let seats = vec![
        http(&client, healthy[0].url()),
        http(&client, healthy[1].url()),
        bot("raiser"),
    ];
    let recorder = Recorder::new();
    let outcome = run_game(
        setup(&["h0", "h1", "raiser"], 3, Some(4)),
        seats,
        vec![recorder.boxed()],
        &options(),
        &StopSignal::never(),
    )
    .await
    .unwrap();
    for (seat, player) in healthy.iter().enumerate() {
        let exchanges: Vec<_> = recorder
            .exchanges()
            .into_iter()
            .filter(|e| e.seat == Seat(seat))
            .collect();
        let mut expected = 0;
        for exchange in &exchanges {
            assert!(exchange.failure.is_none(), "{exchange:?}");
            assert!(exchange.sent_at > UNIX_EPOCH);
            // The observer sees the game before the exchange is counted.
            assert_eq!(exchange.time_used_in_game, expected);
            if exchange.action == Action::BetRequest {
                let sent: shared::GameState =
                    shared::GameState::from_json(exchange.sent_json.as_deref().unwrap()).unwrap();
                assert_eq!(sent.players[seat].time_used, Some(expected));
                assert_eq!(exchange.state_json, exchange.sent_json);
                expected += exchange.latency_us;
            }
        }
        assert!(exchanges.iter().any(|e| e.action == Action::Showdown));
        assert!(expected > 0);
        assert_eq!(outcome.seats[seat].time_used_us, expected);
        assert_eq!(outcome.seats[seat].version, "misbehaving test player");
        assert_eq!(outcome.seats[seat].address, player.url());
    }
    for player in healthy {
        player.stop().await;
    }
}

#[tokio::test]
async fn reproducible_clock_zeroes_every_time_value() {
    let healthy = spawn_player(Misbehaviour::Healthy).await;
    let client = client();
    let recorder = Recorder::new();
    let options = RunnerOptions {
        clock: Clock::Reproducible,
        ..options()
    };
    let outcome = run_game(
        setup(&["h", "raiser"], 5, Some(3)),
        vec![http(&client, healthy.url()), bot("raiser")],
        vec![recorder.boxed()],
        &options,
        &StopSignal::never(),
    )
    .await
    .unwrap();
    let exchanges = recorder.exchanges();
    assert!(exchanges.len() > 6);
    for exchange in exchanges {
        assert_eq!(exchange.sent_at, UNIX_EPOCH);
        assert_eq!(exchange.latency_us, 0);
        assert_eq!(exchange.time_used_in_game, 0);
    }
    assert!(outcome.seats.iter().all(|seat| seat.time_used_us == 0));
    healthy.stop().await;
}

#[tokio::test]
async fn a_failing_observer_is_reported_once_and_not_called_again() {
    let failing = Failing::new(5);
    let recorder = Recorder::new();
    let observers: Vec<Box<dyn Observer>> = vec![Box::new(failing.clone()), recorder.boxed()];
    let outcome = run_game(
        setup(&["a", "b"], 9, Some(5)),
        vec![bot("calling-station"), bot("raiser")],
        observers,
        &options(),
        &StopSignal::never(),
    )
    .await
    .unwrap();
    assert_eq!(failing.calls(), 5, "never called after its failure");
    assert_eq!(outcome.observer_failures.len(), 1);
    let failure = &outcome.observer_failures[0];
    assert_eq!(failure.observer, 0);
    assert_eq!(failure.error, "disk full (on purpose)");
    assert!(failure.to_string().contains("disk full"));
    assert!(matches!(
        recorder.seen().last(),
        Some(Seen::Finish { finished: true, .. })
    ));
}

#[tokio::test]
async fn spec_7_absent_players_sit_out_by_default() {
    let healthy = spawn_player(Misbehaviour::Healthy).await;
    let refusing = spawn_player(Misbehaviour::RefusesConnections).await;
    let client = client();
    let recorder = Recorder::new();
    let logs_dir = tempfile::tempdir().unwrap();
    let names = ["h", "down", "raiser"];
    let player_logs = dealer::observe::PlayerLogs::create(logs_dir.path(), &names).unwrap();
    let outcome = run_game(
        setup(&names, 21, Some(6)),
        vec![
            http(&client, healthy.url()),
            http(&client, refusing.url()),
            bot("raiser"),
        ],
        vec![recorder.boxed(), Box::new(player_logs)],
        &options(),
        &StopSignal::never(),
    )
    .await
    .unwrap();
    assert_eq!(
        outcome.seats[1].absent.as_deref(),
        Some("connection refused")
    );
    assert_eq!(outcome.seats[1].version, "Unknown");
    let result = &outcome.result;
    assert_eq!(result.ranking.last(), Some(&Seat(1)), "ranked last");
    assert_eq!(result.final_stacks[1], Chips::ZERO);
    assert!(result.bans.is_empty());
    let total: u64 = result.final_stacks.iter().map(|c| c.get()).sum();
    assert_eq!(total, 2000, "the absent player never had chips");
    // It was asked check until the deadline, and nothing else.
    let to_absent: Vec<_> = recorder
        .exchanges()
        .into_iter()
        .filter(|e| e.seat == Seat(1))
        .collect();
    assert!(to_absent.len() >= 2);
    assert!(to_absent
        .iter()
        .all(|e| e.action == Action::Check && e.failure.as_deref() == Some("connection refused")));
    assert!(result.hands_played > 0);
    // Its log holds the check attempts and no empty `== round N ==` heading (issue 10); the
    // players who played have one heading per hand.
    let paths = dealer::observe::PlayerLogs::paths(logs_dir.path(), &names);
    let log = |seat: usize| std::fs::read_to_string(&paths[seat]).unwrap();
    assert!(log(1).contains("check"), "{}", log(1));
    assert!(!log(1).contains("== round"), "{}", log(1));
    let headings = log(0).matches("\n== round ").count() as u64;
    assert_eq!(headings, result.hands_played, "{}", log(0));
    healthy.stop().await;
}

#[tokio::test]
async fn spec_7_absent_players_can_fail_the_game() {
    let refusing = spawn_player(Misbehaviour::RefusesConnections).await;
    let client = client();
    let options = RunnerOptions {
        absent: AbsentPolicy::Fail,
        ..options()
    };
    let recorder = Recorder::new();
    let error = run_game(
        setup(&["raiser", "down"], 21, None),
        vec![bot("raiser"), http(&client, refusing.url())],
        vec![recorder.boxed()],
        &options,
        &StopSignal::never(),
    )
    .await
    .unwrap_err();
    assert!(matches!(error, RunError::PlayersDown { .. }));
    assert_eq!(
        error.to_string(),
        "1 player not up after 400 ms: down (connection refused)"
    );
    // The outputs opened for the game are still closed properly.
    recorder.assert_finished_unfinished_after(0);
}

#[tokio::test]
async fn spec_7_a_game_needs_two_players_up() {
    let down = [
        spawn_player(Misbehaviour::RefusesConnections).await,
        spawn_player(Misbehaviour::RefusesConnections).await,
    ];
    let client = client();
    let error = run_game(
        setup(&["raiser", "d1", "d2"], 21, None),
        vec![
            bot("raiser"),
            http(&client, down[0].url()),
            http(&client, down[1].url()),
        ],
        vec![],
        &options(),
        &StopSignal::never(),
    )
    .await
    .unwrap_err();
    assert!(matches!(error, RunError::TooFewUp { up: 1, .. }), "{error}");
}

#[tokio::test]
async fn spec_6_absent_players_seated_anyway_are_banned_at_their_first_bet() {
    let refusing = spawn_player(Misbehaviour::RefusesConnections).await;
    let client = client();
    let options = RunnerOptions {
        absent: AbsentPolicy::Play,
        ..options()
    };
    let outcome = run_game(
        setup(&["s1", "s2", "down"], 4, None),
        vec![
            bot("calling-station"),
            bot("calling-station"),
            http(&client, refusing.url()),
        ],
        vec![],
        &options,
        &StopSignal::never(),
    )
    .await
    .unwrap();
    assert!(outcome.seats[2].absent.is_none());
    let bans = &outcome.result.bans;
    assert_eq!(bans.len(), 1);
    assert_eq!(bans[0].seat, Seat(2));
    assert_eq!(bans[0].reason, "connection refused");
    assert_eq!(outcome.seats[2].bet_requests, 1);
}

#[tokio::test]
async fn spec_7_version_is_retried_while_it_fails_and_shown_once_known() {
    let flaky = spawn_player_with(
        Misbehaviour::FailsThenHealthy {
            times: 2,
            failure: Box::new(Misbehaviour::Status(500)),
        },
        on(&[Action::Version]),
    )
    .await;
    let client = client();
    let recorder = Recorder::new();
    let outcome = run_game(
        setup(&["flaky", "station"], 8, Some(6)),
        vec![http(&client, flaky.url()), bot("calling-station")],
        vec![recorder.boxed()],
        &options(),
        &StopSignal::never(),
    )
    .await
    .unwrap();
    let versions: Vec<(u64, Option<String>)> = recorder
        .exchanges()
        .into_iter()
        .filter(|e| e.seat == Seat(0) && e.action == Action::Version)
        .map(|e| (e.round, e.failure))
        .collect();
    assert_eq!(
        versions,
        [
            (0, Some("status 500".to_string())),
            (1, Some("status 500".to_string())),
            (2, None)
        ]
    );
    for exchange in recorder.exchanges() {
        if exchange.action == Action::BetRequest && exchange.seat == Seat(1) {
            let state = shared::GameState::from_json(&exchange.state_json.unwrap()).unwrap();
            let shown = &state.players[0].version;
            if exchange.round < 2 {
                assert_eq!(shown, "Unknown");
            } else {
                assert_eq!(shown, "misbehaving test player");
            }
        }
    }
    assert_eq!(outcome.seats[0].version, "misbehaving test player");
    assert_eq!(outcome.seats[1].version, "calling station 1");
    flaky.stop().await;
}

#[tokio::test]
async fn spec_5_showdown_goes_to_every_player_concurrently() {
    let delay = Duration::from_millis(250);
    let mut players = Vec::new();
    for _ in 0..4 {
        players.push(
            spawn_player_with(Misbehaviour::AnswersAfter(delay), on(&[Action::Showdown])).await,
        );
    }
    let client =
        HttpClient::new(HttpSettings::with_request_timeout(Duration::from_secs(2))).unwrap();
    let seats = players.iter().map(|p| http(&client, p.url())).collect();
    let recorder = Recorder::new();
    let started = Instant::now();
    let outcome = run_game(
        setup(&["a", "b", "c", "d"], 2, Some(2)),
        seats,
        vec![recorder.boxed()],
        &options(),
        &StopSignal::never(),
    )
    .await
    .unwrap();
    let elapsed = started.elapsed();
    assert_eq!(outcome.result.hands_played, 2);
    let showdowns: Vec<_> = recorder
        .exchanges()
        .into_iter()
        .filter(|e| e.action == Action::Showdown)
        .collect();
    assert_eq!(showdowns.len(), 8);
    assert!(showdowns
        .iter()
        .all(|e| e.failure.is_none() && e.latency_us >= delay.as_micros() as u64));
    // One after the other, two hands of four showdowns would take 8 × 250 ms.
    assert!(
        elapsed < delay * 6,
        "showdowns were not concurrent: {elapsed:?}"
    );
    for player in players {
        player.stop().await;
    }
}

/// Stops the game when it sees hand `at` start.
struct StopAt {
    at: u64,
    handle: StopHandle,
}

impl Observer for StopAt {
    fn on_event(&mut self, event: &GameEvent, _game: &dealer::engine::Game) -> std::io::Result<()> {
        if matches!(event, GameEvent::HandStarted { round, .. } if *round == self.at) {
            self.handle.stop();
        }
        Ok(())
    }
}

#[tokio::test]
async fn a_stopped_game_finishes_its_observers_and_says_how_far_it_got() {
    let (handle, signal) = stop_signal();
    let recorder = Recorder::new();
    let observers: Vec<Box<dyn Observer>> =
        vec![Box::new(StopAt { at: 3, handle }), recorder.boxed()];
    let error = run_game(
        setup(&["a", "b", "c"], 1, None),
        vec![
            bot("calling-station"),
            bot("calling-station"),
            bot("folder"),
        ],
        observers,
        &options(),
        &signal,
    )
    .await
    .unwrap_err();
    assert_eq!(error, RunError::Stopped { hands_played: 3 });
    recorder.assert_finished_unfinished_after(3);
}

#[tokio::test]
async fn a_game_stopped_while_its_players_are_checked_still_finishes_its_observers() {
    // A player that never answers its check keeps the game in its up-check until the stop.
    let hanging = spawn_player_with(Misbehaviour::NeverAnswers, on(&[Action::Check])).await;
    let client =
        HttpClient::new(HttpSettings::with_request_timeout(Duration::from_secs(30))).unwrap();
    let (handle, signal) = stop_signal();
    let recorder = Recorder::new();
    let options = RunnerOptions {
        check: CheckPolicy {
            deadline: Duration::from_secs(30),
            ..options().check
        },
        ..options()
    };
    let game = run_game(
        setup(&["hangs", "station"], 1, None),
        vec![http(&client, hanging.url()), bot("calling-station")],
        vec![recorder.boxed()],
        &options,
        &signal,
    );
    let stopper = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        handle.stop();
    };
    let (result, ()) = tokio::join!(game, stopper);
    assert_eq!(result.unwrap_err(), RunError::Stopped { hands_played: 0 });
    recorder.assert_finished_unfinished_after(0);
}

#[tokio::test]
async fn a_stop_cuts_a_request_in_flight() {
    let hanging = spawn_player(Misbehaviour::NeverAnswers).await;
    let client =
        HttpClient::new(HttpSettings::with_request_timeout(Duration::from_secs(30))).unwrap();
    let (handle, signal) = stop_signal();
    let options = options();
    let game = run_game(
        setup(&["hangs", "station"], 1, None),
        vec![http(&client, hanging.url()), bot("calling-station")],
        vec![],
        &options,
        &signal,
    );
    let started = Instant::now();
    let stopper = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        handle.stop();
    };
    let (result, ()) = tokio::join!(game, stopper);
    assert!(matches!(result, Err(RunError::Stopped { .. })));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        hanging
            .wait_until_no_open_connections(Duration::from_secs(5))
            .await,
        "the abandoned request's connection is closed"
    );
}

#[tokio::test]
async fn seat_count_must_match_the_players() {
    let error = run_game(
        setup(&["a", "b"], 1, None),
        vec![bot("raiser")],
        vec![],
        &options(),
        &StopSignal::never(),
    )
    .await
    .unwrap_err();
    assert_eq!(error.to_string(), "1 seats given for 2 players");
}
