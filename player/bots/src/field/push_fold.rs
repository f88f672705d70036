//! [`PushFoldBot`]: the short-stack specialist.

use crate::spot::Spot;
use player::Chips;

street_player! {
    /// Built for the late blind levels, where most stacks are short:
    ///
    /// - **15 big blinds or fewer**: all-in or fold. Unraised, shoves when its hand is in the best
    ///   `12% + 3.5% × (15 − big blinds)` (12% at 15, about 47% at 5), a little tighter with more
    ///   players still to act; facing a raise or an all-in, shoves when its equity against the
    ///   players in the hand beats the price by 2 points;
    /// - **deeper**: opens the best 10% to 2.5 big blinds, shoves over a raise with the best 4%,
    ///   folds the rest;
    /// - **after the flop**: all-in with equity 40% of the way from a fair share to certain;
    ///   checks when it can, calls when the price is right, else folds.
    PushFoldBot,
    version "push-fold 1"
}

fn preflop(spot: &Spot) -> Chips {
    let rank = spot.percentile();
    if spot.stack_in_blinds <= 15.0 {
        let crowd = spot.behind().saturating_sub(1) as f64 * 0.02;
        return spot.push_or_fold(0.12 + 0.035 * (15.0 - spot.stack_in_blinds) - crowd, 0.02);
    }
    if !spot.raised() {
        return spot.open(0.10, 2.5);
    }
    if rank < 0.04 {
        spot.shove()
    } else {
        Chips::ZERO
    }
}

fn postflop(spot: &Spot, seed: u64) -> Chips {
    spot.strong_or_priced(seed, 0.4, Spot::shove)
}
