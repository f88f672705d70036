//! Profiles: the file format, the back-off, and a profile bot's answers (legal, deterministic,
//! with the recorded frequencies).

use super::*;
use player::testing::{check_bet, check_dealer_states, table, DealerStates};
use player::{BetAction, Player};
use std::sync::Arc;

/// Ten seats' worth of states a dealer can send, with a profile of every kind of answer in
/// every situation and absurd raise sizes (a raise of 10,000 pots, of nothing).
fn everything_profile() -> Profile {
    let mut counts = ProfileCounts::default();
    // Every situation of the state, each with one of the memories in turn.
    for state_index in 0..STATE_SITUATIONS {
        let index = state_index * MEMORIES + state_index % MEMORIES;
        let situation = Situation::from_index(index).unwrap();
        for class in AnswerClass::ALL {
            let size = class.size_slot().map(|slot| [0.0, 1.0, 10_000.0][slot]);
            counts.add(situation, class, size);
        }
    }
    counts.finish("everything", 1, vec!["made up".to_string()])
}

#[test]
fn every_answer_is_a_legal_meaningful_bet_on_any_state_a_dealer_can_send() {
    let profile = Arc::new(everything_profile().compile());
    for seed in 0..3 {
        let bot = ProfileBot::new(profile.clone(), seed);
        let report = check_dealer_states(&bot, &DealerStates::default());
        assert_eq!(report.failed, 0, "{report}");
        assert_eq!(report.panicked, 0, "{report}");
    }
}

#[test]
fn the_file_reads_back_to_the_same_profile_and_the_same_bytes() {
    let profile = everything_profile();
    let text = profile.to_json();
    let read = Profile::from_json(&text).unwrap();
    assert_eq!(read, profile);
    assert_eq!(read.to_json(), text);
    assert_eq!(read.fingerprint(), profile.fingerprint());
}

#[test]
fn bad_files_say_what_is_wrong() {
    let text = everything_profile().to_json();
    let other_format = text.replacen("\"format\": 2", "\"format\": 1", 1);
    assert_eq!(
        Profile::from_json(&other_format).unwrap_err().to_string(),
        "profile format 1, this build reads format 2: fit it again"
    );
    let out_of_range = text.replacen("[0,", &format!("[{SITUATIONS},"), 1);
    assert!(Profile::from_json(&out_of_range)
        .unwrap_err()
        .to_string()
        .contains("out of range"));
    assert!(Profile::from_json("{\"format\": 2}")
        .unwrap_err()
        .to_string()
        .starts_with("not an opponent profile"));
    assert!(Profile::from_json("nonsense").is_err());
}

/// The button, first to act at four seats after the blinds (10/20), with `cards`.
fn open(cards: &str) -> GameState {
    table(4)
        .in_action(3)
        .hole_cards(cards)
        .bets([10, 20, 0, 0])
        .build()
}

#[test]
fn a_situation_seen_often_is_played_with_its_recorded_frequencies() {
    let aces = Situation::read(&open("As Ad"), &mut HandTracker::default()).unwrap();
    let mut counts = ProfileCounts::default();
    for n in 0..1000 {
        let class = if n % 4 == 0 {
            AnswerClass::CheckCall
        } else {
            AnswerClass::AllIn
        };
        counts.add(aces, class, None);
    }
    let profile = counts.finish("shover", 1000, Vec::new()).compile();
    let probabilities = profile.probabilities(aces);
    assert!((probabilities[AnswerClass::AllIn.index()] - 0.75).abs() < 0.01);
    assert!((probabilities[AnswerClass::CheckCall.index()] - 0.25).abs() < 0.01);

    // Played over many hands, the bot shoves three times in four.
    let bot = ProfileBot::new(Arc::new(profile), 7);
    let mut shoves = 0;
    for round in 0..4000 {
        let mut state = open("As Ad");
        state.round = Some(round);
        let answer = bot.bet_request(&state);
        let reading = check_bet(&state, answer).unwrap();
        if reading.action == BetAction::AllIn {
            shoves += 1;
        }
        assert_eq!(
            bot.bet_request(&state),
            answer,
            "the same decision, the same answer"
        );
    }
    assert!((2850..3150).contains(&shoves), "{shoves} shoves in 4000");
}

#[test]
fn an_unseen_situation_is_played_as_the_coarser_ones_it_falls_in() {
    // Only deep-stacked spots recorded on the river: the preflop aces play like the
    // player's preflop in general (always folding), the river like its river.
    let aces = Situation::read(&open("As Ad"), &mut HandTracker::default()).unwrap();
    let mut counts = ProfileCounts::default();
    let mut trash = aces;
    trash.strength = 0;
    trash.depth = 3;
    for _ in 0..500 {
        counts.add(trash, AnswerClass::Fold, None);
    }
    let profile = counts.finish("folder", 500, Vec::new()).compile();
    let probabilities = profile.probabilities(aces);
    assert!(
        probabilities[AnswerClass::Fold.index()] > 0.9,
        "{probabilities:?}"
    );
    // Checking is free: a fold there is a check.
    let mut free = aces;
    free.price = 0;
    assert_eq!(profile.probabilities(free)[AnswerClass::Fold.index()], 0.0);
}

#[test]
fn raises_use_the_recorded_sizes() {
    // Facing a bet, sizes are in minimum raises: 7 of them (the small blind, 10) is 70 more
    // than the call of 20; with nothing to call, a share of the pot: half of 60 on the flop.
    let facing = open("As Ad");
    let flop = table(4)
        .in_action(3)
        .hole_cards("As Ad")
        .bets([20, 20, 0, 20])
        .fold(2)
        .board("2c 7d 9h")
        .build();
    let mut counts = ProfileCounts::default();
    for (state, size) in [(&facing, 7.0), (&flop, 0.5)] {
        let situation = Situation::read(state, &mut HandTracker::default()).unwrap();
        for _ in 0..200 {
            counts.add(situation, AnswerClass::RaiseLarge, Some(size));
        }
    }
    let profile = Arc::new(counts.finish("sizer", 400, Vec::new()).compile());
    for (state, expected) in [(&facing, 20 + 70), (&flop, 30)] {
        let answer = ProfileBot::new(profile.clone(), 1).bet_request(state);
        assert_eq!(answer, Chips(expected));
        assert_eq!(check_bet(state, answer).unwrap().action, BetAction::Raise);
        assert_eq!(
            classify(state, answer).1,
            Some(if expected == 30 { 0.5 } else { 7.0 })
        );
    }
}

#[test]
fn a_bot_playing_games_at_once_plays_each_as_if_alone() {
    // Two games' requests interleaved to one bot get the answers two bots give them apart:
    // the hand's memory is kept by game.
    let profile = Arc::new(everything_profile().compile());
    let hand = |game: &str| -> Vec<GameState> {
        let mut states = vec![
            open("As Ad"),
            table(4)
                .in_action(3)
                .hole_cards("As Ad")
                .bets([180, 20, 0, 60])
                .fold(1)
                .fold(2)
                .build(),
            table(4)
                .in_action(3)
                .hole_cards("As Ad")
                .bets([180, 20, 0, 180])
                .fold(1)
                .fold(2)
                .board("2c 7d 9h")
                .build(),
        ];
        for state in &mut states {
            state.game_id = Some(game.to_string());
        }
        states
    };
    let (a, b) = (hand("a"), hand("b"));
    let alone = |states: &[GameState]| -> Vec<Chips> {
        let bot = ProfileBot::new(profile.clone(), 5);
        states.iter().map(|state| bot.bet_request(state)).collect()
    };
    let together = ProfileBot::new(profile.clone(), 5);
    let mut interleaved = (Vec::new(), Vec::new());
    for (state_a, state_b) in a.iter().zip(&b) {
        interleaved.0.push(together.bet_request(state_a));
        interleaved.1.push(together.bet_request(state_b));
    }
    assert_eq!(interleaved, (alone(&a), alone(&b)));
    // Each hand was remembered from its start; one not seen from its start is not.
    let read = |state: &GameState, tracker: &mut HandTracker| {
        Situation::read(state, tracker).map(|situation| situation.memory)
    };
    assert_eq!(read(&a[2], &mut HandTracker::default()), Some(None));
    let mut tracker = HandTracker::default();
    let memories: Vec<_> = a.iter().map(|state| read(state, &mut tracker)).collect();
    assert!(memories
        .iter()
        .all(|memory| memory.is_some_and(|m| m.is_some())));
}
