//! Pots, payouts, reveals (spec §5) and eliminations of one hand (spec §7), played through
//! the engine.

use crate::engine_support;

use dealer::engine::SeatAnswer;
use dealer::game_event::{EliminationReason, GameEvent};
use dealer::rules::{GameRules, OddChipRule};
use engine_support::{Table, TableBuilder};
use shared::eval::Category;
use shared::{Chips, PlayerStatus, Seat};

fn pots(table: &Table) -> Vec<(u64, Vec<(usize, u64)>)> {
    table.collect(|event| match event {
        GameEvent::PotAwarded { amount, shares, .. } => Some((
            amount.get(),
            shares
                .iter()
                .map(|share| (share.seat.index(), share.amount.get()))
                .collect(),
        )),
        _ => None,
    })
}

fn reveals(table: &Table) -> Vec<usize> {
    table.collect(|event| match event {
        GameEvent::HandRevealed { seat, .. } => Some(seat.index()),
        _ => None,
    })
}

#[test]
fn spec_5_three_way_all_in_two_side_pots_and_a_folded_contributor() {
    // Seat 0 (1000) will fold 50; seat 1 (100), seat 2 (300), seat 3 (1000) go all-in.
    let mut table = TableBuilder::seats(4)
        .start(0, 0, &[1000, 100, 300, 1000])
        .build();
    table.deal(
        &[(0, "2c 7d"), (1, "Ah Ad"), (2, "Kh Kd"), (3, "Qh Qd")],
        "3s 8c 9d Js 4h",
    );
    table.bet(3, 50); // raise to 50
    table.bet(0, 50); // call
    table.bet(1, 98); // all-in to 100
    table.bet(2, 296); // all-in to 300
    table.bet(3, 950); // all-in to 1000
    table.fold(0); // folds with 50 in
    let states = table.showdown();
    // Main pot: 100 from each all-in player plus the folded 50: 350 to aces. Side pot: 200
    // from seats 2 and 3: 400 to kings. Seat 3's uncalled 700 comes back (a pot of its own).
    assert_eq!(
        pots(&table),
        vec![
            (350, vec![(1, 350)]),
            (400, vec![(2, 400)]),
            (700, vec![(3, 700)])
        ]
    );
    // Examined from the last aggressor (seat 3): queens shown, then aces; kings are worse than
    // aces in the first examination and shown in the side pot's (first contender there).
    assert_eq!(reveals(&table), vec![3, 1, 2]);
    let shown: Vec<(usize, Category, String)> = table.collect(|event| match event {
        GameEvent::HandRevealed { seat, strength, .. } => {
            Some((seat.index(), strength.category(), strength.description()))
        }
        _ => None,
    });
    assert_eq!(shown[1], (1, Category::Pair, "a pair of aces".to_string()));
    let state = &states[0];
    let stacks: Vec<u64> = state.players.iter().map(|p| p.stack.get()).collect();
    assert_eq!(stacks, vec![950, 350, 400, 700]);
    let won: Vec<Option<Chips>> = state.players.iter().map(|p| p.amount_won).collect();
    assert_eq!(
        won,
        vec![None, Some(Chips(350)), Some(Chips(400)), Some(Chips(700))]
    );
    // Revealed hands are visible to everyone; seat 0 sees its own cards too.
    assert!(state.players[0].hole_cards.is_some());
    assert!(state.players[1].hole_cards.is_some());
    assert!(state.players[2].hole_cards.is_some());
    assert!(state.players[3].hole_cards.is_some());
    assert_eq!(state.pot, Chips(0));
}

#[test]
fn spec_5_split_pot_odd_chip_goes_left_of_the_button() {
    // Round 10: blinds 3/6. The small blind folds, two players split a 15-chip pot.
    let mut table = TableBuilder::seats(3).start(10, 0, &[1000; 3]).build();
    table.deal(&[(0, "2h 3h"), (2, "2d 3d")], "As Ks Qs Js 10s");
    table.bet(0, 6);
    table.fold(1);
    table.check(2);
    for _ in 0..3 {
        table.check(2);
        table.check(0);
    }
    let states = table.showdown();
    // Seat 1 (folded) is the first seat left of the button; seat 2 is the first winner.
    assert_eq!(pots(&table), vec![(15, vec![(2, 8), (0, 7)])]);
    let total: u64 = states[0].players.iter().map(|p| p.stack.get()).sum();
    assert_eq!(total, 3000, "no chip lost");
}

#[test]
fn spec_5_oss_odd_chip_rule_is_available_and_accounted() {
    let config = GameRules {
        odd_chips: OddChipRule::DiscardLikeOss,
        hand_limit: Some(1),
        ..GameRules::default()
    };
    let mut table = TableBuilder::seats(3)
        .config(config)
        .start(10, 0, &[1000; 3])
        .build();
    table.deal(&[(0, "2h 3h"), (2, "2d 3d")], "As Ks Qs Js 10s");
    table.bet(0, 6);
    table.fold(1);
    table.check(2);
    for _ in 0..3 {
        table.check(2);
        table.check(0);
    }
    table.showdown();
    // Examined from the small blind (nobody bet on the river): seat 2 first, who gets
    // floor(15 / 2) - 1 = 6; seat 0 gets 7; 2 chips leave the game.
    assert_eq!(pots(&table), vec![(15, vec![(2, 6), (0, 7)])]);
    let result = table.finish();
    assert_eq!(result.chips_discarded, Chips(2));
    assert_eq!(
        result.final_stacks.iter().copied().sum::<Chips>(),
        Chips(2998)
    );
}

#[test]
fn spec_5_reveal_order_starts_at_the_last_aggressor() {
    let mut table = TableBuilder::seats(4).start(0, 0, &[1000; 4]).build();
    table.deal(
        &[(0, "8c 6c"), (1, "Ah Ac"), (2, "3h 4h"), (3, "Qs 7s")],
        "2c 5d 9h Jc Kd",
    );
    // Preflop: everyone calls, the big blind checks.
    table.bet(3, 4);
    table.bet(0, 4);
    table.bet(1, 2);
    table.check(2);
    // Flop and turn checked around.
    for _ in 0..2 {
        for seat in [1, 2, 3, 0] {
            table.check(seat);
        }
    }
    // River: seat 2 bets, everyone calls.
    table.check(1);
    table.bet(2, 10);
    table.bet(3, 10);
    table.bet(0, 10);
    table.bet(1, 10);
    let states = table.showdown();
    // From seat 2 (worst, but first examined), seat 3 (better), seat 0 (worse than 3: hidden),
    // seat 1 (aces: shown).
    assert_eq!(reveals(&table), vec![2, 3, 1]);
    let seen_by_1 = &states[1];
    assert!(seen_by_1.players[0].hole_cards.is_none(), "not revealed");
    assert!(seen_by_1.players[2].hole_cards.is_some());
    // Seat 0 sees its own cards in its own showdown document.
    assert!(states[0].players[0].hole_cards.is_some());
}

#[test]
fn spec_5_reveal_starts_at_the_small_blind_when_nobody_bet_on_the_last_street() {
    let mut table = TableBuilder::seats(4).start(0, 0, &[1000; 4]).build();
    table.deal(
        &[(0, "8c 6c"), (1, "Ah Ac"), (2, "3h 4h"), (3, "Qs 7s")],
        "2c 5d 9h Jc Kd",
    );
    table.bet(3, 4);
    table.bet(0, 4);
    table.bet(1, 2);
    table.check(2);
    // A bet on the flop, then checks to the end.
    table.check(1);
    table.bet(2, 10);
    table.bet(3, 10);
    table.bet(0, 10);
    table.bet(1, 10);
    for _ in 0..2 {
        for seat in [1, 2, 3, 0] {
            table.check(seat);
        }
    }
    table.showdown();
    // From the small blind (seat 1) who holds aces: nobody else beats or ties it.
    assert_eq!(reveals(&table), vec![1]);
}

#[test]
fn spec_7_players_busted_in_the_same_hand_ranked_by_seat_from_the_button() {
    // Button 2: small blind seat 3 (200 chips), big blind seat 0 (100 chips).
    let mut table = TableBuilder::seats(4)
        .start(0, 2, &[100, 1000, 1000, 200])
        .build();
    table.deal(
        &[(0, "7c 2d"), (1, "Ah Ad"), (2, "5c 5d"), (3, "8h 3s")],
        "Kc Qd 9s 4h Jc",
    );
    table.bet(1, 1000); // all-in
    table.fold(2);
    table.bet(3, 198); // all-in
    table.bet(0, 96); // all-in
    table.showdown();
    let eliminated: Vec<(usize, usize, EliminationReason)> = table.collect(|event| match event {
        GameEvent::PlayerEliminated {
            seat,
            place,
            reason,
            ..
        } => Some((seat.index(), *place, *reason)),
        _ => None,
    });
    // The first seat after the button with chips is 1; order 1, 2, 3, 0: seat 3 goes out
    // first (4th place) and seat 0, later in that order, ranks higher (3rd).
    assert_eq!(
        eliminated,
        vec![
            (3, 4, EliminationReason::Busted),
            (0, 3, EliminationReason::Busted)
        ]
    );
    let result = table.play_out(|state| SeatAnswer::Bet(state.call_amount()));
    assert_eq!(result.places[3], 4);
    assert_eq!(result.places[0], 3);
    assert_eq!(result.eliminated_in_round[3], Some(0));
    let mut winners = vec![result.ranking[0], result.ranking[1]];
    winners.sort();
    assert_eq!(winners, vec![Seat(1), Seat(2)]);
    assert_eq!(result.points.iter().sum::<u32>(), 8);
}

#[test]
fn spec_5_uncontested_win_shows_amount_won_gross_and_no_cards() {
    let mut table = TableBuilder::seats(3).start(0, 0, &[1000; 3]).build();
    table.bet(0, 20);
    table.fold(1);
    table.fold(2);
    let states = table.showdown();
    assert!(reveals(&table).is_empty());
    // 20 of its own back plus 2 + 4 from the blinds: gross 26.
    assert_eq!(states[1].players[0].amount_won, Some(Chips(26)));
    assert!(states[1].players[0].hole_cards.is_none());
    assert_eq!(states[1].players[1].status, PlayerStatus::Folded);
    assert_eq!(
        states[1].community_cards.len(),
        5,
        "LIVE deals the board out"
    );
}

#[test]
fn spec_7_board_not_dealt_out_when_configured_like_oss() {
    let config = GameRules {
        deal_out_board: false,
        ..GameRules::default()
    };
    let mut table = TableBuilder::seats(3)
        .config(config)
        .start(0, 0, &[1000; 3])
        .build();
    table.fold(0);
    table.fold(1);
    let states = table.showdown();
    assert!(states[0].community_cards.is_empty());
}
