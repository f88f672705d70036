//! Tests of the template bot in `src/strategy.rs`: real recorded games, hand-made spots, and
//! a sweep of many situations, every answer checked to be a legal, meaningful bet.
//!
//! Add your own spots below as you change the strategy. To also run the bot over your own game
//! logs or a dealer's `requests.jsonl`: `PLAYER_RECORDINGS=path/to/logs cargo test -p
//! lean-poker-player --test strategy`.

use player::strategy::{TemplatePlayer, VERSION};
use player::testing::{assert_legal_bets, check_bet, heads_up, load, load_env, table};
use player::{BetAction, Chips, Player};

fn bot() -> TemplatePlayer {
    TemplatePlayer::default()
}

/// Fewer equity deals, for tests that ask about hundreds of states in a debug build.
fn quick_bot() -> TemplatePlayer {
    TemplatePlayer {
        equity_trials: 100,
        ..TemplatePlayer::default()
    }
}

fn action(state: &player::GameState) -> BetAction {
    let answer = bot().bet_request(state);
    match check_bet(state, answer) {
        Ok(reading) => reading.action,
        Err(problem) => panic!("not a meaningful bet: {problem}"),
    }
}

#[test]
fn answers_every_recorded_state_with_a_meaningful_bet() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let report = assert_legal_bets(&bot(), &load(fixtures));
    // 13 real bet requests in captures/, 8 in recordings/requests.jsonl, 2 in states-array.
    assert_eq!(report.checked, 23);
}

#[test]
fn answers_recordings_from_the_environment() {
    // Set PLAYER_RECORDINGS to run over your own logs; without it this checks nothing.
    if let Some(recorded) = load_env(player::testing::RECORDINGS_ENV) {
        assert_legal_bets(&bot(), &recorded);
    }
}

#[test]
fn raises_aces_preflop() {
    let state = heads_up().hole_cards("Ah Ad").post_blinds().build();
    assert_eq!(action(&state), BetAction::Raise);
    // Raise to three times the big blind: 60 total, 50 more with the 10 already in.
    assert_eq!(bot().bet_request(&state), Chips(50));
}

#[test]
fn folds_trash_facing_a_raise_and_checks_it_when_free() {
    let facing = table(3)
        .in_action(2)
        .hole_cards("7c 2d")
        .bets([10, 60, 20])
        .build();
    assert_eq!(action(&facing), BetAction::Fold);
    let free = heads_up().hole_cards("7c 2d").bets([20, 20]).build();
    assert_eq!(action(&free), BetAction::Check);
}

#[test]
fn calls_a_playable_hand_when_it_is_cheap() {
    let state = table(4).hole_cards("Th 9h").post_blinds().build();
    assert_eq!(action(&state), BetAction::Call);
    let expensive = table(4)
        .in_action(3)
        .hole_cards("Th 9h")
        .bets([10, 20, 400, 0])
        .build();
    assert_eq!(action(&expensive), BetAction::Fold);
}

#[test]
fn goes_all_in_with_exactly_the_stack_when_short() {
    let state = heads_up()
        .hole_cards("Ks Kd")
        .stack(0, 35)
        .post_blinds()
        .build();
    assert_eq!(state.me().unwrap().stack, Chips(25));
    assert_eq!(bot().bet_request(&state), Chips(25));
    assert_eq!(action(&state), BetAction::AllIn);
}

#[test]
fn bets_strong_made_hands_after_the_flop_and_gives_up_weak_ones() {
    let set = heads_up()
        .hole_cards("8s 8d")
        .board("8c Kd 2h")
        .bets([40, 40])
        .build();
    assert_eq!(action(&set), BetAction::Raise);
    let air = heads_up()
        .hole_cards("3s 4d")
        .board("Ac Kd 9h")
        .bets([40, 240])
        .build();
    assert_eq!(action(&air), BetAction::Fold);
    // A flush draw facing a small bet has the price to call (about 35% against 1 in 6).
    let draw = heads_up()
        .hole_cards("Qh 9h")
        .board("2h 7h Kc")
        .bets([100, 120])
        .build();
    assert_eq!(action(&draw), BetAction::Call);
    // Five-high against four broadway cards is not worth a pot-sized bet.
    let hopeless = heads_up()
        .hole_cards("5c 4c")
        .board("Ac Kd Qh Js")
        .bets([100, 600])
        .build();
    assert_eq!(action(&hopeless), BetAction::Fold);
}

#[test]
fn every_answer_in_a_sweep_of_situations_is_meaningful() {
    let hands = ["Ah Ad", "Ks Qs", "Th 9h", "7c 2d", "5d 5c", "Ac 4c"];
    let boards = ["", "2s 7h Jd", "2s 7h Jd Qc", "2s 7h Jd Qc 3c"];
    let stacks = [1, 15, 40, 199, 1000, 5000];
    let facing = [0, 20, 35, 100, 990, 3000];
    let mut checked = 0;
    for hand in hands {
        for board in boards {
            for stack in stacks {
                for bet in facing {
                    let state = heads_up()
                        .hole_cards(hand)
                        .board(board)
                        .stack(0, stack)
                        .bets([20, 20 + bet])
                        .build();
                    let answer = quick_bot().bet_request(&state);
                    if let Err(problem) = check_bet(&state, answer) {
                        panic!("{hand} on [{board}], stack {stack}, facing {bet}: {problem}");
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 6 * 4 * 6 * 6);
}

#[test]
fn version_is_the_template_version() {
    assert_eq!(bot().version(), VERSION);
}
