//! Every seven-card hand (133,784,560 of them): category counts and the number of distinct
//! strengths. Ignored by default because it needs a release build to be quick; CI runs
//! `cargo test --release -p lean-poker-shared --test shared_tests -- --ignored eval_exhaustive::`.

use shared::eval::bench_support::for_each_seven_card_hand;
use shared::eval::{Category, HandStrength};
use shared::Card;

#[test]
#[ignore = "enumerates 133,784,560 hands: run in release with --ignored (about a second)"]
fn all_seven_card_hands() {
    let deck: Vec<Card> = Card::deck().collect();
    // Hands per strength index (1..=7462); 0 would be an evaluator failure.
    let mut per_strength = vec![0u64; 7463];
    let mut hands = 0u64;
    for_each_seven_card_hand(&deck, |key| {
        let strength = key.strength().unwrap();
        per_strength[usize::from(strength.index())] += 1;
        hands += 1;
    });
    assert_eq!(hands, 133_784_560);
    assert_eq!(per_strength[0], 0);

    let mut per_category = [0u64; 9];
    let mut distinct = 0;
    for (index, &count) in per_strength.iter().enumerate().skip(1) {
        if count > 0 {
            distinct += 1;
            let strength = HandStrength::from_index(index as u16).unwrap();
            per_category[strength.category() as usize] += count;
        }
    }
    let expected = [
        (Category::HighCard, 23_294_460),
        (Category::Pair, 58_627_800),
        (Category::TwoPair, 31_433_400),
        (Category::ThreeOfAKind, 6_461_620),
        (Category::Straight, 6_180_020),
        (Category::Flush, 4_047_644),
        (Category::FullHouse, 3_473_184),
        (Category::FourOfAKind, 224_848),
        (Category::StraightFlush, 41_584),
    ];
    for (category, count) in expected {
        assert_eq!(per_category[category as usize], count, "{category}");
    }
    assert_eq!(distinct, 4_824);
}
