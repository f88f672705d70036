//! The reference evaluator: plain, obviously-correct poker logic on per-suit rank masks.
//!
//! It is the single source of truth for hand classes. The fast evaluator's lookup tables are
//! generated from it (`tests/eval_tables.rs` includes this very file and checks them),
//! `evaluate` uses it to pick the best five cards, and the tests compare both against
//! `rs_poker`.
//!
//! Self-contained on purpose (no `crate::` paths): the table generator includes it with
//! `#[path]`.
//!
//! Ranks are indexes `0..13` (deuce = 0, ace = 12); suits are indexes `0..4`. A hand is given
//! as four 13-bit masks, one per suit, bit `r` set when the card of rank `r` is present.

/// The category numbers used here: 0 high card .. 8 straight flush (the Rain Man numbering).
pub const HIGH_CARD: u8 = 0;
/// One pair.
pub const PAIR: u8 = 1;
/// Two pair.
pub const TWO_PAIR: u8 = 2;
/// Three of a kind.
pub const THREE_OF_A_KIND: u8 = 3;
/// Straight.
pub const STRAIGHT: u8 = 4;
/// Flush.
pub const FLUSH: u8 = 5;
/// Full house.
pub const FULL_HOUSE: u8 = 6;
/// Four of a kind.
pub const FOUR_OF_A_KIND: u8 = 7;
/// Straight flush.
pub const STRAIGHT_FLUSH: u8 = 8;

const ACE: u8 = 12;
const WHEEL_MASK: u16 = 0b1_0000_0000_1111;

/// The best five-card hand found in a set of cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Classified {
    /// 0 (high card) ..= 8 (straight flush).
    pub category: u8,
    /// The five cards as `(rank index, suit index)`, in order of significance: the cards that
    /// make the combination first (higher pair first), then kickers high to low. A wheel
    /// straight is ordered 5-4-3-2-A.
    pub cards: [(u8, u8); 5],
}

impl Classified {
    /// A number that orders hands exactly like poker does and is equal exactly when two hands
    /// tie: the category, then the five ranks in order of significance, four bits each. The
    /// wheel's ace counts as its position (below the deuce), so a wheel sorts lowest.
    pub fn canonical(&self) -> u32 {
        let mut value = u32::from(self.category);
        let wheel = matches!(self.category, STRAIGHT | STRAIGHT_FLUSH) && self.cards[0].0 == 3;
        for (position, &(rank, _)) in self.cards.iter().enumerate() {
            // In a wheel the ace is the last card and plays low.
            let rank = if wheel && position == 4 {
                0
            } else {
                u32::from(rank) + 1
            };
            value = (value << 4) | rank;
        }
        value
    }
}

/// The highest straight in a rank mask, as the index of its top card (3 for the wheel).
pub fn straight_top(ranks: u16) -> Option<u8> {
    let runs = ranks & (ranks << 1) & (ranks << 2) & (ranks << 3) & (ranks << 4);
    if runs != 0 {
        Some(15 - runs.leading_zeros() as u8)
    } else if ranks & WHEEL_MASK == WHEEL_MASK {
        Some(3)
    } else {
        None
    }
}

/// The ranks of a straight with top card `top`, top first (the wheel ends with the ace).
fn straight_ranks(top: u8) -> [u8; 5] {
    if top == 3 {
        [3, 2, 1, 0, ACE]
    } else {
        [top, top - 1, top - 2, top - 3, top - 4]
    }
}

/// Picks the present card of `rank` with the lowest suit index not yet taken.
fn take(suits: &[u16; 4], taken: &mut [u16; 4], rank: u8) -> Option<(u8, u8)> {
    let bit = 1u16 << rank;
    for suit in 0..4u8 {
        let s = usize::from(suit);
        if suits[s] & bit != 0 && taken[s] & bit == 0 {
            taken[s] |= bit;
            return Some((rank, suit));
        }
    }
    None
}

/// Classifies a set of at least five distinct cards (any number up to 52).
///
/// Returns `None` for fewer than five cards or masks with bits above the ace.
pub fn classify(suits: [u16; 4]) -> Option<Classified> {
    if suits.iter().any(|mask| mask >> 13 != 0) {
        return None;
    }
    let total: u32 = suits.iter().map(|mask| mask.count_ones()).sum();
    if total < 5 {
        return None;
    }

    // Straight flush, then flush: only a suit holding five or more cards can make them.
    let flush_suit = (0..4u8).find(|&s| suits[usize::from(s)].count_ones() >= 5);
    if let Some(suit) = flush_suit {
        let pattern = suits[usize::from(suit)];
        if let Some(top) = straight_top(pattern) {
            let ranks = straight_ranks(top);
            return Some(Classified {
                category: STRAIGHT_FLUSH,
                cards: ranks.map(|rank| (rank, suit)),
            });
        }
    }

    // `at_least[n]`: ranks held at least `n` times, as a 13-bit mask.
    let mut at_least = [0u16; 5];
    for rank in 0..13u8 {
        let count = suits.iter().filter(|&&mask| mask >> rank & 1 == 1).count();
        for slot in at_least.iter_mut().take(count + 1) {
            *slot |= 1 << rank;
        }
    }

    let mut taken = [0u16; 4];
    let mut pick = |ranks: [u8; 5]| -> Option<[(u8, u8); 5]> {
        let mut out = [(0u8, 0u8); 5];
        for (slot, rank) in out.iter_mut().zip(ranks) {
            *slot = take(&suits, &mut taken, rank)?;
        }
        Some(out)
    };

    if let Some(quad) = highest(at_least[4]) {
        let kicker = highest(at_least[1] & !(1 << quad))?;
        return Some(Classified {
            category: FOUR_OF_A_KIND,
            cards: pick([quad, quad, quad, quad, kicker])?,
        });
    }

    let trips = highest(at_least[3]);
    if let Some(three) = trips {
        if let Some(pair) = highest(at_least[2] & !(1 << three)) {
            return Some(Classified {
                category: FULL_HOUSE,
                cards: pick([three, three, three, pair, pair])?,
            });
        }
    }

    if let Some(suit) = flush_suit {
        let pattern = suits[usize::from(suit)];
        let ranks = top_ranks::<5>(pattern)?;
        return Some(Classified {
            category: FLUSH,
            cards: ranks.map(|rank| (rank, suit)),
        });
    }

    let union = at_least[1];
    if let Some(top) = straight_top(union) {
        return Some(Classified {
            category: STRAIGHT,
            cards: pick(straight_ranks(top))?,
        });
    }

    if let Some(three) = trips {
        let [first, second] = top_ranks::<2>(union & !(1 << three))?;
        return Some(Classified {
            category: THREE_OF_A_KIND,
            cards: pick([three, three, three, first, second])?,
        });
    }

    if let Some([high, low]) = top_ranks::<2>(at_least[2]) {
        // The kicker may come from a third pair.
        let kicker = highest(union & !(1 << high) & !(1 << low))?;
        return Some(Classified {
            category: TWO_PAIR,
            cards: pick([high, high, low, low, kicker])?,
        });
    }
    if let Some(pair) = highest(at_least[2]) {
        let [first, second, third] = top_ranks::<3>(union & !(1 << pair))?;
        return Some(Classified {
            category: PAIR,
            cards: pick([pair, pair, first, second, third])?,
        });
    }

    Some(Classified {
        category: HIGH_CARD,
        cards: pick(top_ranks::<5>(union)?)?,
    })
}

/// The highest rank in a 13-bit mask.
fn highest(mask: u16) -> Option<u8> {
    if mask == 0 {
        None
    } else {
        Some(15 - mask.leading_zeros() as u8)
    }
}

/// The `N` highest ranks in a mask, highest first; `None` when it holds fewer.
fn top_ranks<const N: usize>(mut mask: u16) -> Option<[u8; N]> {
    let mut out = [0u8; N];
    for slot in out.iter_mut() {
        let rank = highest(mask)?;
        *slot = rank;
        mask &= !(1 << rank);
    }
    Some(out)
}
