//! Our side of the loops both evaluator benches time (`eval_speed.rs` against `rs_poker`,
//! `hhe_compare` against holdem-hand-evaluator): the random hands through `strength_of` and
//! through `HandKey + Card`, and the enumeration of every seven-card hand, written once so that
//! the two benches measure the same loops.

use shared::eval::{strength_of, HandKey};
use shared::Card;

/// Every seven-card hand of the deck by seven nested loops, one `HandKey + Card` per level
/// (the way a bot enumerates run-outs): returns the sum of the strength indexes.
#[inline(never)]
pub fn enumerate_all(deck: &[Card; 52]) -> u64 {
    let mut sum = 0u64;
    for a in 0..52 {
        let k1 = HandKey::EMPTY + deck[a];
        for b in a + 1..52 {
            let k2 = k1 + deck[b];
            for c in b + 1..52 {
                let k3 = k2 + deck[c];
                for d in c + 1..52 {
                    let k4 = k3 + deck[d];
                    for e in d + 1..52 {
                        let k5 = k4 + deck[e];
                        for f in e + 1..52 {
                            let k6 = k5 + deck[f];
                            for &card in &deck[f + 1..] {
                                let k7 = k6 + card;
                                sum += u64::from(k7.strength().map_or(0, |s| s.index()));
                            }
                        }
                    }
                }
            }
        }
    }
    sum
}

/// The random hands through `strength_of(&[Card; 7])`: the XOR of the strength indexes.
#[inline(never)]
pub fn random_strength_of(hands: &[[Card; 7]]) -> u16 {
    let mut acc = 0u16;
    for hand in hands {
        acc ^= strength_of(hand).map_or(0, |s| s.index());
    }
    acc
}

/// The random hands through seven `HandKey + Card` and `strength()`: the XOR of the indexes.
#[inline(never)]
pub fn random_hand_key(hands: &[[Card; 7]]) -> u16 {
    let mut acc = 0u16;
    for hand in hands {
        let key = hand.iter().fold(HandKey::EMPTY, |key, &card| key + card);
        acc ^= key.strength().map_or(0, |s| s.index());
    }
    acc
}
