//! The raw command line: clap's types, help texts and value parsers. Nothing here reads a
//! file or plays: [`RunArgs::into_flags`] hands the values on as [`RunFlags`].

use crate::event::settings::{DiskBudget, FreeSpace, GamesLimit, HandHistories};
use crate::house::{BotKind, Opponent};
use crate::rules::BlindSchedule;
use crate::runner::AbsentPolicy;
use crate::seat::PlayerEndpoint;
use crate::settings::{check_name, OutputFile, RunFlags};
use crate::tournament::Shard;
use clap::{ArgAction, Args, Parser, Subcommand, ValueEnum};
use std::net::SocketAddr;
use std::path::PathBuf;

mod serve;

pub use serve::ServeArgs;
use serve::SERVE_HELP;

const EXAMPLES: &str = "\
Examples:
  dealer demo                          watch house bots play a sit'n'go over HTTP
  dealer run --player ann=http://10.0.0.5:8080 --player bob=http://10.0.0.6:8080 \\
             --bot house=raiser --games 20 --parallel 2
  dealer run --config friday.toml --games 50 --seed 7
  dealer bots                          list the house bot kinds for --bot
  dealer run --config friday.toml --shard 0/4 --out games/shard-0   one part of a run
  dealer merge --out games/all games/shard-0 games/shard-1 games/shard-2 games/shard-3
  dealer rainman                       the Rain Man hand ranking on http://127.0.0.1:4567/rank
  dealer replay games/friday/game-3    play a recorded game again and compare its logs

Every run writes its logs under --out (default ./games/<UTC time>): results.json for the
whole run, and per game game-<n>/log.json (the Lean Poker viewer log), requests.jsonl,
hands.phhs (every hand as a PHH hand history, one file a game; --outputs hands for one file
a hand in hands/), players/<name>.log, decks.jsonl (every hand's cards) and game.json
(choose with --outputs).
`dealer replay games/<run>/game-<n>` plays a game folder again and checks its logs. Logs on
stderr: -v, -vv, or RUST_LOG.";

/// The Lean Poker house server: plays sit'n'go tournaments between Lean Poker players over
/// HTTP, exactly by the live server's rules, and writes every log.
#[derive(Debug, Parser)]
#[command(name = "dealer", version, after_help = EXAMPLES, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: Command,
    /// More log lines on stderr: -v info, -vv debug, -vvv trace (RUST_LOG, when set, wins).
    #[arg(short, long, action = ArgAction::Count, global = true)]
    pub(crate) verbose: u8,
    /// No progress bars.
    #[arg(short, long, global = true)]
    pub(crate) quiet: bool,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play one sit'n'go between house bots served over real HTTP on this machine.
    ///
    /// Starts several house bots as HTTP players (our SDK on 127.0.0.1, ports picked by the
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
    /// Combine the folders of a sharded run (`dealer run --shard K/N`) into the one run.
    ///
    /// Copies every game folder into --out and writes its results.json as the unsharded run
    /// would have (with --reproducible, byte for byte). Refuses a missing or repeated shard
    /// and shards of different runs; a shard that did not finish merges into an incomplete
    /// run (exit code 1).
    #[command(after_help = "Example:\n  dealer merge --out games/all games/shard-0 games/shard-1")]
    Merge(MergeArgs),
    /// Serve the Rain Man hand ranking (spec §8) on this machine, for events offline.
    ///
    /// Answers GET /rank?cards=[...] and POST /rank with a form body cards=[...], as the
    /// hosted rainman.leanpoker.org does, until Ctrl-C or SIGTERM. Point bots at
    /// http://ADDR:PORT/rank.
    #[command(after_help = "Example:\n  dealer rainman --bind 0.0.0.0:4567")]
    Rainman(RainmanArgs),
    /// Run an event (house server all day), or open earlier results read-only (--out).
    ///
    /// With --data (the default `event` folder) and an optional --config: plays sit'n'go after
    /// sit'n'go between the event's players until Ctrl-C or SIGTERM, more than ten players at
    /// balanced tables played at once, with points (5/3/0) over the event, a background
    /// `check` of every player, and a web page (leaderboard, points chart, games, organiser
    /// buttons). Everything is kept in DIR/event.sqlite and DIR/games/: a restart continues.
    /// Players are added, renamed, paused and removed through the page or the organiser API
    /// (token: --admin-token, DEALER_ADMIN_TOKEN or the config's admin_token).
    ///
    /// With --out: serves the games of `dealer run` folders read-only (one run folder, a folder
    /// of runs, or a folder holding a `log.json` written by any Lean Poker dealer).
    ///
    /// Listens on 127.0.0.1 unless --bind says otherwise.
    #[command(after_help = SERVE_HELP)]
    Serve(ServeArgs),
    /// Play a recorded game again from its folder and check that its logs come out the same.
    ///
    /// Reads game.json (setup), decks.jsonl (every hand's cards) and requests.jsonl (every
    /// answer, timeouts and bad answers included) from a game folder of `dealer run`, plays
    /// the game through the engine with no player, writes the logs into a temporary folder and
    /// compares them byte for byte with the recorded log.json, requests.jsonl, hands and
    /// decks. Exit code 0 when identical; 1 with the first difference (file, line, byte,
    /// expected and got) otherwise. An event's compressed or compact game (files kept as
    /// .gz) is read as its plain bytes; its full logs are written again.
    #[command(after_help = "Examples:
  dealer replay games/friday/game-3
  dealer replay games/friday/game-3 --out /tmp/replayed
  dealer replay events/friday/games/game-40 --out game-40-full")]
    Replay(ReplayArgs),
}

/// `dealer replay`'s arguments.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The game folder (`<run folder>/game-<n>`).
    #[arg(value_name = "GAME_DIR")]
    pub(crate) game_dir: PathBuf,
    /// Write the replayed logs into this empty folder and keep them [default: a temporary
    /// folder, removed when the logs are identical].
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
}

const RUN_HELP: &str = "\
Examples:
  dealer run --player ann=http://10.0.0.5:8080 --player bob=http://10.0.0.6:8080
  dealer run --player ann=http://team:s3cret@10.0.0.5:8080 --bot house=raiser --games 10
  dealer run --config friday.toml --parallel 4 --outputs log,requests

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
  outputs = [\"log\", \"requests\", \"hands-file\", \"players\", \"decks\"]   # [] for results.json only; \"hands\" for hands/<round>.phh
  odd_chips = \"left_of_button\" # or \"discard_like_oss\"
  deal_out_board = true
  duplicate = false          # true: --duplicate
  [[player]]
  name = \"ann\"
  url = \"http://10.0.0.5:8080/\"
  token = \"s3cret\"           # optional: Authorization: Bearer s3cret
  [[bot]]
  name = \"house\"
  kind = \"raiser\"

Seeds: game n plays with the n-th number drawn from ChaCha8(--seed); the same --seed and the
same players in the same order replay the same games.

Duplicate deals (--duplicate): each of --games deal sets is played once per rotation of the
seats (games x players sit'n'gos), so every player gets every seat's cards.
Shards (--shard K/N, K from 0): play only games n with (n - 1) mod N = K, on N machines or
processes with the same settings and seed, each with its own --out; then `dealer merge`.";

/// `dealer demo`'s arguments.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Seed of everything random (cards, seats, random bots); random when not given.
    #[arg(long, value_name = "N")]
    pub(crate) seed: Option<u64>,
    /// Folder for the logs [default: ./games/<UTC time>].
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Stop after this many hands (the survivors are ranked by chips).
    #[arg(long, value_name = "N", value_parser = positive_u64)]
    pub(crate) hand_limit: Option<u64>,
    /// The house bots to seat, comma-separated (see `dealer bots`)
    /// [default: strategy, calling-station, raiser, random, equity].
    #[arg(long, value_name = "KIND,...", value_delimiter = ',', value_parser = bot_kind)]
    pub(crate) bots: Vec<BotKind>,
    /// Blind schedule: live (2/4, up every 10 hands) or classic (10/20, doubling every 3 orbits).
    #[arg(long, value_enum, value_name = "SCHEDULE")]
    pub(crate) blinds: Option<Blinds>,
    /// Zero every time value in the logs, so the same seed gives byte-identical logs.
    #[arg(long)]
    pub(crate) reproducible: bool,
    /// The per-game files to write, comma-separated: log, requests, hands-file (hands.phhs,
    /// every hand in one file), hands (hands/*.phh, a file per hand), players, decks
    /// (decks.jsonl and game.json), or none (results.json only) [default: log, requests,
    /// hands-file, players, decks].
    #[arg(long, value_name = "FILE,...", value_delimiter = ',', value_enum)]
    pub(crate) outputs: Option<Vec<OutputFile>>,
}

/// `dealer run`'s arguments.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// A player served over HTTP, as NAME=URL (repeat for each player). Credentials may be in
    /// the URL (http://user:secret@host:port/, sent as HTTP Basic). https:// URLs are checked
    /// against the system's CA certificates, or those in the file SSL_CERT_FILE names.
    #[arg(long = "player", value_name = "NAME=URL", value_parser = player_arg)]
    pub(crate) players: Vec<(String, PlayerEndpoint)>,
    /// A house bot played in this process, as NAME=KIND (see `dealer bots`) or NAME=FILE, an
    /// opponent profile (`cargo arena --field-from` writes them in target/arena/fields/).
    #[arg(long = "bot", value_name = "NAME=KIND", value_parser = bot_arg)]
    pub(crate) bots: Vec<(String, Opponent)>,
    /// A secret sent to player NAME as `Authorization: Bearer TOKEN`, as NAME=TOKEN.
    #[arg(long = "token", value_name = "NAME=TOKEN", value_parser = token_arg)]
    pub(crate) tokens: Vec<(String, String)>,
    /// Number of sit'n'gos [default: 1].
    #[arg(long, value_name = "N", value_parser = positive_u32)]
    pub(crate) games: Option<u32>,
    /// Run seed: the same seed replays the same games [default: random, printed].
    #[arg(long, value_name = "N")]
    pub(crate) seed: Option<u64>,
    /// Blind schedule: live (2/4, up every 10 hands) or classic (10/20, doubling every 3
    /// orbits) [default: live].
    #[arg(long, value_enum, value_name = "SCHEDULE")]
    pub(crate) blinds: Option<Blinds>,
    /// Chips each player starts with [default: 1000].
    #[arg(long, value_name = "N", value_parser = positive_u64)]
    pub(crate) stack: Option<u64>,
    /// How long a player may take to answer one request, in milliseconds [default: 2000].
    #[arg(long, value_name = "MS", value_parser = positive_u64)]
    pub(crate) timeout_ms: Option<u64>,
    /// Stop each game after this many hands (survivors are ranked by chips) [default: none].
    #[arg(long, value_name = "N", value_parser = positive_u64)]
    pub(crate) hand_limit: Option<u64>,
    /// Do not ban bad answers: count them as check/fold and record a warning.
    #[arg(long)]
    pub(crate) forgiving: bool,
    /// Folder for results.json and the game logs [default: ./games/<UTC time>].
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// How many games to play at the same time [default: 1].
    #[arg(long, value_name = "K", value_parser = positive_usize)]
    pub(crate) parallel: Option<usize>,
    /// Read settings from a TOML file (see below); flags win over it.
    #[arg(long, value_name = "FILE.toml")]
    pub(crate) config: Option<PathBuf>,
    /// How long to wait for every player to answer `check` before each game, in milliseconds
    /// [default: 10000].
    #[arg(long, value_name = "MS", value_parser = positive_u64)]
    pub(crate) wait_ms: Option<u64>,
    /// What to do with players still down after --wait-ms: sit them out of the game, fail the
    /// run, or play them anyway (banned at their first bet) [default: sit-out].
    #[arg(long, value_enum, value_name = "POLICY")]
    pub(crate) absent: Option<AbsentArg>,
    /// Zero every time value in the logs, so the same seed gives byte-identical logs.
    #[arg(long)]
    pub(crate) reproducible: bool,
    /// The per-game files to write, comma-separated: log (log.json), requests
    /// (requests.jsonl), hands-file (hands.phhs, every hand in one file), hands (hands/*.phh,
    /// a file per hand), players (players/*.log), decks (decks.jsonl and game.json, for
    /// `dealer replay`), or none (results.json only) [default: log, requests, hands-file,
    /// players, decks].
    #[arg(long, value_name = "FILE,...", value_delimiter = ',', value_enum)]
    pub(crate) outputs: Option<Vec<OutputFile>>,
    /// Duplicate deals: each of --games deal sets is played once per rotation of the seats,
    /// so luck of the cards cancels (games x players sit'n'gos in all).
    #[arg(long)]
    pub(crate) duplicate: bool,
    /// Play only part K/N of the run (K from 0 to N-1): games n with (n - 1) mod N = K. Run
    /// every part with the same settings, then `dealer merge` their folders.
    #[arg(long, value_name = "K/N", value_parser = shard_arg)]
    pub(crate) shard: Option<Shard>,
    /// Deal hand h of every game from line h of this decks.jsonl (a game folder's record of
    /// its cards) instead of drawing the cards from the seed; a game ends when it has played
    /// every recorded hand.
    #[arg(long, value_name = "FILE")]
    pub(crate) decks: Option<PathBuf>,
    /// Write log.json within 50 ms of every action (not only at hand ends), so `dealer
    /// serve` shows each action of a game being played as it happens.
    #[arg(long)]
    pub(crate) live: bool,
}

/// `dealer merge`'s arguments.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Folder for the merged run (must not hold a run).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// The shards' folders (their --out), every shard of the run once, in any order.
    #[arg(value_name = "SHARD_DIR", required = true)]
    pub(crate) shards: Vec<PathBuf>,
}

/// `dealer rainman`'s arguments.
#[derive(Debug, Args)]
pub struct RainmanArgs {
    /// The address and port to listen on (0.0.0.0:PORT for every interface; port 0: any free
    /// port, printed).
    #[arg(long, value_name = "ADDR:PORT", default_value = DEFAULT_RAINMAN_BIND, value_parser = socket_addr)]
    pub(crate) bind: SocketAddr,
}

/// Where `dealer rainman` listens by default: this machine only, on Sinatra's default port
/// (what the hosted service's code listens on when run by hand).
pub const DEFAULT_RAINMAN_BIND: &str = "127.0.0.1:4567";

impl RunArgs {
    /// The values given, for [`crate::settings::resolve`], and the config file to read.
    pub fn into_flags(self) -> (RunFlags, Option<PathBuf>) {
        let flags = RunFlags {
            players: self.players,
            bots: self.bots,
            tokens: self.tokens,
            games: self.games,
            seed: self.seed,
            blinds: self.blinds.map(Blinds::schedule),
            stack: self.stack,
            timeout_ms: self.timeout_ms,
            hand_limit: self.hand_limit,
            forgiving: self.forgiving,
            out: self.out,
            parallel: self.parallel,
            wait_ms: self.wait_ms,
            absent: self.absent.map(AbsentPolicy::from),
            reproducible: self.reproducible,
            outputs: self.outputs,
            duplicate: self.duplicate,
            shard: self.shard,
            decks: self.decks,
        };
        (flags, self.config)
    }
}

/// A preset blind schedule (custom levels only in the config file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Blinds {
    /// 2/4, up every 10 hands.
    Live,
    /// 10/20, doubling every 3 orbits.
    Classic,
}

impl Blinds {
    /// The schedule it names.
    pub fn schedule(self) -> BlindSchedule {
        match self {
            Blinds::Live => BlindSchedule::Live,
            Blinds::Classic => BlindSchedule::Classic,
        }
    }
}

/// `--absent`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AbsentArg {
    /// Sit them out of the game.
    SitOut,
    /// Fail the run.
    Fail,
    /// Seat them anyway.
    Play,
}

impl From<AbsentArg> for AbsentPolicy {
    fn from(absent: AbsentArg) -> AbsentPolicy {
        match absent {
            AbsentArg::SitOut => AbsentPolicy::SitOut,
            AbsentArg::Fail => AbsentPolicy::Fail,
            AbsentArg::Play => AbsentPolicy::Play,
        }
    }
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
pub fn shorten(text: &str) -> String {
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

fn bot_arg(text: &str) -> Result<(String, Opponent), String> {
    let (name, kind) = split_pair(text, "KIND")?;
    Ok((name.to_string(), crate::house::opponent(kind)?))
}

fn bot_kind(text: &str) -> Result<BotKind, String> {
    text.trim()
        .parse()
        .map_err(|error: crate::house::UnknownBotKind| error.to_string())
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

fn shard_arg(text: &str) -> Result<Shard, String> {
    text.parse()
        .map_err(|error: crate::tournament::BadShard| error.to_string())
}

fn socket_addr(text: &str) -> Result<SocketAddr, String> {
    text.trim().parse().map_err(|_| {
        format!("expected an IP address and a port, like {DEFAULT_RAINMAN_BIND} or 0.0.0.0:4567")
    })
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
mod tests;
