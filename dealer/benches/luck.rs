//! What valuing a finished game's luck costs (`event::luck`, issue 32: a small share of the
//! event's CPU, goal <= 10%), side by side with what playing the game cost the server.
//!
//! Plays an event at default settings but the pause between rounds (`pause_ms = 0`, so the
//! bench does not sleep) with 12 house bots in two tables of six, as `event_day.sh` seats its
//! field, through the real scheduler (files written, records kept): the process's CPU (user +
//! system, `getrusage`) while it plays is the event's CPU per game, the house bots' decisions
//! included (over HTTP the dealer spends its own ~68 µs per request instead; both are
//! printed). Then values every game on this thread, as the valuer does (record read and
//! decoded, replayed on the engine, every seat valued, the figures written), timing the
//! thread's own CPU (`CLOCK_THREAD_CPUTIME_ID`): busy neighbours on the machine do not count.
//!
//! `cargo bench -p lean-poker-dealer --bench luck` (a minute or two);
//! `LUCK_BENCH_GAMES` sets the games (default 100).

use dealer::event::luck::value_next;
use dealer::event::settings::{resolve_event, EventFile, EventFlags};
use dealer::event::{scheduler, Event};
use std::sync::Arc;
use std::time::Duration;

const KINDS: [&str; 12] = [
    "equity",
    "random",
    "calling-station",
    "raiser",
    "equity",
    "folder",
    "tight",
    "loose",
    "push-fold",
    "solid",
    "shover",
    "real-a",
];

/// The HTTP dealer's CPU per request (dealer/docs/figures.md, `dealer/benches/http_cpu.sh`).
const HTTP_CPU_PER_REQUEST: Duration = Duration::from_micros(68);

fn process_cpu() -> Duration {
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

fn thread_cpu() -> Duration {
    // SAFETY: clock_gettime writes the struct it is given and nothing else.
    let now = unsafe {
        let mut now: libc::timespec = std::mem::zeroed();
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now);
        now
    };
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

fn main() {
    let games: usize = std::env::var("LUCK_BENCH_GAMES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(100);
    let dir = tempfile::tempdir().unwrap();
    let mut config = String::from("pause_ms = 0\nseed = 32\n");
    for (index, kind) in KINDS.iter().enumerate() {
        config.push_str(&format!(
            "[[bot]]\nname = \"bot{}\"\nkind = \"{kind}\"\n",
            index + 1
        ));
    }
    let file: EventFile = toml::from_str(&config).unwrap();
    let settings = resolve_event(
        EventFlags {
            data: Some(dir.path().to_path_buf()),
            ..EventFlags::default()
        },
        file,
    )
    .unwrap();
    let event = Event::open(settings).unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (handle, stop) = dealer::runner::stop_signal();
    let played_cpu = {
        let before = process_cpu();
        let event = Arc::clone(&event);
        runtime.block_on(async move {
            let rounds = tokio::spawn(scheduler::run_rounds(Arc::clone(&event), stop));
            while event.status().games_finished < games {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            handle.stop();
            rounds.await.unwrap();
        });
        process_cpu() - before
    };
    let finished = event.status().games_finished;
    let mut requests = 0u64;
    let mut costs = Vec::new();
    let store = event.store();
    loop {
        let before = thread_cpu();
        let Some((number, _)) = value_next(store).unwrap() else {
            break;
        };
        costs.push(thread_cpu() - before);
        if let Some(compact) = dealer::event::archive::compact_game(store, number).unwrap() {
            requests += compact.requests;
        }
    }
    let valued = costs.len().max(1) as u32;
    let luck_total: Duration = costs.iter().sum();
    let luck_per_game = luck_total / valued;
    let played_per_game = played_cpu / finished.max(1) as u32;
    let http_per_game = HTTP_CPU_PER_REQUEST * (requests / u64::from(valued)) as u32;
    costs.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{} games of 6 seats played, {} valued ({} requests a game)",
        finished,
        costs.len(),
        requests / u64::from(valued)
    );
    println!(
        "event CPU per game, in process (house bots' decisions included): {:.1} ms",
        ms(played_per_game)
    );
    println!(
        "dealer CPU per game over HTTP (68 µs a request): {:.1} ms",
        ms(http_per_game)
    );
    println!(
        "luck valued per game: {:.2} ms of CPU (median {:.2} ms, max {:.2} ms)",
        ms(luck_per_game),
        ms(costs[costs.len() / 2]),
        ms(costs[costs.len() - 1])
    );
    println!(
        "luck / event CPU: {:.1}% in process, {:.1}% against the HTTP dealer's own (goal <= 10%)",
        100.0 * luck_per_game.as_secs_f64() / played_per_game.as_secs_f64(),
        100.0 * luck_per_game.as_secs_f64() / http_per_game.as_secs_f64().max(1e-9)
    );
}
