//! The HTTP service end to end (spec §1, §6): every status code, the fallback on panic and on
//! overrun, bounded stuck calls, authentication on and off, start and stop.

use crate::common;

use common::{capture, form, post, Connection};
use player::{Chips, GameState, Player, RunningServer, ServerBuilder};
use shared::protocol::parse_bet_answer;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Answers a fixed amount; counts showdowns; can be made to panic or sleep.
#[derive(Default)]
struct Scripted {
    answer: u64,
    showdowns: AtomicU64,
    sleep: Option<Duration>,
    panic_on_bet: bool,
    panic_on_showdown: bool,
    panic_on_version: bool,
}

impl Player for Scripted {
    fn bet_request(&self, _: &GameState) -> Chips {
        if let Some(sleep) = self.sleep {
            std::thread::sleep(sleep);
        }
        if self.panic_on_bet {
            panic!("strategy bug");
        }
        Chips(self.answer)
    }
    fn showdown(&self, _: &GameState) {
        if self.panic_on_showdown {
            panic!("learning bug");
        }
        self.showdowns.fetch_add(1, Ordering::SeqCst);
    }
    fn version(&self) -> String {
        if self.panic_on_version {
            panic!("version bug");
        }
        "scripted 1".to_string()
    }
}

fn local(builder: ServerBuilder) -> RunningServer {
    builder
        .address(([127, 0, 0, 1], 0).into())
        .workers(1)
        .start()
        .expect("server starts")
}

fn start(player: impl Player) -> RunningServer {
    local(ServerBuilder::new(player))
}

/// A server on a loopback address of its own (`127.0.0.<last_octet>`, one per test), for
/// tests that check a stopped server's port is closed: on 127.0.0.1 another test's server
/// may be given the freed port before the check, which then sees it listening.
fn start_alone(player: impl Player, last_octet: u8) -> RunningServer {
    ServerBuilder::new(player)
        .address(([127, 0, 0, last_octet], 0).into())
        .workers(1)
        .start()
        .expect("server starts")
}

fn bet_body() -> String {
    form("bet_request", &capture("09-"))
}

/// Runs blocking client code off the runtime's threads.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(f).await.expect("client code")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spec_1_check_version_bet_request_showdown() {
    let scripted = Arc::new(Scripted {
        answer: 240,
        ..Scripted::default()
    });
    let server = start(scripted.clone());
    let address = server.local_addr();
    let counter = scripted.clone();
    blocking(move || {
        let mut connection = Connection::open(address);
        let check = connection.post("action=check");
        assert_eq!((check.status, check.body.as_str()), (200, "OK"));
        let version = connection.post("action=version");
        assert_eq!((version.status, version.body.as_str()), (200, "scripted 1"));
        let bet = connection.post(&bet_body());
        assert_eq!(bet.status, 200);
        assert_eq!(bet.body, "240", "digits only, no newline");
        assert_eq!(parse_bet_answer(bet.body.as_bytes()), Ok(Chips(240)));
        assert!(bet
            .header("content-type")
            .unwrap()
            .starts_with("text/plain"));
        let showdown = connection.post(&form("showdown", &capture("15-")));
        assert_eq!((showdown.status, showdown.body.as_str()), (200, "OK"));
        // The answer comes after showdown() ran.
        assert_eq!(counter.showdowns.load(Ordering::SeqCst), 1);
    })
    .await;
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spec_1_content_type_is_not_required() {
    let server = start(Scripted {
        answer: 7,
        ..Scripted::default()
    });
    let address = server.local_addr();
    blocking(move || {
        let mut connection = Connection::open(address);
        let body = bet_body();
        let none = connection.request("POST", "/", &[], body.as_bytes());
        assert_eq!((none.status, none.body.as_str()), (200, "7"));
        let wrong = connection.request("POST", "/", &["Content-Type: text/plain"], body.as_bytes());
        assert_eq!((wrong.status, wrong.body.as_str()), (200, "7"));
        // A chunked body without Content-Length is read too.
        let (first, second) = body.split_at(body.len() / 2);
        let chunked = format!(
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{first}\r\n{:x}\r\n{second}\r\n0\r\n\r\n",
            first.len(),
            second.len()
        );
        let answer = connection.raw(chunked.as_bytes());
        assert_eq!((answer.status, answer.body.as_str()), (200, "7"));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spec_1_bad_input_is_a_400_with_a_one_line_reason() {
    let server = start(Scripted::default());
    let address = server.local_addr();
    blocking(move || {
        let mut connection = Connection::open(address);
        let cases = [
            ("", "missing action"),
            ("game_state=%7B%7D", "missing action"),
            ("action=dance", "unknown action \"dance\""),
            (
                "action=dance&game_state=%7Bnope",
                "unknown action \"dance\"",
            ),
        ];
        for (body, expected) in cases {
            let answer = connection.post(body);
            assert_eq!(answer.status, 400, "{body}: {answer:?}");
            assert!(answer.body.contains(expected), "{body}: {}", answer.body);
            assert!(!answer.body.contains('\n'), "{body}: one line");
            assert!(answer
                .header("content-type")
                .unwrap()
                .starts_with("text/plain"));
        }
        // The connection is still usable after errors.
        assert_eq!(connection.post("action=check").status, 200);
    })
    .await;
}

/// docs/decisions.md, "Unreadable game_state": a 400 to a bet_request is a ban, so a
/// game_state the SDK cannot read (a missing field, a rank "T", broken JSON) is answered with
/// the fallback, and a showdown with OK, without calling the strategy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_game_state_gets_the_fallback_not_a_ban() {
    let player = Arc::new(Scripted {
        answer: 7,
        ..Scripted::default()
    });
    let server = local(ServerBuilder::from_arc(player.clone()).fallback(Chips(0)));
    let address = server.local_addr();
    let bad_rank = capture("09-").replacen("\"rank\":\"", "\"rank\":\"T", 1);
    // The rank "T" is what the SDK refuses; its reason names the field.
    let reason = shared::protocol::Request::decode(form("bet_request", &bad_rank).as_bytes())
        .unwrap_err()
        .to_string();
    assert!(reason.contains("hole_cards"), "{reason}");
    let showdowns_before = player.showdowns.load(Ordering::SeqCst);
    blocking(move || {
        let mut connection = Connection::open(address);
        let bet_bodies = [
            "action=bet_request".to_string(),
            "action=bet_request&game_state=%7Bnope".to_string(),
            "action=bet_request&game_state=%7B%7D".to_string(),
            "action=bet_request&game_state=%FF%FE".to_string(),
            "game_state=%7B%7D&action=bet%5Frequest".to_string(),
            form("bet_request", &bad_rank),
        ];
        for body in &bet_bodies {
            let answer = connection.post(body);
            assert_eq!((answer.status, answer.body.as_str()), (200, "0"), "{body}");
        }
        for body in ["action=showdown", "action=showdown&game_state=%7Bnope"] {
            let answer = connection.post(body);
            assert_eq!((answer.status, answer.body.as_str()), (200, "OK"), "{body}");
        }
        // A readable request still reaches the strategy.
        let answer = connection.post(&bet_body());
        assert_eq!((answer.status, answer.body.as_str()), (200, "7"));
    })
    .await;
    assert_eq!(player.showdowns.load(Ordering::SeqCst), showdowns_before);
}

/// Bodies a caller might send by mistake or on purpose: pieces of real requests, broken JSON,
/// random bytes. Seeded, so a failure replays.
fn odd_bodies(count: usize, seed: u64) -> Vec<Vec<u8>> {
    use rand::{RngCore, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut next = move || rng.next_u64();
    let json = capture("09-");
    let state_field = bet_body().split_once('&').unwrap().1.to_string();
    let pieces: Vec<Vec<u8>> = [
        "action=",
        "game_state=",
        "bet_request",
        "showdown",
        "check",
        "version",
        "&",
        "=",
        "+",
        "%",
        "%7B",
        "%7D",
        "%22",
        "%FF",
        "%00",
        "%C3%A9",
    ]
    .iter()
    .map(|piece| piece.as_bytes().to_vec())
    .chain([state_field.clone().into_bytes()])
    .collect();
    (0..count)
        .map(|_| match next() % 3 {
            // A sequence of pieces and random bytes.
            0 => {
                let mut body = Vec::new();
                for _ in 0..next() % 8 {
                    if next() % 4 == 0 {
                        body.extend((0..next() % 6).map(|_| next() as u8));
                    } else {
                        body.extend_from_slice(&pieces[(next() as usize) % pieces.len()]);
                    }
                }
                body
            }
            // A real document with one byte changed: mostly a JSON or type error.
            1 => {
                let mut broken = json.clone().into_bytes();
                let at = (next() as usize) % broken.len();
                const REPLACEMENTS: &[u8] = b"{}[]\",:0-9aT\x00";
                broken[at] = REPLACEMENTS[(next() as usize) % REPLACEMENTS.len()];
                form("bet_request", &String::from_utf8_lossy(&broken)).into_bytes()
            }
            // Random bytes.
            _ => (0..next() % 64).map(|_| next() as u8).collect(),
        })
        .collect()
}

/// Whatever the body, the answer is a 200 or a 400 with a one-line reason (never a 5xx, never
/// a hang), and the connection and the server keep working.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spec_1_any_body_gets_a_200_or_a_one_line_400() {
    let server = start(Scripted {
        answer: 7,
        ..Scripted::default()
    });
    let address = server.local_addr();
    blocking(move || {
        let mut connection = Connection::open(address);
        let mut statuses = std::collections::BTreeMap::new();
        for body in odd_bodies(600, 21) {
            let answer = connection.request(
                "POST",
                "/",
                &["Content-Type: application/x-www-form-urlencoded"],
                &body,
            );
            let shown = String::from_utf8_lossy(&body);
            *statuses.entry(answer.status).or_insert(0) += 1;
            match answer.status {
                200 => assert!(
                    ["OK", "7", "0", "scripted 1"].contains(&answer.body.as_str()),
                    "{shown}: {answer:?}"
                ),
                400 => assert!(
                    !answer.body.is_empty() && !answer.body.contains('\n'),
                    "{shown}: {answer:?}"
                ),
                _ => panic!("{shown}: {answer:?}"),
            }
        }
        // Both kinds of answer were seen, so the bodies really were mixed.
        assert!(statuses.len() == 2, "{statuses:?}");
        assert_eq!(connection.post("action=check").status, 200);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn body_over_the_limit_is_413() {
    let server = local(ServerBuilder::new(Scripted::default()).body_limit(1000));
    let address = server.local_addr();
    blocking(move || {
        let big = format!("action=check&padding={}", "x".repeat(2000));
        let declared = post(address, &big);
        assert_eq!(declared.status, 413);
        assert!(declared.body.contains("1000 bytes"), "{}", declared.body);
        // Chunked, so the size is only discovered while reading.
        let mut connection = Connection::open(address);
        let chunked = format!(
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{big}\r\n0\r\n\r\n",
            big.len()
        );
        assert_eq!(connection.raw(chunked.as_bytes()).status, 413);
        // Just under the limit is fine.
        let fits = format!("action=check&padding={}", "x".repeat(900));
        assert_eq!(post(address, &fits).status, 200);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn default_body_limit_is_one_mebibyte() {
    let server = start(Scripted::default());
    let address = server.local_addr();
    blocking(move || {
        let over = format!("action=check&p={}", "x".repeat(1024 * 1024));
        assert_eq!(post(address, &over).status, 413);
        let under = format!("action=check&p={}", "x".repeat(1024 * 1024 - 100));
        assert_eq!(post(address, &under).status, 200);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_method_is_405_and_unknown_path_is_404() {
    let server = start(Scripted::default());
    let address = server.local_addr();
    blocking(move || {
        // The server may close a connection whose body it did not read: one each.
        for method in ["PUT", "DELETE", "PATCH", "OPTIONS"] {
            let answer = Connection::open(address).request(method, "/", &[], b"action=check");
            assert_eq!(answer.status, 405, "{method}");
            assert_eq!(answer.header("allow"), Some("GET, HEAD, POST"));
        }
        for path in ["/bet", "/index.html", "//", "/%2F"] {
            let answer = Connection::open(address).request("POST", path, &[], b"action=check");
            assert_eq!(answer.status, 404, "{path}");
            assert!(!answer.body.is_empty());
        }
        // A query string is not part of the path.
        assert_eq!(
            Connection::open(address)
                .request("POST", "/?x=1", &[], b"action=check")
                .status,
            200
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_and_head_give_a_short_status() {
    let server = start(Scripted::default());
    let address = server.local_addr();
    blocking(move || {
        let mut connection = Connection::open(address);
        let status = connection.request("GET", "/", &[], b"");
        assert_eq!(status.status, 200);
        assert!(status.body.contains("lean-poker-player"), "{}", status.body);
        assert!(status.body.contains("scripted 1"), "{}", status.body);
        // HEAD: same headers, no body (the reader would hang on a body it did not expect).
        let mut head_connection = Connection::open(address);
        let head = head_connection.raw(b"HEAD / HTTP/1.1\r\nHost: t\r\n\r\n");
        assert_eq!(head.status, 200);
        assert_eq!(
            head.header("content-length"),
            Some(status.body.len().to_string().as_str())
        );
        assert_eq!(
            head_connection.request("GET", "/", &[], b"").body,
            status.body
        );
        let health = player::cli::health_check(address, Duration::from_secs(5)).unwrap();
        assert!(health.contains("scripted 1"));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spec_6_a_panicking_strategy_answers_the_fallback_and_keeps_serving() {
    let server = start(Scripted {
        answer: 100,
        panic_on_bet: true,
        ..Scripted::default()
    });
    let address = server.local_addr();
    blocking(move || {
        let mut connection = Connection::open(address);
        for _ in 0..3 {
            let bet = connection.post(&bet_body());
            assert_eq!((bet.status, bet.body.as_str()), (200, "0"));
        }
        assert_eq!(connection.post("action=check").status, 200);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spec_6_a_slow_strategy_answers_the_fallback_within_the_budget() {
    let server = local(
        ServerBuilder::new(Scripted {
            answer: 100,
            sleep: Some(Duration::from_millis(1500)),
            ..Scripted::default()
        })
        .time_budget(Duration::from_millis(150))
        .fallback(Chips(3)),
    );
    let address = server.local_addr();
    blocking(move || {
        let started = Instant::now();
        let bet = post(address, &bet_body());
        assert_eq!((bet.status, bet.body.as_str()), (200, "3"));
        // Far below the 1.5 s the strategy takes: the budget cut it short.
        assert!(
            started.elapsed() < Duration::from_millis(1200),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(post(address, "action=check").status, 200);
    })
    .await;
}

/// A strategy that never returns until the test ends.
struct Stuck {
    entered: Mutex<mpsc::Sender<()>>,
    release: Mutex<mpsc::Receiver<()>>,
    calls: AtomicU64,
}

impl Player for Stuck {
    fn bet_request(&self, _: &GameState) -> Chips {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let _ = self.entered.lock().unwrap().send(());
        // Holds the lock while stuck: every later call queues behind it, also stuck.
        let _ = self.release.lock().unwrap().recv();
        Chips(50)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spec_6_strategies_that_never_return_are_bounded() {
    let (entered_tx, entered_rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let stuck = Arc::new(Stuck {
        entered: Mutex::new(entered_tx),
        release: Mutex::new(release_rx),
        calls: AtomicU64::new(0),
    });
    let server = local(
        ServerBuilder::from_arc(stuck.clone())
            .time_budget(Duration::from_millis(100))
            .max_in_flight(2),
    );
    let address = server.local_addr();
    let calls = stuck.clone();
    blocking(move || {
        for _ in 0..2 {
            assert_eq!(post(address, &bet_body()).body, "0");
        }
        entered_rx.recv_timeout(Duration::from_secs(5)).unwrap();
        // Both slots are stuck: further calls are not started at all, answered 0 in budget.
        for _ in 0..5 {
            let started = Instant::now();
            let bet = post(address, &bet_body());
            assert_eq!((bet.status, bet.body.as_str()), (200, "0"));
            assert!(started.elapsed() < Duration::from_secs(1));
        }
        assert_eq!(
            calls.calls.load(Ordering::SeqCst),
            2,
            "no third thread was used"
        );
        // Everything that does not need the strategy still works.
        assert_eq!(post(address, "action=check").status, 200);
        assert_eq!(post(address, "action=nope").status, 400);
        drop(release_tx);
    })
    .await;
}

/// Quick on every call but one: the `stuck_call`-th `bet_request` never returns until the test
/// ends. The quick calls answer their own amount.
struct StuckOnce {
    stuck_call: u64,
    calls: AtomicU64,
    release: Mutex<mpsc::Receiver<()>>,
}

impl Player for StuckOnce {
    fn bet_request(&self, _: &GameState) -> Chips {
        if self.calls.fetch_add(1, Ordering::SeqCst) + 1 == self.stuck_call {
            let _ = self.release.lock().unwrap().recv();
        }
        Chips(7)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spec_6_a_stuck_call_among_16_busy_connections_still_gets_the_fallback_in_time() {
    // 16 keep-alive connections (a dealer's parallel games) on 2 I/O threads, each sending
    // bet_requests back to back; one call of all gets stuck for good. The stuck request is
    // answered the fallback within its budget, and every other request on every connection,
    // including those on the stuck call's I/O thread, is answered by the strategy.
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let budget = Duration::from_millis(300);
    let server = ServerBuilder::new(StuckOnce {
        stuck_call: 40,
        calls: AtomicU64::new(0),
        release: Mutex::new(release_rx),
    })
    .address(([127, 0, 0, 1], 0).into())
    .workers(2)
    .time_budget(budget)
    .fallback(Chips(1))
    .start()
    .expect("server starts");
    let address = server.local_addr();
    let answers = blocking(move || {
        let clients: Vec<_> = (0..16)
            .map(|_| {
                std::thread::spawn(move || {
                    let mut connection = Connection::open(address);
                    (0..20)
                        .map(|_| {
                            let started = Instant::now();
                            let bet = connection.post(&bet_body());
                            (bet.status, bet.body, started.elapsed())
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        clients
            .into_iter()
            .flat_map(|client| client.join().expect("client thread"))
            .collect::<Vec<_>>()
    })
    .await;
    drop(release_tx);
    assert_eq!(answers.len(), 320);
    let fallbacks = answers.iter().filter(|(_, body, _)| body == "1").count();
    assert_eq!(fallbacks, 1, "exactly the stuck call answered the fallback");
    for (status, body, took) in &answers {
        assert_eq!(*status, 200);
        assert!(body == "7" || body == "1", "{body}");
        // The budget plus room for a loaded machine; the dealer's own timeout is 2 s.
        assert!(*took < budget + Duration::from_millis(700), "{took:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn showdown_and_version_failures_do_not_break_the_server() {
    let server = local(
        ServerBuilder::new(Scripted {
            panic_on_showdown: true,
            panic_on_version: true,
            ..Scripted::default()
        })
        // Generous: with RUST_BACKTRACE=1 a first panic spends ~100 ms on its backtrace.
        .time_budget(Duration::from_secs(5)),
    );
    let address = server.local_addr();
    blocking(move || {
        let showdown = post(address, &form("showdown", &capture("13-")));
        assert_eq!((showdown.status, showdown.body.as_str()), (200, "OK"));
        // Not bad input but the player's own bug: an honest 500 (the dealer shows Unknown).
        let version = post(address, "action=version");
        assert_eq!(version.status, 500);
        assert!(version.body.contains("version bug"), "{}", version.body);
        let status = Connection::open(address).request("GET", "/", &[], b"");
        assert_eq!(status.status, 200);
        assert!(status.body.contains("unavailable"), "{}", status.body);
        assert_eq!(post(address, &bet_body()).status, 200);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_is_off_by_default() {
    let server = start(Scripted::default());
    let address = server.local_addr();
    blocking(move || {
        let answer = Connection::open(address).request(
            "POST",
            "/",
            &["Authorization: Bearer whatever"],
            b"action=check",
        );
        assert_eq!(answer.status, 200);
        assert_eq!(post(address, "action=check").status, 200);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_on_requires_bearer_or_basic() {
    let server = local(
        ServerBuilder::new(Scripted {
            answer: 9,
            ..Scripted::default()
        })
        .auth_secret("s3cret"),
    );
    let address = server.local_addr();
    blocking(move || {
        // A refused request may close its connection: a fresh one for each.
        let missing = post(address, "action=check");
        assert_eq!(missing.status, 401);
        let challenges = missing.headers_named("www-authenticate");
        assert!(
            challenges.iter().any(|c| c.starts_with("Basic")),
            "{challenges:?}"
        );
        assert!(
            challenges.iter().any(|c| c.starts_with("Bearer")),
            "{challenges:?}"
        );
        let wrong = Connection::open(address).request(
            "POST",
            "/",
            &["Authorization: Bearer nope"],
            b"action=check",
        );
        assert_eq!(wrong.status, 401);
        assert_eq!(wrong.body, "wrong credentials");
        let bearer = Connection::open(address).request(
            "POST",
            "/",
            &["Authorization: Bearer s3cret"],
            bet_body().as_bytes(),
        );
        assert_eq!((bearer.status, bearer.body.as_str()), (200, "9"));
        // What a dealer sends for http://team:s3cret@host:port/ (base64 of "team:s3cret").
        let basic = Connection::open(address).request(
            "POST",
            "/",
            &["Authorization: Basic dGVhbTpzM2NyZXQ="],
            b"action=check",
        );
        assert_eq!(basic.status, 200);
        // Basic with the secret as the user name and a wrong password is refused.
        let swapped = Connection::open(address).request(
            "POST",
            "/",
            &["Authorization: Basic czNjcmV0OnRlYW0="],
            b"action=check",
        );
        assert_eq!(swapped.status, 401);
        // Health checks need no credentials.
        assert_eq!(
            Connection::open(address)
                .request("GET", "/", &[], b"")
                .status,
            200
        );
        // Unauthenticated callers cannot make the server read a large body.
        let big = format!("action=check&p={}", "x".repeat(2 * 1024 * 1024));
        assert_eq!(Connection::open(address).post(&big).status, 401);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_from_the_environment_variable() {
    let builder = ServerBuilder::new(Scripted::default())
        .apply_env(|name| (name == player::AUTH_ENV).then(|| "envsecret".to_string()))
        .unwrap();
    let server = local(builder);
    let address = server.local_addr();
    blocking(move || {
        assert_eq!(post(address, "action=check").status, 401);
        let ok = Connection::open(address).request(
            "POST",
            "/",
            &["Authorization: Bearer envsecret"],
            b"action=check",
        );
        assert_eq!(ok.status, 200);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_servers_in_one_runtime_start_and_stop() {
    // What the dealer's demo does: house bots on ephemeral loopback ports, in its runtime.
    let servers: Vec<RunningServer> = (0..4)
        .map(|answer| {
            start_alone(
                Scripted {
                    answer,
                    ..Scripted::default()
                },
                201,
            )
        })
        .collect();
    let addresses: Vec<_> = servers.iter().map(RunningServer::local_addr).collect();
    assert!(servers
        .iter()
        .all(|s| s.url().starts_with("http://127.0.0.201:")));
    blocking(move || {
        for (answer, address) in addresses.iter().enumerate() {
            assert_eq!(post(*address, &bet_body()).body, answer.to_string());
        }
    })
    .await;
    let address = servers[0].local_addr();
    let stop = servers[0].stop_handle();
    stop.stop(true).await;
    for server in servers {
        server.stop().await.unwrap();
    }
    // Stopped means the port no longer answers.
    let refused = std::net::TcpStream::connect_timeout(&address, Duration::from_secs(1));
    assert!(refused.is_err(), "still listening on {address}");
}

#[test]
fn a_server_can_run_on_a_current_thread_runtime_too() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let server = start(Scripted {
            answer: 5,
            ..Scripted::default()
        });
        let address = server.local_addr();
        let body = blocking(move || post(address, &bet_body()).body).await;
        assert_eq!(body, "5");
        server.stop().await.unwrap();
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_a_running_server_stops_it() {
    let server = start_alone(Scripted::default(), 202);
    let address = server.local_addr();
    drop(server);
    let mut refused = false;
    for _ in 0..50 {
        if std::net::TcpStream::connect_timeout(&address, Duration::from_millis(100)).is_err() {
            refused = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(refused, "still listening on {address} after drop");
}
