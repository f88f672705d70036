//! [`from_fn`]: a [`Player`] from a plain function, for small bots, examples and tests (as axum
//! turns closures into handlers), so a one-line strategy needs no struct and no `impl`.

use crate::{Chips, GameState, Player, SDK_VERSION};
use std::borrow::Cow;

/// A [`Player`] whose `bet_request` is a function; made by [`from_fn`].
///
/// `showdown` does nothing and `version` is [`SDK_VERSION`] unless
/// [`with_version`](FnPlayer::with_version) names one.
#[derive(Clone)]
pub struct FnPlayer<F> {
    bet: F,
    version: Cow<'static, str>,
}

/// Makes a [`Player`] of a function from the state to the bet.
///
/// ```
/// use player::{from_fn, GameState, Player};
///
/// let caller = from_fn(|state: &GameState| state.call_amount()).with_version("caller 1");
/// let state = player::testing::heads_up().build();
/// assert_eq!(caller.bet_request(&state), state.call_amount());
/// assert_eq!(caller.version(), "caller 1");
/// // player::serve(caller) serves it like any other Player.
/// ```
pub fn from_fn<F>(bet: F) -> FnPlayer<F>
where
    F: Fn(&GameState) -> Chips + Send + Sync + 'static,
{
    FnPlayer {
        bet,
        version: Cow::Borrowed(SDK_VERSION),
    }
}

impl<F> FnPlayer<F> {
    /// The version shown on the leaderboard (change it with the behaviour, to see deploys land).
    pub fn with_version(mut self, version: impl Into<Cow<'static, str>>) -> FnPlayer<F> {
        self.version = version.into();
        self
    }
}

impl<F> std::fmt::Debug for FnPlayer<F> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("FnPlayer")
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

impl<F> Player for FnPlayer<F>
where
    F: Fn(&GameState) -> Chips + Send + Sync + 'static,
{
    fn bet_request(&self, state: &GameState) -> Chips {
        (self.bet)(state)
    }

    fn version(&self) -> String {
        self.version.clone().into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_function_is_a_player_with_the_sdk_version_by_default() {
        let state = shared::testing_state();
        let folder = from_fn(|_: &GameState| Chips::ZERO);
        assert_eq!(folder.bet_request(&state), Chips::ZERO);
        assert_eq!(folder.version(), SDK_VERSION);
        folder.showdown(&state);
        let all_in =
            from_fn(|state: &GameState| state.all_in_amount()).with_version(String::from("x"));
        assert_eq!(all_in.bet_request(&state), state.all_in_amount());
        assert_eq!(all_in.version(), "x");
        let boxed: Box<dyn Player> = Box::new(all_in);
        assert_eq!(boxed.version(), "x");
    }
}
