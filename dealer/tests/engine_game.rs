//! A whole sit'n'go: bad answers (spec §6), button and blinds over time, the end of the game,
//! ranking and points (spec §7), determinism.

use crate::engine_support;

use dealer::engine::{
    AnswerError, Game, GameSetup, PresetDeal, PresetError, SeatAnswer, SetupError, Step, TableStart,
};
use dealer::game_event::{EliminationReason, GameEndReason, GameEvent};
use dealer::rules::{BadAnswerPolicy, BlindLevel, BlindSchedule, GameRules};
use engine_support::{Table, TableBuilder};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shared::{BetAction, Chips, PlayerStatus, Seat};

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("player {i}")).collect()
}

#[test]
fn spec_6_ban_removes_stack_and_bet_and_counts_as_a_fold() {
    let mut table = TableBuilder::seats(3).start(0, 0, &[1000; 3]).build();
    table.bet(0, 20); // raise to 20
    table.invalid(1, "timeout after 2000 ms"); // the small blind (2 in) is banned
    let banned = table.until_event(|e| matches!(e, GameEvent::Banned { .. }));
    assert_eq!(banned.players[1].status, PlayerStatus::Out);
    assert_eq!(banned.players[1].stack, Chips(0));
    assert_eq!(banned.players[1].bet, Chips(0));
    assert_eq!(banned.pot, Chips(24), "its 2 chips left the pot");
    assert!(matches!(
        table.events.last(),
        Some(GameEvent::Banned { seat: Seat(1), chips_removed: Chips(1000), reason, .. })
            if reason == "timeout after 2000 ms"
    ));
    // The turn counted as a fold: the big blind is asked next.
    let next = table.expect(2);
    assert_eq!(next.bet_index, Some(4));
    table.fold(2);
    let result = table.play_out(|state| SeatAnswer::Bet(state.call_amount()));
    assert_eq!(result.places[1], 3, "ranked when the hand ended");
    // Ranked with the hand's busts, when the hand ends (decision in engine::ranking).
    let ended = table
        .events
        .iter()
        .position(|e| matches!(e, GameEvent::HandEnded { round: 0, .. }))
        .unwrap();
    assert!(matches!(
        table.events[ended + 1],
        GameEvent::PlayerEliminated {
            seat: Seat(1),
            place: 3,
            reason: EliminationReason::Banned,
            ..
        }
    ));
    assert_eq!(result.bans.len(), 1);
    assert_eq!(result.bans[0].round, 0);
    assert_eq!(result.bans[0].name, "p1");
    assert_eq!(result.chips_banned, Chips(1000));
    assert_eq!(
        result.final_stacks.iter().copied().sum::<Chips>(),
        Chips(2000)
    );
}

#[test]
fn spec_6_ban_heads_up_ends_hand_and_game() {
    let mut table = TableBuilder::seats(2).start(0, 0, &[1000; 2]).build();
    table.invalid(1, "status 500");
    let result = table.finish();
    assert_eq!(result.ranking, vec![Seat(0), Seat(1)]);
    assert_eq!(result.points, vec![5, 3]);
    // The banned small blind's 2 chips left the game with it; the big blind gets its own back.
    assert_eq!(result.final_stacks, vec![Chips(1000), Chips(0)]);
    assert_eq!(result.chips_banned, Chips(1000));
    assert_eq!(
        table.showdowns_seen, 1,
        "the hand still ends with a showdown"
    );
}

#[test]
fn spec_6_forgiving_mode_counts_check_or_fold_and_keeps_the_player() {
    let config = GameRules {
        bad_answers: BadAnswerPolicy::Forgive,
        ..GameRules::default()
    };
    let mut table = TableBuilder::seats(3)
        .config(config)
        .start(0, 0, &[1000; 3])
        .build();
    table.bet(0, 4);
    table.bet(1, 2);
    // The big blind owes nothing: a bad answer is a check.
    table.invalid(2, "body \"10\\n\" is not digits");
    let forgiven: Vec<(usize, BetAction)> = {
        table.step();
        table.step();
        table.collect(|event| match event {
            GameEvent::AnswerForgiven {
                seat, counted_as, ..
            } => Some((seat.index(), *counted_as)),
            _ => None,
        })
    };
    assert_eq!(forgiven, vec![(2, BetAction::Check)]);
    // Flop: seat 1 bets, seat 2 fails again and this time owes chips: a fold.
    table.bet(1, 10);
    table.invalid(2, "connection refused");
    let state = table.expect(0);
    assert_eq!(state.players[2].status, PlayerStatus::Folded);
    assert_eq!(state.players[2].stack, Chips(996), "keeps its chips");
    let result = table.play_out(|state| SeatAnswer::Bet(state.call_amount()));
    assert!(result.bans.is_empty());
    assert_eq!(result.warnings.len(), 2);
    assert_eq!(result.warnings[1].counted_as, BetAction::Fold);
    assert_eq!(result.warnings[1].reason, "connection refused");
}

#[test]
fn spec_7_live_blinds_step_every_ten_hands_in_play() {
    let config = GameRules {
        hand_limit: Some(25),
        ..GameRules::default()
    };
    let mut table = TableBuilder::seats(4).config(config).build();
    table.play_out(|_| SeatAnswer::Bet(Chips(0)));
    let blinds: Vec<(u64, u64, u64)> = table.collect(|event| match event {
        GameEvent::HandStarted {
            round,
            small_blind,
            big_blind,
            ..
        } => Some((*round, small_blind.get(), big_blind.get())),
        _ => None,
    });
    assert_eq!(blinds.len(), 25);
    for (round, small, big) in blinds {
        let expected = match round {
            0..=9 => 2,
            10..=19 => 3,
            _ => 5,
        };
        assert_eq!(small, expected, "round {round}");
        assert_eq!(big, 2 * small);
    }
}

#[test]
fn spec_7_classic_blinds_double_every_three_orbits() {
    let config = GameRules {
        blinds: BlindSchedule::Classic,
        hand_limit: Some(19),
        ..GameRules::default()
    };
    let mut table = TableBuilder::seats(3).config(config).build();
    table.play_out(|_| SeatAnswer::Bet(Chips(0)));
    let blinds: Vec<(u64, u64)> = table.collect(|event| match event {
        GameEvent::HandStarted {
            round, small_blind, ..
        } => Some((*round, small_blind.get())),
        _ => None,
    });
    // 3 seats: an orbit is 3 hands; doubling every 9 hands.
    for (round, small) in blinds {
        assert_eq!(small, 10 << (round / 9), "round {round}");
    }
}

#[test]
fn spec_7_custom_blind_levels_and_orbits() {
    let config = GameRules {
        blinds: BlindSchedule::Custom(vec![
            BlindLevel {
                from_round: 0,
                small_blind: Chips(7),
            },
            BlindLevel {
                from_round: 3,
                small_blind: Chips(11),
            },
        ]),
        hand_limit: Some(5),
        ..GameRules::default()
    };
    let mut table = TableBuilder::seats(2).config(config).build();
    table.play_out(|_| SeatAnswer::Bet(Chips(0)));
    let blinds: Vec<u64> = table.collect(|event| match event {
        GameEvent::HandStarted { small_blind, .. } => Some(small_blind.get()),
        _ => None,
    });
    assert_eq!(blinds, vec![7, 7, 7, 11, 11]);
}

#[test]
fn spec_7_button_moves_to_the_next_seat_with_chips() {
    // Seat 2 will bust in hand 0 (heads-up with the button it is not), so the button skips it.
    let mut table = TableBuilder::seats(4)
        .start(0, 0, &[1000, 1000, 10, 1000])
        .build();
    table.deal(&[(2, "7c 2d"), (3, "Ah Ad")], "Kc Qd 9s 4h Jc");
    // Button 0: small blind 1, big blind 2 (posts 4 of 10); seat 3 raises, 2 calls all-in.
    table.bet(3, 10);
    table.fold(0);
    table.fold(1);
    table.bet(2, 6);
    table.showdown();
    table.until_event(|e| matches!(e, GameEvent::HandStarted { .. }));
    let buttons: Vec<(usize, usize, usize)> = table.collect(|event| match event {
        GameEvent::HandStarted {
            button,
            small_blind_seat,
            big_blind_seat,
            ..
        } => Some((
            button.index(),
            small_blind_seat.index(),
            big_blind_seat.index(),
        )),
        _ => None,
    });
    assert_eq!(buttons, vec![(0, 1, 2), (1, 3, 0)]);
}

#[test]
fn spec_7_first_button_is_a_random_seat_from_the_seed() {
    let mut seen = [false; 6];
    for seed in 0..64 {
        let first = |seed| {
            let mut game = Game::new(GameSetup::new(GameRules::default(), names(6), seed)).unwrap();
            match game.step() {
                Step::Event(GameEvent::GameStarted { first_button, .. }) => first_button,
                other => panic!("{other:?}"),
            }
        };
        let button = first(seed);
        assert_eq!(button, first(seed), "same seed, same button");
        seen[button.index()] = true;
    }
    assert!(
        seen.iter().all(|&s| s),
        "every seat can get the first button"
    );
}

#[test]
fn spec_7_game_ends_with_one_player_and_points_5_3_0() {
    let mut table = TableBuilder::seats(5).seed(99).build();
    let result = table.play_out(|state| SeatAnswer::Bet(state.call_amount()));
    assert_eq!(result.ended_by, GameEndReason::LastPlayerStanding);
    let winner = result.ranking[0];
    assert_eq!(result.final_stacks[winner.index()], Chips(5000));
    assert_eq!(result.points[winner.index()], 5);
    assert_eq!(result.points[result.ranking[1].index()], 3);
    assert_eq!(result.points.iter().sum::<u32>(), 8);
    let mut places = result.places.clone();
    places.sort();
    assert_eq!(places, vec![1, 2, 3, 4, 5]);
    assert!(matches!(table.game.step(), Step::Finished));
    assert!(matches!(table.game.step(), Step::Finished));
    assert!(matches!(
        table.events.last(),
        Some(GameEvent::GameEnded { .. })
    ));
}

#[test]
fn spec_7_hand_limit_ranks_survivors_by_chips() {
    let config = GameRules {
        hand_limit: Some(1),
        ..GameRules::default()
    };
    let mut table = TableBuilder::seats(4)
        .config(config)
        .start(0, 0, &[1000; 4])
        .build();
    table.bet(3, 100); // raise to 100
    table.fold(0);
    table.fold(1);
    table.fold(2);
    let result = table.finish();
    assert_eq!(result.ended_by, GameEndReason::HandLimit);
    assert_eq!(result.hands_played, 1);
    // Seat 3: 1006; seat 0: 1000; seat 1: 998; seat 2: 996.
    assert_eq!(result.ranking, vec![Seat(3), Seat(0), Seat(1), Seat(2)]);
    assert_eq!(result.points, vec![3, 0, 0, 5]);
}

#[test]
fn spec_7_hand_limit_ties_ranked_by_seat_order_after_the_button() {
    let config = GameRules {
        hand_limit: Some(1),
        ..GameRules::default()
    };
    let mut table = TableBuilder::seats(4)
        .config(config)
        .start(0, 0, &[1000; 4])
        .build();
    // Everybody folds to the big blind (seat 2, +2), seats 0 and 3 keep 1000 each.
    table.fold(3);
    table.fold(0);
    table.fold(1);
    let result = table.finish();
    // Order from the first seat after the button with chips: 1, 2, 3, 0; among the tied
    // 1000s (seats 3 and 0) the later one, seat 0, ranks higher.
    assert_eq!(result.ranking, vec![Seat(2), Seat(0), Seat(3), Seat(1)]);
}

#[test]
fn setup_errors_are_clear() {
    let setup = |players: Vec<String>| GameSetup::new(GameRules::default(), players, 1);
    assert_eq!(
        Game::new(setup(names(1))).unwrap_err(),
        SetupError::TooFewPlayers(1)
    );
    assert_eq!(
        Game::new(setup(names(11))).unwrap_err(),
        SetupError::TooManyPlayers(11)
    );
    assert_eq!(
        Game::new(setup(vec!["a".into(), " ".into()])).unwrap_err(),
        SetupError::BlankName(Seat(1))
    );
    assert!(matches!(
        Game::new(setup(vec!["a".into(), "b".into(), "a".into()])).unwrap_err(),
        SetupError::DuplicateName {
            first: Seat(0),
            second: Seat(2),
            ..
        }
    ));
    let mut bad_id = setup(names(2));
    bad_id.game_id = "not-an-id".into();
    assert!(matches!(
        Game::new(bad_id).unwrap_err(),
        SetupError::InvalidId {
            field: "game_id",
            ..
        }
    ));
    let bad_config = GameSetup::new(
        GameRules {
            starting_stack: Chips(0),
            ..GameRules::default()
        },
        names(2),
        1,
    );
    assert!(matches!(
        Game::new(bad_config).unwrap_err(),
        SetupError::Config(_)
    ));
    let table = |stacks: Vec<u64>, button| TableStart {
        round: 0,
        button: Seat(button),
        stacks: stacks.into_iter().map(Chips).collect(),
    };
    assert!(matches!(
        Game::with_table(setup(names(3)), table(vec![5, 5], 0)).unwrap_err(),
        SetupError::StackCount { .. }
    ));
    assert!(matches!(
        Game::with_table(setup(names(3)), table(vec![5, 0, 0], 0)).unwrap_err(),
        SetupError::TooFewPlayersWithChips(1)
    ));
    assert!(matches!(
        Game::with_table(setup(names(3)), table(vec![5, 0, 5], 1)).unwrap_err(),
        SetupError::BadButton(Seat(1))
    ));
}

#[test]
fn api_misuse_gets_errors_not_panics() {
    let mut game = Game::new(GameSetup::new(GameRules::default(), names(3), 5)).unwrap();
    assert_eq!(
        game.answer(SeatAnswer::Bet(Chips(1))),
        Err(AnswerError::NoBetRequestPending)
    );
    assert!(game.bet_request_state().is_none());
    assert!(game.showdown_state(Seat(0)).is_none());
    assert!(game.set_version(Seat(3), "x".into()).is_err());
    assert!(game.add_time_used(Seat(7), 1).is_err());
    let card = "Ah".parse().unwrap();
    assert_eq!(
        game.preset_next_hand(PresetDeal {
            hole_cards: vec![(Seat(0), [card, card])],
            board: vec![],
        }),
        Err(PresetError::DuplicateCard(card))
    );
    game.add_time_used(Seat(0), u64::MAX).unwrap();
    game.add_time_used(Seat(0), 5).unwrap();
    assert_eq!(game.viewer_state().players[0].time_used, Some(u64::MAX));
    while !matches!(game.step(), Step::BetRequest { .. }) {}
    assert!(game.showdown_state(Seat(0)).is_none(), "no showdown open");
    assert!(game.result().is_none());
}

/// Plays a whole game with answers drawn from `answer_seed`, returning every event and the
/// JSON of every document sent.
fn record_game(seed: u64, answer_seed: u64) -> (Vec<GameEvent>, Vec<String>) {
    let mut game = Game::new(GameSetup::new(GameRules::default(), names(5), seed)).unwrap();
    let mut answers = ChaCha8Rng::seed_from_u64(answer_seed);
    let mut events = Vec::new();
    let mut documents = Vec::new();
    loop {
        match game.step() {
            Step::Event(event) => {
                documents.push(game.viewer_state().to_json());
                events.push(event);
            }
            Step::BetRequest { seat } => {
                let state = game.bet_request_state().unwrap();
                documents.push(state.to_json());
                let answer = match answers.random_range(0..10) {
                    0 => SeatAnswer::Bet(Chips(0)),
                    1 => SeatAnswer::Bet(state.minimum_raise_amount()),
                    2 => SeatAnswer::Bet(Chips(answers.random_range(0..200))),
                    3 if answers.random_range(0..50) == 0 => SeatAnswer::Invalid {
                        reason: "timeout".into(),
                    },
                    _ => SeatAnswer::Bet(state.call_amount()),
                };
                game.add_time_used(seat, answers.random_range(0..5000))
                    .unwrap();
                game.answer(answer).unwrap();
            }
            Step::Showdown { .. } => {
                for seat in 0..game.seat_count() {
                    documents.push(game.showdown_state(Seat(seat)).unwrap().to_json());
                }
            }
            Step::Finished => return (events, documents),
        }
    }
}

#[test]
fn determinism_same_seed_and_answers_give_identical_events_and_documents() {
    let (events_a, documents_a) = record_game(42, 7);
    let (events_b, documents_b) = record_game(42, 7);
    assert_eq!(events_a, events_b);
    assert_eq!(documents_a, documents_b);
    let json_a = serde_json::to_string(&events_a).unwrap();
    let json_b = serde_json::to_string(&events_b).unwrap();
    assert_eq!(json_a, json_b);
    let (events_c, _) = record_game(43, 7);
    assert_ne!(events_a, events_c, "another seed deals other cards");
}

#[test]
fn events_round_trip_through_json() {
    let (events, _) = record_game(3, 3);
    let json = serde_json::to_string(&events).unwrap();
    let back: Vec<GameEvent> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, events);
}

#[test]
fn result_serialises_for_results_json() {
    let mut table: Table = TableBuilder::seats(3).build();
    let result = table.play_out(|state| SeatAnswer::Bet(state.call_amount()));
    let json = serde_json::to_string(&result).unwrap();
    let back: dealer::result::GameResult = serde_json::from_str(&json).unwrap();
    assert_eq!(back, result);
}
