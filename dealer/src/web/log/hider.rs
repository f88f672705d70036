//! [`CardHider`]: hole cards hidden as a live table hides them.

use super::{HandStart, LogEntry};
use std::collections::BTreeSet;

/// Hides hole cards as a live table would: a player's cards are shown only from the
/// showdown entry where they showed them until the end of that hand. Fed every entry in
/// order (it remembers who showed in the hand in progress).
#[derive(Debug, Clone, Default)]
pub struct CardHider {
    /// Seats that showed their cards in the current hand.
    shown: BTreeSet<usize>,
}

impl CardHider {
    /// A hider at the start of a log.
    pub fn new() -> CardHider {
        CardHider::default()
    }

    /// Hides the cards not shown yet in `entry`; `starts_hand` says it opens a hand.
    pub fn hide(&mut self, entry: &mut LogEntry, starts_hand: bool) {
        if starts_hand {
            self.shown.clear();
        }
        if let Some(message) = entry.message.as_deref() {
            // `NAME showed ...` (both our writer and the open-source croupier's); the longest
            // name that fits, in case one name is the start of another.
            let showed = entry
                .game_state
                .players
                .iter()
                .enumerate()
                .filter(|(_, player)| {
                    message
                        .strip_prefix(player.name.as_str())
                        .is_some_and(|rest| rest.starts_with(" showed "))
                })
                .max_by_key(|(_, player)| player.name.len())
                .map(|(seat, _)| seat);
            if let Some(seat) = showed {
                self.shown.insert(seat);
            }
        }
        for (seat, player) in entry.game_state.players.iter_mut().enumerate() {
            if !self.shown.contains(&seat) {
                player.hole_cards.clear();
            }
        }
    }

    /// Hides the cards of a chunk's entries (fed in order, chunk after chunk).
    pub fn hide_chunk(&mut self, entries: &mut [LogEntry], first: usize, hands: &[HandStart]) {
        for (offset, entry) in entries.iter_mut().enumerate() {
            let index = first + offset;
            let starts = hands.iter().any(|hand| hand.entry == index);
            self.hide(entry, starts);
        }
    }
}
