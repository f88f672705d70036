//! Seating a round: the players who can play are shuffled and split into the fewest tables
//! of at most `table_size`, whose sizes differ by at most one (23 players at tables of 10:
//! 8, 8 and 7). A table short of the configured size is filled with house bots.
//!
//! ```
//! use dealer::event::seating::split_tables;
//! let sizes: Vec<usize> = split_tables((0..23).collect::<Vec<u32>>(), 10)
//!     .iter()
//!     .map(Vec::len)
//!     .collect();
//! assert_eq!(sizes, [8, 8, 7]);
//! ```

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Splits `players`, in their order, into `ceil(n / max)` tables whose sizes differ by at most
/// one, the larger tables first. No table for no player; `max` 0 is taken as 1.
pub fn split_tables<T>(players: Vec<T>, max: usize) -> Vec<Vec<T>> {
    let max = max.max(1);
    let count = players.len().div_ceil(max);
    if count == 0 {
        return Vec::new();
    }
    let base = players.len() / count;
    let larger = players.len() % count;
    let mut players = players.into_iter();
    (0..count)
        .map(|table| {
            let size = base + usize::from(table < larger);
            players.by_ref().take(size).collect()
        })
        .collect()
}

/// A round's tables: `players` shuffled by the round's seed (stream 4 of the event seed's
/// ChaCha8 generator, so each round is reshuffled and a restart reseats the same way) and
/// split by [`split_tables`].
pub fn seat_round<T>(mut players: Vec<T>, event_seed: u64, round: u32, max: usize) -> Vec<Vec<T>> {
    let mut rng = ChaCha8Rng::seed_from_u64(event_seed ^ u64::from(round).rotate_left(32));
    rng.set_stream(4);
    players.shuffle(&mut rng);
    split_tables(players, max)
}

/// How many house bots a table of `size` players gets to reach `fill_to` (0 when it has
/// enough, or when nobody is there to play them).
pub fn fill_count(size: usize, fill_to: usize) -> usize {
    if size == 0 {
        return 0;
    }
    fill_to.saturating_sub(size)
}

/// A game's seed: the event seed's ChaCha8 stream 5, skipped to the game number, so game `n`
/// of an event always has the same seed.
pub fn game_seed(event_seed: u64, number: u32) -> u64 {
    use rand::RngCore;
    let mut rng = ChaCha8Rng::seed_from_u64(event_seed);
    rng.set_stream(5);
    rng.set_word_pos(u128::from(number) * 2);
    rng.next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_balanced_and_capped() {
        for n in 0..=60usize {
            for max in 2..=10 {
                let tables = split_tables((0..n).collect(), max);
                let sizes: Vec<usize> = tables.iter().map(Vec::len).collect();
                assert_eq!(sizes.iter().sum::<usize>(), n);
                assert_eq!(tables.len(), n.div_ceil(max));
                assert!(
                    sizes.iter().all(|&s| s <= max && s > 0),
                    "{n}/{max}: {sizes:?}"
                );
                let (lo, hi) = (sizes.iter().min(), sizes.iter().max());
                if let (Some(lo), Some(hi)) = (lo, hi) {
                    assert!(hi - lo <= 1, "{n}/{max}: {sizes:?}");
                }
            }
        }
    }

    #[test]
    fn every_round_is_reshuffled_and_reproducible() {
        let a = seat_round((0..23).collect::<Vec<u32>>(), 7, 1, 10);
        let b = seat_round((0..23).collect::<Vec<u32>>(), 7, 2, 10);
        assert_ne!(a, b);
        assert_eq!(a, seat_round((0..23).collect::<Vec<u32>>(), 7, 1, 10));
        let mut all: Vec<u32> = a.concat();
        all.sort_unstable();
        assert_eq!(all, (0..23).collect::<Vec<u32>>());
    }

    #[test]
    fn seeds_differ_per_game() {
        assert_ne!(game_seed(1, 1), game_seed(1, 2));
        assert_eq!(game_seed(1, 3), game_seed(1, 3));
        assert_eq!(fill_count(1, 4), 3);
        assert_eq!(fill_count(5, 4), 0);
        assert_eq!(fill_count(0, 4), 0);
    }
}
