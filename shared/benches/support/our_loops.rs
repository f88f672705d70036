//! Our side of the loops both evaluator benches time (`eval_speed.rs` against `rs_poker`,
//! `hhe_compare` against holdem-hand-evaluator): the random hands through `strength_of`, as
//! `SevenCards` and through `HandKey + Card`, and the enumeration of every seven-card hand, written once so that
//! the two benches measure the same loops.

use shared::eval::{strength_of, Deck, HandKey, SevenCards};
use shared::Card;

/// Every seven-card hand of the deck by seven nested loops, one card dealt per level from a
/// [`Deck`] (the way a bot enumerates run-outs): returns the sum of the strength indexes.
///
/// `if let`, where the random-hand loops below use `map_or(0, ..)`: each is the shorter code
/// for its loop (callgrind, a hand: here 18.2 instructions against 18.9 with `map_or`, whose
/// merge with the error path costs one more zero-extension; there 43.6 against 44.7).
#[inline(never)]
pub fn enumerate_all(deck: &Deck) -> u64 {
    let mut sum = 0u64;
    for k1 in deck.deal().one_more() {
        for k2 in k1.one_more() {
            for k3 in k2.one_more() {
                for k4 in k3.one_more() {
                    for k5 in k4.one_more() {
                        for k6 in k5.one_more() {
                            for k7 in k6.one_more() {
                                if let Ok(strength) = k7.strength() {
                                    sum += u64::from(strength.index());
                                }
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

/// The random hands as `SevenCards` (checked or dealt before the loop), through `strength()`:
/// the XOR of the strength indexes.
#[inline(never)]
pub fn random_seven_cards_strength(hands: &[SevenCards]) -> u16 {
    let mut acc = 0u16;
    for hand in hands {
        acc ^= hand.strength().index();
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
