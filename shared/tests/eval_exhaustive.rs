//! Every seven-card hand (133,784,560 of them): category counts and the number of distinct
//! strengths, by the benchmarks' enumeration, by seven nested `Deal::one_more` loops and as
//! `SevenCards` (each against `HandKey + Card`).
//! Ignored by default because they need a release build to be quick; CI runs
//! `cargo test --release -p lean-poker-shared --test shared_tests -- --ignored eval_exhaustive::`.

use shared::eval::bench_support::for_each_seven_card_hand;
use shared::eval::{Category, Deck, HandKey, HandStrength, SevenCards};
use shared::Card;

#[test]
#[ignore = "enumerates 133,784,560 hands: run in release with --ignored (about a second)"]
fn all_seven_card_hands() {
    let deck: Vec<Card> = Card::deck().collect();
    // Hands per strength index (1..=7462); 0 would be an evaluator failure.
    let mut per_strength = vec![0u64; 7463];
    for_each_seven_card_hand(&deck, |key| {
        let strength = key.strength().unwrap();
        per_strength[usize::from(strength.index())] += 1;
    });
    check_counts(&per_strength);
}

#[test]
#[ignore = "enumerates 133,784,560 hands: run in release with --ignored (about a second)"]
fn all_seven_card_hands_dealt_from_a_deck() {
    let deck = Deck::full();
    let mut per_strength = vec![0u64; 7463];
    for one in deck.deal().one_more() {
        for two in one.one_more() {
            for three in two.one_more() {
                for four in three.one_more() {
                    for five in four.one_more() {
                        for six in five.one_more() {
                            for seven in six.one_more() {
                                let strength = seven.strength().unwrap();
                                per_strength[usize::from(strength.index())] += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    check_counts(&per_strength);
}

#[test]
#[ignore = "enumerates 133,784,560 hands: run in release with --ignored (a few seconds)"]
fn all_seven_card_hands_as_seven_cards() {
    let deck: Vec<Card> = Card::deck().collect();
    let mut per_strength = vec![0u64; 7463];
    // Positions of the hand's cards in the deck, increasing, and the key of the first k.
    let mut positions = [0usize; 7];
    let mut keys = [HandKey::EMPTY; 8];
    fn visit(
        deck: &[Card],
        level: usize,
        from: usize,
        positions: &mut [usize; 7],
        keys: &mut [HandKey; 8],
        per_strength: &mut [u64],
    ) {
        for position in from..deck.len() {
            positions[level] = position;
            keys[level + 1] = keys[level] + deck[position];
            if level < 6 {
                visit(deck, level + 1, position + 1, positions, keys, per_strength);
                continue;
            }
            let hand = SevenCards::new(positions.map(|p| deck[p])).unwrap();
            let strength = hand.strength();
            assert_eq!(Ok(strength), keys[7].strength(), "{hand}");
            per_strength[usize::from(strength.index())] += 1;
        }
    }
    visit(&deck, 0, 0, &mut positions, &mut keys, &mut per_strength);
    check_counts(&per_strength);
}

/// The known counts of seven-card hands by category, from hands counted per strength index.
fn check_counts(per_strength: &[u64]) {
    assert_eq!(per_strength.iter().sum::<u64>(), 133_784_560);
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
