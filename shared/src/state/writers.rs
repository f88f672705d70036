//! Writers of many documents of one table in a row ([`JsonWriter`], [`FormWriter`]): each
//! keeps the text of the players it last wrote and copies it while they do not change.

use super::json;
use super::GameState;

/// Writes documents as compact JSON (the bytes of [`GameState::write_json`]) for a writer
/// that writes many documents of one table in a row, reusing the text of every player who did
/// not change since its last document: in the viewer log, five in six players are the same
/// from one entry to the next, and a player's text is most of a document.
#[derive(Debug, Clone, Default)]
pub struct JsonWriter {
    written: Vec<json::WrittenPlayer>,
}

impl JsonWriter {
    /// A writer that has written nothing yet.
    pub fn new() -> JsonWriter {
        JsonWriter::default()
    }

    /// Appends `state`'s compact JSON text to `out`.
    ///
    /// ```
    /// let mut state = shared::testing_state();
    /// let mut writer = shared::state::JsonWriter::new();
    /// let mut text = Vec::new();
    /// writer.write(&state, &mut text);
    /// state.players[1].stack = shared::Chips(7);
    /// writer.write(&state, &mut text);
    /// let mut expected = shared::testing_state().to_json().into_bytes();
    /// expected.extend_from_slice(state.to_json().as_bytes());
    /// assert_eq!(text, expected);
    /// ```
    pub fn write(&mut self, state: &GameState, out: &mut Vec<u8>) {
        json::write_game_state_reusing::<json::AsJson>(state, &mut self.written, out);
    }
}

/// Like [`JsonWriter`], for the form-encoded text ([`GameState::write_form_encoded`]): from
/// one bet request of a game to the next, only the player who just acted and the two whose
/// hole cards are shown or hidden change.
#[derive(Debug, Clone, Default)]
pub struct FormWriter {
    written: Vec<json::WrittenPlayer>,
}

impl FormWriter {
    /// A writer that has written nothing yet.
    pub fn new() -> FormWriter {
        FormWriter::default()
    }

    /// Appends the form encoding of `state`'s compact JSON text to `out`.
    ///
    /// ```
    /// let mut state = shared::testing_state();
    /// let mut writer = shared::state::FormWriter::new();
    /// let (mut reused, mut fresh) = (Vec::new(), Vec::new());
    /// for stack in [5, 7] {
    ///     state.players[1].stack = shared::Chips(stack);
    ///     writer.write(&state, &mut reused);
    ///     state.write_form_encoded(&mut fresh);
    /// }
    /// assert_eq!(reused, fresh);
    /// ```
    pub fn write(&mut self, state: &GameState, out: &mut Vec<u8>) {
        json::write_game_state_reusing::<json::AsForm>(state, &mut self.written, out);
    }
}
