//! The event's finished games as PHH hand histories, for anyone who can see the event
//! (`GET /api/event/hands`, `web::hand_histories`): what `cargo arena --field-from
//! http://HOST:PORT/` fits the day's field from.
//!
//! **From the records.** Every finished game is played again from its compact record (the
//! database's, `observe::compact`) through the one PHH writer (`observe::phh`, in its event
//! form: a table `[game-<n>-hand-<round>]` per hand with `_lean_event_game` and
//! `_lean_versions`), so a game whose folder retention deleted is there like any other, and
//! the hands are byte for byte what the game's own `hands.phhs` says, plus those two fields. A
//! game recorded without a record (by a dealer from before records) is counted apart and left
//! out; one whose record cannot be replayed is a comment in its place.
//!
//! **Streamed, bounded.** The selection is counted first (its games and its last game, fixed
//! for the whole answer: games that end meanwhile are for the next `since`), then its games are
//! read [`PAGE`] numbers at a time, each replayed, written and compressed in turn, and handed
//! on as soon as the compressor gives bytes: memory is one game's text and the compressor's
//! window, however long the day. The work runs at the lowest CPU priority, never before a
//! round's games.
//!
//! **One gzip member** of one multi-hand PHH file: [`HEADER`] (Lean Poker's differences from
//! standard hold'em) and a comment naming the selection, then the hands, game after game in
//! number order, each game's in hand order.

use super::archive::compact_game;
use super::store::{EventStore, StoreError};
use crate::observe::phh::{PhhHands, HEADER};
use crate::replay::play_compact;
use flate2::write::GzEncoder;
use flate2::Compression;
use rusqlite::types::Value;
use std::io::Write as _;
use thiserror::Error;

/// How many game numbers are read from the database at a time.
pub const PAGE: u32 = 256;

/// The most names (or versions) one request may filter by.
pub const MAX_FILTERS: usize = 64;

/// Compressed bytes gathered before they are handed on (a game is about 5 KB compressed).
const HAND_ON_BYTES: usize = 32 * 1024;

/// Why a stream of hand histories stopped.
#[derive(Debug, Error)]
pub enum HandHistoryError {
    /// The database could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The compressor failed (it writes into memory: only when memory ran out).
    #[error("compressing the hand histories: {0}")]
    Compress(#[from] std::io::Error),
}

/// Which finished games a request asks for (the route's parameters).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HandHistoryQuery {
    /// Games numbered above this (`since`; 0, the default, is every game).
    pub since: u32,
    /// Only games one of these players was dealt into (`player`, repeated; names as they
    /// played that game). Empty: every player.
    pub players: Vec<String>,
    /// Only games in which a player (one of [`HandHistoryQuery::players`], when given) played
    /// one of these versions (`version`, repeated; the version the event counts the game
    /// under, the one shown at its end). Empty: every version.
    pub versions: Vec<String>,
}

impl HandHistoryQuery {
    /// Reads a query string: `since=N`, `player=NAME` and `version=TEXT` (each repeated for
    /// several), percent-encoded.
    ///
    /// # Errors
    /// An unknown parameter, a `since` that is not a game number or is given twice, an empty
    /// name or version, or more than [`MAX_FILTERS`] of them: one line saying which.
    pub fn parse(query: &str) -> Result<HandHistoryQuery, String> {
        let mut parsed = HandHistoryQuery::default();
        let mut since_seen = false;
        for (key, value) in form_urlencoded::parse(query.as_bytes()) {
            match key.as_ref() {
                "since" => {
                    if since_seen {
                        return Err("since is given twice".to_string());
                    }
                    since_seen = true;
                    parsed.since = value
                        .trim()
                        .parse()
                        .map_err(|_| format!("since={value:?} is not a game number (0 or more)"))?;
                }
                "player" | "version" => {
                    if value.is_empty() {
                        return Err(format!("{key}= is empty"));
                    }
                    let list = if key == "player" {
                        &mut parsed.players
                    } else {
                        &mut parsed.versions
                    };
                    if list.len() == MAX_FILTERS {
                        return Err(format!("more than {MAX_FILTERS} {key}= parameters"));
                    }
                    list.push(value.into_owned());
                }
                other => {
                    return Err(format!(
                        "unknown parameter {other:?}: the hand histories take since=N, \
                         player=NAME and version=TEXT (repeated for several)"
                    ))
                }
            }
        }
        Ok(parsed)
    }

    /// The `WHERE` clause selecting these games (`has_record`: with a compact record, or
    /// without one), and its parameters from `?1`.
    fn clause(&self, has_record: bool) -> (String, Vec<Value>) {
        let mut params = vec![Value::Integer(i64::from(self.since))];
        let mut sql = String::from("g.state = 'finished' AND g.number > ?1 AND ");
        if !has_record {
            sql.push_str("NOT ");
        }
        sql.push_str("EXISTS (SELECT 1 FROM game_records r WHERE r.game = g.number)");
        if !self.players.is_empty() || !self.versions.is_empty() {
            sql.push_str(
                " AND EXISTS (SELECT 1 FROM standings s WHERE s.game = g.number AND s.absent IS NULL",
            );
            for (column, values) in [("name", &self.players), ("version", &self.versions)] {
                if values.is_empty() {
                    continue;
                }
                sql.push_str(&format!(" AND s.{column} IN ("));
                for (index, value) in values.iter().enumerate() {
                    params.push(Value::Text(value.clone()));
                    if index > 0 {
                        sql.push_str(", ");
                    }
                    sql.push_str(&format!("?{}", params.len()));
                }
                sql.push(')');
            }
            sql.push(')');
        }
        (sql, params)
    }
}

/// What a query selects, counted when the answer starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection {
    /// Finished games with a record: the games the answer holds.
    pub games: u64,
    /// The last of them (`None` without any): the next `since`.
    pub last_game: Option<u32>,
    /// Finished games the query selects that have no record (recorded by a dealer from before
    /// records): left out.
    pub without_record: u64,
}

/// Counts what `query` selects now.
///
/// # Errors
/// The database cannot be read.
pub fn select(store: &EventStore, query: &HandHistoryQuery) -> Result<Selection, StoreError> {
    let (with, with_params) = query.clause(true);
    let (without, without_params) = query.clause(false);
    store.read(|c| {
        let (games, last_game): (i64, Option<u32>) = c.query_row(
            &format!("SELECT COUNT(*), MAX(g.number) FROM games g WHERE {with}"),
            rusqlite::params_from_iter(&with_params),
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        let without_record: i64 = c.query_row(
            &format!("SELECT COUNT(*) FROM games g WHERE {without}"),
            rusqlite::params_from_iter(&without_params),
            |row| row.get(0),
        )?;
        Ok(Selection {
            games: games.unsigned_abs(),
            last_game,
            without_record: without_record.unsigned_abs(),
        })
    })
}

/// The next game numbers of the selection after `after`, up to `last`, at most [`PAGE`].
fn next_games(
    store: &EventStore,
    query: &HandHistoryQuery,
    after: u32,
    last: u32,
) -> Result<Vec<u32>, StoreError> {
    let (clause, mut params) = query.clause(true);
    params.push(Value::Integer(i64::from(after)));
    let after_at = params.len();
    params.push(Value::Integer(i64::from(last)));
    let sql = format!(
        "SELECT g.number FROM games g WHERE {clause} AND g.number > ?{after_at} \
         AND g.number <= ?{} ORDER BY g.number LIMIT {PAGE}",
        after_at + 1
    );
    store.read(|c| {
        let mut statement = c.prepare_cached(&sql)?;
        let numbers = statement
            .query_map(rusqlite::params_from_iter(&params), |row| row.get(0))?
            .collect::<rusqlite::Result<Vec<u32>>>()?;
        Ok(numbers)
    })
}

/// What [`write_games`] sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sent {
    /// Games written.
    pub games: u64,
    /// Games whose record could not be replayed (a comment each, in their place).
    pub unreplayable: u64,
    /// Compressed bytes handed on.
    pub bytes: u64,
    /// Whether every game was written (`false`: `hand_on` refused more, the client left).
    pub complete: bool,
}

/// Writes the games `selection` counted for `query` as one gzip'd multi-hand PHH file (see the
/// [module docs](self)), handing each piece of compressed bytes to `hand_on` as it comes;
/// stops early, without an error, when `hand_on` returns `false`.
///
/// # Errors
/// The database cannot be read (what was handed on is then a cut file, as a client sees it).
pub fn write_games(
    store: &EventStore,
    query: &HandHistoryQuery,
    selection: &Selection,
    mut hand_on: impl FnMut(Vec<u8>) -> bool,
) -> Result<Sent, HandHistoryError> {
    let mut sent = Sent::default();
    let mut gzip = GzEncoder::new(Vec::with_capacity(2 * HAND_ON_BYTES), Compression::fast());
    gzip.write_all(HEADER.as_bytes())?;
    writeln!(
        gzip,
        "# The event's finished games after game {} ({} of them, to game {}), as the dealer's \
         records replay them: each hand a table [game-<n>-hand-<round>] with _lean_event_game \
         and _lean_versions.",
        query.since,
        selection.games,
        selection.last_game.unwrap_or(query.since)
    )?;
    let mut hand = |gzip: &mut GzEncoder<Vec<u8>>, sent: &mut Sent, at_least: usize| {
        let compressed = gzip.get_mut();
        if compressed.len() < at_least.max(1) {
            return true;
        }
        sent.bytes += compressed.len() as u64;
        hand_on(std::mem::replace(
            compressed,
            Vec::with_capacity(2 * HAND_ON_BYTES),
        ))
    };
    if let Some(last) = selection.last_game {
        let mut after = query.since;
        loop {
            let numbers = next_games(store, query, after, last)?;
            let Some(&page_last) = numbers.last() else {
                break;
            };
            for number in numbers {
                match game_hands(store, number)? {
                    Ok(hands) => gzip.write_all(&hands)?,
                    Err(reason) => {
                        sent.unreplayable += 1;
                        let reason: String = reason
                            .chars()
                            .map(|c| if c.is_control() { ' ' } else { c })
                            .collect();
                        writeln!(gzip, "\n# game {number} is left out: {reason}")?;
                    }
                }
                sent.games += 1;
                if !hand(&mut gzip, &mut sent, HAND_ON_BYTES) {
                    return Ok(sent);
                }
            }
            after = page_last;
        }
    }
    gzip.try_finish()?;
    sent.complete = hand(&mut gzip, &mut sent, 0);
    Ok(sent)
}

/// Game `number`'s hands in the event's PHH form, or why they cannot be written (no record, a
/// damaged one, one the engine refuses).
///
/// # Errors
/// The database cannot be read.
fn game_hands(store: &EventStore, number: u32) -> Result<Result<Vec<u8>, String>, StoreError> {
    let compact = match compact_game(store, number) {
        Ok(Some(compact)) => compact,
        Ok(None) => return Ok(Err("it has no record".to_string())),
        Err(StoreError::Record { reason, .. }) => return Ok(Err(reason)),
        Err(other) => return Err(other),
    };
    let mut hands = PhhHands::for_event(number);
    Ok(match play_compact(&compact, &mut hands) {
        Ok(_) => Ok(hands.take_written()),
        Err(error) => Err(format!("its record cannot be replayed: {error}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_is_read_and_a_bad_one_named() {
        assert_eq!(
            HandHistoryQuery::parse("").unwrap(),
            HandHistoryQuery::default()
        );
        let query =
            HandHistoryQuery::parse("since=12&player=ann&player=b%20b&version=v%3D1%2C2").unwrap();
        assert_eq!(query.since, 12);
        assert_eq!(query.players, ["ann", "b b"]);
        assert_eq!(query.versions, ["v=1,2"]);
        let error = |text: &str| HandHistoryQuery::parse(text).unwrap_err();
        assert!(error("since=-1").contains("not a game number"));
        assert!(error("since=x").contains("not a game number"));
        assert!(error("since=1&since=2").contains("twice"));
        assert!(error("player=").contains("empty"));
        assert!(error("limit=3").contains("unknown parameter \"limit\""));
        let many: Vec<String> = (0..=MAX_FILTERS).map(|n| format!("player=p{n}")).collect();
        assert!(error(&many.join("&")).contains("more than 64"));
    }

    #[test]
    fn the_clause_numbers_its_parameters_in_order() {
        let query = HandHistoryQuery {
            since: 3,
            players: vec!["a".into(), "b".into()],
            versions: vec!["v1".into()],
        };
        let (sql, params) = query.clause(true);
        assert!(
            sql.contains("s.name IN (?2, ?3) AND s.version IN (?4)"),
            "{sql}"
        );
        assert_eq!(params.len(), 4);
        let (sql, params) = HandHistoryQuery::default().clause(false);
        assert!(sql.contains("NOT EXISTS"), "{sql}");
        assert!(!sql.contains("standings"), "{sql}");
        assert_eq!(params.len(), 1);
    }
}
