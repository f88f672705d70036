//! [`LooseBot`]: loose-aggressive.

use crate::spot::Spot;
use player::Chips;

street_player! {
    /// Loose-aggressive, the team that likes action:
    ///
    /// - **preflop**: opens the best 40% of hands to 2.5 big blinds; facing a raise, re-raises
    ///   the best 8% to three times the bet and calls with the best 35% when it costs at most 10%
    ///   of its stack; with 8 big blinds or fewer, shoves the best 40% and calls an all-in when its
    ///   equity beats the price;
    /// - **after the flop**: with equity 30% of the way from a fair share to certain, bets or
    ///   raises three quarters of the pot; checked to, bets half the pot with a fair share and a
    ///   bit, or as a bluff one time in three (against at most two opponents); facing a bet, raises
    ///   with 80%, calls when its equity is within 2 points of the price; else checks or folds.
    LooseBot,
    version "loose 1"
}

fn preflop(spot: &Spot) -> Chips {
    let rank = spot.percentile();
    if spot.stack_in_blinds <= 8.0 {
        return spot.push_or_fold(0.40, 0.0);
    }
    if !spot.raised() {
        return spot.open(0.40, 2.5);
    }
    if rank < 0.08 {
        return spot.reraise();
    }
    if rank < 0.35 && spot.affordable(0.10) {
        return spot.call();
    }
    Chips::ZERO
}

fn postflop(spot: &Spot, seed: u64) -> Chips {
    let fair = spot.fair_share();
    let strong = fair + (1.0 - fair) * 0.3;
    let price = spot.price() + 0.02;
    let equity = spot.equity(seed, &[strong, fair * 1.2, 0.8, price]);
    if spot.call.is_zero() {
        if equity >= strong {
            return spot.pot_bet(0.75);
        }
        let bluff = spot.opponents <= 2 && spot.roll(seed) < 1.0 / 3.0;
        return if equity >= fair * 1.2 || bluff {
            spot.pot_bet(0.5)
        } else {
            Chips::ZERO
        };
    }
    if equity >= 0.8 {
        return spot.pot_bet(0.75);
    }
    if equity >= price {
        return spot.call();
    }
    Chips::ZERO
}
