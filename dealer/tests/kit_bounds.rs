//! The player's testing kit generates the states a dealer can send (`player::testing::
//! DealerStates`) within this dealer's bounds, which it cannot import (the dealer depends on
//! the player, not the other way round): the copies must stay equal.

#[test]
fn the_testing_kit_uses_the_dealers_seat_and_stack_bounds() {
    assert_eq!(player::testing::MAX_SEATS, dealer::engine::MAX_SEATS);
    assert_eq!(
        player::testing::MAX_STARTING_STACK,
        dealer::rules::MAX_STARTING_STACK
    );
    // The default starting stack is the live server's, which the kit uses for half its cases.
    assert_eq!(
        player::testing::LIVE_STARTING_STACK,
        dealer::rules::GameRules::default().starting_stack
    );
}
