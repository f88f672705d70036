//! The random seven-card hands the evaluator benches play (`eval.rs` with criterion,
//! `eval_speed.rs` and `hhe_compare` in alternated rounds), written once so they all measure
//! the same hands.

use shared::Card;

/// splitmix64, seeded: the same hands on every run and in every binary.
pub fn random_hands(count: usize) -> Vec<[Card; 7]> {
    let mut state = 0x0BAD_5EED_u64;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut deck: Vec<Card> = Card::deck().collect();
    (0..count)
        .map(|_| {
            for i in 0..7 {
                let j = i + (next() % (52 - i) as u64) as usize;
                deck.swap(i, j);
            }
            [
                deck[0], deck[1], deck[2], deck[3], deck[4], deck[5], deck[6],
            ]
        })
        .collect()
}
