//! What each bot of the field plays, pinned on hand-made spots (blinds 10/20, 1,000 chips
//! each unless said).

use super::*;
use player::testing::{check_bet, heads_up, table};
use player::{BetAction, Chips, GameState, Player};

fn action(bot: &dyn Player, state: &GameState) -> BetAction {
    let answer = bot.bet_request(state);
    match check_bet(state, answer) {
        Ok(reading) => reading.action,
        Err(problem) => panic!("not a meaningful bet: {problem}"),
    }
}

/// Six seats, the button on seat 5, seat `seat` in action before anyone else acted.
fn open(seat: usize, cards: &str, stack: u64) -> GameState {
    table(6)
        .in_action(seat)
        .hole_cards(cards)
        .stack(seat, stack)
        .bets([10, 20, 0, 0, 0, 0])
        .build()
}

#[test]
fn tight_opens_the_best_hands_and_folds_the_rest_or_to_a_raise() {
    let bot = TightBot::default();
    assert_eq!(action(&bot, &open(2, "Ah Kd", 1000)), BetAction::Raise);
    assert_eq!(
        bot.bet_request(&open(2, "Ah Kd", 1000)),
        Chips(60),
        "to three blinds"
    );
    assert_eq!(action(&bot, &open(2, "9c 7d", 1000)), BetAction::Fold);
    let facing = |cards: &str| {
        let state = table(6)
            .in_action(3)
            .hole_cards(cards)
            .bets([10, 20, 120, 0, 0, 0])
            .build();
        action(&bot, &state)
    };
    assert_eq!(facing("Qd 9c"), BetAction::Fold);
    assert_eq!(facing("Ad Jc"), BetAction::Call);
    assert_eq!(facing("Qd Qc"), BetAction::Raise);
    // Ten big blinds or fewer: all-in or fold, wider as the stack shrinks.
    assert_eq!(action(&bot, &open(2, "Ac Qd", 160)), BetAction::AllIn);
    assert_eq!(action(&bot, &open(2, "9c 7d", 160)), BetAction::Fold);
}

#[test]
fn loose_opens_wide_and_sometimes_bluffs_when_checked_to() {
    let bot = LooseBot::default();
    assert_eq!(action(&bot, &open(2, "Kc 8d", 1000)), BetAction::Raise);
    assert_eq!(
        bot.bet_request(&open(2, "Kc 8d", 1000)),
        Chips(50),
        "to 2.5 blinds"
    );
    assert_eq!(action(&bot, &open(2, "7c 2d", 1000)), BetAction::Fold);
    // Air, checked to heads-up: a bluff for some seeds, a check for others.
    let air = |seed: u64| {
        let state = heads_up()
            .hole_cards("7c 2d")
            .board("As Kh 9d")
            .bets([60, 60])
            .round(seed)
            .build();
        action(&LooseBot { seed }, &state)
    };
    let bluffs = (0..60)
        .filter(|&seed| air(seed) == BetAction::Raise)
        .count();
    assert!((8..=32).contains(&bluffs), "{bluffs} bluffs in 60");
    assert!((0..60).any(|seed| air(seed) == BetAction::Check));
}

#[test]
fn push_fold_shoves_wider_as_its_stack_shrinks() {
    let bot = PushFoldBot::default();
    // 14 big blinds: the best 15% or so.
    assert_eq!(action(&bot, &open(4, "Ac Td", 280)), BetAction::AllIn);
    assert_eq!(action(&bot, &open(4, "Kc 7d", 280)), BetAction::Fold);
    // 4 big blinds: the best half or so.
    assert_eq!(action(&bot, &open(4, "Kc 7d", 80)), BetAction::AllIn);
    // Deep: a tight open, never a limp.
    assert_eq!(action(&bot, &open(4, "Kc 7d", 1000)), BetAction::Fold);
    assert_eq!(action(&bot, &open(4, "Qc Qd", 1000)), BetAction::Raise);
}

#[test]
fn solid_bets_made_hands_calls_the_right_price_and_folds_air() {
    let bot = SolidBot::default();
    assert_eq!(action(&bot, &open(2, "Ah Qh", 1000)), BetAction::Raise);
    let set = heads_up()
        .hole_cards("8s 8d")
        .board("8c Kd 2h")
        .bets([40, 40])
        .build();
    assert_eq!(action(&bot, &set), BetAction::Raise);
    // A flush draw facing a small bet has the price (about 35% against 1 in 6).
    let draw = heads_up()
        .hole_cards("Qh 9h")
        .board("2h 7h Kc")
        .bets([100, 120])
        .build();
    assert_eq!(action(&bot, &draw), BetAction::Call);
    let air = heads_up()
        .hole_cards("3s 4d")
        .board("Ac Kd 9h")
        .bets([40, 240])
        .build();
    assert_eq!(action(&bot, &air), BetAction::Fold);
}

#[test]
fn shover_shoves_big_hands_and_two_pair_and_nothing_else() {
    let bot = ShoverBot;
    assert_eq!(action(&bot, &open(2, "Ac Qd", 1000)), BetAction::AllIn);
    assert_eq!(action(&bot, &open(2, "9c 7d", 1000)), BetAction::Fold);
    let two_pair = heads_up()
        .hole_cards("Kc 9d")
        .board("Kd 9h 2s")
        .bets([40, 40])
        .build();
    assert_eq!(action(&bot, &two_pair), BetAction::AllIn);
    // The board's own pair and a kicker: not two pair of its own.
    let board_pair = heads_up()
        .hole_cards("Kc 3d")
        .board("Kd 9h 9s")
        .bets([40, 40])
        .build();
    assert_eq!(
        action(&bot, &board_pair),
        BetAction::AllIn,
        "kings and nines is two pair"
    );
    let weak = heads_up()
        .hole_cards("Qc 3d")
        .board("Kd 9h 9s 5c 5h")
        .bets([40, 40])
        .build();
    assert_eq!(action(&bot, &weak), BetAction::Check);
}

#[test]
fn players_behind_count_to_the_big_blind() {
    use crate::spot::Spot;
    // Seat 2 is first to act at six seats: seats 3, 4, 5, 0 (small blind) and 1 (big blind).
    assert_eq!(Spot::read(&open(2, "Ac Kd", 1000)).unwrap().behind(), 5);
    assert_eq!(Spot::read(&open(5, "Ac Kd", 1000)).unwrap().behind(), 2);
    assert_eq!(Spot::read(&open(0, "Ac Kd", 1000)).unwrap().behind(), 1);
    assert_eq!(Spot::read(&open(1, "Ac Kd", 1000)).unwrap().behind(), 0);
    let folded = table(6)
        .in_action(4)
        .hole_cards("Ac Kd")
        .bets([10, 20, 0, 0, 0, 0])
        .fold(5)
        .build();
    assert_eq!(Spot::read(&folded).unwrap().behind(), 2);
}
