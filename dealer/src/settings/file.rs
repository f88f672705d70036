//! The `--config` TOML file: its keys ([`RunFile`], each with the meaning of the flag of the
//! same name), and reading it with errors that name the line.

use super::SettingsError;
use crate::observe::OutputSelection;
use crate::rules::{BlindSchedule, OddChipRule};
use crate::runner::AbsentPolicy;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Defines a config file's struct: its own keys as written, then the keys every config file
/// shares (`dealer run --config` and `dealer serve --config`), written here once, with
/// [`SharedKeys`] to read them. A macro rather than `#[serde(flatten)]`: serde cannot combine
/// `flatten` with `deny_unknown_fields`, and a misspelt key must stay an error naming its line.
macro_rules! config_file {
    (
        $(#[$attr:meta])*
        pub struct $name:ident {
            $($(#[$field_attr:meta])* pub $field:ident: $type:ty,)*
        }
    ) => {
        $(#[$attr])*
        pub struct $name {
            $($(#[$field_attr])* pub $field: $type,)*
            /// `blinds` (`--blinds`), or custom levels (`[[blinds.custom]]`).
            pub blinds: Option<$crate::rules::BlindSchedule>,
            /// `stack` (`--stack`).
            pub stack: Option<u64>,
            /// `timeout_ms` (`--timeout-ms`): the HTTP deadline of one request.
            pub timeout_ms: Option<u64>,
            /// `hand_limit` (`--hand-limit`).
            pub hand_limit: Option<u64>,
            /// `forgiving` (`--forgiving`).
            pub forgiving: Option<bool>,
            /// `wait_ms` (`--wait-ms`).
            pub wait_ms: Option<u64>,
            /// `absent` (`--absent`).
            pub absent: Option<$crate::runner::AbsentPolicy>,
            /// `outputs` (`--outputs`): which per-game files to write (`[]`: results.json only).
            pub outputs: Option<Vec<$crate::settings::OutputFile>>,
            /// Who gets a split pot's odd chips (file only).
            pub odd_chips: Option<$crate::rules::OddChipRule>,
            /// Deal the board out after a hand ended early (file only).
            pub deal_out_board: Option<bool>,
            /// `[[player]]` tables: players served over HTTP.
            #[serde(default, rename = "player")]
            pub players: Vec<$crate::settings::FilePlayer>,
            /// `[[bot]]` tables: house bots played in process.
            #[serde(default, rename = "bot")]
            pub bots: Vec<$crate::settings::FileBot>,
        }

        impl $name {
            /// The keys every config file shares, borrowed.
            pub fn shared_keys(&self) -> $crate::settings::SharedKeys<'_> {
                $crate::settings::SharedKeys {
                    blinds: self.blinds.as_ref(),
                    stack: self.stack,
                    timeout_ms: self.timeout_ms,
                    hand_limit: self.hand_limit,
                    forgiving: self.forgiving,
                    wait_ms: self.wait_ms,
                    absent: self.absent,
                    outputs: self.outputs.as_deref(),
                    odd_chips: self.odd_chips,
                    deal_out_board: self.deal_out_board,
                    players: &self.players,
                    bots: &self.bots,
                }
            }
        }
    };
}

/// The keys every config file shares (the rules, the transport, the per-game files and the
/// entrants), borrowed from a [`RunFile`] or an `EventFile`: what the rules are read from.
#[derive(Debug, Clone, Copy, Default)]
pub struct SharedKeys<'a> {
    /// `blinds`.
    pub blinds: Option<&'a BlindSchedule>,
    /// `stack`.
    pub stack: Option<u64>,
    /// `timeout_ms`.
    pub timeout_ms: Option<u64>,
    /// `hand_limit`.
    pub hand_limit: Option<u64>,
    /// `forgiving`.
    pub forgiving: Option<bool>,
    /// `wait_ms`.
    pub wait_ms: Option<u64>,
    /// `absent`.
    pub absent: Option<AbsentPolicy>,
    /// `outputs`.
    pub outputs: Option<&'a [OutputFile]>,
    /// `odd_chips`.
    pub odd_chips: Option<OddChipRule>,
    /// `deal_out_board`.
    pub deal_out_board: Option<bool>,
    /// `[[player]]`.
    pub players: &'a [FilePlayer],
    /// `[[bot]]`.
    pub bots: &'a [FileBot],
}

pub(crate) use config_file;

config_file! {
    /// The config file (`dealer run --config FILE.toml`): every key optional, each with the
    /// meaning of the flag of the same name.
    #[derive(Debug, Default, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct RunFile {
        /// `--games`.
        pub games: Option<u32>,
        /// `--seed`.
        pub seed: Option<u64>,
        /// `--parallel`.
        pub parallel: Option<usize>,
        /// `--out`.
        pub out: Option<PathBuf>,
        /// `--reproducible`.
        pub reproducible: Option<bool>,
        /// `--duplicate`: `games` counts deal sets, each played once per rotation of the seats.
        pub duplicate: Option<bool>,
    }
}

/// A `[[player]]` of the config file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FilePlayer {
    /// The player's name.
    pub name: String,
    /// Its URL (credentials in it are sent as HTTP Basic).
    pub url: String,
    /// A secret sent as `Authorization: Bearer TOKEN`.
    pub token: Option<String>,
}

/// A `[[bot]]` of the config file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileBot {
    /// The bot's name.
    pub name: String,
    /// Its kind (see `dealer bots`) or, in a run's file, the path of an opponent profile; read
    /// by [`FileBot::opponent`] so that an unknown kind is reported with the bot's name.
    pub kind: String,
}

impl FileBot {
    /// The bot's kind, or an error naming the bot when the file names no known kind.
    ///
    /// # Errors
    /// [`SettingsError::FileEntrant`] for an unknown kind.
    pub fn bot_kind(&self) -> Result<crate::house::BotKind, SettingsError> {
        self.kind
            .parse()
            .map_err(
                |error: crate::house::UnknownBotKind| SettingsError::FileEntrant {
                    what: "bot",
                    name: self.name.clone(),
                    reason: error.to_string(),
                },
            )
    }

    /// The bot a run seats: its kind, or the profile file it names (see
    /// [`crate::house::opponent`]).
    ///
    /// # Errors
    /// [`SettingsError::FileEntrant`] for an unknown kind or an unreadable profile.
    pub fn opponent(&self) -> Result<crate::house::Opponent, SettingsError> {
        crate::house::opponent(&self.kind).map_err(|reason| SettingsError::FileEntrant {
            what: "bot",
            name: self.name.clone(),
            reason,
        })
    }
}

/// One per-game file, as named by `--outputs` and the file's `outputs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum OutputFile {
    /// `log.json`, the Lean Poker viewer log.
    Log,
    /// `requests.jsonl`, every `bet_request` with its answer.
    Requests,
    /// `hands/`, every hand as a PHH hand history.
    Hands,
    /// `hands.phhs`, every hand in one PHH multi-hand file (`hands-file`).
    HandsFile,
    /// `players/`, one log per player: every request and response.
    Players,
    /// `decks.jsonl` and `game.json`: every hand's cards and the game's setup, for `dealer
    /// replay` and `--decks`.
    Decks,
    /// No per-game file (results.json is always written).
    None,
}

impl OutputFile {
    /// The files named in `list` (`none` names nothing).
    pub fn selection(list: &[OutputFile]) -> OutputSelection {
        let mut selection = OutputSelection::NONE;
        for file in list {
            match file {
                OutputFile::Log => selection.viewer_log = true,
                OutputFile::Requests => selection.requests = true,
                OutputFile::Hands => selection.hands = true,
                OutputFile::HandsFile => selection.hands_file = true,
                OutputFile::Players => selection.player_logs = true,
                OutputFile::Decks => selection.decks = true,
                OutputFile::None => {}
            }
        }
        selection
    }
}

/// Reads and parses a config file.
///
/// # Errors
/// [`SettingsError::ReadFile`] or [`SettingsError::ParseFile`] (with the line).
pub fn read_run_file(path: &Path) -> Result<RunFile, SettingsError> {
    read_run_file_text(path)
}

/// Reads and parses any TOML settings file (`dealer run`'s and `dealer serve`'s), with the
/// errors of [`read_run_file`].
///
/// # Errors
/// [`SettingsError::ReadFile`] or [`SettingsError::ParseFile`] (with the line).
pub fn read_run_file_text<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, SettingsError> {
    let text = std::fs::read_to_string(path).map_err(|source| SettingsError::ReadFile {
        path: path.to_path_buf(),
        source,
    })?;
    toml::from_str(&text).map_err(|error| SettingsError::ParseFile {
        path: path.to_path_buf(),
        line: error
            .span()
            .map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1),
        message: error
            .message()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    })
}
