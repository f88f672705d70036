//! Each finished game's luck of the cards by seat (`event::luck`), beside its standings: the
//! games still to value, oldest first, and each game's figures written in one transaction with
//! its hands to look at (`hand_rows`).

use super::{hand_rows, EventStore, HandNote, StoreError};
use rusqlite::{params, OptionalExtension};

/// How valuing a finished game's luck went (`games.luck`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LuckState {
    /// Every seat's luck is in its standing.
    Valued,
    /// The game has no compact record (recorded by a dealer from before records): its points
    /// count raw.
    NoRecord,
    /// Its record stops before the game's end (or its setup is refused): it counts raw.
    Unreplayable,
}

impl LuckState {
    fn as_sql(self) -> &'static str {
        match self {
            LuckState::Valued => "valued",
            LuckState::NoRecord => "no_record",
            LuckState::Unreplayable => "unreplayable",
        }
    }

    fn from_sql(text: &str) -> Option<LuckState> {
        match text {
            "valued" => Some(LuckState::Valued),
            "no_record" => Some(LuckState::NoRecord),
            "unreplayable" => Some(LuckState::Unreplayable),
            _ => None,
        }
    }
}

/// A finished game's luck as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct GameLuck {
    /// `None` while the game waits to be valued.
    pub state: Option<LuckState>,
    /// By standing seat, in seat order: the seat and its luck in points (`None` unless
    /// valued).
    pub seats: Vec<(usize, Option<f64>)>,
}

impl EventStore {
    /// The oldest finished game whose luck is not valued yet.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn next_unvalued_game(&self) -> Result<Option<u32>, StoreError> {
        self.read(|c| {
            c.prepare_cached(
                "SELECT number FROM games WHERE luck IS NULL AND state = 'finished'
                 ORDER BY number LIMIT 1",
            )?
            .query_row([], |row| row.get(0))
            .optional()
        })
    }

    /// How many finished games wait to be valued.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn unvalued_games(&self) -> Result<u64, StoreError> {
        self.read(|c| {
            c.prepare_cached(
                "SELECT COUNT(*) FROM games WHERE luck IS NULL AND state = 'finished'",
            )?
            .query_row([], |row| row.get::<_, i64>(0))
        })
        .map(|count| count.max(0) as u64)
    }

    /// Writes game `number`'s luck, by seat (`luck[seat]`, in points), and its hands to look
    /// at (`notes`, replacing any it had), and marks it valued, in one transaction: a `kill -9`
    /// never leaves a game's luck without its notes.
    ///
    /// Games valued by a dealer from before the notes (schema 5) keep their luck and have no
    /// notes: valuing them again would take their luck out of the standings (their points
    /// counting raw) for as long as the back-fill runs at the lowest priority, for hands that
    /// matter less and less as teams play newer versions, which the notes are about.
    ///
    /// # Errors
    /// The database cannot be written (nothing of the game's luck is then written), or the
    /// game has a standing at a seat `luck` does not cover.
    pub fn record_luck(
        &self,
        number: u32,
        luck: &[f64],
        notes: &[HandNote],
    ) -> Result<(), StoreError> {
        self.write(|t| {
            hand_rows::replace_notes(t, number, notes).map_err(|e| self.db(e))?;
            let seats: Vec<i64> = {
                let mut statement = t
                    .prepare_cached("SELECT seat FROM standings WHERE game = ?1 ORDER BY seat")
                    .map_err(|e| self.db(e))?;
                let rows = statement
                    .query_map([number], |row| row.get(0))
                    .map_err(|e| self.db(e))?;
                rows.collect::<rusqlite::Result<_>>()
                    .map_err(|e| self.db(e))?
            };
            for seat in seats {
                let Some(&value) = usize::try_from(seat).ok().and_then(|s| luck.get(s)) else {
                    return Err(StoreError::Record {
                        game: number,
                        reason: format!(
                            "its standings have seat {seat}, its record {} seats",
                            luck.len()
                        ),
                    });
                };
                t.execute(
                    "UPDATE standings SET luck = ?1 WHERE game = ?2 AND seat = ?3",
                    params![value, number, seat],
                )
                .map_err(|e| self.db(e))?;
            }
            set_state(t, number, LuckState::Valued).map_err(|e| self.db(e))
        })
    }

    /// Marks game `number` as not valuable (`state`, not [`LuckState::Valued`]): its seats'
    /// luck stays NULL and its points count raw.
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn record_no_luck(&self, number: u32, state: LuckState) -> Result<(), StoreError> {
        debug_assert!(state != LuckState::Valued);
        self.write(|t| {
            t.execute("UPDATE standings SET luck = NULL WHERE game = ?1", [number])
                .map_err(|e| self.db(e))?;
            hand_rows::replace_notes(t, number, &[]).map_err(|e| self.db(e))?;
            set_state(t, number, state).map_err(|e| self.db(e))
        })
    }

    /// Game `number`'s luck as stored; `None` for no finished game of that number.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn game_luck(&self, number: u32) -> Result<Option<GameLuck>, StoreError> {
        self.read(|c| {
            let state: Option<Option<String>> = c
                .prepare_cached("SELECT luck FROM games WHERE number = ?1 AND state = 'finished'")?
                .query_row([number], |row| row.get(0))
                .optional()?;
            let Some(state) = state else {
                return Ok(None);
            };
            let mut statement =
                c.prepare_cached("SELECT seat, luck FROM standings WHERE game = ?1 ORDER BY seat")?;
            let seats = statement
                .query_map([number], |row| {
                    Ok((
                        row.get::<_, i64>(0)? as usize,
                        row.get::<_, Option<f64>>(1)?,
                    ))
                })?
                .collect::<rusqlite::Result<_>>()?;
            Ok(Some(GameLuck {
                state: state.as_deref().and_then(LuckState::from_sql),
                seats,
            }))
        })
    }
}

fn set_state(t: &rusqlite::Transaction<'_>, number: u32, state: LuckState) -> rusqlite::Result<()> {
    t.execute(
        "UPDATE games SET luck = ?1 WHERE number = ?2",
        params![state.as_sql(), number],
    )?;
    Ok(())
}
