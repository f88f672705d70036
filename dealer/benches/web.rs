//! The results viewer's list endpoints with a run of 1,000 games: the runs list and the run's
//! summary (leaderboard and games) from the cache, the same rebuilt from the files (what the
//! first request after a change costs), and over HTTP from a real bound server.
//!
//! The folder is made from one real game (`dealer run`, house bots): its `results.json` entry
//! repeated for games 1..=1000, and 1,000 `game-<n>/` folders holding its `log.json`.

use criterion::{criterion_group, criterion_main, Criterion};
use dealer::web::store::ResultsFolder;
use dealer::web::{serve_results, WebOptions};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;

const GAMES: u32 = 1000;

fn make_folder(root: &Path) {
    let seed_run = root.join("seed");
    let status = Command::new(env!("CARGO_BIN_EXE_dealer"))
        .args([
            "run",
            "--quiet",
            "--reproducible",
            "--seed",
            "5",
            "--bot",
            "a=raiser",
            "--bot",
            "b=calling-station",
            "--bot",
            "c=random",
            "--bot",
            "d=folder",
            "--out",
        ])
        .arg(&seed_run)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("dealer runs");
    assert!(status.success());
    let mut results: Value =
        serde_json::from_slice(&std::fs::read(seed_run.join("results.json")).unwrap()).unwrap();
    let game = results["games"][0].clone();
    let log = seed_run.join("game-1/log.json");
    let run = root.join("big");
    let mut games = Vec::new();
    for number in 1..=GAMES {
        let mut entry = game.clone();
        entry["game"] = number.into();
        entry["dir"] = format!("game-{number}").into();
        games.push(entry);
        let dir = run.join(format!("game-{number}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::hard_link(&log, dir.join("log.json"))
            .or_else(|_| std::fs::copy(&log, dir.join("log.json")).map(|_| ()))
            .unwrap();
    }
    results["games"] = Value::Array(games);
    results["games_planned"] = GAMES.into();
    std::fs::write(
        run.join("results.json"),
        serde_json::to_vec(&results).unwrap(),
    )
    .unwrap();
    std::fs::remove_dir_all(seed_run).unwrap();
}

fn bench(c: &mut Criterion) {
    let temp = tempfile::tempdir().unwrap();
    make_folder(temp.path());
    let folder = ResultsFolder::new(temp.path()).unwrap();
    assert_eq!(folder.run("big").unwrap().games.len(), GAMES as usize);

    let mut group = c.benchmark_group("web 1000 games");
    group.bench_function("runs list, cached", |b| b.iter(|| folder.runs().unwrap()));
    group.bench_function("run summary, cached, as JSON", |b| {
        b.iter(|| serde_json::to_vec(&*folder.run("big").unwrap()).unwrap())
    });
    group.bench_function("run summary, rebuilt from the files", |b| {
        b.iter(|| {
            let cold = ResultsFolder::new(temp.path()).unwrap();
            cold.run("big").unwrap()
        })
    });

    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime.block_on(async {
        serve_results(
            temp.path().to_path_buf(),
            WebOptions {
                bind: SocketAddr::from(([127, 0, 0, 1], 0)),
                workers: Some(1),
            },
        )
        .unwrap()
    });
    let client = reqwest::Client::new();
    for (label, path) in [
        ("GET /api/runs", "api/runs"),
        ("GET /api/runs/big", "api/runs/big"),
    ] {
        let url = format!("{}{path}", server.url());
        group.bench_function(label, |b| {
            b.iter(|| {
                runtime.block_on(async {
                    let response = client.get(&url).send().await.unwrap();
                    assert!(response.status().is_success());
                    response.bytes().await.unwrap()
                })
            })
        });
    }
    group.finish();
    runtime.block_on(server.stop()).unwrap();
}

criterion_group!(benches, bench);
criterion_main!(benches);
