//! The event's read endpoints with 50 teams and 10,000 stored games (issue #8: the
//! leaderboard and the games list answer in <= 20 ms p99).
//!
//! Fills an event database through the same `EventStore::record_finished` the server uses
//! (10,000 games of 10 seats drawn from 50 teams; on /dev/shm when there is one, since the fill
//! is 10,000 fsynced transactions and only the reads are measured), serves it with the real web
//! app on loopback, and sends requests one after another from a plain HTTP/1.1 keep-alive
//! client (reqwest), as a page refreshing would. Prints p50, p99 and max per endpoint.
//!
//! `cargo bench -p lean-poker-dealer --bench event` (a few seconds after the fill).
//! `EVENT_BENCH_REQUESTS` sets the requests per endpoint (default 2,000).

use dealer::event::settings::{resolve_event, Contact, EventFile, EventFlags};
use dealer::event::store::{EventStore, FinishedGame, NewGame, SeatRecord};
use dealer::event::Event;
use dealer::house::BotKind;
use dealer::web::{event_api, serve_results_with, WebOptions};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::time::{Duration, Instant};

const TEAMS: usize = 50;
const GAMES: u32 = 10_000;
const SEATS: usize = 10;

fn fill(data: &Path) {
    let (store, _) = EventStore::open(data).expect("a new event database");
    let ids: Vec<(i64, String)> = (0..TEAMS)
        .map(|i| {
            let name = format!("team {i:02}");
            let id = store
                .add_player(&name, &Contact::Bot(BotKind::Raiser), 0)
                .unwrap();
            (id, name)
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let started = Instant::now();
    for round in 0..GAMES {
        let mut seated: Vec<&(i64, String)> = ids.iter().collect();
        seated.shuffle(&mut rng);
        seated.truncate(SEATS);
        let names: Vec<String> = seated.iter().map(|(_, name)| name.clone()).collect();
        let (number, _, _) = store
            .start_game(
                &NewGame {
                    round: round + 1,
                    table: 1,
                    players: names,
                    started_at: i64::from(round),
                },
                u64::from,
            )
            .unwrap();
        let seats = seated
            .iter()
            .enumerate()
            .map(|(seat, (id, name))| SeatRecord {
                seat,
                player_id: Some(*id),
                name: name.clone(),
                place: seat + 1,
                points: dealer::result::points_for_place(seat + 1),
                banned: None,
                absent: None,
                version: "raiser 1".into(),
                deploy: 0,
            })
            .collect();
        store
            .record_finished(&FinishedGame {
                number,
                hands: 100,
                ended_at: i64::from(round) + 1,
                seats,
                record: None,
            })
            .unwrap();
    }
    eprintln!(
        "filled {GAMES} games of {SEATS} seats ({TEAMS} teams) in {:.1} s ({:.2} ms per game, one transaction each)",
        started.elapsed().as_secs_f64(),
        started.elapsed().as_secs_f64() * 1000.0 / f64::from(GAMES)
    );
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index]
}

/// Every team's points by version summed afresh (what the versions cache does whenever a game
/// ends or is valued), every game valued first with a luck drawn at random: the sums by team,
/// version, deploy and fold of the cross-fitted adjustment.
fn versions_afresh(data: &Path, event: &Event) {
    let db = rusqlite::Connection::open(data.join("event.sqlite")).unwrap();
    db.execute_batch(
        "UPDATE games SET luck = 'valued' WHERE state = 'finished';
         UPDATE standings SET luck = (abs(random()) % 2000) / 1000.0 - 1.0;",
    )
    .unwrap();
    drop(db);
    let mut times = Vec::new();
    for _ in 0..20 {
        let start = Instant::now();
        let teams = dealer::event::versions::all_teams_versions(event.store()).unwrap();
        times.push(start.elapsed());
        assert_eq!(teams.len(), TEAMS);
    }
    times.sort();
    println!(
        "every team's versions summed afresh ({} standings): p50 {:.1} ms, max {:.1} ms",
        GAMES as usize * SEATS,
        percentile(&times, 0.5).as_secs_f64() * 1000.0,
        times[times.len() - 1].as_secs_f64() * 1000.0
    );
}

fn main() {
    let parent = if Path::new("/dev/shm").is_dir() {
        tempfile::tempdir_in("/dev/shm").unwrap()
    } else {
        tempfile::tempdir().unwrap()
    };
    let data = parent.path().join("event");
    fill(&data);
    let requests: usize = std::env::var("EVENT_BENCH_REQUESTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2_000);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let settings = resolve_event(
            EventFlags {
                data: Some(data.clone()),
                ..EventFlags::default()
            },
            EventFile::default(),
        )
        .unwrap();
        let event = Event::open(settings).unwrap();
        versions_afresh(&data, &event);
        let server = serve_results_with(
            data.clone(),
            WebOptions {
                bind: "127.0.0.1:0".parse().unwrap(),
                workers: Some(2),
            },
            Some(event_api::routes(event)),
        )
        .unwrap();
        let base = server.url();
        let client = reqwest::Client::new();
        println!("{requests} sequential requests per endpoint, {TEAMS} teams, {GAMES} games:");
        println!("| endpoint | bytes | p50 | p99 | max |\n|---|---|---|---|---|");
        for path in [
            "api/event/leaderboard",
            "api/event/games?page=1&per_page=50",
            "api/event/games?page=150&per_page=50",
            "api/event/history",
        ] {
            let url = format!("{base}{path}");
            let mut times = Vec::with_capacity(requests);
            let mut bytes = 0;
            for _ in 0..requests.min(50) {
                client
                    .get(&url)
                    .send()
                    .await
                    .unwrap()
                    .bytes()
                    .await
                    .unwrap();
            }
            for _ in 0..requests {
                let start = Instant::now();
                let response = client.get(&url).send().await.unwrap();
                assert!(response.status().is_success(), "{path}");
                bytes = response.bytes().await.unwrap().len();
                times.push(start.elapsed());
            }
            times.sort();
            let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1000.0);
            println!(
                "| `{path}` | {bytes} | {} | {} | {} |",
                ms(percentile(&times, 0.5)),
                ms(percentile(&times, 0.99)),
                ms(times[times.len() - 1])
            );
        }
        server.stop().await.unwrap();
    });
}
