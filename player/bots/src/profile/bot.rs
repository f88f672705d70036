//! The house bot that plays a profile ([`ProfileBot`]), remembering the hands it plays.

use super::{AnswerClass, CompiledProfile, HandTrackers, Situation};
use player::{Chips, GameState, Player};
use std::sync::{Arc, Mutex};

/// A house bot that plays a [`Profile`](super::Profile): in each situation it draws an answer class with the
/// recorded player's frequencies and, for a raise, one of its recorded sizes. It remembers the
/// states it was sent earlier in each hand (one [`HandTracker`](super::HandTracker) per game it plays, by
/// `game_id`), which is what its memory of the hand is read from. Deterministic: every draw
/// follows from the bot's seed and the decision (hand, bet, pot, seat), and the memory from the
/// hand's earlier states, so a game replays from its seed; every answer is a legal, meaningful
/// bet.
#[derive(Debug)]
pub struct ProfileBot {
    profile: Arc<CompiledProfile>,
    seed: u64,
    hands: Mutex<HandTrackers>,
}

impl ProfileBot {
    /// A bot playing `profile`, its draws following `seed`.
    pub fn new(profile: Arc<CompiledProfile>, seed: u64) -> ProfileBot {
        ProfileBot {
            profile,
            seed,
            hands: Mutex::new(HandTrackers::default()),
        }
    }

    /// The situation of the player in action in `state`, remembered in its game's hand.
    fn situation(&self, state: &GameState) -> Option<Situation> {
        let mut hands = self.hands.lock().unwrap_or_else(|e| e.into_inner());
        Situation::read(state, hands.tracker(state))
    }

    /// Two numbers in `0..1` for this decision.
    fn draws(&self, state: &GameState) -> (f64, f64) {
        let mut hash = self.seed ^ 0x9e37_79b9_7f4a_7c15;
        for value in [
            state.round.unwrap_or(0),
            state.bet_index.unwrap_or(0),
            state.pot.get(),
            state.current_buy_in.get(),
            state.community_cards.len() as u64,
            state.in_action().map_or(0, |seat| seat.index() as u64),
        ] {
            hash = splitmix(hash ^ value);
        }
        let first = splitmix(hash);
        let second = splitmix(first);
        let unit = |x: u64| (x >> 11) as f64 / (1u64 << 53) as f64;
        (unit(first), unit(second))
    }
}

/// SplitMix64's finaliser: a well-mixed 64-bit hash step.
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Player for ProfileBot {
    fn bet_request(&self, state: &GameState) -> Chips {
        let Some(situation) = self.situation(state) else {
            return Chips::ZERO;
        };
        let (class_draw, size_draw) = self.draws(state);
        let cumulative = self.profile.cumulative(situation);
        let class = cumulative
            .iter()
            .position(|&c| class_draw < c)
            .map_or(AnswerClass::CheckCall, |index| AnswerClass::ALL[index]);
        match class {
            AnswerClass::Fold => Chips::ZERO,
            AnswerClass::CheckCall => state.call_amount(),
            AnswerClass::AllIn => state.all_in_amount(),
            raise => {
                let slot = raise.size_slot().unwrap_or(0);
                let size = self.profile.raise_size(situation, slot, size_draw);
                // Sized as recorded: facing a bet in minimum raises, else as a share of the pot.
                let unit = if situation.price > 0 {
                    state.minimum_raise()
                } else {
                    state.pot
                };
                let raise_by = Chips((size * unit.get() as f64).round().max(0.0) as u64);
                let answer = state
                    .call_amount()
                    .saturating_add(raise_by)
                    .max(state.minimum_raise_amount());
                answer.min(state.all_in_amount())
            }
        }
    }

    fn showdown(&self, state: &GameState) {
        self.hands
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .hand_ended(state);
    }

    fn version(&self) -> String {
        format!("profile {} {}", self.profile.name, self.profile.fingerprint)
    }
}
