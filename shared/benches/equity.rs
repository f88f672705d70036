//! Equity: AhKh against three random opponents, 100,000 Monte Carlo trials; and exact
//! enumeration heads-up on the flop.
//!
//! `cargo bench -p lean-poker-shared --bench equity`

use criterion::{criterion_group, criterion_main, Criterion};
use shared::card::parse_cards;
use shared::equity::Scenario;
use std::hint::black_box;

fn equity(c: &mut Criterion) {
    let ak = parse_cards("Ah Kh").unwrap();
    let preflop = Scenario::new(&ak, &[], 3).unwrap();
    let mut group = c.benchmark_group("equity");
    group.sample_size(30);
    group.bench_function("AhKh vs 3 random, 100k trials", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            black_box(preflop.monte_carlo(100_000, seed).unwrap())
        })
    });
    // Side by side: rs_poker's simulator on the same question (its opponents are empty hands
    // that it deals to; it reshuffles the whole deck only when the dealt cards run out).
    group.bench_function("rs_poker MonteCarloGame AhKh vs 3 random, 100k", |b| {
        let hero: Vec<rs_poker::core::Card> = ak.iter().map(|&card| card.into()).collect();
        let hands = vec![
            rs_poker::core::Hand::new_with_cards(hero),
            rs_poker::core::Hand::default(),
            rs_poker::core::Hand::default(),
            rs_poker::core::Hand::default(),
        ];
        let mut game = rs_poker::holdem::MonteCarloGame::new(hands).unwrap();
        b.iter(|| black_box(game.estimate_equity(100_000)))
    });
    let flop = Scenario::new(&ak, &parse_cards("Qh 7c 2d").unwrap(), 1).unwrap();
    group.bench_function("AhKh vs 1 on Qh7c2d, exact (1,070,190 deals)", |b| {
        b.iter(|| black_box(flop.exact().unwrap()))
    });
    let flop2 = Scenario::new(&ak, &parse_cards("Qh 7c 2d").unwrap(), 2).unwrap();
    group.bench_function("AhKh vs 2 on Qh7c2d, exact", |b| {
        b.iter(|| black_box(flop2.exact().unwrap()))
    });
    group.finish();
}

criterion_group!(benches, equity);
criterion_main!(benches);
