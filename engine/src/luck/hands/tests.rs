//! The ledger on real games: the meter's figures unchanged, the hands' adjusted changes
//! telescoping to the game's, the points at the end the places' points, every misread,
//! forgiven answer and ban noted.

use super::*;
use crate::game_event::GameEndReason;
use crate::result::points_for_place;
use crate::rules::{BadAnswerPolicy, GameRules};
use crate::{Game, GameSetup, SeatAnswer, Step};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shared::rules::{read_bet, BetContext};

/// What the test's players did that the ledger should note, by seat.
#[derive(Default)]
struct Expected {
    misreads: Vec<(u64, usize)>,
    invalid: Vec<(u64, usize)>,
}

/// Plays game `seed` with random answers (some below the minimum raise, some invalid), feeding
/// a ledger and a plain meter.
fn play(seed: u64, rules: GameRules) -> (Game, HandLedger, LuckMeter, Expected) {
    let seats = 2 + (seed as usize % 5);
    let names = (0..seats).map(|s| format!("p{s}")).collect();
    let mut game = Game::new(GameSetup::new(rules, names, seed)).unwrap();
    let mut ledger = HandLedger::all_seats(seats, seed);
    let mut meter = LuckMeter::all_seats(seats, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut expected = Expected::default();
    let mut round = 0;
    loop {
        match game.step() {
            Step::Event(event) => {
                if let GameEvent::HandStarted { round: r, .. } = &event {
                    round = *r;
                }
                ledger.observe(&event);
                meter.observe(&event);
            }
            Step::BetRequest { seat, .. } => {
                let state = game.bet_request_state().unwrap();
                let answer = match rng.random_range(0..40) {
                    0 => {
                        expected.invalid.push((round, seat.index()));
                        game.answer(SeatAnswer::Invalid {
                            reason: "timeout after 2000 ms".into(),
                        })
                        .unwrap();
                        continue;
                    }
                    1..=4 => Chips::ZERO,
                    5..=6 => state.all_in_amount(),
                    7..=12 => state.minimum_raise_amount(),
                    // A raise of one chip over the call: below the minimum unless all-in.
                    13..=18 => state.call_amount().saturating_add(Chips(1)),
                    _ => state.call_amount(),
                };
                let me = state.me().unwrap();
                let reading = read_bet(
                    &BetContext {
                        stack: me.stack,
                        bet: me.bet,
                        current_buy_in: state.current_buy_in,
                        minimum_raise: state.minimum_raise(),
                    },
                    answer,
                );
                if reading.put_in != answer && reading.action != BetAction::AllIn {
                    expected.misreads.push((round, seat.index()));
                }
                game.answer(SeatAnswer::Bet(answer)).unwrap();
            }
            Step::Showdown { .. } => {}
            Step::Finished => break,
        }
    }
    (game, ledger, meter, expected)
}

#[test]
fn the_hands_adjusted_changes_telescope_to_the_games_and_the_meter_is_unchanged() {
    let mut checked = 0;
    for seed in 0..12u64 {
        let forgiving = seed % 2 == 0;
        let rules = GameRules {
            bad_answers: if forgiving {
                BadAnswerPolicy::Forgive
            } else {
                BadAnswerPolicy::Ban
            },
            ..GameRules::default()
        };
        let (game, ledger, meter, _) = play(seed, rules);
        let result = game.result().unwrap();
        let seats = result.players.len();
        for seat in 0..seats {
            assert_eq!(
                ledger.meter().luck(seat).to_bits(),
                meter.luck(seat).to_bits(),
                "seed {seed}, seat {seat}: the meter's figure is unchanged"
            );
            let hands: Vec<&SeatHand> = ledger.hands().iter().filter(|h| h.seat == seat).collect();
            let (Some(first), Some(last)) = (hands.first(), hands.last()) else {
                continue;
            };
            // A seat's points at one hand's end are its points at its next hand's start.
            for pair in hands.windows(2) {
                assert!(
                    (pair[0].points_after - pair[1].points_before).abs() < 1e-9,
                    "seed {seed}, seat {seat}, hand {}",
                    pair[1].round
                );
            }
            let adjusted: f64 = hands.iter().map(|hand| -hand.cost()).sum();
            let whole = last.points_after - first.points_before - meter.luck(seat);
            assert!(
                (adjusted - whole).abs() < 1e-9,
                "seed {seed}, seat {seat}: {adjusted} against {whole}"
            );
            let luck: f64 = hands.iter().map(|hand| hand.luck).sum();
            assert!((luck - meter.luck(seat)).abs() < 1e-9);
            // Played to the last player, without bans: the points at the end are the place's.
            if result.ended_by == GameEndReason::LastPlayerStanding && result.bans.is_empty() {
                assert_eq!(
                    last.points_after,
                    f64::from(points_for_place(result.places[seat])),
                    "seed {seed}, seat {seat}"
                );
            }
            checked += 1;
        }
        for hand in ledger.hands() {
            assert_eq!(hand.hole.len(), 2, "dealt in, dealt two cards");
            assert!(hand.board.len() <= 5);
            if let Some(decision) = &hand.decision {
                assert!(decision.stake() >= decision.put_in);
            }
        }
    }
    assert!(checked > 30, "{checked}");
}

#[test]
fn every_misread_forgiven_answer_and_ban_is_noted() {
    let mut misreads = 0;
    let mut invalid = 0;
    for seed in 40..52u64 {
        let forgiving = seed % 2 == 0;
        let rules = GameRules {
            bad_answers: if forgiving {
                BadAnswerPolicy::Forgive
            } else {
                BadAnswerPolicy::Ban
            },
            ..GameRules::default()
        };
        let (_, ledger, _, expected) = play(seed, rules);
        let noted = |kinds: &[NoteKind]| -> Vec<(u64, usize)> {
            ledger
                .notes()
                .iter()
                .filter(|note| kinds.contains(&note.kind))
                .map(|note| (note.round, note.seat))
                .collect()
        };
        assert_eq!(noted(&[NoteKind::Misread]), expected.misreads, "{seed}");
        let invalid_kind = if forgiving {
            NoteKind::Forgiven
        } else {
            NoteKind::Banned
        };
        assert_eq!(noted(&[invalid_kind]), expected.invalid, "{seed}");
        for note in ledger.notes() {
            assert_eq!(note.hole.len(), 2);
            match note.kind {
                NoteKind::Misread => {
                    let decision = &note.decision;
                    assert!(decision.answer.is_some_and(|a| a != decision.put_in));
                    assert!(note.reason.is_none());
                }
                NoteKind::Forgiven | NoteKind::Banned => {
                    assert_eq!(note.reason.as_deref(), Some("timeout after 2000 ms"));
                    assert_eq!(note.decision.answer, None);
                }
            }
        }
        misreads += expected.misreads.len();
        invalid += expected.invalid.len();
    }
    assert!(misreads > 20 && invalid > 3, "{misreads} {invalid}");
}

#[test]
fn a_hands_biggest_decision_is_its_answer_with_the_most_at_stake() {
    let mut raises = 0;
    for seed in 1..6 {
        let (_, ledger, _, _) = play(seed, GameRules::default());
        for hand in ledger.hands() {
            let Some(decision) = &hand.decision else {
                continue;
            };
            assert!(decision.pot_before > Chips::ZERO, "the blinds are in");
            if decision.action == BetAction::Call {
                assert_eq!(decision.put_in, decision.price);
            }
            if decision.action == BetAction::Check {
                assert_eq!(decision.price, Chips::ZERO);
            }
            raises += usize::from(decision.action == BetAction::Raise);
        }
    }
    assert!(raises > 0);
}
