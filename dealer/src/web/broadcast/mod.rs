//! `GET /api/event/broadcast`: the director of the projector page (`/broadcast`). It picks
//! the ended games that matter to the race and says where, in each game's viewer log, its
//! decisive hands and the moments worth a banner are; the page plays the best one it has not
//! shown yet at its own pace and asks again when the game is over.
//!
//! Hundreds of games can end while the page plays one, so the director does not just take
//! the newest: it looks first for the race. The candidates are, best first:
//!
//! 1. games after which another team took the lead of the event, newest first (at most
//!    [`MAX_RACE_GAMES`], ended within [`RACE_WINDOW_MS`] of the newest game and among its
//!    [`RACE_WINDOW_GAMES`] newest);
//! 2. a team's first win of the event, newest first (as many, in the same window);
//! 3. the newest ended games (`candidates`, default [`DEFAULT_CANDIDATES`]), by their score
//!    (big pots against the game's usual pot, bans) less [`AGE_PENALTY`] per newer game.
//!
//! Each game says which of its hands to play when the page plays only decisive ones (the
//! final hand, the one that left the last two, bans, knockouts, big pots; at most
//! [`MAX_SHOWN_HANDS`]), so a game takes about a minute at 1x.
//!
//! The scoring is here rather than in the page so that one place, with tests, decides what a
//! highlight is, and so that a projector downloads one log per game it shows instead of every
//! candidate's. What the database knows (a team's first win, a change of leader) comes from
//! the event; what only the log knows (all-ins, pots, knockouts, bans) from reading the log
//! once: an ended game's log never changes, so each game is read once ([`Director`] keeps the
//! answers for the [`MEMORY`] newest games).
//!
//! A pruned game (its folder deleted by `keep_games`) or one whose log cannot be read is left
//! out with its reason in `skipped`; a compressed log is read as any other.

mod reading;

pub use reading::{
    read_log, score, HandMoment, HandSummary, Highlight, LogReading, BAN_SCORE, BIG_POT_FACTOR,
    BIG_POT_SCORE, FIRST_WIN_SCORE, LEAD_CHANGE_SCORE, MAX_SCORED_HANDS, MAX_SHOWN_HANDS,
    MIN_BIG_POT_SHARE,
};

use super::store::ResultsFolder;
use super::ApiError;
use crate::event::lookups;
use crate::event::queries::{self, GameRow};
use crate::event::store::{GameFiles, StoreError};
use crate::event::Event;
use actix_web::http::StatusCode;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};

/// How many of the newest ended games are candidates, unless the page asks for another number.
pub const DEFAULT_CANDIDATES: u32 = 12;
/// The most candidates a page may ask for (each is a log to read the first time).
pub const MAX_CANDIDATES: u32 = 40;
/// How many games' readings the director keeps.
pub const MEMORY: usize = 128;

/// What a game loses in priority per newer candidate: the broadcast shows the newest games
/// unless an older one is clearly better.
pub const AGE_PENALTY: i64 = 3;
/// The most lead changes, and the most first wins, the director offers besides the newest
/// games.
pub const MAX_RACE_GAMES: u32 = 3;
/// How far back (from the newest ended game) a lead change or a first win is still news.
pub const RACE_WINDOW_MS: i64 = 10 * 60 * 1000;
/// How many of the newest games a lead change or a first win is looked for in.
pub const RACE_WINDOW_GAMES: u32 = 2_000;

/// Why the director offers a game (the order of the answer: lead changes first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Pick {
    /// After it another team led the event.
    LeadChange,
    /// Its winner's first win of the event.
    FirstWin,
    /// One of the newest games.
    Newest,
}

/// `?candidates=N`.
#[derive(Debug, Deserialize)]
pub(super) struct BroadcastQuery {
    candidates: Option<u32>,
}

/// The answer: the candidates, best first.
#[derive(Debug, Clone, Serialize)]
pub struct Broadcast {
    /// The event's tournament id: a page keeps which games it showed per event, as game
    /// numbers start again at 1 in the next one.
    pub tournament_id: String,
    /// Games being played now.
    pub running: usize,
    /// The newest ended games whose logs can be played, highest priority first.
    pub games: Vec<BroadcastGame>,
    /// Newest ended games left out, with why.
    pub skipped: Vec<SkippedGame>,
}

/// An ended game left out of the broadcast.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkippedGame {
    /// Its number.
    pub number: u32,
    /// Why (pruned, abandoned, unreadable log).
    pub reason: String,
}

/// One game the broadcast can play.
#[derive(Debug, Clone, Serialize)]
pub struct BroadcastGame {
    /// Its number.
    pub number: u32,
    /// The viewer's run id of its folder (`/api/runs/{run}/games/{number}/log` is its log).
    pub run: &'static str,
    /// The round it was part of.
    pub round: u32,
    /// Its table in the round.
    pub table: u32,
    /// When it ended (ms since the epoch).
    pub ended_at: Option<i64>,
    /// Who played, first place first, with their event ids for the teams' colours.
    pub standings: Vec<queries::SeatRow>,
    /// Every hand, in order, with where it is in the log.
    pub hands: Vec<HandSummary>,
    /// The moments worth a banner, in log order (the game's own ones on its last entry).
    pub highlights: Vec<Highlight>,
    /// How much the game is worth showing (the sum of its highlights' weights).
    pub score: u32,
    /// The score less [`AGE_PENALTY`] for each newer candidate: the order of the newest
    /// games among themselves.
    pub priority: i64,
    /// Why it is offered: the order of `games` (lead changes, then first wins, each newest
    /// first, then the newest games by priority).
    pub pick: Pick,
}

/// Why the director cannot answer.
#[derive(Debug, thiserror::Error)]
pub enum DirectorError {
    /// The event's database.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The director's memory of the logs it read (an ended game's log does not change).
#[derive(Debug, Default)]
pub struct Director {
    readings: Mutex<HashMap<u32, Result<Arc<LogReading>, String>>>,
}

impl Director {
    /// A director that has read nothing yet.
    pub fn new() -> Director {
        Director::default()
    }

    /// The reading of game `number`'s log, read now if it was not yet.
    fn reading(
        &self,
        folder: &ResultsFolder,
        run: &str,
        number: u32,
    ) -> Result<Arc<LogReading>, String> {
        let lock = || self.readings.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = lock().get(&number) {
            return known.clone();
        }
        let read = folder
            .game_log(run, number)
            .map(|log| Arc::new(read_log(&log)))
            .map_err(|error| error.to_string());
        let mut readings = lock();
        if readings.len() >= MEMORY {
            // The oldest games go first: the broadcast only looks at the newest.
            let mut numbers: Vec<u32> = readings.keys().copied().collect();
            numbers.sort_unstable();
            for old in numbers.iter().take(readings.len() + 1 - MEMORY) {
                readings.remove(old);
            }
        }
        readings.insert(number, read.clone());
        read
    }

    /// The broadcast's candidates (see the [module docs](self)), best first.
    ///
    /// # Errors
    /// The event's database cannot be read.
    pub fn broadcast(
        &self,
        event: &Event,
        folder: &ResultsFolder,
        candidates: u32,
    ) -> Result<Broadcast, DirectorError> {
        let candidates = candidates.clamp(1, MAX_CANDIDATES);
        let running = queries::games_page(event.store(), 1, 1)?.running.len();
        let mut ended = queries::newest_ended(event.store(), candidates)?;
        let newest = ended.first().map_or(0, |g| g.number);
        let since = newest.saturating_sub(RACE_WINDOW_GAMES);
        let mut lead_changes: Vec<(u32, i64)> = event.lead_changes(since).into_iter().collect();
        lead_changes.sort_unstable_by_key(|&(game, _)| std::cmp::Reverse(game));
        lead_changes.truncate(MAX_RACE_GAMES as usize);
        let first_wins = lookups::first_wins_since(event.store(), since, MAX_RACE_GAMES)?;
        // The race's games that are not among the newest.
        let newest_numbers: HashSet<u32> = ended.iter().map(|g| g.number).collect();
        let race: Vec<u32> = lead_changes
            .iter()
            .chain(&first_wins)
            .map(|&(game, _)| game)
            .filter(|game| !newest_numbers.contains(game))
            .collect::<std::collections::BTreeSet<u32>>()
            .into_iter()
            .collect();
        let newest_end = ended.first().and_then(|g| g.ended_at).unwrap_or(0);
        ended.extend(
            lookups::games_numbered(event.store(), &race)?
                .into_iter()
                .filter(|g| g.ended_at.unwrap_or(0) >= newest_end - RACE_WINDOW_MS),
        );
        let lead_changes: HashMap<u32, i64> = lead_changes.into_iter().collect();
        let mut first_wins: HashMap<u32, i64> = first_wins.into_iter().collect();
        // The newest games' first wins, whichever the window's limit kept.
        let beyond: Vec<u32> = newest_numbers
            .iter()
            .copied()
            .filter(|game| !first_wins.contains_key(game))
            .collect();
        first_wins.extend(queries::first_wins(event.store(), &beyond)?);
        let mut games = Vec::new();
        let mut skipped = Vec::new();
        for game in ended {
            if let Some(reason) = skip_reason(&game) {
                skipped.push(SkippedGame {
                    number: game.number,
                    reason,
                });
                continue;
            }
            let reading = match self.reading(folder, game.run, game.number) {
                Ok(reading) => reading,
                Err(reason) => {
                    tracing::debug!(game = game.number, %reason, "broadcast skips a game");
                    skipped.push(SkippedGame {
                        number: game.number,
                        reason: format!("its log cannot be read: {reason}"),
                    });
                    continue;
                }
            };
            let mut highlights = reading.highlights.clone();
            let name_of = |id: i64| {
                game.standings
                    .iter()
                    .find(|s| s.player_id == Some(id))
                    .map(|s| s.name.clone())
            };
            let end = reading.last_entry;
            let first_win = first_wins
                .get(&game.number)
                .and_then(|&id| Some((id, name_of(id)?)));
            if let Some((id, player)) = first_win.clone() {
                highlights.push(Highlight::FirstWin {
                    entry: end,
                    player,
                    id,
                });
            }
            let lead_change = lead_changes
                .get(&game.number)
                .and_then(|&id| Some((id, name_of(id)?)));
            if let Some((id, player)) = lead_change.clone() {
                highlights.push(Highlight::TakesLead {
                    entry: end,
                    player,
                    id,
                });
            }
            let pick = match (lead_change, first_win) {
                (Some(_), _) => Pick::LeadChange,
                (None, Some(_)) => Pick::FirstWin,
                (None, None) => Pick::Newest,
            };
            let score = score(&highlights);
            let age = i64::from(newest.saturating_sub(game.number));
            games.push(BroadcastGame {
                number: game.number,
                run: game.run,
                round: game.round,
                table: game.table,
                ended_at: game.ended_at,
                standings: game.standings,
                hands: reading.hands.clone(),
                highlights,
                score,
                priority: i64::from(score).saturating_sub(AGE_PENALTY.saturating_mul(age)),
                pick,
            });
        }
        games.sort_by(|a, b| {
            a.pick.cmp(&b.pick).then_with(|| match a.pick {
                Pick::LeadChange | Pick::FirstWin => b.number.cmp(&a.number),
                // Highest priority first; the newer game first among equals.
                Pick::Newest => b.priority.cmp(&a.priority).then(b.number.cmp(&a.number)),
            })
        });
        Ok(Broadcast {
            tournament_id: event.status().tournament_id,
            running,
            games,
            skipped,
        })
    }
}

/// Why an ended game cannot be played on the broadcast, if it cannot.
fn skip_reason(game: &GameRow) -> Option<String> {
    if game.files == GameFiles::Pruned {
        return Some("its folder was pruned (keep_games)".to_string());
    }
    if game.state != "finished" {
        return Some(format!(
            "{}: {}",
            game.state,
            game.reason.as_deref().unwrap_or("no reason given")
        ));
    }
    None
}

/// The `/api/event/broadcast` handler.
pub(super) async fn broadcast(
    event: actix_web::web::Data<Event>,
    folder: actix_web::web::Data<ResultsFolder>,
    director: actix_web::web::Data<Director>,
    request: actix_web::HttpRequest,
) -> Result<actix_web::HttpResponse, ApiError> {
    let query = actix_web::web::Query::<BroadcastQuery>::from_query(request.query_string())
        .map_err(|failure| ApiError::new(StatusCode::BAD_REQUEST, failure.to_string()))?
        .into_inner();
    let candidates = query.candidates.unwrap_or(DEFAULT_CANDIDATES);
    let answer = actix_web::web::block(move || director.broadcast(&event, &folder, candidates))
        .await
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is busy"))?;
    match answer {
        Ok(broadcast) => Ok(actix_web::HttpResponse::Ok().json(broadcast)),
        Err(failure) => {
            tracing::error!(%failure, "broadcast");
            Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                failure.to_string(),
            ))
        }
    }
}

#[cfg(test)]
mod tests;
