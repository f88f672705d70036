//! Exact equity: every deal of the unknown cards, counted by holding (see
//! [`Scenario::exact`](super::Scenario::exact)).

use super::EquityResult;
use crate::eval::{HandKey, HandStrength};

/// Calls `visit` with every `k`-subset of `items` (k <= 5), in lexicographic order.
pub(super) fn for_each_subset(
    items: &[u16],
    k: usize,
    buffer: &mut [u16; 5],
    visit: &mut dyn FnMut(&[u16]),
) {
    fn recurse(
        items: &[u16],
        start: usize,
        depth: usize,
        k: usize,
        buffer: &mut [u16; 5],
        visit: &mut dyn FnMut(&[u16]),
    ) {
        if depth == k {
            visit(&buffer[..k]);
            return;
        }
        for i in start..items.len() {
            buffer[depth] = items[i];
            recurse(items, i + 1, depth + 1, k, buffer, visit);
        }
    }
    recurse(items, 0, 0, k.min(5), buffer, visit);
}

pub(super) fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut result = 1u64;
    for i in 0..k {
        result = result * (n - i) / (i + 1);
    }
    result
}

/// A distinct index below 64 for the card with evaluator `code` (`rank value | suit << 8`):
/// `suit * 16 + rank value`, for the per-card tables of the exact enumeration.
#[inline(always)]
fn small_index(code: u16) -> usize {
    usize::from(code >> 8 & 3) << 4 | usize::from(code & 15)
}

/// Exact counts over equally likely deals.
#[derive(Default)]
pub(super) struct ExactTally {
    deals: u64,
    wins: u64,
    /// Deals where we share the pot with one opponent (two ways).
    two_way: u64,
    /// ... with two opponents (three ways).
    three_way: u64,
    /// ... with three opponents (four ways).
    four_way: u64,
}

/// How an opponent's holding compares with our hand.
const LOSE: u8 = 0;
const TIE: u8 = 1;
const WIN: u8 = 2;

/// Holdings we beat (`W`) and tie (`T`) among a set of cards, with per-card counts: enough to
/// count pairs of disjoint holdings without visiting them.
struct HoldingStats {
    /// Cards available.
    cards: u64,
    beaten: u64,
    tied: u64,
    /// Per card code: holdings in `W` / `T` containing that card.
    beaten_by_card: [u64; 64],
    tied_by_card: [u64; 64],
}

/// The per-card sums that [`disjoint_pairs`] needs: `sum d_W (d_W - 1)`, `sum d_T (d_T - 1)`
/// and `sum d_W d_T` over the cards.
#[derive(Default)]
struct CardSums {
    beaten_shared: u64,
    tied_shared: u64,
    across: u64,
}

impl CardSums {
    fn add(&mut self, beaten: u64, tied: u64) {
        self.beaten_shared += beaten * beaten.saturating_sub(1);
        self.tied_shared += tied * tied.saturating_sub(1);
        self.across += beaten * tied;
    }
}

/// Unordered pairs of disjoint holdings among `cards` cards of which `beaten` holdings are
/// in `W` and `tied` in `T`: `(all pairs, both beaten, one beaten and one tied, both tied)`.
///
/// The ordered pairs of distinct holdings in a set `S` number `|S|^2 - |S|`, of which
/// `sum over cards c of d(c) * (d(c) - 1)` share a card (`d(c)` = holdings in `S` containing
/// `c`); between two disjoint sets `A` and `B` there are `|A| |B| - sum d_A(c) d_B(c)`
/// disjoint pairs. Every card is in `n - 1` of all `n (n - 1) / 2` holdings.
fn disjoint_pairs(cards: u64, beaten: u64, tied: u64, sums: &CardSums) -> (u64, u64, u64, u64) {
    let n = cards;
    let all = n * n.saturating_sub(1) / 2;
    let all_pairs = (all * all - all - n * n.saturating_sub(1) * n.saturating_sub(2)) / 2;
    (
        all_pairs,
        (beaten * beaten - beaten - sums.beaten_shared) / 2,
        beaten * tied - sums.across,
        (tied * tied - tied - sums.tied_shared) / 2,
    )
}

impl ExactTally {
    /// Adds every holding of the opponents (one to three) from `rest` on a complete `board`.
    pub(super) fn add_board(
        &mut self,
        board: HandKey,
        ours: HandStrength,
        rest: &[u16],
        opponents: usize,
    ) {
        let mut stats = HoldingStats {
            cards: rest.len() as u64,
            beaten: 0,
            tied: 0,
            beaten_by_card: [0; 64],
            tied_by_card: [0; 64],
        };
        // Outcome of each holding, by code pair (codes are < 64).
        let mut outcome = [LOSE; 64 * 64];
        for (i, &first) in rest.iter().enumerate() {
            let with_first = board.add_code_unchecked(first);
            for &second in &rest[i + 1..] {
                let theirs = with_first.add_code_unchecked(second).strength_unchecked();
                let (a, b) = (small_index(first), small_index(second));
                let result = if theirs < ours {
                    stats.beaten += 1;
                    stats.beaten_by_card[a] += 1;
                    stats.beaten_by_card[b] += 1;
                    WIN
                } else if theirs == ours {
                    stats.tied += 1;
                    stats.tied_by_card[a] += 1;
                    stats.tied_by_card[b] += 1;
                    TIE
                } else {
                    LOSE
                };
                outcome[a * 64 + b] = result;
                outcome[b * 64 + a] = result;
            }
        }
        match opponents {
            1 => {
                self.deals += stats.cards * stats.cards.saturating_sub(1) / 2;
                self.wins += stats.beaten;
                self.two_way += stats.tied;
            }
            2 => {
                let mut sums = CardSums::default();
                for &card in rest {
                    let c = small_index(card);
                    sums.add(stats.beaten_by_card[c], stats.tied_by_card[c]);
                }
                let (all, both_beaten, beaten_tied, both_tied) =
                    disjoint_pairs(stats.cards, stats.beaten, stats.tied, &sums);
                self.deals += all;
                self.wins += both_beaten;
                self.two_way += beaten_tied;
                self.three_way += both_tied;
            }
            _ => self.add_three(&stats, &outcome, rest),
        }
    }

    /// Three opponents: for each holding of one of them, the other two are counted as pairs
    /// among the remaining cards. Every deal is met three times (once per opponent taken
    /// first), hence the division.
    fn add_three(&mut self, stats: &HoldingStats, outcome: &[u8; 64 * 64], rest: &[u16]) {
        let mut tally = ExactTally::default();
        let beats = |a: usize, b: usize| u64::from(outcome[a * 64 + b] == WIN);
        let ties = |a: usize, b: usize| u64::from(outcome[a * 64 + b] == TIE);
        for (i, &first) in rest.iter().enumerate() {
            for &second in &rest[i + 1..] {
                let (a, b) = (small_index(first), small_index(second));
                // The holdings left once `a` and `b` are gone.
                let beaten =
                    stats.beaten + beats(a, b) - stats.beaten_by_card[a] - stats.beaten_by_card[b];
                let tied = stats.tied + ties(a, b) - stats.tied_by_card[a] - stats.tied_by_card[b];
                let mut sums = CardSums::default();
                for &other in rest {
                    let c = small_index(other);
                    if c != a && c != b {
                        sums.add(
                            stats.beaten_by_card[c] - beats(c, a) - beats(c, b),
                            stats.tied_by_card[c] - ties(c, a) - ties(c, b),
                        );
                    }
                }
                let (all, both_beaten, beaten_tied, both_tied) =
                    disjoint_pairs(stats.cards - 2, beaten, tied, &sums);
                tally.deals += all;
                match outcome[a * 64 + b] {
                    WIN => {
                        tally.wins += both_beaten;
                        tally.two_way += beaten_tied;
                        tally.three_way += both_tied;
                    }
                    TIE => {
                        tally.two_way += both_beaten;
                        tally.three_way += beaten_tied;
                        tally.four_way += both_tied;
                    }
                    _ => {}
                }
            }
        }
        self.deals += tally.deals / 3;
        self.wins += tally.wins / 3;
        self.two_way += tally.two_way / 3;
        self.three_way += tally.three_way / 3;
        self.four_way += tally.four_way / 3;
    }

    pub(super) fn result(&self) -> EquityResult {
        let deals = self.deals.max(1) as f64;
        let shares =
            self.two_way as f64 / 2.0 + self.three_way as f64 / 3.0 + self.four_way as f64 / 4.0;
        EquityResult {
            win: self.wins as f64 / deals,
            tie: shares / deals,
            trials: self.deals,
            exact: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(52, 5), 2_598_960);
        assert_eq!(binomial(45, 2), 990);
        assert_eq!(binomial(3, 5), 0);
        assert_eq!(binomial(7, 0), 1);
    }
}
