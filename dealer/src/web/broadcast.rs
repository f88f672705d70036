//! `GET /api/event/broadcast`: the director of the projector page (`/broadcast`). It scores the
//! newest ended games by what is worth showing a room and says where, in each game's viewer
//! log, the moments worth a banner are; the page plays the best one it has not shown yet at
//! its own pace and asks again when the game is over.
//!
//! The scoring is here rather than in the page so that one place, with tests, decides what a
//! highlight is, and so that a projector downloads one log per game it shows instead of every
//! candidate's. What the database knows (a team's first win, a change of leader) comes from
//! the event; what only the log knows (all-ins, big pots, bans) from reading the log once:
//! an ended game's log never changes, so each game is read once ([`Director`] keeps the
//! answers for the [`MEMORY`] newest games).
//!
//! A pruned game (its folder deleted by `keep_games`) or one whose log cannot be read is left
//! out with its reason in `skipped`; a compressed log is read as any other.

use super::log::{GameLog, LogEntry};
use super::store::ResultsFolder;
use super::ApiError;
use crate::event::queries::{self, GameRow};
use crate::event::store::{GameFiles, StoreError};
use crate::event::Event;
use actix_web::http::StatusCode;
use serde::{Deserialize, Serialize};
use shared::records::EntryKind;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};

/// How many of the newest ended games are candidates, unless the page asks for another number.
pub const DEFAULT_CANDIDATES: u32 = 12;
/// The most candidates a page may ask for (each is a log to read the first time).
pub const MAX_CANDIDATES: u32 = 40;
/// How many games' readings the director keeps.
pub const MEMORY: usize = 128;

/// What the score gives a game in which another team took the lead of the event.
pub const LEAD_CHANGE_SCORE: u32 = 40;
/// What the score gives a team's first win of the event.
pub const FIRST_WIN_SCORE: u32 = 30;
/// What the score gives a ban (a team's bot broke: the room wants to know).
pub const BAN_SCORE: u32 = 10;
/// What the score gives each hand with an all-in, up to [`MAX_SCORED_HANDS`] hands.
pub const ALL_IN_SCORE: u32 = 4;
/// What the score gives each big pot, up to [`MAX_SCORED_HANDS`] hands.
pub const BIG_POT_SCORE: u32 = 6;
/// The most hands of one kind that count, so a long game of all-in bots does not win on
/// length alone.
pub const MAX_SCORED_HANDS: u32 = 6;
/// What a game loses in priority per newer candidate: the broadcast shows the newest games
/// unless an older one is clearly better.
pub const AGE_PENALTY: i64 = 3;

/// A pot is big when it holds at least 1/`BIG_POT_SHARE` of the chips in play.
pub const BIG_POT_SHARE: u64 = 4;
/// A hand is quiet when its pot stays under 1/`QUIET_POT_SHARE` of the chips in play and
/// nothing else happened (no all-in, no ban), and it is not the game's last hand.
pub const QUIET_POT_SHARE: u64 = 8;

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
    /// The score less [`AGE_PENALTY`] for each newer candidate: the order of `games`.
    pub priority: i64,
}

/// One hand of a game, as the director sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HandSummary {
    /// The hand's number.
    pub round: u64,
    /// Index of its first log entry.
    pub first: usize,
    /// Index of its last log entry.
    pub last: usize,
    /// The largest pot of the hand (bets included).
    pub pot: u64,
    /// The chips on the table when it started (stacks and bets).
    pub chips: u64,
    /// Whether the page may skip it when told to skip quiet hands.
    pub quiet: bool,
}

/// A moment worth a banner. `entry` is the log entry to show it on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Highlight {
    /// A player put its last chip in.
    AllIn {
        /// The entry of the bet.
        entry: usize,
        /// The hand.
        hand: u64,
        /// Who.
        player: String,
        /// Its bet in the betting round after going all-in.
        amount: u64,
    },
    /// A pot of at least 1/[`BIG_POT_SHARE`] of the chips in play, on the entry where it was
    /// largest.
    BigPot {
        /// The entry.
        entry: usize,
        /// The hand.
        hand: u64,
        /// The pot.
        pot: u64,
    },
    /// A player was banned (the log's `Banned:` message).
    Banned {
        /// The entry.
        entry: usize,
        /// The hand.
        hand: u64,
        /// Who.
        player: String,
        /// Why.
        reason: String,
    },
    /// The winner's first win of the event (on the game's last entry).
    FirstWin {
        /// The last entry.
        entry: usize,
        /// The team's name in the game.
        player: String,
        /// Its event id.
        id: i64,
    },
    /// After this game another team leads the event alone (on the game's last entry).
    TakesLead {
        /// The last entry.
        entry: usize,
        /// The team's name in the game.
        player: String,
        /// Its event id.
        id: i64,
    },
}

impl Highlight {
    fn entry(&self) -> usize {
        match self {
            Highlight::AllIn { entry, .. }
            | Highlight::BigPot { entry, .. }
            | Highlight::Banned { entry, .. }
            | Highlight::FirstWin { entry, .. }
            | Highlight::TakesLead { entry, .. } => *entry,
        }
    }
}

/// What the director read from one game's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogReading {
    /// Its hands.
    pub hands: Vec<HandSummary>,
    /// Its all-ins, big pots and bans, in log order.
    pub highlights: Vec<Highlight>,
    /// The index of its last entry.
    pub last_entry: usize,
}

/// The chips a seat has on the table (stack and bet).
fn chips_of(entry: &LogEntry) -> u64 {
    entry
        .game_state
        .players
        .iter()
        .map(|p| p.stack + p.bet)
        .sum()
}

/// Reads a whole log: its hands, and where its all-ins, big pots and bans are.
pub fn read_log(log: &GameLog) -> LogReading {
    let entries = &log.entries;
    let mut hands = Vec::with_capacity(log.hands.len());
    let mut highlights = Vec::new();
    let last_entry = entries.len().saturating_sub(1);
    for (i, start) in log.hands.iter().enumerate() {
        let last = log
            .hands
            .get(i + 1)
            .map_or(last_entry, |next| next.entry.saturating_sub(1));
        let Some(hand_entries) = entries.get(start.entry..=last) else {
            continue;
        };
        let chips = hand_entries.first().map_or(0, chips_of);
        let mut pot = 0;
        let mut pot_entry = start.entry;
        let mut all_in: HashSet<usize> = HashSet::new();
        let mut noted = false;
        for (offset, entry) in hand_entries.iter().enumerate() {
            let at = start.entry + offset;
            let state = &entry.game_state;
            let this_pot = state.pot.unwrap_or(0);
            if this_pot > pot {
                pot = this_pot;
                pot_entry = at;
            }
            if entry.kind != Some(EntryKind::Bet) {
                continue;
            }
            let Some(seat) = entry.on_turn.map(|seat| seat.index()) else {
                continue;
            };
            let Some(player) = state.players.get(seat) else {
                continue;
            };
            if player.stack == 0 && player.bet > 0 && all_in.insert(seat) {
                noted = true;
                highlights.push(Highlight::AllIn {
                    entry: at,
                    hand: start.round,
                    player: player.name.clone(),
                    amount: player.bet,
                });
            }
        }
        for ban in log
            .bans
            .iter()
            .filter(|b| (start.entry..=last).contains(&b.entry))
        {
            noted = true;
            highlights.push(Highlight::Banned {
                entry: ban.entry,
                hand: start.round,
                player: ban.player.clone(),
                reason: ban.reason.clone(),
            });
        }
        let big = chips > 0 && pot * BIG_POT_SHARE >= chips;
        if big {
            highlights.push(Highlight::BigPot {
                entry: pot_entry,
                hand: start.round,
                pot,
            });
        }
        let small = pot * QUIET_POT_SHARE < chips;
        hands.push(HandSummary {
            round: start.round,
            first: start.entry,
            last,
            pot,
            chips,
            quiet: small && !noted && !big && i + 1 < log.hands.len(),
        });
    }
    highlights.sort_by_key(Highlight::entry);
    LogReading {
        hands,
        highlights,
        last_entry,
    }
}

/// The score of a game from its highlights (see the `*_SCORE` constants).
pub fn score(highlights: &[Highlight]) -> u32 {
    let mut all_in_hands = HashSet::new();
    let mut big_pots = 0;
    let mut total = 0;
    for highlight in highlights {
        match highlight {
            Highlight::AllIn { hand, .. } => {
                all_in_hands.insert(*hand);
            }
            Highlight::BigPot { .. } => big_pots += 1,
            Highlight::Banned { .. } => total += BAN_SCORE,
            Highlight::FirstWin { .. } => total += FIRST_WIN_SCORE,
            Highlight::TakesLead { .. } => total += LEAD_CHANGE_SCORE,
        }
    }
    let all_in_hands = u32::try_from(all_in_hands.len()).unwrap_or(u32::MAX);
    total
        + ALL_IN_SCORE * all_in_hands.min(MAX_SCORED_HANDS)
        + BIG_POT_SCORE * big_pots.min(MAX_SCORED_HANDS)
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

    /// The broadcast's candidates: the `candidates` newest ended games, scored.
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
        let ended = queries::newest_ended(event.store(), candidates)?;
        let numbers: Vec<u32> = ended.iter().map(|g| g.number).collect();
        let first_wins = queries::first_wins(event.store(), &numbers)?;
        let lead_changes = event.lead_changes(numbers.iter().copied().min().unwrap_or(0));
        let mut games = Vec::new();
        let mut skipped = Vec::new();
        for (age, game) in ended.into_iter().enumerate() {
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
            if let Some((id, player)) = first_wins
                .get(&game.number)
                .and_then(|&id| Some((id, name_of(id)?)))
            {
                highlights.push(Highlight::FirstWin {
                    entry: end,
                    player,
                    id,
                });
            }
            if let Some((id, player)) = lead_changes
                .get(&game.number)
                .and_then(|&id| Some((id, name_of(id)?)))
            {
                highlights.push(Highlight::TakesLead {
                    entry: end,
                    player,
                    id,
                });
            }
            let score = score(&highlights);
            let age = i64::try_from(age).unwrap_or(i64::MAX);
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
            });
        }
        // Highest priority first; the newer game first among equals.
        games.sort_by(|a, b| b.priority.cmp(&a.priority).then(b.number.cmp(&a.number)));
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
mod tests {
    use super::*;
    use crate::web::log::parse_log;

    /// A viewer log of two hands at a table of two: the first quiet (the small blind folds),
    /// the second with an all-in called, a big pot and a ban.
    fn two_hands() -> GameLog {
        let state = |round: u64, stacks: [(u64, u64, &str); 2], pot: u64| {
            serde_json::json!({
                "round": round, "small_blind": 10, "big_blind": 20, "dealer": 0, "pot": pot,
                "community_cards": [], "current_buy_in": 0,
                "players": [
                    {"name": "<b>Ann</b>", "stack": stacks[0].0, "bet": stacks[0].1, "status": stacks[0].2, "hole_cards": []},
                    {"name": "Bob", "stack": stacks[1].0, "bet": stacks[1].1, "status": stacks[1].2, "hole_cards": []}
                ]
            })
        };
        let bet = |seat: u64, message: &str, game_state| serde_json::json!({"type": "bet", "on_turn": seat, "message": message, "game_state": game_state});
        let log = serde_json::json!([
            {"game_state": state(0, [(1000, 0, "active"), (1000, 0, "active")], 0)},
            bet(0, "<b>Ann</b> made a bet of 10", state(0, [(990, 10, "active"), (1000, 0, "active")], 10)),
            bet(1, "Bob made a bet of 20", state(0, [(990, 10, "active"), (980, 20, "active")], 30)),
            bet(0, "<b>Ann</b> folds", state(0, [(990, 0, "folded"), (1010, 0, "active")], 0)),
            {"game_state": state(1, [(990, 0, "active"), (1010, 0, "active")], 0)},
            bet(0, "<b>Ann</b> made a bet of 990", state(1, [(0, 990, "active"), (1010, 0, "active")], 990)),
            bet(1, "Bob made a bet of 990", state(1, [(0, 990, "active"), (20, 990, "active")], 1980)),
            bet(1, "Bob made a bet of 0 (fold). Banned: the answer was not a number", state(1, [(0, 990, "active"), (20, 990, "out")], 1980)),
        ]);
        parse_log(log.to_string().as_bytes()).expect("a valid log")
    }

    #[test]
    fn a_log_is_read_into_hands_all_ins_big_pots_and_bans() {
        let log = two_hands();
        let reading = read_log(&log);
        assert_eq!(reading.last_entry, 7);
        assert_eq!(
            reading.hands,
            [
                HandSummary {
                    round: 0,
                    first: 0,
                    last: 3,
                    pot: 30,
                    chips: 2000,
                    quiet: true
                },
                HandSummary {
                    round: 1,
                    first: 4,
                    last: 7,
                    pot: 1980,
                    chips: 2000,
                    quiet: false
                },
            ]
        );
        let kinds: Vec<&str> = reading
            .highlights
            .iter()
            .map(|h| match h {
                Highlight::AllIn { .. } => "all_in",
                Highlight::BigPot { .. } => "big_pot",
                Highlight::Banned { .. } => "banned",
                _ => "other",
            })
            .collect();
        assert_eq!(
            kinds,
            ["all_in", "big_pot", "banned"],
            "{:?}",
            reading.highlights
        );
        assert_eq!(
            reading.highlights[0],
            Highlight::AllIn {
                entry: 5,
                hand: 1,
                player: "<b>Ann</b>".to_string(),
                amount: 990
            }
        );
        assert_eq!(
            reading.highlights[1],
            Highlight::BigPot {
                entry: 6,
                hand: 1,
                pot: 1980
            }
        );
        assert!(
            matches!(&reading.highlights[2], Highlight::Banned { entry: 7, player, .. } if player == "Bob")
        );
        // One all-in hand, one big pot, one ban.
        assert_eq!(
            score(&reading.highlights),
            ALL_IN_SCORE + BIG_POT_SCORE + BAN_SCORE
        );
    }

    #[test]
    fn the_last_hand_is_never_quiet_and_a_small_pot_is() {
        let log = two_hands();
        let mut first_hand_only = log.clone();
        first_hand_only.entries.truncate(4);
        first_hand_only.hands.truncate(1);
        first_hand_only.bans.clear();
        let reading = read_log(&first_hand_only);
        assert_eq!(reading.hands.len(), 1);
        assert!(!reading.hands[0].quiet, "the game's last hand is played");
        assert!(reading.highlights.is_empty());
        assert_eq!(score(&reading.highlights), 0);
    }

    #[test]
    fn scores_count_each_kind_up_to_a_cap_and_the_event_moments_in_full() {
        let all_ins: Vec<Highlight> = (0..20)
            .map(|hand| Highlight::AllIn {
                entry: hand,
                hand: hand as u64,
                player: "A".into(),
                amount: 1,
            })
            .collect();
        assert_eq!(score(&all_ins), ALL_IN_SCORE * MAX_SCORED_HANDS);
        let two_in_one_hand = [
            Highlight::AllIn {
                entry: 1,
                hand: 3,
                player: "A".into(),
                amount: 1,
            },
            Highlight::AllIn {
                entry: 2,
                hand: 3,
                player: "B".into(),
                amount: 1,
            },
        ];
        assert_eq!(score(&two_in_one_hand), ALL_IN_SCORE);
        let event = [
            Highlight::FirstWin {
                entry: 9,
                player: "A".into(),
                id: 1,
            },
            Highlight::TakesLead {
                entry: 9,
                player: "A".into(),
                id: 1,
            },
        ];
        assert_eq!(score(&event), FIRST_WIN_SCORE + LEAD_CHANGE_SCORE);
    }

    #[test]
    fn pruned_and_abandoned_games_are_skipped_with_their_reason() {
        let game = |state: &str, files: GameFiles| GameRow {
            number: 7,
            round: 2,
            table: 1,
            state: state.to_string(),
            run: crate::event::store::GAMES_DIR,
            started_at: 0,
            ended_at: Some(1),
            hands: Some(3),
            winner: None,
            reason: (state == "abandoned").then(|| "the server stopped".to_string()),
            players: Vec::new(),
            standings: Vec::new(),
            files,
        };
        assert_eq!(skip_reason(&game("finished", GameFiles::Kept)), None);
        assert_eq!(skip_reason(&game("finished", GameFiles::Compressed)), None);
        assert!(
            skip_reason(&game("finished", GameFiles::Pruned)).is_some_and(|r| r.contains("pruned"))
        );
        assert_eq!(
            skip_reason(&game("abandoned", GameFiles::Kept)).as_deref(),
            Some("abandoned: the server stopped")
        );
    }
}
