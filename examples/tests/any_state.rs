//! Every example bot, and the template a team starts from, answers any document a dealer may
//! send (numbers at the limits of `u64`, seats past the table, repeated cards) without
//! panicking, and never with more than its stack. The SDK would turn a panic into a fold, but
//! a bot that panics on odd input would fold hands it should play.

use player::Player;
use proptest::prelude::*;

#[path = "../../shared/tests/support/arbitrary_state.rs"]
mod arbitrary_state;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_bot_answers_any_document(
        state in prop_oneof![arbitrary_state::state(), arbitrary_state::playable_state()]
    ) {
        let bots: Vec<(&str, std::sync::Arc<dyn Player>)> = examples::bots::BotKind::ALL
            .iter()
            .map(|kind| (kind.name(), kind.build(0)))
            .collect();
        let stack = state.me().map(|me| me.stack);
        for (kind, bot) in &bots {
            let answer = bot.bet_request(&state);
            if let Some(stack) = stack {
                // An answer above the stack would still be an all-in; the bots never need one.
                prop_assert!(answer <= stack, "{kind} answered {answer} with a stack of {stack}");
            }
            bot.showdown(&state);
        }
    }
}
