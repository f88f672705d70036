//! Generates the hand evaluator's lookup tables into `$OUT_DIR/eval_tables.rs`.
//!
//! The design (see `src/eval/fast.rs` for how the tables are read):
//!
//! * Every card has a 64-bit key; a hand's key is the sum of its cards' keys. Bits 0..7 count
//!   the cards, biased (see `COUNT_BIAS`); bits 7..23 hold four 4-bit suit counters (starting
//!   at 3, so a nibble reaches 8 exactly when a suit has five cards: a flush); bits 23..64 hold
//!   `rank_sum * MULTIPLIER` (mod 2^41), where each rank has a multiplier chosen so that every
//!   multiset of up to seven ranks (each at most four times) has a different sum. Multiplying
//!   by an odd constant is a bijection, and because it is linear it is folded into the
//!   per-card keys: evaluation never multiplies.
//! * The per-card tables are indexed by the card's code `rank value | suit << 8`: a `Card`'s
//!   two bytes read as one little-endian `u16` (see `Card`'s layout). A card set is a 64-bit mask with one 16-bit lane per suit: the card's bit is
//!   its slot `suit * 16 + rank value - 2`, so a suit's ranks are one shift away.
//! * A flush hand is looked up by its flush suit's 13-bit rank pattern (8,192 entries). With
//!   at most seven cards, a hand holding a flush can hold nothing better than a straight flush,
//!   so the rest of the hand never matters.
//! * Any other hand is looked up by its rank multiset through a minimal-effort perfect hash
//!   (hash-and-displace, as in the CHD algorithm): the top 12 bits of the key pick a bucket,
//!   the bucket's 16-bit displacement is XORed into the key's low bits to pick one of 2^17
//!   slots. Buckets are placed largest first with random displacements until none collide.
//!   4,096 two-byte displacements (8 KiB) stay in the L1 cache next to the card tables; with
//!   8,192 four-byte ones (32 KiB, the whole L1 of many cores) evaluation was about 7% slower,
//!   and 2,048 buckets (about 36 multisets each) cannot be placed.
//!
//! Table values are dense hand strengths: 1 for the weakest five-card hand (7-5-4-3-2) up to
//! 7,462 for a royal flush. They come from the reference evaluator (`src/eval/reference.rs`),
//! included here so the tables and the slow path cannot disagree.

#[allow(dead_code)]
#[path = "src/eval/reference.rs"]
mod reference;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Rank multipliers, deuce to ace: the greedy smallest values that keep every sum of up to
/// seven ranks (each at most four times) distinct. Found by an offline search; the build
/// re-checks the property (a collision panics below).
const RANK_KEYS: [u64; 13] = [
    1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520,
];
const BUCKET_BITS: u32 = 12;
const SLOT_BITS: u32 = 17;
/// The card count sits lowest, below the suit counters, so that one mask and one compare tell
/// "five to seven cards and no flush" (the common case) from everything else: with any flush
/// bit set the masked value is far above the valid counts.
const COUNT_SHIFT: u32 = 0;
/// The count field starts at `64 - 5`, so that five to seven cards leave 0, 1 or 2 in its low
/// six bits (`COUNT_MASK`), and fewer or more cards (at most 52) leave 3 or above: the test is
/// a mask and a compare, with no subtraction in the hot path. Bit 6 takes the carry of the
/// fifth card; the field (up to `59 + 52 = 111`) never reaches the suit counters.
const COUNT_BIAS: u64 = 64 - 5;
const COUNT_MASK: u64 = 63 << COUNT_SHIFT;
const SUIT_SHIFT: u32 = 7;
/// Suit counters start at 3 so that bit 3 of a nibble means "five or more of this suit".
const INITIAL_KEY: u64 = (0x3333 << SUIT_SHIFT) | (COUNT_BIAS << COUNT_SHIFT);
const FLUSH_BITS: u64 = 0x8888 << SUIT_SHIFT;
const HASH_SHIFT: u32 = 23;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/eval/reference.rs");

    let canonical_to_dense = dense_strengths();
    let dense = |suits: [u16; 4]| -> u16 {
        let classified = reference::classify(suits).expect("five or more cards");
        canonical_to_dense[&classified.canonical()]
    };

    // Flush table: the best hand within one suit's rank pattern.
    let mut flush = vec![0u16; 1 << 13];
    for (pattern, slot) in flush.iter_mut().enumerate() {
        if pattern.count_ones() >= 5 {
            *slot = dense([pattern as u16, 0, 0, 0]);
        }
    }

    // Every rank multiset of 5 to 7 cards, with its non-flush strength.
    let mut multisets = Vec::new();
    let mut counts = [0u8; 13];
    collect_multisets(0, 7, &mut counts, &mut multisets);
    let entries: Vec<(u64, u16)> = multisets
        .iter()
        .map(|counts| {
            let rank_sum: u64 = counts
                .iter()
                .zip(RANK_KEYS)
                .map(|(&c, key)| u64::from(c) * key)
                .sum();
            (rank_sum, dense(spread_without_flush(counts)))
        })
        .collect();
    let mut sums: Vec<u64> = entries.iter().map(|e| e.0).collect();
    sums.sort_unstable();
    sums.dedup();
    assert_eq!(sums.len(), entries.len(), "rank keys collide");

    let (multiplier, displacements, lookup) = build_perfect_hash(&entries);

    // Per-card keys and card-set bits by card code (rank value | suit << 8); unused codes
    // stay 0.
    let mut card_keys = vec![0u64; 1024];
    let mut card_bits = vec![0u64; 1024];
    for suit in 0..4 {
        for (rank, rank_key) in RANK_KEYS.iter().enumerate() {
            let code = (rank + 2) | suit << 8;
            card_keys[code] = (rank_key.wrapping_mul(multiplier) << HASH_SHIFT)
                + (1u64 << COUNT_SHIFT)
                + (1u64 << (SUIT_SHIFT as usize + 4 * suit));
            card_bits[code] = 1u64 << (suit * 16 + rank);
        }
    }

    let mut canonical: Vec<(u32, u16)> = canonical_to_dense.into_iter().collect();
    canonical.sort_unstable();
    let canonical: Vec<u32> = std::iter::once(0)
        .chain(canonical.iter().map(|e| e.0))
        .collect();

    let mut out = String::new();
    let _ = writeln!(out, "// Generated by build.rs: do not edit.");
    let _ = writeln!(out, "pub(super) const INITIAL_KEY: u64 = {INITIAL_KEY:#x};");
    let _ = writeln!(out, "pub(super) const FLUSH_BITS: u64 = {FLUSH_BITS:#x};");
    let _ = writeln!(out, "pub(super) const COUNT_MASK: u64 = {COUNT_MASK:#x};");
    let _ = writeln!(out, "pub(super) const SUIT_SHIFT: u32 = {SUIT_SHIFT};");
    let _ = writeln!(out, "pub(super) const HASH_SHIFT: u32 = {HASH_SHIFT};");
    let _ = writeln!(
        out,
        "pub(super) const BUCKET_SHIFT: u32 = {};",
        64 - BUCKET_BITS
    );
    let _ = writeln!(
        out,
        "pub(super) const SLOT_MASK: u32 = {:#x};",
        (1u32 << SLOT_BITS) - 1
    );
    // One static, so code inlined into other crates reaches every table from one address.
    let _ = writeln!(out, "pub(super) static TABLES: Tables = Tables {{");
    write_array(&mut out, "card_keys", &card_keys);
    write_array(&mut out, "card_bits", &card_bits);
    write_array(&mut out, "displacements", &displacements);
    write_array(&mut out, "lookup", &lookup);
    write_array(&mut out, "flush", &flush);
    write_array(&mut out, "canonical", &canonical);
    out.push_str("};\n");

    let path = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("eval_tables.rs");
    std::fs::write(path, out).expect("write eval_tables.rs");
}

/// Maps each five-card hand class (the reference evaluator's canonical number) to 1..=7462.
fn dense_strengths() -> HashMap<u32, u16> {
    let mut classes = Vec::new();
    let mut counts = [0u8; 13];
    let mut five = Vec::new();
    collect_multisets(0, 5, &mut counts, &mut five);
    for counts in five.iter().filter(|c| c.iter().sum::<u8>() == 5) {
        classes.push(classify(spread_without_flush(counts)));
    }
    for pattern in 0u16..1 << 13 {
        if pattern.count_ones() == 5 {
            classes.push(classify([pattern, 0, 0, 0]));
        }
    }
    classes.sort_unstable();
    classes.dedup();
    assert_eq!(classes.len(), 7462, "distinct five-card hands");
    classes
        .into_iter()
        .enumerate()
        .map(|(i, canonical)| (canonical, i as u16 + 1))
        .collect()
}

fn classify(suits: [u16; 4]) -> u32 {
    reference::classify(suits)
        .expect("five or more cards")
        .canonical()
}

/// Every way to hold up to `left` more cards from ranks `rank..13`, keeping those with at
/// least five cards in total.
fn collect_multisets(rank: usize, left: u8, counts: &mut [u8; 13], out: &mut Vec<[u8; 13]>) {
    if rank == 13 {
        if counts.iter().sum::<u8>() >= 5 {
            out.push(*counts);
        }
        return;
    }
    for count in 0..=left.min(4) {
        counts[rank] = count;
        collect_multisets(rank + 1, left - count, counts, out);
    }
    counts[rank] = 0;
}

/// Suit masks for a rank multiset with no suit holding five cards: the cards are dealt to
/// the suits in turn, so with at most seven cards no suit gets more than two, and the copies
/// of one rank always land in different suits.
fn spread_without_flush(counts: &[u8; 13]) -> [u16; 4] {
    let mut suits = [0u16; 4];
    let mut next = 0;
    for (rank, &count) in counts.iter().enumerate() {
        for _ in 0..count {
            suits[next % 4] |= 1 << rank;
            next += 1;
        }
    }
    suits
}

/// Builds the hash-and-displace tables for `(rank_sum, strength)` entries. Returns the
/// multiplier, the per-bucket displacements and the slot table.
fn build_perfect_hash(entries: &[(u64, u16)]) -> (u64, Vec<u16>, Vec<u16>) {
    let slot_mask = (1u32 << SLOT_BITS) - 1;
    let mut multiplier = 0x9E37_79B9_7F4A_7C15u64;
    loop {
        if let Some((displacements, lookup)) = try_displace(entries, multiplier, slot_mask) {
            return (multiplier, displacements, lookup);
        }
        // Another odd multiplier (an LCG step); rarely needed.
        multiplier = multiplier
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407)
            | 1;
    }
}

fn try_displace(
    entries: &[(u64, u16)],
    multiplier: u64,
    slot_mask: u32,
) -> Option<(Vec<u16>, Vec<u16>)> {
    let bucket_count = 1usize << BUCKET_BITS;
    let mut buckets: Vec<Vec<(u32, u16)>> = vec![Vec::new(); bucket_count];
    for &(rank_sum, strength) in entries {
        // The key's high 41 bits, as the evaluator sees them.
        let hashed = rank_sum.wrapping_mul(multiplier) << HASH_SHIFT;
        let bucket = (hashed >> (64 - BUCKET_BITS)) as usize;
        buckets[bucket].push(((hashed >> HASH_SHIFT) as u32, strength));
    }
    let mut order: Vec<usize> = (0..bucket_count).collect();
    order.sort_by_key(|&b| (std::cmp::Reverse(buckets[b].len()), b));

    let mut lookup = vec![0u16; slot_mask as usize + 1];
    let mut used = vec![false; slot_mask as usize + 1];
    let mut displacements = vec![0u16; bucket_count];
    let mut random = 0x2545_F491_4F6C_DD1Du64;
    for &bucket in &order {
        let members = &buckets[bucket];
        if members.is_empty() {
            continue;
        }
        // Two members with equal low bits cannot be separated by any XOR.
        let mut lows: Vec<u32> = members.iter().map(|m| m.0 & slot_mask).collect();
        lows.sort_unstable();
        lows.dedup();
        if lows.len() != members.len() {
            return None;
        }
        let mut attempts = 0u32;
        let displacement = loop {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            let candidate = random as u16;
            if members
                .iter()
                .all(|m| !used[((m.0 ^ u32::from(candidate)) & slot_mask) as usize])
            {
                break candidate;
            }
            attempts += 1;
            if attempts > 1_000_000 {
                return None;
            }
        };
        for &(low, strength) in members {
            let slot = ((low ^ u32::from(displacement)) & slot_mask) as usize;
            used[slot] = true;
            lookup[slot] = strength;
        }
        displacements[bucket] = displacement;
    }
    Some((displacements, lookup))
}

fn write_array<T: std::fmt::Display>(out: &mut String, field: &str, values: &[T]) {
    let _ = writeln!(out, "{field}: [");
    for chunk in values.chunks(32) {
        for value in chunk {
            let _ = write!(out, "{value},");
        }
        out.push('\n');
    }
    out.push_str("],\n");
}
