//! A run's settings: the `--config` TOML file ([`RunFile`]), the command line's values
//! ([`RunFlags`], free of clap) and their merge into what a run needs ([`resolve`]).
//!
//! A flag wins over the file's key of the same name; `--player`, `--bot` and `--token` add to
//! the file's players. Errors name the key or flag the user wrote (`timeout_ms`, `stack`), not
//! the field it ends up in.
//!
//! ```
//! use dealer::settings::{resolve, RunFile, RunFlags};
//! let file: RunFile = toml::from_str(
//!     r#"
//!     games = 3
//!     timeout_ms = 900
//!     outputs = ["log", "hands"]
//!     [[bot]]
//!     name = "a"
//!     kind = "raiser"
//!     [[bot]]
//!     name = "b"
//!     kind = "equity"
//!     "#,
//! )
//! .unwrap();
//! let flags = RunFlags { games: Some(5), seed: Some(1), out: Some("x".into()), ..RunFlags::default() };
//! let plan = resolve(flags, file).unwrap();
//! assert_eq!(plan.settings.games, 5);
//! assert_eq!(plan.settings.http.request_timeout.as_millis(), 900);
//! assert!(plan.outputs.hands && !plan.outputs.requests);
//! ```

use crate::engine::{MAX_SEATS, MIN_SEATS};
use crate::house::Opponent;
use crate::observe::OutputSelection;
use crate::rules::{BadAnswerPolicy, BlindSchedule, GameRules, RulesError};
use crate::runner::{AbsentPolicy, Clock, RunnerOptions};
use crate::seat::{CheckPolicy, HttpSettings, PlayerEndpoint};
use crate::tournament::{Entrant, EntrantKind, Shard, TournamentSettings};
use rand::{RngCore, SeedableRng};
use shared::Chips;
use std::path::{Path, PathBuf};
use std::time::Duration;
use thiserror::Error;

/// The port the viewer and the event server listen on by default (`crate::web::WebOptions`);
/// a player's default port is the SDK's, 1337.
pub const DEFAULT_WEB_PORT: u16 = 8080;

mod file;

pub(crate) use file::config_file;
pub use file::{
    read_run_file, read_run_file_text, FileBot, FilePlayer, OutputFile, RunFile, SharedKeys,
};

/// The command line's values for a run (what `dealer run` parsed), before the config file is
/// merged in. `None` and `false`: not given.
#[derive(Debug, Clone, Default)]
pub struct RunFlags {
    /// `--player NAME=URL`, in order.
    pub players: Vec<(String, PlayerEndpoint)>,
    /// `--bot NAME=KIND`, in order.
    pub bots: Vec<(String, Opponent)>,
    /// `--token NAME=TOKEN`.
    pub tokens: Vec<(String, String)>,
    /// `--games`.
    pub games: Option<u32>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--blinds`.
    pub blinds: Option<BlindSchedule>,
    /// `--stack`.
    pub stack: Option<u64>,
    /// `--timeout-ms`.
    pub timeout_ms: Option<u64>,
    /// `--hand-limit`.
    pub hand_limit: Option<u64>,
    /// `--forgiving`.
    pub forgiving: bool,
    /// `--out`.
    pub out: Option<PathBuf>,
    /// `--parallel`.
    pub parallel: Option<usize>,
    /// `--wait-ms`.
    pub wait_ms: Option<u64>,
    /// `--absent`.
    pub absent: Option<AbsentPolicy>,
    /// `--reproducible`.
    pub reproducible: bool,
    /// `--outputs`.
    pub outputs: Option<Vec<OutputFile>>,
    /// `--duplicate`.
    pub duplicate: bool,
    /// `--shard K/N`: play only this part of the run (flag only: every shard of a run shares
    /// one config file).
    pub shard: Option<Shard>,
    /// `--decks FILE`: deal every game's hands from this `decks.jsonl` (flag only: it names
    /// one game's cards).
    pub decks: Option<PathBuf>,
}

/// Everything a run needs: who plays, how, and which files each game writes.
#[derive(Debug, Clone)]
pub struct RunPlan {
    /// The players: the file's first, then the flags', in order.
    pub entrants: Vec<Entrant>,
    /// The tournament's settings (rules, transport, seeds, folder).
    pub settings: TournamentSettings,
    /// The per-game files to write.
    pub outputs: OutputSelection,
    /// Duplicate deals: `settings.games` counts deal sets, each played once per rotation of
    /// the seats ([`crate::tournament::duplicate`]).
    pub duplicate: bool,
    /// The part of the run to play, for a sharded run ([`crate::tournament::shard`]).
    pub shard: Option<Shard>,
    /// Recorded decks to deal from (`--decks`), read when the run starts.
    pub decks: Option<PathBuf>,
}

/// Settings that cannot make a run; the message names the user's key or flag.
#[derive(Debug, Error)]
pub enum SettingsError {
    /// The config file cannot be read.
    #[error("cannot read config {}: {source}", path.display())]
    ReadFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The config file is not valid TOML or has a bad key or value.
    #[error("invalid config {}{}: {message}", path.display(), line.map(|line| format!(" (line {line})")).unwrap_or_default())]
    ParseFile {
        /// The file.
        path: PathBuf,
        /// The 1-based line of the problem, when known.
        line: Option<usize>,
        /// What is wrong, on one line.
        message: String,
    },
    /// A player name is blank, too long or has control characters.
    #[error("{0}")]
    BadName(String),
    /// A `[[player]]` or `[[bot]]` of the config file is wrong.
    #[error("{what} {name:?} in the config: {reason}")]
    FileEntrant {
        /// `player` or `bot`.
        what: &'static str,
        /// Its name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A `--token` that cannot be used.
    #[error("--token {name}=…: {reason}")]
    Token {
        /// The player named.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// Two players share a name.
    #[error("two players are named {0:?}; names must be unique")]
    DuplicateName(String),
    /// Fewer than two players.
    #[error("a sit'n'go needs at least {MIN_SEATS} players, got {0} (add --player NAME=URL or --bot NAME=KIND)")]
    TooFewPlayers(usize),
    /// More than ten players.
    #[error("a sit'n'go seats at most {MAX_SEATS} players, got {0}")]
    TooManyPlayers(usize),
    /// A count or duration that must be positive is 0 (only the file can say 0: the flags'
    /// parsers refuse it).
    #[error("{key} must be at least 1{unit}")]
    Zero {
        /// The file's key.
        key: &'static str,
        /// ` ms`, ` chip` or empty.
        unit: &'static str,
    },
    /// `stack` beyond [`crate::rules::MAX_STARTING_STACK`].
    #[error("stack {stack} is larger than the maximum {max}")]
    StackTooLarge {
        /// The stack asked for.
        stack: Chips,
        /// The largest accepted.
        max: Chips,
    },
    /// A bad custom blind schedule.
    #[error(transparent)]
    Blinds(RulesError),
    /// No `--out` and no free `./games/<time>` folder.
    #[error("cannot find a free folder under ./games; use --out")]
    NoFreeOutDir,
}

impl SettingsError {
    /// Whether the user's settings are at fault (exit code 2), rather than the machine.
    pub fn is_usage(&self) -> bool {
        !matches!(self, SettingsError::NoFreeOutDir)
    }
}

/// Merges the command line and the config file into a run: flags win, players add up, then
/// every value is checked. Without a seed, one is drawn ([`random_seed`]); without `out`, a
/// fresh `./games/<UTC time>` is chosen ([`default_out_dir`]).
///
/// # Errors
/// The first [`SettingsError`] found.
pub fn resolve(flags: RunFlags, file: RunFile) -> Result<RunPlan, SettingsError> {
    let entrants = entrants(&flags, &file)?;
    let game = game_config(&flags, file.shared_keys())?;
    let games = positive("games", "", flags.games.or(file.games).unwrap_or(1))?;
    let parallel = positive(
        "parallel",
        "",
        flags.parallel.or(file.parallel).unwrap_or(1),
    )?;
    let wait_ms = positive(
        "wait_ms",
        " ms",
        flags.wait_ms.or(file.wait_ms).unwrap_or(10_000),
    )?;
    let timeout_ms = flags
        .timeout_ms
        .or(file.timeout_ms)
        .unwrap_or(HttpSettings::DEFAULT_REQUEST_TIMEOUT.as_millis() as u64);
    let timeout_ms = positive("timeout_ms", " ms", timeout_ms)?;
    let reproducible = flags.reproducible || file.reproducible == Some(true);
    let duplicate = flags.duplicate || file.duplicate == Some(true);
    let outputs = flags
        .outputs
        .as_deref()
        .or(file.outputs.as_deref())
        .map_or(OutputSelection::DEFAULT, OutputFile::selection);
    let out_dir = match flags.out.or(file.out) {
        Some(out) => out,
        None => default_out_dir()?,
    };
    let settings = TournamentSettings {
        game,
        http: HttpSettings::with_request_timeout(Duration::from_millis(timeout_ms)),
        games,
        seed: flags.seed.or(file.seed).unwrap_or_else(random_seed),
        parallel,
        runner: RunnerOptions {
            check: CheckPolicy {
                deadline: Duration::from_millis(wait_ms),
                ..CheckPolicy::default()
            },
            absent: flags.absent.or(file.absent).unwrap_or_default(),
            clock: if reproducible {
                Clock::Reproducible
            } else {
                Clock::Wall
            },
            ..RunnerOptions::default()
        },
        out_dir,
    };
    Ok(RunPlan {
        entrants,
        settings,
        outputs,
        duplicate,
        shard: flags.shard,
        decks: flags.decks,
    })
}

fn positive<T: PartialEq + Default>(
    key: &'static str,
    unit: &'static str,
    value: T,
) -> Result<T, SettingsError> {
    if value == T::default() {
        return Err(SettingsError::Zero { key, unit });
    }
    Ok(value)
}

/// The file's players, then the flags', with the tokens applied; names checked.
fn entrants(flags: &RunFlags, file: &RunFile) -> Result<Vec<Entrant>, SettingsError> {
    let mut entrants = Vec::new();
    for player in &file.players {
        check_name(&player.name).map_err(SettingsError::BadName)?;
        let in_file = |reason: String| SettingsError::FileEntrant {
            what: "player",
            name: player.name.clone(),
            reason,
        };
        let mut endpoint =
            PlayerEndpoint::parse(&player.url).map_err(|error| in_file(error.to_string()))?;
        if let Some(token) = &player.token {
            endpoint = endpoint
                .with_bearer_token(token)
                .map_err(|error| in_file(error.to_string()))?;
        }
        entrants.push(Entrant::http(player.name.clone(), endpoint));
    }
    for bot in &file.bots {
        check_name(&bot.name).map_err(SettingsError::BadName)?;
        let opponent = bot.opponent()?;
        entrants.push(Entrant::bot(bot.name.clone(), opponent));
    }
    for (name, endpoint) in &flags.players {
        entrants.push(Entrant::http(name.clone(), endpoint.clone()));
    }
    for (name, opponent) in &flags.bots {
        entrants.push(Entrant::bot(name.clone(), opponent.clone()));
    }
    for (name, token) in &flags.tokens {
        let token_error = |reason: String| SettingsError::Token {
            name: name.clone(),
            reason,
        };
        let entrant = entrants
            .iter_mut()
            .find(|e| &e.name == name && matches!(e.kind, EntrantKind::Http(_)))
            .ok_or_else(|| token_error(format!("there is no HTTP player named {name:?}")))?;
        if let EntrantKind::Http(endpoint) = &entrant.kind {
            let endpoint = endpoint
                .clone()
                .with_bearer_token(token)
                .map_err(|error| token_error(error.to_string()))?;
            entrant.kind = EntrantKind::Http(endpoint);
        }
    }
    for (index, entrant) in entrants.iter().enumerate() {
        if entrants[..index].iter().any(|e| e.name == entrant.name) {
            return Err(SettingsError::DuplicateName(entrant.name.clone()));
        }
    }
    if entrants.len() < MIN_SEATS {
        return Err(SettingsError::TooFewPlayers(entrants.len()));
    }
    if entrants.len() > MAX_SEATS {
        return Err(SettingsError::TooManyPlayers(entrants.len()));
    }
    Ok(entrants)
}

/// The rules of every game from a config file's rule keys alone (`blinds`, `stack`,
/// `hand_limit`, `forgiving`, `odd_chips`, `deal_out_board`): `dealer serve --config` shares
/// them with `dealer run`.
///
/// # Errors
/// The first [`SettingsError`] found, naming the file's key.
pub fn file_rules(file: SharedKeys<'_>) -> Result<GameRules, SettingsError> {
    game_config(&RunFlags::default(), file)
}

/// The rules of every game, checked, with errors in the file's key names.
fn game_config(flags: &RunFlags, file: SharedKeys<'_>) -> Result<GameRules, SettingsError> {
    let mut game = GameRules::default();
    if let Some(blinds) = flags.blinds.clone().or_else(|| file.blinds.cloned()) {
        game.blinds = blinds;
    }
    if let Some(stack) = flags.stack.or(file.stack) {
        game.starting_stack = Chips(positive("stack", " chip", stack)?);
    }
    if let Some(limit) = flags.hand_limit.or(file.hand_limit) {
        game.hand_limit = Some(positive("hand_limit", "", limit)?);
    }
    if flags.forgiving || file.forgiving == Some(true) {
        game.bad_answers = BadAnswerPolicy::Forgive;
    }
    if let Some(rule) = file.odd_chips {
        game.odd_chips = rule;
    }
    if let Some(deal_out) = file.deal_out_board {
        game.deal_out_board = deal_out;
    }
    game.validate().map_err(|error| match error {
        RulesError::StartingStackTooLarge { stack, max } => {
            SettingsError::StackTooLarge { stack, max }
        }
        RulesError::ZeroStartingStack => SettingsError::Zero {
            key: "stack",
            unit: " chip",
        },
        RulesError::ZeroHandLimit => SettingsError::Zero {
            key: "hand_limit",
            unit: "",
        },
        other => SettingsError::Blinds(other),
    })?;
    Ok(game)
}

/// A player name: not blank, no control characters, at most 100 characters.
///
/// # Errors
/// The problem, as one line.
pub fn check_name(name: &str) -> Result<(), String> {
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

/// `./games/<UTC time>`, with `-2`, `-3`... if that exists already.
///
/// # Errors
/// [`SettingsError::NoFreeOutDir`] when 999 such folders exist.
pub fn default_out_dir() -> Result<PathBuf, SettingsError> {
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
        .ok_or(SettingsError::NoFreeOutDir)
}

/// A seed from the clock and the process id, for runs without `--seed` (it is printed and
/// saved in results.json, so such a run can be replayed too).
pub fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_nanos() as u64)
        .unwrap_or(0);
    let mut rng =
        rand_chacha::ChaCha8Rng::seed_from_u64(nanos ^ (u64::from(std::process::id()) << 32));
    // Keep seeds short enough to type.
    rng.next_u64() % 1_000_000_000
}

#[cfg(test)]
mod tests;
