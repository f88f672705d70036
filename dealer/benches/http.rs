//! Whole sit'n'gos per second, over HTTP and in process, through the real runner and
//! tournament (the `dealer run` path, without the log files).
//!
//! ```text
//! cargo bench -p lean-poker-dealer --bench http            # or dealer/benches/http.sh
//! HTTP_BENCH_GAMES=40 cargo bench -p lean-poker-dealer --bench http
//! HTTP_BENCH_PLAYERS=/tmp/old-players cargo bench -p lean-poker-dealer --bench http
//! ```
//!
//! `HTTP_BENCH_PLAYERS` names a folder holding ready-made `player` and `calling-station`
//! binaries: they are used as they are (nothing is built), so that two player builds can be
//! compared side by side against the same dealer.
//!
//! Over HTTP, the players are **separate processes**: the release `player` binary (our SDK
//! serving the template bot) and the example `calling-station` binary, six of them, each on
//! its own loopback address (127.0.0.2 to 127.0.0.7) with one HTTP worker, `RUST_LOG=warn`.
//! The bench builds them first (`cargo build --release`). So the CPU time of this process
//! (`getrusage(RUSAGE_SELF)`) is the dealer's alone, and the players' CPU time is read from
//! `/proc/<pid>/stat`.
//!
//! One scenario per player kind also writes every log file (`GameOutputs`), as `dealer run`
//! does. Reported per scenario: hands/s, requests/s (every `check`, `version`, `bet_request` and
//! `showdown`), dealer CPU time per request, and the CPU share of dealer and players over the
//! wall time. A "sample" is a whole run of N sit'n'gos (LIVE blinds, 1000 chips, no hand limit),
//! so this is a bench binary rather than a criterion group. Machines here have 2 cores shared
//! with the players: compare scenarios side by side, not across machines.

use dealer::house::BotKind;
use dealer::rules::GameRules;
use dealer::runner::{RunnerOptions, StopSignal};
use dealer::seat::{CheckPolicy, PlayerEndpoint};
use dealer::tournament::{Entrant, GameContext, RunEnd, Tournament, TournamentSettings};
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const SEATS: usize = 6;

fn main() {
    let games: u32 = env_number("HTTP_BENCH_GAMES", 20);
    // Only the scenarios whose label contains this text (e.g. `HTTP, 6 template`).
    let filter = std::env::var("HTTP_BENCH_FILTER").unwrap_or_default();
    let wanted = |label: &str| label.contains(filter.as_str());
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("dealer/ is in the workspace")
        .to_path_buf();
    // A folder with ready-made `player` and `calling-station` binaries (to compare player
    // builds side by side); unset: the release binaries of this workspace, built first.
    let release = match std::env::var_os("HTTP_BENCH_PLAYERS") {
        Some(folder) => PathBuf::from(folder),
        None => build_players(&workspace),
    };

    // The dealer's runtime, as `dealer run` picks it: one thread for one game at a time, two
    // workers for games in parallel. `HTTP_BENCH_RUNTIME=multi` or `current` forces one kind.
    let forced = std::env::var("HTTP_BENCH_RUNTIME").ok();
    let one_thread = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let workers = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let runtime_for = |parallel: usize| match forced.as_deref() {
        Some("current") => &one_thread,
        Some("multi") => &workers,
        _ if parallel == 1 => &one_thread,
        _ => &workers,
    };
    println!(
        "{:<44} {:>6} {:>7} {:>9} {:>10} {:>10} {:>9} {:>9}",
        "scenario", "games", "hands", "hands/s", "requests/s", "dealer µs", "dealer", "players"
    );
    println!(
        "{:<44} {:>6} {:>7} {:>9} {:>10} {:>10} {:>9} {:>9}",
        "", "", "", "", "", "CPU/req", "CPU", "CPU"
    );
    for (binary, label) in [
        ("player", "template"),
        ("calling-station", "calling station"),
    ] {
        let mut labels: Vec<(usize, bool, String)> = [1, 4, 8]
            .into_iter()
            .map(|parallel| {
                let plural = if parallel == 1 { "" } else { "s" };
                let label = format!("HTTP, 6 {label} processes, {parallel} game{plural} at a time");
                (parallel, false, label)
            })
            .collect();
        // What `dealer run` does: the same, writing every log file.
        labels.push((
            4,
            true,
            format!("HTTP, 6 {label} processes, 4 games, log files"),
        ));
        labels.retain(|(_, _, label)| wanted(label));
        if labels.is_empty() {
            continue;
        }
        let players = PlayerProcesses::start(&release.join(binary));
        for (parallel, outputs, label) in labels {
            let entrants = players.entrants();
            let measured = runtime_for(parallel).block_on(measure(
                entrants,
                games,
                parallel,
                outputs,
                &players.pids(),
            ));
            measured.print(&label);
        }
    }
    for (kind, label) in [
        ("template", "template"),
        ("calling-station", "calling station"),
    ] {
        for parallel in [1, 2] {
            let plural = if parallel == 1 { "" } else { "s" };
            let label = format!("in process, 6 {label} bots, {parallel} game{plural} at a time");
            if !wanted(&label) {
                continue;
            }
            let entrants = (0..SEATS)
                .map(|i| Entrant::bot(format!("{kind}-{i}"), kind.parse::<BotKind>().unwrap()))
                .collect();
            let measured =
                runtime_for(parallel).block_on(measure(entrants, games * 5, parallel, false, &[]));
            measured.print(&label);
        }
    }
}

/// Builds the release player binaries; returns the folder that holds them.
fn build_players(workspace: &std::path::Path) -> PathBuf {
    eprintln!("building the release player binaries...");
    let built = Command::new(env!("CARGO"))
        .current_dir(workspace)
        .args([
            "build",
            "--release",
            "-p",
            "team",
            "--bin",
            "player",
            "-p",
            "lean-poker-examples",
            "--bin",
            "calling-station",
        ])
        .status()
        .expect("cargo runs");
    assert!(built.success(), "cargo build --release failed");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"));
    target.join("release")
}

fn env_number<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

struct Measured {
    games: usize,
    hands: u64,
    requests: u64,
    wall: Duration,
    dealer_cpu: Duration,
    players_cpu: Duration,
}

impl Measured {
    fn print(&self, label: &str) {
        let seconds = self.wall.as_secs_f64();
        println!(
            "{:<44} {:>6} {:>7} {:>9.0} {:>10.0} {:>10.1} {:>8.0}% {:>8.0}%",
            label,
            self.games,
            self.hands,
            self.hands as f64 / seconds,
            self.requests as f64 / seconds,
            self.dealer_cpu.as_secs_f64() * 1e6 / self.requests.max(1) as f64,
            100.0 * self.dealer_cpu.as_secs_f64() / seconds,
            100.0 * self.players_cpu.as_secs_f64() / seconds,
        );
    }
}

async fn measure(
    entrants: Vec<Entrant>,
    games: u32,
    parallel: usize,
    outputs: bool,
    pids: &[u32],
) -> Measured {
    let out = tempfile::tempdir().expect("a temporary folder");
    let settings = TournamentSettings {
        game: GameRules::default(),
        http: dealer::seat::HttpSettings::default(),
        games,
        seed: 2024,
        parallel,
        runner: RunnerOptions {
            check: CheckPolicy {
                deadline: Duration::from_secs(10),
                retry_interval: Duration::from_millis(20),
            },
            ..RunnerOptions::default()
        },
        out_dir: out.path().join("run"),
    };
    let mut tournament = Tournament::new(entrants, settings).expect("a valid run");
    if outputs {
        tournament = tournament.with_observers(std::sync::Arc::new(|context: &GameContext<'_>| {
            dealer::observe::GameOutputs::create(context.dir, &context.setup.players)
        }));
    }
    let players_before = players_cpu(pids);
    let dealer_before = own_cpu();
    let started = Instant::now();
    let report = tournament
        .run(&StopSignal::never())
        .await
        .expect("the run starts");
    let wall = started.elapsed();
    let dealer_cpu = own_cpu().saturating_sub(dealer_before);
    let players_cpu = players_cpu(pids).saturating_sub(players_before);
    assert_eq!(report.end, RunEnd::Complete, "{:?}", report.end);
    let games = &report.results.games;
    for game in games {
        assert!(game.result.bans.is_empty(), "bans: {:?}", game.result.bans);
        assert!(game.absent.is_empty());
    }
    Measured {
        games: games.len(),
        hands: games.iter().map(|g| g.result.hands_played).sum(),
        requests: games.iter().map(|g| g.requests).sum(),
        wall,
        dealer_cpu,
        players_cpu,
    }
}

/// User + system CPU time of this process (the dealer; players are other processes).
fn own_cpu() -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a rusage struct.
    let status = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    assert_eq!(status, 0, "getrusage");
    let micros = |time: libc::timeval| time.tv_sec as u64 * 1_000_000 + time.tv_usec as u64;
    if std::env::var_os("HTTP_BENCH_SPLIT").is_some() {
        eprintln!(
            "dealer CPU so far: user {} ms, system {} ms",
            micros(usage.ru_utime) / 1000,
            micros(usage.ru_stime) / 1000
        );
    }
    Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime))
}

/// User + system CPU time of these processes, from `/proc/<pid>/stat`.
fn players_cpu(pids: &[u32]) -> Duration {
    // SAFETY: sysconf has no preconditions.
    let ticks_per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    let ticks: u64 = pids
        .iter()
        .map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // Fields after the command name (which is in parentheses): utime is the 12th, stime
            // the 13th.
            let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            let fields: Vec<&str> = after_name.split_whitespace().collect();
            let field = |index: usize| fields.get(index).and_then(|v| v.parse::<u64>().ok());
            field(11).unwrap_or(0) + field(12).unwrap_or(0)
        })
        .sum();
    Duration::from_micros(ticks * 1_000_000 / ticks_per_second)
}

/// Six player processes on 127.0.0.2 to 127.0.0.7; killed when dropped.
struct PlayerProcesses {
    children: Vec<Child>,
    urls: Vec<String>,
}

impl PlayerProcesses {
    fn start(binary: &std::path::Path) -> PlayerProcesses {
        let mut children = Vec::new();
        let mut urls = Vec::new();
        for index in 0..SEATS {
            let ip = Ipv4Addr::new(127, 0, 0, 2 + index as u8);
            let port = free_port(ip);
            let child = Command::new(binary)
                .env("PORT", port.to_string())
                .env("PLAYER_HOST", ip.to_string())
                .env("PLAYER_WORKERS", "1")
                .env("RUST_LOG", "warn")
                .stdout(Stdio::null())
                .spawn()
                .unwrap_or_else(|error| panic!("cannot start {}: {error}", binary.display()));
            children.push(child);
            urls.push(format!("http://{ip}:{port}/"));
        }
        PlayerProcesses { children, urls }
    }

    fn entrants(&self) -> Vec<Entrant> {
        self.urls
            .iter()
            .enumerate()
            .map(|(index, url)| {
                Entrant::http(
                    format!("p{index}"),
                    PlayerEndpoint::parse(url).expect("a URL"),
                )
            })
            .collect()
    }

    fn pids(&self) -> Vec<u32> {
        self.children.iter().map(Child::id).collect()
    }
}

impl Drop for PlayerProcesses {
    fn drop(&mut self) {
        for child in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn free_port(ip: Ipv4Addr) -> u16 {
    TcpListener::bind(SocketAddr::from((ip, 0)))
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .expect("a free loopback port")
}
