//! [`SolidBot`]: the solid equity player.

use crate::spot::Spot;
use player::Chips;

street_player! {
    /// A solid equity player, the team that did its homework on odds:
    ///
    /// - **preflop**: raises the best 14% of hands to 3 big blinds and re-raises the best 5% to
    ///   three times the bet; facing a raise otherwise, calls when its equity against the players
    ///   in the hand beats the price by 8 points and the call costs at most 10% of its stack;
    ///   with 10 big blinds or fewer, shoves the best 25% and calls an all-in when its equity beats
    ///   the price by 2 points; else checks or folds;
    /// - **after the flop**: with equity 40% of the way from a fair share to certain, bets or
    ///   raises three quarters of the pot; calls when its equity at least pays the price; else
    ///   checks or folds. (Its equity is against random hands, so it overrates a hand facing a
    ///   bet; the field's measured styles are of this rule, kept as played.)
    SolidBot,
    version "solid 1"
}

fn preflop(spot: &Spot) -> Chips {
    let rank = spot.percentile();
    if spot.stack_in_blinds <= 10.0 {
        return spot.push_or_fold(0.25, 0.02);
    }
    if !spot.raised() {
        return spot.open(0.14, 3.0);
    }
    if rank < 0.05 {
        return spot.reraise();
    }
    if spot.affordable(0.10) && spot.preflop_equity() >= spot.price() + 0.08 {
        return spot.call();
    }
    Chips::ZERO
}

fn postflop(spot: &Spot, seed: u64) -> Chips {
    spot.strong_or_priced(seed, 0.4, |spot| spot.pot_bet(0.75))
}
