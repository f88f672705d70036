//! YOUR BOT. This file is the one a team edits: the whole strategy, and its `VERSION`.
//!
//! The template plays a simple, sensible game so you start from something that does not just
//! fold:
//! - preflop, it scores the two hole cards ([`preflop_score`], the Chen formula) and raises the
//!   best hands, calls playable ones when the price is small, and checks or folds the rest;
//! - after the flop it estimates its equity, the share of the pot it wins on average against
//!   the opponents still in the hand ([`postflop_strength`], Monte Carlo from `shared::equity`),
//!   and compares it with the pot odds: bet about the pot when clearly ahead, call when the
//!   price is right, else check or fold.
//!
//! Helpers on [`GameState`] do the arithmetic: `me()`, `my_cards()`, `call_amount()`,
//! `minimum_raise_amount()`, `raise_to(total)` (a legal raise, or all-in), `all_in_amount()`, `pot_odds()`,
//! `street()`, `active_opponents()`, `position(seat)`, and `read_bet(answer)`, which tells
//! exactly how the dealer will read an answer. Answer `0` to check or fold.
//!
//! Keep two names, whatever you change: `Bot`, built with `Bot::default()` (`main.rs` serves
//! it, `cargo arena` plays it), and `VERSION`. Your tests are in `tests/strategy.rs`; the tests
//! at the end of this file pin what the *template* plays: rewrite or delete them with it.

use player::shared::equity::Scenario;
use player::{Card, Chips, GameState, Player, Rank, Street};

/// Shown on the leaderboard: bump it on every deploy so you can see it went live.
pub const VERSION: &str = "Rust template 1";

/// The bot. `Default` gives the template's settings.
#[derive(Debug, Clone)]
pub struct Bot {
    /// Chen score from which a preflop hand is raised.
    pub raise_score: f64,
    /// Chen score from which a preflop hand is played at all.
    pub play_score: f64,
    /// The largest share of its stack the bot calls preflop with a merely playable hand.
    pub max_call_share: f64,
    /// Estimated win chance from which the bot bets after the flop.
    pub value_bet_strength: f64,
    /// Random deals per equity estimate after the flop: 2,000 take about a millisecond in a
    /// release build (tests may use fewer, debug builds are ~50 times slower).
    pub equity_trials: u64,
}

impl Default for Bot {
    fn default() -> Self {
        Bot {
            raise_score: 10.0,
            play_score: 7.0,
            max_call_share: 0.1,
            value_bet_strength: 0.7,
            equity_trials: 2_000,
        }
    }
}

impl Player for Bot {
    fn bet_request(&self, state: &GameState) -> Chips {
        let Some(me) = state.me() else {
            return Chips::ZERO;
        };
        let cards = state.my_cards();
        if cards.len() != 2 {
            return Chips::ZERO;
        }
        match state.street() {
            Some(Street::Preflop) => {
                self.preflop(state, me.stack, preflop_score(cards[0], cards[1]))
            }
            Some(_) => self.postflop(state, postflop_strength(state, self.equity_trials)),
            None => Chips::ZERO,
        }
    }

    fn version(&self) -> String {
        VERSION.to_string()
    }
}

impl Bot {
    fn preflop(&self, state: &GameState, stack: Chips, score: f64) -> Chips {
        if score >= self.raise_score {
            // Raise to three times the current bet (at least the minimum raise).
            return state
                .raise_to(state.current_buy_in.saturating_mul(3))
                .answer;
        }
        let call = state.call_amount();
        let cheap = call.get() as f64 <= stack.get() as f64 * self.max_call_share;
        if score >= self.play_score && cheap {
            return call;
        }
        Chips::ZERO
    }

    fn postflop(&self, state: &GameState, strength: f64) -> Chips {
        if strength >= self.value_bet_strength {
            // Bet about the pot.
            return state
                .raise_to(state.current_buy_in.saturating_add(state.pot))
                .answer;
        }
        match state.pot_odds() {
            Some(price) if strength >= price => state.call_amount(),
            _ => Chips::ZERO,
        }
    }
}

/// The Chen formula: a quick preflop score, from about -1 (7-2 offsuit) to 20 (aces).
///
/// Highest card: A 10, K 8, Q 7, J 6, 10 and below half their value; pairs double it (at least
/// 5); +2 suited; minus 1, 2, 4 or 5 for a gap of 1, 2, 3 or more; +1 for connected or
/// one-gap cards below a queen.
pub fn preflop_score(first: Card, second: Card) -> f64 {
    let (high, low) = if first.rank >= second.rank {
        (first.rank, second.rank)
    } else {
        (second.rank, first.rank)
    };
    let card_points = |rank: Rank| match rank {
        Rank::Ace => 10.0,
        Rank::King => 8.0,
        Rank::Queen => 7.0,
        Rank::Jack => 6.0,
        other => f64::from(other.value()) / 2.0,
    };
    if high == low {
        return (card_points(high) * 2.0).max(5.0);
    }
    let mut score = card_points(high);
    if first.suit == second.suit {
        score += 2.0;
    }
    let gap = high.value() - low.value() - 1;
    score -= match gap {
        0 => 0.0,
        1 => 1.0,
        2 => 2.0,
        3 => 4.0,
        _ => 5.0,
    };
    if gap <= 1 && high < Rank::Queen {
        score += 1.0;
    }
    score
}

/// The chance that the hand wins (its expected share of the pot) against the opponents still
/// in the hand, from `trials` random deals of their cards and the rest of the board
/// (`shared::equity`; exact instead when that is cheaper). `0.0` when it cannot be computed
/// (no hole cards, nobody left), which makes the bot check or fold.
pub fn postflop_strength(state: &GameState, trials: u64) -> f64 {
    let opponents = state.active_opponents().count();
    // The same decision always gets the same estimate: the seed follows the hand.
    let seed = state.round.unwrap_or(0);
    Scenario::new(state.my_cards(), &state.community_cards, opponents)
        .and_then(|scenario| scenario.estimate(trials.max(1), seed))
        .map_or(0.0, |result| result.equity())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(notation: &str) -> f64 {
        let cards = player::shared::card::parse_cards(notation).unwrap();
        preflop_score(cards[0], cards[1])
    }

    #[test]
    fn chen_scores_of_well_known_hands() {
        assert_eq!(score("Ah As"), 20.0);
        assert_eq!(score("Ks Kd"), 16.0);
        assert_eq!(score("5c 5d"), 5.0);
        assert_eq!(score("2c 2d"), 5.0);
        assert_eq!(score("Ah Kh"), 12.0);
        assert_eq!(score("Ah Kd"), 10.0);
        assert_eq!(score("Th 9h"), 8.0);
        assert_eq!(score("7c 2d"), -1.5);
    }
}

/// What the template plays, pinned. These belong to the template: when you change the
/// strategy above, change or delete them (`tests/strategy.rs` keeps checking that every
/// answer is a legal bet).
#[cfg(test)]
mod template_behaviour {
    use super::*;
    use player::testing::{check_bet, heads_up, table};
    use player::BetAction;

    fn bot() -> Bot {
        Bot::default()
    }

    fn action(state: &GameState) -> BetAction {
        let answer = bot().bet_request(state);
        match check_bet(state, answer) {
            Ok(reading) => reading.action,
            Err(problem) => panic!("not a meaningful bet: {problem}"),
        }
    }

    #[test]
    fn raises_aces_preflop() {
        let state = heads_up().hole_cards("Ah Ad").post_blinds().build();
        assert_eq!(action(&state), BetAction::Raise);
        // Raise to three times the big blind: 60 total, 50 more with the 10 already in.
        assert_eq!(bot().bet_request(&state), Chips(50));
    }

    #[test]
    fn folds_trash_facing_a_raise_and_checks_it_when_free() {
        let facing = table(3)
            .in_action(2)
            .hole_cards("7c 2d")
            .bets([10, 60, 20])
            .build();
        assert_eq!(action(&facing), BetAction::Fold);
        let free = heads_up().hole_cards("7c 2d").bets([20, 20]).build();
        assert_eq!(action(&free), BetAction::Check);
    }

    #[test]
    fn calls_a_playable_hand_when_it_is_cheap() {
        let state = table(4).hole_cards("Th 9h").post_blinds().build();
        assert_eq!(action(&state), BetAction::Call);
        let expensive = table(4)
            .in_action(3)
            .hole_cards("Th 9h")
            .bets([10, 20, 400, 0])
            .build();
        assert_eq!(action(&expensive), BetAction::Fold);
    }

    #[test]
    fn goes_all_in_with_exactly_the_stack_when_short() {
        let state = heads_up()
            .hole_cards("Ks Kd")
            .stack(0, 35)
            .post_blinds()
            .build();
        assert_eq!(state.me().unwrap().stack, Chips(25));
        assert_eq!(bot().bet_request(&state), Chips(25));
        assert_eq!(action(&state), BetAction::AllIn);
    }

    #[test]
    fn bets_strong_made_hands_after_the_flop_and_gives_up_weak_ones() {
        let set = heads_up()
            .hole_cards("8s 8d")
            .board("8c Kd 2h")
            .bets([40, 40])
            .build();
        assert_eq!(action(&set), BetAction::Raise);
        let air = heads_up()
            .hole_cards("3s 4d")
            .board("Ac Kd 9h")
            .bets([40, 240])
            .build();
        assert_eq!(action(&air), BetAction::Fold);
        // A flush draw facing a small bet has the price to call (about 35% against 1 in 6).
        let draw = heads_up()
            .hole_cards("Qh 9h")
            .board("2h 7h Kc")
            .bets([100, 120])
            .build();
        assert_eq!(action(&draw), BetAction::Call);
        // Five-high against four broadway cards is not worth a pot-sized bet.
        let hopeless = heads_up()
            .hole_cards("5c 4c")
            .board("Ac Kd Qh Js")
            .bets([100, 600])
            .build();
        assert_eq!(action(&hopeless), BetAction::Fold);
    }
}
