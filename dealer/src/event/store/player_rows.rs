//! The players' rows: adding, importing, renaming, statuses, health, and reading them back.

use super::{EventStore, StoreError};
use crate::event::players::{Enrollment, EventRecord, StoredPlayer};
use crate::event::settings::Contact;
use crate::house::BotKind;
use rusqlite::{params, OptionalExtension, Transaction};

impl EventStore {
    /// Adds a player (active). Returns its id. A removed player's name brings that player back
    /// (active, at the given address, with its id, games and points).
    ///
    /// # Errors
    /// [`StoreError::Refused`] when a player who is not removed has the name; the database
    /// cannot be written.
    pub fn add_player(&self, name: &str, contact: &Contact, now: i64) -> Result<i64, StoreError> {
        self.write(|t| self.insert_player(t, name, contact, now))
    }

    fn insert_player(
        &self,
        t: &Transaction<'_>,
        name: &str,
        contact: &Contact,
        now: i64,
    ) -> Result<i64, StoreError> {
        let holder: Option<(i64, String)> = t
            .query_row(
                "SELECT id, status FROM players WHERE name = ?1",
                [name],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.db(e))?;
        let (url, token, bot) = match contact {
            Contact::Http { url, token } => (Some(url.as_str()), token.as_deref(), None),
            Contact::Bot(kind) => (None, None, Some(kind.name())),
        };
        match holder {
            // A removed team added again comes back as itself (same id, so the same colour on
            // the page, and its games and points), at the address given now: a new deploy,
            // whatever version string it shows.
            Some((id, status)) if status == Enrollment::Removed.as_str() => {
                t.execute(
                    "UPDATE players SET url = ?1, token = ?2, bot = ?3, status = 'active', down_reason = NULL,
                        deploys = deploys + 1 WHERE id = ?4",
                    params![url, token, bot, id],
                )
                .map_err(|e| self.db(e))?;
                return Ok(id);
            }
            Some(_) => {
                return Err(StoreError::Refused(format!(
                    "a player is already named {name:?}"
                )))
            }
            None => {}
        }
        t.execute(
            "INSERT INTO players (name, url, token, bot, status, added_at) VALUES (?1, ?2, ?3, ?4, 'active', ?5)",
            params![name, url, token, bot, now],
        )
        .map_err(|e| self.db(e))?;
        Ok(t.last_insert_rowid())
    }

    /// Adds the config file's players not imported before (a renamed or removed player is
    /// not brought back by a restart). Returns the names added.
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn import_config_players(
        &self,
        players: &[crate::event::settings::ConfigPlayer],
        now: i64,
    ) -> Result<Vec<String>, StoreError> {
        self.write(|t| {
            let mut added = Vec::new();
            for player in players {
                let imported = t
                    .execute(
                        "INSERT OR IGNORE INTO config_imports (name) VALUES (?1)",
                        [&player.name],
                    )
                    .map_err(|e| self.db(e))?;
                if imported == 0 {
                    continue;
                }
                match self.insert_player(t, &player.name, &player.contact, now) {
                    Ok(_) => added.push(player.name.clone()),
                    // Added through the API under that name already: keep that one.
                    Err(StoreError::Refused(_)) => {}
                    Err(error) => return Err(error),
                }
            }
            Ok(added)
        })
    }

    /// Renames a player (its history follows it).
    ///
    /// # Errors
    /// [`StoreError::Refused`] for an unknown player or a taken name.
    pub fn rename_player(&self, id: i64, name: &str) -> Result<(), StoreError> {
        self.write(|t| {
            let taken: i64 = t
                .query_row(
                    "SELECT COUNT(*) FROM players WHERE name = ?1 AND id <> ?2",
                    params![name, id],
                    |r| r.get(0),
                )
                .map_err(|e| self.db(e))?;
            if taken > 0 {
                return Err(StoreError::Refused(format!(
                    "a player is already named {name:?}"
                )));
            }
            let changed = t
                .execute(
                    "UPDATE players SET name = ?1 WHERE id = ?2",
                    params![name, id],
                )
                .map_err(|e| self.db(e))?;
            if changed == 0 {
                return Err(StoreError::UnknownPlayer(id));
            }
            Ok(())
        })
    }

    /// Sets a player's status.
    ///
    /// # Errors
    /// [`StoreError::Refused`] for an unknown player.
    pub fn set_status(&self, id: i64, status: Enrollment) -> Result<(), StoreError> {
        self.write(|t| {
            let changed = t
                .execute(
                    "UPDATE players SET status = ?1 WHERE id = ?2",
                    params![status.as_str(), id],
                )
                .map_err(|e| self.db(e))?;
            if changed == 0 {
                return Err(StoreError::UnknownPlayer(id));
            }
            Ok(())
        })
    }

    /// Records a player's health: up (`reason` `None`, seen `now`) or down with its reason.
    ///
    /// # Errors
    /// The database cannot be written.
    pub fn set_health(&self, id: i64, reason: Option<&str>, now: i64) -> Result<(), StoreError> {
        self.write(|t| {
            match reason {
                // Back after being down, having answered before: a redeploy, most often (a
                // team's player restarts with its new code), whatever version it shows.
                None => t.execute(
                    "UPDATE players SET
                        deploys = deploys + (down_reason IS NOT NULL AND last_seen IS NOT NULL),
                        down_reason = NULL, last_seen = ?1
                     WHERE id = ?2",
                    params![now, id],
                ),
                Some(reason) => t.execute(
                    "UPDATE players SET down_reason = ?1 WHERE id = ?2",
                    params![reason, id],
                ),
            }
            .map_err(|e| self.db(e))?;
            Ok(())
        })
    }

    /// Every player, by id.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn players(&self) -> Result<Vec<StoredPlayer>, StoreError> {
        self.read(|c| {
            let mut statement = c.prepare_cached(
                "SELECT id, name, url, token, bot, status, version, last_seen, down_reason,
                        games, wins, seconds, points, bans, absences, deploys
                 FROM players ORDER BY id",
            )?;
            let rows = statement.query_map([], |row| {
                let bot: Option<String> = row.get(4)?;
                let contact = match bot.and_then(|b| b.parse::<BotKind>().ok()) {
                    Some(kind) => Contact::Bot(kind),
                    None => Contact::Http {
                        url: row.get::<_, Option<String>>(2)?.unwrap_or_default(),
                        token: row.get(3)?,
                    },
                };
                let status: String = row.get(5)?;
                Ok(StoredPlayer {
                    id: row.get(0)?,
                    name: row.get(1)?,
                    contact,
                    status: Enrollment::parse(&status).unwrap_or(Enrollment::Paused),
                    version: row.get(6)?,
                    last_seen: row.get(7)?,
                    down_reason: row.get(8)?,
                    deploys: row.get(15)?,
                    record: EventRecord {
                        games: row.get(9)?,
                        wins: row.get(10)?,
                        seconds: row.get(11)?,
                        points: row.get(12)?,
                        bans: row.get(13)?,
                        absences: row.get(14)?,
                    },
                })
            })?;
            rows.collect()
        })
    }
}
