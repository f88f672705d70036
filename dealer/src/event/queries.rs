//! What the page reads: the games list (paged, with the running games), the points history
//! (each player's total after each game, for the chart, with the changes of leader), and the
//! newest games and first wins the broadcast looks at (more in [`super::lookups`]).

use super::store::{EventStore, GameFiles, StoreError, GAMES_DIR};
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use std::collections::HashMap;

/// The most games a page of the games list holds.
pub const MAX_PER_PAGE: u32 = 200;

/// One seat of a finished game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatRow {
    /// The name it played under.
    pub name: String,
    /// The event player's id (which keeps its colour on every page); `None` for a house bot
    /// that filled the table.
    pub player_id: Option<i64>,
    /// 1 = winner.
    pub place: u32,
    /// 5, 3 or 0.
    pub points: u32,
    /// The ban reason, if banned.
    pub banned: Option<String>,
    /// Why it sat out, if absent.
    pub absent: Option<String>,
    /// Its version in the game.
    pub version: Option<String>,
}

/// One game of the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameRow {
    /// Its number.
    pub number: u32,
    /// The round it was part of.
    pub round: u32,
    /// Its table in the round.
    pub table: u32,
    /// `running`, `finished` or `abandoned`.
    pub state: String,
    /// The viewer's run id of the game folders (`/api/runs/{run}/games/{number}`).
    pub run: &'static str,
    /// ms since the epoch.
    pub started_at: i64,
    /// ms since the epoch, once ended.
    pub ended_at: Option<i64>,
    /// Hands played, when finished.
    pub hands: Option<i64>,
    /// The winner, when finished.
    pub winner: Option<String>,
    /// Why it was abandoned.
    pub reason: Option<String>,
    /// Names in seat order.
    pub players: Vec<String>,
    /// Standings, first place first (finished games only).
    pub standings: Vec<SeatRow>,
    /// What became of its files: kept, compressed (the viewer reads them as before),
    /// incomplete (cut by a full disk: opened from its record until its files are written
    /// again or dropped) or pruned.
    pub files: GameFiles,
    /// Whether the database keeps its compact record: the viewer opens it whatever became of
    /// its files (a pruned game without one says "log pruned").
    pub has_record: bool,
}

/// A page of the games list, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GamesPage {
    /// Ended games (finished or abandoned).
    pub total: u64,
    /// The page asked for (1-based).
    pub page: u32,
    /// Games per page.
    pub per_page: u32,
    /// The games running now.
    pub running: Vec<GameRow>,
    /// This page's ended games.
    pub games: Vec<GameRow>,
}

pub(super) fn game_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    let players: String = row.get(6)?;
    Ok(GameRow {
        number: row.get(0)?,
        round: row.get(1)?,
        table: row.get(2)?,
        state: row.get(3)?,
        run: GAMES_DIR,
        started_at: row.get(4)?,
        ended_at: row.get(5)?,
        players: serde_json::from_str(&players).unwrap_or_default(),
        hands: row.get(7)?,
        winner: row.get(8)?,
        reason: row.get(9)?,
        standings: Vec::new(),
        files: GameFiles::parse(&row.get::<_, String>(10)?),
        has_record: row.get(11)?,
    })
}

pub(super) const GAME_COLUMNS: &str =
    "number, round, table_no, state, started_at, ended_at, players, hands, winner, reason, files,
    EXISTS (SELECT 1 FROM game_records WHERE game_records.game = games.number)";

/// Page `page` (1-based) of the ended games, newest first, and the running games.
///
/// # Errors
/// The database cannot be read.
pub fn games_page(store: &EventStore, page: u32, per_page: u32) -> Result<GamesPage, StoreError> {
    let page = page.max(1);
    let per_page = per_page.clamp(1, MAX_PER_PAGE);
    store.read(|c| {
        let total: i64 = c.query_row(
            "SELECT COUNT(*) FROM games WHERE state <> 'running'",
            [],
            |r| r.get(0),
        )?;
        let mut running: Vec<GameRow> = c
            .prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE state = 'running' ORDER BY number"
            ))?
            .query_map([], game_row)?
            .collect::<rusqlite::Result<_>>()?;
        let mut games: Vec<GameRow> = c
            .prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE state <> 'running'
                 ORDER BY number DESC LIMIT ?1 OFFSET ?2"
            ))?
            .query_map(
                params![per_page, i64::from(page - 1) * i64::from(per_page)],
                game_row,
            )?
            .collect::<rusqlite::Result<_>>()?;
        add_standings(c, &mut games)?;
        running.sort_by_key(|g| g.number);
        Ok(GamesPage {
            total: u64::try_from(total).unwrap_or(0),
            page,
            per_page,
            running,
            games,
        })
    })
}

/// The newest `limit` ended games (finished or abandoned), newest first, with their
/// standings: what the broadcast chooses from.
///
/// # Errors
/// The database cannot be read.
pub fn newest_ended(store: &EventStore, limit: u32) -> Result<Vec<GameRow>, StoreError> {
    store.read(|c| {
        let mut games: Vec<GameRow> = c
            .prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE state <> 'running'
                 ORDER BY number DESC LIMIT ?1"
            ))?
            .query_map(params![limit.clamp(1, MAX_PER_PAGE)], game_row)?
            .collect::<rusqlite::Result<_>>()?;
        add_standings(c, &mut games)?;
        Ok(games)
    })
}

/// Of `games`, those that were their winner's first win of the event: game number → the
/// winner's player id (house bots filling a table are no team and never count).
///
/// # Errors
/// The database cannot be read.
pub fn first_wins(store: &EventStore, games: &[u32]) -> Result<HashMap<u32, i64>, StoreError> {
    store.read(|c| {
        let mut statement = c.prepare_cached(
            "SELECT s.player_id FROM standings s
             WHERE s.game = ?1 AND s.place = 1 AND s.player_id IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM standings e
                               WHERE e.player_id = s.player_id AND e.place = 1 AND e.game < ?1)",
        )?;
        let mut found = HashMap::new();
        for &game in games {
            let winner: Option<i64> = statement
                .query_row(params![game], |row| row.get(0))
                .optional()?;
            if let Some(id) = winner {
                found.insert(game, id);
            }
        }
        Ok(found)
    })
}

pub(super) fn add_standings(c: &Connection, games: &mut [GameRow]) -> rusqlite::Result<()> {
    let (Some(low), Some(high)) = (
        games.iter().map(|g| g.number).min(),
        games.iter().map(|g| g.number).max(),
    ) else {
        return Ok(());
    };
    let mut by_game: HashMap<u32, Vec<SeatRow>> = HashMap::new();
    let mut statement = c.prepare_cached(
        "SELECT game, name, place, points, banned, absent, version, player_id FROM standings
         WHERE game BETWEEN ?1 AND ?2 ORDER BY game, place",
    )?;
    let rows = statement.query_map(params![low, high], |row| {
        Ok((
            row.get::<_, u32>(0)?,
            SeatRow {
                name: row.get(1)?,
                place: row.get(2)?,
                points: row.get(3)?,
                banned: row.get(4)?,
                absent: row.get(5)?,
                version: row.get(6)?,
                player_id: row.get(7)?,
            },
        ))
    })?;
    for row in rows {
        let (game, seat) = row?;
        by_game.entry(game).or_default().push(seat);
    }
    for game in games {
        game.standings = by_game.remove(&game.number).unwrap_or_default();
    }
    Ok(())
}

/// Every event player's total after each finished game, kept in memory (loaded once, then
/// one entry appended per game) so the chart never rescans the standings.
#[derive(Debug, Clone, Default)]
pub struct History {
    games: Vec<(u32, Vec<(i64, i64)>)>,
    /// The highest `standings` row read from the database (its `rowid`): a read-only server
    /// reads the rows another server added after it ([`History::catch_up`]).
    last_row: i64,
}

/// The chart's data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PointsHistory {
    /// The games sampled (every game, or evenly spread ones for a long event), in order.
    pub games: Vec<u32>,
    /// One series per player on the leaderboard.
    pub series: Vec<Series>,
    /// The newest changes of leader (at most [`MAX_LEAD_CHANGES_LISTED`]), oldest first.
    pub lead_changes: Vec<LeadChange>,
    /// How many times the lead changed over the event.
    pub lead_changes_total: usize,
}

/// The most changes of leader [`PointsHistory`] lists (the chart marks each).
pub const MAX_LEAD_CHANGES_LISTED: usize = 100;

/// After this game another team led the event alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LeadChange {
    /// The game.
    pub game: u32,
    /// The new leader's player id.
    pub id: i64,
    /// Its name now (`None` for a team removed since).
    pub name: Option<String>,
}

/// One player's line in the chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Series {
    /// The player's id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Its total after each game of [`PointsHistory::games`].
    pub points: Vec<i64>,
}

impl History {
    /// Loads the history from the standings.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn load(store: &EventStore) -> Result<History, StoreError> {
        store.read(|c| {
            let mut history = History::default();
            let mut statement = c.prepare(
                "SELECT rowid, game, player_id, total_after FROM standings
                 WHERE player_id IS NOT NULL AND total_after IS NOT NULL ORDER BY game, seat",
            )?;
            history.read_rows(&mut statement, [])?;
            Ok(history)
        })
    }

    /// Appends the games another server recorded since this history was read (a read-only
    /// server of an event still being played): their rows are the `standings` rows added
    /// since, in the order they were written, one game's rows together (one transaction).
    /// A query on the row id's range, so nearly free when nothing is new.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn catch_up(&mut self, store: &EventStore) -> Result<(), StoreError> {
        store.read(|c| {
            let mut statement = c.prepare_cached(
                "SELECT rowid, game, player_id, total_after FROM standings
                 WHERE rowid > ?1 AND player_id IS NOT NULL AND total_after IS NOT NULL
                 ORDER BY rowid",
            )?;
            self.read_rows(&mut statement, [self.last_row])
        })
    }

    fn read_rows(
        &mut self,
        statement: &mut rusqlite::Statement<'_>,
        params: impl rusqlite::Params,
    ) -> rusqlite::Result<()> {
        let mut rows = statement.query(params)?;
        while let Some(row) = rows.next()? {
            let (row_id, game, player, total): (i64, u32, i64, i64) =
                (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?);
            self.last_row = self.last_row.max(row_id);
            self.push(game, player, total);
        }
        Ok(())
    }

    fn push(&mut self, game: u32, player: i64, total: i64) {
        match self.games.last_mut() {
            Some((last, totals)) if *last == game => totals.push((player, total)),
            _ => self.games.push((game, vec![(player, total)])),
        }
    }

    /// Adds a finished game's totals.
    pub fn record(&mut self, game: u32, totals: &[(i64, i64)]) {
        self.games.push((game, totals.to_vec()));
    }

    /// Finished games recorded.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether no game finished yet.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The games after which a new team led the event alone: game number → the new leader's
    /// player id, for the games numbered `since` or later. A team leads alone when its
    /// points are strictly above every other team's; a tie at the top leads to no change, and
    /// the first team ever to lead alone is no change either (nobody was passed).
    pub fn lead_changes(&self, since: u32) -> HashMap<u32, i64> {
        self.lead_change_list()
            .into_iter()
            .filter(|&(game, _)| game >= since)
            .collect()
    }

    /// Every change of leader (see [`History::lead_changes`]) in the order of the games:
    /// (game, the new leader's player id).
    pub fn lead_change_list(&self) -> Vec<(u32, i64)> {
        let mut totals: HashMap<i64, i64> = HashMap::new();
        let mut last_leader: Option<i64> = None;
        let mut changes = Vec::new();
        for (game, after) in &self.games {
            for (player, total) in after {
                totals.insert(*player, *total);
            }
            let Some(leader) = sole_leader(&totals) else {
                continue;
            };
            if last_leader.is_some_and(|last| last != leader) {
                changes.push((*game, leader));
            }
            last_leader = Some(leader);
        }
        changes
    }

    /// The totals of `players` (id, name) after at most `max_points` games evenly spread over
    /// the event: always the first game (the start of the event stays on the chart however far
    /// it is sampled down) and the last (the standings now); one point is the last game only.
    pub fn sample(&self, players: &[(i64, String)], max_points: usize) -> PointsHistory {
        let max_points = max_points.max(1);
        let count = self.games.len();
        let wanted: Vec<usize> = if count <= max_points {
            (0..count).collect()
        } else if max_points == 1 {
            vec![count - 1]
        } else {
            // From 0 to count - 1 in max_points steps; strictly increasing, as count - 1 >=
            // max_points here.
            (0..max_points)
                .map(|i| i * (count - 1) / (max_points - 1))
                .collect()
        };
        let index: HashMap<i64, usize> = players
            .iter()
            .enumerate()
            .map(|(i, (id, _))| (*id, i))
            .collect();
        let mut current = vec![0i64; players.len()];
        let mut series: Vec<Series> = players
            .iter()
            .map(|(id, name)| Series {
                id: *id,
                name: name.clone(),
                points: Vec::with_capacity(wanted.len()),
            })
            .collect();
        let mut games = Vec::with_capacity(wanted.len());
        let mut next = wanted.iter().peekable();
        for (position, (game, totals)) in self.games.iter().enumerate() {
            for (player, total) in totals {
                if let Some(&i) = index.get(player) {
                    current[i] = *total;
                }
            }
            if next.peek() == Some(&&position) {
                next.next();
                games.push(*game);
                for (line, total) in series.iter_mut().zip(&current) {
                    line.points.push(*total);
                }
            }
        }
        let changes = self.lead_change_list();
        let names: HashMap<i64, &String> = players.iter().map(|(id, name)| (*id, name)).collect();
        let lead_changes = changes[changes.len().saturating_sub(MAX_LEAD_CHANGES_LISTED)..]
            .iter()
            .map(|&(game, id)| LeadChange {
                game,
                id,
                name: names.get(&id).map(|name| (*name).clone()),
            })
            .collect();
        PointsHistory {
            games,
            series,
            lead_changes,
            lead_changes_total: changes.len(),
        }
    }
}

/// The player whose total is strictly the highest, if one is.
fn sole_leader(totals: &HashMap<i64, i64>) -> Option<i64> {
    let mut best: Option<(i64, i64)> = None;
    let mut tied = false;
    for (&player, &total) in totals {
        match best {
            Some((_, top)) if total < top => {}
            Some((_, top)) if total == top => tied = true,
            _ => {
                best = Some((player, total));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(player, _)| player)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history(games: u32) -> History {
        let mut history = History::default();
        for game in 1..=games {
            history.record(game, &[(1, i64::from(game)), (2, 0)]);
        }
        history
    }

    #[test]
    fn a_sampled_chart_keeps_the_first_and_the_last_game() {
        let players = [(1, "ann".to_string()), (2, "bob".to_string())];
        let all = history(1032);
        assert_eq!(all.sample(&players, 2).games, [1, 1032]);
        let five = all.sample(&players, 5);
        assert_eq!(five.games, [1, 258, 516, 774, 1032]);
        assert_eq!(five.series[0].points, [1, 258, 516, 774, 1032]);
        assert_eq!(all.sample(&players, 1).games, [1032]);
        assert_eq!(all.sample(&players, 0).games, [1032]);
        let few = history(3);
        assert_eq!(few.sample(&players, 300).games, [1, 2, 3]);
        assert_eq!(few.sample(&players, 2).games, [1, 3]);
        assert!(History::default().sample(&players, 2).games.is_empty());
        for max in 2..40 {
            let games = all.sample(&players, max).games;
            assert_eq!(games.len(), max);
            assert!(
                games.windows(2).all(|pair| pair[0] < pair[1]),
                "{max}: {games:?}"
            );
        }
    }

    #[test]
    fn the_lead_changes_when_another_team_leads_alone() {
        let mut history = History::default();
        // Game 1: team 1 leads alone (the first leader: no change). Game 2: team 2 ties it
        // (no change). Game 3: team 2 ahead alone (a change). Game 4: team 1 ties, game 5:
        // team 2 ahead again (the same leader: no change). Game 6: team 1 ahead (a change).
        history.record(1, &[(1, 5), (2, 0)]);
        history.record(2, &[(2, 5), (3, 0)]);
        history.record(3, &[(2, 8), (3, 0)]);
        history.record(4, &[(1, 8), (3, 3)]);
        history.record(5, &[(2, 13), (3, 3)]);
        history.record(6, &[(1, 16), (3, 3)]);
        let changes = history.lead_changes(0);
        assert_eq!(changes, HashMap::from([(3, 2), (6, 1)]));
        assert_eq!(history.lead_changes(4), HashMap::from([(6, 1)]));
        assert!(History::default().lead_changes(0).is_empty());
        assert_eq!(history.lead_change_list(), [(3, 2), (6, 1)]);
        // The chart's data names them (a team no longer on the leaderboard has no name).
        let chart = history.sample(&[(1, "ann".to_string()), (3, "cy".to_string())], 300);
        assert_eq!(chart.lead_changes_total, 2);
        assert_eq!(
            chart.lead_changes,
            [
                LeadChange {
                    game: 3,
                    id: 2,
                    name: None
                },
                LeadChange {
                    game: 6,
                    id: 1,
                    name: Some("ann".to_string())
                }
            ]
        );
    }
}
