//! The field fitted from recorded games: every recorded player's decisions counted into an
//! opponent profile ([`bots::profile`]), which a house bot then plays.
//!
//! [`fit`] reads any recording a dealer or a live server leaves, given as files or folders
//! (searched recursively, in name order):
//!
//! | file | what is read |
//! |---|---|
//! | `*.phh`, `hands.phhs` (PHH hand histories, one hand or a table per hand) | every player's every answer, with its cards |
//! | `requests.jsonl` (our dealer's requests log) | every answer, as sent and answered |
//! | `log.json` (the Lean Poker viewer log: `dealer run`, `dealer serve --data`, the live server's log API) | every answer, rebuilt from the table before and after it |
//!
//! each also gzip-compressed (`.gz`, as an event keeps its older games). A game folder
//! holding several of them is read once, from the first of that list it has (they record the
//! same decisions). Results files, configs and players' logs are skipped.
//!
//! Fitting is deterministic: the same recordings give the same profiles, byte for byte,
//! whatever the number of threads.

pub mod event;
mod phh;
pub mod real_field;
mod style;
mod viewer_log;

pub use style::{Style, StyleCounts, StyleMeter};

use bots::profile::{HandTracker, Profile, ProfileCounts};
use player::{Chips, GameState};
use serde::{Deserialize, Serialize};
use shared::records::{RecordedAction, RequestRecord};
use std::collections::{BTreeMap, HashMap};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use thiserror::Error;

/// Recorded decisions a player needs to become a seat of a fitted field.
pub const MIN_DECISIONS: u64 = 1_000;

/// Problems kept (with their file) when hands cannot be read; all are counted.
pub const PROBLEMS_KEPT: usize = 10;

/// Recordings that cannot be fitted.
#[derive(Debug, Error)]
pub enum FieldError {
    /// A path that does not exist or cannot be read.
    #[error("{path}: {error}")]
    Unreadable {
        /// The path.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// Nothing to fit from.
    #[error(
        "no recorded decisions in {paths}: give a dealer run folder, an event's data folder, \
         PHH hands (*.phh, hands.phhs), requests.jsonl or log.json files"
    )]
    NoRecordings {
        /// The paths given.
        paths: String,
    },
}

/// What kind of recording a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RecordingKind {
    /// PHH hand histories.
    HandHistory,
    /// Our dealer's `requests.jsonl`.
    Requests,
    /// A Lean Poker viewer log, `log.json`.
    ViewerLog,
}

impl RecordingKind {
    /// The kind of the file `name`, gzip-compressed or not.
    fn of(name: &str) -> Option<RecordingKind> {
        let name = name.strip_suffix(".gz").unwrap_or(name);
        if name.ends_with(".phh") || name.ends_with(".phhs") {
            Some(RecordingKind::HandHistory)
        } else if name == "requests.jsonl" {
            Some(RecordingKind::Requests)
        } else if name == "log.json" {
            Some(RecordingKind::ViewerLog)
        } else {
            None
        }
    }
}

/// One recorded player's fit.
#[derive(Debug, Clone, PartialEq)]
pub struct FittedPlayer {
    /// Its profile.
    pub profile: Profile,
    /// Its recorded style, counted from the same decisions.
    pub style: StyleCounts,
}

/// What [`fit`] found and learned.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// Every recorded player, by name (also those with fewer than [`MIN_DECISIONS`]).
    pub players: Vec<FittedPlayer>,
    /// Files read, by kind.
    pub files: BTreeMap<RecordingKind, u64>,
    /// Hands (or records) that could not be read.
    pub unreadable: u64,
    /// The first [`PROBLEMS_KEPT`] of them, with their file.
    pub problems: Vec<String>,
}

impl Fit {
    /// The players with at least [`MIN_DECISIONS`] decisions, most decisions first (ties by
    /// name).
    pub fn seats(&self) -> Vec<&FittedPlayer> {
        let mut seats: Vec<&FittedPlayer> = self
            .players
            .iter()
            .filter(|p| p.profile.decisions >= MIN_DECISIONS)
            .collect();
        seats.sort_by(|a, b| {
            b.profile
                .decisions
                .cmp(&a.profile.decisions)
                .then_with(|| a.profile.name.cmp(&b.profile.name))
        });
        seats
    }
}

/// One player's counts while reading.
#[derive(Debug, Default)]
struct PlayerCounts {
    decisions: ProfileCounts,
    hands: u64,
    style: StyleMeter,
    /// Styles of finished streams (a meter counts one stream of hands).
    style_done: StyleCounts,
    /// The memory of the hand under way, as the player's bot would track it.
    hand: HandTracker,
}

/// What one thread read.
#[derive(Debug, Default)]
struct Reading {
    players: HashMap<String, PlayerCounts>,
    unreadable: u64,
    problems: Vec<(usize, String)>,
}

impl Reading {
    fn player(&mut self, name: &str) -> &mut PlayerCounts {
        if !self.players.contains_key(name) {
            self.players
                .insert(name.to_string(), PlayerCounts::default());
        }
        self.players.get_mut(name).expect("inserted above")
    }

    fn decision(&mut self, hand: u64, name: &str, state: &GameState, answer: Chips) {
        let player = self.player(name);
        if player.decisions.add_answer(state, answer, &mut player.hand) {
            player.style.observe(hand, state, answer);
        }
    }

    fn problem(&mut self, file: usize, path: &Path, problem: String) {
        self.unreadable += 1;
        if self.problems.len() < PROBLEMS_KEPT {
            self.problems
                .push((file, format!("{}: {problem}", path.display())));
        }
    }

    /// Reads one recording (number `file` of the list).
    fn read(&mut self, file: usize, path: &Path, kind: RecordingKind) {
        let text = match read_text(path) {
            Ok(text) => text,
            Err(error) => return self.problem(file, path, error),
        };
        // Hands are numbered apart in every file.
        let hand_of = |round: u64| ((file as u64) << 32) | (round & 0xffff_ffff);
        match kind {
            RecordingKind::HandHistory => {
                let mut dealt = Vec::new();
                let (_, problems) = phh::read_hands(
                    &text,
                    |name| dealt.push(name.to_string()),
                    |d| {
                        self.decision(
                            hand_of(d.state.round.unwrap_or(0)),
                            d.player,
                            d.state,
                            d.answer,
                        )
                    },
                );
                for name in dealt {
                    self.player(&name).hands += 1;
                }
                for problem in problems {
                    self.problem(file, path, problem);
                }
            }
            RecordingKind::Requests => {
                let mut hands_seen: HashMap<String, u64> = HashMap::new();
                for (number, line) in text.lines().enumerate() {
                    if line.trim().is_empty() {
                        continue;
                    }
                    match request_decision(line) {
                        Ok(Some((name, state, answer))) => {
                            let round = state.round.unwrap_or(0);
                            if hands_seen.get(&name) != Some(&round) {
                                hands_seen.insert(name.clone(), round);
                                self.player(&name).hands += 1;
                            }
                            self.decision(hand_of(round), &name, &state, answer);
                        }
                        Ok(None) => {}
                        Err(problem) => {
                            self.problem(file, path, format!("line {}: {problem}", number + 1))
                        }
                    }
                }
            }
            RecordingKind::ViewerLog => match viewer_log::decisions(&text) {
                Ok((hands, decisions)) => {
                    for (name, count) in hands {
                        self.player(&name).hands += count;
                    }
                    for (name, state, answer) in decisions {
                        self.decision(hand_of(state.round.unwrap_or(0)), &name, &state, answer);
                    }
                }
                Err(problem) => self.problem(file, path, problem),
            },
        }
        // A file's hands end with it.
        for player in self.players.values_mut() {
            let meter = std::mem::take(&mut player.style);
            player.style_done.merge(&meter.finish());
            player.hand = HandTracker::default();
        }
    }
}

/// A `requests.jsonl` line as a decision: who, the state sent, the chips the answer put in
/// (`None` for a ban or an answer never applied: no strategy's choice).
fn request_decision(line: &str) -> Result<Option<(String, GameState, Chips)>, String> {
    let record: RequestRecord<serde_json::Value> =
        serde_json::from_str(line).map_err(|e| e.to_string())?;
    match record.action {
        None | Some(RecordedAction::Banned) => return Ok(None),
        Some(_) => {}
    }
    let state = match &record.game_state {
        serde_json::Value::String(text) => GameState::from_json(text),
        serde_json::Value::Null => return Ok(None),
        other => GameState::from_json(&other.to_string()),
    }
    .map_err(|e| e.to_string())?;
    Ok(Some((record.player, state, record.amount)))
}

/// A file's text, gunzipped when its name ends in `.gz`.
fn read_text(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let bytes = if path.extension().is_some_and(|e| e == "gz") {
        let mut text = Vec::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_end(&mut text)
            .map_err(|e| format!("not gzip: {e}"))?;
        text
    } else {
        bytes
    };
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())
}

/// Every recording under `paths`, in order, with its kind: one kind per game folder (PHH
/// first, then `requests.jsonl`, then `log.json`).
pub fn recordings(paths: &[PathBuf]) -> Result<Vec<(PathBuf, RecordingKind)>, FieldError> {
    let mut files = Vec::new();
    for path in paths {
        let metadata = std::fs::metadata(path).map_err(|error| FieldError::Unreadable {
            path: path.clone(),
            error,
        })?;
        if metadata.is_dir() {
            walk(path, &mut files)?;
        } else {
            // A file named on its own is read whatever its name says (PHH unless JSON).
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let kind = RecordingKind::of(name).unwrap_or(if name.contains(".json") {
                RecordingKind::ViewerLog
            } else {
                RecordingKind::HandHistory
            });
            files.push((path.clone(), kind));
        }
    }
    Ok(files)
}

/// Adds the recordings of folder `dir` and its subfolders.
fn walk(dir: &Path, files: &mut Vec<(PathBuf, RecordingKind)>) -> Result<(), FieldError> {
    let unreadable = |error| FieldError::Unreadable {
        path: dir.to_path_buf(),
        error,
    };
    let mut entries: Vec<(String, PathBuf, bool)> = std::fs::read_dir(dir)
        .map_err(unreadable)?
        .filter_map(Result::ok)
        .map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            (name, entry.path(), is_dir)
        })
        .collect();
    entries.sort_by(|a, b| natural_order(&a.0, &b.0));
    // The best kind this folder holds (a `hands/` folder counts as hand histories).
    let best = entries
        .iter()
        .filter_map(|(name, _, is_dir)| match is_dir {
            true if name == "hands" => Some(RecordingKind::HandHistory),
            true => None,
            false => RecordingKind::of(name),
        })
        .min();
    // `hands/` and `hands.phhs` beside it record the same hands.
    let has_hands_file = entries
        .iter()
        .any(|(name, _, is_dir)| !is_dir && name.starts_with("hands.phhs"));
    for (name, path, is_dir) in entries {
        if is_dir && name == "hands" && has_hands_file {
            continue;
        }
        if is_dir {
            walk(&path, files)?;
        } else if let Some(kind) = RecordingKind::of(&name) {
            if Some(kind) == best {
                files.push((path, kind));
            }
        }
    }
    Ok(())
}

/// Names in order with their numbers read as numbers (`game-2` before `game-10`).
fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    let key = |s: &str| {
        let digits_at = s.find(|c: char| c.is_ascii_digit());
        match digits_at {
            Some(at) => {
                let digits: String = s[at..].chars().take_while(char::is_ascii_digit).collect();
                (
                    s[..at].to_string(),
                    digits.parse::<u64>().unwrap_or(u64::MAX),
                    s.to_string(),
                )
            }
            None => (s.to_string(), 0, s.to_string()),
        }
    };
    key(a).cmp(&key(b))
}

/// Fits a profile for every player recorded in `paths` (see the [module docs](self)), on
/// `threads` threads; the result does not depend on their number.
///
/// # Errors
/// A path that cannot be read, or no decision at all in them.
pub fn fit(paths: &[PathBuf], threads: usize) -> Result<Fit, FieldError> {
    let files = recordings(paths)?;
    let next = AtomicUsize::new(0);
    let readings: Mutex<Vec<Reading>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, files.len().max(1)) {
            scope.spawn(|| {
                let mut reading = Reading::default();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some((path, kind)) = files.get(index) else {
                        break;
                    };
                    reading.read(index, path, *kind);
                }
                readings
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(reading);
            });
        }
    });
    let readings = readings.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut merged: BTreeMap<String, PlayerCounts> = BTreeMap::new();
    let mut unreadable = 0;
    let mut problems = Vec::new();
    for reading in readings {
        unreadable += reading.unreadable;
        problems.extend(reading.problems);
        for (name, counts) in reading.players {
            let into = merged.entry(name).or_default();
            into.decisions.merge(&counts.decisions);
            into.hands += counts.hands;
            into.style_done.merge(&counts.style_done);
        }
    }
    problems.sort();
    problems.truncate(PROBLEMS_KEPT);
    let sources: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let players: Vec<FittedPlayer> = merged
        .into_iter()
        .filter(|(_, counts)| counts.decisions.decisions() > 0)
        .map(|(name, counts)| FittedPlayer {
            profile: counts
                .decisions
                .finish(&name, counts.hands, sources.clone()),
            style: counts.style_done,
        })
        .collect();
    if players.is_empty() {
        return Err(FieldError::NoRecordings {
            paths: sources.join(", "),
        });
    }
    let mut counts = BTreeMap::new();
    for (_, kind) in &files {
        *counts.entry(*kind).or_insert(0) += 1;
    }
    Ok(Fit {
        players,
        files: counts,
        unreadable,
        problems: problems.into_iter().map(|(_, p)| p).collect(),
    })
}

#[cfg(test)]
mod tests;
