//! The games' rows: a game inserted as running, then recorded finished (with its standings and
//! the players' counters, one transaction) or abandoned.

use super::{EventStore, FinishedGame, NewGame, StoreError, StoredRecord};
use rusqlite::{params, OptionalExtension};

impl EventStore {
    /// The last round played (0 before the first).
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn last_round(&self) -> Result<u32, StoreError> {
        self.read(|c| {
            c.query_row("SELECT COALESCE(MAX(round), 0) FROM games", [], |r| {
                r.get(0)
            })
        })
    }

    /// Inserts a game as `running` with the next number and `seed_of(number)` as its seed;
    /// returns the number, the folder name (`game-<n>`) and the seed.
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn start_game(
        &self,
        game: &NewGame,
        seed_of: impl FnOnce(u32) -> u64,
    ) -> Result<(u32, String, u64), StoreError> {
        self.write(|t| {
            let number: u32 = t
                .query_row("SELECT COALESCE(MAX(number), 0) + 1 FROM games", [], |r| {
                    r.get(0)
                })
                .map_err(|e| self.db(e))?;
            let dir = crate::tournament::game_dir_name(number);
            let seed = seed_of(number);
            let players = serde_json::to_string(&game.players)
                .map_err(|e| StoreError::Refused(e.to_string()))?;
            t.execute(
                "INSERT INTO games (number, round, table_no, state, seed, dir, players, started_at)
                 VALUES (?1, ?2, ?3, 'running', ?4, ?5, ?6, ?7)",
                params![
                    number,
                    game.round,
                    game.table,
                    seed.to_string(),
                    dir,
                    players,
                    game.started_at
                ],
            )
            .map_err(|e| self.db(e))?;
            Ok((number, dir, seed))
        })
    }

    /// Records an abandoned game (stopped, players down, outputs that cannot be written).
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn abandon_game(&self, number: u32, reason: &str, now: i64) -> Result<(), StoreError> {
        self.write(|t| {
            t.execute(
                "UPDATE games SET state = 'abandoned', reason = ?1, ended_at = ?2 WHERE number = ?3",
                params![reason, now, number],
            )
            .map_err(|e| self.db(e))?;
            Ok(())
        })
    }

    /// Records how many hands a game played (a game cut off by a crash, counted from its log
    /// at the next start).
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn set_hands(&self, number: u32, hands: u64) -> Result<(), StoreError> {
        self.write(|t| {
            t.execute(
                "UPDATE games SET hands = ?1 WHERE number = ?2",
                params![i64::try_from(hands).unwrap_or(i64::MAX), number],
            )
            .map_err(|e| self.db(e))?;
            Ok(())
        })
    }

    /// Records a finished game, its standings, every player's counters and its compact record
    /// in one transaction. Returns each event player's total points after the game.
    ///
    /// # Errors
    /// The database cannot be written: nothing of the game is recorded.
    pub fn record_finished(&self, game: &FinishedGame) -> Result<Vec<(i64, i64)>, StoreError> {
        self.write(|t| {
            let winner = game
                .seats
                .iter()
                .find(|seat| seat.place == 1)
                .map(|seat| seat.name.clone());
            t.execute(
                "UPDATE games SET state = 'finished', ended_at = ?1, hands = ?2, winner = ?3,
                    last_used = ?1 WHERE number = ?4",
                params![game.ended_at, game.hands as i64, winner, game.number],
            )
            .map_err(|e| self.db(e))?;
            if let Some(record) = &game.record {
                insert_record(t, game.number, record).map_err(|e| self.db(e))?;
            }
            let mut totals = Vec::new();
            for seat in &game.seats {
                let mut total = None;
                if let Some(id) = seat.player_id {
                    let present = seat.absent.is_none();
                    // `last_seen` moves to the game's end only for a player that played it
                    // through: a banned one (a dead player, most often) was last seen when it
                    // last answered, which its health checks and earlier games recorded.
                    let version = (present && seat.version != "Unknown").then_some(&seat.version);
                    t.execute(
                        "UPDATE players SET
                            games = games + ?1, wins = wins + ?2, seconds = seconds + ?3,
                            points = points + ?4, bans = bans + ?5, absences = absences + ?6,
                            version = COALESCE(?7, version),
                            last_seen = CASE WHEN ?1 = 1 AND ?5 = 0 THEN ?8 ELSE last_seen END
                         WHERE id = ?9",
                        params![
                            i64::from(present),
                            i64::from(present && seat.place == 1),
                            i64::from(present && seat.place == 2),
                            seat.points,
                            i64::from(seat.banned.is_some()),
                            i64::from(!present),
                            version,
                            game.ended_at,
                            id
                        ],
                    )
                    .map_err(|e| self.db(e))?;
                    let points: i64 = t
                        .query_row("SELECT points FROM players WHERE id = ?1", [id], |r| {
                            r.get(0)
                        })
                        .map_err(|e| self.db(e))?;
                    totals.push((id, points));
                    total = Some(points);
                }
                t.execute(
                    "INSERT INTO standings (game, seat, player_id, name, place, points, total_after, banned, absent, version, deploy)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                    params![
                        game.number,
                        seat.seat as i64,
                        seat.player_id,
                        seat.name,
                        seat.place as i64,
                        seat.points,
                        total,
                        seat.banned,
                        seat.absent,
                        seat.version,
                        seat.player_id.map(|_| seat.deploy)
                    ],
                )
                .map_err(|e| self.db(e))?;
            }
            Ok(totals)
        })
    }

    /// Game `number`'s compact record, if it has one.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn game_record(&self, number: u32) -> Result<Option<StoredRecord>, StoreError> {
        self.read(|c| {
            c.prepare_cached("SELECT format, record FROM game_records WHERE game = ?1")?
                .query_row([number], |row| {
                    Ok(StoredRecord {
                        format: row.get(0)?,
                        bytes: row.get(1)?,
                    })
                })
                .optional()
        })
    }

    /// Keeps the compact record of a game that ended without one (a game recorded by an
    /// older dealer, its record made from its files).
    /// # Errors
    /// The database cannot be written.
    /// The game's luck is valued again from it (`event::luck`): one marked as having no
    /// record has one now.
    pub fn add_game_record(&self, number: u32, record: &StoredRecord) -> Result<(), StoreError> {
        self.write(|t| {
            insert_record(t, number, record).map_err(|e| self.db(e))?;
            t.execute(
                "UPDATE games SET luck = NULL WHERE number = ?1 AND luck <> 'valued'",
                [number],
            )
            .map_err(|e| self.db(e))?;
            Ok(())
        })
    }

    /// Notes that game `number` was opened at `now` (ms): retention deletes the full files of
    /// the least recently used games first.
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn game_opened(&self, number: u32, now: i64) -> Result<(), StoreError> {
        self.write(|t| {
            t.execute(
                "UPDATE games SET last_used = MAX(COALESCE(last_used, 0), ?1) WHERE number = ?2",
                params![now, number],
            )
            .map_err(|e| self.db(e))?;
            Ok(())
        })
    }
}

fn insert_record(
    t: &rusqlite::Transaction<'_>,
    number: u32,
    record: &StoredRecord,
) -> rusqlite::Result<()> {
    t.execute(
        "INSERT OR REPLACE INTO game_records (game, format, record) VALUES (?1, ?2, ?3)",
        params![number, record.format, record.bytes],
    )?;
    Ok(())
}
