//! A legal raise in one call: the answer that raises to a total, moved into the range the
//! dealer accepts as a raise (or the all-in it must become), saying when it had to move.

use super::GameState;
use crate::Chips;

/// The answer [`GameState::raise_to`] gives, and whether it is the raise asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Raise {
    /// What to answer: a legal raise, or all-in when the stack cannot make the one asked.
    pub answer: Chips,
    /// Whether, and which way, the total asked for was moved to make the answer legal.
    pub clamped: Option<Clamp>,
}

/// Which way a raise was moved to be legal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clamp {
    /// Up to the smallest raise: a smaller one would be read as a call (spec §4).
    ToMinimumRaise,
    /// Down to all-in: the stack cannot put in the total asked for (or even the smallest
    /// raise, when it is short).
    ToAllIn,
}

impl From<Raise> for Chips {
    fn from(raise: Raise) -> Chips {
        raise.answer
    }
}

impl GameState {
    /// The answer that raises to a total bet of `total` this hand, made legal: at least the
    /// smallest raise ([`minimum_raise_amount`](GameState::minimum_raise_amount)), at most
    /// the stack ([`all_in_amount`](GameState::all_in_amount)). `clamped` says when the total
    /// had to move, so a bot can tell a pot-sized bet from the all-in it became.
    ///
    /// ```
    /// use shared::state::Clamp;
    /// use shared::Chips;
    /// # let state = shared::testing_state();
    /// // To call is 240, the smallest raise 480, the stack 1590 (already 80 in).
    /// let pot_bet = state.raise_to(Chips(1000));
    /// assert_eq!((pot_bet.answer, pot_bet.clamped), (Chips(920), None));
    /// let too_small = state.raise_to(Chips(400));
    /// assert_eq!((too_small.answer, too_small.clamped), (Chips(480), Some(Clamp::ToMinimumRaise)));
    /// let too_big = state.raise_to(Chips(10_000));
    /// assert_eq!((too_big.answer, too_big.clamped), (Chips(1590), Some(Clamp::ToAllIn)));
    /// ```
    pub fn raise_to(&self, total: Chips) -> Raise {
        let all_in = self.all_in_amount();
        let minimum = self.minimum_raise_amount();
        let asked = total.saturating_sub(self.me().map_or(Chips::ZERO, |me| me.bet));
        if asked > all_in || minimum >= all_in && asked != all_in {
            Raise {
                answer: all_in,
                clamped: Some(Clamp::ToAllIn),
            }
        } else if asked < minimum {
            Raise {
                answer: minimum,
                clamped: Some(Clamp::ToMinimumRaise),
            }
        } else {
            Raise {
                answer: asked,
                clamped: None,
            }
        }
    }
}
