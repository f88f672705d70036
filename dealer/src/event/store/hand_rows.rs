//! The hands to look at (`hand_notes`, issue 32): for each seat of each valued game, its
//! costliest hands with the luck of the cards taken out and every answer worth a second look,
//! written with the game's luck ([`EventStore::record_luck`]) and read back by team and
//! version ([`EventStore::hands_to_look_at`]).

use super::{EventStore, StoreError, GAMES_DIR};
use rusqlite::{params, Row, Transaction};
use serde::Serialize;
use std::collections::BTreeMap;

/// Why a hand is noted (`hand_notes.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HandNoteKind {
    /// One of the seat's costliest hands of the game with the luck taken out.
    Costly,
    /// An answer the dealer read as something else than its number says (a raise below the
    /// minimum read as a call, a bet below the price read as a fold).
    Misread,
    /// An invalid answer forgiven (counted as a check or fold), other than a timeout.
    Forgiven,
    /// No answer in time, forgiven.
    Timeout,
    /// An invalid answer (a timeout included: see `reason`) that banned the seat.
    Banned,
}

impl HandNoteKind {
    fn as_sql(self) -> &'static str {
        match self {
            HandNoteKind::Costly => "costly",
            HandNoteKind::Misread => "misread",
            HandNoteKind::Forgiven => "forgiven",
            HandNoteKind::Timeout => "timeout",
            HandNoteKind::Banned => "banned",
        }
    }

    fn from_sql(text: &str) -> Option<HandNoteKind> {
        [
            HandNoteKind::Costly,
            HandNoteKind::Misread,
            HandNoteKind::Forgiven,
            HandNoteKind::Timeout,
            HandNoteKind::Banned,
        ]
        .into_iter()
        .find(|kind| kind.as_sql() == text)
    }
}

/// One noted hand of one seat.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HandNote {
    /// The game's number.
    pub game: u32,
    /// The viewer's run id of the game folders (`/#/run/{run}/game/{game}`).
    pub run: &'static str,
    /// The seat.
    pub seat: usize,
    /// The hand, from 0 (the viewer shows `round + 1`).
    pub round: u64,
    /// Why it is noted.
    pub kind: HandNoteKind,
    /// What the hand cost the seat with the luck taken out, in points (ICM points before −
    /// after + its luck in the hand); `None` for a hand cut off by the game's end.
    pub cost: Option<f64>,
    /// The luck of its cards in the hand, in points.
    pub luck: Option<f64>,
    /// Its hole cards, short notation (`Ah Kd`).
    pub hole: String,
    /// The board at the hand's end.
    pub board: String,
    /// The decision: its street (`preflop`, `flop`, `turn`, `river`); `None` when the seat was
    /// never asked in the hand.
    pub street: Option<String>,
    /// The price to call: the current buy-in minus its bet before answering.
    pub price: Option<u64>,
    /// The pot before the answer.
    pub pot: Option<u64>,
    /// What it answered; `None` for a forgiven invalid answer or a ban.
    pub answer: Option<u64>,
    /// How the dealer read it (`fold`, `check`, `call`, `raise`, `allin`).
    pub action: Option<String>,
    /// Chips the answer moved into the pot.
    pub put_in: Option<u64>,
    /// The reason the seat reported, for a forgiven answer, a timeout or a ban.
    pub reason: Option<String>,
}

/// A team version's hands to look at.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HandsToLookAt {
    /// The version, as the page names it (its label: the string, and the game its deploy
    /// started at when an earlier deploy showed the same string).
    pub version: String,
    /// Its costliest hands with the luck taken out, costliest first.
    pub costly: Vec<HandNote>,
    /// Its answers worth a second look (misread, forgiven, timeouts, bans), newest first.
    pub answers: Vec<HandNote>,
    /// How many of each kind of answer it has in all (`misread`, `forgiven`, `timeout`,
    /// `banned`), beyond the ones listed.
    pub answer_counts: BTreeMap<String, u64>,
}

const COLUMNS: &str = "n.game, n.seat, n.round, n.kind, n.cost, n.luck, n.hole, n.board, n.street,
    n.price, n.pot, n.answer, n.action, n.put_in, n.reason";

fn note_of(row: &Row<'_>) -> rusqlite::Result<HandNote> {
    let kind: String = row.get(3)?;
    let chips = |index: usize| -> rusqlite::Result<Option<u64>> {
        Ok(row
            .get::<_, Option<i64>>(index)?
            .map(|chips| chips.max(0) as u64))
    };
    Ok(HandNote {
        game: row.get(0)?,
        run: GAMES_DIR,
        seat: row.get::<_, i64>(1)?.max(0) as usize,
        round: row.get::<_, i64>(2)?.max(0) as u64,
        kind: HandNoteKind::from_sql(&kind).unwrap_or(HandNoteKind::Costly),
        cost: row.get(4)?,
        luck: row.get(5)?,
        hole: row.get(6)?,
        board: row.get(7)?,
        street: row.get(8)?,
        price: chips(9)?,
        pot: chips(10)?,
        answer: chips(11)?,
        action: row.get(12)?,
        put_in: chips(13)?,
        reason: row.get(14)?,
    })
}

/// Writes a game's notes (the game number of each is `game`'s), after deleting any it had:
/// part of the game's luck transaction.
pub(super) fn replace_notes(
    t: &Transaction<'_>,
    game: u32,
    notes: &[HandNote],
) -> rusqlite::Result<()> {
    t.execute("DELETE FROM hand_notes WHERE game = ?1", [game])?;
    let mut insert = t.prepare_cached(
        "INSERT INTO hand_notes (game, seat, round, kind, cost, luck, hole, board, street, price,
             pot, answer, action, put_in, reason)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    )?;
    let sql_chips =
        |chips: Option<u64>| chips.map(|chips| i64::try_from(chips).unwrap_or(i64::MAX));
    for note in notes {
        insert.execute(params![
            game,
            i64::try_from(note.seat).unwrap_or(i64::MAX),
            i64::try_from(note.round).unwrap_or(i64::MAX),
            note.kind.as_sql(),
            note.cost.filter(|cost| cost.is_finite()),
            note.luck.filter(|luck| luck.is_finite()),
            note.hole,
            note.board,
            note.street,
            sql_chips(note.price),
            sql_chips(note.pot),
            sql_chips(note.answer),
            note.action,
            sql_chips(note.put_in),
            note.reason,
        ])?;
    }
    Ok(())
}

impl EventStore {
    /// Game `number`'s notes as stored, by seat, the costliest hands first, then the answers
    /// in the order they were given.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn game_notes(&self, number: u32) -> Result<Vec<HandNote>, StoreError> {
        self.read(|c| {
            c.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM hand_notes n WHERE n.game = ?1 ORDER BY n.rowid"
            ))?
            .query_map([number], note_of)?
            .collect()
        })
    }

    /// Team `player_id`'s version `version` in its deploy `deploy` (`event::versions`; named
    /// `label` on the page; with the deploy's games whose version was never reported): its
    /// `limit` costliest hands with the luck taken out, and its newest
    /// `limit` answers worth a second look, with how many of each kind it has in all. Empty for
    /// games valued before the event's database had notes.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn hands_to_look_at(
        &self,
        player_id: i64,
        version: &str,
        deploy: i64,
        label: &str,
        limit: usize,
    ) -> Result<HandsToLookAt, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(|c| {
            let of_version = "FROM hand_notes n
                 JOIN standings s ON s.game = n.game AND s.seat = n.seat
                 WHERE s.player_id = ?1 AND COALESCE(s.version, 'Unknown') IN (?2, 'Unknown')
                   AND COALESCE(s.deploy, 0) = ?3";
            let costly = c
                .prepare_cached(&format!(
                    "SELECT {COLUMNS} {of_version} AND n.kind = 'costly'
                     ORDER BY n.cost DESC, n.game DESC, n.round LIMIT ?4"
                ))?
                .query_map(params![player_id, version, deploy, limit], note_of)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let answers = c
                .prepare_cached(&format!(
                    "SELECT {COLUMNS} {of_version} AND n.kind <> 'costly'
                     ORDER BY n.game DESC, n.round DESC, n.rowid DESC LIMIT ?4"
                ))?
                .query_map(params![player_id, version, deploy, limit], note_of)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let answer_counts = c
                .prepare_cached(&format!(
                    "SELECT n.kind, COUNT(*) {of_version} AND n.kind <> 'costly' GROUP BY n.kind"
                ))?
                .query_map(params![player_id, version, deploy], |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, i64>(1)?.max(0) as u64,
                    ))
                })?
                .collect::<rusqlite::Result<BTreeMap<_, _>>>()?;
            Ok(HandsToLookAt {
                version: label.to_owned(),
                costly,
                answers,
                answer_counts,
            })
        })
    }
}
