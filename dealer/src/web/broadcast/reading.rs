//! Reading one game's viewer log for the broadcast: its hands (where each starts, its pot, the
//! moments that make it decisive), its highlights (called all-ins, big pots, knockouts, bans),
//! and the score a game's highlights are worth. Pure functions of the log, so the director can
//! keep the answer.
//!
//! What makes a hand worth a room's time is measured against the game itself, not the chips
//! alone: a pot is big when it is several times the game's usual pot, so a table with an
//! all-in bot, where every hand's pot is a fifth of the chips, is not a highlight every hand;
//! an all-in is a moment only when someone calls it (the hand reaches a showdown). Only the
//! event's scoring decides a game's points (5 for first, 3 for second), so the hands that
//! decide them come first: the final hand, and the one that leaves the last two players.

use crate::web::log::{GameLog, LogEntry};
use serde::Serialize;
use shared::records::EntryKind;
use std::collections::HashSet;

/// What the score gives a game in which another team took the lead of the event.
pub const LEAD_CHANGE_SCORE: u32 = 100;
/// What the score gives a team's first win of the event.
pub const FIRST_WIN_SCORE: u32 = 50;
/// What the score gives a ban (a team's bot broke: the room wants to know).
pub const BAN_SCORE: u32 = 10;
/// What the score gives each big pot, up to [`MAX_SCORED_HANDS`] of them.
pub const BIG_POT_SCORE: u32 = 5;
/// The most big pots that count, so a long game does not win on length alone.
pub const MAX_SCORED_HANDS: u32 = 4;

/// A pot is big when its share of the chips in play is at least this many times the game's
/// usual share (the median over its hands)...
pub const BIG_POT_FACTOR: u64 = 3;
/// ...and at least 1/`MIN_BIG_POT_SHARE` of the chips in play (three times a blinds-only pot
/// is still small).
pub const MIN_BIG_POT_SHARE: u64 = 8;
/// The most hands the broadcast plays of one game when it plays only decisive hands (the
/// final hand always among them).
pub const MAX_SHOWN_HANDS: usize = 3;

/// Why a hand matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HandMoment {
    /// The game's last hand: it decides first and second place.
    Final,
    /// It left the last two players: the points (5 and 3) are theirs now.
    Bubble,
    /// A player was banned.
    Ban,
    /// A player lost its last chip.
    Knockout,
    /// A big pot (see [`BIG_POT_FACTOR`]).
    BigPot,
}

/// One hand of a game, as the director sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HandSummary {
    /// The hand's number (the wire's `round`, from 0; the page shows it from 1).
    pub round: u64,
    /// Index of its first log entry.
    pub first: usize,
    /// Index of its last log entry.
    pub last: usize,
    /// The largest called pot of the hand: the pot with its bets, less the part of the
    /// highest bet nobody matched (an all-in everyone folds to wins only the blinds).
    pub pot: u64,
    /// The chips on the table when it started (stacks and bets).
    pub chips: u64,
    /// Why it matters, most important first; empty for a hand the page may skip.
    pub moments: Vec<HandMoment>,
    /// Whether the page plays it when it plays only decisive hands: at most
    /// [`MAX_SHOWN_HANDS`] of a game, its most important.
    pub shown: bool,
}

/// A moment worth a banner. `entry` is the log entry to show it on; `hand` is the wire's
/// `round` (from 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Highlight {
    /// A player put its last chip in and was called (the hand reached a showdown).
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
    /// A big pot (see [`BIG_POT_FACTOR`]), on the entry where it was largest.
    BigPot {
        /// The entry.
        entry: usize,
        /// The hand.
        hand: u64,
        /// The pot.
        pot: u64,
        /// How many times the game's usual pot it is (rounded down, at least
        /// [`BIG_POT_FACTOR`]).
        times_usual: u64,
    },
    /// A player lost its last chip (on the hand's last entry).
    Knockout {
        /// The entry.
        entry: usize,
        /// The hand.
        hand: u64,
        /// Who.
        player: String,
        /// Players left in the game after the hand.
        left: usize,
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
            | Highlight::Knockout { entry, .. }
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
    /// Its called all-ins, big pots, knockouts and bans, in log order.
    pub highlights: Vec<Highlight>,
    /// The index of its last entry.
    pub last_entry: usize,
}

/// The chips on the table (stacks and bets).
fn chips_of(entry: &LogEntry) -> u64 {
    entry
        .game_state
        .players
        .iter()
        .map(|p| p.stack + p.bet)
        .sum()
}

/// The entry's pot less the part of its highest bet that no other bet matches.
fn called_pot(entry: &LogEntry) -> u64 {
    let (mut highest, mut second) = (0, 0);
    for player in &entry.game_state.players {
        if player.bet > highest {
            second = highest;
            highest = player.bet;
        } else if player.bet > second {
            second = player.bet;
        }
    }
    entry
        .game_state
        .pot
        .unwrap_or(0)
        .saturating_sub(highest - second)
}

fn is_out(status: &str) -> bool {
    status == "out"
}

/// One hand as read, before the game's usual pot is known.
struct HandRead {
    summary: HandSummary,
    pot_entry: usize,
    highlights: Vec<Highlight>,
}

/// Reads one hand (`entries` are its entries, the first at index `first` of the log).
fn read_hand(log: &GameLog, round: u64, first: usize, entries: &[LogEntry]) -> HandRead {
    let last = first + entries.len().saturating_sub(1);
    let chips = entries.first().map_or(0, chips_of);
    let mut pot = 0;
    let mut pot_entry = first;
    let mut all_ins = Vec::new();
    let mut seats_all_in: HashSet<usize> = HashSet::new();
    let mut showdown = false;
    for (offset, entry) in entries.iter().enumerate() {
        let at = first + offset;
        let state = &entry.game_state;
        let this_pot = called_pot(entry);
        if this_pot > pot {
            pot = this_pot;
            pot_entry = at;
        }
        match entry.kind {
            Some(EntryKind::Showdown) => showdown = true,
            Some(EntryKind::Bet) => {
                let Some(seat) = entry.on_turn.map(|seat| seat.index()) else {
                    continue;
                };
                let Some(player) = state.players.get(seat) else {
                    continue;
                };
                if player.stack == 0 && player.bet > 0 && seats_all_in.insert(seat) {
                    all_ins.push(Highlight::AllIn {
                        entry: at,
                        hand: round,
                        player: player.name.clone(),
                        amount: player.bet,
                    });
                }
            }
            _ => {}
        }
    }
    let mut highlights = if showdown { all_ins } else { Vec::new() };
    let mut moments = Vec::new();
    let banned: Vec<&crate::web::log::BanMark> = log
        .bans
        .iter()
        .filter(|b| (first..=last).contains(&b.entry))
        .collect();
    for ban in &banned {
        highlights.push(Highlight::Banned {
            entry: ban.entry,
            hand: round,
            player: ban.player.clone(),
            reason: ban.reason.clone(),
        });
    }
    if !banned.is_empty() {
        moments.push(HandMoment::Ban);
    }
    if let (Some(start), Some(end)) = (entries.first(), entries.last()) {
        let left = end
            .game_state
            .players
            .iter()
            .filter(|p| !is_out(&p.status))
            .count();
        let mut knocked_out = false;
        for (before, after) in start.game_state.players.iter().zip(&end.game_state.players) {
            let was_banned = banned.iter().any(|b| b.player == after.name);
            if !is_out(&before.status) && is_out(&after.status) && !was_banned {
                knocked_out = true;
                highlights.push(Highlight::Knockout {
                    entry: last,
                    hand: round,
                    player: after.name.clone(),
                    left,
                });
            }
        }
        if knocked_out {
            moments.push(HandMoment::Knockout);
        }
        let before = start
            .game_state
            .players
            .iter()
            .filter(|p| !is_out(&p.status))
            .count();
        if before > 2 && left == 2 {
            moments.push(HandMoment::Bubble);
        }
    }
    HandRead {
        summary: HandSummary {
            round,
            first,
            last,
            pot,
            chips,
            moments,
            shown: false,
        },
        pot_entry,
        highlights,
    }
}

/// The median of the hands' pot shares of the chips in play, as a fraction `(pot, chips)`.
fn usual_share(hands: &[HandRead]) -> (u64, u64) {
    let mut shares: Vec<(u64, u64)> = hands
        .iter()
        .map(|h| (h.summary.pot, h.summary.chips))
        .filter(|&(_, chips)| chips > 0)
        .collect();
    // Compared exactly: a/b against c/d as a*d against c*b.
    shares.sort_by(|a, b| {
        (u128::from(a.0) * u128::from(b.1)).cmp(&(u128::from(b.0) * u128::from(a.1)))
    });
    shares.get(shares.len() / 2).copied().unwrap_or((0, 1))
}

/// Reads a whole log: its hands, which of them are decisive, and its highlights.
pub fn read_log(log: &GameLog) -> LogReading {
    let entries = &log.entries;
    let last_entry = entries.len().saturating_sub(1);
    let mut hands: Vec<HandRead> = Vec::with_capacity(log.hands.len());
    for (i, start) in log.hands.iter().enumerate() {
        let last = log
            .hands
            .get(i + 1)
            .map_or(last_entry, |next| next.entry.saturating_sub(1));
        if let Some(hand_entries) = entries.get(start.entry..=last) {
            hands.push(read_hand(log, start.round, start.entry, hand_entries));
        }
    }
    let (usual_pot, usual_chips) = usual_share(&hands);
    let mut highlights = Vec::new();
    let count = hands.len();
    for (i, hand) in hands.iter_mut().enumerate() {
        let summary = &mut hand.summary;
        let (pot, chips) = (u128::from(summary.pot), u128::from(summary.chips));
        // pot / chips >= FACTOR * usual_pot / usual_chips, and >= 1 / MIN_SHARE.
        let big = chips > 0
            && pot * u128::from(usual_chips)
                >= u128::from(BIG_POT_FACTOR) * u128::from(usual_pot) * chips
            && pot * u128::from(MIN_BIG_POT_SHARE) >= chips;
        if big {
            summary.moments.push(HandMoment::BigPot);
            let times_usual = if usual_pot == 0 {
                BIG_POT_FACTOR
            } else {
                u64::try_from((pot * u128::from(usual_chips)) / (u128::from(usual_pot) * chips))
                    .unwrap_or(u64::MAX)
            };
            hand.highlights.push(Highlight::BigPot {
                entry: hand.pot_entry,
                hand: summary.round,
                pot: summary.pot,
                times_usual,
            });
        }
        if i + 1 == count {
            summary.moments.push(HandMoment::Final);
        }
        summary.moments.sort_unstable();
        summary.moments.dedup();
        highlights.append(&mut hand.highlights);
    }
    let mut hands: Vec<HandSummary> = hands.into_iter().map(|h| h.summary).collect();
    choose_shown(&mut hands);
    highlights.sort_by_key(Highlight::entry);
    LogReading {
        hands,
        highlights,
        last_entry,
    }
}

/// Marks the hands the page plays when it plays only decisive ones: the [`MAX_SHOWN_HANDS`]
/// most important (by their most important moment, then the bigger share of the chips in the
/// pot, then the later hand).
pub(super) fn choose_shown(hands: &mut [HandSummary]) {
    let mut decisive: Vec<usize> = (0..hands.len())
        .filter(|&i| !hands[i].moments.is_empty())
        .collect();
    decisive.sort_by(|&a, &b| {
        let (a, b) = (&hands[a], &hands[b]);
        a.moments[0]
            .cmp(&b.moments[0])
            .then_with(|| {
                (u128::from(b.pot) * u128::from(a.chips.max(1)))
                    .cmp(&(u128::from(a.pot) * u128::from(b.chips.max(1))))
            })
            .then(b.round.cmp(&a.round))
    });
    for &i in decisive.iter().take(MAX_SHOWN_HANDS) {
        hands[i].shown = true;
    }
}

/// The score of a game from its highlights (see the `*_SCORE` constants). All-ins and
/// knockouts add nothing: every game has them.
pub fn score(highlights: &[Highlight]) -> u32 {
    let mut big_pots = 0;
    let mut total = 0;
    for highlight in highlights {
        match highlight {
            Highlight::BigPot { .. } => big_pots += 1,
            Highlight::Banned { .. } => total += BAN_SCORE,
            Highlight::FirstWin { .. } => total += FIRST_WIN_SCORE,
            Highlight::TakesLead { .. } => total += LEAD_CHANGE_SCORE,
            Highlight::AllIn { .. } | Highlight::Knockout { .. } => {}
        }
    }
    total + BIG_POT_SCORE * big_pots.min(MAX_SCORED_HANDS)
}
