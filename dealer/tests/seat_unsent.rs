//! Every attempt of a request is logged (issue 10): an attempt that the HTTP client handed back
//! unsent (the player closed the connection before a byte of the request was written) is sent
//! once more, and both `requests.jsonl` and the player's log show it, while the lines of
//! ordinary requests keep their bytes.

use crate::observe_support::object_keys;

use dealer::engine::{Game, GameSetup};
use dealer::observe::{Exchange, GameOutputs, Observer, PlayerLogs, RequestsLog};
use dealer::rules::GameRules;
use dealer::runner::{run_game, RunnerOptions, StopSignal};
use dealer::seat::{
    CheckPolicy, HttpClient, HttpSettings, InProcessSeat, PlayerEndpoint, PlayerSeat, SeatFailure,
};
use serde_json::{json, Value};
use shared::protocol::Action;
use shared::Seat;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, UNIX_EPOCH};

const NOT_SENT: &str = "connection closed before the request was sent";

/// What the closing player saw.
#[derive(Default)]
struct Stats {
    /// `bet_request`s read (each one the player could have answered).
    bet_requests: AtomicUsize,
    /// Connections closed without reading a byte.
    closed_unread: AtomicUsize,
    /// Whether the next connection is closed unread.
    armed: AtomicBool,
}

/// A raw HTTP player on a thread of its own. It answers every request with `Connection: close`,
/// so that each request of the dealer goes out on a fresh connection; after answering
/// `version` (the last request before the first hand) it closes the next connection it
/// accepts, `delay` after accepting it, without reading it: the first `bet_request`'s.
struct ClosingPlayer {
    address: SocketAddr,
    stats: Arc<Stats>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ClosingPlayer {
    fn spawn(delay: Duration) -> ClosingPlayer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let stats = Arc::new(Stats::default());
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (stats, stop) = (Arc::clone(&stats), Arc::clone(&stop));
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    if stats.armed.swap(false, Ordering::SeqCst) {
                        std::thread::sleep(delay);
                        stats.closed_unread.fetch_add(1, Ordering::SeqCst);
                        drop(stream);
                        continue;
                    }
                    serve(stream, &stats);
                }
            })
        };
        ClosingPlayer {
            address,
            stats,
            stop,
            thread: Some(thread),
        }
    }

    fn url(&self) -> String {
        format!("http://{}/", self.address)
    }
}

impl Drop for ClosingPlayer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accepting thread so that it sees the flag.
        let _ = TcpStream::connect(self.address);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Reads one request and answers it: `0` to `bet_request`, `OK` to the rest.
fn serve(mut stream: TcpStream, stats: &Stats) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 8192];
    let body = loop {
        let Ok(read) = stream.read(&mut chunk) else {
            return;
        };
        if read == 0 {
            return;
        }
        buffer.extend_from_slice(&chunk[..read]);
        let mut headers = [httparse::EMPTY_HEADER; 32];
        let mut request = httparse::Request::new(&mut headers);
        let Ok(httparse::Status::Complete(head)) = request.parse(&buffer) else {
            continue;
        };
        let length = request
            .headers
            .iter()
            .find(|header| header.name.eq_ignore_ascii_case("content-length"))
            .and_then(|header| std::str::from_utf8(header.value).ok()?.parse().ok())
            .unwrap_or(0usize);
        if buffer.len() >= head + length {
            break buffer[head..head + length].to_vec();
        }
    };
    let body = String::from_utf8_lossy(&body);
    let action = body
        .split('&')
        .find_map(|pair| pair.strip_prefix("action="))
        .unwrap_or_default();
    let answer = match action {
        "bet_request" => {
            stats.bet_requests.fetch_add(1, Ordering::SeqCst);
            "0"
        }
        "version" => {
            stats.armed.store(true, Ordering::SeqCst);
            "closing player"
        }
        _ => "OK",
    };
    let response = format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
        answer.len()
    );
    let _ = stream.write_all(response.as_bytes());
}

fn calling_station() -> PlayerSeat {
    let kind: bots::BotKind = "calling-station".parse().unwrap();
    PlayerSeat::from(InProcessSeat::new(kind.build(0)))
}

/// One hand of the closing player against a calling station, into `dir`.
async fn play_one_hand(dir: &std::path::Path, player: &ClosingPlayer) {
    let names = ["closer", "caller"];
    let client =
        HttpClient::new(HttpSettings::with_request_timeout(Duration::from_secs(2))).unwrap();
    let seats = vec![
        PlayerSeat::from(client.seat(PlayerEndpoint::parse(&player.url()).unwrap())),
        calling_station(),
    ];
    let setup = GameSetup::new(
        GameRules {
            hand_limit: Some(1),
            ..GameRules::default()
        },
        names.iter().map(|name| name.to_string()).collect(),
        7,
    );
    let options = RunnerOptions {
        check: CheckPolicy {
            deadline: Duration::from_secs(2),
            retry_interval: Duration::from_millis(20),
        },
        ..RunnerOptions::default()
    };
    let observers = GameOutputs::create(dir, &names).unwrap();
    run_game(setup, seats, observers, &options, &StopSignal::never())
        .await
        .unwrap();
}

#[tokio::test]
async fn an_attempt_sent_on_a_closed_connection_is_sent_again_and_logged_in_both_outputs() {
    // Whether the close reaches the dealer before it writes the request is a race on the
    // loopback: when the request went out first, the player may have received it, so it is
    // not sent again ("closed before the response was complete", a ban) and the game is
    // played once more. Each delay after accepting lands the close before the write often.
    let delays = [20, 50, 100, 0, 200].map(Duration::from_micros);
    let mut raced = Vec::new();
    for delay in delays.iter().cycle().take(60) {
        let player = ClosingPlayer::spawn(*delay);
        let dir = tempfile::tempdir().unwrap();
        play_one_hand(dir.path(), &player).await;
        let requests = std::fs::read_to_string(GameOutputs::requests_path(dir.path())).unwrap();
        let closer: Vec<&str> = requests
            .lines()
            .filter(|line| line.contains(r#""player":"closer""#))
            .collect();
        let first: Value = serde_json::from_str(closer[0]).unwrap();
        assert_eq!(player.stats.closed_unread.load(Ordering::SeqCst), 1);
        if first.get("unsent_attempts").is_none() {
            raced.push(first["error"].to_string());
            continue;
        }

        // requests.jsonl: the attempt that never went out is listed, last, on the line of the
        // request that did; the player answered that one, and saw every request once.
        assert_eq!(first["unsent_attempts"], json!([NOT_SENT]));
        assert_eq!(first["answer"], "0");
        assert!(first.get("error").is_none(), "{first}");
        assert_eq!(object_keys(closer[0]).last().unwrap(), "unsent_attempts");
        assert_eq!(
            player.stats.bet_requests.load(Ordering::SeqCst),
            closer.len(),
            "each bet_request reached the player once"
        );
        for line in requests.lines().filter(|line| *line != closer[0]) {
            assert!(!line.contains("unsent_attempts"), "{line}");
        }

        // The player's log: a line for the unsent attempt, then the request's own line.
        let log = std::fs::read_to_string(GameOutputs::players_dir(dir.path()).join("closer.log"))
            .unwrap();
        let lines: Vec<&str> = log.lines().collect();
        let at = lines
            .iter()
            .position(|line| line.contains("NOT SENT"))
            .unwrap_or_else(|| panic!("no NOT SENT line in\n{log}"));
        assert!(
            lines[at].ends_with(&format!(
                "  round 0  bet_request  NOT SENT {NOT_SENT}  (attempt 1 of 2, sent again)"
            )),
            "{}",
            lines[at]
        );
        assert!(
            lines[at + 1].contains("  round 0  bet_request  status 200  ")
                && lines[at + 1].ends_with(r#"body "0""#),
            "{}",
            lines[at + 1]
        );
        assert_eq!(log.matches("NOT SENT").count(), 1, "{log}");
        return;
    }
    panic!("the request was never handed back unsent in 60 games: {raced:?}");
}

#[test]
fn unsent_attempts_are_a_last_key_and_lines_of_their_own_only_when_there_are_some() {
    let names = vec!["closer".to_string(), "caller".to_string()];
    let game = Game::new(GameSetup::new(GameRules::default(), names, 1)).unwrap();
    let state = shared::testing_state();
    let unsent = [SeatFailure::NotSent, SeatFailure::NotSent];
    let with_unsent = Exchange {
        round: 3,
        seat: Seat(0),
        player: "closer",
        action: Action::BetRequest,
        sent_at: UNIX_EPOCH,
        state: Some(&state),
        sent_json: None,
        status: Some(200),
        body: Some(b"0"),
        latency: Duration::from_micros(5),
        failure: None,
        unsent_attempts: &unsent,
    };
    let ordinary = Exchange {
        unsent_attempts: &[],
        ..with_unsent
    };

    let requests_line = |exchange: &Exchange<'_>| {
        let mut log = RequestsLog::new(Vec::new());
        log.on_exchange(exchange, &game).unwrap();
        log.finish(&game).unwrap();
        String::from_utf8(log.into_inner()).unwrap()
    };
    let line = requests_line(&with_unsent);
    assert!(
        line.ends_with(&format!(
            "{}{}",
            r#","latency_us":5,"unsent_attempts":["#,
            format_args!("\"{NOT_SENT}\",\"{NOT_SENT}\"]}}\n")
        )),
        "{line}"
    );
    let plain = requests_line(&ordinary);
    assert!(plain.ends_with(",\"latency_us\":5}\n"), "{plain}");
    assert_eq!(
        line.replace(
            &format!(r#","unsent_attempts":["{NOT_SENT}","{NOT_SENT}"]"#),
            ""
        ),
        plain
    );

    let player_log = |exchange: &Exchange<'_>| {
        let mut logs = PlayerLogs::new(vec![Vec::new(), Vec::new()]);
        logs.on_exchange(exchange, &game).unwrap();
        logs.finish(&game).unwrap();
        String::from_utf8(logs.into_inner().remove(0)).unwrap()
    };
    let log = player_log(&with_unsent);
    let lines: Vec<&str> = log.lines().collect();
    let time = "1970-01-01T00:00:00.000000Z";
    assert_eq!(
        lines[1..4],
        [
            format!(
                "{time}  round 3  bet_request  NOT SENT {NOT_SENT}  (attempt 1 of 3, sent again)"
            ),
            format!(
                "{time}  round 3  bet_request  NOT SENT {NOT_SENT}  (attempt 2 of 3, sent again)"
            ),
            format!("{time}  round 3  bet_request  status 200  5 us  body \"0\""),
        ],
        "{log}"
    );
    let plain = player_log(&ordinary);
    assert!(!plain.contains("NOT SENT"));
    assert_eq!(
        log.lines()
            .filter(|line| !line.contains("NOT SENT"))
            .collect::<Vec<_>>(),
        plain.lines().collect::<Vec<_>>()
    );
}
