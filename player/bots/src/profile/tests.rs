//! Profiles: the file format, the back-off, and a profile bot's answers (legal, deterministic,
//! with the recorded frequencies).

use super::*;
use player::testing::{check_bet, check_dealer_states, table, DealerStates};
use player::BetAction;

/// Ten seats' worth of states a dealer can send, with a profile of every kind of answer in
/// every situation and absurd raise sizes (a raise of 10,000 pots, of nothing).
fn everything_profile() -> Profile {
    let mut counts = ProfileCounts::default();
    for index in 0..SITUATIONS {
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
    let other_format = text.replacen("\"format\": 1", "\"format\": 7", 1);
    assert_eq!(
        Profile::from_json(&other_format).unwrap_err().to_string(),
        "profile format 7, this build reads format 1: fit it again"
    );
    let out_of_range = text.replacen("[0,", &format!("[{SITUATIONS},"), 1);
    assert!(Profile::from_json(&out_of_range)
        .unwrap_err()
        .to_string()
        .contains("out of range"));
    assert!(Profile::from_json("{\"format\": 1}")
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
    let aces = Situation::read(&open("As Ad")).unwrap();
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
    let aces = Situation::read(&open("As Ad")).unwrap();
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
    let aces = Situation::read(&open("As Ad")).unwrap();
    let mut counts = ProfileCounts::default();
    for _ in 0..200 {
        // Raises of 2.5 pots: 2.5 x (30 in the pot + 20 to call) = 125 more than the call.
        counts.add(aces, AnswerClass::RaiseLarge, Some(2.5));
    }
    let bot = ProfileBot::new(
        Arc::new(counts.finish("sizer", 200, Vec::new()).compile()),
        1,
    );
    let state = open("As Ad");
    let answer = bot.bet_request(&state);
    assert_eq!(answer, Chips(20 + 125));
    assert_eq!(check_bet(&state, answer).unwrap().action, BetAction::Raise);
}
