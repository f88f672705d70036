//! Single games looked up by number: the race's games the broadcast offers besides the newest
//! (a team's first win, a change of leader) and the teams at a game's seats, which give the
//! table view the teams' colours.

use super::queries::{add_standings, game_row, GameRow, GAME_COLUMNS};
use super::store::{EventStore, StoreError};
use rusqlite::{params, OptionalExtension};
use serde::Serialize;

/// The newest first wins of the event among the games numbered `since` or later, newest
/// first, at most `limit`: (game, the winner's player id).
///
/// # Errors
/// The database cannot be read.
pub fn first_wins_since(
    store: &EventStore,
    since: u32,
    limit: u32,
) -> Result<Vec<(u32, i64)>, StoreError> {
    store.read(|c| {
        c.prepare_cached(
            "SELECT s.game, s.player_id FROM standings s
             WHERE s.game >= ?1 AND s.place = 1 AND s.player_id IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM standings e
                               WHERE e.player_id = s.player_id AND e.place = 1 AND e.game < s.game)
             ORDER BY s.game DESC LIMIT ?2",
        )?
        .query_map(params![since, limit], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect()
    })
}

/// The games numbered `numbers` (those that exist), newest first, with their standings.
///
/// # Errors
/// The database cannot be read.
pub fn games_numbered(store: &EventStore, numbers: &[u32]) -> Result<Vec<GameRow>, StoreError> {
    store.read(|c| {
        let mut statement = c.prepare_cached(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE number = ?1"
        ))?;
        let mut games = Vec::with_capacity(numbers.len());
        for &number in numbers {
            if let Some(game) = statement.query_row([number], game_row).optional()? {
                games.push(game);
            }
        }
        games.sort_by_key(|game| std::cmp::Reverse(game.number));
        for game in &mut games {
            add_standings(c, std::slice::from_mut(game))?;
        }
        Ok(games)
    })
}

/// Who sat at each seat of a game, with their event ids: what gives a game's table the teams'
/// colours. A finished game's come from its standings (the names it was played under); a
/// running or abandoned game's from its seat list, matched to the players' names now.
/// `None` when there is no such game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameTeams {
    /// The game's number.
    pub number: u32,
    /// One per seat, in seat order.
    pub seats: Vec<SeatTeam>,
}

/// One seat of [`GameTeams`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatTeam {
    /// The name it played under.
    pub name: String,
    /// Its event player id; `None` for a house bot filling the table.
    pub player_id: Option<i64>,
}

/// The teams at game `number`'s seats (see [`GameTeams`]).
///
/// # Errors
/// The database cannot be read.
pub fn game_teams(store: &EventStore, number: u32) -> Result<Option<GameTeams>, StoreError> {
    store.read(|c| {
        let Some(players) = c
            .query_row(
                "SELECT players FROM games WHERE number = ?1",
                [number],
                |row| row.get::<_, String>(0),
            )
            .optional()?
        else {
            return Ok(None);
        };
        let recorded: Vec<SeatTeam> = c
            .prepare_cached("SELECT name, player_id FROM standings WHERE game = ?1 ORDER BY seat")?
            .query_map([number], |row| {
                Ok(SeatTeam {
                    name: row.get(0)?,
                    player_id: row.get(1)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        if !recorded.is_empty() {
            return Ok(Some(GameTeams {
                number,
                seats: recorded,
            }));
        }
        let names: Vec<String> = serde_json::from_str(&players).unwrap_or_default();
        let mut by_name = c.prepare_cached("SELECT id FROM players WHERE name = ?1")?;
        let mut seats = Vec::with_capacity(names.len());
        for name in names {
            let player_id = by_name.query_row([&name], |row| row.get(0)).optional()?;
            seats.push(SeatTeam { name, player_id });
        }
        Ok(Some(GameTeams { number, seats }))
    })
}
