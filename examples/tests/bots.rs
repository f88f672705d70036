//! Every example bot answers every recorded and hand-made situation with a meaningful bet.

use examples::bots::{BotKind, EquityBot, RandomBot};
use player::testing::{
    assert_legal_bets, check_answer, check_bet, check_dealer_states, heads_up, load, table,
    DealerStates,
};
use player::{BetAction, Chips, Player};

/// The real captures (kept once, in `shared`) and the player kit's recordings.
fn recordings() -> Vec<player::testing::Recorded> {
    let mut recorded = load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/tests/fixtures/gamestates"
    ));
    recorded.extend(load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../player/sdk/tests/fixtures"
    )));
    recorded
}

#[test]
fn every_kind_answers_real_games_meaningfully() {
    let recorded = recordings();
    for kind in BotKind::ALL {
        let bot = kind.build(0);
        let report = assert_legal_bets(&bot, &recorded);
        assert!(report.checked > 20, "{kind}");
        assert!(!bot.version().is_empty());
    }
}

/// The bot of a kind, with fewer equity deals where that matters (debug builds are slow).
fn quick(kind: BotKind) -> std::sync::Arc<dyn Player> {
    if kind == BotKind::Equity {
        std::sync::Arc::new(EquityBot { trials: 100 })
    } else {
        kind.build(0)
    }
}

#[test]
fn every_kind_answers_a_sweep_of_spots_meaningfully() {
    let boards = ["", "2s 7h Jd", "2s 7h Jd Qc 3c"];
    for kind in BotKind::ALL {
        let bot = quick(kind);
        for board in boards {
            for stack in [1, 25, 400, 5000] {
                for facing in [0, 10, 300, 4000] {
                    let state = table(3)
                        .hole_cards("Ah 8d")
                        .board(board)
                        .stack(0, stack)
                        .bets([20, 20 + facing, 20])
                        .build();
                    // A panic is caught and reported here, once, with the spot.
                    if let Err(problem) = check_answer(bot.as_ref(), &state) {
                        panic!(
                            "{kind}, board [{board}], stack {stack}, facing {facing}: \
                             {problem}\ngame_state: {}",
                            state.to_json()
                        );
                    }
                }
            }
        }
    }
}

/// Every kind, the team's strategy included, on random states a Lean Poker dealer can send
/// (chips bounded by the seats' starting stacks): one message naming the first bad state.
#[test]
fn every_kind_answers_states_a_dealer_can_send_meaningfully() {
    for kind in BotKind::ALL {
        let bot = quick(kind);
        let report = check_dealer_states(bot.as_ref(), &DealerStates::default());
        assert!(report.first_failure.is_none(), "{kind}: {report}");
        assert_eq!(report.checked, DealerStates::default().cases);
    }
}

#[test]
fn each_bot_does_what_its_name_says() {
    // Facing 20 with 10 in, blinds 10/20, 990 behind.
    let state = heads_up().hole_cards("7c 2d").post_blinds().build();
    let answer = |kind: &str| {
        kind.parse::<BotKind>()
            .unwrap()
            .build(0)
            .bet_request(&state)
    };
    assert_eq!(answer("folder"), Chips(0));
    assert_eq!(answer("calling-station"), Chips(10));
    assert_eq!(answer("raiser"), state.minimum_raise_amount());
    assert_eq!(answer("all-in"), Chips(990));
    assert!("no-such-bot".parse::<BotKind>().is_err());
}

#[test]
fn the_equity_bot_raises_strength_calls_price_and_folds_trash() {
    let bot = EquityBot::default();
    let act = |state: &player::GameState| check_bet(state, bot.bet_request(state)).unwrap().action;
    let aces = heads_up().hole_cards("Ah Ad").post_blinds().build();
    assert_eq!(act(&aces), BetAction::Raise);
    let trash = table(6)
        .hole_cards("7c 2d")
        .post_blinds()
        .bet(2, 0)
        .in_action(2)
        .bets([10, 20, 0, 0, 0, 120])
        .build();
    assert_eq!(act(&trash), BetAction::Fold);
    // Heads-up, a flush draw facing a small bet on the flop has the price.
    let draw = heads_up()
        .hole_cards("Qh 9h")
        .board("2h 7h Kc")
        .bets([100, 120])
        .build();
    assert_eq!(act(&draw), BetAction::Call);
    assert!(bot.equity(&heads_up().showdown_state().build()).is_none());
}

#[test]
fn the_random_bot_is_reproducible_and_varied() {
    let state = heads_up().hole_cards("Ah Kd").post_blinds().build();
    let play = |seed| {
        let bot = RandomBot::with_seed(seed);
        (0..200)
            .map(|_| bot.bet_request(&state))
            .collect::<Vec<_>>()
    };
    assert_eq!(play(7), play(7));
    assert_ne!(play(7), play(8));
    let answers = play(7);
    let distinct: std::collections::BTreeSet<_> = answers.iter().collect();
    // fold, call, minimum raise, pot raise, all-in.
    assert_eq!(distinct.len(), 5, "{distinct:?}");
}

#[test]
fn every_kind_has_a_binary() {
    let bin_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/bin");
    for kind in BotKind::ALL {
        let path = std::path::Path::new(bin_dir).join(format!("{kind}.rs"));
        assert!(path.exists(), "no binary for {kind}: {}", path.display());
    }
}
