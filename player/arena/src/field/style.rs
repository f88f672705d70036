//! A player's style in four figures, counted the same way from recorded decisions and from
//! games played in the arena, so that a profile's play can be held against its player's.

use bots::profile::{classify, AnswerClass};
use player::{Chips, GameState, Street};
use serde::{Deserialize, Serialize};

/// Counts behind a player's style. Hands are those in which the player was asked at least once
/// preflop.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StyleCounts {
    /// Hands with a preflop decision.
    pub hands: u64,
    /// Hands in which it called or raised preflop when something was owed.
    pub voluntary: u64,
    /// Hands in which it raised preflop.
    pub raised: u64,
    /// Hands in which it went all-in raising preflop.
    pub all_in: u64,
    /// Bets and raises after the flop.
    pub aggressive: u64,
    /// Calls (of something owed) after the flop.
    pub calls: u64,
}

/// A style as percentages (and a ratio for aggression).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Style {
    /// Hands it put chips in voluntarily preflop, in percent.
    pub vpip: f64,
    /// Hands it raised preflop, in percent.
    pub pfr: f64,
    /// Hands it raised all-in preflop, in percent.
    pub all_in: f64,
    /// Bets and raises per call after the flop (`None` without a call).
    pub aggression: Option<f64>,
}

impl StyleCounts {
    /// Adds another count.
    pub fn merge(&mut self, other: &StyleCounts) {
        self.hands += other.hands;
        self.voluntary += other.voluntary;
        self.raised += other.raised;
        self.all_in += other.all_in;
        self.aggressive += other.aggressive;
        self.calls += other.calls;
    }

    /// The style these counts give.
    pub fn style(&self) -> Style {
        let share = |n: u64| 100.0 * n as f64 / self.hands.max(1) as f64;
        Style {
            vpip: share(self.voluntary),
            pfr: share(self.raised),
            all_in: share(self.all_in),
            aggression: (self.calls > 0).then(|| self.aggressive as f64 / self.calls as f64),
        }
    }
}

/// One hand of one player being counted.
#[derive(Debug, Clone, Copy, Default)]
struct HandFlags {
    asked_preflop: bool,
    voluntary: bool,
    raised: bool,
    all_in: bool,
}

/// Counts a stream of one player's decisions, hand by hand: the decisions of a hand come
/// together (as a recording and a game give them).
#[derive(Debug, Clone, Default)]
pub struct StyleMeter {
    counts: StyleCounts,
    hand: Option<(u64, HandFlags)>,
}

impl StyleMeter {
    /// Counts the answer `answer` of the player in action in `state`, from hand `hand` (any
    /// number that differs from the previous hand's).
    pub fn observe(&mut self, hand: u64, state: &GameState, answer: Chips) {
        if self.hand.is_some_and(|(current, _)| current != hand) {
            self.close_hand();
        }
        let flags = &mut self.hand.get_or_insert((hand, HandFlags::default())).1;
        let (class, _) = classify(state, answer);
        let owed = !state.call_amount().is_zero();
        if state.street() == Some(Street::Preflop) {
            flags.asked_preflop = true;
            if class.raises() || (owed && class == AnswerClass::CheckCall) {
                flags.voluntary = true;
            }
            if class.raises() {
                flags.raised = true;
            }
            if class == AnswerClass::AllIn {
                flags.all_in = true;
            }
        } else if class.raises() {
            self.counts.aggressive += 1;
        } else if owed && class == AnswerClass::CheckCall {
            self.counts.calls += 1;
        }
    }

    fn close_hand(&mut self) {
        if let Some((_, flags)) = self.hand.take() {
            if flags.asked_preflop {
                self.counts.hands += 1;
                self.counts.voluntary += u64::from(flags.voluntary);
                self.counts.raised += u64::from(flags.raised);
                self.counts.all_in += u64::from(flags.all_in);
            }
        }
    }

    /// The counts, the hand under way included.
    pub fn finish(mut self) -> StyleCounts {
        self.close_hand();
        self.counts
    }
}
