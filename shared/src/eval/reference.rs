//! The reference evaluator: plain, obviously-correct poker logic on per-suit rank masks.
//!
//! It is the single source of truth for hand classes. The fast evaluator's lookup tables are
//! generated from it (the build script includes this very file), `evaluate` uses it to pick
//! the best five cards, and the tests compare both against `rs_poker`.
//!
//! Self-contained on purpose (no `crate::` paths): `build.rs` includes it with `#[path]`.
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

    let mut counts = [0u8; 13];
    for mask in suits {
        for (rank, count) in counts.iter_mut().enumerate() {
            *count += ((mask >> rank) & 1) as u8;
        }
    }
    // Ranks from the ace down having at least `n` cards, excluding `skip`.
    let ranks_with = |n: u8, skip: &[u8]| -> Vec<u8> {
        (0..13u8)
            .rev()
            .filter(|&r| counts[usize::from(r)] >= n && !skip.contains(&r))
            .collect()
    };

    let mut taken = [0u16; 4];
    let mut pick = |ranks: &[u8]| -> Option<[(u8, u8); 5]> {
        let mut out = [(0u8, 0u8); 5];
        for (slot, &rank) in out.iter_mut().zip(ranks) {
            *slot = take(&suits, &mut taken, rank)?;
        }
        Some(out)
    };

    if let Some(&quad) = ranks_with(4, &[]).first() {
        let kicker = *ranks_with(1, &[quad]).first()?;
        return Some(Classified {
            category: FOUR_OF_A_KIND,
            cards: pick(&[quad, quad, quad, quad, kicker])?,
        });
    }

    let trips = ranks_with(3, &[]);
    if let Some(&three) = trips.first() {
        if let Some(&pair) = ranks_with(2, &[three]).first() {
            return Some(Classified {
                category: FULL_HOUSE,
                cards: pick(&[three, three, three, pair, pair])?,
            });
        }
    }

    if let Some(suit) = flush_suit {
        let pattern = suits[usize::from(suit)];
        let mut ranks = [0u8; 5];
        let top_five = (0..13u8).rev().filter(|&r| pattern >> r & 1 == 1);
        for (slot, rank) in ranks.iter_mut().zip(top_five) {
            *slot = rank;
        }
        return Some(Classified {
            category: FLUSH,
            cards: ranks.map(|rank| (rank, suit)),
        });
    }

    let union = suits[0] | suits[1] | suits[2] | suits[3];
    if let Some(top) = straight_top(union) {
        return Some(Classified {
            category: STRAIGHT,
            cards: pick(&straight_ranks(top))?,
        });
    }

    if let Some(&three) = trips.first() {
        let kickers = ranks_with(1, &[three]);
        return Some(Classified {
            category: THREE_OF_A_KIND,
            cards: pick(&[three, three, three, kickers[0], kickers[1]])?,
        });
    }

    let pairs = ranks_with(2, &[]);
    if pairs.len() >= 2 {
        let (high, low) = (pairs[0], pairs[1]);
        // The kicker may come from a third pair.
        let kicker = *ranks_with(1, &[high, low]).first()?;
        return Some(Classified {
            category: TWO_PAIR,
            cards: pick(&[high, high, low, low, kicker])?,
        });
    }
    if let Some(&pair) = pairs.first() {
        let kickers = ranks_with(1, &[pair]);
        return Some(Classified {
            category: PAIR,
            cards: pick(&[pair, pair, kickers[0], kickers[1], kickers[2]])?,
        });
    }

    let high = ranks_with(1, &[]);
    Some(Classified {
        category: HIGH_CARD,
        cards: pick(&high[..5])?,
    })
}
