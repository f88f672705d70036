//! Where the time of one `bet_request` goes, piece by piece (criterion):
//! decoding the form body with the 6-player state, the template strategy, and the hand-off of
//! a strategy call to the strategy pool and back. The end-to-end HTTP numbers come from
//! `run-wrk.sh` (see README.md in this directory).

use criterion::{criterion_group, criterion_main, Criterion};
use player::strategy::TemplatePlayer;
use player::Player;
use shared::protocol::{encode_request, Action, Request};
use std::hint::black_box;

const STATE: &str =
    include_str!("../../shared/tests/fixtures/gamestates/09-preflop-r0-6-seats-first-request.json");

fn decode(c: &mut Criterion) {
    let body = encode_request(Action::BetRequest, Some(STATE));
    c.bench_function("decode 6-player bet_request body", |b| {
        b.iter(|| Request::decode(black_box(body.as_bytes())).unwrap())
    });
}

fn strategy(c: &mut Criterion) {
    let state = shared::GameState::from_json(STATE).unwrap();
    let bot = TemplatePlayer::default();
    c.bench_function("template bet_request", |b| {
        b.iter(|| bot.bet_request(black_box(&state)))
    });
}

criterion_group!(benches, decode, strategy);
criterion_main!(benches);
