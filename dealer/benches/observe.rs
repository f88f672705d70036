//! The cost of the per-game files: the same games (6 seats, calling players, in-process
//! answers) played with no observer, with each output alone, and with all of them, written
//! to a temporary directory. Throughput is in hands.
//!
//! The exchanges carry the JSON sent, as the runner passes it (serialised once per request).
//!
//! Files go to a temporary directory under `OBSERVE_BENCH_DIR` (default: the system's
//! temporary directory). Point it at a RAM disk (`/dev/shm`) to measure the observers' CPU
//! cost without the file system's.
//!
//! `log.json followed` is the viewer log flushed within 50 ms of every entry by its flusher
//! thread (`dealer run --live`, a game followed in the web viewer). For instruction counts on
//! a busy machine, `OBSERVE_BENCH_LOG_FLUSH=hand|followed` plays 20 games writing only `log.json` with that
//! flushing and exits (no criterion), for `valgrind --tool=callgrind` or `strace -c`.

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use dealer::engine::{Game, GameSetup, SeatAnswer, Step};
use dealer::observe::{Exchange, GameOutputs, LogFlush, Observer, OutputSelection};
use dealer::rules::GameRules;
use shared::protocol::Action;
use shared::Seat;
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

const SEATS: usize = 6;
const HANDS: u64 = 200;

fn names() -> Vec<String> {
    (0..SEATS).map(|seat| format!("player {seat}")).collect()
}

fn new_game(seed: u64) -> Game {
    let config = GameRules {
        hand_limit: Some(HANDS),
        ..GameRules::default()
    };
    Game::new(GameSetup::new(config, names(), seed)).expect("valid setup")
}

/// Plays one game, feeding `observers` like the runner; returns the hands played.
fn play(seed: u64, observers: &mut [Box<dyn Observer>]) -> u64 {
    let mut game = new_game(seed);
    let names = names();
    let mut json = String::with_capacity(4096);
    loop {
        match game.step() {
            Step::Event(event) => {
                for observer in observers.iter_mut() {
                    observer.on_event(&event, &game).expect("written");
                }
            }
            Step::BetRequest { seat } => {
                let state = game.bet_request_state().expect("pending");
                let answer = state.call_amount();
                let body = answer.to_string();
                if !observers.is_empty() {
                    json.clear();
                    json.push_str(&state.to_json());
                    let exchange = Exchange {
                        round: game.round(),
                        seat,
                        player: &names[seat.index()],
                        action: Action::BetRequest,
                        sent_at: UNIX_EPOCH,
                        state: None,
                        sent_json: Some(&json),
                        status: Some(200),
                        body: Some(body.as_bytes()),
                        latency: Duration::from_micros(800),
                        failure: None,
                        unsent_attempts: &[],
                    };
                    for observer in observers.iter_mut() {
                        observer.on_exchange(&exchange, &game).expect("written");
                    }
                }
                game.answer(SeatAnswer::Bet(answer)).expect("pending");
            }
            Step::Showdown { round } => {
                for (seat, name) in names.iter().enumerate() {
                    let Some(state) = game.showdown_state(Seat(seat)) else {
                        continue;
                    };
                    if observers.is_empty() {
                        continue;
                    }
                    json.clear();
                    json.push_str(&state.to_json());
                    let exchange = Exchange {
                        round,
                        seat: Seat(seat),
                        player: name,
                        action: Action::Showdown,
                        sent_at: UNIX_EPOCH,
                        state: None,
                        sent_json: Some(&json),
                        status: Some(200),
                        body: Some(b""),
                        latency: Duration::from_micros(300),
                        failure: None,
                        unsent_attempts: &[],
                    };
                    for observer in observers.iter_mut() {
                        observer.on_exchange(&exchange, &game).expect("written");
                    }
                }
            }
            Step::Finished => break,
        }
    }
    for observer in observers.iter_mut() {
        observer.finish(&game).expect("written");
    }
    game.hands_played()
}

fn outputs(dir: &Path, selection: OutputSelection) -> Vec<Box<dyn Observer>> {
    let names = names();
    GameOutputs::create_selected(dir, &names, selection).expect("created")
}

fn bench_outputs(c: &mut Criterion) {
    let hands = play(1, &mut []);
    let mut group = c.benchmark_group("observe");
    group.throughput(Throughput::Elements(hands));
    group.sample_size(10);
    let dir = match std::env::var_os("OBSERVE_BENCH_DIR") {
        Some(parent) => tempfile::tempdir_in(parent),
        None => tempfile::tempdir(),
    }
    .expect("temporary directory");
    let cases = [
        ("none", OutputSelection::NONE),
        (
            "log.json",
            OutputSelection {
                viewer_log: true,
                ..OutputSelection::NONE
            },
        ),
        (
            "requests.jsonl",
            OutputSelection {
                requests: true,
                ..OutputSelection::NONE
            },
        ),
        (
            "hands",
            OutputSelection {
                hands: true,
                ..OutputSelection::NONE
            },
        ),
        (
            "hands-file",
            OutputSelection {
                hands_file: true,
                ..OutputSelection::NONE
            },
        ),
        (
            "players",
            OutputSelection {
                player_logs: true,
                ..OutputSelection::NONE
            },
        ),
        ("default", OutputSelection::DEFAULT),
        ("all", OutputSelection::ALL),
    ];
    let log_only = OutputSelection {
        viewer_log: true,
        ..OutputSelection::NONE
    };
    group.bench_function(BenchmarkId::new("6 seats", "log.json followed"), |b| {
        b.iter(|| {
            let mut observers = GameOutputs::create_followed(
                &dir.path().join("followed"),
                &names(),
                log_only,
                LogFlush::Followed,
            )
            .expect("created");
            play(1, &mut observers)
        });
    });
    for (name, selection) in cases {
        group.bench_with_input(
            BenchmarkId::new("6 seats", name),
            &selection,
            |b, &selection| {
                b.iter(|| {
                    let mut observers = if selection == OutputSelection::NONE {
                        Vec::new()
                    } else {
                        outputs(&dir.path().join(name), selection)
                    };
                    play(1, &mut observers)
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench_outputs);

fn main() {
    if let Ok(flush) = std::env::var("OBSERVE_BENCH_LOG_FLUSH") {
        let flush = match flush.as_str() {
            "followed" => LogFlush::Followed,
            _ => LogFlush::EveryHand,
        };
        let dir = tempfile::tempdir().expect("temporary directory");
        let log_only = OutputSelection {
            viewer_log: true,
            ..OutputSelection::NONE
        };
        let mut hands = 0;
        for seed in 1..=20 {
            let mut observers = GameOutputs::create_followed(dir.path(), &names(), log_only, flush)
                .expect("created");
            hands += play(seed, &mut observers);
        }
        println!("{hands} hands");
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
