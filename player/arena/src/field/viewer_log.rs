//! Decisions read from a Lean Poker viewer log (`log.json`, spec §8): the state each player was
//! asked in, rebuilt by the one rule of the format ([`shared::records::asked_states`]), and its
//! answer, the chips its bet grew by. Bans are not decisions.

use player::{Chips, GameState, PlayerStatus};
use shared::records::{asked_states, EntryKind, ViewerLogEntry};
use std::collections::BTreeMap;

/// Decisions: the player's name, the state it was asked in, the chips it answered.
pub(super) type Decisions = Vec<(String, GameState, Chips)>;

/// The hands each player was dealt into, and every decision of the log.
pub(super) fn decisions(text: &str) -> Result<(BTreeMap<String, u64>, Decisions), String> {
    let entries: Vec<ViewerLogEntry<GameState>> =
        serde_json::from_str(text).map_err(|e| format!("not a viewer log: {e}"))?;
    let mut hands: BTreeMap<String, u64> = BTreeMap::new();
    for entry in entries.iter().filter(|entry| entry.kind.is_none()) {
        for player in &entry.game_state.players {
            if player.status != PlayerStatus::Out {
                *hands.entry(player.name.clone()).or_default() += 1;
            }
        }
    }
    let mut decisions = Vec::new();
    for (index, state) in asked_states(&entries).into_iter().enumerate() {
        let (Some(state), Some(seat)) = (state, entries[index].on_turn) else {
            continue;
        };
        let entry = &entries[index];
        if entry.kind != Some(EntryKind::Bet)
            || entry
                .message
                .as_deref()
                .is_some_and(|m| m.contains("banned"))
        {
            continue;
        }
        let (Some(before), Some(after)) = (
            state.players.get(seat.index()),
            entry.game_state.players.get(seat.index()),
        ) else {
            continue;
        };
        let answer = after.bet.saturating_sub(before.bet);
        decisions.push((before.name.clone(), state, answer));
    }
    Ok((hands, decisions))
}
