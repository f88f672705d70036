//! YOUR TESTS: checks that hold for any strategy, so they keep passing as you change
//! `src/strategy.rs`: every answer, on real recorded games and on a sweep of situations, is a
//! legal, meaningful bet (never a raise the dealer reads as a call, a call one chip short that
//! folds, more chips than you have), and the leaderboard shows your `VERSION`.
//!
//! The tests that pin what the *template* plays (raises aces, folds 7-2...) live next to it,
//! in `src/strategy.rs` (`mod template_behaviour`): rewrite or delete them with the template.
//! Every other test of this crate tests the SDK and passes whatever your strategy does.
//!
//! Add your own spots below. To also run the bot over your own game logs (a whole `dealer run`
//! folder, a `log.json` from the live server, a `requests.jsonl`):
//! `PLAYER_RECORDINGS=path/to/logs cargo test -p lean-poker-player strategy`.

use player::strategy::{TemplatePlayer, VERSION};
use player::testing::{
    assert_answers_dealer_states, assert_legal_bets, check_answer, heads_up, load, load_env,
    DealerStates,
};
use player::Player;

/// Your bot as `main.rs` builds it. These checks use nothing but `Default`, `bet_request` and
/// `version`, so they compile and hold whatever your strategy's fields are.
fn bot() -> TemplatePlayer {
    TemplatePlayer::default()
}

#[test]
fn answers_every_recorded_state_with_a_meaningful_bet() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    // Fails when an answer is not meaningful, or when no state at all was a bet request.
    assert_legal_bets(&bot(), &load(fixtures));
}

#[test]
fn answers_recordings_from_the_environment() {
    // Set PLAYER_RECORDINGS to run over your own logs (a `dealer run` folder, a game folder,
    // a log.json or a requests.jsonl; relative to here or to the repository root); without it
    // this checks nothing.
    if let Some(recorded) = load_env(player::testing::RECORDINGS_ENV) {
        assert_legal_bets(&bot(), &recorded);
    }
}

/// Hundreds of random states of the kind a Lean Poker dealer sends (2 to 10 seats, stacks
/// from 1 chip to the largest a dealer deals, every street): no panic and a meaningful bet in
/// each. A failure names the first bad state, with its JSON, once.
#[test]
fn answers_every_state_a_dealer_can_send_with_a_meaningful_bet() {
    assert_answers_dealer_states(&bot(), &DealerStates::default());
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
                    // A panic is caught and reported here, once, with the spot.
                    if let Err(problem) = check_answer(&bot(), &state) {
                        panic!(
                            "{hand} on [{board}], stack {stack}, facing {bet}: {problem}\n\
                             game_state: {}",
                            state.to_json()
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 6 * 4 * 6 * 6);
}

/// `version()` must return `VERSION`: bump it on each deploy to see it live.
#[test]
fn version_is_the_template_version() {
    assert_eq!(bot().version(), VERSION);
}
