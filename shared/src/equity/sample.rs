//! Monte Carlo equity: random deals from the remaining deck (see
//! [`Scenario::monte_carlo`](super::Scenario::monte_carlo)).

use super::{card_bit, EquityResult, Scenario, MAX_OPPONENTS};
use crate::card::Card;
use crate::eval::{CardEntry, HandKey};

/// Monte Carlo state: the deck, the generator and the counts so far.
pub(super) struct Sampler {
    /// The cards left, as evaluator entries; positions past `deck_len` are unused. 64 long so
    /// that a position masked with 63 is always in range.
    deck: [CardEntry; 64],
    deck_len: usize,
    board: HandKey,
    hole: HandKey,
    to_board: usize,
    opponents: usize,
    rng: WyRand,
    trials: u64,
    /// `outcomes[0]`: trials won alone; `outcomes[k]` for `k` in `1..=MAX_OPPONENTS`: trials
    /// where we shared the pot with `k` opponents; `outcomes[LOST]`: trials lost.
    outcomes: [u64; OUTCOMES],
}

/// Where [`Sampler`] counts lost trials.
const LOST: usize = MAX_OPPONENTS + 1;
/// The length of [`Sampler`]'s outcome counts: a power of two above [`LOST`], so that a masked
/// index needs no bounds check.
const OUTCOMES: usize = 32;

impl Sampler {
    pub(super) fn new(scenario: &Scenario, seed: u64) -> Sampler {
        let mut deck = [CardEntry::default(); 64];
        let mut deck_len = 0;
        // The same order as `Scenario::deck`: the deals depend on it.
        for card in Card::deck() {
            if scenario.known & card_bit(card) == 0 {
                deck[deck_len] = CardEntry::of(card);
                deck_len += 1;
            }
        }
        Sampler {
            deck,
            deck_len,
            board: scenario.board,
            hole: scenario.hole,
            to_board: 5 - scenario.board_len,
            opponents: scenario.opponents,
            rng: WyRand::new(seed),
            trials: 0,
            outcomes: [0; OUTCOMES],
        }
    }

    pub(super) fn run(&mut self, trials: u64) {
        // Locals, so that the hot loop keeps them in registers. `Scenario::check_deal`
        // guarantees `needed <= deck_len <= 52` and at most `MAX_OPPONENTS` opponents; the
        // `min`s only tell the compiler so.
        let deck_len = self.deck_len.min(52);
        let to_board = self.to_board.min(5);
        let needed = (to_board + 2 * self.opponents.min(MAX_OPPONENTS)).min(deck_len);
        let (board, hole) = (self.board, self.hole);
        let mut deck = self.deck;
        let mut rng = WyRand::new(self.rng.state);
        let mut outcomes = self.outcomes;
        for _ in 0..trials {
            // A partial Fisher–Yates shuffle: positions 0..needed become a uniform random
            // sample in random order, whatever order the deck was left in by the last trial.
            // Every bound is at least 1 because `needed <= deck_len`.
            let mut i = 0;
            while i < needed {
                // Two draws from one 64-bit output.
                let bits = rng.next_u64();
                let j = i + rng.below_nonzero(bits as u32, (deck_len - i) as u32) as usize;
                deck.swap(i & 63, j & 63);
                i += 1;
                if i < needed {
                    let bound = (deck_len - i) as u32;
                    let j = i + rng.below_nonzero((bits >> 32) as u32, bound) as usize;
                    deck.swap(i & 63, j & 63);
                    i += 1;
                }
            }
            let mut full_board = board;
            for &entry in &deck[..to_board] {
                full_board = full_board.add_entry_unchecked(entry);
            }
            let ours = full_board.join_unchecked(hole).strength_unchecked();
            // Every opponent is evaluated (no early exit on a loss): a data-dependent branch
            // per opponent costs more in mispredictions than the evaluations it saves.
            let mut best = 0;
            let mut tied = 0;
            for holding in deck[to_board..needed].chunks_exact(2) {
                let theirs = full_board
                    .add_entry_unchecked(holding[0])
                    .add_entry_unchecked(holding[1])
                    .strength_unchecked();
                best = best.max(theirs.index());
                tied += usize::from(theirs == ours);
            }
            // Won alone: nobody tied, index 0; split: index = opponents tied; lost: LOST.
            let outcome = if ours.index() < best { LOST } else { tied };
            outcomes[outcome & (OUTCOMES - 1)] += 1;
        }
        self.deck = deck;
        self.rng = rng;
        self.outcomes = outcomes;
        self.trials += trials;
    }

    pub(super) fn result(&self) -> EquityResult {
        let trials = self.trials.max(1) as f64;
        let tie_share: f64 = self.outcomes[1..=MAX_OPPONENTS]
            .iter()
            .enumerate()
            .map(|(others, &count)| count as f64 / (others as f64 + 2.0))
            .sum();
        EquityResult {
            win: self.outcomes[0] as f64 / trials,
            tie: tie_share / trials,
            trials: self.trials,
            exact: false,
        }
    }
}

/// wyrand (Wang Yi's generator from wyhash): 64 bits of state, one multiply per output, passes
/// BigCrush and PractRand. Written out here (rather than taken from `rand`) so that a seed
/// gives the same deals on every platform and in every future version.
struct WyRand {
    state: u64,
}

impl WyRand {
    fn new(seed: u64) -> WyRand {
        WyRand { state: seed }
    }

    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xA076_1D64_78BD_642F);
        let product = u128::from(self.state) * u128::from(self.state ^ 0xE703_7ED1_A0B4_28DB);
        (product as u64) ^ ((product >> 64) as u64)
    }

    /// A uniform integer in `0..bound` (`bound >= 1`; 0 for 0) from the uniform 32-bit
    /// `first`.
    #[cfg(test)]
    fn below_from(&mut self, first: u32, bound: u32) -> u32 {
        self.below_nonzero(first, bound.max(1))
    }

    /// A uniform integer in `0..bound` from the uniform 32-bit `first`, for `bound >= 1`,
    /// without bias: Lemire's multiply-shift, rejecting the few low products that would
    /// favour some results (then drawing fresh bits; probability below bound / 2^32).
    #[inline(always)]
    fn below_nonzero(&mut self, first: u32, bound: u32) -> u32 {
        let mut product = u64::from(first) * u64::from(bound);
        if (product as u32) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (product as u32) < threshold {
                product = u64::from(self.next_u64() as u32) * u64::from(bound);
            }
        }
        (product >> 32) as u32
    }

    /// A uniform integer in `0..bound` (`bound >= 1`).
    #[cfg(test)]
    fn below(&mut self, bound: u32) -> u32 {
        let bits = self.next_u64() as u32;
        self.below_from(bits, bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = WyRand::new(7);
        let mut seen = [0u32; 52];
        for _ in 0..52_000 {
            let value = rng.below(52) as usize;
            seen[value] += 1;
        }
        assert!(
            seen.iter().all(|&count| (800..1200).contains(&count)),
            "{seen:?}"
        );
        assert_eq!(rng.below(1), 0);
        assert_eq!(rng.below(0), 0);
    }
}
