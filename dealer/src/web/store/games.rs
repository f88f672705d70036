//! What the viewer answers about one game: its files, its log, its players' requests.

use super::index::GameStatus;
use super::{compressed, FolderError, ResultsFolder, MAX_LOG_BYTES, MAX_PLAYER_LOG_BYTES};
use crate::observe::GameOutputs;
use crate::tournament::{GameEntry, InterruptedGame};
use crate::web::log::{parse_log, GameLog};
use crate::web::view::{self, PlayerRequests, RequestLine};
use serde::Serialize;
use std::fs::File;
use std::path::{Path, PathBuf};

/// One game's details.
#[derive(Debug, Clone, Serialize)]
pub struct GameDetails {
    /// The run's id.
    pub run: String,
    /// The game number.
    pub game: u32,
    /// Finished, running, interrupted or unrecorded (see [`GameStatus`]).
    pub status: GameStatus,
    /// The game's entry in `results.json`, when recorded.
    pub result: Option<GameEntry>,
    /// Why it stopped, for an interrupted game whose run recorded it (`results.json`'s
    /// `interrupted`, or an event game's `abandoned.json`).
    pub interrupted: Option<InterruptedGame>,
    /// Whether `log.json` exists.
    pub has_log: bool,
    /// Whether `requests.jsonl` exists.
    pub has_requests: bool,
    /// The players with a log under `players/`, in seat order.
    pub players: Vec<PlayerFile>,
}

/// A player's log file in a game.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerFile {
    /// The exact name (from the file's header line).
    pub name: String,
    /// The seat (from the header line).
    pub seat: Option<u64>,
    /// The file, relative to the game folder.
    #[serde(skip)]
    path: PathBuf,
}

impl ResultsFolder {
    /// One game's result and files.
    ///
    /// # Errors
    /// [`FolderError::NotFound`] for an unknown run or game.
    pub fn game(&self, id: &str, game: u32) -> Result<GameDetails, FolderError> {
        let (cache, dir) = self.game_folder(id, game)?;
        Ok(GameDetails {
            run: id.to_string(),
            game,
            status: self.status_at(&cache, game, &dir),
            result: match cache.entries.get(&game) {
                Some(entry) => Some(entry.clone()),
                None if cache.own_results.contains(&game) || self.is_restored(&dir) => {
                    self.game_result_file(&dir)
                }
                None => None,
            },
            interrupted: cache.interruptions.get(&game).cloned(),
            has_log: compressed::has_viewer_log(&dir),
            has_requests: compressed::exists(&GameOutputs::requests_path(&dir)),
            players: self.player_files(&dir),
        })
    }

    /// The game's viewer log, checked and indexed, up to its last complete entry. While the
    /// game is played (recorded as running, or unrecorded with a log changed in the last
    /// minute) hole cards are hidden until shown at a showdown, as at a live table.
    ///
    /// # Errors
    /// [`FolderError::NotFound`] without a log, [`FolderError::Unreadable`] for a malformed one
    /// or one cut before its first entry, [`FolderError::TooLarge`].
    pub fn game_log(&self, id: &str, game: u32) -> Result<GameLog, FolderError> {
        let (cache, dir) = self.game_folder(id, game)?;
        let bytes = self.read_viewer_log(&dir, MAX_LOG_BYTES)?;
        let mut log = parse_log(&bytes).map_err(FolderError::Unreadable)?;
        if self.status_at(&cache, game, &dir).hides_cards() {
            log.hide_cards();
        }
        Ok(log)
    }

    /// A game's status (see [`GameStatus`]).
    ///
    /// # Errors
    /// [`FolderError::NotFound`] for an unknown run or game.
    pub fn game_status(&self, id: &str, game: u32) -> Result<GameStatus, FolderError> {
        let (cache, dir) = self.game_folder(id, game)?;
        Ok(self.status_at(&cache, game, &dir))
    }

    /// Opens a game's `log.json` to follow it (checked to be inside the folder), with the
    /// game's status.
    ///
    /// # Errors
    /// [`FolderError::NotFound`] for an unknown run or game, or a game without a log.
    pub fn open_log(&self, id: &str, game: u32) -> Result<(File, GameStatus), FolderError> {
        let (cache, dir) = self.game_folder(id, game)?;
        self.opened(id, game);
        let file = self.open_viewer_log(&dir)?;
        Ok((file, self.status_at(&cache, game, &dir)))
    }

    /// The players' log files of a game folder, from their header lines, in seat order.
    fn player_files(&self, game_dir: &Path) -> Vec<PlayerFile> {
        let dir = GameOutputs::players_dir(game_dir);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Vec::new();
        };
        let mut files: Vec<PlayerFile> = entries
            .flatten()
            .filter(|entry| {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                // A log both plain and compressed (a compression cut off): the plain one is
                // whole, the other is left out.
                name.ends_with(".log")
                    || (name.ends_with(".log.gz") && !entry.path().with_extension("").is_file())
            })
            .filter_map(|entry| {
                let (head, _) = self.read_prefix(&entry.path(), 4096).ok()?;
                let line = head.split(|&b| b == b'\n').next()?;
                let (name, seat) = view::player_log_header(&String::from_utf8_lossy(line))?;
                Some(PlayerFile {
                    name,
                    seat,
                    path: entry.path(),
                })
            })
            .collect();
        files.sort_by(|a, b| a.seat.cmp(&b.seat).then(a.name.cmp(&b.name)));
        files
    }

    /// What one player was asked and answered in a game: its `requests.jsonl` lines and its
    /// text log.
    ///
    /// # Errors
    /// [`FolderError::NotFound`] for an unknown run, game or player.
    pub fn player(&self, id: &str, game: u32, name: &str) -> Result<PlayerRequests, FolderError> {
        let (cache, dir) = self.game_folder(id, game)?;
        let running = self.status_at(&cache, game, &dir).hides_cards();
        let files = self.player_files(&dir);
        let file = files.iter().find(|file| file.name == name);
        let requests_path = GameOutputs::requests_path(&dir);
        let (mut requests, problems, last) = match self.read_log(&requests_path, MAX_LOG_BYTES) {
            Ok(bytes) => {
                let (requests, problems) = view::requests_of(&bytes, name);
                (requests, problems, view::last_round(&bytes))
            }
            Err(FolderError::NotFound(_)) => (Vec::new(), Vec::new(), None),
            Err(error) => return Err(error),
        };
        if file.is_none() && requests.is_empty() {
            return Err(FolderError::NotFound(format!(
                "game {game} has no player {name:?}"
            )));
        }
        let mut held_back = None;
        if running {
            if let Some(last) = last {
                requests.retain(|request| request.round < last);
            }
            held_back = Some(
                "The game is being played: the hand in progress and the player's text log are \
                 shown once it is over (they show this player's hole cards)."
                    .to_string(),
            );
        }
        let (log, log_cut) = match file {
            Some(_) if running => (None, false),
            Some(file) => {
                let (text, cut) = self.read_prefix(&file.path, MAX_PLAYER_LOG_BYTES)?;
                (Some(String::from_utf8_lossy(&text).into_owned()), cut)
            }
            None => (None, false),
        };
        Ok(PlayerRequests {
            name: name.to_string(),
            seat: file
                .and_then(|f| f.seat)
                .or_else(|| requests.first().map(|r| r.seat)),
            requests,
            problems,
            log,
            log_cut,
            held_back,
        })
    }

    /// The `game_state` of line `line` (1-based) of a game's `requests.jsonl`, byte for byte,
    /// with the line's round and player: a test fixture for the SDK's testing kit.
    ///
    /// # Errors
    /// [`FolderError::NotFound`] for an unknown run, game or line.
    pub fn request_state(
        &self,
        id: &str,
        game: u32,
        line: usize,
    ) -> Result<RequestLine, FolderError> {
        let (cache, dir) = self.game_folder(id, game)?;
        let bytes = self.read_log(&GameOutputs::requests_path(&dir), MAX_LOG_BYTES)?;
        let request = view::request_line(&bytes, line)?;
        if self.status_at(&cache, game, &dir).hides_cards()
            && view::last_round(&bytes).is_some_and(|last| request.round >= last)
        {
            return Err(FolderError::NotFound(format!(
                "requests.jsonl line {line} is from the hand being played; it can be downloaded \
                 once the hand is over"
            )));
        }
        Ok(request)
    }
}
