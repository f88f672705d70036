//! The event's settings: the `dealer serve --config` TOML file ([`EventFile`]) and the checked
//! [`EventSettings`] the server runs with.
//!
//! The file shares `dealer run`'s keys for the rules and the transport (`blinds`, `stack`,
//! `timeout_ms`, `hand_limit`, `forgiving`, `wait_ms`, `outputs`, `odd_chips`,
//! `deal_out_board`, `[[player]]`, `[[bot]]`) and adds the event's own:
//!
//! ```toml
//! data = "friday-event"     # the event's folder (database and game folders)
//! bind = "127.0.0.1:8080"   # 0.0.0.0:8080 serves the network
//! admin_token = "s3cret"    # the organiser token (also --admin-token, DEALER_ADMIN_TOKEN)
//! seed = 7                  # seeds of every game (kept in the database after the first start)
//! table_size = 10           # most players at one table (2..=10)
//! fill_bot = "raiser"       # a house bot kind that fills short tables...
//! fill_to = 4               # ...up to this many players (default 2 when fill_bot is set)
//! recheck_ms = 5000         # how often every player's `check` is asked in the background
//! pause_ms = 500            # pause between two rounds
//! compress_after = 20       # gzip the logs of ended games older than the newest 20 ("off": never)
//! keep_games = "off"        # delete the folders of ended games older than the newest N
//! disk_budget = "2 GB"      # most disk the event's folder takes ("off": no limit)
//! min_free_space = "256 MB" # no new game below this much free space on the disk ("off")
//! hand_histories = "on"     # finished games as PHH for anyone who sees the event ("off": 403)
//! ```

use super::retention::Retention;
use crate::engine::{MAX_SEATS, MIN_SEATS};
use crate::house::BotKind;
use crate::observe::OutputSelection;
use crate::rules::GameRules;
use crate::runner::RunnerOptions;
use crate::seat::{CheckPolicy, HttpSettings, PlayerEndpoint};
use crate::settings::{
    check_name, config_file, file_rules, read_run_file_text, OutputFile, SettingsError,
};
use serde::Deserialize;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

config_file! {
    /// The `dealer serve --config FILE.toml` file: every key optional.
    #[derive(Debug, Default, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct EventFile {
        /// `--data`: the event's folder.
        pub data: Option<PathBuf>,
        /// `--bind`.
        pub bind: Option<SocketAddr>,
        /// `--admin-token`.
        pub admin_token: Option<String>,
        /// The event seed (used when the database is created; then the database's is kept).
        pub seed: Option<u64>,
        /// Most players at one table.
        pub table_size: Option<usize>,
        /// A house bot kind that fills tables short of `fill_to` players.
        pub fill_bot: Option<String>,
        /// How many players a table is filled up to with `fill_bot`.
        pub fill_to: Option<usize>,
        /// Background `check` interval, in milliseconds.
        pub recheck_ms: Option<u64>,
        /// Pause between rounds, in milliseconds.
        pub pause_ms: Option<u64>,
        /// Compress the logs of ended games older than the newest N (`"off"`: never).
        pub compress_after: Option<GamesLimit>,
        /// Delete the folders of ended games older than the newest N (`"off"`, the default:
        /// never).
        pub keep_games: Option<GamesLimit>,
        /// The most disk space the event's folder takes (`"2 GB"`, `"500 MiB"`; `"off"`: no
        /// limit).
        pub disk_budget: Option<DiskBudget>,
        /// No new game starts while the event's file system has less free space than this
        /// (`"256 MB"`; `"off"`: never paused for it).
        pub min_free_space: Option<FreeSpace>,
        /// Whether `GET /api/event/hands` serves the finished games' hand histories (`"on"`,
        /// the default, or `"off"`; `true` and `false` too).
        pub hand_histories: Option<HandHistories>,
    }
}

/// Whether the event's finished games are served as PHH hand histories to anyone who can see
/// the event (`GET /api/event/hands`, no token: the viewer's logs already show every card).
/// Off, the route answers 403 and says the organiser turned it off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HandHistories {
    /// Served (the default).
    #[default]
    On,
    /// Not served.
    Off,
}

impl HandHistories {
    /// `on` or `off`.
    ///
    /// # Errors
    /// Anything else, as one line.
    pub fn parse(text: &str) -> Result<HandHistories, String> {
        match text.trim() {
            "on" => Ok(HandHistories::On),
            "off" => Ok(HandHistories::Off),
            other => Err(format!("expected \"on\" or \"off\", got {other:?}")),
        }
    }

    /// Whether the route serves them.
    pub fn served(self) -> bool {
        self == HandHistories::On
    }
}

impl<'de> Deserialize<'de> for HandHistories {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Switch(bool),
            Text(String),
        }
        match Written::deserialize(deserializer)? {
            Written::Switch(true) => Ok(HandHistories::On),
            Written::Switch(false) => Ok(HandHistories::Off),
            Written::Text(text) => HandHistories::parse(&text).map_err(serde::de::Error::custom),
        }
    }
}

/// A size with a unit (`None` for `off`), or why not, naming `examples` of what is expected.
fn disk_size(text: &str, examples: &str) -> Result<Option<u64>, String> {
    let text = text.trim();
    if text == "off" {
        return Ok(None);
    }
    let size: bytesize::ByteSize = text.parse().map_err(|_| {
        format!("expected a disk size such as {examples}, or \"off\", got {text:?}")
    })?;
    Ok(Some(size.as_u64()))
}

/// The free space below which no new game starts, or `off`. Written with a unit, as
/// [`DiskBudget`]; any size is accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FreeSpace {
    /// At least this many bytes free.
    Bytes(u64),
    /// Never paused for free space.
    Off,
}

impl FreeSpace {
    /// `off` or a size with a unit (`256 MB`, `1 GiB`).
    ///
    /// # Errors
    /// Anything else, as one line.
    pub fn parse(text: &str) -> Result<FreeSpace, String> {
        Ok(match disk_size(text, "\"256 MB\" or \"1 GiB\"")? {
            Some(bytes) => FreeSpace::Bytes(bytes),
            None => FreeSpace::Off,
        })
    }

    fn bytes(self) -> Option<u64> {
        match self {
            FreeSpace::Bytes(bytes) => Some(bytes),
            FreeSpace::Off => None,
        }
    }
}

impl<'de> Deserialize<'de> for FreeSpace {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        FreeSpace::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// The most disk space an event's folder (database and game folders) takes, or `off`.
/// Written with a unit: `"2 GB"` (10^9 bytes), `"1.5 GiB"` (2^30), `"800 MB"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiskBudget {
    /// At most this many bytes of disk blocks.
    Bytes(u64),
    /// No limit.
    Off,
}

impl DiskBudget {
    /// `off` or a size with a unit (`2 GB`, `500MiB`).
    ///
    /// # Errors
    /// Anything else, or a size under [`MIN_DISK_BUDGET`], as one line.
    pub fn parse(text: &str) -> Result<DiskBudget, String> {
        let text = text.trim();
        let Some(size) = disk_size(text, "\"2 GB\" or \"500 MiB\"")? else {
            return Ok(DiskBudget::Off);
        };
        if size < MIN_DISK_BUDGET {
            return Err(format!(
                "a disk budget of {text:?} is too small to play in: at least {} (a few games' full logs)",
                bytesize::ByteSize::b(MIN_DISK_BUDGET).display().si()
            ));
        }
        Ok(DiskBudget::Bytes(size))
    }

    fn bytes(self) -> Option<u64> {
        match self {
            DiskBudget::Bytes(bytes) => Some(bytes),
            DiskBudget::Off => None,
        }
    }
}

impl<'de> Deserialize<'de> for DiskBudget {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        DiskBudget::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// The smallest disk budget accepted: a few six-player games' full logs (about 4 MB each).
pub const MIN_DISK_BUDGET: u64 = 50_000_000;

/// A number of games, or `off` (in the file: an integer or `"off"`; on the command line: a
/// number or `off`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GamesLimit {
    /// The newest this many ended games.
    Games(u32),
    /// Never.
    Off,
}

impl GamesLimit {
    /// `off` or a number of games.
    ///
    /// # Errors
    /// Anything else, as one line.
    pub fn parse(text: &str) -> Result<GamesLimit, String> {
        match text.trim() {
            "off" => Ok(GamesLimit::Off),
            digits => digits
                .parse()
                .map(GamesLimit::Games)
                .map_err(|_| format!("expected a number of games or \"off\", got {text:?}")),
        }
    }

    fn games(self) -> Option<u32> {
        match self {
            GamesLimit::Games(games) => Some(games),
            GamesLimit::Off => None,
        }
    }
}

impl<'de> Deserialize<'de> for GamesLimit {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Number(i64),
            Text(String),
        }
        match Written::deserialize(deserializer)? {
            Written::Number(number) => u32::try_from(number).map(GamesLimit::Games).map_err(|_| {
                serde::de::Error::custom(format!(
                    "expected a number of games or \"off\", got {number}"
                ))
            }),
            Written::Text(text) => GamesLimit::parse(&text).map_err(serde::de::Error::custom),
        }
    }
}

/// How a player is reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contact {
    /// Over HTTP: the URL as given (credentials included) and an optional bearer token.
    Http {
        /// The URL as given.
        url: String,
        /// A secret sent as `Authorization: Bearer`.
        token: Option<String>,
    },
    /// A house bot, in process.
    Bot(BotKind),
}

impl Contact {
    /// Checks an HTTP contact and returns its endpoint.
    ///
    /// # Errors
    /// The URL or the token, as one line.
    pub fn endpoint(url: &str, token: Option<&str>) -> Result<PlayerEndpoint, String> {
        let endpoint = PlayerEndpoint::parse(url).map_err(|error| error.to_string())?;
        match token {
            Some(token) => endpoint
                .with_bearer_token(token)
                .map_err(|error| error.to_string()),
            None => Ok(endpoint),
        }
    }
}

/// A player named in the config file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigPlayer {
    /// Its name.
    pub name: String,
    /// How to reach it.
    pub contact: Contact,
}

/// The checked settings of an event.
#[derive(Debug, Clone)]
pub struct EventSettings {
    /// The event's folder.
    pub data: PathBuf,
    /// Where the page and the API listen.
    pub bind: SocketAddr,
    /// The organiser token; without one the organiser API answers 401 to everything.
    pub admin_token: Option<String>,
    /// The seed of a new event (an existing event keeps the one in its database).
    pub seed: Option<u64>,
    /// The rules of every game.
    pub game: GameRules,
    /// The HTTP transport.
    pub http: HttpSettings,
    /// Check polling, absent players, versions, clock.
    pub runner: RunnerOptions,
    /// Per-game files.
    pub outputs: OutputSelection,
    /// Most players at one table.
    pub table_size: usize,
    /// House bots filling short tables: the kind and the size filled up to.
    pub fill: Option<(BotKind, usize)>,
    /// Background `check` interval.
    pub recheck: Duration,
    /// Pause between rounds.
    pub pause: Duration,
    /// Players of the config file, imported once each.
    pub players: Vec<ConfigPlayer>,
    /// What is kept of old games' files.
    pub retention: Retention,
    /// Whether the finished games are served as hand histories.
    pub hand_histories: HandHistories,
}

/// What the command line gives (clap-free).
#[derive(Debug, Clone, Default)]
pub struct EventFlags {
    /// `--data`.
    pub data: Option<PathBuf>,
    /// `--bind`.
    pub bind: Option<SocketAddr>,
    /// `--admin-token` or `DEALER_ADMIN_TOKEN`.
    pub admin_token: Option<String>,
    /// `--compress-after`.
    pub compress_after: Option<GamesLimit>,
    /// `--keep-games`.
    pub keep_games: Option<GamesLimit>,
    /// `--disk-budget`.
    pub disk_budget: Option<DiskBudget>,
    /// `--min-free-space`.
    pub min_free_space: Option<FreeSpace>,
    /// `--hand-histories`.
    pub hand_histories: Option<HandHistories>,
}

/// Reads an event config file.
///
/// # Errors
/// [`SettingsError::ReadFile`] or [`SettingsError::ParseFile`] (with the line).
pub fn read_event_file(path: &Path) -> Result<EventFile, SettingsError> {
    read_run_file_text(path)
}

/// The default `--data` folder.
pub const DEFAULT_DATA_DIR: &str = "event";
/// The default background `check` interval.
pub const DEFAULT_RECHECK: Duration = Duration::from_secs(5);

/// Merges the flags and the file (flags win) and checks every value.
///
/// # Errors
/// The first problem, naming the key.
pub fn resolve_event(flags: EventFlags, file: EventFile) -> Result<EventSettings, SettingsError> {
    let game = file_rules(file.shared_keys())?;
    let zero = |key| SettingsError::Zero { key, unit: "" };
    let zero_ms = |key| SettingsError::Zero { key, unit: " ms" };
    let timeout_ms = file
        .timeout_ms
        .unwrap_or(HttpSettings::DEFAULT_REQUEST_TIMEOUT.as_millis() as u64);
    if timeout_ms == 0 {
        return Err(zero_ms("timeout_ms"));
    }
    let wait_ms = file.wait_ms.unwrap_or(10_000);
    if wait_ms == 0 {
        return Err(zero_ms("wait_ms"));
    }
    let recheck_ms = file
        .recheck_ms
        .unwrap_or(DEFAULT_RECHECK.as_millis() as u64);
    if recheck_ms == 0 {
        return Err(zero_ms("recheck_ms"));
    }
    let table_size = file.table_size.unwrap_or(MAX_SEATS);
    if table_size == 0 {
        return Err(zero("table_size"));
    }
    if !(MIN_SEATS..=MAX_SEATS).contains(&table_size) {
        return Err(SettingsError::BadName(format!(
            "table_size must be between {MIN_SEATS} and {MAX_SEATS}, got {table_size}"
        )));
    }
    let fill = match &file.fill_bot {
        Some(kind) => {
            let kind: BotKind = kind
                .parse()
                .map_err(|error: crate::house::UnknownBotKind| {
                    SettingsError::BadName(format!("fill_bot: {error}"))
                })?;
            let to = file.fill_to.unwrap_or(MIN_SEATS);
            if !(MIN_SEATS..=table_size).contains(&to) {
                return Err(SettingsError::BadName(format!(
                    "fill_to must be between {MIN_SEATS} and table_size ({table_size}), got {to}"
                )));
            }
            Some((kind, to))
        }
        None if file.fill_to.is_some() => {
            return Err(SettingsError::BadName(
                "fill_to needs fill_bot (the house bot kind that fills tables)".to_string(),
            ))
        }
        None => None,
    };
    let players = config_players(&file)?;
    let retention = Retention {
        compress_after: flags
            .compress_after
            .or(file.compress_after)
            .map_or(Retention::default().compress_after, GamesLimit::games),
        keep_games: flags
            .keep_games
            .or(file.keep_games)
            .map_or(Retention::default().keep_games, GamesLimit::games),
        disk_budget: flags
            .disk_budget
            .or(file.disk_budget)
            .map_or(Retention::default().disk_budget, DiskBudget::bytes),
        min_free_space: flags
            .min_free_space
            .or(file.min_free_space)
            .map_or(Retention::default().min_free_space, FreeSpace::bytes),
    };
    if retention.keep_games == Some(0) {
        // Every game's folder would go the moment it ends: nothing could ever be looked at.
        return Err(zero("keep_games"));
    }
    let admin_token = flags
        .admin_token
        .or(file.admin_token)
        .filter(|token| !token.is_empty());
    Ok(EventSettings {
        data: flags
            .data
            .or(file.data)
            .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA_DIR)),
        bind: flags.bind.or(file.bind).unwrap_or_else(|| {
            SocketAddr::from(([127, 0, 0, 1], crate::settings::DEFAULT_WEB_PORT))
        }),
        admin_token,
        seed: file.seed,
        game,
        http: HttpSettings::with_request_timeout(Duration::from_millis(timeout_ms)),
        runner: RunnerOptions {
            check: CheckPolicy {
                deadline: Duration::from_millis(wait_ms),
                ..CheckPolicy::default()
            },
            absent: file.absent.unwrap_or_default(),
            ..RunnerOptions::default()
        },
        outputs: file
            .outputs
            .as_deref()
            .map_or(OutputSelection::DEFAULT, OutputFile::selection),
        table_size,
        fill,
        recheck: Duration::from_millis(recheck_ms),
        pause: Duration::from_millis(file.pause_ms.unwrap_or(500)),
        players,
        retention,
        hand_histories: flags
            .hand_histories
            .or(file.hand_histories)
            .unwrap_or_default(),
    })
}

fn config_players(file: &EventFile) -> Result<Vec<ConfigPlayer>, SettingsError> {
    let mut players = Vec::new();
    for player in &file.players {
        check_name(&player.name).map_err(SettingsError::BadName)?;
        Contact::endpoint(&player.url, player.token.as_deref()).map_err(|reason| {
            SettingsError::FileEntrant {
                what: "player",
                name: player.name.clone(),
                reason,
            }
        })?;
        players.push(ConfigPlayer {
            name: player.name.clone(),
            contact: Contact::Http {
                url: player.url.clone(),
                token: player.token.clone(),
            },
        });
    }
    for bot in &file.bots {
        check_name(&bot.name).map_err(SettingsError::BadName)?;
        let kind = bot.bot_kind()?;
        players.push(ConfigPlayer {
            name: bot.name.clone(),
            contact: Contact::Bot(kind),
        });
    }
    for (index, player) in players.iter().enumerate() {
        if players[..index].iter().any(|p| p.name == player.name) {
            return Err(SettingsError::DuplicateName(player.name.clone()));
        }
    }
    Ok(players)
}
