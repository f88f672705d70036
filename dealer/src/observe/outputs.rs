//! [`GameOutputs`]: every per-game file under one game directory, as observers for the runner.

use super::decks::DecksLog;
use super::game_record::GameRecordLog;
use super::phh::PhhHands;
use super::player_log::PlayerLogs;
use super::requests::RequestsLog;
use super::viewer_log::{LogFlush, ViewerLog};
use super::Observer;
use std::io;
use std::path::{Path, PathBuf};

/// Which per-game files to write ([`OutputSelection::DEFAULT`] by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputSelection {
    /// `log.json`, the Lean Poker viewer log.
    pub viewer_log: bool,
    /// `requests.jsonl`, every `bet_request` with its answer.
    pub requests: bool,
    /// `hands/<round>.phh`, every hand as a PHH hand history.
    pub hands: bool,
    /// `hands.phhs`, every hand in one file (PHH's multi-hand form, a table per round):
    /// fewer files and bytes than `hands/`.
    pub hands_file: bool,
    /// `players/<name>.log`, every request per player.
    pub player_logs: bool,
    /// `decks.jsonl`, every hand's cards, and `game.json`, the game's setup: with
    /// `requests.jsonl`, what `dealer replay` plays again.
    pub decks: bool,
}

impl Default for OutputSelection {
    fn default() -> Self {
        OutputSelection::DEFAULT
    }
}

impl OutputSelection {
    /// The default: every file, the hands in one `hands.phhs` per game. Not the per-hand
    /// `hands/` files, which say the same again: creating a file per hand cost more of the
    /// dealer's CPU than everything else it writes, and far more on a disk where earlier runs
    /// were just deleted (`docs/decisions.md`, "Hand histories: one file a game by default").
    pub const DEFAULT: OutputSelection = OutputSelection {
        viewer_log: true,
        requests: true,
        hands: false,
        hands_file: true,
        player_logs: true,
        decks: true,
    };

    /// Every file, the hands in both forms (`hands/` and `hands.phhs`).
    pub const ALL: OutputSelection = OutputSelection {
        viewer_log: true,
        requests: true,
        hands: true,
        hands_file: true,
        player_logs: true,
        decks: true,
    };

    /// No file.
    pub const NONE: OutputSelection = OutputSelection {
        viewer_log: false,
        requests: false,
        hands: false,
        hands_file: false,
        player_logs: false,
        decks: false,
    };
}

/// The files of one game under its directory (`game-<n>/`):
///
/// ```text
/// game-1/
///   log.json            viewer log (observe::viewer_log)
///   requests.jsonl      every bet_request (observe::requests)
///   hands.phhs          every hand in one file (observe::phh)
///   hands/<round>.phh   every hand, a file each, when selected (observe::phh)
///   players/<name>.log  every request per player (observe::player_log)
///   decks.jsonl         every hand's cards (observe::decks)
///   game.json           the setup, for dealer replay (observe::game_record)
/// ```
pub struct GameOutputs;

impl GameOutputs {
    /// The viewer log's path in `dir`.
    pub fn viewer_log_path(dir: &Path) -> PathBuf {
        dir.join("log.json")
    }

    /// The recorded requests' path in `dir`.
    pub fn requests_path(dir: &Path) -> PathBuf {
        dir.join("requests.jsonl")
    }

    /// The PHH directory in `dir`.
    pub fn hands_dir(dir: &Path) -> PathBuf {
        dir.join("hands")
    }

    /// The compact hand-history file's path in `dir`.
    pub fn hands_file_path(dir: &Path) -> PathBuf {
        dir.join("hands.phhs")
    }

    /// The recorded decks' path in `dir`.
    pub fn decks_path(dir: &Path) -> PathBuf {
        dir.join("decks.jsonl")
    }

    /// The game record's path in `dir`.
    pub fn game_record_path(dir: &Path) -> PathBuf {
        dir.join("game.json")
    }

    /// The player-log directory in `dir`.
    pub fn players_dir(dir: &Path) -> PathBuf {
        dir.join("players")
    }

    /// Creates `dir` and the default files ([`OutputSelection::DEFAULT`]) of a game played by
    /// `players` (names in seat order), and returns one observer per file kind, to be fed
    /// every event and exchange of the game and finished at its end.
    ///
    /// # Errors
    /// A directory or file cannot be created.
    pub fn create<S: AsRef<str>>(dir: &Path, players: &[S]) -> io::Result<Vec<Box<dyn Observer>>> {
        GameOutputs::create_selected(dir, players, OutputSelection::DEFAULT)
    }

    /// Like [`GameOutputs::create`], for the selected files only.
    ///
    /// # Errors
    /// A directory or file cannot be created.
    pub fn create_selected<S: AsRef<str>>(
        dir: &Path,
        players: &[S],
        selection: OutputSelection,
    ) -> io::Result<Vec<Box<dyn Observer>>> {
        GameOutputs::create_followed(dir, players, selection, LogFlush::EveryHand)
    }

    /// Like [`GameOutputs::create_selected`], with `log.json` flushed as `flush` says
    /// ([`LogFlush::Followed`] for a game followed live in the web viewer).
    ///
    /// # Errors
    /// A directory or file cannot be created.
    pub fn create_followed<S: AsRef<str>>(
        dir: &Path,
        players: &[S],
        selection: OutputSelection,
        flush: LogFlush,
    ) -> io::Result<Vec<Box<dyn Observer>>> {
        std::fs::create_dir_all(dir)?;
        let mut observers: Vec<Box<dyn Observer>> = Vec::with_capacity(7);
        if selection.viewer_log {
            observers.push(Box::new(ViewerLog::create_flushed(
                &Self::viewer_log_path(dir),
                flush,
            )?));
        }
        if selection.requests {
            observers.push(Box::new(RequestsLog::create(&Self::requests_path(dir))?));
        }
        if selection.hands {
            observers.push(Box::new(PhhHands::create(&Self::hands_dir(dir))?));
        }
        if selection.hands_file {
            observers.push(Box::new(PhhHands::create_file(&Self::hands_file_path(
                dir,
            ))?));
        }
        if selection.player_logs {
            observers.push(Box::new(PlayerLogs::create(
                &Self::players_dir(dir),
                players,
            )?));
        }
        if selection.decks {
            observers.push(Box::new(DecksLog::create(&Self::decks_path(dir))?));
            observers.push(Box::new(GameRecordLog::create(&Self::game_record_path(
                dir,
            ))?));
        }
        Ok(observers)
    }
}
