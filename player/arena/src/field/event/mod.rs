//! The field of an event being played: its hand histories as the dealer streams them
//! (`GET /api/event/hands`: one multi-hand PHH file, each hand a table
//! `[game-<n>-hand-<round>]` with `_lean_versions`, see the dealer's `docs/event-api.md`),
//! kept in a folder that grows with every fetch ([`EventCache`]), and one profile per team
//! fitted from its newest version ([`choose`], [`fit_teams`]).
//!
//! **The cache.** [`Ingest`] takes the decoded stream as it comes, cuts it into games (by the
//! tables' names), reads each game's hands once (each player's version, hands and decisions)
//! and writes the games into segment files of at most [`SEGMENT_GAMES`] games
//! (`games-<first>-<last>.phhs.gz`, each a multi-hand PHH file any reader takes). Nothing
//! counts until [`Ingest::commit`] writes the index (`index.json`, replaced whole): a fetch cut
//! midway leaves the cache as it was. The index says what each segment holds (which team
//! played which version in it) and sums each team's versions, so choosing the versions reads
//! no hand, and fitting reads only the segments where a chosen version played.
//!
//! **A team's version.** Each hand says each player's version (`_lean_versions`): a decision
//! counts for the version the player had in that hand. A team's versions are ordered by their
//! last game: the newest is the one it played last. A team is fitted from its newest version
//! when that has [`MIN_DECISIONS`](super::MIN_DECISIONS); a thinner newest version is pooled
//! with the versions before it, newest first, until they have enough between them (said:
//! [`TeamChoice::pooled`]); a team without enough in all is left unseated.

use super::phh::{read_event_hands, EventHand};
use super::{FittedPlayer, StyleCounts, StyleMeter, PROBLEMS_KEPT};
use bots::profile::{HandTracker, ProfileCounts};
use flate2::write::GzEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The index's format: an index of another is dropped and fetched again.
pub const CACHE_FORMAT: u32 = 1;

/// Games a segment file holds at most (about 0.5 MB of gzip'd PHH).
pub const SEGMENT_GAMES: u64 = 500;

/// The index's file name in an event's cache folder.
const INDEX_FILE: &str = "index.json";

/// One version of one team, as the event's hands say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionFigures {
    /// The team (the name it played under).
    pub team: String,
    /// The version it showed (empty when it never answered `version`).
    pub version: String,
    /// Games it played at least a hand of.
    pub games: u64,
    /// Hands it was dealt into.
    pub hands: u64,
    /// Its answers (every `bet_request` answered, bans excepted).
    pub decisions: u64,
    /// Its first and last game numbers.
    pub first_game: u32,
    /// See [`VersionFigures::first_game`].
    pub last_game: u32,
}

/// One segment file of the cache.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// Its file name in the cache folder.
    pub file: String,
    /// Its first game.
    pub first_game: u32,
    /// Its last game.
    pub last_game: u32,
    /// Games in it.
    pub games: u64,
    /// Each team and version that played in it.
    pub versions: BTreeSet<(String, String)>,
}

/// What the cache holds (`index.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheIndex {
    /// [`CACHE_FORMAT`].
    pub format: u32,
    /// The event's address, as given.
    pub address: String,
    /// The event's tournament id (the server's `Lean-Poker-Event`): another event at the same
    /// address has another.
    pub event: String,
    /// The last game fetched: the next fetch asks for the games after it.
    pub last_game: u32,
    /// Games fetched.
    pub games: u64,
    /// Games the server left out for want of a record (a dealer from before records).
    pub without_record: u64,
    /// The segment files, oldest first.
    pub segments: Vec<Segment>,
    /// Every team's every version.
    pub versions: Vec<VersionFigures>,
    /// Hands that could not be read.
    pub unreadable: u64,
    /// The first [`PROBLEMS_KEPT`] of them.
    pub problems: Vec<String>,
}

impl CacheIndex {
    /// An empty cache of the event `event` at `address`.
    pub fn empty(address: &str, event: &str) -> CacheIndex {
        CacheIndex {
            format: CACHE_FORMAT,
            address: address.to_string(),
            event: event.to_string(),
            last_game: 0,
            games: 0,
            without_record: 0,
            segments: Vec::new(),
            versions: Vec::new(),
            unreadable: 0,
            problems: Vec::new(),
        }
    }
}

/// An event's cache folder (`target/arena/events/<host>-<port>/`).
#[derive(Debug, Clone)]
pub struct EventCache {
    folder: PathBuf,
}

impl EventCache {
    /// The cache in `folder` (created when something is written).
    pub fn new(folder: PathBuf) -> EventCache {
        EventCache { folder }
    }

    /// Its folder.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The index, when there is a readable one of this format; `None` for an empty cache.
    pub fn load(&self) -> Option<CacheIndex> {
        let text = std::fs::read_to_string(self.folder.join(INDEX_FILE)).ok()?;
        let index: CacheIndex = serde_json::from_str(&text).ok()?;
        (index.format == CACHE_FORMAT
            && index
                .segments
                .iter()
                .all(|segment| self.folder.join(&segment.file).is_file()))
        .then_some(index)
    }

    /// Empties the folder (another event at the address, or an unreadable cache).
    ///
    /// # Errors
    /// The folder cannot be emptied.
    pub fn clear(&self) -> std::io::Result<()> {
        match std::fs::remove_dir_all(&self.folder) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        }
    }

    fn write_index(&self, index: &CacheIndex) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(index).map_err(std::io::Error::other)?;
        let temporary = self.folder.join(".index.json.partial");
        std::fs::write(&temporary, text + "\n")?;
        std::fs::rename(&temporary, self.folder.join(INDEX_FILE))
    }
}

/// The version each listed player of a hand had.
fn versions_of<'a, 'h>(hand: &'h EventHand<'a>) -> impl Iterator<Item = (&'a str, &'a str)> + 'h {
    hand.players
        .iter()
        .enumerate()
        .map(|(at, name)| (*name, hand.versions.get(at).copied().unwrap_or("")))
}

/// The game number of a stream table's name, `game-<n>-hand-<round>`.
fn game_of_table(name: &str) -> Option<u32> {
    name.strip_prefix("game-")?
        .split_once("-hand-")?
        .0
        .parse()
        .ok()
}

/// A segment being written.
struct SegmentWriter {
    file: String,
    gzip: GzEncoder<BufWriter<std::fs::File>>,
    first_game: u32,
    last_game: u32,
    games: u64,
    versions: BTreeSet<(String, String)>,
}

/// Takes a fetch's decoded stream and adds its games to the cache (see the
/// [module docs](self)).
pub struct Ingest<'a> {
    cache: &'a EventCache,
    index: CacheIndex,
    /// Text not yet cut into lines.
    pending: String,
    /// The comment lines before the first table (written at the top of every segment).
    preamble: String,
    /// The game being gathered: its number and text.
    game: Option<(u32, String)>,
    segment: Option<SegmentWriter>,
    /// Files written by this fetch (removed if it is not committed).
    written: Vec<PathBuf>,
    versions: BTreeMap<(String, String), VersionFigures>,
    /// Games of this fetch.
    games: u64,
    /// Games a segment holds at most ([`SEGMENT_GAMES`]).
    segment_games: u64,
}

impl<'a> Ingest<'a> {
    /// Starts adding a fetch's games to `cache`, whose index is `index` (an empty one for a
    /// first fetch).
    pub fn new(cache: &'a EventCache, index: CacheIndex) -> Ingest<'a> {
        let versions = index
            .versions
            .iter()
            .map(|v| ((v.team.clone(), v.version.clone()), v.clone()))
            .collect();
        Ingest {
            cache,
            index,
            pending: String::new(),
            preamble: String::new(),
            game: None,
            segment: None,
            written: Vec::new(),
            versions,
            games: 0,
            segment_games: SEGMENT_GAMES,
        }
    }

    /// Segments of at most `games` games (tests cut a small stream into several).
    #[cfg(test)]
    pub(crate) fn segment_games(mut self, games: u64) -> Self {
        self.segment_games = games.max(1);
        self
    }

    /// Games of this fetch taken whole so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Takes the next piece of the decoded stream.
    ///
    /// # Errors
    /// A segment file cannot be written, or the text is not a stream of the event's hands.
    pub fn feed(&mut self, text: &str) -> Result<(), String> {
        self.pending.push_str(text);
        let Some(end) = self.pending.rfind('\n') else {
            return Ok(());
        };
        let complete: String = self.pending.drain(..=end).collect();
        for line in complete.split_inclusive('\n') {
            self.line(line)?;
        }
        Ok(())
    }

    fn line(&mut self, line: &str) -> Result<(), String> {
        let trimmed = line.trim_start();
        if let Some(name) = trimmed.strip_prefix('[') {
            let name = name.split(']').next().unwrap_or("").trim();
            let number = game_of_table(name).ok_or_else(|| {
                format!("a table [{name}] where the event's hands have [game-<n>-hand-<round>]")
            })?;
            match &mut self.game {
                Some((current, text)) if *current == number => text.push_str(line),
                _ => {
                    self.end_game()?;
                    if number <= self.index.last_game {
                        return Err(format!(
                            "game {number} after game {}: the games come in number order",
                            self.index.last_game
                        ));
                    }
                    self.game = Some((number, line.to_string()));
                }
            }
        } else {
            match &mut self.game {
                Some((_, text)) => text.push_str(line),
                None if trimmed.is_empty() || trimmed.starts_with('#') => {
                    self.preamble.push_str(line)
                }
                None => {
                    return Err(format!(
                        "{:?} before the first hand: not the event's hand histories",
                        trimmed.trim_end()
                    ))
                }
            }
        }
        Ok(())
    }

    /// Reads the gathered game and writes it into the segment.
    fn end_game(&mut self) -> Result<(), String> {
        let Some((number, text)) = self.game.take() else {
            return Ok(());
        };
        // Each team and version of the game, with its hands and decisions in it.
        let mut seen: BTreeMap<(String, String), (u64, u64)> = BTreeMap::new();
        let mut hand_versions: HashMap<String, String> = HashMap::new();
        let mut dealt: Vec<(String, String)> = Vec::new();
        let (_, problems) = {
            let hand_versions = std::cell::RefCell::new(&mut hand_versions);
            let seen = std::cell::RefCell::new(&mut seen);
            read_event_hands(
                &text,
                |hand| {
                    let mut map = hand_versions.borrow_mut();
                    map.clear();
                    for (name, version) in versions_of(hand) {
                        map.insert(name.to_string(), version.to_string());
                    }
                },
                |name| {
                    let version = hand_versions
                        .borrow()
                        .get(name)
                        .cloned()
                        .unwrap_or_default();
                    dealt.push((name.to_string(), version));
                },
                |decision| {
                    let version = hand_versions
                        .borrow()
                        .get(decision.player)
                        .cloned()
                        .unwrap_or_default();
                    seen.borrow_mut()
                        .entry((decision.player.to_string(), version))
                        .or_default()
                        .1 += 1;
                },
            )
        };
        for key in dealt {
            seen.entry(key).or_default().0 += 1;
        }
        self.index.unreadable += problems.len() as u64;
        for problem in problems {
            if self.index.problems.len() < PROBLEMS_KEPT {
                self.index
                    .problems
                    .push(format!("game {number}: {problem}"));
            }
        }
        for ((team, version), (hands, decisions)) in &seen {
            let figures = self
                .versions
                .entry((team.clone(), version.clone()))
                .or_insert_with(|| VersionFigures {
                    team: team.clone(),
                    version: version.clone(),
                    games: 0,
                    hands: 0,
                    decisions: 0,
                    first_game: number,
                    last_game: number,
                });
            figures.games += 1;
            figures.hands += hands;
            figures.decisions += decisions;
            figures.first_game = figures.first_game.min(number);
            figures.last_game = figures.last_game.max(number);
        }
        self.write_game(number, &text, seen.into_keys())?;
        self.index.last_game = number;
        self.games += 1;
        Ok(())
    }

    fn write_game(
        &mut self,
        number: u32,
        text: &str,
        versions: impl Iterator<Item = (String, String)>,
    ) -> Result<(), String> {
        if self
            .segment
            .as_ref()
            .is_some_and(|segment| segment.games >= self.segment_games)
        {
            self.close_segment()?;
        }
        let folder = self.cache.folder();
        let cannot =
            |error: std::io::Error| format!("cannot write in {}: {error}", folder.display());
        if self.segment.is_none() {
            std::fs::create_dir_all(folder).map_err(cannot)?;
            let file = format!("games-{number}.phhs.gz.partial");
            let path = folder.join(&file);
            let created = std::fs::File::create(&path).map_err(cannot)?;
            self.written.push(path);
            let mut gzip = GzEncoder::new(BufWriter::new(created), Compression::fast());
            gzip.write_all(self.preamble.as_bytes()).map_err(cannot)?;
            self.segment = Some(SegmentWriter {
                file,
                gzip,
                first_game: number,
                last_game: number,
                games: 0,
                versions: BTreeSet::new(),
            });
        }
        let segment = self.segment.as_mut().expect("opened above");
        segment.gzip.write_all(text.as_bytes()).map_err(cannot)?;
        segment.last_game = number;
        segment.games += 1;
        segment.versions.extend(versions);
        Ok(())
    }

    fn close_segment(&mut self) -> Result<(), String> {
        let Some(segment) = self.segment.take() else {
            return Ok(());
        };
        let folder = self.cache.folder();
        let cannot =
            |error: std::io::Error| format!("cannot write in {}: {error}", folder.display());
        let mut file = segment.gzip.finish().map_err(cannot)?;
        file.flush().map_err(cannot)?;
        let name = format!("games-{}-{}.phhs.gz", segment.first_game, segment.last_game);
        let path = folder.join(&name);
        std::fs::rename(folder.join(&segment.file), &path).map_err(cannot)?;
        self.written.push(path);
        self.index.segments.push(Segment {
            file: name,
            first_game: segment.first_game,
            last_game: segment.last_game,
            games: segment.games,
            versions: segment.versions,
        });
        Ok(())
    }

    /// Ends the fetch: the last game and segment are written, and the index that counts them
    /// replaces the old one. `last_game` is the server's (games may have ended without hands to
    /// send); `without_record` its count of games it left out. Returns the new index.
    ///
    /// # Errors
    /// A file cannot be written; the fetch's files are then removed and the cache is as it was.
    pub fn commit(mut self, last_game: u32, without_record: u64) -> Result<CacheIndex, String> {
        let done = self.finish_files().and_then(|()| {
            if !self.pending.trim().is_empty() {
                return Err("the stream ends in the middle of a line".to_string());
            }
            self.index.last_game = self.index.last_game.max(last_game);
            self.index.games += self.games;
            self.index.without_record += without_record;
            self.index.versions = std::mem::take(&mut self.versions).into_values().collect();
            self.cache.write_index(&self.index).map_err(|error| {
                format!(
                    "cannot write the index of {}: {error}",
                    self.cache.folder().display()
                )
            })
        });
        match done {
            Ok(()) => {
                self.written.clear();
                Ok(self.index.clone())
            }
            Err(error) => {
                self.abandon();
                Err(error)
            }
        }
    }

    /// The stream ended: its last game is taken and written. [`Ingest::games`] then counts
    /// every game of the fetch.
    ///
    /// # Errors
    /// As [`Ingest::feed`].
    pub fn end(&mut self) -> Result<(), String> {
        self.finish_files()
    }

    fn finish_files(&mut self) -> Result<(), String> {
        let rest = std::mem::take(&mut self.pending);
        for line in rest.split_inclusive('\n') {
            self.line(line)?;
        }
        self.pending = String::new();
        self.end_game()?;
        self.close_segment()
    }

    /// Drops the fetch: its files are removed, the index is untouched.
    pub fn abandon(&mut self) {
        self.segment = None;
        for path in self.written.drain(..) {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl Drop for Ingest<'_> {
    fn drop(&mut self) {
        self.abandon();
    }
}

mod fit;

pub use fit::{choose, fit_teams, FittedTeam, TeamChoice};

#[cfg(test)]
mod tests;
