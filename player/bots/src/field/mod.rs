//! The field: house bots that play the way the teams one meets at a Lean Poker event play,
//! each a small strategy on the same reading of the table (`spot.rs`): a preflop look-up
//! (`preflop.rs`) and, after the flop, equity against the players still in the hand (exact on
//! a heads-up river, else Monte Carlo in batches that stop once the decision is clear).
//! Deterministic: every random choice and every deal sampled follows the bot's seed and the
//! decision.
//!
//! - [`TightBot`]: a tight-aggressive chart (opens the best 16%, re-raises 4%), equity-based
//!   after the flop, push/fold when short.
//! - [`LooseBot`]: loose-aggressive: opens 40%, bets when checked to, bluffs a third of the
//!   time, calls light.
//! - [`PushFoldBot`]: the short-stack specialist: shoves a range that widens as its stack
//!   shrinks in big blinds (from 15), tight and all-in-or-fold when deep.
//! - [`SolidBot`]: the solid equity player: raises the best hands, calls when its equity beats
//!   the price, bets made hands.
//! - [`ShoverBot`]: what many teams deploy first: all-in with the best quarter of hands, all-in
//!   after the flop with two pair or better, check or fold everything else.

/// A bot of the field whose module has `preflop(&Spot) -> Chips` and
/// `postflop(&Spot, seed) -> Chips`: its struct (the bot's docs given, a `seed` the same for
/// every bot) and its `Player`, which reads the spot (nothing to decide: check or fold), then
/// decides by street.
macro_rules! street_player {
    ($(#[$doc:meta])* $bot:ident, version $version:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $bot {
            /// Seeds its random choices: the deals of its equity estimates, and its bluffs if it
            /// bluffs.
            pub seed: u64,
        }

        impl player::Player for $bot {
            fn bet_request(&self, state: &player::GameState) -> player::Chips {
                match crate::spot::Spot::read(state) {
                    Some(spot) if spot.street == player::Street::Preflop => preflop(&spot),
                    Some(spot) => postflop(&spot, self.seed),
                    None => player::Chips::ZERO,
                }
            }

            fn version(&self) -> String {
                $version.to_string()
            }
        }
    };
}

mod loose;
mod push_fold;
mod shover;
mod solid;
mod tight;

pub use loose::LooseBot;
pub use push_fold::PushFoldBot;
pub use shover::ShoverBot;
pub use solid::SolidBot;
pub use tight::TightBot;

#[cfg(test)]
mod tests;
