//! YOUR TESTS. The checks below hold for any legal bot, so they keep passing as you change
//! `src/strategy.rs`: every answer, on recorded games and on hundreds of states a dealer can
//! send, is a legal, meaningful bet (never a raise the dealer reads as a call, a call one chip
//! short that folds, more chips than you have), and the leaderboard shows your `VERSION`.
//! A panic in your bot is reported, not fatal: the SDK answers `0` for it, as at an event.
//!
//! Add your own spots below. `tests/recordings/` holds a recorded `dealer run`; drop your own
//! game logs there (a `dealer run` folder, a `log.json` from the live server, a
//! `requests.jsonl`), or point `PLAYER_RECORDINGS` at them:
//! `PLAYER_RECORDINGS=games cargo test -p team`.
//!
//! The last test is a goal, not a check: it is ignored until you ask for it
//! (`cargo test -p team -- --ignored`).

use player::testing::{
    assert_answers_dealer_states, assert_legal_bets, assert_legal_bets_from_env,
    assert_meaningful_answers, heads_up, load, DealerStates, RECORDINGS_ENV,
};
use player::Player;
use team::{Bot, VERSION};

/// Your bot as `main.rs` builds it.
fn bot() -> Bot {
    Default::default()
}

#[test]
fn answers_every_recorded_state_with_a_meaningful_bet() {
    let recordings = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/recordings");
    // Fails when an answer is not meaningful, or when no state at all was a bet request.
    assert_legal_bets(&bot(), &load(recordings));
}

#[test]
fn answers_recordings_from_the_environment() {
    // Says how many recorded states it checked; fails when a path it names holds none.
    assert_legal_bets_from_env(&bot(), RECORDINGS_ENV);
}

/// Hundreds of random states of the kind a Lean Poker dealer sends (2 to 10 seats, stacks
/// from 1 chip to the largest a dealer deals, every street): a meaningful bet in each. A
/// failure names the first bad state, with its JSON, once.
#[test]
fn answers_every_state_a_dealer_can_send_with_a_meaningful_bet() {
    assert_answers_dealer_states(&bot(), &DealerStates::default());
}

#[test]
fn every_answer_in_a_sweep_of_situations_is_meaningful() {
    let mut spots = Vec::new();
    for hand in ["Ah Ad", "Ks Qs", "Th 9h", "7c 2d", "5d 5c", "Ac 4c"] {
        for board in ["", "2s 7h Jd", "2s 7h Jd Qc", "2s 7h Jd Qc 3c"] {
            for stack in [1, 15, 40, 199, 1000, 5000] {
                for bet in [0, 20, 35, 100, 990, 3000] {
                    let state = heads_up()
                        .hole_cards(hand)
                        .board(board)
                        .stack(0, stack)
                        .bets([20, 20 + bet])
                        .build();
                    let spot = format!("{hand} on [{board}], stack {stack}, facing {bet}");
                    spots.push((spot, state));
                }
            }
        }
    }
    assert_eq!(assert_meaningful_answers(&bot(), spots), 6 * 4 * 6 * 6);
}

/// `version()` must return `VERSION`: bump it on each deploy to see it live.
#[test]
fn version_is_your_version() {
    assert_eq!(bot().version(), VERSION);
}

/// A goal: your bot beats a calling station as the event counts, more than 4 points a game
/// heads-up (the luck of the cards taken out) with 95% confidence, over 60 duplicate games in
/// the arena. Run it with `cargo test -p team -- --ignored`.
#[test]
#[ignore = "a goal, not a check: cargo test -p team -- --ignored"]
fn goal_beats_a_calling_station() {
    let report = arena::Arena::new(vec![bots::BotKind::CallingStation])
        .games(60)
        .run(&bot())
        .unwrap();
    let points = report.your_points.adjusted;
    assert!(
        report.outscores_the_table_with_confidence(),
        "{points:?} points a game"
    );
}
