//! Decisions read from a Lean Poker viewer log (`log.json`, spec §8): each entry shows the table
//! after something happened, with every player's cards. The state a player was asked in is the
//! entry before its `bet` entry (its own cards kept, the others hidden, a fold logged just
//! before applied: the log shows a fold one entry late, `minimum_raise` replayed from the
//! hand's raises), and its answer is the chips its bet grew by. The two blinds that open a hand
//! and bans are not decisions.

use player::{Chips, GameState, PlayerStatus};
use shared::records::{EntryKind, ViewerLogEntry};
use std::collections::BTreeMap;

/// Decisions: the player's name, the state it was asked in, the chips it answered.
pub(super) type Decisions = Vec<(String, GameState, Chips)>;

/// The hands each player was dealt into, and every decision of the log.
pub(super) fn decisions(text: &str) -> Result<(BTreeMap<String, u64>, Decisions), String> {
    let entries: Vec<ViewerLogEntry<GameState>> =
        serde_json::from_str(text).map_err(|e| format!("not a viewer log: {e}"))?;
    let mut hands: BTreeMap<String, u64> = BTreeMap::new();
    let mut decisions = Vec::new();
    let mut blinds_left = 0;
    let mut minimum_raise = Chips::ZERO;
    let mut board_cards = 0;
    for (index, entry) in entries.iter().enumerate() {
        match entry.kind {
            None => {
                blinds_left = 2;
                minimum_raise = entry.game_state.small_blind;
                board_cards = 0;
                for player in &entry.game_state.players {
                    if player.status != PlayerStatus::Out {
                        *hands.entry(player.name.clone()).or_default() += 1;
                    }
                }
                continue;
            }
            Some(EntryKind::CardDeal) => {
                if entry.game_state.community_cards.len() != board_cards {
                    board_cards = entry.game_state.community_cards.len();
                    minimum_raise = entry.game_state.big_blind();
                }
                continue;
            }
            Some(EntryKind::Bet) => {}
            Some(_) => continue,
        }
        let (Some(seat), Some(previous)) = (entry.on_turn, index.checked_sub(1)) else {
            continue;
        };
        let previous = &entries[previous];
        if blinds_left > 0 {
            blinds_left -= 1;
            continue;
        }
        let raised_by = entry
            .game_state
            .current_buy_in
            .saturating_sub(previous.game_state.current_buy_in);
        let asked_minimum = minimum_raise;
        minimum_raise = minimum_raise.max(raised_by);
        if entry
            .message
            .as_deref()
            .is_some_and(|m| m.contains("banned"))
        {
            continue;
        }
        let (Some(before), Some(after)) = (
            previous.game_state.players.get(seat.index()),
            entry.game_state.players.get(seat.index()),
        ) else {
            continue;
        };
        let answer = after.bet.saturating_sub(before.bet);
        let mut state = previous.game_state.clone();
        if previous.kind == Some(EntryKind::Bet)
            && previous
                .message
                .as_deref()
                .is_some_and(|m| m.contains("(fold)"))
        {
            if let Some(folded) = previous
                .on_turn
                .and_then(|s| state.players.get_mut(s.index()))
            {
                if folded.status == PlayerStatus::Active {
                    folded.status = PlayerStatus::Folded;
                }
            }
        }
        for (position, player) in state.players.iter_mut().enumerate() {
            if position != seat.index() {
                player.hole_cards = None;
            }
        }
        state.in_action = Some(seat);
        state.minimum_raise = Some(asked_minimum);
        decisions.push((before.name.clone(), state, answer));
    }
    Ok((hands, decisions))
}
