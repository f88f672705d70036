//! Reading one game's viewer log for the broadcast: its hands (where each starts, its pot,
//! whether it is quiet) and its highlights (all-ins, big pots, bans), and the score a game's
//! highlights are worth. Pure functions of the log, so the director can keep the answer.

use crate::web::log::{GameLog, LogEntry};
use serde::Serialize;
use shared::records::EntryKind;
use std::collections::HashSet;

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

/// A pot is big when it holds at least 1/`BIG_POT_SHARE` of the chips in play.
pub const BIG_POT_SHARE: u64 = 4;
/// A hand is quiet when its pot stays under 1/`QUIET_POT_SHARE` of the chips in play and
/// nothing else happened (no all-in, no ban), and it is not the game's last hand.
pub const QUIET_POT_SHARE: u64 = 8;

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
