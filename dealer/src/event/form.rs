//! Recent form and ratings: what shows a team climbing while the totals still say who has
//! been good all day. A team that deploys a better bot late may never catch the leader's
//! total, but its points over its last [`FORM_GAMES`] games, and its rating, show the change
//! within minutes.
//!
//! Both are read from the `standings` rows, in the order they were recorded (their `rowid`),
//! and kept in memory: a look at the database asks only for the rows added since the last one
//! (nearly free when none are), so the leaderboard can ask at every refresh, and a read-only
//! server of an event played elsewhere follows it the same way.
//!
//! The ratings are [`crate::rating`]'s (the engine's model, the same calls `dealer run`
//! makes): every finished game's finishing order, absent players left out and house bots
//! filling the table kept in their places but not rated. The model's set of players is fixed
//! when it is made, so a player added after the ratings were built makes them be built again
//! from every recorded game (once per added player; the same order gives the same ratings).

use super::store::{EventStore, StoreError};
use crate::rating::{Rating, Ratings};
use rusqlite::Connection;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};

/// How many of a team's latest games its recent form sums (the page says "last 100").
pub const FORM_GAMES: usize = 100;

/// One team's recent form and rating.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TeamForm {
    /// Its points in its last [`TeamForm::games`] games.
    pub points: u32,
    /// The games counted: [`FORM_GAMES`], or fewer for a team that has played fewer.
    pub games: u32,
    /// Its rating over every game it played (a team with no game has the model's starting
    /// rating and uncertainty); `None` only for an id the event does not know.
    pub rating: Option<Rating>,
}

/// The event's recent form and ratings, kept up to date from the database.
#[derive(Debug, Default)]
pub struct FormTracker {
    state: Mutex<Option<FormState>>,
}

/// What has been read so far.
#[derive(Debug)]
struct FormState {
    /// The players the ratings were made for.
    rated: BTreeSet<i64>,
    ratings: Ratings,
    /// Each team's points in its latest games, oldest first, at most [`FORM_GAMES`].
    latest: HashMap<i64, VecDeque<u8>>,
    /// The highest `standings` row read.
    last_row: i64,
}

/// One `standings` row, as form and ratings need it.
struct SeatRow {
    row: i64,
    game: u32,
    seat: u32,
    player_id: Option<i64>,
    place: u32,
    points: u32,
    absent: bool,
}

impl FormState {
    fn new(players: BTreeSet<i64>) -> FormState {
        FormState {
            ratings: Ratings::new(players.iter().map(|id| rated_name(*id))),
            rated: players,
            latest: HashMap::new(),
            last_row: 0,
        }
    }

    /// Reads the rows recorded since the last look, one game at a time.
    fn catch_up(&mut self, connection: &Connection) -> rusqlite::Result<()> {
        let mut statement = connection.prepare_cached(
            "SELECT rowid, game, seat, player_id, place, points, absent IS NOT NULL
             FROM standings WHERE rowid > ?1 ORDER BY rowid",
        )?;
        let rows = statement.query_map([self.last_row], |row| {
            Ok(SeatRow {
                row: row.get(0)?,
                game: row.get(1)?,
                seat: row.get(2)?,
                player_id: row.get(3)?,
                place: row.get(4)?,
                points: row.get(5)?,
                absent: row.get(6)?,
            })
        })?;
        // A game's rows are written in one transaction, so they come together and whole.
        let mut game: Vec<SeatRow> = Vec::new();
        for row in rows {
            let row = row?;
            if game.first().is_some_and(|first| first.game != row.game) {
                self.record(&game);
                game.clear();
            }
            self.last_row = self.last_row.max(row.row);
            game.push(row);
        }
        self.record(&game);
        Ok(())
    }

    /// One finished game's rows: each present team's points into its latest games, and the
    /// finishing order into the ratings.
    fn record(&mut self, game: &[SeatRow]) {
        if game.is_empty() {
            return;
        }
        let mut present: Vec<&SeatRow> = game.iter().filter(|seat| !seat.absent).collect();
        for seat in &present {
            if let Some(id) = seat.player_id {
                let latest = self.latest.entry(id).or_default();
                if latest.len() == FORM_GAMES {
                    latest.pop_front();
                }
                latest.push_back(u8::try_from(seat.points).unwrap_or(u8::MAX));
            }
        }
        present.sort_by_key(|seat| (seat.place, seat.seat));
        let names: Vec<String> = present
            .iter()
            .map(|seat| match seat.player_id {
                Some(id) => rated_name(id),
                // Not a rated name: kept for its place, skipped by the model.
                None => format!("house bot at seat {}", seat.seat),
            })
            .collect();
        let order: Vec<&str> = names.iter().map(String::as_str).collect();
        self.ratings.record(&order);
    }

    fn form(&self, id: i64) -> TeamForm {
        let latest = self.latest.get(&id);
        TeamForm {
            points: latest.map_or(0, |points| points.iter().map(|&p| u32::from(p)).sum()),
            games: latest.map_or(0, |points| u32::try_from(points.len()).unwrap_or(u32::MAX)),
            rating: self.ratings.get(&rated_name(id)),
        }
    }
}

/// The name a team is rated under: its id, which outlives renames.
fn rated_name(id: i64) -> String {
    id.to_string()
}

impl FormTracker {
    /// A tracker that has read nothing yet.
    pub fn new() -> FormTracker {
        FormTracker::default()
    }

    /// The recent form and rating of every player of the event, by id, as the database has
    /// them now.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn forms(&self, store: &EventStore) -> Result<HashMap<i64, TeamForm>, StoreError> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        store.read(|connection| {
            let players: BTreeSet<i64> = connection
                .prepare_cached("SELECT id FROM players")?
                .query_map([], |row| row.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            let current = match state.take() {
                Some(known) if known.rated == players => known,
                // A new player: the ratings are made again for everyone, from the start.
                _ => FormState::new(players.clone()),
            };
            let current = state.insert(current);
            current.catch_up(connection)?;
            Ok(players.iter().map(|&id| (id, current.form(id))).collect())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(game: u32, seat: u32, player_id: Option<i64>, place: u32) -> SeatRow {
        SeatRow {
            row: i64::from(game * 10 + seat),
            game,
            seat,
            player_id,
            place,
            points: match place {
                1 => 5,
                2 => 3,
                _ => 0,
            },
            absent: false,
        }
    }

    #[test]
    fn recent_form_counts_only_the_latest_games() {
        let mut state = FormState::new(BTreeSet::from([1, 2]));
        // Team 1 wins the first 150 games, then team 2 wins 100 in a row.
        let game = |number: u32, winner: i64| {
            [
                seat(number, 0, Some(1), if winner == 1 { 1 } else { 2 }),
                seat(number, 1, Some(2), if winner == 2 { 1 } else { 2 }),
            ]
        };
        for number in 0..150 {
            state.record(&game(number, 1));
        }
        let behind = state.form(2).rating.unwrap().rating;
        for number in 150..250 {
            state.record(&game(number, 2));
        }
        let (one, two) = (state.form(1), state.form(2));
        assert_eq!((one.points, one.games), (300, 100));
        assert_eq!((two.points, two.games), (500, 100));
        // The totals still favour team 1 (750 + 300 against 450 + 500), but team 2 climbs.
        assert!(two.rating.unwrap().rating > behind + 1.0, "{two:?}");
    }

    #[test]
    fn absent_players_and_house_bots_are_not_counted_as_teams() {
        let mut state = FormState::new(BTreeSet::from([1, 2]));
        let mut absent = seat(1, 1, Some(2), 3);
        absent.absent = true;
        state.record(&[seat(1, 0, None, 1), seat(1, 2, Some(1), 2), absent]);
        assert_eq!((state.form(1).points, state.form(1).games), (3, 1));
        assert_eq!((state.form(2).points, state.form(2).games), (0, 0));
        // One rated player in the game: the model changes nobody (it needs two).
        assert_eq!(state.form(1).rating, state.form(2).rating);
    }
}
