//! Waiting for players before the first hand (`check` polling, spec §7) and asking versions
//! (spec §6, §7).

use crate::support;

use dealer::seat::{
    ask_versions, wait_until_up, CheckPolicy, HttpClient, HttpSettings, InProcessSeat, Player,
    PlayerEndpoint, PlayerSeat, PlayerVersion, SeatAttendance, SeatFailure, VersionPolicy,
};
use shared::protocol::Action;
use shared::{Chips, GameState};
use std::sync::Arc;
use std::time::Duration;
use support::misbehaving::{spawn_player, spawn_player_with, Misbehaviour, PlayerOptions};
use tokio::time::Instant;

const SLACK: Duration = Duration::from_millis(1500);

struct Folder;

impl Player for Folder {
    fn bet_request(&self, _state: &GameState) -> Chips {
        Chips(0)
    }
    fn version(&self) -> String {
        "folder".into()
    }
}

fn http_seat(client: &HttpClient, url: &str) -> PlayerSeat {
    PlayerSeat::from(client.seat(PlayerEndpoint::parse(url).unwrap()))
}

fn misbehaving_on(action: Action) -> PlayerOptions {
    PlayerOptions {
        misbehave_on: match action {
            Action::Check => &[Action::Check],
            Action::Version => &[Action::Version],
            Action::BetRequest => &[Action::BetRequest],
            Action::Showdown => &[Action::Showdown],
        },
        ..PlayerOptions::default()
    }
}

#[tokio::test]
async fn spec_7_every_player_up_at_once() {
    let healthy = spawn_player(Misbehaviour::Healthy).await;
    let client = HttpClient::new(HttpSettings::default()).unwrap();
    let seats = [
        http_seat(&client, healthy.url()),
        PlayerSeat::from(InProcessSeat::new(Arc::new(Folder))),
    ];
    let attendance = wait_until_up(&seats, CheckPolicy::default()).await;
    assert!(attendance.all_up());
    assert_eq!(attendance.up().collect::<Vec<_>>(), vec![0, 1]);
    assert!(matches!(
        attendance.seats[0],
        SeatAttendance::Up { attempts: 1, .. }
    ));
    healthy.stop().await;
}

#[tokio::test]
async fn spec_7_a_player_that_comes_up_late_is_waited_for() {
    let late = spawn_player_with(
        Misbehaviour::FailsThenHealthy {
            times: 3,
            failure: Box::new(Misbehaviour::Status(503)),
        },
        misbehaving_on(Action::Check),
    )
    .await;
    let client = HttpClient::new(HttpSettings::default()).unwrap();
    let seats = [http_seat(&client, late.url())];
    let policy = CheckPolicy {
        deadline: Duration::from_secs(5),
        retry_interval: Duration::from_millis(20),
    };
    let attendance = wait_until_up(&seats, policy).await;
    assert_eq!(attendance.up().count(), 1);
    assert!(matches!(
        attendance.seats[0],
        SeatAttendance::Up { attempts: 4, .. }
    ));
    late.stop().await;
}

#[tokio::test]
async fn spec_7_absent_players_are_reported_by_the_deadline() {
    let refusing = spawn_player(Misbehaviour::RefusesConnections).await;
    let mute = spawn_player_with(Misbehaviour::NeverAnswers, misbehaving_on(Action::Check)).await;
    let healthy = spawn_player(Misbehaviour::Healthy).await;
    // The request timeout (2 s) is longer than the polling deadline: the deadline cuts the
    // check in flight.
    let client = HttpClient::new(HttpSettings::default()).unwrap();
    let seats = [
        http_seat(&client, refusing.url()),
        http_seat(&client, mute.url()),
        http_seat(&client, healthy.url()),
    ];
    let policy = CheckPolicy {
        deadline: Duration::from_millis(300),
        retry_interval: Duration::from_millis(50),
    };
    let started = Instant::now();
    let attendance = wait_until_up(&seats, policy).await;
    assert!(started.elapsed() < policy.deadline + SLACK);
    assert!(!attendance.all_up());
    assert_eq!(attendance.up().collect::<Vec<_>>(), vec![2]);
    let down: Vec<_> = attendance.down().collect();
    assert_eq!(down.len(), 2);
    assert_eq!(down[0], (0, &SeatFailure::ConnectionRefused));
    assert_eq!(down[1].0, 1);
    assert!(down[1].1.is_timeout(), "{}", down[1].1);
    match &attendance.seats[0] {
        SeatAttendance::Down { attempts, .. } => assert!(*attempts > 1, "refused: retried"),
        other => panic!("{other:?}"),
    }
    // The check cut by the deadline left no connection behind.
    drop(seats);
    assert!(
        mute.wait_until_no_open_connections(Duration::from_secs(2))
            .await
    );
    for player in [refusing, mute, healthy] {
        player.stop().await;
    }
}

#[tokio::test]
async fn spec_7_versions_are_asked_until_known_then_never_again() {
    let flaky = spawn_player_with(
        Misbehaviour::FailsThenHealthy {
            times: 1,
            failure: Box::new(Misbehaviour::Status(500)),
        },
        PlayerOptions {
            version: "flaky 2.0 ".into(),
            ..misbehaving_on(Action::Version)
        },
    )
    .await;
    let healthy = spawn_player(Misbehaviour::Healthy).await;
    let client = HttpClient::new(HttpSettings::default()).unwrap();
    let seats = [
        http_seat(&client, flaky.url()),
        http_seat(&client, healthy.url()),
        PlayerSeat::from(InProcessSeat::new(Arc::new(Folder))),
    ];
    let mut versions = vec![PlayerVersion::new(); seats.len()];
    let policy = VersionPolicy::default();

    let replies = ask_versions(seats.iter().zip(versions.iter_mut()), &policy).await;
    assert!(replies.iter().all(Option::is_some));
    assert_eq!(versions[0].shown(), "Unknown");
    assert_eq!(versions[0].last_failure(), Some(&SeatFailure::Status(500)));
    assert_eq!(versions[1].shown(), "misbehaving test player");
    assert_eq!(versions[2].shown(), "folder");

    let replies = ask_versions(seats.iter().zip(versions.iter_mut()), &policy).await;
    assert!(replies[0].is_some() && replies[1].is_none() && replies[2].is_none());
    assert_eq!(versions[0].shown(), "flaky 2.0 ");

    let replies = ask_versions(seats.iter().zip(versions.iter_mut()), &policy).await;
    assert!(replies.iter().all(Option::is_none));
    assert_eq!(flaky.requests(), 2);
    assert_eq!(healthy.requests(), 1);
    flaky.stop().await;
    healthy.stop().await;
}
