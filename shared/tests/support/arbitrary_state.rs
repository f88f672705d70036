//! Arbitrary game_state documents for property tests: mostly game-sized numbers, sometimes
//! numbers at the limits of `u64`, seats past the table, repeated cards, missing fields.
//! Shared by `shared/tests/state_properties.rs` and the example bots' tests (by `#[path]`).

use proptest::prelude::*;
use shared::{Card, Chips, GameState, PlayerState, PlayerStatus, Seat};

/// Chip amounts: mostly game-sized, sometimes at the limits of `u64`.
pub fn chips() -> impl Strategy<Value = Chips> {
    prop_oneof![
        4 => (0u64..3_000).prop_map(Chips),
        1 => Just(Chips(0)),
        1 => Just(Chips(u64::MAX)),
        1 => (u64::MAX / 2 - 2..=u64::MAX / 2 + 2).prop_map(Chips),
        1 => any::<u64>().prop_map(Chips),
    ]
}

pub fn seat() -> impl Strategy<Value = Seat> {
    prop_oneof![
        4 => (0usize..12).prop_map(Seat),
        1 => any::<usize>().prop_map(Seat),
    ]
}

pub fn card() -> impl Strategy<Value = Card> {
    let deck: Vec<Card> = Card::deck().collect();
    proptest::sample::select(deck)
}

pub fn status() -> impl Strategy<Value = PlayerStatus> {
    prop_oneof![
        Just(PlayerStatus::Active),
        Just(PlayerStatus::Folded),
        Just(PlayerStatus::Out)
    ]
}

pub fn player() -> impl Strategy<Value = PlayerState> {
    (
        "[A-Za-z ]{0,8}",
        chips(),
        status(),
        chips(),
        proptest::option::of(proptest::collection::vec(card(), 0..3)),
        proptest::option::of(any::<u64>()),
        proptest::option::of(chips()),
        seat(),
    )
        .prop_map(
            |(name, stack, status, bet, hole_cards, time_used, amount_won, id)| PlayerState {
                name,
                stack,
                status,
                bet,
                hole_cards,
                time_used,
                version: "v".to_string(),
                amount_won,
                id,
            },
        )
}

pub fn state() -> impl Strategy<Value = GameState> {
    (
        proptest::collection::vec(player(), 0..11),
        chips(),
        proptest::option::of(chips()),
        any::<u64>(),
        seat(),
        proptest::collection::vec(card(), 0..6),
        (chips(), chips()),
        (
            proptest::option::of(seat()),
            proptest::option::of(chips()),
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u64>()),
        ),
    )
        .prop_map(
            |(
                players,
                small_blind,
                big_blind,
                orbits,
                dealer,
                community_cards,
                (current_buy_in, pot),
                (in_action, minimum_raise, bet_index, round),
            )| GameState {
                tournament_id: Some("t".to_string()),
                game_id: Some("g".to_string()),
                round,
                players,
                small_blind,
                big_blind,
                orbits,
                dealer,
                community_cards,
                current_buy_in,
                pot,
                in_action,
                minimum_raise,
                bet_index,
            },
        )
}

/// A document a bot would really think about: any numbers, but a receiver in range with two
/// hole cards and a board of a real street, no card twice (so strategies reach their
/// equity, raise and all-in branches, not only the "nothing to go on" ones).
pub fn playable_state() -> impl Strategy<Value = GameState> {
    (
        state(),
        player(),
        any::<usize>(),
        prop_oneof![Just(0usize), Just(3), Just(4), Just(5)],
        // Distinct cards for everybody, in an order proptest can shrink.
        Just(Card::deck().collect::<Vec<Card>>()).prop_shuffle(),
    )
        .prop_map(|(mut state, extra, receiver, board, deck)| {
            if state.players.is_empty() {
                state.players.push(extra);
            }
            let receiver = receiver % state.players.len();
            let mut cards = deck.into_iter();
            for (index, player) in state.players.iter_mut().enumerate() {
                player.id = Seat(index);
                player.hole_cards = (index == receiver).then(|| cards.by_ref().take(2).collect());
            }
            state.players[receiver].status = PlayerStatus::Active;
            state.community_cards = cards.take(board).collect();
            state.in_action = Some(Seat(receiver));
            state
        })
}
