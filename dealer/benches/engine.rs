//! In-process engine speed: six calling bots, every seat given its full `game_state`.
//!
//! Each bot reads `bet_request_state()` and answers `call_amount()`; after every hand the
//! showdown document is rendered for all six seats, one after the other, into one kept
//! `Document`. Games are restarted (new seed) as they end.
//! Criterion's throughput is in hands: `elem/s` is hands per second.
//!
//! For profiling on a busy machine, `ENGINE_BENCH_FIXED_HANDS=N` plays exactly N hands and
//! exits (no criterion), so `perf stat -e cycles:u` or `valgrind --tool=callgrind` measure a
//! fixed amount of work.

use criterion::{black_box, criterion_group, Criterion, Throughput};
use dealer::engine::{Document, Game, GameSetup, SeatAnswer, Step, View};
use dealer::rules::GameRules;
use shared::Seat;

const SEATS: usize = 6;

/// Plays until `hands` hands have been completed, across as many games as needed.
fn play_hands(hands: u64, seed: &mut u64, names: &[String]) -> u64 {
    let mut played = 0;
    let mut checksum = 0u64;
    // One showdown document for every receiver, rendered over and over.
    let mut showdown = Document::new();
    while played < hands {
        *seed += 1;
        let setup = GameSetup::new(GameRules::default(), names.to_vec(), *seed);
        let Ok(mut game) = Game::new(setup) else {
            return checksum;
        };
        loop {
            match game.step() {
                Step::Event(event) => {
                    black_box(&event);
                }
                Step::BetRequest { .. } => {
                    let answer = match game.bet_request_state() {
                        Some(state) => state.call_amount(),
                        None => break,
                    };
                    let _ = game.answer(SeatAnswer::Bet(answer));
                }
                Step::Showdown { .. } => {
                    for seat in 0..SEATS {
                        if game
                            .render_document(View::Showdown(Seat(seat)), &mut showdown)
                            .is_ok()
                        {
                            checksum = checksum.wrapping_add(showdown.state().pot.get());
                            black_box(showdown.state());
                        }
                    }
                    played += 1;
                    if played >= hands {
                        break;
                    }
                }
                Step::Finished => break,
            }
        }
    }
    checksum
}

fn engine(c: &mut Criterion) {
    let names: Vec<String> = (0..SEATS).map(|i| format!("calling bot {i}")).collect();
    let mut group = c.benchmark_group("engine");
    const HANDS: u64 = 1000;
    group.throughput(Throughput::Elements(HANDS));
    let mut seed = 0;
    group.bench_function("six_calling_bots_1000_hands", |b| {
        b.iter(|| play_hands(black_box(HANDS), &mut seed, &names))
    });
    group.finish();
}

criterion_group!(benches, engine);

fn main() {
    if let Some(hands) = std::env::var("ENGINE_BENCH_FIXED_HANDS")
        .ok()
        .and_then(|text| text.parse::<u64>().ok())
    {
        let names: Vec<String> = (0..SEATS).map(|i| format!("calling bot {i}")).collect();
        let mut seed = 0;
        black_box(play_hands(hands, &mut seed, &names));
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
