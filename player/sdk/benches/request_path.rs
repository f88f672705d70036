//! Where the time of one `bet_request` goes inside the SDK (criterion): decoding the form body
//! with the 6-player state. A bot's own time is the team's (`cargo arena` reports it per
//! decision); the end-to-end HTTP numbers come from `run-wrk.sh` and `latency.py` (see
//! README.md in this directory).

use criterion::{criterion_group, criterion_main, Criterion};
use shared::protocol::{encode_request, Action, Request};
use std::hint::black_box;

const STATE: &str = include_str!(
    "../../../shared/tests/fixtures/gamestates/09-preflop-r0-6-seats-first-request.json"
);

fn decode(c: &mut Criterion) {
    let body = encode_request(Action::BetRequest, Some(STATE));
    c.bench_function("decode 6-player bet_request body", |b| {
        b.iter(|| Request::decode(black_box(body.as_bytes())).unwrap())
    });
}

criterion_group!(benches, decode);
criterion_main!(benches);
