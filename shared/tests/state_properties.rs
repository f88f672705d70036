//! Property tests: the game_state helpers take whatever a dealer (or a hand-written test state)
//! puts in a document, numbers at the edges of `u64` included, without panicking, and their
//! answers keep the promises their docs make.
//!
//! The documents here are deliberately inconsistent (a bet larger than the pot, `in_action`
//! past the last seat, the same card twice): a player must still answer such a request.

use proptest::prelude::*;
use shared::rules::BetAction;
use shared::{Chips, GameState, Seat};

use crate::support;
use support::arbitrary_state::{chips, playable_state, state};

/// The document with every chip count cut to what a dealer deals (under a million): sums of
/// `u64`-edge numbers saturate in the bet reading, where no answer moves every chip it names.
fn dealer_sized(mut state: GameState) -> GameState {
    let cut = |chips: Chips| Chips(chips.get() % 1_000_000);
    for player in &mut state.players {
        player.stack = cut(player.stack);
        player.bet = cut(player.bet);
    }
    state.current_buy_in = cut(state.current_buy_in);
    state.minimum_raise = state.minimum_raise.map(cut);
    state.pot = cut(state.pot);
    state
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn helpers_answer_any_document_without_panicking(
        state in prop_oneof![state(), playable_state()],
        answer in chips()
    ) {
        let me = state.me().cloned();
        if let Some(seat) = state.in_action() {
            prop_assert!(seat.index() < state.players.len());
        }
        let _ = (state.my_cards(), state.big_blind(), state.minimum_raise(), state.street());
        let stack = me.as_ref().map_or(Chips::ZERO, |p| p.stack);

        // The helpers' answers never ask for more than the stack (when there is a receiver).
        let call = state.call_amount();
        let raise = state.minimum_raise_amount();
        let all_in = state.all_in_amount();
        let raise_to = state.raise_to_amount(answer);
        if me.is_some() {
            for amount in [call, raise, all_in, raise_to] {
                prop_assert!(amount <= stack, "{amount} > stack {stack}");
            }
            prop_assert_eq!(all_in, stack);
        }

        // Reading any answer: at most the stack moves, and the reading is one of the five.
        for amount in [answer, call, raise, all_in, raise_to, Chips(0), Chips(u64::MAX)] {
            let reading = state.read_bet(amount);
            let context = state.bet_context();
            prop_assert!(reading.put_in <= context.stack);
            let _ = (reading.new_bet(&context), reading.new_current_buy_in(&context));
            if reading.action == BetAction::Fold || reading.action == BetAction::Check {
                prop_assert_eq!(reading.put_in, Chips::ZERO);
            }
        }

        let _ = state.active_opponents().count();
        let _ = state.players_with_chips().count();
        for index in 0..state.players.len() + 2 {
            if let Some(position) = state.position(Seat(index)) {
                prop_assert!(position < state.players.len());
            }
        }
        if let Some(odds) = state.pot_odds() {
            prop_assert!((0.0..=1.0).contains(&odds), "pot odds {odds}");
        }
        for player in &state.players {
            let _ = (player.is_active(), player.can_act(), player.is_all_in(), player.total_chips());
        }
        let _ = state.validate();
    }

    /// `raise_to` always answers a raise the dealer reads as one (every chip counted), or the
    /// exact all-in when the stack cannot raise or cannot reach the total asked; it says so
    /// exactly when it moved the total.
    #[test]
    fn raise_to_is_always_a_legal_raise_or_the_all_in(
        state in playable_state().prop_map(dealer_sized),
        total in 0..2_000_000u64,
    ) {
        let total = Chips(total);
        let Some(me) = state.me().cloned() else { return Ok(()); };
        if me.stack.is_zero() {
            return Ok(());
        }
        let raise = state.raise_to(total);
        let reading = state.read_bet(raise.answer);
        prop_assert_eq!(reading.put_in, raise.answer, "every chip of the answer counts");
        prop_assert!(matches!(reading.action, BetAction::Raise | BetAction::AllIn), "{reading:?}");
        let asked = total.saturating_sub(me.bet);
        prop_assert_eq!(raise.clamped.is_none(), raise.answer == asked);
        if raise.clamped == Some(shared::state::Clamp::ToAllIn) {
            prop_assert_eq!(raise.answer, me.stack);
        }
    }

    /// Whatever the numbers, a document survives serialising and parsing unchanged.
    #[test]
    fn any_document_round_trips(state in state()) {
        let json = state.to_json();
        let parsed = GameState::from_json(&json);
        prop_assert!(parsed.is_ok(), "{json}: {parsed:?}");
        prop_assert_eq!(parsed.unwrap(), state);
    }

    /// The direct JSON writer gives serde_json's bytes from the derived `Serialize`, for any
    /// document and any text in its strings (quotes, backslashes, control characters, DEL,
    /// any Unicode), optional fields absent or present; the direct form-encoded writer gives
    /// the form encoding of those bytes.
    #[test]
    fn direct_writers_give_serde_json_bytes_and_their_form_encoding(
        mut state in state(),
        texts in proptest::collection::vec(any_text(), 24),
        drop_ids in any::<(bool, bool)>(),
    ) {
        let mut texts = texts.into_iter().cycle();
        state.tournament_id = (!drop_ids.0).then(|| texts.next().unwrap_or_default());
        state.game_id = (!drop_ids.1).then(|| texts.next().unwrap_or_default());
        for player in &mut state.players {
            player.name = texts.next().unwrap_or_default();
            player.version = texts.next().unwrap_or_default();
        }
        let mut written = Vec::new();
        state.write_json(&mut written);
        let expected = serde_json::to_vec(&state).unwrap();
        prop_assert_eq!(String::from_utf8_lossy(&written), String::from_utf8_lossy(&expected));

        // Written straight form-encoded: the bytes of form-encoding that JSON text (the
        // `form_urlencoded` crate is the reference), after whatever the buffer held.
        let mut form = b"action=bet_request&game_state=".to_vec();
        state.write_form_encoded(&mut form);
        let reference: String = form_urlencoded::byte_serialize(&expected).collect();
        prop_assert_eq!(
            String::from_utf8_lossy(&form),
            format!("action=bet_request&game_state={reference}")
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// A `JsonWriter` (`FormWriter`) that reuses the text of unchanged players writes,
    /// document after document, exactly what `write_json` (`write_form_encoded`) writes: for
    /// unrelated documents, for the same one again, and for one with a single player changed
    /// (fewer or more players included).
    #[test]
    fn reusing_writers_write_what_the_plain_writers_write(
        states in proptest::collection::vec(state(), 1..4),
        changes in proptest::collection::vec((any::<usize>(), any::<u64>(), any_text()), 1..6),
    ) {
        let mut sequence = Vec::new();
        for state in states {
            sequence.push(state.clone());
            let mut changed = state;
            for (index, stack, name) in &changes {
                if changed.players.is_empty() {
                    break;
                }
                let player = index % changed.players.len();
                match index % 4 {
                    0 => changed.players[player].stack = Chips(*stack),
                    1 => changed.players[player].name = name.clone(),
                    2 => changed.players[player].hole_cards = None,
                    _ => changed.players.truncate(player),
                }
                sequence.push(changed.clone());
                sequence.push(changed.clone());
            }
        }
        let mut json = shared::state::JsonWriter::new();
        let mut form = shared::state::FormWriter::new();
        for state in &sequence {
            let mut reused = b"{".to_vec();
            json.write(state, &mut reused);
            let mut fresh = b"{".to_vec();
            state.write_json(&mut fresh);
            prop_assert_eq!(String::from_utf8_lossy(&reused), String::from_utf8_lossy(&fresh));
            let mut reused = b"x=".to_vec();
            form.write(state, &mut reused);
            let mut fresh = b"x=".to_vec();
            state.write_form_encoded(&mut fresh);
            prop_assert_eq!(String::from_utf8_lossy(&reused), String::from_utf8_lossy(&fresh));
        }
    }
}

/// Any text: every `char` (control characters and quotes included), sometimes only the ones
/// JSON escapes.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::collection::vec(any::<char>(), 0..10).prop_map(String::from_iter),
        proptest::collection::vec(
            prop_oneof![
                Just('"'),
                Just('\\'),
                (0u8..0x20).prop_map(char::from),
                Just('\u{7f}'),
                Just('a'),
                Just('é')
            ],
            0..10
        )
        .prop_map(String::from_iter),
    ]
}
