//! What the field's bots read off a state before deciding, and how they size and randomise:
//! one place, so each bot's file is its strategy only.

use crate::preflop;
use player::shared::equity::Scenario;
use player::{Card, Chips, GameState, PlayerStatus, Street};

/// A decision point, read once.
pub(crate) struct Spot<'a> {
    pub state: &'a GameState,
    pub cards: [Card; 2],
    pub street: Street,
    /// Opponents still in the hand (all-in ones included).
    pub opponents: usize,
    /// Chips to call (the whole stack when that is less).
    pub call: Chips,
    /// My stack, in big blinds.
    pub stack_in_blinds: f64,
}

impl<'a> Spot<'a> {
    /// The spot of the player in action, or `None` when there is nothing to decide (no
    /// cards, no street, nobody left to play against).
    pub fn read(state: &'a GameState) -> Option<Spot<'a>> {
        let me = state.me()?;
        let [first, second] = state.my_cards() else {
            return None;
        };
        let street = state.street()?;
        let opponents = state.active_opponents().count();
        if opponents == 0 {
            return None;
        }
        let big_blind = state.big_blind().get().max(1) as f64;
        Some(Spot {
            state,
            cards: [*first, *second],
            street,
            opponents,
            call: state.call_amount(),
            stack_in_blinds: me.stack.get() as f64 / big_blind,
        })
    }

    /// The equal share of the pot: `1 / players in the hand`.
    pub fn fair_share(&self) -> f64 {
        1.0 / (self.opponents + 1) as f64
    }

    /// Preflop equity against the opponents in the hand holding random cards (a table look-up).
    pub fn preflop_equity(&self) -> f64 {
        preflop::equity(self.cards[0], self.cards[1], self.opponents)
    }

    /// Where the hand ranks among all starting hands heads-up: 0 the best, 1 the worst.
    pub fn percentile(&self) -> f64 {
        preflop::percentile(self.cards[0], self.cards[1])
    }

    /// Whether someone raised before me this street (preflop: a bet above the big blind).
    pub fn raised(&self) -> bool {
        match self.street {
            Street::Preflop => self.state.current_buy_in > self.state.big_blind(),
            _ => !self.call.is_zero(),
        }
    }

    /// Whether calling would put in most of my stack (an all-in to answer, or nearly).
    pub fn call_commits(&self) -> bool {
        let stack = self.state.me().map_or(0, |me| me.stack.get());
        self.call.get().saturating_mul(2) >= stack
    }

    /// All-in or fold, for a short stack: answers a raise or an all-in with an all-in when the
    /// hand's equity against the players in it beats the price by `call_margin`; unraised,
    /// shoves the hands in the best `range` (a share of all starting hands).
    pub fn push_or_fold(&self, range: f64, call_margin: f64) -> Chips {
        let push = if self.raised() || self.call_commits() {
            self.preflop_equity() >= self.price() + call_margin
        } else {
            self.percentile() < range
        };
        if push {
            self.shove()
        } else {
            Chips::ZERO
        }
    }

    /// After the flop, the plain equity rule: with equity `share` of the way from a fair share
    /// to certain, the `strong` move (a shove, a pot-sized bet); facing a bet, a call when the
    /// equity beats the price; else check or fold.
    pub fn strong_or_priced(
        &self,
        seed: u64,
        share: f64,
        strong: impl FnOnce(&Self) -> Chips,
    ) -> Chips {
        let fair = self.fair_share();
        let strong_equity = fair + (1.0 - fair) * share;
        let price = self.price();
        let equity = self.equity(seed, &[strong_equity, price]);
        if equity >= strong_equity {
            return strong(self);
        }
        if !self.call.is_zero() && equity >= price {
            return self.call();
        }
        Chips::ZERO
    }

    /// Unraised: a raise to `blinds` big blinds with the hands in the best `range`, else check
    /// or fold.
    pub fn open(&self, range: f64, blinds: f64) -> Chips {
        if self.percentile() < range {
            self.raise_to_blinds(blinds)
        } else {
            Chips::ZERO
        }
    }

    /// A re-raise to three times the bet to call.
    pub fn reraise(&self) -> Chips {
        self.raise_to(self.state.current_buy_in.saturating_mul(3))
    }

    /// Whether a call costs at most `share` of my stack.
    pub fn affordable(&self, share: f64) -> bool {
        let stack = self.state.me().map_or(0, |me| me.stack.get());
        self.call.get() as f64 <= stack as f64 * share
    }

    /// Players who act after me preflop and are still to act (not folded, with chips).
    pub fn behind(&self) -> usize {
        let state = self.state;
        let (Some(me), count) = (state.in_action(), state.players.len()) else {
            return 0;
        };
        if me.index() >= count {
            return 0;
        }
        let button = state.dealer.index() % count;
        // Preflop the big blind acts last: the seats after me up to and including it.
        let big_blind_seat = (1..=count)
            .map(|step| (button + step) % count)
            .filter(|&seat| state.players[seat].status != PlayerStatus::Out)
            .nth(if self.live_players() == 2 { 0 } else { 1 });
        let Some(big_blind_seat) = big_blind_seat else {
            return 0;
        };
        let mut behind = 0;
        let mut seat = me.index();
        while seat != big_blind_seat {
            seat = (seat + 1) % count;
            let player = &state.players[seat];
            if player.status == PlayerStatus::Active && player.stack.get() > 0 {
                behind += 1;
            }
        }
        behind
    }

    fn live_players(&self) -> usize {
        self.state.players_with_chips().count()
    }

    /// Postflop equity against the opponents still in the hand: exact when that is cheap (a
    /// heads-up river), else Monte Carlo in batches of 128 deals until the estimate is three
    /// standard errors from every `threshold` the decision compares it with (at most 1,024
    /// deals): clear decisions cost a batch. Deterministic: the deals follow `seed` and the
    /// hand.
    pub fn equity(&self, seed: u64, thresholds: &[f64]) -> f64 {
        let Ok(scenario) = Scenario::new(&self.cards, &self.state.community_cards, self.opponents)
        else {
            return 0.0;
        };
        if scenario.exact_cost().is_some_and(|cost| cost <= EXACT_COST) {
            if let Some(exact) = scenario.exact() {
                return exact.equity();
            }
        }
        let base = self.roll_seed(seed);
        let mut sum = 0.0;
        let mut trials = 0u64;
        for batch in 0..MAX_BATCHES {
            let Ok(result) = scenario.monte_carlo(BATCH, base.wrapping_add(batch)) else {
                return 0.0;
            };
            sum += result.equity() * BATCH as f64;
            trials += BATCH;
            let estimate = sum / trials as f64;
            let error = (estimate * (1.0 - estimate) / trials as f64)
                .sqrt()
                .max(1e-3);
            if thresholds
                .iter()
                .all(|t| (estimate - t).abs() > 3.0 * error)
            {
                break;
            }
        }
        sum / trials as f64
    }

    /// A number in `[0, 1)` for a random choice, a function of `seed` and the decision (the
    /// hand, the bet index, the cards): the same decision always draws the same number, and
    /// different deals draw independent-looking ones.
    pub fn roll(&self, seed: u64) -> f64 {
        (mix(self.roll_seed(seed)) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn roll_seed(&self, seed: u64) -> u64 {
        let state = self.state;
        let mut key = mix(seed ^ state.round.unwrap_or(0).rotate_left(32));
        key = mix(key ^ state.bet_index.unwrap_or(0));
        for card in self.cards.iter().chain(&state.community_cards) {
            key = mix(key ^ u64::from(card.index()));
        }
        key
    }

    /// The answer that raises to a total bet of `total` (at least the minimum raise, at most
    /// all-in, exactly the stack when that is what it comes to).
    pub fn raise_to(&self, total: Chips) -> Chips {
        self.state
            .raise_to_amount(total)
            .max(self.state.minimum_raise_amount())
            .min(self.state.all_in_amount())
    }

    /// A raise to `blinds` big blinds (preflop opens).
    pub fn raise_to_blinds(&self, blinds: f64) -> Chips {
        let big_blind = self.state.big_blind().get() as f64;
        self.raise_to(Chips((big_blind * blinds).round() as u64))
    }

    /// A bet or raise of `fraction` of the pot after calling: to `current_buy_in + fraction ·
    /// (pot + call)`.
    pub fn pot_bet(&self, fraction: f64) -> Chips {
        let pot_after_call = self.state.pot.saturating_add(self.call).get() as f64;
        let raise_by = (pot_after_call * fraction).round() as u64;
        self.raise_to(self.state.current_buy_in.saturating_add(Chips(raise_by)))
    }

    /// Every chip.
    pub fn shove(&self) -> Chips {
        self.state.all_in_amount()
    }

    /// Calls (0 when nothing is owed: a check).
    pub fn call(&self) -> Chips {
        self.call
    }

    /// The pot odds of a call (0 when nothing is owed).
    pub fn price(&self) -> f64 {
        self.state.pot_odds().unwrap_or(0.0)
    }
}

/// Exact equity up to this many showdown evaluations (a heads-up river, ~1,000); above it,
/// batches of Monte Carlo.
const EXACT_COST: u64 = 2_000;
/// Deals per Monte Carlo batch.
const BATCH: u64 = 128;
/// Batches at most (1,024 deals).
const MAX_BATCHES: u64 = 8;

/// SplitMix64's finaliser: a well-mixed 64-bit function of its input.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
