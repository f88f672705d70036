//! Every example bot, and the template a team starts from, answers any document a dealer may
//! send (numbers at the limits of `u64`, seats past the table, repeated cards) without
//! panicking, and never with more than its stack. The SDK would turn a panic into a fold, but
//! a bot that panics on odd input would fold hands it should play.

use player::strategy::TemplatePlayer;
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
        let mut bots: Vec<(&str, Box<dyn Player>)> = examples::bots::KINDS
            .iter()
            .map(|&kind| (kind, examples::bots::by_name(kind).unwrap()))
            .collect();
        bots.push(("template", Box::new(TemplatePlayer::default())));
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
