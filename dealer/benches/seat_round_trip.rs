//! Round-trip cost of one `bet_request` through an `HttpSeat` against a trivial loopback
//! player, side by side with the floor: the same request bytes over a raw, blocking, persistent
//! TCP connection to the same player. The difference is what the seat (hyper, our
//! encoding and parsing) adds per request.
//!
//! `cargo bench -p lean-poker-dealer --bench seat_round_trip`

#[path = "../tests/support/misbehaving.rs"]
mod misbehaving;

use criterion::{criterion_group, criterion_main, Criterion};
use dealer::seat::{HttpClient, HttpSettings, InProcessSeat, Player, PlayerEndpoint};
use misbehaving::{spawn_player_with, HealthyAnswer, Misbehaviour, PlayerOptions};
use shared::protocol::{encode_request, Action};
use shared::{Chips, GameState};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

const STATE: &str =
    include_str!("../../shared/tests/fixtures/gamestates/09-preflop-r0-6-seats-first-request.json");

/// Players (and seats) in the concurrent measurement.
const SEATS: usize = 6;

struct Folder;

impl Player for Folder {
    fn bet_request(&self, _state: &GameState) -> Chips {
        Chips(0)
    }
}

fn round_trip(c: &mut Criterion) {
    let state = GameState::from_json(STATE).expect("the fixture parses");

    // The player runs on its own thread and runtime, as a separate process would.
    let (url_sender, url_receiver) = std::sync::mpsc::channel();
    let (stop_sender, stop_receiver) = tokio::sync::oneshot::channel::<()>();
    let server = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let options = PlayerOptions {
                healthy_answer: HealthyAnswer::Fixed(0),
                ..PlayerOptions::default()
            };
            let mut players = Vec::new();
            for _ in 0..SEATS {
                let player = spawn_player_with(Misbehaviour::Healthy, options.clone()).await;
                let _ = url_sender.send(player.url().to_string());
                players.push(player);
            }
            let _ = stop_receiver.await;
            for player in players {
                player.stop().await;
            }
        });
    });
    let urls: Vec<String> = (0..SEATS)
        .map(|_| url_receiver.recv().expect("a player's URL"))
        .collect();
    let url = urls[0].clone();

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let client = HttpClient::new(HttpSettings::default()).expect("a client");
    let seat = client.seat(PlayerEndpoint::parse(&url).expect("a URL"));

    let mut group = c.benchmark_group("bet_request");
    group.bench_function("http_seat", |b| {
        b.iter(|| {
            let reply = runtime.block_on(seat.bet_request(&state));
            assert_eq!(reply.outcome, Ok(Chips(0)));
        })
    });

    // The floor: the same bytes, pre-built, over one blocking connection.
    let json = state.to_json();
    let form = encode_request(Action::BetRequest, Some(&json));
    let address = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let request = format!(
        "POST / HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/x-www-form-urlencoded\r\n\
         content-length: {}\r\n\r\n{form}",
        form.len()
    );
    let mut stream = TcpStream::connect(&address).expect("connect");
    stream.set_nodelay(true).expect("nodelay");
    let mut buffer = vec![0u8; 4096];
    group.bench_function("raw_tcp_floor", |b| {
        b.iter(|| {
            stream.write_all(request.as_bytes()).expect("write");
            let mut filled = 0;
            // The player's answer "0" ends the response.
            while !buffer[..filled].ends_with(b"\r\n\r\n0") {
                let read = stream.read(&mut buffer[filled..]).expect("read");
                assert!(read > 0, "the player hung up");
                filled += read;
            }
        })
    });

    group.bench_function("to_json_only", |b| b.iter(|| state.to_json()));

    group.bench_function("encode_only", |b| {
        b.iter(|| {
            let json = state.to_json();
            encode_request(Action::BetRequest, Some(&json))
        })
    });

    // Six seats of one pool, one request each at the same time (one player per seat): what
    // a runner playing several games at once asks of the pool.
    let seats: Vec<_> = urls
        .iter()
        .map(|url| client.seat(PlayerEndpoint::parse(url).expect("a URL")))
        .collect();
    group.bench_function("six_seats_concurrently", |b| {
        b.iter(|| {
            let replies = runtime.block_on(futures_util::future::join_all(
                seats.iter().map(|seat| seat.bet_request(&state)),
            ));
            assert!(replies.iter().all(|reply| reply.outcome == Ok(Chips(0))));
        })
    });

    let in_process = InProcessSeat::new(Arc::new(Folder));
    group.bench_function("in_process_seat", |b| {
        b.iter(|| runtime.block_on(in_process.bet_request(&state)).outcome)
    });
    group.finish();

    drop(stream);
    let _ = stop_sender.send(());
    let _ = server.join();
}

criterion_group!(benches, round_trip);
criterion_main!(benches);
