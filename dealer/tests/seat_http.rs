//! HTTP seats against real (mis)behaving players on 127.0.0.1 (spec §1, §6).
//!
//! Timing is only ever asserted as an upper bound (deadline + generous slack): a failure must
//! come within the deadline, never "fast enough".

use crate::support;

use dealer::seat::{
    GameEncoder, HttpClient, HttpSeat, HttpSettings, PlayerEndpoint, PlayerSeat, PlayerVersion,
    Reply, SeatFailure, VersionPolicy,
};
use shared::protocol::Action;
use shared::{Chips, GameState};
use std::time::Duration;
use support::misbehaving::{spawn_player, spawn_player_with, Misbehaviour, PlayerOptions};
use tokio::time::Instant;

/// Short deadline so the suite stays fast; the reasons carry it (`timeout after 400 ms`).
const TIMEOUT: Duration = Duration::from_millis(400);
/// Upper-bound slack for a loaded 2-core machine.
const SLACK: Duration = Duration::from_millis(1500);

fn settings() -> HttpSettings {
    HttpSettings::with_request_timeout(TIMEOUT)
}

fn state() -> GameState {
    shared::testing_state()
}

fn seat_for(client: &HttpClient, url: &str) -> HttpSeat {
    client.seat(PlayerEndpoint::parse(url).expect("a valid test URL"))
}

/// One `bet_request` to a fresh player with `misbehaviour`; checks the reason (both the variant
/// the support module predicts and the exact text), the deadline, and that the dealer leaves no
/// connection open behind a failed call.
async fn assert_bet_fails(misbehaviour: Misbehaviour, reason: &str) -> Reply<Chips> {
    let player = spawn_player(misbehaviour.clone()).await;
    let client = HttpClient::new(settings()).unwrap();
    let seat = seat_for(&client, player.url());
    let started = Instant::now();
    let reply = seat.bet_request(&state()).await;
    let elapsed = started.elapsed();

    let failure = reply.failure().expect("a misbehaving answer must fail");
    assert_eq!(
        Some(failure),
        misbehaviour.expected_failure(&settings()).as_ref()
    );
    assert_eq!(failure.to_string(), reason);
    assert!(
        elapsed < TIMEOUT + SLACK,
        "{misbehaviour:?} took {elapsed:?}"
    );
    assert!(reply.latency <= elapsed);
    // Abandoned exchanges (deadline, cap, broken connection) close their connection at once;
    // a complete bad answer may stay in the pool until the client goes.
    if !matches!(
        failure,
        SeatFailure::Status(_) | SeatFailure::InvalidBody(_)
    ) {
        assert!(
            player
                .wait_until_no_open_connections(Duration::from_secs(2))
                .await,
            "{misbehaviour:?}: the dealer left {} connection(s) open",
            player.open_connections()
        );
    }
    drop(seat);
    drop(client);
    assert!(
        player
            .wait_until_no_open_connections(Duration::from_secs(2))
            .await
    );
    player.stop().await;
    reply
}

#[tokio::test]
async fn spec_6_never_answers_is_a_timeout() {
    assert_bet_fails(Misbehaviour::NeverAnswers, "timeout after 400 ms").await;
}

#[tokio::test]
async fn spec_6_answers_after_the_deadline_is_a_timeout() {
    let reply = assert_bet_fails(
        Misbehaviour::AnswersAfter(TIMEOUT + Duration::from_millis(500)),
        "timeout after 400 ms",
    )
    .await;
    assert_eq!(reply.status, None);
    assert!(reply.latency >= TIMEOUT, "tokio timers never fire early");
}

#[tokio::test]
async fn spec_6_refused_connection() {
    let reply = assert_bet_fails(Misbehaviour::RefusesConnections, "connection refused").await;
    assert_eq!((reply.status, reply.body), (None, None));
}

#[tokio::test]
async fn spec_6_error_status() {
    let reply = assert_bet_fails(Misbehaviour::Status(500), "status 500").await;
    assert_eq!(reply.status, Some(500));
    // The error body is kept for the team's log.
    assert_eq!(reply.body_text().as_deref(), Some("misbehaving on purpose"));
    assert_bet_fails(Misbehaviour::Status(302), "status 302").await;
    assert_bet_fails(Misbehaviour::Status(204), "status 204").await;
}

#[tokio::test]
async fn spec_6_empty_body() {
    let reply = assert_bet_fails(
        Misbehaviour::Body(b""),
        r#"body "" is not a bet: the body is empty (only ASCII digits are allowed)"#,
    )
    .await;
    assert_eq!(reply.status, Some(200));
    assert_eq!(
        reply.body_text().as_deref(),
        Some(""),
        "an empty answer, not none"
    );
}

#[tokio::test]
async fn spec_6_negative_body() {
    assert_bet_fails(
        Misbehaviour::Body(b"-5"),
        r#"body "-5" is not a bet: a sign at byte 0 (only ASCII digits are allowed)"#,
    )
    .await;
}

#[tokio::test]
async fn spec_6_decimal_body() {
    assert_bet_fails(
        Misbehaviour::Body(b"12.5"),
        r#"body "12.5" is not a bet: a decimal separator at byte 2 (only ASCII digits are allowed)"#,
    )
    .await;
}

#[tokio::test]
async fn spec_6_trailing_newline() {
    let reply = assert_bet_fails(
        Misbehaviour::Body(b"10\n"),
        r#"body "10\n" is not a bet: whitespace at byte 2 (only ASCII digits are allowed)"#,
    )
    .await;
    assert_eq!(reply.body.as_deref(), Some(&b"10\n"[..]), "the raw body");
    assert_eq!(reply.body_excerpt().as_deref(), Some(r#""10\n""#));
}

#[tokio::test]
async fn spec_6_json_body() {
    assert_bet_fails(
        Misbehaviour::Body(br#"{"bet":10}"#),
        r#"body "{\"bet\":10}" is not a bet: JSON instead of a bare number (only ASCII digits are allowed)"#,
    )
    .await;
}

#[tokio::test]
async fn a_10_mb_body_is_refused_from_its_length_without_reading_it() {
    let player = spawn_player(Misbehaviour::HugeBody {
        bytes: 10 * 1024 * 1024,
    })
    .await;
    let client = HttpClient::new(settings()).unwrap();
    let reply = seat_for(&client, player.url()).bet_request(&state()).await;
    assert_eq!(
        reply.failure().map(ToString::to_string).as_deref(),
        Some("body larger than 4096 bytes")
    );
    assert_eq!(reply.body, None, "nothing of it was kept");
    // The dealer hung up: the player could not push the whole body into the socket.
    assert!(
        player
            .wait_until_no_open_connections(Duration::from_secs(2))
            .await
    );
    assert!(
        player.body_bytes_written() < 10 * 1024 * 1024,
        "{} bytes written",
        player.body_bytes_written()
    );
    player.stop().await;
}

#[tokio::test]
async fn an_endless_body_is_cut_at_the_cap() {
    let reply = assert_bet_fails(Misbehaviour::EndlessBody, "body larger than 4096 bytes").await;
    assert_eq!(reply.body.as_ref().map(|body| body.len()), Some(4096));
}

#[tokio::test]
async fn a_slow_drip_is_cut_by_the_deadline() {
    let reply = assert_bet_fails(
        Misbehaviour::SlowDrip {
            every: Duration::from_millis(200),
        },
        "timeout after 400 ms",
    )
    .await;
    assert_eq!(reply.status, Some(200));
    let received = reply.body.as_ref().map_or(0, |body| body.len());
    assert!(received < 64, "{received} bytes");
}

#[tokio::test]
async fn closing_mid_response() {
    assert_bet_fails(
        Misbehaviour::ClosesMidResponse,
        "connection closed before the response was complete",
    )
    .await;
}

#[tokio::test]
async fn hanging_up_on_a_request_it_read_is_never_sent_again() {
    // The player read the request: a resend would show it the same bet_request twice.
    let player = spawn_player(Misbehaviour::HangsUp).await;
    let client = HttpClient::new(settings()).unwrap();
    let reply = seat_for(&client, player.url()).bet_request(&state()).await;
    assert_eq!(
        reply.failure().map(ToString::to_string).as_deref(),
        Some("connection closed before the response was complete")
    );
    assert_eq!(player.requests(), 1, "never resent");
    assert_eq!(player.accepted_connections(), 1);
    assert_eq!(reply.attempts(), 1);
    assert!(reply.unsent_attempts.is_empty());
    player.stop().await;
}

#[tokio::test]
async fn a_player_that_crashes_mid_game_is_banned_then_refused() {
    let player = spawn_player(Misbehaviour::Crashes).await;
    let client = HttpClient::new(settings()).unwrap();
    let seat = seat_for(&client, player.url());
    // Up and answering before the crash, on a pooled keep-alive connection.
    assert_eq!(seat.check().await.outcome, Ok(()));
    let reply = seat.bet_request(&state()).await;
    assert_eq!(
        reply.failure().map(ToString::to_string).as_deref(),
        Some("connection closed before the response was complete")
    );
    assert_eq!(player.requests(), 2, "check, then one bet_request");
    assert_eq!(
        seat.check().await.outcome,
        Err(SeatFailure::ConnectionRefused)
    );
    player.stop().await;
}

#[tokio::test]
async fn a_stale_keep_alive_connection_does_not_ban() {
    // The player closes each connection right after its answer, as a server whose keep-alive
    // timer fires does. The next request must find a fresh connection: every request reaches
    // the player exactly once, and none fails.
    let player = spawn_player_with(Misbehaviour::AnswersThenCloses, on_every_action()).await;
    let client = HttpClient::new(settings()).unwrap();
    let seat = seat_for(&client, player.url());
    let state = state();
    for round in 1..=5 {
        assert_eq!(seat.check().await.outcome, Ok(()));
        // Long enough for the close to arrive; shorter than any keep-alive timer.
        tokio::time::sleep(Duration::from_millis(20)).await;
        let reply = seat.bet_request(&state).await;
        assert_eq!(reply.outcome, Ok(state.call_amount()), "round {round}");
        assert_eq!(player.requests(), 2 * round, "each request seen once");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(player.accepted_connections(), 10);
    player.stop().await;
}

#[tokio::test]
async fn spec_4_a_bet_too_large_for_64_bits_is_an_all_in_not_a_ban() {
    let reply = {
        let player = spawn_player(Misbehaviour::Body(b"99999999999999999999999")).await;
        let client = HttpClient::new(settings()).unwrap();
        let reply = seat_for(&client, player.url()).bet_request(&state()).await;
        player.stop().await;
        reply
    };
    assert_eq!(reply.outcome, Ok(Chips(u64::MAX)));
}

#[tokio::test]
async fn a_player_that_is_not_http() {
    let (url, server) = raw_player(b"SMTP ready\r\n\r\n").await;
    let client = HttpClient::new(settings()).unwrap();
    let reply = seat_for(&client, &url).bet_request(&state()).await;
    let reason = reply.failure().unwrap().to_string();
    assert!(reason.starts_with("invalid HTTP response: "), "{reason}");
    assert!(!reason.contains('\n'));
    server.abort();
}

/// A raw player that reads one request, writes `response`, then holds the connection open.
async fn raw_player(response: &'static [u8]) -> (String, tokio::task::JoinHandle<()>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let (mut stream, _) = listener.accept().await.unwrap();
        let mut buffer = [0u8; 8192];
        let _ = stream.read(&mut buffer).await;
        let _ = stream.write_all(response).await;
        while matches!(stream.read(&mut buffer).await, Ok(read) if read > 0) {}
    });
    (url, server)
}

#[tokio::test]
async fn an_error_status_wins_over_a_body_that_never_ends() {
    let (url, server) =
        raw_player(b"HTTP/1.1 500 Oops\r\ncontent-length: 100\r\n\r\nNullPointerException").await;
    let client = HttpClient::new(settings()).unwrap();
    let started = Instant::now();
    let reply = seat_for(&client, &url).bet_request(&state()).await;
    assert!(started.elapsed() < TIMEOUT + SLACK);
    assert_eq!(reply.outcome, Err(SeatFailure::Status(500)));
    assert_eq!(reply.body_text().as_deref(), Some("NullPointerException"));
    server.abort();
}

/// A player that answers `200` `0` to `count` requests (on one keep-alive connection or
/// several) and hands back their bodies, each read to its `Content-Length`.
async fn capturing_player(count: usize) -> (String, tokio::task::JoinHandle<Vec<Vec<u8>>>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let mut bodies = Vec::new();
        loop {
            let (mut stream, _) = listener.accept().await.unwrap();
            let mut received = Vec::new();
            let mut buffer = [0u8; 8192];
            loop {
                let text = String::from_utf8_lossy(&received).into_owned();
                let complete = text.find("\r\n\r\n").and_then(|head_end| {
                    let length: usize = text[..head_end].lines().find_map(|line| {
                        let (name, value) = line.split_once(':')?;
                        name.eq_ignore_ascii_case("content-length")
                            .then(|| value.trim().parse().unwrap())
                    })?;
                    let end = head_end + 4 + length;
                    (received.len() >= end).then_some((head_end + 4, end))
                });
                if let Some((start, end)) = complete {
                    bodies.push(received[start..end].to_vec());
                    received.drain(..end);
                    stream
                        .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\n0")
                        .await
                        .unwrap();
                    if bodies.len() == count {
                        return bodies;
                    }
                    continue;
                }
                match stream.read(&mut buffer).await {
                    Ok(read) if read > 0 => received.extend_from_slice(&buffer[..read]),
                    _ => break,
                }
            }
        }
    });
    (url, server)
}

#[tokio::test]
async fn spec_1_the_body_on_the_wire_is_the_form_encoding_of_the_documents_json() {
    // Names and versions that JSON escapes and the form encodes: quotes, a backslash, a
    // control character, spaces, `&`, `=`, `+`, `%` and non-ASCII.
    let mut state = state();
    state.players[0].name = "Al \"the\" \\ Bot\t& co=+%".into();
    state.players[1].version = "v1 \u{e9}\u{1f0cf}\u{7f}".into();
    state.tournament_id = Some("t 1/2?x#y".into());
    // Several documents on a kept-alive connection, through two seats that share a game's
    // encoder (which reuses the encoded text of unchanged players) and through one without:
    // every change (a stack, a name, cards, a player fewer) reaches the wire.
    let mut documents = vec![(Action::BetRequest, state.clone())];
    let mut changed = state.clone();
    changed.players[2].stack = Chips(12_345);
    documents.push((Action::BetRequest, changed.clone()));
    documents.push((Action::BetRequest, changed.clone()));
    changed.players[0].name = "renamed".into();
    changed.players[1].hole_cards = None;
    documents.push((Action::Showdown, changed.clone()));
    changed.players.truncate(2);
    documents.push((Action::BetRequest, changed));
    let (url, server) = capturing_player(2 * documents.len()).await;
    let client = HttpClient::new(settings()).unwrap();
    let encoder = GameEncoder::default();
    let endpoint = || PlayerEndpoint::parse(&url).unwrap();
    let sharing = [
        client.seat_in_game(endpoint(), Some(&encoder)),
        client.seat_in_game(endpoint(), Some(&encoder)),
    ];
    let alone = seat_for(&client, &url);
    let sends = documents
        .iter()
        .enumerate()
        .flat_map(|(index, document)| [(&sharing[index % 2], document), (&alone, document)]);
    for (seat, (action, document)) in sends {
        match action {
            Action::BetRequest => {
                assert_eq!(seat.bet_request(document).await.outcome, Ok(Chips(0)))
            }
            _ => assert_eq!(seat.showdown(document).await.outcome, Ok(())),
        }
    }
    let bodies = server.await.unwrap();
    let sent = documents.iter().flat_map(|document| [document, document]);
    for ((action, document), body) in sent.zip(&bodies) {
        let expected =
            shared::protocol::encode_request(*action, Some(&document.to_json())).into_bytes();
        assert_eq!(
            String::from_utf8_lossy(body),
            String::from_utf8_lossy(&expected)
        );
        assert_eq!(
            shared::protocol::Request::decode(body)
                .unwrap()
                .game_state(),
            Some(document)
        );
    }
}

#[tokio::test]
async fn a_healthy_bet_and_what_the_logs_need() {
    let player = spawn_player(Misbehaviour::Healthy).await;
    let client = HttpClient::new(settings()).unwrap();
    let seat = seat_for(&client, player.url());
    let state = state();
    let reply = seat.bet_request(&state).await;
    assert_eq!(reply.outcome, Ok(state.call_amount()));
    assert_eq!(reply.status, Some(200));
    assert_eq!(
        reply.body_text().as_deref(),
        Some(state.call_amount().to_string().as_str())
    );
    assert!(reply.latency_us() > 0);
    assert!(reply.latency < TIMEOUT + SLACK);
    player.stop().await;
}

#[tokio::test]
async fn spec_6_a_flaky_player_recovers() {
    let player = spawn_player(Misbehaviour::FailsThenHealthy {
        times: 2,
        failure: Box::new(Misbehaviour::Status(503)),
    })
    .await;
    let client = HttpClient::new(settings()).unwrap();
    let seat = seat_for(&client, player.url());
    let state = state();
    for _ in 0..2 {
        assert_eq!(
            seat.bet_request(&state).await.outcome,
            Err(SeatFailure::Status(503))
        );
    }
    for _ in 0..3 {
        assert_eq!(
            seat.bet_request(&state).await.outcome,
            Ok(state.call_amount())
        );
    }
    assert_eq!(player.misbehaved(), 2);
    player.stop().await;
}

#[tokio::test]
async fn connections_are_kept_alive_and_reused() {
    let player = spawn_player(Misbehaviour::Healthy).await;
    let client = HttpClient::new(settings()).unwrap();
    let seat = seat_for(&client, player.url());
    // A second seat of the same pool at the same player shares its connections.
    let twin = seat_for(&client, player.url());
    let state = state();
    for _ in 0..10 {
        assert!(seat.bet_request(&state).await.outcome.is_ok());
        assert!(twin.showdown(&state).await.outcome.is_ok());
        assert!(seat.check().await.outcome.is_ok());
        assert!(seat.version().await.outcome.is_ok());
    }
    assert_eq!(player.requests(), 40);
    assert_eq!(player.accepted_connections(), 1, "one connection for all");
    player.stop().await;
}

#[tokio::test]
async fn a_bad_status_does_not_cost_a_new_connection() {
    let player = spawn_player(Misbehaviour::Status(500)).await;
    let client = HttpClient::new(settings()).unwrap();
    let seat = seat_for(&client, player.url());
    for _ in 0..5 {
        assert_eq!(
            seat.bet_request(&state()).await.outcome,
            Err(SeatFailure::Status(500))
        );
    }
    assert_eq!(player.accepted_connections(), 1);
    player.stop().await;
}

#[tokio::test]
async fn healthy_players_are_unaffected_by_a_hanging_one() {
    let hanging = spawn_player(Misbehaviour::NeverAnswers).await;
    let dripping = spawn_player(Misbehaviour::SlowDrip {
        every: Duration::from_millis(200),
    })
    .await;
    let healthy = spawn_player(Misbehaviour::Healthy).await;
    let settings = HttpSettings::with_request_timeout(Duration::from_millis(1500));
    let client = HttpClient::new(settings).unwrap();
    let state = state();

    let hanging_seat = seat_for(&client, hanging.url());
    let dripping_seat = seat_for(&client, dripping.url());
    let healthy_seat = seat_for(&client, healthy.url());
    let slow_calls = async {
        let (first, second) = tokio::join!(
            hanging_seat.bet_request(&state),
            dripping_seat.bet_request(&state)
        );
        (first, second, Instant::now())
    };
    let healthy_calls = async {
        let mut answers = Vec::new();
        for _ in 0..20 {
            answers.push(healthy_seat.bet_request(&state).await.outcome);
        }
        (answers, Instant::now())
    };
    let ((hung, dripped, slow_done), (answers, healthy_done)) =
        tokio::join!(slow_calls, healthy_calls);

    assert!(hung.failure().is_some_and(SeatFailure::is_timeout));
    assert!(dripped.failure().is_some_and(SeatFailure::is_timeout));
    assert!(answers
        .iter()
        .all(|answer| *answer == Ok(state.call_amount())));
    assert!(
        healthy_done < slow_done,
        "the healthy player finished while the others still hung"
    );
    for player in [hanging, dripping, healthy] {
        player.stop().await;
    }
}

#[tokio::test]
async fn basic_auth_from_the_url() {
    let options = PlayerOptions {
        required_authorization: Some("Basic dGVhbTpzM2NyZXQ=".into()), // team:s3cret
        ..PlayerOptions::default()
    };
    let player = spawn_player_with(Misbehaviour::Healthy, options).await;
    let client = HttpClient::new(settings()).unwrap();

    let seat = seat_for(&client, &player.url_with_credentials("team", "s3cret"));
    assert_eq!(
        seat.endpoint().to_string(),
        player.url(),
        "no secret in logs"
    );
    assert!(seat.bet_request(&state()).await.outcome.is_ok());
    assert!(seat.check().await.outcome.is_ok());

    let anonymous = seat_for(&client, player.url());
    assert_eq!(
        anonymous.bet_request(&state()).await.outcome,
        Err(SeatFailure::Status(401))
    );
    let wrong = seat_for(&client, &player.url_with_credentials("team", "guess"));
    assert_eq!(wrong.check().await.outcome, Err(SeatFailure::Status(401)));
    assert_eq!(
        player.authorizations(),
        vec![
            Some("Basic dGVhbTpzM2NyZXQ=".into()),
            Some("Basic dGVhbTpzM2NyZXQ=".into()),
            None,
            Some("Basic dGVhbTpndWVzcw==".into()),
        ]
    );
    player.stop().await;
}

#[tokio::test]
async fn bearer_token() {
    let options = PlayerOptions {
        required_authorization: Some("Bearer s3cret-token".into()),
        ..PlayerOptions::default()
    };
    let player = spawn_player_with(Misbehaviour::Healthy, options).await;
    let client = HttpClient::new(settings()).unwrap();
    let endpoint = PlayerEndpoint::parse(player.url())
        .unwrap()
        .with_bearer_token("s3cret-token")
        .unwrap();
    let seat = PlayerSeat::from(client.seat(endpoint));
    assert!(seat.bet_request(&state()).await.outcome.is_ok());
    assert!(seat.version().await.outcome.is_ok());
    assert!(!format!("{seat:?} {seat}").contains("s3cret"));
    player.stop().await;
}

/// Options for a player that misbehaves on every action, not only `bet_request`.
fn on_every_action() -> PlayerOptions {
    PlayerOptions {
        misbehave_on: &[
            Action::Check,
            Action::Version,
            Action::BetRequest,
            Action::Showdown,
        ],
        ..PlayerOptions::default()
    }
}

#[tokio::test]
async fn spec_1_check_showdown_and_version_only_need_a_200() {
    // Any body is fine for check and showdown; version keeps the text, control chars removed.
    let player = spawn_player_with(Misbehaviour::Body(b"10\n"), on_every_action()).await;
    let client = HttpClient::new(settings()).unwrap();
    let seat = seat_for(&client, player.url());
    assert_eq!(seat.check().await.outcome, Ok(()));
    let showdown = seat.showdown(&state()).await;
    assert_eq!(showdown.outcome, Ok(()));
    assert_eq!(seat.version().await.outcome, Ok("10".into()));
    assert!(seat.bet_request(&state()).await.outcome.is_err());
    player.stop().await;

    let player = spawn_player_with(Misbehaviour::Status(500), on_every_action()).await;
    let seat = seat_for(&client, player.url());
    assert_eq!(seat.check().await.outcome, Err(SeatFailure::Status(500)));
    assert_eq!(
        seat.showdown(&state()).await.outcome,
        Err(SeatFailure::Status(500))
    );
    assert_eq!(seat.version().await.outcome, Err(SeatFailure::Status(500)));
    player.stop().await;
}

#[tokio::test]
async fn spec_1_versions_are_shown_verbatim() {
    let options = PlayerOptions {
        version: "Ultimate chan killer ".into(),
        ..PlayerOptions::default()
    };
    let player = spawn_player_with(Misbehaviour::Healthy, options).await;
    let client = HttpClient::new(settings()).unwrap();
    let seat = seat_for(&client, player.url());
    assert_eq!(
        seat.version().await.outcome,
        Ok("Ultimate chan killer ".into())
    );
    player.stop().await;

    // A version that is too long is cut, not an error; the connection is simply not reused.
    let player = spawn_player_with(Misbehaviour::EndlessBody, on_every_action()).await;
    let seat = seat_for(&client, player.url());
    let version = seat.version().await.outcome.unwrap();
    assert_eq!(version.chars().count(), dealer::seat::VERSION_MAX_CHARS);
    player.stop().await;
}

#[tokio::test]
async fn a_version_over_the_cap_is_cut_not_unknown() {
    // A declared length over the cap: the first `body_limit` bytes are the version.
    let player =
        spawn_player_with(Misbehaviour::HugeBody { bytes: 100_000 }, on_every_action()).await;
    let client = HttpClient::new(settings()).unwrap();
    let reply = seat_for(&client, player.url()).version().await;
    assert_eq!(
        reply.outcome,
        Ok("9".repeat(dealer::seat::VERSION_MAX_CHARS))
    );
    // So it is known at once, and asked once per game rather than at every hand start.
    let seat = PlayerSeat::from(seat_for(&client, player.url()));
    let mut version = PlayerVersion::new();
    let policy = VersionPolicy::default();
    for _hand in 0..3 {
        dealer::seat::ask_versions([(&seat, &mut version)], &policy).await;
    }
    assert_eq!(
        version.known().map(str::len),
        Some(dealer::seat::VERSION_MAX_CHARS)
    );
    assert_eq!(version.failed_attempts(), 0);
    assert_eq!(player.requests(), 2, "one version request per game");
    player.stop().await;

    // Cut on a char boundary: with a 20-byte cap, "a" and 9 two-byte chars, not a broken 10th.
    const ACCENTED: &[u8] = "aéééééééééééééééééééé".as_bytes();
    let player = spawn_player_with(Misbehaviour::Body(ACCENTED), on_every_action()).await;
    let small = HttpClient::new(HttpSettings {
        body_limit: HttpSettings::MIN_BODY_LIMIT,
        ..settings()
    })
    .unwrap();
    let reply = seat_for(&small, player.url()).version().await;
    assert_eq!(reply.outcome, Ok(format!("a{}", "é".repeat(9))));
    player.stop().await;
}

#[tokio::test]
async fn showdown_with_a_dripping_body_still_counts_as_answered() {
    let player = spawn_player_with(
        Misbehaviour::SlowDrip {
            every: Duration::from_millis(200),
        },
        on_every_action(),
    )
    .await;
    let client = HttpClient::new(settings()).unwrap();
    let seat = seat_for(&client, player.url());
    let started = Instant::now();
    assert_eq!(seat.showdown(&state()).await.outcome, Ok(()));
    assert!(started.elapsed() < TIMEOUT + SLACK);
    assert_eq!(
        seat.version().await.outcome,
        Err(SeatFailure::Timeout { after_ms: 400 })
    );
    player.stop().await;
}

#[tokio::test]
async fn no_task_or_connection_outlives_the_calls() {
    let handle = tokio::runtime::Handle::current();
    let before = handle.metrics().num_alive_tasks();
    let client = HttpClient::new(settings()).unwrap();
    let mut players = Vec::new();
    for misbehaviour in Misbehaviour::catalogue(TIMEOUT)
        .into_iter()
        .chain([Misbehaviour::Healthy])
    {
        players.push(spawn_player(misbehaviour).await);
    }
    let seats: Vec<HttpSeat> = players
        .iter()
        .map(|player| seat_for(&client, player.url()))
        .collect();
    let state = state();
    let replies =
        futures_util::future::join_all(seats.iter().map(|seat| seat.bet_request(&state))).await;
    for (player, reply) in players.iter().zip(&replies) {
        assert_eq!(
            reply.failure(),
            player.misbehaviour().expected_failure(&settings()).as_ref(),
            "{:?}",
            player.misbehaviour()
        );
    }
    drop(seats);
    drop(client);
    for player in players {
        assert!(
            player
                .wait_until_no_open_connections(Duration::from_secs(2))
                .await,
            "{:?}",
            player.misbehaviour()
        );
        player.stop().await;
    }
    // The pool's connection tasks end with the client; the players' tasks with `stop`.
    let give_up = Instant::now() + Duration::from_secs(2);
    while handle.metrics().num_alive_tasks() > before && Instant::now() < give_up {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(handle.metrics().num_alive_tasks(), before);
}

#[tokio::test]
async fn a_connect_timeout_is_reported_as_such() {
    // A listener whose accept queue is full: the kernel drops new SYNs, so connecting hangs.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let listener = socket.listen(1).unwrap();
    let address = listener.local_addr().unwrap();
    let mut fillers = Vec::new();
    for _ in 0..8 {
        match tokio::time::timeout(
            Duration::from_millis(100),
            tokio::net::TcpStream::connect(address),
        )
        .await
        {
            Ok(Ok(stream)) => fillers.push(stream),
            _ => break,
        }
    }
    let settings = HttpSettings {
        connect_timeout: Some(Duration::from_millis(200)),
        ..HttpSettings::with_request_timeout(Duration::from_millis(1000))
    };
    let client = HttpClient::new(settings).unwrap();
    let started = Instant::now();
    let reply = seat_for(&client, &format!("http://{address}/"))
        .bet_request(&state())
        .await;
    assert!(started.elapsed() < Duration::from_millis(1000) + SLACK);
    assert_eq!(
        reply.failure().map(ToString::to_string).as_deref(),
        Some("connect timeout after 200 ms")
    );
    drop(listener);
}
