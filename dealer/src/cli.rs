//! The `dealer` command line: `demo`, `run` and `bots`. `main.rs` only calls [`main`].
//!
//! Exit codes: 0 when the run completed (bans are results, not errors), 1 when it could not be
//! played to its end (players down, a file that cannot be written), 2 for bad arguments or a bad
//! config file, 130 when stopped with Ctrl-C. Every error is one line on stderr.

use crate::config::{BadAnswerPolicy, BlindSchedule, GameConfig, OddChipRule};
use crate::house::{self, BotKind};
use crate::progress::Screen;
use crate::runner::{stop_signal, AbsentPolicy, Clock, RunnerOptions, StopSignal};
use crate::seat::{CheckPolicy, PlayerEndpoint};
use crate::tournament::{
    Entrant, EntrantKind, GameContext, ObserverFactory, RunEnd, RunReport, Tournament,
    TournamentSettings,
};
use clap::{ArgAction, Args, Parser, Subcommand, ValueEnum};
use rand::{RngCore, SeedableRng};
use serde::Deserialize;
use shared::Chips;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

const EXAMPLES: &str = "\
Examples:
  dealer demo                          watch house bots play a sit'n'go over HTTP
  dealer run --player ann=http://10.0.0.5:8080 --player bob=http://10.0.0.6:8080 \\
             --bot house=raiser --games 20 --parallel 2
  dealer run --config friday.toml --games 50 --seed 7
  dealer bots                          list the house bot kinds for --bot

Every run writes its logs under --out (default ./games/<UTC time>): results.json for the
whole run, and per game game-<n>/log.json (the Lean Poker viewer log), requests.jsonl, hands/
(PHH hand histories) and players/<name>.log. Logs on stderr: -v, -vv, or RUST_LOG.";

/// The Lean Poker house server: plays sit'n'go tournaments between Lean Poker players over
/// HTTP, exactly by the live server's rules, and writes every log.
#[derive(Debug, Parser)]
#[command(name = "dealer", version, after_help = EXAMPLES, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    command: Command,
    /// More log lines on stderr: -v info, -vv debug, -vvv trace (RUST_LOG, when set, wins).
    #[arg(short, long, action = ArgAction::Count, global = true)]
    verbose: u8,
    /// No progress bars.
    #[arg(short, long, global = true)]
    quiet: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play one sit'n'go between house bots served over real HTTP on this machine.
    ///
    /// Starts several example bots as HTTP players (our SDK on 127.0.0.1, ports picked by the
    /// system), plays one sit'n'go between them with a progress bar, then prints the ranking,
    /// the bans and where the logs are.
    #[command(after_help = "Example:\n  dealer demo --seed 42 --out games/demo")]
    Demo(DemoArgs),
    /// Play sit'n'gos between your players (HTTP URLs) and house bots.
    ///
    /// Plays --games sit'n'gos (seeds derived from --seed, seats shuffled per game), up to
    /// --parallel at a time, with a progress bar, then prints the points table. Settings come
    /// from the command line, then the --config file, then the defaults: a flag wins over the
    /// file; --player, --bot and --token add to the file's players.
    #[command(after_help = RUN_HELP)]
    Run(Box<RunArgs>),
    /// List the house bot kinds usable with --bot NAME=KIND.
    Bots,
}

const RUN_HELP: &str = "\
Examples:
  dealer run --player ann=http://10.0.0.5:8080 --player bob=http://10.0.0.6:8080
  dealer run --player ann=http://team:s3cret@10.0.0.5:8080 --bot house=raiser --games 10
  dealer run --config friday.toml --parallel 4

Config file (TOML; every key optional, same meaning as the flag of the same name):
  games = 20
  seed = 7
  parallel = 2
  out = \"games/friday\"
  blinds = \"live\"            # or \"classic\", or [[blinds.custom]] levels (from_round, small_blind)
  stack = 1000
  timeout_ms = 2000
  hand_limit = 500
  forgiving = false
  wait_ms = 10000
  absent = \"sit-out\"         # sit-out | fail | play
  reproducible = false
  odd_chips = \"left_of_button\" # or \"discard_like_oss\"
  deal_out_board = true
  [[player]]
  name = \"ann\"
  url = \"http://10.0.0.5:8080/\"
  token = \"s3cret\"           # optional: Authorization: Bearer s3cret
  [[bot]]
  name = \"house\"
  kind = \"raiser\"

Seeds: game n plays with the n-th number drawn from ChaCha8(--seed); the same --seed and the
same players in the same order replay the same games.";

#[derive(Debug, Args)]
struct DemoArgs {
    /// Seed of everything random (cards, seats, random bots); random when not given.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Folder for the logs [default: ./games/<UTC time>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Stop after this many hands (the survivors are ranked by chips).
    #[arg(long, value_name = "N", value_parser = positive_u64)]
    hand_limit: Option<u64>,
    /// The house bots to seat, comma-separated (see `dealer bots`)
    /// [default: template, calling-station, raiser, random, and equity when available].
    #[arg(long, value_name = "KIND,...", value_delimiter = ',', value_parser = bot_kind)]
    bots: Vec<BotKind>,
    /// Blind schedule: live (2/4, up every 10 hands) or classic (10/20, doubling every 3 orbits).
    #[arg(long, value_enum, value_name = "SCHEDULE")]
    blinds: Option<Blinds>,
    /// Zero every time value in the logs, so the same seed gives byte-identical logs.
    #[arg(long)]
    reproducible: bool,
}

#[derive(Debug, Args)]
struct RunArgs {
    /// A player served over HTTP, as NAME=URL (repeat for each player). Credentials may be in
    /// the URL (http://user:secret@host:port/, sent as HTTP Basic). https:// URLs are checked
    /// against the system's CA certificates, or those in the file SSL_CERT_FILE names.
    #[arg(long = "player", value_name = "NAME=URL", value_parser = player_arg)]
    players: Vec<(String, PlayerEndpoint)>,
    /// A house bot played in this process, as NAME=KIND (see `dealer bots`).
    #[arg(long = "bot", value_name = "NAME=KIND", value_parser = bot_arg)]
    bots: Vec<(String, BotKind)>,
    /// A secret sent to player NAME as `Authorization: Bearer TOKEN`, as NAME=TOKEN.
    #[arg(long = "token", value_name = "NAME=TOKEN", value_parser = token_arg)]
    tokens: Vec<(String, String)>,
    /// Number of sit'n'gos [default: 1].
    #[arg(long, value_name = "N", value_parser = positive_u32)]
    games: Option<u32>,
    /// Run seed: the same seed replays the same games [default: random, printed].
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Blind schedule: live (2/4, up every 10 hands) or classic (10/20, doubling every 3
    /// orbits) [default: live].
    #[arg(long, value_enum, value_name = "SCHEDULE")]
    blinds: Option<Blinds>,
    /// Chips each player starts with [default: 1000].
    #[arg(long, value_name = "N", value_parser = positive_u64)]
    stack: Option<u64>,
    /// How long a player may take to answer one request, in milliseconds [default: 2000].
    #[arg(long, value_name = "MS", value_parser = positive_u64)]
    timeout_ms: Option<u64>,
    /// Stop each game after this many hands (survivors are ranked by chips) [default: none].
    #[arg(long, value_name = "N", value_parser = positive_u64)]
    hand_limit: Option<u64>,
    /// Do not ban bad answers: count them as check/fold and record a warning.
    #[arg(long)]
    forgiving: bool,
    /// Folder for results.json and the game logs [default: ./games/<UTC time>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// How many games to play at the same time [default: 1].
    #[arg(long, value_name = "K", value_parser = positive_usize)]
    parallel: Option<usize>,
    /// Read settings from a TOML file (see below); flags win over it.
    #[arg(long, value_name = "FILE.toml")]
    config: Option<PathBuf>,
    /// How long to wait for every player to answer `check` before each game, in milliseconds
    /// [default: 10000].
    #[arg(long, value_name = "MS", value_parser = positive_u64)]
    wait_ms: Option<u64>,
    /// What to do with players still down after --wait-ms: sit them out of the game, fail the
    /// run, or play them anyway (banned at their first bet) [default: sit-out].
    #[arg(long, value_enum, value_name = "POLICY")]
    absent: Option<Absent>,
    /// Zero every time value in the logs, so the same seed gives byte-identical logs.
    #[arg(long)]
    reproducible: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Blinds {
    Live,
    Classic,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Absent {
    SitOut,
    Fail,
    Play,
}

impl From<Absent> for AbsentPolicy {
    fn from(absent: Absent) -> AbsentPolicy {
        match absent {
            Absent::SitOut => AbsentPolicy::SitOut,
            Absent::Fail => AbsentPolicy::Fail,
            Absent::Play => AbsentPolicy::Play,
        }
    }
}

/// The config file (`--config`): the flags' settings, in TOML.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    games: Option<u32>,
    seed: Option<u64>,
    parallel: Option<usize>,
    out: Option<PathBuf>,
    blinds: Option<BlindSchedule>,
    stack: Option<u64>,
    timeout_ms: Option<u64>,
    hand_limit: Option<u64>,
    forgiving: Option<bool>,
    wait_ms: Option<u64>,
    absent: Option<AbsentPolicy>,
    reproducible: Option<bool>,
    odd_chips: Option<OddChipRule>,
    deal_out_board: Option<bool>,
    #[serde(default, rename = "player")]
    players: Vec<FilePlayer>,
    #[serde(default, rename = "bot")]
    bots: Vec<FileBot>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FilePlayer {
    name: String,
    url: String,
    token: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileBot {
    name: String,
    kind: String,
}

/// A one-line error and its exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Failure {
    message: String,
    code: u8,
}

impl Failure {
    fn usage(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 2,
        }
    }

    fn run(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 1,
        }
    }
}

/// Runs the `dealer` command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return clap_failure(&error),
    };
    let screen = Screen::stderr(!cli.quiet);
    init_logging(cli.verbose, &screen);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(async {
        match cli.command {
            Command::Demo(args) => demo(args, &screen).await,
            Command::Run(args) => run(*args, &screen).await,
            Command::Bots => {
                bots();
                Ok(())
            }
        }
    });
    // Stragglers (a player thread stuck in a bot) must not keep the process alive.
    runtime.shutdown_timeout(Duration::from_secs(1));
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}

/// clap's own errors, on one line (help and version are printed as they are).
fn clap_failure(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = error.print();
        return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
    }
    let message = match error.kind() {
        // clap would echo the value whole: a URL may carry a password.
        ErrorKind::ValueValidation => {
            use clap::error::{ContextKind, ContextValue};
            let context = |kind| match error.get(kind) {
                Some(ContextValue::String(text)) => Some(text.clone()),
                _ => None,
            };
            let arg = context(ContextKind::InvalidArg).unwrap_or_else(|| "an argument".into());
            let value = context(ContextKind::InvalidValue)
                .map(|value| format!(" '{}'", shorten(&value)))
                .unwrap_or_default();
            let reason = std::error::Error::source(error)
                .map(|source| format!(": {source}"))
                .unwrap_or_default();
            format!("invalid value{value} for '{arg}'{reason}")
        }
        _ => {
            let rendered = error.render().to_string();
            let first = rendered
                .lines()
                .find(|line| !line.trim().is_empty())
                .unwrap_or("invalid arguments")
                .trim();
            first.strip_prefix("error: ").unwrap_or(first).to_string()
        }
    };
    eprintln!("error: {message} (see dealer --help)");
    ExitCode::from(2)
}

fn init_logging(verbose: u8, screen: &Screen) {
    use std::str::FromStr;
    use tracing_subscriber::filter::Targets;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let default = match verbose {
        0 => "warn",
        1 => "info,player=warn",
        2 => "debug",
        _ => "trace",
    };
    let filter = match std::env::var("RUST_LOG") {
        Ok(directives) if !directives.trim().is_empty() => Targets::from_str(directives.trim())
            .unwrap_or_else(|error| {
                screen.println(&format!(
                    "RUST_LOG={directives:?} is not a log filter ({error}); using {default}"
                ));
                Targets::from_str(default).unwrap_or_default()
            }),
        _ => Targets::from_str(default).unwrap_or_default(),
    };
    let format = tracing_subscriber::fmt::layer()
        .with_writer(screen.log_writer())
        .with_ansi(std::io::stderr().is_terminal());
    let _ = tracing_subscriber::registry()
        .with(format)
        .with(filter)
        .try_init();
}

fn bots() {
    println!("House bot kinds (dealer run --bot NAME=KIND, dealer demo --bots KIND,...):");
    for kind in house::kinds() {
        let note = if kind == house::TEMPLATE {
            "  (the SDK's template bot: what a team starts from)"
        } else {
            ""
        };
        println!("  {kind}{note}");
    }
}

/// Stops the run on Ctrl-C or SIGTERM (`docker stop`); a second one quits at once.
fn stop_on_ctrl_c(screen: &Screen) -> StopSignal {
    let (handle, signal) = stop_signal();
    let screen = screen.clone();
    tokio::spawn(async move {
        if interrupted().await {
            screen.println(
                "stopping: finishing the logs of the games in progress (Ctrl-C again to quit now)",
            );
            handle.stop();
            if interrupted().await {
                eprintln!("error: interrupted");
                std::process::exit(130);
            }
        }
    });
    signal
}

/// Waits for Ctrl-C (SIGINT) or, on Unix, SIGTERM. `false` if no signal can be listened to.
async fn interrupted() -> bool {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut terminate) = signal(SignalKind::terminate()) {
            return tokio::select! {
                _ = terminate.recv() => true,
                result = tokio::signal::ctrl_c() => result.is_ok(),
            };
        }
    }
    tokio::signal::ctrl_c().await.is_ok()
}

// ----------------------------------------------------------------------------- demo

/// The demo's bots when `--bots` is not given.
fn demo_lineup() -> Vec<BotKind> {
    [
        house::TEMPLATE,
        "calling-station",
        "raiser",
        "random",
        "equity",
    ]
    .iter()
    .filter_map(|kind| kind.parse().ok())
    .collect()
}

async fn demo(args: DemoArgs, screen: &Screen) -> Result<(), Failure> {
    let kinds = if args.bots.is_empty() {
        demo_lineup()
    } else {
        args.bots
    };
    if kinds.len() < crate::engine::MIN_SEATS || kinds.len() > crate::engine::MAX_SEATS {
        return Err(Failure::usage(format!(
            "--bots needs 2 to {} bots, got {}",
            crate::engine::MAX_SEATS,
            kinds.len()
        )));
    }
    let seed = args.seed.unwrap_or_else(random_seed);
    let mut servers = Vec::with_capacity(kinds.len());
    let mut entrants = Vec::with_capacity(kinds.len());
    for (index, kind) in kinds.iter().enumerate() {
        let bot = kind.build(seed.wrapping_add(index as u64));
        let server = house::serve_on_loopback(bot)
            .map_err(|error| Failure::run(format!("cannot start the {kind} bot: {error}")))?;
        let endpoint = PlayerEndpoint::parse(&server.url())
            .map_err(|error| Failure::run(format!("the {kind} bot's address: {error}")))?;
        let name = unique_name(kind.as_str(), &entrants);
        entrants.push(Entrant::http(name, endpoint));
        servers.push(server);
    }
    let mut game = GameConfig {
        hand_limit: args.hand_limit,
        ..GameConfig::default()
    };
    if let Some(blinds) = args.blinds {
        game.blinds = schedule(blinds);
    }
    let settings = TournamentSettings {
        game,
        games: 1,
        seed,
        parallel: 1,
        runner: RunnerOptions {
            check: CheckPolicy {
                deadline: Duration::from_secs(5),
                retry_interval: Duration::from_millis(50),
            },
            clock: if args.reproducible {
                Clock::Reproducible
            } else {
                Clock::Wall
            },
            ..RunnerOptions::default()
        },
        out_dir: out_dir(args.out)?,
    };
    println!(
        "Demo: {} house bots over HTTP on 127.0.0.1, seed {seed}",
        entrants.len()
    );
    for (entrant, server) in entrants.iter().zip(&servers) {
        println!("  {:<18} {}", entrant.name, server.url());
    }
    let report = play(entrants, settings, screen).await;
    for server in servers {
        let _ = server.stop().await;
    }
    let report = report?;
    print_demo(&report);
    finish(&report)
}

fn unique_name(base: &str, entrants: &[Entrant]) -> String {
    let taken = |name: &str| entrants.iter().any(|e| e.name == name);
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|name| !taken(name))
        .unwrap_or_else(|| base.to_string())
}

fn print_demo(report: &RunReport) {
    let Some(game) = report.results.games.first() else {
        return;
    };
    println!();
    println!(
        "Ranking after {} hands ({}):",
        game.result.hands_played,
        match game.result.ended_by {
            crate::event::GameEndReason::LastPlayerStanding => "one player left",
            crate::event::GameEndReason::HandLimit => "hand limit",
        }
    );
    let width = name_width(game.standings.iter().map(|s| s.name.as_str()));
    println!(
        "  {:>2}  {:<width$}  {:>6}  {:>10}  how it ended",
        "#", "player", "points", "chips"
    );
    for standing in &game.standings {
        let ended = match (standing.banned, standing.eliminated_in_round) {
            (true, Some(round)) => format!("banned in hand {round}"),
            (true, None) => "banned".to_string(),
            (false, Some(round)) => format!("out in hand {round}"),
            (false, None) => String::new(),
        };
        let line = format!(
            "  {:>2}  {:<width$}  {:>6}  {:>10}  {ended}",
            standing.place, standing.name, standing.points, standing.final_stack
        );
        println!("{}", line.trim_end());
    }
    print_bans(report);
    let dir = report
        .results_path
        .parent()
        .map(|dir| dir.join(&game.dir))
        .unwrap_or_default();
    println!();
    println!("Logs: {}", dir.display());
    println!("  log.json        the Lean Poker viewer log");
    println!("  requests.jsonl  every bet_request sent, with the answer");
    println!("  hands/          every hand as a PHH hand history");
    println!("  players/        one log per player: every request and response");
    println!("Results: {}", report.results_path.display());
}

// ----------------------------------------------------------------------------- run

async fn run(args: RunArgs, screen: &Screen) -> Result<(), Failure> {
    let (entrants, settings) = resolve_run(args)?;
    println!(
        "Run: {} players, {} game{}, seed {} (replay with --seed {})",
        entrants.len(),
        settings.games,
        if settings.games == 1 { "" } else { "s" },
        settings.seed,
        settings.seed
    );
    let report = play(entrants, settings, screen).await?;
    print_run(&report);
    finish(&report)
}

/// The command line and the config file merged into a run.
fn resolve_run(args: RunArgs) -> Result<(Vec<Entrant>, TournamentSettings), Failure> {
    let file = match &args.config {
        Some(path) => read_config(path)?,
        None => ConfigFile::default(),
    };
    let mut entrants = Vec::new();
    for player in &file.players {
        check_name(&player.name).map_err(Failure::usage)?;
        let mut endpoint = PlayerEndpoint::parse(&player.url).map_err(|error| {
            Failure::usage(format!("player {:?} in the config: {error}", player.name))
        })?;
        if let Some(token) = &player.token {
            endpoint = endpoint.with_bearer_token(token).map_err(|error| {
                Failure::usage(format!("player {:?} in the config: {error}", player.name))
            })?;
        }
        entrants.push(Entrant::http(player.name.clone(), endpoint));
    }
    for bot in &file.bots {
        check_name(&bot.name).map_err(Failure::usage)?;
        let kind: BotKind = bot.kind.parse().map_err(|error| {
            Failure::usage(format!("bot {:?} in the config: {error}", bot.name))
        })?;
        entrants.push(Entrant::bot(bot.name.clone(), kind));
    }
    for (name, endpoint) in args.players {
        entrants.push(Entrant::http(name, endpoint));
    }
    for (name, kind) in args.bots {
        entrants.push(Entrant::bot(name, kind));
    }
    for (name, token) in &args.tokens {
        let entrant = entrants
            .iter_mut()
            .find(|e| &e.name == name && matches!(e.kind, EntrantKind::Http(_)))
            .ok_or_else(|| {
                Failure::usage(format!(
                    "--token {name}=…: there is no HTTP player named {name:?}"
                ))
            })?;
        if let EntrantKind::Http(endpoint) = &entrant.kind {
            let endpoint = endpoint
                .clone()
                .with_bearer_token(token)
                .map_err(|error| Failure::usage(format!("--token {name}=…: {error}")))?;
            entrant.kind = EntrantKind::Http(endpoint);
        }
    }
    for (index, entrant) in entrants.iter().enumerate() {
        if entrants[..index].iter().any(|e| e.name == entrant.name) {
            return Err(Failure::usage(format!(
                "two players are named {:?}; names must be unique",
                entrant.name
            )));
        }
    }
    if entrants.len() < crate::engine::MIN_SEATS {
        return Err(Failure::usage(format!(
            "a sit'n'go needs at least 2 players, got {} (add --player NAME=URL or --bot NAME=KIND)",
            entrants.len()
        )));
    }
    if entrants.len() > crate::engine::MAX_SEATS {
        return Err(Failure::usage(format!(
            "a sit'n'go seats at most {} players, got {}",
            crate::engine::MAX_SEATS,
            entrants.len()
        )));
    }

    let mut game = GameConfig::default();
    if let Some(blinds) = file.blinds {
        game.blinds = blinds;
    }
    if let Some(blinds) = args.blinds {
        game.blinds = schedule(blinds);
    }
    if let Some(stack) = args.stack.or(file.stack) {
        game.starting_stack = Chips(stack);
    }
    if let Some(timeout) = args.timeout_ms.or(file.timeout_ms) {
        game.request_timeout_ms = timeout;
    }
    if let Some(limit) = args.hand_limit.or(file.hand_limit) {
        game.hand_limit = Some(limit);
    }
    if args.forgiving || file.forgiving == Some(true) {
        game.bad_answers = BadAnswerPolicy::Forgive;
    }
    if let Some(rule) = file.odd_chips {
        game.odd_chips = rule;
    }
    if let Some(deal_out) = file.deal_out_board {
        game.deal_out_board = deal_out;
    }
    game.validate()
        .map_err(|error| Failure::usage(error.to_string()))?;

    let games = args.games.or(file.games).unwrap_or(1);
    if games == 0 {
        return Err(Failure::usage("games must be at least 1"));
    }
    let parallel = args.parallel.or(file.parallel).unwrap_or(1);
    if parallel == 0 {
        return Err(Failure::usage("parallel must be at least 1"));
    }
    let wait_ms = args.wait_ms.or(file.wait_ms).unwrap_or(10_000);
    if wait_ms == 0 {
        return Err(Failure::usage("wait_ms must be at least 1"));
    }
    let reproducible = args.reproducible || file.reproducible == Some(true);
    let settings = TournamentSettings {
        game,
        games,
        seed: args.seed.or(file.seed).unwrap_or_else(random_seed),
        parallel,
        runner: RunnerOptions {
            check: CheckPolicy {
                deadline: Duration::from_millis(wait_ms),
                ..CheckPolicy::default()
            },
            absent: args
                .absent
                .map(AbsentPolicy::from)
                .or(file.absent)
                .unwrap_or_default(),
            clock: if reproducible {
                Clock::Reproducible
            } else {
                Clock::Wall
            },
            ..RunnerOptions::default()
        },
        out_dir: out_dir(args.out.or(file.out))?,
    };
    Ok((entrants, settings))
}

fn read_config(path: &Path) -> Result<ConfigFile, Failure> {
    let text = std::fs::read_to_string(path).map_err(|error| {
        Failure::usage(format!("cannot read config {}: {error}", path.display()))
    })?;
    toml::from_str(&text).map_err(|error| {
        let line = error
            .span()
            .map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1);
        let at = line
            .map(|line| format!(" (line {line})"))
            .unwrap_or_default();
        let message = error
            .message()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        Failure::usage(format!("invalid config {}{at}: {message}", path.display()))
    })
}

fn print_run(report: &RunReport) {
    let results = &report.results;
    if results.games.is_empty() {
        return;
    }
    println!();
    println!(
        "Points after {} of {} game{} (seed {}):",
        results.games.len(),
        results.games_planned,
        if results.games_planned == 1 { "" } else { "s" },
        results.seed
    );
    let width = name_width(results.totals.iter().map(|t| t.name.as_str()));
    println!(
        "  {:>2}  {:<width$}  {:>6}  {:>4}  {:>4}  {:>5}  {:>4}  {:>6}",
        "#", "player", "points", "1st", "2nd", "games", "bans", "absent"
    );
    for (index, total) in results.totals.iter().enumerate() {
        println!(
            "  {:>2}  {:<width$}  {:>6}  {:>4}  {:>4}  {:>5}  {:>4}  {:>6}",
            index + 1,
            total.name,
            total.points,
            total.wins,
            total.seconds,
            total.games,
            total.bans,
            total.absent
        );
    }
    print_bans(report);
    let dir = report.results_path.parent().unwrap_or(Path::new("."));
    println!();
    println!("Results: {}", report.results_path.display());
    println!(
        "Logs:    {}/game-<n>/ (log.json, requests.jsonl, hands/, players/)",
        dir.display()
    );
}

fn print_bans(report: &RunReport) {
    let games = &report.results.games;
    let several = report.results.games_planned > 1;
    let mut lines = Vec::new();
    for game in games {
        let prefix = if several {
            format!("game {}, ", game.game)
        } else {
            String::new()
        };
        for ban in &game.result.bans {
            lines.push(format!(
                "  {prefix}hand {}: {} banned: {}",
                ban.round, ban.name, ban.reason
            ));
        }
        for warning in &game.result.warnings {
            lines.push(format!(
                "  {prefix}hand {}: {} warned ({}): {}",
                warning.round, warning.name, warning.counted_as, warning.reason
            ));
        }
        for absent in &game.absent {
            lines.push(format!(
                "  {prefix}{} sat out (not up): {}",
                absent.name, absent.reason
            ));
        }
        for failure in &game.observer_errors {
            lines.push(format!("  {prefix}{failure}"));
        }
    }
    println!();
    if lines.is_empty() {
        println!("Bans: none");
    } else {
        println!("Bans and warnings:");
        for line in lines {
            println!("{line}");
        }
    }
}

fn name_width<'a>(names: impl Iterator<Item = &'a str>) -> usize {
    names
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, 40)
}

// ----------------------------------------------------------------------------- shared

/// Plays a run with progress bars, Ctrl-C handling and the game outputs.
async fn play(
    entrants: Vec<Entrant>,
    settings: TournamentSettings,
    screen: &Screen,
) -> Result<RunReport, Failure> {
    let progress = screen.run(settings.games);
    let tournament = Tournament::new(entrants, settings)
        .map_err(|error| Failure::usage(error.to_string()))?
        .with_observers(game_outputs())
        .with_progress(progress.clone());
    let stop = stop_on_ctrl_c(screen);
    let report = tournament.run(&stop).await;
    progress.finish();
    report.map_err(|error| Failure::run(error.to_string()))
}

/// The files of every game (`game-<n>/`): viewer log, requests, PHH hands, player logs.
fn game_outputs() -> ObserverFactory {
    Arc::new(|context: &GameContext<'_>| {
        crate::observe::GameOutputs::create(context.dir, &context.setup.players)
    })
}

/// The exit status of a finished run.
fn finish(report: &RunReport) -> Result<(), Failure> {
    match &report.end {
        RunEnd::Complete => Ok(()),
        RunEnd::Stopped => Err(Failure {
            message: format!(
                "interrupted: {} of {} games completed; their results are in {}",
                report.results.games.len(),
                report.results.games_planned,
                report.results_path.display()
            ),
            code: 130,
        }),
        RunEnd::Failed(reason) => Err(Failure::run(format!(
            "{reason} (results of the games completed: {})",
            report.results_path.display()
        ))),
    }
}

fn schedule(blinds: Blinds) -> BlindSchedule {
    match blinds {
        Blinds::Live => BlindSchedule::Live,
        Blinds::Classic => BlindSchedule::Classic,
    }
}

/// `--out`, or `./games/<UTC time>` (with `-2`, `-3`... if that exists already).
fn out_dir(out: Option<PathBuf>) -> Result<PathBuf, Failure> {
    if let Some(out) = out {
        return Ok(out);
    }
    let now = time::OffsetDateTime::now_utc();
    let stamp = format!(
        "{:04}-{:02}-{:02}T{:02}-{:02}-{:02}Z",
        now.year(),
        u8::from(now.month()),
        now.day(),
        now.hour(),
        now.minute(),
        now.second()
    );
    let base = Path::new("games").join(&stamp);
    if !base.exists() {
        return Ok(base);
    }
    (2..1000)
        .map(|n| Path::new("games").join(format!("{stamp}-{n}")))
        .find(|path| !path.exists())
        .ok_or_else(|| Failure::run("cannot find a free folder under ./games; use --out"))
}

/// A seed from the clock and the process id, for runs without `--seed` (it is printed and
/// saved in results.json, so such a run can be replayed too).
fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_nanos() as u64)
        .unwrap_or(0);
    let mut rng =
        rand_chacha::ChaCha8Rng::seed_from_u64(nanos ^ (u64::from(std::process::id()) << 32));
    // Keep seeds short enough to type.
    rng.next_u64() % 1_000_000_000
}

// ----------------------------------------------------------------------------- parsers

fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("a player name must not be blank".to_string());
    }
    if name.chars().any(char::is_control) {
        return Err(format!("the player name {name:?} has control characters"));
    }
    if name.chars().count() > 100 {
        return Err("a player name has at most 100 characters".to_string());
    }
    Ok(())
}

fn split_pair<'a>(text: &'a str, what: &str) -> Result<(&'a str, &'a str), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("expected NAME={what}, got {:?}", shorten(text)))?;
    check_name(name)?;
    if value.is_empty() {
        return Err(format!(
            "expected NAME={what}: the {what} after '=' is empty"
        ));
    }
    Ok((name, value))
}

/// A value for error messages: never echo a long or secret-bearing text (userinfo of a URL)
/// whole.
fn shorten(text: &str) -> String {
    if let Some((before, _)) = text.split_once('@') {
        let name = before.split_once('=').map_or("", |(name, _)| name);
        return if name.is_empty() {
            "…".to_string()
        } else {
            format!("{name}=…")
        };
    }
    let short: String = text.chars().take(60).collect();
    if short.len() < text.len() {
        format!("{short}…")
    } else {
        short
    }
}

fn player_arg(text: &str) -> Result<(String, PlayerEndpoint), String> {
    let (name, url) = split_pair(text, "URL")?;
    let endpoint = PlayerEndpoint::parse(url).map_err(|error| error.to_string())?;
    Ok((name.to_string(), endpoint))
}

fn bot_arg(text: &str) -> Result<(String, BotKind), String> {
    let (name, kind) = split_pair(text, "KIND")?;
    let kind = kind
        .parse()
        .map_err(|error: house::UnknownBotKind| error.to_string())?;
    Ok((name.to_string(), kind))
}

fn bot_kind(text: &str) -> Result<BotKind, String> {
    text.trim()
        .parse()
        .map_err(|error: house::UnknownBotKind| error.to_string())
}

fn token_arg(text: &str) -> Result<(String, String), String> {
    let (name, token) = text
        .split_once('=')
        .ok_or_else(|| "expected NAME=TOKEN".to_string())?;
    check_name(name)?;
    if token.is_empty() {
        return Err("expected NAME=TOKEN: the token is empty".to_string());
    }
    Ok((name.to_string(), token.to_string()))
}

fn positive_u64(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(value) => Ok(value),
        Err(_) => Err(format!("{:?} is not a whole number", shorten(text))),
    }
}

fn positive_u32(text: &str) -> Result<u32, String> {
    let value = positive_u64(text)?;
    u32::try_from(value).map_err(|_| format!("{value} is too large"))
}

fn positive_usize(text: &str) -> Result<usize, String> {
    let value = positive_u64(text)?;
    usize::try_from(value).map_err(|_| format!("{value} is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<(Vec<Entrant>, TournamentSettings), String> {
        let mut argv = vec!["dealer", "run"];
        argv.extend_from_slice(args);
        let cli = Cli::try_parse_from(argv).map_err(|error| error.to_string())?;
        match cli.command {
            Command::Run(args) => resolve_run(*args).map_err(|failure| failure.message),
            _ => Err("not run".into()),
        }
    }

    #[test]
    fn flags_become_settings() {
        let (entrants, settings) = parse(&[
            "--player",
            "ann=http://127.0.0.1:9001",
            "--bot",
            "house=raiser",
            "--games",
            "3",
            "--seed",
            "9",
            "--blinds",
            "classic",
            "--stack",
            "500",
            "--timeout-ms",
            "700",
            "--forgiving",
            "--parallel",
            "2",
            "--hand-limit",
            "40",
            "--absent",
            "fail",
            "--out",
            "x",
        ])
        .unwrap();
        assert_eq!(entrants.len(), 2);
        assert_eq!(entrants[0].name, "ann");
        assert!(matches!(entrants[1].kind, EntrantKind::Bot(_)));
        assert_eq!(settings.games, 3);
        assert_eq!(settings.seed, 9);
        assert_eq!(settings.parallel, 2);
        assert_eq!(settings.game.blinds, BlindSchedule::Classic);
        assert_eq!(settings.game.starting_stack, Chips(500));
        assert_eq!(settings.game.request_timeout_ms, 700);
        assert_eq!(settings.game.hand_limit, Some(40));
        assert_eq!(settings.game.bad_answers, BadAnswerPolicy::Forgive);
        assert_eq!(settings.runner.absent, AbsentPolicy::Fail);
        assert_eq!(settings.out_dir, PathBuf::from("x"));
    }

    #[test]
    fn flags_win_over_the_config_file_and_players_add_up() {
        let dir = std::env::temp_dir().join(format!("dealer-cli-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.toml");
        std::fs::write(
            &path,
            r#"
            games = 5
            seed = 1
            timeout_ms = 900
            stack = 3000
            absent = "play"
            [[blinds.custom]]
            from_round = 0
            small_blind = 7
            [[player]]
            name = "ann"
            url = "http://127.0.0.1:9001/"
            token = "s3cret"
            [[bot]]
            name = "house"
            kind = "calling-station"
            "#,
        )
        .unwrap();
        let config = path.to_str().unwrap();
        let (entrants, settings) =
            parse(&["--config", config, "--games", "2", "--bot", "other=folder"]).unwrap();
        let names: Vec<&str> = entrants.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["ann", "house", "other"]);
        match &entrants[0].kind {
            EntrantKind::Http(endpoint) => {
                assert_eq!(
                    endpoint.auth_scheme(),
                    Some(crate::seat::AuthScheme::Bearer)
                )
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(settings.games, 2, "the flag wins");
        assert_eq!(settings.seed, 1, "the file's value when no flag");
        assert_eq!(settings.game.request_timeout_ms, 900);
        assert_eq!(settings.game.starting_stack, Chips(3000));
        assert_eq!(settings.runner.absent, AbsentPolicy::Play);
        assert_eq!(settings.game.blinds.small_blind(0, 3), Chips(7));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn bad_arguments_are_one_clear_line() {
        let cases: &[(&[&str], &str)] = &[
            (
                &["--player", "ann=localhost:9000", "--bot", "b=raiser"],
                "did you mean http://localhost:9000?",
            ),
            (
                &["--player", "ann", "--bot", "b=raiser"],
                "expected NAME=URL",
            ),
            (
                &["--bot", "a=raiser", "--bot", "a=folder"],
                "two players are named \"a\"",
            ),
            (&["--bot", "a=raiser"], "at least 2 players, got 1"),
            (
                &[
                    "--bot",
                    "a=raiser",
                    "--bot",
                    "b=raiser",
                    "--timeout-ms",
                    "0",
                ],
                "must be at least 1",
            ),
            (
                &["--bot", "a=nope", "--bot", "b=raiser"],
                "unknown bot kind \"nope\"",
            ),
            (
                &["--bot", "a=raiser", "--bot", "b=raiser", "--token", "a=x"],
                "no HTTP player named \"a\"",
            ),
            (
                &[
                    "--bot",
                    "a=raiser",
                    "--bot",
                    "b=raiser",
                    "--config",
                    "/nonexistent/x.toml",
                ],
                "cannot read config /nonexistent/x.toml",
            ),
        ];
        for (args, expected) in cases {
            let error = parse(args).unwrap_err();
            assert!(error.contains(expected), "{args:?}: {error}");
        }
    }
}
