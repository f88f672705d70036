//! Loading recorded game states from files.
//!
//! Accepted shapes:
//!
//! | file | shape |
//! |---|---|
//! | `.json` | one `game_state` object |
//! | `.json` | an array of `game_state` objects |
//! | `.json` | a Lean Poker viewer log (`log.json`, also what the live server's log API returns): an array of [`ViewerLogEntry`] (`{"type", "on_turn", "message", "game_state"}`; the entry that opens a hand has only `game_state`, spec §8) |
//! | `.json` | one viewer-log entry (an object with a `game_state` key) |
//! | `.jsonl` | our dealer's `requests.jsonl`: one [`RequestRecord`] per line (`game_state` an object, or a string holding the JSON) |
//!
//! Both record types come from `shared::records`, the one definition of these formats, which
//! the dealer writes by.
//!
//! # What a path may name
//!
//! A file, a `dealer run` folder, a folder of runs, a game folder (`game-3/`), or any folder
//! of recordings. A directory is searched recursively, in name order, and each file is
//! recognised by its name and its content:
//!
//! - `requests.jsonl` is always read; another `.jsonl` or `.ndjson` file only when its first
//!   line is a record with a `game_state` (so a game's `decks.jsonl` is skipped);
//! - `log.json` is read, except beside a `requests.jsonl` (a dealer's game folder: the same
//!   decisions, with less in them); another `.json` only when it holds game states (so
//!   `game.json`, `result.json`, `results.json`, `abandoned.json` and configs are skipped);
//! - everything else (hand histories in `hands/`, players' logs, `INDEX.md`) is skipped, and
//!   so are gzip-compressed files (`log.json.gz`, `requests.jsonl.gz`, as `dealer serve
//!   --data` leaves old games): the player crate has no gzip decoder, which would only slow
//!   down every deploy build, so `gunzip -k` them first.
//!
//! A file named on its own is always read, and one that holds no game state (or is
//! compressed) is an error; so is a directory with no recording in it at all.
//!
//! A relative path is tried from the current directory first and then from the workspace root
//! (the nearest folder up whose `Cargo.toml` has a `[workspace]`, found from the current
//! directory and from `CARGO_MANIFEST_DIR`): `cargo test` runs a package's tests in the
//! package's folder (`player/`), while `dealer run` writes `games/` in the folder it was
//! started from, usually the repository root. So `PLAYER_RECORDINGS=games/<run>` works from
//! either. When nothing is found, the error names every path tried.
//!
//! # Decisions in a viewer log
//!
//! A viewer log has no `bet_request` documents: each entry shows the table *after* something
//! happened, with every player's cards. Each `bet` entry that answers a decision (every bet
//! but the two blinds that open a hand) gets the state the player on turn was asked in,
//! rebuilt from the entry before it ([`Recorded::bet_request`]): `in_action` set to the
//! entry's `on_turn`, the other players' cards hidden, a player whose fold was just logged
//! marked folded (the log applies a fold one entry late), and `minimum_raise` replayed from
//! the hand's raises (spec §4). `bet_index` stays absent.

use serde_json::value::RawValue;
use shared::records::{EntryKind, RequestRecord, ViewerLogEntry};
use shared::{GameState, GameStateError, Seat};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use thiserror::Error;

mod file;
use file::{load_file, load_json_file};

/// The environment variable [`load_env`] reads: extra recordings for the tests (a file or a
/// directory, several separated like `PATH`), e.g. a dealer's `games/*/requests.jsonl`.
pub const RECORDINGS_ENV: &str = "PLAYER_RECORDINGS";

/// Where a recorded state came from: `file:line`, and the entry number inside an array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The file.
    pub path: PathBuf,
    /// 1-based line where the state (or its entry, or its JSONL line) starts.
    pub line: usize,
    /// 0-based position in a JSON array, when the file holds one.
    pub entry: Option<usize>,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.path.display(), self.line)?;
        if let Some(entry) = self.entry {
            write!(f, " (entry {entry})")?;
        }
        Ok(())
    }
}

/// How our dealer read an answer, as logged in `requests.jsonl` (defined in `shared`).
pub use shared::records::RecordedAction;

/// One `requests.jsonl` line without its `game_state` (which is [`Recorded::state`]).
pub type DealerRecord = RequestRecord<()>;

/// What kind of record a state came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A bare `game_state` document.
    State,
    /// An entry of a Lean Poker viewer log (every player's cards are visible there).
    LogEntry {
        /// The entry's `type`; `None` on the entry that opens a hand.
        kind: Option<EntryKind>,
        /// The entry's `message`.
        message: Option<String>,
        /// The entry's `on_turn` seat (for bets).
        on_turn: Option<Seat>,
        /// For a `bet` entry that answers a decision: the state the player on turn was asked
        /// in, rebuilt from the log (see the module docs). `None` for blinds and other entries.
        asked: Option<Box<GameState>>,
    },
    /// A line of our dealer's `requests.jsonl`: a `bet_request` as sent, and what came back.
    DealerRequest(DealerRecord),
}

/// One recorded game state and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// File, line and entry, for error messages.
    pub source: Source,
    /// The state.
    pub state: GameState,
    /// The kind of record, with what else it recorded.
    pub origin: Origin,
}

impl Recorded {
    /// The decision this record holds, if any: the state itself when it names the seat in
    /// action (`in_action`) and that player is active with chips behind; for a viewer log's
    /// `bet` entry, the state rebuilt for the player on turn. Showdown states and other
    /// viewer-log entries hold none.
    pub fn bet_request(&self) -> Option<&GameState> {
        let asked = match &self.origin {
            Origin::LogEntry { asked, .. } => asked.as_deref()?,
            Origin::State | Origin::DealerRequest(_) => &self.state,
        };
        let can_act = asked.in_action.is_some() && asked.me().is_some_and(|me| me.can_act());
        can_act.then_some(asked)
    }

    /// Whether the record holds a decision a player could be asked to make
    /// ([`Recorded::bet_request`]).
    pub fn is_bet_request(&self) -> bool {
        self.bet_request().is_some()
    }
}

/// Why recordings could not be loaded. The message starts with `file:line`.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file or directory could not be read.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The text is not JSON (or not JSONL).
    #[error("{at}, column {column}: not valid JSON: {message}")]
    Json {
        /// Where.
        at: Source,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// JSON, but not one of the accepted shapes.
    #[error("{at}: {message}")]
    Shape {
        /// Where.
        at: Source,
        /// What was expected.
        message: String,
    },
    /// A relative or absolute path that exists nowhere it was looked for.
    #[error("{path}: no such file or directory (tried {})", tried_list(tried))]
    NotFound {
        /// The path as given.
        path: PathBuf,
        /// Every place it was looked for, in order.
        tried: Vec<PathBuf>,
    },
    /// A directory with no recording in it.
    #[error("{path}: no recorded game states in it (read: requests.jsonl, log.json and other files holding game_state JSON){}", gz_note(*gzipped))]
    NoRecordings {
        /// The directory.
        path: PathBuf,
        /// Gzip-compressed files skipped in it.
        gzipped: usize,
    },
    /// A file named on its own that the kit cannot read as a recording.
    #[error("{path}: {reason}", path = path.display())]
    NotRecording {
        /// The file.
        path: PathBuf,
        /// Why it is not one.
        reason: String,
    },
    /// A `game_state` that does not parse.
    #[error("{at}, column {column}: invalid game_state at {path}: {message}", path = error.path, message = error.message)]
    State {
        /// Where the error is (the line of the error itself).
        at: Source,
        /// 1-based column of the error.
        column: usize,
        /// The parse error (its line and column are relative to the document).
        error: GameStateError,
    },
}

fn tried_list(tried: &[PathBuf]) -> String {
    let shown: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    shown.join(", ")
}

fn gz_note(gzipped: usize) -> String {
    if gzipped == 0 {
        String::new()
    } else {
        format!(
            "; {gzipped} gzip-compressed file(s) skipped: the kit reads no gzip, `gunzip -k` them"
        )
    }
}

/// Loads every recorded state under `path` (a file or a directory, see the module docs).
///
/// # Errors
/// The first [`LoadError`], naming the file and line; [`LoadError::NotFound`] with every path
/// tried; [`LoadError::NoRecordings`] for a directory without any.
pub fn try_load(path: impl AsRef<Path>) -> Result<Vec<Recorded>, LoadError> {
    let path = resolve(path.as_ref())?;
    let mut out = Vec::new();
    let metadata = std::fs::metadata(&path).map_err(|source| LoadError::Io {
        path: path.clone(),
        source,
    })?;
    if metadata.is_dir() {
        let mut gzipped = 0;
        load_dir(&path, &mut out, &mut gzipped)?;
        if out.is_empty() {
            return Err(LoadError::NoRecordings { path, gzipped });
        }
    } else {
        load_file(&path, &mut out)?;
    }
    Ok(out)
}

/// Where `path` is: as given when it exists, else (for a relative path) under the workspace
/// root (see the module docs).
fn resolve(path: &Path) -> Result<PathBuf, LoadError> {
    if path.exists() {
        return Ok(path.to_path_buf());
    }
    if path.is_absolute() {
        return Err(LoadError::NotFound {
            path: path.to_path_buf(),
            tried: vec![path.to_path_buf()],
        });
    }
    let current = std::env::current_dir().ok();
    let mut tried: Vec<PathBuf> = vec![current
        .as_deref()
        .map_or_else(|| path.to_path_buf(), |dir| dir.join(path))];
    let starts = [
        current,
        std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from),
    ];
    for root in starts
        .iter()
        .flatten()
        .filter_map(|dir| workspace_root(dir))
    {
        let candidate = root.join(path);
        if !tried.contains(&candidate) {
            if candidate.exists() {
                return Ok(candidate);
            }
            tried.push(candidate);
        }
    }
    Err(LoadError::NotFound {
        path: path.to_path_buf(),
        tried,
    })
}

/// The nearest folder at or above `dir` whose `Cargo.toml` declares a `[workspace]`.
fn workspace_root(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|folder| {
            std::fs::read_to_string(folder.join("Cargo.toml")).is_ok_and(|manifest| {
                manifest
                    .lines()
                    .any(|line| line.trim_start().starts_with("[workspace]"))
            })
        })
        .map(Path::to_path_buf)
}

/// [`try_load`] for tests: panics with the error (file and line) instead of returning it.
///
/// A relative path is relative to the current directory, which `cargo test` sets to the
/// crate's directory; `concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures")` is robust.
#[track_caller]
pub fn load(path: impl AsRef<Path>) -> Vec<Recorded> {
    match try_load(path.as_ref()) {
        Ok(recorded) => recorded,
        Err(error) => panic!("cannot load recorded states: {error}"),
    }
}

/// Loads the recordings named by the environment variable `variable` (one path, or several
/// separated like `PATH`); `None` when it is unset or empty. Panics like [`load`] on a bad file,
/// and when a path it names holds no recorded state (an empty folder, a typo'd folder of other
/// files): a check over nothing must not pass.
#[track_caller]
pub fn load_env(variable: &str) -> Option<Vec<Recorded>> {
    let value = std::env::var_os(variable).filter(|value| !value.is_empty())?;
    let mut out = Vec::new();
    for path in std::env::split_paths(&value) {
        if path.as_os_str().is_empty() {
            continue; // `a::b` or a trailing separator
        }
        match try_load(&path) {
            Ok(recorded) if recorded.is_empty() => panic!(
                "{variable} names {}, which holds no recorded game state (a dealer run's \
                 folder, a game folder, a log.json or a requests.jsonl)",
                path.display()
            ),
            Ok(recorded) => out.extend(recorded),
            Err(error) => panic!(
                "cannot load the recorded states {variable} names ({}): {error}",
                path.display()
            ),
        }
    }
    Some(out)
}

fn load_dir(dir: &Path, out: &mut Vec<Recorded>, gzipped: &mut usize) -> Result<(), LoadError> {
    let io_error = |source| LoadError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io_error)? {
        entries.push(entry.map_err(io_error)?.path());
    }
    entries.sort();
    let has_requests = entries
        .iter()
        .any(|path| file_name(path) == "requests.jsonl");
    for path in entries {
        if path.is_dir() {
            load_dir(&path, out, gzipped)?;
        } else if is_gzip(&path) {
            // Only compressed recordings are worth a word in an error; a `.tar.gz` is not one.
            let stem = Path::new(path.file_stem().unwrap_or_default());
            if is_json(stem) || is_jsonl(stem) || is_json(&path) || is_jsonl(&path) {
                *gzipped += 1;
            }
        } else if is_jsonl(&path) {
            if file_name(&path) == "requests.jsonl" || holds_request_records(&read(&path)?) {
                load_file(&path, out)?;
            }
        } else if is_json(&path) {
            let beside_requests = has_requests && file_name(&path) == "log.json";
            if !beside_requests {
                load_json_file(&path, out, NotRecorded::Skip)?;
            }
        }
    }
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Whether a JSONL text's first record has a `game_state` (a `requests.jsonl` under another
/// name), rather than being some other log (a game's `decks.jsonl`).
fn holds_request_records(text: &str) -> bool {
    let Some(first) = text.lines().find(|line| !line.trim().is_empty()) else {
        return false;
    };
    serde_json::from_str::<HashMap<String, &RawValue>>(first)
        .is_ok_and(|keys| keys.contains_key("game_state"))
}

/// Gzip-compressed: named `.gz`, or a `.json`/`.jsonl` file starting with gzip's magic bytes
/// `1f 8b` (other files are not opened).
fn is_gzip(path: &Path) -> bool {
    if extension(path) == "gz" {
        return true;
    }
    if !is_json(path) && !is_jsonl(path) {
        return false;
    }
    let mut magic = [0u8; 2];
    std::fs::File::open(path)
        .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut magic))
        .is_ok_and(|()| magic == [0x1f, 0x8b])
}

/// What to do with a `.json` file that holds no game state at all.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NotRecorded {
    /// Skip it (found in a directory: a `results.json`, a config).
    Skip,
    /// Report it (named on its own).
    Fail,
}

fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

fn is_json(path: &Path) -> bool {
    extension(path) == "json"
}

fn is_jsonl(path: &Path) -> bool {
    matches!(extension(path).as_str(), "jsonl" | "ndjson")
}

fn read(path: &Path) -> Result<String, LoadError> {
    std::fs::read_to_string(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::file::line_at;

    #[test]
    fn lines_are_counted_from_one() {
        let text = "a\nb\nc";
        assert_eq!(line_at(text, 0), 1);
        assert_eq!(line_at(text, 2), 2);
        assert_eq!(line_at(text, 4), 3);
        assert_eq!(line_at(text, 99), 3);
    }
}
