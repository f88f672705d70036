//! Ranking runs in process: duplicate deals against plain seating with six house bots (hands
//! per second, side by side), and the cost of rating 10,000 six-player results against the
//! run they come from.
//!
//! `cargo bench -p lean-poker-dealer --bench ranking`

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use dealer::house::BotKind;
use dealer::rating::Ratings;
use dealer::rules::GameRules;
use dealer::runner::{Clock, RunnerOptions, StopSignal};
use dealer::seat::HttpSettings;
use dealer::tournament::{Entrant, RunResults, Tournament, TournamentSettings};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::path::Path;

const KINDS: [&str; 6] = [
    "template",
    "folder",
    "calling-station",
    "raiser",
    "all-in",
    "random",
];

/// Sit'n'gos per measured run: 4 deal sets of 6 rotations in duplicate mode.
const DEAL_SETS: u32 = 4;

fn entrants() -> Vec<Entrant> {
    KINDS
        .iter()
        .map(|kind| Entrant::bot(*kind, kind.parse::<BotKind>().expect("a house kind")))
        .collect()
}

fn run(runtime: &tokio::runtime::Runtime, out: &Path, duplicate: bool) -> RunResults {
    let games = if duplicate {
        DEAL_SETS
    } else {
        DEAL_SETS * KINDS.len() as u32
    };
    let settings = TournamentSettings {
        game: GameRules::default(),
        http: HttpSettings::default(),
        games,
        seed: 2026,
        parallel: 1,
        runner: RunnerOptions {
            clock: Clock::Reproducible,
            ..RunnerOptions::default()
        },
        out_dir: out.to_path_buf(),
    };
    let tournament = Tournament::new(entrants(), settings)
        .expect("valid")
        .with_duplicate(duplicate)
        .expect("few games");
    runtime
        .block_on(tournament.run(&StopSignal::never()))
        .expect("the run")
        .results
}

fn hands(results: &RunResults) -> u64 {
    results.games.iter().map(|g| g.result.hands_played).sum()
}

fn duplicate_against_plain(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut group = c.benchmark_group("six house bots");
    group.sample_size(10);
    for (label, duplicate) in [("plain", false), ("duplicate", true)] {
        let counted = tempfile::tempdir().expect("a temporary folder");
        let results = run(&runtime, counted.path(), duplicate);
        group.throughput(Throughput::Elements(hands(&results)));
        group.bench_function(label, |b| {
            b.iter_batched(
                || tempfile::tempdir().expect("a temporary folder"),
                |out| run(&runtime, out.path(), duplicate),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

fn rating_updates(c: &mut Criterion) {
    let names: Vec<String> = KINDS.iter().map(|k| k.to_string()).collect();
    let mut shuffle = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let orders: Vec<Vec<&str>> = (0..10_000)
        .map(|_| {
            let mut order: Vec<&str> = names.iter().map(String::as_str).collect();
            order.shuffle(&mut shuffle);
            order
        })
        .collect();
    let mut group = c.benchmark_group("ratings");
    group.throughput(Throughput::Elements(orders.len() as u64));
    group.bench_function("10,000 six-player results", |b| {
        b.iter(|| {
            let mut ratings = Ratings::new(names.iter().cloned());
            for order in &orders {
                ratings.record(order);
            }
            ratings
        })
    });
    group.finish();
}

criterion_group!(benches, duplicate_against_plain, rating_updates);
criterion_main!(benches);
