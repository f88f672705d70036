//! The compact JSON text of a [`GameState`], written directly: the same bytes as serde_json
//! writes from the derived `Serialize` (which stays the definition; `shared/tests/state_properties.rs`
//! compares the two over arbitrary documents, odd names included).
//!
//! A dealer writes a `game_state` about three times per request (the request's body and two
//! viewer-log entries on average), and serde_json escapes every key and every card name byte by
//! byte: that was a third of the dealer's instructions per request. Here keys and card names
//! are constant text and a string is escaped only when it holds a byte that needs it.
//!
//! The same writer also writes the document straight as a form-encoded value (the request
//! body's `game_state`), the bytes of form-encoding the JSON text: every fixed piece of text is
//! spelled both ways at compile time ([`fixed!`]), numbers, card names and statuses are the same
//! in both, and only strings (names, versions, ids) are encoded at run time. Writing the JSON and
//! then encoding it cost the dealer a third of its instructions per request.

use super::form_text::{form_encoded, form_encoded_len, push_form_encoded_bytes};
use super::{GameState, PlayerState};
use crate::card::Card;
use serde_json::ser::{CompactFormatter, Formatter};

/// A fixed piece of document text, as JSON and form-encoded.
pub(super) struct Fixed {
    json: &'static [u8],
    form: &'static [u8],
}

/// A [`Fixed`] text, both spellings made at compile time.
macro_rules! fixed {
    ($text:literal) => {{
        const JSON: &[u8] = $text.as_bytes();
        const FORM: [u8; form_encoded_len(JSON)] = form_encoded(JSON);
        const FIXED: Fixed = Fixed {
            json: JSON,
            form: &FORM,
        };
        &FIXED
    }};
}

/// Where a document's text goes: as JSON ([`Json`]) or form-encoded ([`Form`]). The methods
/// are inlined into the writer, where each fixed text's length is a constant: short copies
/// become a few moves instead of a call to `memcpy` each.
pub(super) trait DocumentText {
    /// The text written so far.
    fn out(&mut self) -> &mut Vec<u8>;
    /// Appends fixed text (keys, punctuation).
    fn fixed(&mut self, text: &Fixed);
    /// Appends a JSON string, quoted and escaped.
    fn string(&mut self, text: &str);
    /// Appends ASCII letters and digits (numbers, card names, statuses): the same both ways.
    #[inline(always)]
    fn plain(&mut self, text: &[u8]) {
        self.out().extend_from_slice(text);
    }
    /// Appends a number in digits (the same both ways).
    #[inline(always)]
    fn number(&mut self, value: u64) {
        push_u64(self.out(), value);
    }
    /// Appends text already in this spelling.
    #[inline(always)]
    fn spelled(&mut self, text: &[u8]) {
        self.out().extend_from_slice(text);
    }
}

/// The JSON text itself.
pub(super) struct Json<'a>(pub(super) &'a mut Vec<u8>);

/// The JSON text form-encoded.
pub(super) struct Form<'a>(pub(super) &'a mut Vec<u8>);

impl DocumentText for Json<'_> {
    #[inline(always)]
    fn out(&mut self) -> &mut Vec<u8> {
        self.0
    }
    #[inline(always)]
    fn fixed(&mut self, text: &Fixed) {
        self.0.extend_from_slice(text.json);
    }
    #[inline(always)]
    fn string(&mut self, text: &str) {
        push_string(self.0, text);
    }
}

impl DocumentText for Form<'_> {
    #[inline(always)]
    fn out(&mut self) -> &mut Vec<u8> {
        self.0
    }
    #[inline(always)]
    fn fixed(&mut self, text: &Fixed) {
        self.0.extend_from_slice(text.form);
    }
    #[inline(always)]
    fn string(&mut self, text: &str) {
        if needs_no_escape(text.as_bytes()) {
            self.0.extend_from_slice(b"%22");
            push_form_encoded_bytes(self.0, text.as_bytes());
            self.0.extend_from_slice(b"%22");
        } else {
            let mut json = Vec::with_capacity(text.len() + 8);
            push_string(&mut json, text);
            push_form_encoded_bytes(self.0, &json);
        }
    }
}

/// Appends the document's compact JSON text, in live key order, to `out`.
pub(super) fn write_game_state_json(state: &GameState, out: &mut Vec<u8>) {
    out.reserve(256 + 192 * state.players.len());
    write_game_state(state, &mut Json(out), write_player);
}

/// Appends the form encoding of the document's compact JSON text to `out`.
pub(super) fn write_game_state_form(state: &GameState, out: &mut Vec<u8>) {
    out.reserve(512 + 320 * state.players.len());
    write_game_state(state, &mut Form(out), write_player);
}

/// One of the two spellings of a document: [`Json`] or [`Form`].
pub(super) trait Spelling {
    /// The text written in this spelling into `out`.
    type Text<'a>: DocumentText;
    /// Writes into `out`.
    fn text(out: &mut Vec<u8>) -> Self::Text<'_>;
}

/// The JSON spelling.
pub(super) struct AsJson;
/// The form-encoded spelling.
pub(super) struct AsForm;

impl Spelling for AsJson {
    type Text<'a> = Json<'a>;
    fn text(out: &mut Vec<u8>) -> Json<'_> {
        Json(out)
    }
}

impl Spelling for AsForm {
    type Text<'a> = Form<'a>;
    fn text(out: &mut Vec<u8>) -> Form<'_> {
        Form(out)
    }
}

/// The text of one player as last written by a reusing writer
/// ([`JsonWriter`](super::JsonWriter), [`FormWriter`](super::FormWriter)), with the player it
/// was written from.
#[derive(Debug, Clone)]
pub(super) struct WrittenPlayer {
    player: PlayerState,
    text: Vec<u8>,
}

/// Appends the document's text in `Spell`ing to `out`, copying the text of every player equal
/// to the one written at the same index last time from `written`, and keeping the others'.
pub(super) fn write_game_state_reusing<Spell: Spelling>(
    state: &GameState,
    written: &mut Vec<WrittenPlayer>,
    out: &mut Vec<u8>,
) {
    out.reserve(512 + 320 * state.players.len());
    written.truncate(state.players.len());
    let mut index = 0;
    write_game_state(state, &mut Spell::text(out), |player, out| {
        match written.get_mut(index) {
            Some(kept) if kept.player == *player => {}
            Some(kept) => {
                copy_player(&mut kept.player, player);
                kept.text.clear();
                write_player(player, &mut Spell::text(&mut kept.text));
            }
            None => {
                let mut text = Vec::with_capacity(320);
                write_player(player, &mut Spell::text(&mut text));
                written.push(WrittenPlayer {
                    player: player.clone(),
                    text,
                });
            }
        }
        if let Some(kept) = written.get(index) {
            out.spelled(&kept.text);
        }
        index += 1;
    });
}

/// Makes `into` equal to `from`, reusing its strings' and cards' memory (a derived
/// `clone_from` clones whole and frees the old: two allocations and frees per changed player).
/// Every field is named, so a new field is a compile error here until it is copied too.
fn copy_player(into: &mut PlayerState, from: &PlayerState) {
    let PlayerState {
        name,
        stack,
        status,
        bet,
        hole_cards,
        time_used,
        version,
        amount_won,
        id,
    } = from;
    into.name.clone_from(name);
    into.stack = *stack;
    into.status = *status;
    into.bet = *bet;
    into.hole_cards.clone_from(hole_cards);
    into.time_used = *time_used;
    into.version.clone_from(version);
    into.amount_won = *amount_won;
    into.id = *id;
}

fn write_game_state<Text: DocumentText>(
    state: &GameState,
    out: &mut Text,
    mut write_player: impl FnMut(&PlayerState, &mut Text),
) {
    // Every field after the first is preceded by a comma; the first three may be absent.
    let mut first = true;
    let mut key = |opening: &'static Fixed, later: &'static Fixed| {
        let text = if first { opening } else { later };
        first = false;
        text
    };
    if let Some(id) = &state.tournament_id {
        out.fixed(key(
            fixed!("{\"tournament_id\":"),
            fixed!(",\"tournament_id\":"),
        ));
        out.string(id);
    }
    if let Some(id) = &state.game_id {
        out.fixed(key(fixed!("{\"game_id\":"), fixed!(",\"game_id\":")));
        out.string(id);
    }
    if let Some(round) = state.round {
        out.fixed(key(fixed!("{\"round\":"), fixed!(",\"round\":")));
        out.number(round);
    }
    out.fixed(key(fixed!("{\"players\":["), fixed!(",\"players\":[")));
    for (index, player) in state.players.iter().enumerate() {
        if index > 0 {
            out.fixed(fixed!(","));
        }
        write_player(player, out);
    }
    out.fixed(fixed!("],\"small_blind\":"));
    out.number(state.small_blind.get());
    if let Some(big_blind) = state.big_blind {
        out.fixed(fixed!(",\"big_blind\":"));
        out.number(big_blind.get());
    }
    out.fixed(fixed!(",\"orbits\":"));
    out.number(state.orbits);
    out.fixed(fixed!(",\"dealer\":"));
    out.number(state.dealer.0 as u64);
    out.fixed(fixed!(",\"community_cards\":"));
    push_cards(out, &state.community_cards);
    out.fixed(fixed!(",\"current_buy_in\":"));
    out.number(state.current_buy_in.get());
    out.fixed(fixed!(",\"pot\":"));
    out.number(state.pot.get());
    if let Some(seat) = state.in_action {
        out.fixed(fixed!(",\"in_action\":"));
        out.number(seat.0 as u64);
    }
    if let Some(minimum_raise) = state.minimum_raise {
        out.fixed(fixed!(",\"minimum_raise\":"));
        out.number(minimum_raise.get());
    }
    if let Some(bet_index) = state.bet_index {
        out.fixed(fixed!(",\"bet_index\":"));
        out.number(bet_index);
    }
    out.fixed(fixed!("}"));
}

fn write_player<Text: DocumentText>(player: &PlayerState, out: &mut Text) {
    out.fixed(fixed!("{\"name\":"));
    out.string(&player.name);
    out.fixed(fixed!(",\"stack\":"));
    out.number(player.stack.get());
    out.fixed(fixed!(",\"status\":\""));
    // Statuses are lower-case ASCII words: nothing to escape or encode.
    out.plain(player.status.as_str().as_bytes());
    out.fixed(fixed!("\",\"bet\":"));
    out.number(player.bet.get());
    if let Some(cards) = &player.hole_cards {
        out.fixed(fixed!(",\"hole_cards\":"));
        push_cards(out, cards);
    }
    if let Some(time_used) = player.time_used {
        out.fixed(fixed!(",\"time_used\":"));
        out.number(time_used);
    }
    out.fixed(fixed!(",\"version\":"));
    out.string(&player.version);
    if let Some(amount_won) = player.amount_won {
        out.fixed(fixed!(",\"amount_won\":"));
        out.number(amount_won.get());
    }
    out.fixed(fixed!(",\"id\":"));
    out.number(player.id.0 as u64);
    out.fixed(fixed!("}"));
}

fn push_cards(out: &mut impl DocumentText, cards: &[Card]) {
    out.fixed(fixed!("["));
    for (index, card) in cards.iter().enumerate() {
        if index > 0 {
            out.fixed(fixed!(","));
        }
        // Rank and suit names are ASCII letters and digits: nothing to escape or encode.
        out.fixed(fixed!("{\"rank\":\""));
        out.plain(card.rank.as_wire().as_bytes());
        out.fixed(fixed!("\",\"suit\":\""));
        out.plain(card.suit.as_wire().as_bytes());
        out.fixed(fixed!("\"}"));
    }
    out.fixed(fixed!("]"));
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
    if needs_no_escape(bytes) {
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

/// Whether no byte of `bytes` needs escaping. Every byte is looked at (no early exit), which
/// lets the compiler test 16 at a time: names and versions are almost never escaped.
fn needs_no_escape(bytes: &[u8]) -> bool {
    !bytes
        .iter()
        .fold(false, |any, &byte| any | needs_escape(byte))
}

const fn needs_escape(byte: u8) -> bool {
    byte < 0x20 || byte == b'"' || byte == b'\\'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copied_player_equals_its_source_whatever_it_held() {
        let state = crate::testing_state();
        let mut players = state.players.clone();
        let mut odd = players[0].clone();
        odd.hole_cards = None;
        odd.time_used = None;
        odd.amount_won = Some(crate::Chips(9));
        odd.name = "a much longer name than before".into();
        players.push(odd);
        for from in &players {
            for into in &players {
                let mut copy = into.clone();
                copy_player(&mut copy, from);
                assert_eq!(&copy, from);
            }
        }
    }
}
