//! The fast evaluator: a hand's 64-bit key (the sum of its cards' keys) and a 52-bit card
//! set go in, a dense strength (1..=7462) comes out, with one flush test and two or three
//! table loads. The tables and the key layout are described in `build.rs`, which generates
//! them from the reference evaluator.
//!
//! Memory: 256 KiB slot table, 32 KiB displacements, 16 KiB flush table, 30 KiB strength
//! decoding table, 0.9 KiB card keys. Every index is in range by construction (a shifted or
//! masked value below the table length), so safe indexing compiles without bounds checks.

use crate::card::Card;

include!(concat!(env!("OUT_DIR"), "/eval_tables.rs"));

/// The key of a hand with no cards.
pub(super) const EMPTY_KEY: u64 = INITIAL_KEY;

/// The key contribution of the card with index `index` (< 52).
#[inline(always)]
pub(super) fn index_key(index: u8) -> u64 {
    CARD_KEYS[usize::from(index) % 52]
}

/// The key contribution of `card`.
#[inline(always)]
pub(super) fn card_key(card: Card) -> u64 {
    // Suit 0..4 and rank value 2..=14 index a 4 x 16 table directly: no multiply.
    CARD_KEYS_BY_SUIT_VALUE[(card.suit as usize) << 4 | (card.rank as usize & 15)]
}

/// Whether the key holds five or more cards of one suit.
#[inline(always)]
pub(super) fn has_flush(key: u64) -> bool {
    key & FLUSH_BITS != 0
}

/// The strength of a non-flush hand of five to seven cards, from its key.
#[inline(always)]
pub(super) fn rank_strength(key: u64) -> u16 {
    let bucket = (key >> BUCKET_SHIFT) as usize;
    let slot = ((key >> 16) as u32 ^ DISPLACEMENTS[bucket]) & SLOT_MASK;
    LOOKUP[slot as usize]
}

/// The flush suit of a key that [`has_flush`].
#[inline(always)]
pub(super) fn flush_suit(key: u64) -> u32 {
    (key & FLUSH_BITS).trailing_zeros() / 4
}

/// The strength of a flush hand: the best hand in `suit` of the card set `mask`.
#[inline(always)]
pub(super) fn flush_strength(mask: u64, suit: u32) -> u16 {
    FLUSH_LOOKUP[((mask >> (13 * suit)) & 0x1FFF) as usize]
}

/// The strength of five to seven distinct cards given by key and card set.
#[inline(always)]
pub(super) fn strength(key: u64, mask: u64) -> u16 {
    if has_flush(key) {
        flush_strength(mask, flush_suit(key))
    } else {
        rank_strength(key)
    }
}

/// The reference evaluator's canonical number for a dense strength (0 for 0).
pub(super) fn canonical(strength: u16) -> u32 {
    CANONICAL.get(usize::from(strength)).copied().unwrap_or(0)
}

/// The dense strength of a reference canonical number, if it is a five-card hand class.
pub(super) fn dense(canonical: u32) -> Option<u16> {
    CANONICAL
        .binary_search(&canonical)
        .ok()
        .and_then(|index| u16::try_from(index).ok())
        .filter(|&index| index != 0)
}
