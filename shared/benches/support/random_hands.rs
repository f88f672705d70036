//! The random seven-card hands the evaluator benches play (`eval.rs` with criterion,
//! `eval_speed.rs` and `hhe_compare` in alternated rounds), written once so they all measure
//! the same hands.

use shared::eval::{Deck, SevenCards};
use shared::Card;

/// `count` hands dealt by `Deck::draw_seven` from one full deck (a partial shuffle a hand,
/// the deck keeping its order between hands), drawing on splitmix64, seeded: the same hands
/// on every run and in every binary.
pub fn random_seven_cards(count: usize) -> Vec<SevenCards> {
    let mut state = 0x0BAD_5EED_u64;
    let mut random_below = move |n: usize| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    };
    let mut deck = Deck::full();
    (0..count)
        .map(|_| deck.draw_seven(&mut random_below).expect("a full deck"))
        .collect()
}

/// The same hands as card arrays.
#[allow(dead_code)] // Not every bench that includes this file plays the arrays.
pub fn random_hands(count: usize) -> Vec<[Card; 7]> {
    random_seven_cards(count)
        .iter()
        .map(SevenCards::cards)
        .collect()
}
