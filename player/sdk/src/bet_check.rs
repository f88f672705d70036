//! Whether an answer means what it says: the check the testing kit, the arena and the house
//! bots' tests apply to every answer. Part of the SDK proper (not the `testing` feature), so
//! that the arena, which plays in release builds beside the deployed player, shares its build.

use shared::rules::{BetAction, BetReading};
use shared::{Chips, GameState};

/// Checks that `answer` is a legal, **meaningful** bet for `state`.
///
/// Every `u64` is a *legal* answer on the wire, and the dealer reads any of them somehow
/// (spec §4). What goes wrong in practice is an answer the dealer reads differently from what
/// the bot meant: a raise below the minimum that silently becomes a call, a "call" one chip short
/// that folds, `1000000` meant as all-in. So an answer is **meaningful** when, read with
/// [`read_bet`](shared::GameState::read_bet), the dealer moves exactly the chips the answer
/// names:
///
/// | read as | meaningful only if the answer is |
/// |---|---|
/// | fold | `0` |
/// | check | `0` |
/// | call | exactly the amount to call ([`call_amount`](shared::GameState::call_amount)) |
/// | raise | anything (a raise always puts in exactly the answer) |
/// | all-in | exactly the stack ([`all_in_amount`](shared::GameState::all_in_amount)) |
///
/// So `0` is the only way to check or fold, and every chip of a non-zero answer counts.
///
/// ```
/// use player::testing::heads_up;
/// use player::{check_bet, BetAction, Chips};
/// // Blinds 10/20, I posted 10: call 10; the smallest raise answers 20 (to 30); stack 990.
/// let state = heads_up().post_blinds().build();
/// assert_eq!(check_bet(&state, Chips(10)).unwrap().action, BetAction::Call);
/// assert_eq!(check_bet(&state, Chips(20)).unwrap().action, BetAction::Raise);
/// assert!(check_bet(&state, Chips(15)).is_err()); // a raise too small: read as a call
/// assert!(check_bet(&state, Chips(5)).is_err()); // a call too small: read as a fold
/// assert!(check_bet(&state, Chips(5000)).is_err()); // more than the stack
/// assert!(check_bet(&state, Chips(990)).is_ok()); // all-in
/// ```
///
/// # Errors
/// A one-line explanation of how the dealer will read the answer and what to answer instead.
pub fn check_bet(state: &GameState, answer: Chips) -> Result<BetReading, String> {
    let Some(me) = state.me() else {
        return Err("the state names no receiving player (no in_action)".to_string());
    };
    let reading = state.read_bet(answer);
    let BetReading { action, put_in } = reading;
    let meaningful = match action {
        BetAction::Fold | BetAction::Check => answer.is_zero(),
        BetAction::Call | BetAction::Raise | BetAction::AllIn => answer == put_in,
    };
    if meaningful {
        return Ok(reading);
    }
    let minimum_raise = state.minimum_raise_amount();
    let call = state.call_amount();
    Err(match action {
        BetAction::Fold => format!(
            "answer {answer} is read as a fold: calling needs {call}, folding is 0"
        ),
        BetAction::Check => format!(
            "answer {answer} is read as a check: the smallest raise is {minimum_raise}, checking is 0"
        ),
        BetAction::Call => format!(
            "answer {answer} is read as a call of {put_in} (the rest is ignored): the smallest raise is {minimum_raise}"
        ),
        BetAction::AllIn => format!(
            "answer {answer} is more than the stack of {}: all-in is exactly {}",
            me.stack, me.stack
        ),
        BetAction::Raise => format!("answer {answer} is read as a raise of {put_in}"),
    })
}
