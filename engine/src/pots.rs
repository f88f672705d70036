//! Paying the pot (spec §5): side pots, split pots, odd chips and the reveal order.
//!
//! The rule, repeated until no chips remain in the pot:
//!
//! 1. among players still in the hand with chips in, find the best hand(s), examining hands
//!    from the last aggressor in seat order; a hand is **revealed** when no better hand was
//!    seen earlier in that examination (ties are revealed too). A pot with a single such
//!    player is uncontested: nothing is examined or revealed;
//! 2. the pot's level is the smallest remaining bet among the winners; every player, folded
//!    ones included, contributes `min(remaining bet, level)`;
//! 3. the winners split it; odd chips per [`OddChipRule`].
//!
//! Chips that nobody still in the hand can win (only after a ban or a forgiven answer removed
//! the last contender of that level) are returned to their owners, so the loop always ends and
//! no chip is lost.
//!
//! This module is pure: it reads bets and strengths and reports [`Payout`]s in order.

use super::hand_eval::Strength;
use super::seat_buf::SeatBuf;
use crate::game_event::{PotShare, SeatList, MAX_SEATS};
use crate::rules::OddChipRule;
use shared::{Chips, Seat};

/// What the pot loop needs to know about the hand.
#[derive(Debug, Clone)]
pub(crate) struct PotInput {
    /// Each seat's bet (chips in the pot); only the first `seat_count` entries are used.
    pub bets: [Chips; MAX_SEATS],
    /// Bit `s` set: seat `s` is still in the hand (not folded, not out).
    pub in_hand: u32,
    /// Hand strengths of players still in the hand (needed only when two or more contest a
    /// pot; `None` sorts below every hand).
    pub strengths: [Option<Strength>; MAX_SEATS],
    /// Seats at the table.
    pub seat_count: usize,
    /// The button (odd chips go to the first winners left of it).
    pub button: Seat,
    /// Where the examination starts: the last aggressor, or the small-blind seat.
    pub examination_start: Seat,
    /// Odd-chip rule.
    pub odd_chips: OddChipRule,
}

/// One step of paying the pot, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Payout {
    /// Show this seat's hand (first time it is revealed in this hand).
    Reveal(Seat),
    /// A pot paid out.
    Pot {
        /// Chips in it.
        amount: Chips,
        /// Contribution cap per player.
        level: Chips,
        /// Contenders, in examination order.
        eligible: SeatList<Seat>,
        /// Shares, in seat order starting left of the button.
        shares: SeatList<PotShare>,
        /// Chips destroyed by [`OddChipRule::DiscardLikeOss`].
        discarded: Chips,
    },
    /// Chips nobody in the hand can win go back to their owner.
    Return {
        /// The owner.
        seat: Seat,
        /// Chips returned.
        amount: Chips,
    },
}

/// Runs the spec §5 loop and reports every step to `emit`.
pub(crate) fn settle(input: &PotInput, mut emit: impl FnMut(Payout)) {
    let seat_count = input.seat_count.min(MAX_SEATS);
    let mut bets = input.bets;
    let mut revealed: u32 = 0;
    loop {
        if bets[..seat_count].iter().all(|bet| bet.is_zero()) {
            return;
        }
        let mut eligible = SeatBuf::default();
        for offset in 0..seat_count {
            let seat = Seat((input.examination_start.index() + offset) % seat_count);
            if input.in_hand & (1 << seat.index()) != 0 && !bets[seat.index()].is_zero() {
                eligible.push(seat);
            }
        }
        if eligible.is_empty() {
            for (index, bet) in bets[..seat_count].iter().enumerate() {
                if !bet.is_zero() {
                    emit(Payout::Return {
                        seat: Seat(index),
                        amount: *bet,
                    });
                }
            }
            return;
        }
        let winners = if eligible.len() == 1 {
            eligible
        } else {
            examine(
                eligible.as_slice(),
                &input.strengths,
                &mut revealed,
                &mut emit,
            )
        };
        let level = winners
            .as_slice()
            .iter()
            .map(|seat| bets[seat.index()])
            .min()
            .unwrap_or_default();
        let mut amount = Chips::ZERO;
        for bet in bets[..seat_count].iter_mut() {
            let taken = (*bet).min(level);
            *bet -= taken;
            amount += taken;
        }
        let (shares, discarded) = split(
            amount,
            winners.as_slice(),
            input.odd_chips,
            input.button,
            seat_count,
        );
        emit(Payout::Pot {
            amount,
            level,
            eligible: eligible.as_slice().iter().copied().collect(),
            shares,
            discarded,
        });
    }
}

/// One examination: the best hands among `eligible`, revealing as the spec says.
fn examine(
    eligible: &[Seat],
    strengths: &[Option<Strength>; MAX_SEATS],
    revealed: &mut u32,
    emit: &mut impl FnMut(Payout),
) -> SeatBuf {
    let mut winners = SeatBuf::default();
    let mut best: Option<Option<Strength>> = None;
    for &seat in eligible {
        let strength = strengths[seat.index()];
        if let Some(best_so_far) = best {
            if best_so_far > strength {
                continue;
            }
            if strength > best_so_far {
                winners = SeatBuf::default();
            }
        }
        if *revealed & (1 << seat.index()) == 0 {
            *revealed |= 1 << seat.index();
            emit(Payout::Reveal(seat));
        }
        winners.push(seat);
        best = Some(strength);
    }
    winners
}

/// Splits `amount` among `winners` (examination order).
fn split(
    amount: Chips,
    winners: &[Seat],
    rule: OddChipRule,
    button: Seat,
    seat_count: usize,
) -> (SeatList<PotShare>, Chips) {
    let count = winners.len().max(1) as u64;
    let base = amount.get() / count;
    let odd = amount.get() % count;
    let mut shares: SeatList<PotShare> = winners
        .iter()
        .enumerate()
        .map(|(examined, &seat)| {
            let amount = match rule {
                // OSS: the first `odd` winners examined get one chip less than the floor.
                OddChipRule::DiscardLikeOss if (examined as u64) < odd => base.saturating_sub(1),
                _ => base,
            };
            PotShare {
                seat,
                amount: Chips(amount),
            }
        })
        .collect();
    let left_of_button = |seat: Seat| (seat.index() + seat_count - button.index() - 1) % seat_count;
    shares.sort_unstable_by_key(|share| left_of_button(share.seat));
    if rule == OddChipRule::LeftOfButton {
        for share in shares.iter_mut().take(odd as usize) {
            share.amount += Chips(1);
        }
    }
    let paid: Chips = shares.iter().map(|share| share.amount).sum();
    (shares, amount.saturating_sub(paid))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand_eval::BoardEvaluator;
    use shared::card::parse_cards;

    fn run(input: &PotInput) -> Vec<Payout> {
        let mut out = Vec::new();
        settle(input, |payout| out.push(payout));
        out
    }

    fn input(bets: &[u64], in_hand: &[usize], hands: &[(usize, &str)], board: &str) -> PotInput {
        let mut all_bets = [Chips::ZERO; MAX_SEATS];
        for (index, bet) in bets.iter().enumerate() {
            all_bets[index] = Chips(*bet);
        }
        let evaluator = BoardEvaluator::new(&parse_cards(board).unwrap());
        let mut strengths = [None; MAX_SEATS];
        for (seat, hole) in hands {
            strengths[*seat] = evaluator
                .made_hand(&parse_cards(hole).unwrap())
                .map(|made| made.strength);
        }
        PotInput {
            bets: all_bets,
            in_hand: in_hand.iter().fold(0, |mask, seat| mask | 1 << seat),
            strengths,
            seat_count: bets.len(),
            button: Seat(0),
            examination_start: Seat(0),
            odd_chips: OddChipRule::LeftOfButton,
        }
    }

    fn pots(payouts: &[Payout]) -> Vec<(u64, Vec<(usize, u64)>)> {
        payouts
            .iter()
            .filter_map(|payout| match payout {
                Payout::Pot { amount, shares, .. } => Some((
                    amount.get(),
                    shares
                        .iter()
                        .map(|s| (s.seat.index(), s.amount.get()))
                        .collect(),
                )),
                _ => None,
            })
            .collect()
    }

    fn reveals(payouts: &[Payout]) -> Vec<usize> {
        payouts
            .iter()
            .filter_map(|payout| match payout {
                Payout::Reveal(seat) => Some(seat.index()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn spec_5_capture_15_main_and_side_pot_with_a_folded_contributor() {
        // Capture 10/15: seat 2 folded its 5, seat 3 all-in 984, seats 4 and 7 at 1992.
        let mut bets = [0; 8];
        bets[2] = 5;
        bets[3] = 984;
        bets[4] = 1992;
        bets[7] = 1992;
        let mut pot_input = input(
            &bets,
            &[3, 4, 7],
            &[(3, "Js Ac"), (4, "10c 7d"), (7, "Jh Qh")],
            "9h 8s 2c 4c 3d",
        );
        pot_input.examination_start = Seat(7); // the all-in raise to 1992 was the last one
        let payouts = run(&pot_input);
        assert_eq!(
            pots(&payouts),
            vec![(2957, vec![(3, 2957)]), (2016, vec![(7, 2016)])]
        );
        // From seat 7: 7 shown, then 3 (better); 4 is worse than 3 and stays hidden. In the
        // side pot 7 is examined first again but was already shown, and 4 is worse than 7.
        assert_eq!(reveals(&payouts), vec![7, 3]);
    }

    #[test]
    fn spec_5_uncontested_return_is_a_pot_without_reveal() {
        // Capture 16: seat 0 all-in 308 as small blind, seat 5 posted 4000.
        let mut bets = [0; 8];
        bets[0] = 308;
        bets[5] = 4000;
        let mut pot_input = input(
            &bets,
            &[0, 5],
            &[(0, "7d 8c"), (5, "7h 4s")],
            "2s Jc 8h 9h 6d",
        );
        pot_input.button = Seat(5);
        pot_input.examination_start = Seat(5);
        let payouts = run(&pot_input);
        assert_eq!(
            pots(&payouts),
            vec![(616, vec![(0, 616)]), (3692, vec![(5, 3692)])]
        );
        assert_eq!(reveals(&payouts), vec![5, 0]);
    }

    #[test]
    fn spec_5_odd_chips_go_left_of_the_button() {
        // Three-way split of 100 (bets 34, 33, 33) with the board playing.
        let board = "As Ks Qs Js 10s";
        let mut pot_input = input(
            &[34, 33, 33],
            &[0, 1, 2],
            &[(0, "2h 3h"), (1, "2d 3d"), (2, "2c 3c")],
            board,
        );
        pot_input.button = Seat(1);
        let payouts = run(&pot_input);
        // The first pot is 99 (33 each), the second the uncalled chip of seat 0.
        assert_eq!(
            pots(&payouts),
            vec![(99, vec![(2, 33), (0, 33), (1, 33)]), (1, vec![(0, 1)])]
        );
        // 31 split two ways: 16 to the first winner left of the button.
        let mut two = input(&[16, 15, 0], &[0, 1], &[(0, "2h 3h"), (1, "2d 3d")], board);
        two.bets[0] = Chips(15);
        two.bets[1] = Chips(15);
        two.bets[2] = Chips(1);
        two.seat_count = 3;
        two.button = Seat(0);
        let payouts = run(&two);
        assert_eq!(pots(&payouts), vec![(31, vec![(1, 16), (0, 15)])]);
    }

    #[test]
    fn spec_5_oss_odd_chip_rule_loses_chips() {
        let board = "As Ks Qs Js 10s";
        let mut two = input(&[15, 15, 1], &[0, 1], &[(0, "2h 3h"), (1, "2d 3d")], board);
        two.odd_chips = OddChipRule::DiscardLikeOss;
        let payouts = run(&two);
        // 31 split two ways pays 14 (first examined) and 15; 2 chips leave the game.
        assert_eq!(pots(&payouts), vec![(31, vec![(1, 15), (0, 14)])]);
        assert!(matches!(
            payouts.last(),
            Some(Payout::Pot { discarded, .. }) if *discarded == Chips(2)
        ));
    }

    #[test]
    fn spec_5_unwinnable_chips_return_to_their_owners() {
        // Seat 1 folded with 500 in; the only player left in the hand has 100 in.
        let payouts = run(&input(&[100, 500], &[0], &[], "2c 3d 4h 5s 7c"));
        assert_eq!(pots(&payouts), vec![(200, vec![(0, 200)])]);
        assert_eq!(
            payouts.last(),
            Some(&Payout::Return {
                seat: Seat(1),
                amount: Chips(400)
            })
        );
        // Nobody left in the hand at all: everything goes back.
        let payouts = run(&input(&[30, 20], &[], &[], "2c 3d 4h 5s 7c"));
        assert_eq!(payouts.len(), 2);
    }

    #[test]
    fn spec_5_a_tie_is_revealed_and_a_worse_hand_is_not() {
        let board = "2c 7d 9h Js 4s";
        let payouts = run(&input(
            &[50, 50, 50],
            &[0, 1, 2],
            &[(0, "Ac Kd"), (1, "3c 5d"), (2, "Ah Kh")],
            board,
        ));
        assert_eq!(reveals(&payouts), vec![0, 2]);
        assert_eq!(pots(&payouts), vec![(150, vec![(2, 75), (0, 75)])]);
    }
}
