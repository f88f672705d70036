//! Spec §7 ranking where the spec is silent: players banned in the same hand are ranked like
//! the hand's busts, by seat, not by the order of their bans (decision in `engine::ranking`).

use crate::engine_support;

use dealer::engine::SeatAnswer;
use dealer::game_event::{EliminationReason, GameEvent};
use engine_support::TableBuilder;
use shared::Seat;

#[test]
fn spec_7_two_bans_in_one_hand_rank_by_seat_not_by_ban_order() {
    // Button 0: the small blind is seat 1, the big blind seat 2, seat 3 acts first.
    let mut table = TableBuilder::seats(4).start(0, 0, &[1000; 4]).build();
    table.bet(3, 4); // calls
    table.invalid(0, "status 500"); // first ban
    table.bet(1, 2); // completes
    table.bet(2, 0); // checks
                     // Flop: seat 1 first.
    table.bet(1, 0);
    table.bet(2, 0);
    table.invalid(3, "timeout after 2000 ms"); // second ban
    let result = table.play_out(|state| SeatAnswer::Bet(state.call_amount()));
    assert_eq!(
        result.bans.iter().map(|ban| ban.seat).collect::<Vec<_>>(),
        [Seat(0), Seat(3)],
        "banned in this order"
    );
    // Seat order from the first seat after the button with chips: 1, 2, 3, 0. The later in
    // that order ranks higher, so seat 0 (banned first) ranks above seat 3.
    assert_eq!(result.places[3], 4);
    assert_eq!(result.places[0], 3);
    let eliminated: Vec<(Seat, usize, EliminationReason)> = table
        .events
        .iter()
        .filter_map(|event| match event {
            GameEvent::PlayerEliminated {
                seat,
                place,
                reason,
                round: 0,
            } => Some((*seat, *place, *reason)),
            _ => None,
        })
        .collect();
    assert_eq!(
        eliminated,
        [
            (Seat(3), 4, EliminationReason::Banned),
            (Seat(0), 3, EliminationReason::Banned)
        ]
    );
}

#[test]
fn spec_7_a_ban_and_a_bust_in_one_hand_rank_by_seat() {
    // Button 0 acts first, seat 1 (10 chips) is the small blind, seat 2 the big blind. Seat 0
    // shoves, seat 1 calls all-in, then seat 2 is banned: the ban comes after seat 1's call,
    // but when seat 1 busts in the same hand the seat rule decides, not the time of the ban.
    let mut busts_seen = 0;
    for seed in 0..40 {
        let mut table = TableBuilder::seats(3)
            .start(0, 0, &[1000, 10, 1000])
            .seed(seed)
            .build();
        table.bet(0, 1000);
        table.bet(1, 8);
        table.invalid(2, "status 500");
        let result = table.play_out(|state| SeatAnswer::Bet(state.call_amount()));
        if result.eliminated_in_round[1] == Some(0) {
            busts_seen += 1;
            // Seats 1 and 2 hold nothing after the hand, so the order starts at seat 0:
            // 0, 1, 2. Seat 1 is earlier than seat 2 and ranks lower, although seat 2 was
            // banned while seat 1 was still in the hand.
            assert_eq!((result.places[1], result.places[2]), (3, 2), "seed {seed}");
        } else {
            assert_eq!(
                result.places[2], 3,
                "seed {seed}: the only one out in hand 0"
            );
        }
    }
    assert!(busts_seen > 0, "no seed busted seat 1; pick others");
}
