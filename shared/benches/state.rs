//! Parsing and serialising a six-player `game_state` (fixture 09).
//!
//! `cargo bench -p lean-poker-shared --bench state`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shared::GameState;
use std::hint::black_box;

const FIXTURE: &str =
    include_str!("../tests/fixtures/gamestates/09-preflop-r0-6-seats-first-request.json");

fn state(c: &mut Criterion) {
    let state = GameState::from_json(FIXTURE).unwrap();
    let mut group = c.benchmark_group("game_state_6_players");
    group.throughput(Throughput::Bytes(FIXTURE.len() as u64));
    group.bench_function("GameState::from_json", |b| {
        b.iter(|| black_box(GameState::from_json(black_box(FIXTURE)).unwrap()))
    });
    group.bench_function("GameState::to_json", |b| {
        b.iter(|| black_box(black_box(&state).to_json()))
    });
    let mut buffer = Vec::with_capacity(4096);
    group.bench_function("GameState::write_json (reused buffer)", |b| {
        b.iter(|| {
            buffer.clear();
            black_box(&state).write_json(&mut buffer);
            black_box(buffer.len())
        })
    });
    group.bench_function("GameState::write_form_encoded (reused buffer)", |b| {
        b.iter(|| {
            buffer.clear();
            black_box(&state).write_form_encoded(&mut buffer);
            black_box(buffer.len())
        })
    });
    let mut writer = shared::state::JsonWriter::new();
    group.bench_function(
        "JsonWriter::write, same document again (reused buffer)",
        |b| {
            b.iter(|| {
                buffer.clear();
                writer.write(black_box(&state), &mut buffer);
                black_box(buffer.len())
            })
        },
    );
    group.finish();
}

criterion_group!(benches, state);
criterion_main!(benches);
