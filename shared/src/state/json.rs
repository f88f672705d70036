//! The compact JSON text of a [`GameState`], written directly: the same bytes as serde_json
//! writes from the derived `Serialize` (which stays the definition; `shared/tests/state_properties.rs`
//! compares the two over arbitrary documents, odd names included).
//!
//! A dealer writes a `game_state` about three times per request (the request's body and two
//! viewer-log entries on average), and serde_json escapes every key and every card name byte by
//! byte: that was a third of the dealer's instructions per request. Here keys and card names
//! are constant text and a string is escaped only when it holds a byte that needs it.

use super::{GameState, PlayerState};
use crate::card::Card;
use serde_json::ser::{CompactFormatter, Formatter};

/// Appends the document's compact JSON text, in live key order, to `out`.
pub(super) fn write_game_state(state: &GameState, out: &mut Vec<u8>) {
    out.reserve(256 + 192 * state.players.len());
    // Every field after the first is preceded by a comma; the first three may be absent.
    let mut separator = b'{';
    let mut key = |out: &mut Vec<u8>, key: &[u8]| {
        out.push(separator);
        separator = b',';
        out.extend_from_slice(key);
    };
    if let Some(id) = &state.tournament_id {
        key(out, b"\"tournament_id\":");
        push_string(out, id);
    }
    if let Some(id) = &state.game_id {
        key(out, b"\"game_id\":");
        push_string(out, id);
    }
    if let Some(round) = state.round {
        key(out, b"\"round\":");
        push_u64(out, round);
    }
    key(out, b"\"players\":[");
    for (index, player) in state.players.iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        write_player(player, out);
    }
    out.extend_from_slice(b"],\"small_blind\":");
    push_u64(out, state.small_blind.get());
    if let Some(big_blind) = state.big_blind {
        out.extend_from_slice(b",\"big_blind\":");
        push_u64(out, big_blind.get());
    }
    out.extend_from_slice(b",\"orbits\":");
    push_u64(out, state.orbits);
    out.extend_from_slice(b",\"dealer\":");
    push_u64(out, state.dealer.0 as u64);
    out.extend_from_slice(b",\"community_cards\":");
    push_cards(out, &state.community_cards);
    out.extend_from_slice(b",\"current_buy_in\":");
    push_u64(out, state.current_buy_in.get());
    out.extend_from_slice(b",\"pot\":");
    push_u64(out, state.pot.get());
    if let Some(seat) = state.in_action {
        out.extend_from_slice(b",\"in_action\":");
        push_u64(out, seat.0 as u64);
    }
    if let Some(minimum_raise) = state.minimum_raise {
        out.extend_from_slice(b",\"minimum_raise\":");
        push_u64(out, minimum_raise.get());
    }
    if let Some(bet_index) = state.bet_index {
        out.extend_from_slice(b",\"bet_index\":");
        push_u64(out, bet_index);
    }
    out.push(b'}');
}

fn write_player(player: &PlayerState, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"name\":");
    push_string(out, &player.name);
    out.extend_from_slice(b",\"stack\":");
    push_u64(out, player.stack.get());
    out.extend_from_slice(b",\"status\":\"");
    out.extend_from_slice(player.status.as_str().as_bytes());
    out.extend_from_slice(b"\",\"bet\":");
    push_u64(out, player.bet.get());
    if let Some(cards) = &player.hole_cards {
        out.extend_from_slice(b",\"hole_cards\":");
        push_cards(out, cards);
    }
    if let Some(time_used) = player.time_used {
        out.extend_from_slice(b",\"time_used\":");
        push_u64(out, time_used);
    }
    out.extend_from_slice(b",\"version\":");
    push_string(out, &player.version);
    if let Some(amount_won) = player.amount_won {
        out.extend_from_slice(b",\"amount_won\":");
        push_u64(out, amount_won.get());
    }
    out.extend_from_slice(b",\"id\":");
    push_u64(out, player.id.0 as u64);
    out.push(b'}');
}

fn push_cards(out: &mut Vec<u8>, cards: &[Card]) {
    out.push(b'[');
    for (index, card) in cards.iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        // Rank and suit names are plain ASCII words: nothing to escape.
        out.extend_from_slice(b"{\"rank\":\"");
        out.extend_from_slice(card.rank.as_wire().as_bytes());
        out.extend_from_slice(b"\",\"suit\":\"");
        out.extend_from_slice(card.suit.as_wire().as_bytes());
        out.extend_from_slice(b"\"}");
    }
    out.push(b']');
}

fn push_u64(out: &mut Vec<u8>, value: u64) {
    // Writing into a Vec cannot fail; serde_json's own integer formatting (itoa).
    let _ = CompactFormatter.write_u64(out, value);
}

/// A JSON string as serde_json writes it: `"` and `\` escaped, control characters as `\b`,
/// `\t`, `\n`, `\f`, `\r` or `\u00XX` (lower-case hex), everything else (DEL and non-ASCII
/// included) as it is.
fn push_string(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    let bytes = text.as_bytes();
    if !bytes.iter().any(|&byte| needs_escape(byte)) {
        out.extend_from_slice(bytes);
    } else {
        let mut start = 0;
        for (index, &byte) in bytes.iter().enumerate() {
            if !needs_escape(byte) {
                continue;
            }
            out.extend_from_slice(&bytes[start..index]);
            start = index + 1;
            match byte {
                b'"' => out.extend_from_slice(b"\\\""),
                b'\\' => out.extend_from_slice(b"\\\\"),
                0x08 => out.extend_from_slice(b"\\b"),
                b'\t' => out.extend_from_slice(b"\\t"),
                b'\n' => out.extend_from_slice(b"\\n"),
                0x0c => out.extend_from_slice(b"\\f"),
                b'\r' => out.extend_from_slice(b"\\r"),
                _ => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    out.extend_from_slice(b"\\u00");
                    out.push(HEX[usize::from(byte >> 4)]);
                    out.push(HEX[usize::from(byte & 0x0f)]);
                }
            }
        }
        out.extend_from_slice(&bytes[start..]);
    }
    out.push(b'"');
}

const fn needs_escape(byte: u8) -> bool {
    byte < 0x20 || byte == b'"' || byte == b'\\'
}
