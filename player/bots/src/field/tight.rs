//! [`TightBot`]: tight-aggressive.

use crate::spot::Spot;
use player::Chips;

street_player! {
    /// Tight-aggressive, as the stronger teams play by the afternoon:
    ///
    /// - **preflop**: opens the best 16% of hands (heads-up percentile) to 3 big blinds, folds the
    ///   rest (checks its big blind); facing a raise, re-raises the best 4% to three times the bet
    ///   and calls with the best 10% when it costs at most 15% of its stack; with 10 big blinds or
    ///   fewer, shoves a range that widens as the stack shrinks (10% at 10, 35% at 0) and calls an
    ///   all-in when its equity beats the price by 3 points;
    /// - **after the flop**: with equity (against the players still in) at least 45% of the way
    ///   from a fair share to certain, bets or raises two thirds of the pot; heads-up and checked
    ///   to with 50%, bets half the pot; calls when its equity beats the price by 5 points; else
    ///   checks or folds.
    TightBot,
    version "tight 1"
}

fn preflop(spot: &Spot) -> Chips {
    let rank = spot.percentile();
    if spot.stack_in_blinds <= 10.0 {
        return spot.push_or_fold(0.35 - 0.025 * spot.stack_in_blinds, 0.03);
    }
    if !spot.raised() {
        return spot.open(0.16, 3.0);
    }
    if rank < 0.04 {
        return spot.reraise();
    }
    if rank < 0.10 && spot.affordable(0.15) {
        return spot.call();
    }
    Chips::ZERO
}

fn postflop(spot: &Spot, seed: u64) -> Chips {
    let fair = spot.fair_share();
    let strong = fair + (1.0 - fair) * 0.45;
    let price = spot.price() + 0.05;
    let equity = spot.equity(seed, &[strong, 0.5, price]);
    if equity >= strong {
        return spot.pot_bet(2.0 / 3.0);
    }
    if spot.call.is_zero() {
        return if spot.opponents == 1 && equity >= 0.5 {
            spot.pot_bet(0.5)
        } else {
            Chips::ZERO
        };
    }
    if equity >= price {
        return spot.call();
    }
    Chips::ZERO
}
