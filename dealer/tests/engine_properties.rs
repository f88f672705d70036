//! Properties over random games (proptest): random answers (small, large, huge numbers, the
//! bot helpers' amounts) and random failures, under every configuration switch.
//!
//! For every game: chips are conserved exactly (players × starting stack, less banned chips
//! and chips discarded by the OSS odd-chip rule), every document validates and round-trips
//! through JSON (checked on every step by the scripted table), the receiver of a bet request
//! is the only player whose cards are visible, and the game ends within a bounded number of
//! steps.

use crate::engine_support;

use dealer::engine::{Document, SeatAnswer, Step, View};
use dealer::game_event::GameEvent;
use dealer::rules::{BadAnswerPolicy, BlindSchedule, GameRules, OddChipRule};
use engine_support::TableBuilder;
use proptest::prelude::*;
use shared::{Chips, GameState, Seat};

#[derive(Debug, Clone)]
enum Answer {
    Fold,
    Call,
    MinimumRaise,
    AllIn,
    Number(u64),
    Huge(u64),
    Invalid,
}

fn answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        4 => Just(Answer::Call),
        2 => Just(Answer::Fold),
        2 => Just(Answer::MinimumRaise),
        1 => Just(Answer::AllIn),
        2 => (0u64..3000).prop_map(Answer::Number),
        1 => any::<u64>().prop_map(Answer::Huge),
        1 => Just(Answer::Invalid),
    ]
}

fn to_seat_answer(answer: &Answer, state: &GameState) -> SeatAnswer {
    let chips = match answer {
        Answer::Fold => Chips(0),
        Answer::Call => state.call_amount(),
        Answer::MinimumRaise => state.minimum_raise_amount(),
        Answer::AllIn => state.all_in_amount(),
        Answer::Number(n) | Answer::Huge(n) => Chips(*n),
        Answer::Invalid => {
            return SeatAnswer::Invalid {
                reason: "random failure".into(),
            }
        }
    };
    SeatAnswer::Bet(chips)
}

/// At most this many steps per game: far above any real game (a hand is under 200 steps and
/// the live blinds end a game within a few hundred hands).
const STEP_LIMIT: usize = 2_000_000;
/// Steps played of a game with huge stacks. Its hands are bounded (`hand_limit`), but one
/// hand is not: players who answer the minimum raise in turn raise by the big blind until
/// their stacks run out, about 10^13 raises, so the game is played this far and checked at
/// every step (documents, chip conservation); its end is checked only when it ends.
const HUGE_STACK_STEPS: usize = 20_000;
/// Bet requests per game whose documents are compared with fresh renders.
const RENDER_CHECKS: usize = 3_000;

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn spec_5_6_7_random_games_conserve_chips_stay_valid_and_end(
        seed in any::<u64>(),
        players in 2usize..=8,
        answers in prop::collection::vec(answer(), 1..48),
        forgive in any::<bool>(),
        oss_odd_chips in any::<bool>(),
        deal_out_board in any::<bool>(),
        classic in any::<bool>(),
        stack in prop_oneof![Just(1000u64), 1u64..200, Just(1_000_000_000_000_000)],
    ) {
        let config = GameRules {
            starting_stack: Chips(stack),
            blinds: if classic { BlindSchedule::Classic } else { BlindSchedule::Live },
            bad_answers: if forgive { BadAnswerPolicy::Forgive } else { BadAnswerPolicy::Ban },
            odd_chips: if oss_odd_chips { OddChipRule::DiscardLikeOss } else { OddChipRule::LeftOfButton },
            deal_out_board,
            // Huge stacks never bust under these blinds: bound those games by hands (and their
            // raise wars by HUGE_STACK_STEPS).
            hand_limit: (stack > 1_000_000).then_some(60),
        };
        let mut table = TableBuilder::seats(players).config(config).seed(seed).build();
        prop_assert_eq!(table.total_chips, Chips(stack) * players as u64);
        let mut next_answer = 0;
        let mut finished = false;
        let mut kept = Document::new();
        let huge_stacks = stack > 1_000_000;
        let step_limit = if huge_stacks { HUGE_STACK_STEPS } else { STEP_LIMIT };
        for _ in 0..step_limit {
            // `Table::step` validates every document and checks chip conservation.
            match table.step() {
                Step::BetRequest { seat } => {
                    let state = table.game.bet_request_state().unwrap();
                    // The engine updates its request document in place; a fresh render must
                    // give the same document (checked early in the game: long games stay fast).
                    if next_answer < RENDER_CHECKS {
                        let fresh = table.game.document(View::BetRequest).unwrap();
                        prop_assert_eq!(state, &fresh);
                    }
                    prop_assert_eq!(state.players[seat.index()].cards().len(), 2);
                    let visible = state.players.iter().filter(|p| p.hole_cards.is_some()).count();
                    prop_assert_eq!(visible, 1);
                    let reply = to_seat_answer(&answers[next_answer % answers.len()], state);
                    next_answer += 1;
                    table.game.answer(reply).unwrap();
                }
                Step::Showdown { .. } => {
                    for seat in 0..players {
                        let state = table.game.showdown_state(Seat(seat)).unwrap();
                        prop_assert!(state.players[seat].hole_cards.is_some(), "own cards visible");
                        // A kept document, rendered for one receiver after another and for
                        // every hand, must equal a fresh render.
                        if next_answer < RENDER_CHECKS {
                            table
                                .game
                                .render_document(View::Showdown(Seat(seat)), &mut kept)
                                .unwrap();
                            prop_assert_eq!(kept.state(), &state);
                        }
                    }
                    if next_answer < RENDER_CHECKS {
                        table.game.render_document(View::Viewer, &mut kept).unwrap();
                        prop_assert_eq!(kept.state(), &table.game.viewer_state());
                    }
                }
                Step::Event(_) => {}
                Step::Finished => {
                    finished = true;
                    break;
                }
            }
        }
        if huge_stacks && !finished {
            return Ok(());
        }
        prop_assert!(finished, "the game ended within {} steps", STEP_LIMIT);
        let result = table.game.result().unwrap().clone();
        let remaining: Chips = result.final_stacks.iter().copied().sum();
        prop_assert_eq!(
            remaining + result.chips_banned + result.chips_discarded,
            Chips(stack) * players as u64
        );
        if !oss_odd_chips {
            prop_assert_eq!(result.chips_discarded, Chips(0));
        }
        if forgive {
            prop_assert!(result.bans.is_empty());
        } else {
            prop_assert!(result.warnings.is_empty());
        }
        let mut places = result.places.clone();
        places.sort_unstable();
        prop_assert_eq!(places, (1..=players).collect::<Vec<_>>());
        prop_assert_eq!(result.points.iter().sum::<u32>(), 8);
        let banned_events = table
            .events
            .iter()
            .filter(|e| matches!(e, GameEvent::Banned { .. }))
            .count();
        prop_assert_eq!(banned_events, result.bans.len());
    }
}
