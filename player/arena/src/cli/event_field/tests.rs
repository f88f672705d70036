use super::*;
use std::io::Write as _;

#[test]
fn addresses_are_read_and_others_refused_clearly() {
    let address = |text: &str| EventAddress::parse(text).unwrap();
    assert!(EventAddress::parse("games/run-1").is_none());
    assert!(EventAddress::parse("event-data").is_none());
    let event = address("http://127.0.0.5:8080").unwrap();
    assert_eq!(event.to_string(), "http://127.0.0.5:8080/");
    assert_eq!(event.cache_name(), "127.0.0.5-8080");
    assert_eq!(
        event.hands_url(12).as_str(),
        "http://127.0.0.5:8080/api/event/hands?since=12"
    );
    // The event page's address, and one behind a path, are the event's.
    assert_eq!(
        address("http://host:9/event").unwrap().to_string(),
        "http://host:9/"
    );
    let proxied = address("http://host/poker/?x=1#y").unwrap();
    assert_eq!(proxied.to_string(), "http://host/poker/");
    assert_eq!(proxied.cache_name(), "host-80-poker");
    assert_eq!(
        proxied.hands_url(0).as_str(),
        "http://host/poker/api/event/hands?since=0"
    );
    let error = |text: &str| address(text).unwrap_err();
    assert!(error("https://host/").contains("plain http only"));
    assert!(error("ftp://host/").contains("not an event's address"));
    assert!(error("http://").contains("not an address"));
    assert!(error("http://[::1").contains("not an address"));
}

/// A server answering each request with the next scripted answer (then closing the
/// connection), noting each request's line.
struct Scripted {
    address: EventAddress,
    requests: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

fn serve(answers: Vec<Vec<u8>>) -> Scripted {
    use std::io::{BufRead, BufReader};
    let listener = std::net::TcpListener::bind("127.0.0.41:0").unwrap();
    let address =
        EventAddress::checked(&format!("http://{}/", listener.local_addr().unwrap())).unwrap();
    let requests = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let noted = std::sync::Arc::clone(&requests);
    std::thread::spawn(move || {
        for answer in answers {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let mut reader = BufReader::new(stream);
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            noted.lock().unwrap().push(line.trim().to_string());
            loop {
                let mut header = String::new();
                reader.read_line(&mut header).unwrap();
                if header.trim().is_empty() {
                    break;
                }
            }
            let mut stream = reader.into_inner();
            let _ = stream.write_all(&answer);
        }
    });
    Scripted { address, requests }
}

fn answer(status: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut head = format!(
        "HTTP/1.1 {status}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

fn gzip(text: &str) -> Vec<u8> {
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gzip.write_all(text.as_bytes()).unwrap();
    gzip.finish().unwrap()
}

fn hands_answer(event: &str, games: &[u32], last: u32) -> Vec<u8> {
    // One hand a game, as the dealer writes them (ann and bob, heads-up).
    let mut text = String::from("# hand histories\n");
    for game in games {
        text.push_str(&format!(
            "\n[game-{game}-hand-0]\nvariant = \"NT\"\nantes = [0, 0]\n\
             blinds_or_straddles = [4, 2]\nmin_bet = 2\nstarting_stacks = [1000, 1000]\n\
             actions = [\n  \"d dh p1 4cKh\",\n  \"d dh p2 5dAh\",\n  \"p1 cc\",\n  \
             \"p2 cbr 20\",\n  \"p1 f\",\n]\nhand = 0\nplayers = [\"ann\", \"bob\"]\n\
             seats = [2, 1]\nseat_count = 2\n_lean_button = 0\n_lean_event_game = {game}\n\
             _lean_versions = [\"a 1\", \"b 1\"]\n"
        ));
    }
    let games_header = games.len().to_string();
    let last_header = last.to_string();
    answer(
        "200 OK",
        &[
            ("Lean-Poker-Event", event),
            ("Lean-Poker-Games", &games_header),
            ("Lean-Poker-Last-Game", &last_header),
            ("Lean-Poker-Games-Without-Record", "0"),
        ],
        &gzip(&text),
    )
}

fn temporary(name: &str) -> EventCache {
    let folder = std::env::temp_dir().join(format!("arena-fetch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    EventCache::new(folder)
}

#[test]
fn the_second_fetch_asks_for_newer_games_and_another_event_starts_again() {
    let server = serve(vec![
        hands_answer("e1", &[1, 2, 3], 3),
        hands_answer("e1", &[5], 5),
        // The address now serves another event: asked again from the first game.
        hands_answer("e2", &[], 9),
        hands_answer("e2", &[1, 2], 2),
    ]);
    let cache = temporary("since");
    let (index, fetched) = fetch(&server.address, &cache).unwrap();
    assert_eq!((index.games, index.last_game, fetched.games), (3, 3, 3));
    let (index, fetched) = fetch(&server.address, &cache).unwrap();
    assert_eq!((index.games, index.last_game, fetched.since), (4, 5, 3));
    assert_eq!(index.segments.len(), 2);
    let (index, fetched) = fetch(&server.address, &cache).unwrap();
    assert_eq!(
        (index.games, index.last_game, index.event.as_str()),
        (2, 2, "e2")
    );
    assert!(fetched.started_again.unwrap().contains("another event"));
    assert_eq!(
        *server.requests.lock().unwrap(),
        [
            "GET /api/event/hands?since=0 HTTP/1.1",
            "GET /api/event/hands?since=3 HTTP/1.1",
            "GET /api/event/hands?since=5 HTTP/1.1",
            "GET /api/event/hands?since=0 HTTP/1.1",
        ]
    );
    // ann's decisions: a call and a fold in each game.
    let ann = index.versions.iter().find(|v| v.team == "ann").unwrap();
    assert_eq!(
        (ann.version.as_str(), ann.games, ann.decisions),
        ("a 1", 2, 4)
    );
    cache.clear().unwrap();
}

#[test]
fn a_busy_server_is_asked_again_and_bad_answers_are_clear_errors() {
    let busy = serve(vec![
        answer(
            "503 Service Unavailable",
            &[("Retry-After", "1")],
            b"{\"error\": \"2 downloads\"}",
        ),
        hands_answer("e1", &[4], 4),
    ]);
    let cache = temporary("busy");
    let (index, _) = fetch(&busy.address, &cache).unwrap();
    assert_eq!(index.last_game, 4);
    assert_eq!(busy.requests.lock().unwrap().len(), 2);
    cache.clear().unwrap();

    let headers = [
        ("Lean-Poker-Event", "e1"),
        ("Lean-Poker-Games", "2"),
        ("Lean-Poker-Last-Game", "2"),
        ("Lean-Poker-Games-Without-Record", "0"),
    ];
    let whole = gzip("# x\n[game-1-hand-0]\nplayers = [\"a\"]\n");
    for (answer, says) in [
        (
            answer(
                "403 Forbidden",
                &[],
                b"{\"error\": \"the organiser turned this event's hand histories off\"}",
            ),
            "does not serve its hand histories: the organiser turned",
        ),
        (
            answer("404 Not Found", &[], b"nothing here"),
            "has no event hand histories",
        ),
        (
            answer("400 Bad Request", &[], b"{\"error\": \"since\"}"),
            "answered 400: since",
        ),
        (
            answer("200 OK", &[], b"<html>"),
            "without a readable Lean-Poker-Event header",
        ),
        (
            answer("200 OK", &headers, b"<html>\n"),
            "not gzip'd hand histories",
        ),
        (
            answer("200 OK", &headers, &whole[..whole.len() - 9]),
            "cut short",
        ),
        (
            answer("200 OK", &headers, &gzip("<html>\n")),
            "not the event's hand histories",
        ),
        (answer("200 OK", &headers, &whole), "held 1 of the 2 games"),
    ] {
        let server = serve(vec![answer]);
        let cache = temporary("bad");
        let error = fetch(&server.address, &cache).unwrap_err();
        assert!(error.contains(says), "{says}: {error}");
        // Nothing of it is kept.
        assert!(cache.load().is_none());
        let _ = cache.clear();
    }
}
