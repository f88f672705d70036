//! Sit'n'gos with misbehaving players (spec §6, issue 4 "Robustness"): every game completes,
//! every misbehaving player is banned with its own reason (or warned, in forgiving mode),
//! chips are conserved exactly (less banned chips), no task or connection is left behind, and
//! the healthy players are unaffected.
//!
//! The players run on a runtime of their own; the dealer runs on a dedicated runtime whose
//! live task count must fall back to zero once the games are over.

use crate::runner_support;
use crate::support;

use dealer::engine::GameSetup;
use dealer::rules::{BadAnswerPolicy, GameRules};
use dealer::runner::{run_game, AbsentPolicy, GameOutcome, RunnerOptions, StopSignal};
use dealer::seat::{
    CheckPolicy, HttpClient, HttpSettings, InProcessSeat, PlayerEndpoint, PlayerSeat,
};
use player::RunningServer;
use runner_support::Recorder;
use shared::protocol::Action;
use shared::Seat;
use std::time::{Duration, Instant};
use support::misbehaving::{spawn_player, MisbehavingPlayer, Misbehaviour};
use tokio::runtime::Runtime;

const TIMEOUT: Duration = Duration::from_millis(300);
const STACK: u64 = 1000;

fn settings() -> HttpSettings {
    HttpSettings::with_request_timeout(TIMEOUT)
}

/// The issue's list: every misbehaviour, plus one that misbehaves then is healthy.
fn misbehaviours() -> Vec<Misbehaviour> {
    let mut all = Misbehaviour::catalogue(TIMEOUT);
    all.push(Misbehaviour::FailsThenHealthy {
        times: 1,
        failure: Box::new(Misbehaviour::Status(503)),
    });
    all
}

fn runtime(threads: usize) -> Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()
        .expect("a runtime")
}

/// The healthy players: house bots served over HTTP by our SDK.
const HEALTHY_HTTP: [&str; 3] = ["calling-station", "raiser", "random"];

struct Table {
    names: Vec<String>,
    seats: Vec<PlayerSeat>,
    /// `Some` for the misbehaving seats.
    misbehaviours: Vec<Option<Misbehaviour>>,
}

fn table(
    client: &HttpClient,
    misbehaving: &[&MisbehavingPlayer],
    healthy: &[RunningServer],
) -> Table {
    let mut table = Table {
        names: Vec::new(),
        seats: Vec::new(),
        misbehaviours: Vec::new(),
    };
    // Interleave, so that bans happen between healthy players' turns.
    for (index, player) in misbehaving.iter().enumerate() {
        table.names.push(player.misbehaviour().label());
        table.seats.push(PlayerSeat::from(
            client.seat(PlayerEndpoint::parse(player.url()).unwrap()),
        ));
        table
            .misbehaviours
            .push(Some(player.misbehaviour().clone()));
        if let Some(server) = healthy.get(index) {
            table.names.push(format!("healthy-{}", HEALTHY_HTTP[index]));
            table.seats.push(PlayerSeat::from(
                client.seat(PlayerEndpoint::parse(&server.url()).unwrap()),
            ));
            table.misbehaviours.push(None);
        }
    }
    table.names.push("healthy-in-process".into());
    let bot = "calling-station".parse::<dealer::house::BotKind>().unwrap();
    table
        .seats
        .push(PlayerSeat::from(InProcessSeat::new(bot.build(1))));
    table.misbehaviours.push(None);
    table
}

fn options() -> RunnerOptions {
    RunnerOptions {
        check: CheckPolicy {
            deadline: Duration::from_millis(300),
            retry_interval: Duration::from_millis(50),
        },
        // Seat a player that refuses connections anyway: it must be banned for it.
        absent: AbsentPolicy::Play,
        ..RunnerOptions::default()
    }
}

/// Checks that every answer of a healthy seat was valid and that it was never banned.
fn healthy_unaffected(table: &Table, recorder: &Recorder, outcome: &GameOutcome) {
    for (index, misbehaviour) in table.misbehaviours.iter().enumerate() {
        if misbehaviour.is_some() {
            continue;
        }
        let exchanges: Vec<_> = recorder
            .exchanges()
            .into_iter()
            .filter(|e| e.seat == Seat(index))
            .collect();
        assert!(
            exchanges.iter().any(|e| e.action == Action::BetRequest),
            "{} was asked to bet",
            table.names[index]
        );
        for exchange in &exchanges {
            assert_eq!(
                exchange.failure, None,
                "{} {:?} failed in hand {}",
                table.names[index], exchange.action, exchange.round
            );
        }
        assert!(outcome
            .result
            .bans
            .iter()
            .all(|ban| ban.seat != Seat(index)));
        assert_ne!(outcome.seats[index].version, "Unknown");
    }
}

fn chips(outcome: &GameOutcome) -> u64 {
    outcome.result.final_stacks.iter().map(|c| c.get()).sum()
}

/// Waits until the dealer's runtime runs no task (connections, pool) any more. The deadline
/// is shorter than the pool's idle timeout (3 s), so a pool kept alive by mistake is caught.
fn wait_for_no_task(dealer: &Runtime) {
    let give_up = Instant::now() + Duration::from_secs(2);
    while dealer.metrics().num_alive_tasks() > 0 {
        assert!(
            Instant::now() < give_up,
            "{} tasks still alive on the dealer's runtime",
            dealer.metrics().num_alive_tasks()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn spec_6_sit_n_gos_with_misbehaving_players_complete_and_ban_each_with_its_reason() {
    let players = runtime(2);
    let dealer = runtime(2);
    let misbehaving: Vec<MisbehavingPlayer> = players.block_on(async {
        let mut spawned = Vec::new();
        for misbehaviour in misbehaviours() {
            spawned.push(spawn_player(misbehaviour).await);
        }
        spawned
    });
    let healthy: Vec<RunningServer> = players.block_on(async {
        HEALTHY_HTTP
            .iter()
            .map(|kind| {
                let bot = kind.parse::<dealer::house::BotKind>().unwrap().build(7);
                dealer::house::serve_on_loopback(bot).unwrap()
            })
            .collect()
    });

    let mut banned_reasons = Vec::new();
    // At most 10 seats per table: five misbehaving players and four healthy ones per game.
    for (game, group) in misbehaving.chunks(5).enumerate() {
        let group: Vec<&MisbehavingPlayer> = group.iter().collect();
        let client = HttpClient::new(settings()).unwrap();
        let table = table(&client, &group, &healthy);
        drop(client);
        let config = GameRules::default();
        let setup = GameSetup::new(config, table.names.clone(), 100 + game as u64);
        let recorder = Recorder::new();
        let started = Instant::now();
        let outcome = dealer
            .block_on(run_game(
                setup,
                table.seats.clone(),
                vec![recorder.boxed()],
                &options(),
                &StopSignal::never(),
            ))
            .expect("the game completes");
        let seats = table.names.len() as u64;
        eprintln!(
            "game {game}: {} hands, {} requests in {:?}",
            outcome.result.hands_played,
            outcome.requests,
            started.elapsed()
        );

        // Every misbehaving player banned with its own reason, at its first bet.
        let result = &outcome.result;
        for (index, misbehaviour) in table.misbehaviours.iter().enumerate() {
            let Some(misbehaviour) = misbehaviour else {
                continue;
            };
            let expected = misbehaviour
                .expected_failure(&settings())
                .expect("a misbehaviour fails")
                .to_string();
            let bans: Vec<_> = result
                .bans
                .iter()
                .filter(|b| b.seat == Seat(index))
                .collect();
            assert_eq!(bans.len(), 1, "{} banned once", table.names[index]);
            assert_eq!(bans[0].reason, expected, "{}", table.names[index]);
            assert_eq!(
                outcome.seats[index].bet_requests, 1,
                "{}",
                table.names[index]
            );
            assert_eq!(result.final_stacks[index].get(), 0);
            banned_reasons.push(bans[0].reason.clone());
        }
        assert_eq!(result.bans.len(), group.len());

        // Chips: players × stack − banned chips, exactly.
        let banned: u64 = result.bans.iter().map(|b| b.chips_removed.get()).sum();
        assert_eq!(banned, result.chips_banned.get());
        assert_eq!(chips(&outcome), seats * STACK - banned);
        assert_eq!(result.points.iter().sum::<u32>(), 8);

        healthy_unaffected(&table, &recorder, &outcome);
        drop(table);
    }
    // Every reason of the issue's list appears.
    for needle in [
        "timeout after 300 ms",
        "connection refused",
        "status 500",
        "status 503",
        "body larger than 4096 bytes",
        "connection closed before the response was complete",
        r#"body "" is not a bet"#,
        r#"body "-5" is not a bet"#,
        r#"body "12.5" is not a bet"#,
        r#"body "10\n" is not a bet"#,
        r#"body "{\"bet\":10}" is not a bet"#,
    ] {
        assert!(
            banned_reasons.iter().any(|reason| reason.contains(needle)),
            "no ban for {needle:?} in {banned_reasons:#?}"
        );
    }

    // Nothing left running: no dealer task, no connection held open on any player.
    wait_for_no_task(&dealer);
    players.block_on(async {
        for player in &misbehaving {
            assert!(
                player
                    .wait_until_no_open_connections(Duration::from_secs(5))
                    .await,
                "{} still has {} open connections",
                player.misbehaviour().label(),
                player.open_connections()
            );
        }
        for player in misbehaving {
            player.stop().await;
        }
        for server in healthy {
            let _ = server.stop().await;
        }
    });
}

#[test]
fn spec_6_forgiving_mode_warns_instead_and_the_recovered_player_plays_on() {
    let players = runtime(2);
    let dealer = runtime(2);
    let chosen = vec![
        Misbehaviour::Status(500),
        Misbehaviour::Body(b"10\n"),
        Misbehaviour::RefusesConnections,
        Misbehaviour::FailsThenHealthy {
            times: 2,
            failure: Box::new(Misbehaviour::Body(b"-5")),
        },
    ];
    let misbehaving: Vec<MisbehavingPlayer> = players.block_on(async {
        let mut spawned = Vec::new();
        for misbehaviour in chosen {
            spawned.push(spawn_player(misbehaviour).await);
        }
        spawned
    });
    let healthy: Vec<RunningServer> = players.block_on(async {
        HEALTHY_HTTP[..2]
            .iter()
            .map(|kind| {
                let bot = kind.parse::<dealer::house::BotKind>().unwrap().build(3);
                dealer::house::serve_on_loopback(bot).unwrap()
            })
            .collect()
    });
    let client = HttpClient::new(settings()).unwrap();
    let group: Vec<&MisbehavingPlayer> = misbehaving.iter().collect();
    let table = table(&client, &group, &healthy);
    drop(client);
    let config = GameRules {
        bad_answers: BadAnswerPolicy::Forgive,
        hand_limit: Some(12),
        ..GameRules::default()
    };
    let setup = GameSetup::new(config, table.names.clone(), 5);
    let recorder = Recorder::new();
    let outcome = dealer
        .block_on(run_game(
            setup,
            table.seats.clone(),
            vec![recorder.boxed()],
            &options(),
            &StopSignal::never(),
        ))
        .expect("the game completes");
    let result = &outcome.result;
    assert!(result.bans.is_empty(), "forgiving mode never bans");
    assert_eq!(
        chips(&outcome),
        table.names.len() as u64 * STACK,
        "no chip lost"
    );
    for (index, misbehaviour) in table.misbehaviours.iter().enumerate() {
        let Some(misbehaviour) = misbehaviour else {
            continue;
        };
        let expected = misbehaviour
            .expected_failure(&settings())
            .unwrap()
            .to_string();
        let warnings: Vec<_> = result
            .warnings
            .iter()
            .filter(|w| w.seat == Seat(index))
            .collect();
        assert!(!warnings.is_empty(), "{} warned", table.names[index]);
        assert!(warnings.iter().all(|w| w.reason == expected));
        let bets: Vec<_> = recorder
            .exchanges()
            .into_iter()
            .filter(|e| e.seat == Seat(index) && e.action == Action::BetRequest)
            .collect();
        if let Misbehaviour::FailsThenHealthy { times, .. } = misbehaviour {
            assert_eq!(warnings.len(), *times, "only its first answers were bad");
            assert!(bets.len() > *times, "it kept playing");
            assert!(bets[*times..].iter().all(|e| e.failure.is_none()));
        } else {
            assert_eq!(warnings.len(), bets.len(), "every answer was bad");
        }
    }
    healthy_unaffected(&table, &recorder, &outcome);
    drop(table);
    wait_for_no_task(&dealer);
    players.block_on(async {
        for player in misbehaving {
            player.stop().await;
        }
        for server in healthy {
            let _ = server.stop().await;
        }
    });
}
