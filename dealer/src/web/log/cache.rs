//! [`LogCache`]: each viewed game's log read once for every page.
//!
//! Every page following a game used to parse the whole log for `/log` (when it opens, and
//! again when the game ends) and every entry once more for its own `/live` tail: with three
//! pages on a fast game that was about a fifth of the machine's CPU. The cache reads each
//! game's `log.json` as it grows, once, keeping every entry's JSON as written, so a `/log`
//! answer or a `/live` chunk is a copy of bytes, whatever the number of pages. The entries
//! with hole cards hidden (as at a live table) are kept too, from the first time a page asks
//! for them: only while a game may be in play, so an ended game is held once, not twice.
//!
//! The cache is bounded by bytes, not only by games: a 10-player game's log is ~2.7 MB, and
//! over a long event the logs held were most of the server's memory (issue 17: 140 of
//! 157 MiB in use at 800 games). Games not asked about for [`IDLE_DROP`] are dropped, and
//! when a game is added the least recently used logs nobody is reading are dropped until at
//! most [`MAX_GAMES`] games and [`BUDGET_BYTES`] bytes are left. A log being read or
//! followed is never dropped, so the cache holds at most the budget plus the logs in use.

use super::{BanMark, CardHider, HandStart, LogEntry, LogReader};
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
/// The most bytes of entries kept for logs nobody is reading (see [`CachedLog::bytes`]):
/// about 16 ended 10-player games, or 8 followed while in play (each entry twice). The
/// newest games are the ones pages open; an older one is read again from its file.
pub const BUDGET_BYTES: usize = 48 * 1024 * 1024;
/// What one kept entry costs besides its JSON: its box's pointer and length in the list and
/// the allocator's header.
const ENTRY_OVERHEAD: usize = 32;
/// The most read from a log in one piece.
const READ_STEP: u64 = 4 * 1024 * 1024;
/// The most entry bytes in one `/live` chunk (a page that starts at entry 0 of a long game
/// gets it in pieces).
const CHUNK_BYTES: usize = 4 * 1024 * 1024;

/// The games' logs read so far, by run and game number (as the store validated them).
#[derive(Debug)]
pub struct LogCache {
    games: Mutex<HashMap<(String, u32), SharedLog>>,
    /// See [`BUDGET_BYTES`].
    budget_bytes: usize,
}

/// One game's log, shared by every request about it.
pub type SharedLog = Arc<Mutex<CachedLog>>;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every field is replaced whole; a panic elsewhere leaves a usable state.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Default for LogCache {
    fn default() -> LogCache {
        LogCache::with_budget(BUDGET_BYTES)
    }
}

impl LogCache {
    /// An empty cache within [`BUDGET_BYTES`].
    pub fn new() -> LogCache {
        LogCache::default()
    }

    /// An empty cache keeping at most `budget_bytes` of logs nobody reads.
    pub fn with_budget(budget_bytes: usize) -> LogCache {
        LogCache {
            games: Mutex::new(HashMap::new()),
            budget_bytes,
        }
    }

    /// The log of game `game` of run `run` (empty the first time; see [`CachedLog::refresh`]).
    pub fn game(&self, run: &str, game: u32) -> SharedLog {
        let mut games = lock(&self.games);
        let key = (run.to_string(), game);
        if let Some(log) = games.get(&key) {
            return Arc::clone(log);
        }
        // Only the map holds a log nobody follows; one locked is being read (never waited
        // for here: a long read of one game must not hold up the others).
        let unused = |log: &SharedLog| Arc::strong_count(log) == 1;
        let idle = |log: &SharedLog| log.try_lock().ok().map(|log| (log.last_used, log.bytes()));
        games.retain(|_, log| {
            !unused(log) || idle(log).is_none_or(|(used, _)| used.elapsed() < IDLE_DROP)
        });
        // The logs that may be dropped, least recently used first.
        let mut droppable: Vec<(Instant, usize, (String, u32))> = games
            .iter()
            .filter(|(_, log)| unused(log))
            .filter_map(|(key, log)| idle(log).map(|(used, bytes)| (used, bytes, key.clone())))
            .collect();
        droppable.sort_unstable();
        let mut held: usize = droppable.iter().map(|(_, bytes, _)| bytes).sum();
        for (_, bytes, key) in droppable {
            if games.len() < MAX_GAMES && held <= self.budget_bytes {
                break;
            }
            games.remove(&key);
            held -= bytes;
        }
        Arc::clone(
            games
                .entry(key)
                .or_insert_with(|| Arc::new(Mutex::new(CachedLog::default()))),
        )
    }

    /// Bytes held for logs nobody is reading now (those [`BUDGET_BYTES`] bounds), and how
    /// many games are kept in all.
    pub fn held(&self) -> (usize, usize) {
        let games = lock(&self.games);
        let bytes = games
            .values()
            .filter(|log| Arc::strong_count(log) == 1)
            .filter_map(|log| log.try_lock().ok().map(|log| log.bytes()))
            .sum();
        (bytes, games.len())
    }
}

/// One game's log as read so far.
#[derive(Debug)]
pub struct CachedLog {
    reader: LogReader,
    /// Each entry's JSON, as written.
    plain: Vec<Box<RawValue>>,
    /// Each entry's JSON with the hole cards not shown yet hidden, from the first time a
    /// page asks for it, with the hider that reached its end.
    hidden: Option<(CardHider, Vec<Box<RawValue>>)>,
    /// What the entries kept cost in memory (see [`CachedLog::bytes`]).
    bytes: usize,
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
            plain: Vec::new(),
            hidden: None,
            bytes: 0,
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
            let plain = raw_json(entry)?;
            self.bytes += plain.get().len() + ENTRY_OVERHEAD;
            self.plain.push(plain);
            if let Some((hider, hidden)) = &mut self.hidden {
                let starts = chunk.hands.iter().any(|hand| hand.entry == index);
                hider.hide(entry, starts);
                let entry = raw_json(entry)?;
                self.bytes += entry.get().len() + ENTRY_OVERHEAD;
                hidden.push(entry);
            }
        }
        self.hands.append(&mut chunk.hands);
        self.bans.append(&mut chunk.bans);
        self.closed = chunk.closed;
        self.cut = chunk.cut;
        Ok(())
    }

    /// Writes the entries with hole cards hidden, the first time a page asks for them: each
    /// entry read back from its JSON as written and hidden in order, as
    /// [`CachedLog::append`] does from then on.
    fn hide_cards(&mut self) -> Result<(), String> {
        if self.hidden.is_some() {
            return Ok(());
        }
        let mut hider = CardHider::new();
        let mut hidden = Vec::with_capacity(self.plain.len());
        for (index, plain) in self.plain.iter().enumerate() {
            let mut entry: LogEntry = serde_json::from_str(plain.get())
                .map_err(|error| format!("cannot read an entry back: {error}"))?;
            let starts = self
                .hands
                .binary_search_by_key(&index, |hand| hand.entry)
                .is_ok();
            hider.hide(&mut entry, starts);
            let entry = raw_json(&entry)?;
            self.bytes += entry.get().len() + ENTRY_OVERHEAD;
            hidden.push(entry);
        }
        self.hidden = Some((hider, hidden));
        Ok(())
    }

    /// What the entries kept cost in memory, about: their JSON (once, or twice once cards
    /// were hidden) and a few words each. What [`BUDGET_BYTES`] counts.
    pub fn bytes(&self) -> usize {
        self.bytes
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

    /// The entries as written, or with hole cards hidden as far as written yet.
    fn kept_entries(&self, hidden: bool) -> &[Box<RawValue>] {
        match &self.hidden {
            Some((_, entries)) if hidden => entries,
            _ => &self.plain,
        }
    }

    /// The `/log` answer ([`super::GameLog`] as JSON), hole cards hidden when `hide_cards`.
    ///
    /// # Errors
    /// As [`super::parse_log`]: empty, cut before its first entry, no entries.
    pub fn whole_json(&mut self, hide_cards: bool) -> Result<Vec<u8>, String> {
        if self.reader.offset() == 0 {
            // Not even the opening `[` (a file with anything else is an error already).
            return Err(super::EMPTY.to_string());
        }
        let partial = super::whole_log_note(self.plain.len(), self.closed, self.cut)?;
        if hide_cards {
            self.hide_cards()?;
        }
        serde_json::to_vec(&LogView {
            entries: self.kept_entries(hide_cards),
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
    ///
    /// # Errors
    /// The entries with cards hidden cannot be written: a sentence for the page.
    pub fn chunk_json(
        &mut self,
        first: usize,
        hide_cards: bool,
    ) -> Result<Option<(Vec<u8>, usize)>, String> {
        if hide_cards {
            self.hide_cards()?;
        }
        let Some(entries) = self
            .kept_entries(hide_cards)
            .get(first..)
            .filter(|e| !e.is_empty())
        else {
            return Ok(None);
        };
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
        .map_err(|error| format!("cannot write the log: {error}"))?;
        Ok(Some((json, end)))
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
                let (json, end) = log.chunk_json(first, false).unwrap().unwrap();
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
            assert!(log
                .chunk_json(whole.entries.len(), false)
                .unwrap()
                .is_none());
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

    /// Reads `text` as game `game`'s log through `cache`, as the `/log` handler does.
    fn read_game(cache: &LogCache, dir: &std::path::Path, game: u32, text: &str, hide: bool) {
        let path = dir.join(format!("log-{game}.json"));
        std::fs::write(&path, text).unwrap();
        let log = cache.game("run", game);
        let mut log = lock(&log);
        log.refresh(&mut File::open(&path).unwrap(), u64::MAX)
            .unwrap();
        log.whole_json(hide).unwrap();
    }

    #[test]
    fn the_logs_nobody_reads_stay_within_the_byte_budget() {
        let dir = tempfile::tempdir().unwrap();
        let text = log_text();
        let one = {
            let cache = LogCache::new();
            read_game(&cache, dir.path(), 0, &text, false);
            cache.held().0
        };
        assert!(
            one > text.len() / 2,
            "{one} bytes for a {} byte log",
            text.len()
        );
        // Cards hidden: each entry kept twice.
        let hidden = LogCache::new();
        read_game(&hidden, dir.path(), 0, &text, true);
        assert!(
            hidden.held().0 > one * 3 / 2,
            "{:?} vs {one}",
            hidden.held()
        );

        let budget = one * 3;
        let cache = LogCache::with_budget(budget);
        let followed = cache.game("run", 1000);
        for game in 0..20 {
            read_game(&cache, dir.path(), game, &text, game % 2 == 0);
            let (held, games) = cache.held();
            // At most the budget before the newest game was read, plus that game.
            assert!(held <= budget + one * 2, "game {game}: {held} > {budget}");
            assert!(games <= MAX_GAMES);
        }
        let (held, games) = cache.held();
        assert!(held >= budget - one * 2, "{held}: the budget is used");
        assert!(games < 20, "{games} games kept");
        // The followed game is kept whatever the budget; the newest game too.
        let kept = lock(&cache.games);
        assert!(Arc::ptr_eq(&kept[&("run".to_string(), 1000)], &followed));
        assert!(kept.contains_key(&("run".to_string(), 19)));
        assert!(
            !kept.contains_key(&("run".to_string(), 0)),
            "the oldest is dropped"
        );
    }

    #[test]
    fn cards_hidden_first_asked_late_match_cards_hidden_from_the_start() {
        let text = log_text();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.json");
        std::fs::write(&path, &text).unwrap();
        let mut early = CachedLog::default();
        // Asked before any entry: hidden as each is read.
        assert!(early.chunk_json(0, true).unwrap().is_none());
        early
            .refresh(&mut File::open(&path).unwrap(), u64::MAX)
            .unwrap();
        let mut late = CachedLog::default();
        late.refresh(&mut File::open(&path).unwrap(), u64::MAX)
            .unwrap();
        let plain_bytes = late.bytes();
        assert_eq!(
            late.whole_json(false).unwrap(),
            early.whole_json(false).unwrap()
        );
        assert_eq!(late.bytes(), plain_bytes, "no hidden copy until asked");
        let hidden = late.whole_json(true).unwrap();
        assert!(late.bytes() > plain_bytes);
        assert_eq!(hidden, early.whole_json(true).unwrap());
        let mut expected = parse_log(text.as_bytes()).unwrap();
        expected.hide_cards();
        assert_eq!(hidden, serde_json::to_vec(&expected).unwrap());
        assert_ne!(
            hidden,
            late.whole_json(false).unwrap(),
            "something was hidden"
        );
    }
}
