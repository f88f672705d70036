//! Betting as the engine applies it: the bet-reading table (spec §4), `minimum_raise`,
//! visits and `bet_index` (spec §3), blinds, the big blind's option, street ends.

use crate::engine_support;

use dealer::game_event::{Blind, GameEvent};
use engine_support::{Table, TableBuilder};
use shared::{BetAction, Chips, Seat, Street};

/// Three players, button 0: small blind seat 1 (2), big blind seat 2 (4); seat 0 acts first.
fn three_handed(stacks: &[u64]) -> Table {
    TableBuilder::seats(3).start(0, 0, stacks).build()
}

/// (action, put_in, bet_after, minimum_raise_after) of a BetPlaced event.
fn read(event: &GameEvent) -> (BetAction, u64, u64, u64) {
    match event {
        GameEvent::BetPlaced {
            action,
            put_in,
            bet_after,
            minimum_raise_after,
            ..
        } => (
            *action,
            put_in.get(),
            bet_after.get(),
            minimum_raise_after.get(),
        ),
        other => panic!("not a bet: {other:?}"),
    }
}

fn first_action(stacks: &[u64], answer: u64) -> (BetAction, u64, u64, u64) {
    let mut table = three_handed(stacks);
    read(&table.act(0, answer))
}

#[test]
fn spec_4_rule_1_all_in_when_the_answer_covers_the_stack() {
    assert_eq!(
        first_action(&[1000; 3], 1000),
        (BetAction::AllIn, 1000, 1000, 996)
    );
    assert_eq!(
        first_action(&[1000; 3], u64::MAX),
        (BetAction::AllIn, 1000, 1000, 996)
    );
    // All-in for less than a call is still an all-in (not a fold), and never lowers the
    // minimum raise.
    assert_eq!(
        first_action(&[3, 1000, 1000], 3),
        (BetAction::AllIn, 3, 3, 2)
    );
    assert_eq!(
        first_action(&[3, 1000, 1000], 50),
        (BetAction::AllIn, 3, 3, 2)
    );
}

#[test]
fn spec_4_rule_2_raise_puts_in_exactly_the_answer() {
    // Facing 4 with minimum_raise 2 (the small blind): 6 is the smallest raise.
    assert_eq!(first_action(&[1000; 3], 6), (BetAction::Raise, 6, 6, 2));
    assert_eq!(first_action(&[1000; 3], 10), (BetAction::Raise, 10, 10, 6));
    assert_eq!(
        first_action(&[1000; 3], 999),
        (BetAction::Raise, 999, 999, 995)
    );
}

#[test]
fn spec_4_rule_3_call_ignores_the_excess() {
    assert_eq!(first_action(&[1000; 3], 4), (BetAction::Call, 4, 4, 2));
    assert_eq!(first_action(&[1000; 3], 5), (BetAction::Call, 4, 4, 2));
}

#[test]
fn spec_4_rule_4_check_when_nothing_is_owed() {
    let mut table = three_handed(&[1000; 3]);
    table.bet(0, 4);
    table.bet(1, 2);
    // The big blind owes nothing: 0 and 1 are checks (1 is below a raise), 2 raises.
    assert_eq!(read(&table.act(2, 1)), (BetAction::Check, 0, 4, 2));
    let mut table = three_handed(&[1000; 3]);
    table.bet(0, 4);
    table.bet(1, 2);
    assert_eq!(read(&table.act(2, 2)), (BetAction::Raise, 2, 6, 2));
}

#[test]
fn spec_4_rule_5_fold_below_a_call() {
    assert_eq!(first_action(&[1000; 3], 0), (BetAction::Fold, 0, 0, 2));
    assert_eq!(first_action(&[1000; 3], 3), (BetAction::Fold, 0, 0, 2));
}

#[test]
fn spec_4_minimum_raise_after_raises_calls_short_and_large_all_ins() {
    let mut table = TableBuilder::seats(5)
        .start(0, 0, &[1000, 1000, 1000, 13, 1000])
        .build();
    // Button 0: blinds 1 and 2; seat 3 acts first.
    let sent = table.expect(3);
    assert_eq!(
        sent.minimum_raise,
        Some(Chips(2)),
        "preflop it is the small blind"
    );
    table
        .game
        .answer(dealer::engine::SeatAnswer::Bet(Chips(10)))
        .unwrap(); // raise to 10 (raise_by 6)
    assert_eq!(table.expect(4).minimum_raise, Some(Chips(6)));
    table
        .game
        .answer(dealer::engine::SeatAnswer::Bet(Chips(10)))
        .unwrap(); // call: unchanged
    assert_eq!(table.expect(0).minimum_raise, Some(Chips(6)));
    table
        .game
        .answer(dealer::engine::SeatAnswer::Bet(Chips(30)))
        .unwrap(); // raise to 30 (raise_by 20)
    let sent = table.expect(1);
    assert_eq!(sent.minimum_raise, Some(Chips(20)));
    // Seat 1 (small blind, 2 in) shoves 998: to 1000, raise_by 970.
    table
        .game
        .answer(dealer::engine::SeatAnswer::Bet(Chips(998)))
        .unwrap();
    let sent = table.expect(2);
    assert_eq!(
        sent.minimum_raise,
        Some(Chips(970)),
        "a large all-in raises it"
    );
    assert_eq!(sent.current_buy_in, Chips(1000));
    table.fold(2);
    // Seat 3 had 10 in and 3 behind: a short all-in (to 13) is below a call; nothing changes.
    table.bet(3, 3);
    let sent = table.expect(4);
    assert_eq!(sent.minimum_raise, Some(Chips(970)));
    assert_eq!(sent.current_buy_in, Chips(1000));
    table.bet(4, 990); // call, all-in
    table.bet(0, 970); // call, all-in
                       // Everyone left is all-in: the board runs out without requests.
    table.showdown();
}

#[test]
fn spec_4_minimum_raise_restarts_at_the_big_blind_on_each_street() {
    let mut table = three_handed(&[1000; 3]);
    table.bet(0, 20); // raise to 20 (raise_by 16)
    assert_eq!(table.expect(1).minimum_raise, Some(Chips(16)));
    table.bet(1, 18);
    table.bet(2, 16);
    // Flop: visits start at the small blind, minimum_raise is the big blind again.
    let flop = table.expect(1);
    assert_eq!(flop.community_cards.len(), 3);
    assert_eq!(flop.minimum_raise, Some(Chips(4)));
    assert_eq!(flop.bet_index, Some(0));
    // A flop bet of 3 is below the minimum raise: it is read as a check.
    let event = table.act(1, 3);
    assert_eq!(read(&event).0, BetAction::Check);
    let bet = table.act(2, 50);
    assert_eq!(read(&bet), (BetAction::Raise, 50, 70, 50));
    if let GameEvent::BetPlaced {
        street,
        street_bet_after,
        ..
    } = bet
    {
        assert_eq!(street, Street::Flop);
        assert_eq!(
            street_bet_after,
            Chips(50),
            "raise-to amount of this street"
        );
    }
}

#[test]
fn spec_3_bet_index_counts_out_folded_and_all_in_seats() {
    // Seat 1 is out; seat 3 (big blind) has 50 chips.
    let mut table = TableBuilder::seats(5)
        .start(0, 0, &[1000, 0, 1000, 50, 1000])
        .build();
    // Button 0: small blind seat 2 (visit 0), big blind seat 3 (visit 1).
    assert_eq!(table.bet(4, 4).bet_index, Some(2));
    assert_eq!(table.bet(0, 4).bet_index, Some(3));
    // Visit 4 is seat 1 (out), skipped.
    assert_eq!(table.bet(2, 2).bet_index, Some(5));
    assert_eq!(table.bet(3, 46).bet_index, Some(6)); // all-in raise to 50
    assert_eq!(table.fold(4).bet_index, Some(7));
    assert_eq!(table.bet(0, 46).bet_index, Some(8));
    // Visit 9 is seat 1 (out).
    assert_eq!(table.bet(2, 46).bet_index, Some(10));
    // Flop: visits from the small blind (seat 2); seat 3 all-in and seat 4 folded are
    // skipped but counted.
    assert_eq!(table.check(2).bet_index, Some(0));
    assert_eq!(table.check(0).bet_index, Some(3));
    assert_eq!(table.check(2).community_cards.len(), 4);
}

#[test]
fn spec_3_heads_up_button_posts_big_blind_and_small_blind_acts_first() {
    let mut table = TableBuilder::seats(2).start(0, 0, &[1000, 1000]).build();
    let blinds = table.until_event(|e| {
        matches!(
            e,
            GameEvent::BlindPosted {
                blind: Blind::Big,
                ..
            }
        )
    });
    assert_eq!(
        blinds.players[0].bet,
        Chips(4),
        "button posts the big blind"
    );
    assert_eq!(blinds.players[1].bet, Chips(2));
    let first = table.bet(1, 2);
    assert_eq!(first.bet_index, Some(2));
    table.check(0);
    // Postflop the small blind (the player who is not the button) acts first.
    assert_eq!(table.check(1).bet_index, Some(0));
    assert_eq!(table.check(0).bet_index, Some(1));
}

#[test]
fn spec_3_big_blind_gets_its_option_and_can_raise() {
    let mut table = three_handed(&[1000; 3]);
    table.bet(0, 4);
    table.bet(1, 2);
    let option = table.expect(2);
    assert_eq!(option.bet_index, Some(4), "n + 1: the big blind's own turn");
    assert_eq!(option.current_buy_in, Chips(4));
    table
        .game
        .answer(dealer::engine::SeatAnswer::Bet(Chips(8)))
        .unwrap();
    // The raise reopens the street: both others are asked again.
    table.fold(0);
    table.bet(1, 8);
    let flop = table.expect(1);
    assert_eq!(flop.community_cards.len(), 3);
}

#[test]
fn spec_3_hand_ends_at_once_when_all_but_one_fold() {
    let mut table = three_handed(&[1000; 3]);
    table.fold(0);
    table.fold(1);
    // No pointless request to the big blind: straight to the showdown.
    let states = table.showdown();
    assert_eq!(states[2].players[2].amount_won, Some(Chips(6)));
    assert_eq!(states[2].players[2].stack, Chips(1002));
}

#[test]
fn spec_3_short_stack_posts_what_it_has_for_a_blind() {
    let mut table = TableBuilder::seats(3).start(0, 0, &[1000, 1, 3]).build();
    let state = table.expect(0);
    assert_eq!(state.players[1].bet, Chips(1));
    assert_eq!(state.players[2].bet, Chips(3));
    assert_eq!(state.current_buy_in, Chips(3));
    // max(2, raise_by 1) then max(2, raise_by 2): the minimum raise stays the small blind.
    assert_eq!(state.minimum_raise, Some(Chips(2)));
    let blinds: Vec<(usize, u64, bool)> = table.collect(|event| match event {
        GameEvent::BlindPosted {
            seat,
            amount,
            all_in,
            ..
        } => Some((seat.index(), amount.get(), *all_in)),
        _ => None,
    });
    assert_eq!(blinds, vec![(1, 1, true), (2, 3, true)]);
}

#[test]
fn spec_3_street_skipped_when_fewer_than_two_can_act() {
    let mut table = three_handed(&[1000, 1000, 1000]);
    table.bet(0, 1000); // all-in
    table.bet(1, 998); // all-in call
    table.fold(2);
    // Nobody can act any more: the board is dealt without requests.
    let states = table.showdown();
    assert_eq!(states[0].community_cards.len(), 5);
    let streets: Vec<Street> = table.collect(|event| match event {
        GameEvent::CommunityCardDealt { street, .. } => Some(*street),
        _ => None,
    });
    assert_eq!(
        streets,
        vec![
            Street::Flop,
            Street::Flop,
            Street::Flop,
            Street::Turn,
            Street::River
        ]
    );
}

#[test]
fn spec_3_hole_cards_dealt_one_at_a_time_from_the_small_blind() {
    let mut table = TableBuilder::seats(4)
        .start(0, 0, &[1000, 0, 1000, 1000])
        .build();
    table.expect(0);
    let dealt: Vec<usize> = table.collect(|event| match event {
        GameEvent::HoleCardDealt { seat, .. } => Some(seat.index()),
        _ => None,
    });
    // Button 0, seat 1 out: small blind seat 2, then 3, then 0; the out seat gets nothing.
    assert_eq!(dealt, vec![2, 3, 0, 2, 3, 0]);
    let sent = table.game.bet_request_state().unwrap();
    assert_eq!(sent.players[1].hole_cards, None);
    assert_eq!(table.game.hole_cards(Seat(1)), &[]);
    assert_eq!(
        table.game.viewer_state().players[1].hole_cards,
        Some(vec![])
    );
}

#[test]
fn spec_3_big_blind_option_with_an_out_seat_between_the_blinds() {
    // Capture 02's table: seats 2 and 4 out, button 0, small blind 1, big blind 3.
    let mut table = TableBuilder::seats(5)
        .start(0, 0, &[1000, 1000, 0, 1000, 0])
        .build();
    assert_eq!(table.bet(0, 4).bet_index, Some(4));
    assert_eq!(table.bet(1, 2).bet_index, Some(5));
    // Visit 6 is seat 2 (out). The big blind's own turn is visit 2 + 5 = 7: the street needs
    // n + 1 + 2 = 8 visits here (n + 2 would end it before the big blind could act).
    let option = table.expect(3);
    assert_eq!(option.bet_index, Some(7));
    assert_eq!(option.current_buy_in, Chips(4));
}
