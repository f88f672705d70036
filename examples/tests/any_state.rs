//! Every example bot answers any document at all (numbers at the limits of `u64`, seats past
//! the table, repeated cards) without panicking, and never with more than its stack: the
//! house bots sit at tables of a dealer anyone can configure, and the SDK would turn a panic
//! into a fold of a hand the bot should play.
//!
//! The team's strategy is held to what a dealer can really send instead
//! (`player::testing::DealerStates`, in `bots.rs`): a team's `call * 10` is right for every
//! chip count a Lean Poker dealer deals, and no test may fail it for `u64::MAX`.

use player::testing::{check_answer, AnswerError};
use proptest::prelude::*;

#[path = "../../shared/tests/support/arbitrary_state.rs"]
mod arbitrary_state;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_example_bot_answers_any_document(
        state in prop_oneof![arbitrary_state::state(), arbitrary_state::playable_state()]
    ) {
        let bots: Vec<(&str, std::sync::Arc<dyn player::Player>)> = examples::bots::BotKind::ALL
            .iter()
            .map(|kind| (kind.name(), kind.build(0)))
            .collect();
        let stack = state.me().map(|me| me.stack);
        for (kind, bot) in &bots {
            // The panic is caught without printing: proptest re-runs a failing case many times
            // while it shrinks it, and reports the smallest one once.
            let answer = match check_answer(bot.as_ref(), &state) {
                Ok(reading) => Some(reading.put_in),
                Err(AnswerError::NotMeaningful { answer, .. }) => Some(answer),
                Err(panicked) => {
                    prop_assert!(false, "{kind}: {panicked}");
                    None
                }
            };
            if let (Some(answer), Some(stack)) = (answer, stack) {
                // An answer above the stack would still be an all-in; the bots never need one.
                prop_assert!(answer <= stack, "{kind} answered {answer} with a stack of {stack}");
            }
            bot.showdown(&state);
        }
    }
}
