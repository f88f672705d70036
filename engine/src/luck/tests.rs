//! The value is a martingale over the chance events (exactly, or without bias for the flop),
//! and the meter reads the table as the engine has it.

use super::value::{CheckDown, HandSnapshot, Outcomes};
use super::*;
use crate::rules::GameRules;
use crate::{Game, GameSetup, SeatAnswer, Step};
use rand::seq::SliceRandom;
use rand::Rng;
use shared::{Chips, PlayerStatus};

/// The value of a hand for one seat.
struct OneSeat<'a> {
    check_down: CheckDown<'a>,
    you: usize,
}

impl<'a> OneSeat<'a> {
    fn new(hand: &'a HandSnapshot, you: usize) -> OneSeat<'a> {
        OneSeat {
            check_down: CheckDown::new(hand),
            you,
        }
    }

    fn value(&self, outcomes: Outcomes) -> f64 {
        self.check_down.value(&outcomes, self.you)
    }

    fn exact(&self, board: &[Card], unseen: &[Card]) -> f64 {
        self.value(self.check_down.exact(board, unseen))
    }

    fn sampled(&self, unseen: &[Card], samples: u32, rng: &mut impl Rng) -> f64 {
        self.value(self.check_down.sampled(unseen, samples, rng))
    }
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

#[test]
fn icm_shares_the_event_points_and_ranks_busts_as_the_engine_does() {
    // Heads-up, equal stacks: 5 and 3 points shared evenly.
    assert!(close(points(0, &[500.0, 500.0], 0b11, 0), 4.0, 1e-12));
    // Three equal stacks: a third of each place.
    assert!(close(
        points(1, &[100.0, 100.0, 100.0], 0b111, 0),
        8.0 / 3.0,
        1e-12
    ));
    // Whatever the stacks, the players with chips share 5 + 3 points.
    let stacks = [120.0, 0.0, 900.0, 333.0, 47.0];
    let total: f64 = (0..5).map(|s| points(s, &stacks, 0b11111, 2)).sum();
    // Seat 1 busted in this hand with three or more left: 0 points.
    assert!(close(total, 8.0, 1e-9), "{total}");
    // The last player with chips wins; of two busted in one hand, the later seat from the
    // first seat after the button with chips ranks higher (second).
    let end = [0.0, 0.0, 3000.0];
    assert_eq!(points(2, &end, 0b111, 0), 5.0);
    // Button 0: the order starts at seat 2 (the first after the button with chips): 2, 0, 1;
    // busted 0 then 1, so seat 1 ranks higher.
    assert_eq!(points(1, &end, 0b111, 0), 3.0);
    assert_eq!(points(0, &end, 0b111, 0), 0.0);
    // Button 1: the order is 2, 0, 1 again... from seat 2: 2, 0, 1; with button 2: 0, 1, 2.
    assert_eq!(points(1, &end, 0b111, 2), 3.0);
    let end = [0.0, 3000.0, 0.0];
    // Button 0: the order starts at seat 1: 1, 2, 0; busted 2 then 0: seat 0 is second.
    assert_eq!(points(0, &end, 0b101, 0), 3.0);
    assert_eq!(points(2, &end, 0b101, 0), 0.0);
}

/// A random hand in progress: 2 to 6 seats, some out, chips in the pot at random levels
/// (all-ins included), some folded, every seat's cards dealt, `board` cards on the board.
fn random_hand(rng: &mut impl Rng, board: usize) -> (HandSnapshot, Vec<Card>, Vec<Card>) {
    let seats = rng.random_range(2..=6);
    let mut deck: Vec<Card> = Card::deck().collect();
    deck.shuffle(rng);
    let mut hand = HandSnapshot {
        seats,
        button: rng.random_range(0..seats),
        behind: [0; MAX_SEATS],
        put_in: [0; MAX_SEATS],
        dealt_in: 0,
        contesting: 0,
        hole: [[PLACEHOLDER; 2]; MAX_SEATS],
    };
    let levels = [0u64, 10, 40, 40, 100, 250, 600];
    let mut seen = Vec::new();
    for seat in 0..seats {
        if seat > 0 && rng.random_bool(0.15) {
            continue; // out of the game
        }
        hand.dealt_in |= 1 << seat;
        hand.hole[seat] = [deck.pop().unwrap(), deck.pop().unwrap()];
        seen.extend(hand.hole[seat]);
        hand.put_in[seat] = levels[rng.random_range(0..levels.len())];
        hand.behind[seat] = if rng.random_bool(0.3) {
            0
        } else {
            rng.random_range(1..2000)
        };
        if rng.random_bool(0.75) {
            hand.contesting |= 1 << seat;
        }
    }
    // At least one contender, and every seat dealt in has chips somewhere.
    hand.contesting |= 1;
    for seat in 0..seats {
        if hand.dealt_in & (1 << seat) != 0 && hand.put_in[seat] + hand.behind[seat] == 0 {
            hand.behind[seat] = 5;
        }
    }
    let board: Vec<Card> = (0..board).map(|_| deck.pop().unwrap()).collect();
    (hand, board, deck)
}

#[test]
fn the_value_before_a_card_is_the_mean_of_the_values_after_it() {
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    for case in 0..60 {
        let board_len = if case % 2 == 0 { 3 } else { 4 };
        let (hand, board, unseen) = random_hand(&mut rng, board_len);
        for you in 0..hand.seats {
            let value = OneSeat::new(&hand, you);
            let before = value.exact(&board, &unseen);
            let mut sum = 0.0;
            for (index, &card) in unseen.iter().enumerate() {
                let mut next = board.clone();
                next.push(card);
                let rest: Vec<Card> = unseen
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != index)
                    .map(|(_, &c)| c)
                    .collect();
                sum += value.exact(&next, &rest);
            }
            let after = sum / unseen.len() as f64;
            assert!(
                close(before, after, 1e-9),
                "case {case}, seat {you}: {before} before, {after} on average after"
            );
        }
        // The seats' values share the points still to be won (8 with two or more left,
        // less when someone's place is already decided below second).
        let total: f64 = (0..hand.seats)
            .map(|you| OneSeat::new(&hand, you).exact(&board, &unseen))
            .sum();
        assert!(total <= 8.0 + 1e-9, "case {case}: {total}");
    }
}

#[test]
fn bets_to_come_keep_every_chip_and_come_only_from_the_players_in_the_hand() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..50 {
        let (hand, _, _) = random_hand(&mut rng, 3);
        let more = hand.with_bets_to_come(1.5);
        let pot: u64 = hand.put_in[..hand.seats].iter().sum();
        for seat in 0..hand.seats {
            assert_eq!(
                more.behind[seat] + more.put_in[seat],
                hand.behind[seat] + hand.put_in[seat]
            );
            let added = more.put_in[seat] - hand.put_in[seat];
            if hand.contesting & (1 << seat) == 0 {
                assert_eq!(added, 0);
            } else {
                assert_eq!(added, ((1.5 * pot as f64) as u64).min(hand.behind[seat]));
            }
        }
        assert_eq!(hand.with_bets_to_come(0.0), hand);
    }
}

#[test]
fn the_sampled_value_before_the_flop_is_unbiased() {
    // Few unseen cards, so that the exact mean over every whole board is quick.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for case in 0..3 {
        let (hand, _, mut unseen) = random_hand(&mut rng, 0);
        unseen.truncate(9);
        for you in 0..hand.seats {
            let value = OneSeat::new(&hand, you);
            // The exact mean over the 126 boards of 5 of the 9 cards.
            let mut sum = 0.0;
            let mut boards = 0;
            for mask in 0u32..(1 << unseen.len()) {
                if mask.count_ones() != 5 {
                    continue;
                }
                let board: Vec<Card> = (0..unseen.len())
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| unseen[i])
                    .collect();
                sum += value.exact(&board, &[]);
                boards += 1;
            }
            let exact = sum / f64::from(boards);
            // Many small estimates: their mean converges to the exact value.
            let estimates: Vec<f64> = (0..200)
                .map(|_| value.sampled(&unseen, 50, &mut rng))
                .collect();
            let mean = estimates.iter().sum::<f64>() / estimates.len() as f64;
            let sd = (estimates.iter().map(|e| (e - mean).powi(2)).sum::<f64>()
                / (estimates.len() - 1) as f64)
                .sqrt();
            let standard_error = sd / (estimates.len() as f64).sqrt();
            assert!(
                close(mean, exact, 4.0 * standard_error + 1e-9),
                "case {case}, seat {you}: sampled {mean} ± {standard_error}, exact {exact}"
            );
        }
    }
}

/// The meter's reading of the table at every board card is the engine's: chips behind and in
/// the pot, who is still in the hand; and a game's luck is the sum of its corrections.
#[test]
fn the_meter_reads_the_table_as_the_engine_has_it() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut corrected_games = 0;
    for seed in 0..12u64 {
        let seats = 2 + (seed as usize % 5);
        let names = (0..seats).map(|s| format!("p{s}")).collect();
        let mut game = Game::new(GameSetup::new(GameRules::default(), names, seed)).unwrap();
        let mut meter = LuckMeter::for_seat(0, seats, seed);
        loop {
            match game.step() {
                Step::Event(event) => {
                    if let GameEvent::CommunityCardDealt { .. } = event {
                        let view = game.viewer_state();
                        let mut contesting = 0;
                        for (seat, player) in view.players.iter().enumerate() {
                            assert_eq!(meter.hand.behind[seat], player.stack.get(), "{seat}");
                            assert_eq!(meter.hand.put_in[seat], player.bet.get(), "{seat}");
                            // An all-in player is active; one who busted earlier is out.
                            if player.status == PlayerStatus::Active {
                                contesting |= 1 << seat;
                                assert_eq!(&meter.hand.hole[seat][..], player.cards(), "{seat}");
                            }
                        }
                        assert_eq!(meter.contesting(), contesting);
                    }
                    meter.observe(&event);
                }
                Step::BetRequest { .. } => {
                    let state = game.bet_request_state().unwrap();
                    // Random play with all-ins, so that pots split into levels.
                    let answer = match rng.random_range(0..6) {
                        0 => Chips::ZERO,
                        1 => state.all_in_amount(),
                        2 => state.minimum_raise_amount(),
                        _ => state.call_amount(),
                    };
                    game.answer(SeatAnswer::Bet(answer)).unwrap();
                }
                Step::Showdown { .. } => {}
                Step::Finished => break,
            }
        }
        if meter.luck(0) != 0.0 {
            corrected_games += 1;
        }
        assert!(meter.luck(0).is_finite());
    }
    assert!(corrected_games > 6, "{corrected_games}");
}

/// The event values every seat in one pass, the arena one seat: a seat's figure is the same
/// to the bit either way, and the seats not valued stay at 0.
#[test]
fn the_all_seats_meter_gives_each_seat_its_single_seat_figure() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut lucky_seats = 0;
    for seed in 20..30u64 {
        let seats = 2 + (seed as usize % 5);
        let names = (0..seats).map(|s| format!("p{s}")).collect();
        let mut game = Game::new(GameSetup::new(GameRules::default(), names, seed)).unwrap();
        let mut all = LuckMeter::all_seats(seats, seed);
        let mut single: Vec<LuckMeter> = (0..seats)
            .map(|seat| LuckMeter::for_seat(seat, seats, seed))
            .collect();
        loop {
            match game.step() {
                Step::Event(event) => {
                    all.observe(&event);
                    for meter in &mut single {
                        meter.observe(&event);
                    }
                }
                Step::BetRequest { .. } => {
                    let state = game.bet_request_state().unwrap();
                    let answer = match rng.random_range(0..6) {
                        0 => Chips::ZERO,
                        1 => state.all_in_amount(),
                        2 => state.minimum_raise_amount(),
                        _ => state.call_amount(),
                    };
                    game.answer(SeatAnswer::Bet(answer)).unwrap();
                }
                Step::Showdown { .. } => {}
                Step::Finished => break,
            }
        }
        assert_eq!(all.lucks().len(), seats);
        for (seat, meter) in single.iter().enumerate() {
            assert_eq!(
                all.luck(seat).to_bits(),
                meter.luck(seat).to_bits(),
                "{seed} {seat}"
            );
            assert!(meter.luck(seat).is_finite());
            for other in (0..seats).filter(|&other| other != seat) {
                assert_eq!(meter.luck(other), 0.0);
            }
            lucky_seats += usize::from(meter.luck(seat) != 0.0);
        }
    }
    assert!(lucky_seats > 20, "{lucky_seats}");
}
