//! Hand evaluation throughput, side by side with `rs_poker`'s `Rankable::rank` on the same
//! 10 million random seven-card hands, and the enumeration of all 133,784,560 seven-card
//! hands.
//!
//! `cargo bench -p lean-poker-shared --bench eval`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rs_poker::core::Rankable;
use shared::eval::{bench_support, evaluate, strength_of, HandKey};
use shared::Card;
use std::hint::black_box;
use std::time::Duration;

const HANDS: usize = 10_000_000;

#[path = "support/random_hands.rs"]
mod random_hands;
use random_hands::random_hands;

fn seven_card_throughput(c: &mut Criterion) {
    let ours = random_hands(HANDS);
    let theirs: Vec<[rs_poker::core::Card; 7]> =
        ours.iter().map(|hand| hand.map(Into::into)).collect();
    // The evaluator's own input: card codes (the table index), converted beforehand.
    let codes: Vec<[u16; 7]> = ours
        .iter()
        .map(|hand| hand.map(bench_support::code))
        .collect();
    // Board + hole cards, as simulations use it: a board key built once per five hands.
    let boards: Vec<(HandKey, [Card; 2])> = ours
        .iter()
        .map(|hand| {
            let board = HandKey::from_cards(&hand[..5]).unwrap_or(HandKey::EMPTY);
            (board, [hand[5], hand[6]])
        })
        .collect();

    let mut group = c.benchmark_group("seven_card_10M_random");
    group.throughput(Throughput::Elements(HANDS as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("shared strength_of(&[Card; 7])", |b| {
        b.iter(|| {
            let mut acc = 0u16;
            for hand in &ours {
                acc ^= strength_of(hand).map_or(0, |s| s.index());
            }
            black_box(acc)
        })
    });
    group.bench_function("shared HandKey + Card (x7)", |b| {
        b.iter(|| {
            let mut acc = 0u16;
            for hand in &ours {
                let key = hand.iter().fold(HandKey::EMPTY, |key, &card| key + card);
                acc ^= key.strength().map_or(0, |s| s.index());
            }
            black_box(acc)
        })
    });
    group.bench_function("shared raw: card codes, no validation", |b| {
        b.iter(|| {
            let mut acc = 0u16;
            for hand in &codes {
                acc ^= bench_support::strength_index_of_codes(hand);
            }
            black_box(acc)
        })
    });
    group.bench_function("shared board HandKey + 2 hole cards", |b| {
        b.iter(|| {
            let mut acc = 0u16;
            for (board, hole) in &boards {
                let key = *board + hole[0] + hole[1];
                acc ^= key.strength().map_or(0, |s| s.index());
            }
            black_box(acc)
        })
    });
    group.bench_function("rs_poker [Card; 7].rank()", |b| {
        b.iter(|| {
            let mut acc = 0u16;
            for hand in &theirs {
                acc ^= hand[..].rank().value_bits();
            }
            black_box(acc)
        })
    });
    group.finish();

    // The full evaluation with the best five cards, on fewer hands.
    let mut group = c.benchmark_group("evaluate_best_five");
    group.throughput(Throughput::Elements(100_000));
    group.sample_size(10);
    group.bench_function(BenchmarkId::new("evaluate", "100k random 7-card"), |b| {
        b.iter(|| {
            let mut acc = 0u16;
            for hand in &ours[..100_000] {
                acc ^= evaluate(hand).map_or(0, |h| h.strength().index());
            }
            black_box(acc)
        })
    });
    group.finish();
}

/// Every 7-card hand as a `HandKey` (see `bench_support::for_each_seven_card_hand`), through
/// the public `strength()`, which checks the count and takes the flush or the rank path.
fn for_each_seven_card_hand(deck: &[Card], mut visit: impl FnMut(u16)) {
    bench_support::for_each_seven_card_hand(deck, |key| {
        visit(key.strength().map_or(0, |s| s.index()))
    });
}

fn enumerate_all(c: &mut Criterion) {
    let deck: Vec<Card> = Card::deck().collect();
    let mut group = c.benchmark_group("enumerate_all_7_card_hands");
    group.throughput(Throughput::Elements(133_784_560));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    // The evaluation alone: the strengths are summed (as the 10M benchmark XORs them).
    group.bench_function("shared HandKey, sum of strengths", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for_each_seven_card_hand(black_box(&deck), |index| sum += u64::from(index));
            black_box(sum)
        })
    });
    // As the exhaustive test counts them: a 30 KB histogram, incremented at random places,
    // shares the L1 cache with the evaluator's tables and costs about a quarter more.
    group.bench_function("shared HandKey, per-strength histogram", |b| {
        b.iter(|| {
            let mut per_strength = [0u32; 7463];
            for_each_seven_card_hand(black_box(&deck), |index| {
                per_strength[usize::from(index)] += 1
            });
            black_box(per_strength[1])
        })
    });
    group.finish();
}

criterion_group!(benches, seven_card_throughput, enumerate_all);
criterion_main!(benches);
