//! [`LogCache`]: each viewed game's log read once for every page.
//!
//! Every page following a game used to parse the whole log for `/log` (when it opens, and
//! again when the game ends) and every entry once more for its own `/live` tail: with three
//! pages on a fast game that was about a fifth of the machine's CPU. The cache reads each
//! game's `log.json` as it grows, once, keeping every entry's JSON twice (as written, and
//! with hole cards hidden as at a live table), so a `/log` answer or a `/live` chunk is a
//! copy of bytes, whatever the number of pages.
//!
//! Games not asked about for [`IDLE_DROP`] are dropped, and at most [`MAX_GAMES`] are kept.

use super::{BanMark, CardHider, HandStart, LogReader};
use serde::Serialize;
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// A game not asked about for this long is dropped (when no page follows it).
pub const IDLE_DROP: Duration = Duration::from_secs(60);
/// The most games kept (the least recently used ones not followed are dropped first).
pub const MAX_GAMES: usize = 32;
/// The most read from a log in one piece.
const READ_STEP: u64 = 4 * 1024 * 1024;
/// The most entry bytes in one `/live` chunk (a page that starts at entry 0 of a long game
/// gets it in pieces).
const CHUNK_BYTES: usize = 4 * 1024 * 1024;

/// The games' logs read so far, by run and game number (as the store validated them).
#[derive(Debug, Default)]
pub struct LogCache {
    games: Mutex<HashMap<(String, u32), SharedLog>>,
}

/// One game's log, shared by every request about it.
pub type SharedLog = Arc<Mutex<CachedLog>>;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every field is replaced whole; a panic elsewhere leaves a usable state.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl LogCache {
    /// An empty cache.
    pub fn new() -> LogCache {
        LogCache::default()
    }

    /// The log of game `game` of run `run` (empty the first time; see [`CachedLog::refresh`]).
    pub fn game(&self, run: &str, game: u32) -> SharedLog {
        let mut games = lock(&self.games);
        // Only the map holds a log nobody follows; one locked is being read (never waited
        // for here: a long read of one game must not hold up the others).
        let unused = |log: &SharedLog| Arc::strong_count(log) == 1;
        let last_used = |log: &SharedLog| log.try_lock().ok().map(|log| log.last_used);
        games.retain(|_, log| {
            !unused(log) || last_used(log).is_none_or(|used| used.elapsed() < IDLE_DROP)
        });
        if games.len() >= MAX_GAMES {
            let oldest = games
                .iter()
                .filter(|(_, log)| unused(log))
                .filter_map(|(key, log)| Some((last_used(log)?, key)))
                .min()
                .map(|(_, key)| key.clone());
            if let Some(key) = oldest {
                games.remove(&key);
            }
        }
        Arc::clone(
            games
                .entry((run.to_string(), game))
                .or_insert_with(|| Arc::new(Mutex::new(CachedLog::default()))),
        )
    }
}

/// One game's log as read so far.
#[derive(Debug)]
pub struct CachedLog {
    reader: LogReader,
    hider: CardHider,
    /// Each entry's JSON, as written.
    plain: Vec<Box<RawValue>>,
    /// Each entry's JSON with the hole cards not shown yet hidden.
    hidden: Vec<Box<RawValue>>,
    hands: Vec<HandStart>,
    bans: Vec<BanMark>,
    /// The array is closed after the last entry.
    closed: bool,
    /// The file ends inside an entry.
    cut: bool,
    /// The file's length at the last read.
    seen_length: u64,
    /// How many times the file was found replaced (shorter than what was read) and read
    /// again from its start.
    generation: u64,
    /// Why the file cannot be read (kept: it does not heal by growing).
    error: Option<String>,
    last_used: Instant,
}

impl Default for CachedLog {
    fn default() -> CachedLog {
        CachedLog {
            reader: LogReader::new(),
            hider: CardHider::new(),
            plain: Vec::new(),
            hidden: Vec::new(),
            hands: Vec::new(),
            bans: Vec::new(),
            closed: false,
            cut: false,
            seen_length: 0,
            generation: 0,
            error: None,
            last_used: Instant::now(),
        }
    }
}

/// A `/log` answer: [`super::GameLog`]'s fields, the entries as cached.
#[derive(Serialize)]
struct LogView<'a> {
    entries: &'a [Box<RawValue>],
    hands: &'a [HandStart],
    bans: &'a [BanMark],
    partial: Option<String>,
    cards_hidden: bool,
}

/// A `/live` chunk: [`super::LogChunk`]'s fields, the entries as cached.
#[derive(Serialize)]
struct ChunkView<'a> {
    first: usize,
    entries: &'a [Box<RawValue>],
    hands: &'a [HandStart],
    bans: &'a [BanMark],
    closed: bool,
}

fn raw_json<T: Serialize>(value: &T) -> Result<Box<RawValue>, String> {
    serde_json::to_string(value)
        .and_then(RawValue::from_string)
        .map_err(|error| format!("cannot write an entry: {error}"))
}

impl CachedLog {
    /// Reads what `file` (this game's `log.json`) holds beyond what was read. A file shorter
    /// than what was read, or a malformed one that changed, was replaced: it is read again
    /// from its start (see [`CachedLog::generation`]).
    ///
    /// # Errors
    /// The file cannot be read, is larger than `limit` bytes (the whole log is kept in
    /// memory), or is not a viewer log: a sentence for the page.
    pub fn refresh(&mut self, file: &mut File, limit: u64) -> Result<(), String> {
        self.last_used = Instant::now();
        let length = file
            .metadata()
            .map_err(|error| format!("cannot read log.json: {error}"))?
            .len();
        let changed_after_error = self.error.is_some() && length != self.seen_length;
        if length < self.reader.offset() || changed_after_error {
            let generation = self.generation + 1;
            *self = CachedLog {
                generation,
                ..CachedLog::default()
            };
        }
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        if length > limit {
            return Err(format!(
                "log.json is {length} bytes, more than the {limit} bytes the viewer reads"
            ));
        }
        while length > self.reader.offset() && length != self.seen_length {
            let offset = self.reader.offset();
            let before = self.plain.len();
            let mut bytes = Vec::new();
            file.seek(SeekFrom::Start(offset))
                .and_then(|_| file.take(READ_STEP).read_to_end(&mut bytes))
                .map_err(|error: io::Error| format!("cannot read log.json: {error}"))?;
            if let Err(error) = self.append(&bytes) {
                self.error = Some(error.clone());
                self.seen_length = length;
                return Err(error);
            }
            let end = offset + bytes.len() as u64;
            if end >= length || (self.reader.offset() == offset && self.plain.len() == before) {
                // Read to the end, or the rest is an entry not complete yet.
                self.seen_length = length;
            }
        }
        Ok(())
    }

    /// Parses, indexes and keeps the complete entries in `bytes` (read from the reader's
    /// offset).
    fn append(&mut self, bytes: &[u8]) -> Result<(), String> {
        let mut chunk = self.reader.feed(bytes)?;
        for (offset, entry) in chunk.entries.iter_mut().enumerate() {
            let index = chunk.first + offset;
            self.plain.push(raw_json(entry)?);
            let starts = chunk.hands.iter().any(|hand| hand.entry == index);
            self.hider.hide(entry, starts);
            self.hidden.push(raw_json(entry)?);
        }
        self.hands.append(&mut chunk.hands);
        self.bans.append(&mut chunk.bans);
        self.closed = chunk.closed;
        self.cut = chunk.cut;
        Ok(())
    }

    /// How many times the file was replaced since this log was first read: a follower that
    /// started in one generation cannot go on in the next.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Entries read so far.
    pub fn len(&self) -> usize {
        self.plain.len()
    }

    /// Whether no entry was read yet.
    pub fn is_empty(&self) -> bool {
        self.plain.is_empty()
    }

    fn entries(&self, hidden: bool) -> &[Box<RawValue>] {
        if hidden {
            &self.hidden
        } else {
            &self.plain
        }
    }

    /// The `/log` answer ([`super::GameLog`] as JSON), hole cards hidden when `hide_cards`.
    ///
    /// # Errors
    /// As [`super::parse_log`]: empty, cut before its first entry, no entries.
    pub fn whole_json(&self, hide_cards: bool) -> Result<Vec<u8>, String> {
        if self.reader.offset() == 0 {
            // Not even the opening `[` (a file with anything else is an error already).
            return Err(super::EMPTY.to_string());
        }
        let partial = super::whole_log_note(self.plain.len(), self.closed, self.cut)?;
        serde_json::to_vec(&LogView {
            entries: self.entries(hide_cards),
            hands: &self.hands,
            bans: &self.bans,
            partial,
            cards_hidden: hide_cards,
        })
        .map_err(|error| format!("cannot write the log: {error}"))
    }

    /// The `/live` chunk ([`super::LogChunk`] as JSON) of the entries from `first` on (at most
    /// 4 MiB of them, at least one), with the index after the last one; `None` when
    /// there is none.
    pub fn chunk_json(&self, first: usize, hide_cards: bool) -> Option<(Vec<u8>, usize)> {
        let entries = self
            .entries(hide_cards)
            .get(first..)
            .filter(|e| !e.is_empty())?;
        let mut size = 0;
        let count = entries
            .iter()
            .take_while(|entry| {
                size += entry.get().len();
                size <= CHUNK_BYTES
            })
            .count()
            .max(1);
        let end = first + count;
        let hands_from = self.hands.partition_point(|hand| hand.entry < first);
        let hands_to = self.hands.partition_point(|hand| hand.entry < end);
        let bans_from = self.bans.partition_point(|ban| ban.entry < first);
        let bans_to = self.bans.partition_point(|ban| ban.entry < end);
        let json = serde_json::to_vec(&ChunkView {
            first,
            entries: &entries[..count],
            hands: &self.hands[hands_from..hands_to],
            bans: &self.bans[bans_from..bans_to],
            closed: self.closed && end == self.plain.len(),
        })
        .ok()?;
        Some((json, end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::log::tests::{state, three_entries};
    use crate::web::log::{parse_log, LogChunk};
    use std::io::Write;

    /// Three entries, a showdown among them, and a ban.
    fn log_text() -> String {
        let shown = format!(
            r#"{{"type":"showdown","message":"b b showed 2 of Clubs making a high card","game_state":{}}}"#,
            state(0)
        );
        let three = three_entries();
        format!("{},{shown}]", &three[..three.len() - 1])
    }

    #[test]
    fn a_log_read_in_pieces_answers_as_the_whole_file_parsed() {
        let text = log_text();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.json");
        let mut writer = File::create(&path).unwrap();
        let mut reader = File::open(&path).unwrap();
        let mut log = CachedLog::default();
        log.refresh(&mut reader, u64::MAX).unwrap();
        assert!(log.whole_json(false).unwrap_err().contains("empty"));
        let mut written = 0;
        // The file grows a few bytes at a time, cut anywhere.
        for cut in (1..text.len()).step_by(7).chain([text.len()]) {
            writer.write_all(&text.as_bytes()[written..cut]).unwrap();
            written = cut;
            log.refresh(&mut reader, u64::MAX).unwrap();
            let Ok(whole) = parse_log(&text.as_bytes()[..cut]) else {
                assert!(log.whole_json(false).is_err(), "cut {cut}");
                continue;
            };
            assert_eq!(
                log.whole_json(false).unwrap(),
                serde_json::to_vec(&whole).unwrap(),
                "cut {cut}"
            );
            let mut hidden = whole.clone();
            hidden.hide_cards();
            assert_eq!(
                log.whole_json(true).unwrap(),
                serde_json::to_vec(&hidden).unwrap(),
                "cut {cut}"
            );
            // Every follower position gets what a reader of its own would send.
            for first in 0..whole.entries.len() {
                let (json, end) = log.chunk_json(first, false).unwrap();
                assert_eq!(end, whole.entries.len());
                let expected = LogChunk {
                    first,
                    entries: whole.entries[first..].to_vec(),
                    hands: whole
                        .hands
                        .iter()
                        .filter(|h| h.entry >= first)
                        .cloned()
                        .collect(),
                    bans: whole
                        .bans
                        .iter()
                        .filter(|b| b.entry >= first)
                        .cloned()
                        .collect(),
                    closed: whole.partial.is_none(),
                    cut: false,
                };
                assert_eq!(
                    json,
                    serde_json::to_vec(&expected).unwrap(),
                    "{cut} {first}"
                );
            }
            assert!(log.chunk_json(whole.entries.len(), false).is_none());
        }
        assert_eq!(log.len(), 4);
        assert_eq!(log.generation(), 0);
        // A file replaced by a shorter one is read again from its start.
        File::create(&path)
            .unwrap()
            .write_all(&text.as_bytes()[..text.len() / 2])
            .unwrap();
        log.refresh(&mut reader, u64::MAX).unwrap();
        assert_eq!(log.generation(), 1);
        assert!(log.len() < 4 && !log.is_empty());
    }

    #[test]
    fn a_malformed_log_stays_an_error_and_unused_games_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.json");
        std::fs::write(&path, b"[{\"game_state\":{\"players\":[{\"name\":1}]}}]").unwrap();
        let mut log = CachedLog::default();
        let mut file = File::open(&path).unwrap();
        let error = log.refresh(&mut file, u64::MAX).unwrap_err();
        assert!(error.contains("[0].game_state.players[0].name"), "{error}");
        assert_eq!(log.refresh(&mut file, u64::MAX).unwrap_err(), error);
        // Rewritten, it is read again; too large, it is not read.
        let good = format!("[{{\"game_state\":{}}}]", crate::web::log::tests::state(0));
        std::fs::write(&path, &good).unwrap();
        log.refresh(&mut file, u64::MAX).unwrap();
        assert_eq!((log.len(), log.generation()), (1, 1));
        let error = CachedLog::default().refresh(&mut file, 10).unwrap_err();
        assert!(error.contains("more than the 10 bytes"), "{error}");

        let cache = LogCache::new();
        let followed = cache.game("run", 0);
        for game in 1..=MAX_GAMES as u32 + 5 {
            cache.game("run", game);
        }
        let games = lock(&cache.games);
        assert!(games.len() <= MAX_GAMES);
        assert!(
            Arc::ptr_eq(&games[&("run".to_string(), 0)], &followed),
            "followed: kept"
        );
    }
}
