//! The one bet-reading rule (spec §4), shared by the player SDK (to explain what an answer
//! will do) and the dealer (to apply it). There is deliberately no second copy anywhere.

use crate::Chips;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What the dealer knows when it reads an answer: the asking player's chips and the table's bet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BetContext {
    /// Chips the player has not put in yet (`stack`).
    pub stack: Chips,
    /// Chips the player has put in this hand (`bet`, a total for the whole hand).
    pub bet: Chips,
    /// The largest `bet` at the table.
    pub current_buy_in: Chips,
    /// The smallest amount a raise must add on top of `current_buy_in`.
    pub minimum_raise: Chips,
}

/// How an answer is read (spec §4). Lower-case names match the dealer's logs (`allin`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BetAction {
    /// Gives up the hand.
    Fold,
    /// Puts nothing in when nothing is owed.
    Check,
    /// Matches `current_buy_in`.
    Call,
    /// Puts in the answer, raising `current_buy_in` by at least `minimum_raise`.
    Raise,
    /// Puts in the whole stack, whatever that amounts to.
    #[serde(rename = "allin")]
    AllIn,
}

impl BetAction {
    /// The lower-case name used in logs: `fold`, `check`, `call`, `raise`, `allin`.
    pub const fn as_str(self) -> &'static str {
        match self {
            BetAction::Fold => "fold",
            BetAction::Check => "check",
            BetAction::Call => "call",
            BetAction::Raise => "raise",
            BetAction::AllIn => "allin",
        }
    }
}

impl fmt::Display for BetAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of reading one answer: what it counts as, and how many chips actually move from
/// the player's stack into their bet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BetReading {
    /// Fold, check, call, raise or all-in.
    pub action: BetAction,
    /// Chips moved from `stack` to `bet` (0 for fold and check).
    pub put_in: Chips,
}

impl BetReading {
    /// The player's `bet` after this action.
    pub fn new_bet(&self, context: &BetContext) -> Chips {
        // Saturating: the context may come from a document with any numbers in it.
        context.bet.saturating_add(self.put_in)
    }

    /// The table's `current_buy_in` after this action.
    pub fn new_current_buy_in(&self, context: &BetContext) -> Chips {
        context.current_buy_in.max(self.new_bet(context))
    }

    /// How far this action raised `current_buy_in` (zero unless it went up).
    pub fn raised_by(&self, context: &BetContext) -> Chips {
        self.new_bet(context).saturating_sub(context.current_buy_in)
    }

    /// `minimum_raise` after this action: `max(minimum_raise, raise_by)`, so a large all-in
    /// raises it and a short all-in never lowers it (spec §4).
    pub fn new_minimum_raise(&self, context: &BetContext) -> Chips {
        context.minimum_raise.max(self.raised_by(context))
    }
}

/// Reads an answer `answer` exactly as spec §4 says, in this order:
///
/// 1. `answer > 0` and `answer >= stack`: **all-in** with the whole stack (even below a call);
/// 2. `answer > 0` and `bet + answer - current_buy_in >= minimum_raise`: **raise** by putting in
///    exactly `answer`;
/// 3. `bet + answer >= current_buy_in`: **call** (put in `to_call`, any excess is ignored), which
///    is a **check** when nothing is owed;
/// 4. otherwise: **fold**.
///
/// (The spec's separate "check when `to_call == 0`" rule can only be reached through rule 3,
/// because `bet + answer >= current_buy_in` always holds when nothing is owed.)
///
/// ```
/// use shared::rules::{read_bet, BetAction, BetContext};
/// use shared::Chips;
/// // Facing a raise to 40 with 10 in and 990 behind; the minimum raise is 20.
/// let context = BetContext {
///     stack: Chips(990),
///     bet: Chips(10),
///     current_buy_in: Chips(40),
///     minimum_raise: Chips(20),
/// };
/// assert_eq!(read_bet(&context, Chips(0)).action, BetAction::Fold);
/// assert_eq!(read_bet(&context, Chips(29)).action, BetAction::Fold);
/// assert_eq!(read_bet(&context, Chips(30)).action, BetAction::Call);
/// assert_eq!(read_bet(&context, Chips(49)).put_in, Chips(30)); // excess ignored
/// assert_eq!(read_bet(&context, Chips(50)).action, BetAction::Raise);
/// assert_eq!(read_bet(&context, Chips(990)).action, BetAction::AllIn);
/// assert_eq!(read_bet(&context, Chips(5000)).put_in, Chips(990));
/// ```
pub fn read_bet(context: &BetContext, answer: Chips) -> BetReading {
    let BetContext {
        stack,
        bet,
        current_buy_in,
        minimum_raise,
    } = *context;
    if answer > Chips::ZERO && answer >= stack {
        return BetReading {
            action: BetAction::AllIn,
            put_in: stack,
        };
    }
    // From here on answer < stack, so bet + answer cannot overflow for any real stack.
    let new_bet = bet.saturating_add(answer);
    // A raise must lift current_buy_in by at least one chip, even if minimum_raise is 0.
    let smallest_raise = minimum_raise.max(Chips(1));
    if answer > Chips::ZERO
        && new_bet >= current_buy_in
        && new_bet - current_buy_in >= smallest_raise
    {
        return BetReading {
            action: BetAction::Raise,
            put_in: answer,
        };
    }
    if new_bet >= current_buy_in {
        let to_call = current_buy_in.saturating_sub(bet);
        let action = if to_call.is_zero() {
            BetAction::Check
        } else {
            BetAction::Call
        };
        return BetReading {
            action,
            put_in: to_call,
        };
    }
    BetReading {
        action: BetAction::Fold,
        put_in: Chips::ZERO,
    }
}

#[cfg(test)]
mod tests {
    //! Every branch of spec §4, with numbers.
    use super::*;

    fn context(stack: u64, bet: u64, current_buy_in: u64, minimum_raise: u64) -> BetContext {
        BetContext {
            stack: Chips(stack),
            bet: Chips(bet),
            current_buy_in: Chips(current_buy_in),
            minimum_raise: Chips(minimum_raise),
        }
    }

    fn read(ctx: BetContext, answer: u64) -> (BetAction, u64) {
        let reading = read_bet(&ctx, Chips(answer));
        (reading.action, reading.put_in.0)
    }

    #[test]
    fn spec_4_rule_1_all_in_when_answer_covers_the_stack() {
        let ctx = context(100, 0, 40, 20);
        assert_eq!(read(ctx, 100), (BetAction::AllIn, 100));
        assert_eq!(read(ctx, 101), (BetAction::AllIn, 100));
        assert_eq!(read(ctx, u64::MAX), (BetAction::AllIn, 100));
        // All-in for less than a call is still all-in, not a fold.
        let short = context(25, 0, 40, 20);
        assert_eq!(read(short, 25), (BetAction::AllIn, 25));
        assert_eq!(read(short, 30), (BetAction::AllIn, 25));
    }

    #[test]
    fn spec_4_rule_1_needs_a_positive_answer() {
        // A zero answer from a player with an empty stack is never an all-in.
        let empty = context(0, 10, 10, 20);
        assert_eq!(read(empty, 0), (BetAction::Check, 0));
    }

    #[test]
    fn spec_4_rule_2_raise_at_exactly_the_minimum() {
        // to_call 30, minimum raise 20: 50 raises to 60.
        let ctx = context(990, 10, 40, 20);
        assert_eq!(read(ctx, 50), (BetAction::Raise, 50));
        assert_eq!(read(ctx, 51), (BetAction::Raise, 51));
        assert_eq!(read(ctx, 989), (BetAction::Raise, 989));
    }

    #[test]
    fn spec_4_rule_2_raise_when_nothing_is_owed() {
        let ctx = context(1000, 20, 20, 20);
        assert_eq!(read(ctx, 20), (BetAction::Raise, 20));
        assert_eq!(read(ctx, 19), (BetAction::Check, 0));
    }

    #[test]
    fn spec_4_rule_3_call_and_excess_is_ignored() {
        let ctx = context(990, 10, 40, 20);
        assert_eq!(read(ctx, 30), (BetAction::Call, 30));
        assert_eq!(read(ctx, 49), (BetAction::Call, 30));
    }

    #[test]
    fn spec_4_rule_4_check_when_nothing_is_owed() {
        let ctx = context(1000, 4, 4, 2);
        assert_eq!(read(ctx, 0), (BetAction::Check, 0));
        assert_eq!(read(ctx, 1), (BetAction::Check, 0));
    }

    #[test]
    fn spec_4_rule_5_fold_below_a_call() {
        let ctx = context(990, 10, 40, 20);
        assert_eq!(read(ctx, 0), (BetAction::Fold, 0));
        assert_eq!(read(ctx, 29), (BetAction::Fold, 0));
    }

    #[test]
    fn spec_4_minimum_raise_updates() {
        // Preflop 2/4: minimum raise starts at the small blind.
        let ctx = context(996, 0, 4, 2);
        let raise = read_bet(&ctx, Chips(10));
        assert_eq!(raise.action, BetAction::Raise);
        assert_eq!(raise.new_current_buy_in(&ctx), Chips(10));
        assert_eq!(raise.new_minimum_raise(&ctx), Chips(6));
        // A call never changes it.
        let call = read_bet(&ctx, Chips(4));
        assert_eq!(call.new_minimum_raise(&ctx), Chips(2));
        // A short all-in never lowers it, even when it raises a little.
        let short = context(7, 0, 4, 20);
        let all_in = read_bet(&short, Chips(7));
        assert_eq!(all_in.action, BetAction::AllIn);
        assert_eq!(all_in.new_current_buy_in(&short), Chips(7));
        assert_eq!(all_in.new_minimum_raise(&short), Chips(20));
        // A large all-in raises it (capture 10: 1992 all-in over 10 → 1982).
        let big = context(1982, 10, 10, 5);
        let shove = read_bet(&big, Chips(1982));
        assert_eq!(shove.new_current_buy_in(&big), Chips(1992));
        assert_eq!(shove.new_minimum_raise(&big), Chips(1982));
    }
}
