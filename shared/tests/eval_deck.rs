//! `Deck` and `Deal`: distinct cards checked once, dealt by nested loops with no repeated-card
//! test; `SevenCards`, checked once or drawn from a deck; and the one-test repeated-card check
//! of `strength_of`, `evaluate`, `HandKey::from_cards` and `SevenCards::new` on hands with
//! repeats of every multiplicity.

use proptest::prelude::*;
use shared::card::parse_cards;
use shared::eval::{
    bench_support, evaluate, strength_of, Category, Deal, Deck, EvalError, HandKey, HandStrength,
    SevenCards,
};
use shared::Card;

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).unwrap()
}

/// Cards one by one (`parse_cards` refuses a repeated card itself).
fn cards_with_repeats(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|card| card.parse().unwrap())
        .collect()
}

#[test]
fn a_deck_refuses_a_repeated_card() {
    assert_eq!(
        Deck::new(&cards_with_repeats("Ah Kd 7c Kd")),
        Err(EvalError::DuplicateCard(cards("Kd")[0]))
    );
    let deck = Deck::new(&cards("Ah Kd 7c")).unwrap();
    assert_eq!(deck.cards(), &cards("Ah Kd 7c")[..]);
    assert_eq!(deck.len(), 3);
    assert!(deck.contains(cards("7c")[0]));
    assert!(!deck.contains(cards("7d")[0]));
    assert!(Deck::new(&[]).unwrap().is_empty());
}

#[test]
fn the_full_deck_and_a_deck_without_known_cards() {
    let full = Deck::full();
    assert_eq!(full.len(), 52);
    assert_eq!(full.cards(), &Card::deck().collect::<Vec<_>>()[..]);
    // Cards not in the deck and repeats are ignored.
    let known = cards_with_repeats("Ah Kh Ah 2c");
    let rest = full.without(&known);
    assert_eq!(rest.len(), 49);
    assert!(!rest.contains(cards("Kh")[0]));
    let order: Vec<Card> = Card::deck().filter(|card| !known.contains(card)).collect();
    assert_eq!(rest.cards(), &order[..]);
    assert_eq!(rest.without(&known), rest);
}

#[test]
fn a_deal_onto_cards_of_the_deck_is_refused() {
    // Named is the first card in both, in `Card::index` order.
    let hand = HandKey::from_cards(&cards("Ah Kh")).unwrap();
    assert_eq!(
        Deck::full().deal_onto(hand).unwrap_err(),
        EvalError::DuplicateCard(cards("Kh")[0])
    );
    let later = Deck::new(&cards("2c 3c Ah")).unwrap();
    assert_eq!(
        later.deal_onto(hand).unwrap_err(),
        EvalError::DuplicateCard(cards("Ah")[0])
    );
    let deck = Deck::full().without(&cards("Ah Kh"));
    let deal = deck.deal_onto(hand).unwrap();
    assert_eq!(deal.hand(), hand);
    assert_eq!(deal.cards_left(), 50);
}

/// Every `size`-card set of `deck`, by nested `one_more` loops: each set's cards and the
/// strength of the deal that holds them.
fn every_set(deck: &Deck, size: usize) -> Vec<(Vec<Card>, Result<HandStrength, EvalError>)> {
    fn visit(
        deal: Deal<'_>,
        left: usize,
        out: &mut Vec<(Vec<Card>, Result<HandStrength, EvalError>)>,
    ) {
        if left == 0 {
            out.push((deal.hand().cards().collect(), deal.strength()));
            return;
        }
        for more in deal.one_more() {
            visit(more, left - 1, out);
        }
    }
    let mut out = Vec::new();
    visit(deck.deal(), size, &mut out);
    out
}

#[test]
fn nested_deals_visit_every_set_once_with_its_strength() {
    let deck = Deck::new(&cards("Ah Kh Qh Jh Th 9s 9d 2c 7c 7d 3s 4h")).unwrap();
    for size in 0..=8 {
        let sets = every_set(&deck, size);
        let binomial = (0..size).fold(1, |n, i| n * (12 - i) / (i + 1));
        assert_eq!(sets.len(), binomial, "{size} cards");
        let mut distinct: Vec<&Vec<Card>> = sets.iter().map(|(set, _)| set).collect();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), sets.len(), "each set once");
        for (set, strength) in &sets {
            assert_eq!(set.len(), size);
            // The strength of a deal is the strength of its cards (or the count error).
            assert_eq!(*strength, strength_of(set), "{set:?}");
        }
    }
}

#[test]
fn deals_onto_known_cards_and_past_seven() {
    let known = cards("As Ks");
    let hand = HandKey::from_cards(&known).unwrap();
    let deck = Deck::full().without(&known);
    // Every flop onto AsKs: C(50, 3).
    let mut flops = 0;
    for one in deck.deal_onto(hand).unwrap().one_more() {
        for two in one.one_more() {
            for three in two.one_more() {
                let five = three.hand();
                assert!(five.contains(known[0]) && five.contains(known[1]));
                assert_eq!(five.len(), 5);
                flops += 1;
            }
        }
    }
    assert_eq!(flops, 19_600);
    // An eighth card is dealt (the hand is still a set) but has no strength.
    let seven = HandKey::from_cards(&cards("As Ks Qs Js Ts 2d 3d")).unwrap();
    let rest = Deck::full().without(&cards("As Ks Qs Js Ts 2d 3d"));
    for eight in rest.deal_onto(seven).unwrap().one_more() {
        assert_eq!(eight.hand().len(), 8);
        assert_eq!(eight.strength(), Err(EvalError::CardCount(8)));
    }
}

/// Five to seven cards with repeats: `strength_of`, `evaluate`, `HandKey::from_cards` and (for
/// seven) `SevenCards::new` give `DuplicateCard` exactly when a card repeats, whatever its
/// multiplicity and position, and the same strength as a `HandKey` built card by card
/// otherwise.
fn check_hand(hand: &[Card]) {
    let mut seen = std::collections::HashSet::new();
    let repeated = hand.iter().find(|&&card| !seen.insert(card)).copied();
    let label: Vec<String> = hand.iter().map(Card::to_string).collect();
    let seven = <[Card; 7]>::try_from(hand).ok().map(SevenCards::new);
    match repeated {
        Some(card) => {
            let error = EvalError::DuplicateCard(card);
            assert_eq!(strength_of(hand), Err(error.clone()), "{label:?}");
            let evaluated = evaluate(hand).map(|h| h.strength());
            assert_eq!(evaluated, Err(error.clone()), "{label:?}");
            if let Some(seven) = seven {
                assert_eq!(seven, Err(error.clone()), "{label:?}");
            }
            assert_eq!(HandKey::from_cards(hand), Err(error), "{label:?}");
        }
        None => {
            let key = hand.iter().fold(HandKey::EMPTY, |key, &card| key + card);
            assert_eq!(strength_of(hand), key.strength(), "{label:?}");
            assert_eq!(evaluate(hand).map(|h| h.strength()), key.strength());
            assert_eq!(HandKey::from_cards(hand), Ok(key));
            if let Some(seven) = seven {
                let seven = seven.unwrap();
                assert_eq!(Ok(seven.strength()), key.strength(), "{label:?}");
                assert_eq!(Ok(seven.hand()), evaluate(hand), "{label:?}");
                assert_eq!(&seven.cards()[..], hand);
            }
        }
    }
}

#[test]
fn seven_cards_keep_their_order_and_evaluate_as_evaluate() {
    let cards: [Card; 7] = cards("Ah Kh Qh Jh Th 2c 2d").try_into().unwrap();
    let hand = SevenCards::try_from(cards).unwrap();
    assert_eq!(hand.cards(), cards);
    assert_eq!(<[Card; 7]>::from(hand), cards);
    assert_eq!(hand.strength(), HandStrength::STRONGEST);
    assert_eq!(hand.hand(), evaluate(&cards).unwrap());
    assert_eq!(hand.to_string(), "Ah Kh Qh Jh Th 2c 2d");
    assert_eq!(format!("{hand:?}"), "SevenCards(Ah Kh Qh Jh Th 2c 2d)");
    let mut reversed = cards;
    reversed.reverse();
    let other = SevenCards::new(reversed).unwrap();
    assert_ne!(other, hand);
    assert_eq!(other.strength(), hand.strength());
}

/// splitmix64 from `seed`, as `random_below(n)` for `Deck::draw_seven`.
fn random_below(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |n| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

#[test]
fn draws_are_seven_distinct_cards_of_the_deck_shuffled_into_its_front() {
    let mut deck = Deck::full().without(&cards("As Ks"));
    let mut random = random_below(1);
    // How often each card comes first: about 2,000 each for a uniform draw.
    let mut first = std::collections::HashMap::new();
    for _ in 0..100_000 {
        let hand = deck.draw_seven(&mut random).unwrap();
        let drawn = hand.cards();
        assert_eq!(&drawn[..], &deck.cards()[..7], "the deck's front");
        assert!(SevenCards::new(drawn).is_ok(), "{hand}");
        assert_eq!(Ok(hand.strength()), strength_of(&drawn));
        *first.entry(drawn[0]).or_insert(0u32) += 1;
    }
    // Still the same 50 cards, the held ones never dealt.
    let mut left = deck.cards().to_vec();
    left.sort_by_key(|card| card.index());
    assert_eq!(left, Deck::full().without(&cards("As Ks")).cards());
    assert_eq!(first.len(), 50);
    assert!(first.values().all(|&count| (1_700..2_300).contains(&count)));
}

/// The array path the benches time (`strength_of(&[Card; 7])`, which takes the common path's
/// one test a hand) against the same cards with no test at all
/// (`bench_support::strength_index_unchecked`), `SevenCards::strength()` and `evaluate`, on
/// random distinct hands: the same strength every time, flushes included.
#[test]
fn strength_of_seven_equals_the_unchecked_path_on_random_hands() {
    let mut deck = Deck::full();
    let mut random = random_below(27);
    let mut flushes = 0;
    for _ in 0..200_000 {
        let seven = deck.draw_seven(&mut random).unwrap();
        let hand: [Card; 7] = seven.cards();
        let strength = strength_of(&hand).unwrap();
        assert_eq!(
            strength.index(),
            bench_support::strength_index_unchecked(&hand),
            "{seven}"
        );
        assert_eq!(strength, seven.strength(), "{seven}");
        assert_eq!(strength, evaluate(&hand).unwrap().strength(), "{seven}");
        flushes += usize::from(matches!(
            strength.category(),
            Category::Flush | Category::StraightFlush
        ));
    }
    // About 3% of seven-card hands hold a flush: the off-path branch was taken too.
    assert!((5_000..7_000).contains(&flushes), "{flushes} flushes");
}

/// One card repeated in any two positions of a seven-card array (the others distinct), on
/// random hands: `strength_of`, `evaluate`, `SevenCards::new` and `HandKey::from_cards` all
/// give `DuplicateCard` naming that card, with the same message as before the one-test check.
#[test]
fn a_repeat_in_any_two_positions_of_seven_cards_is_the_same_error_everywhere() {
    let mut deck = Deck::full();
    let mut random = random_below(34);
    let mut checked = 0;
    for _ in 0..500 {
        let distinct = deck.draw_seven(&mut random).unwrap().cards();
        for first in 0..7 {
            for second in first + 1..7 {
                let mut hand = distinct;
                hand[second] = hand[first];
                let card = hand[first];
                let error = EvalError::DuplicateCard(card);
                assert_eq!(strength_of(&hand), Err(error.clone()), "{hand:?}");
                assert_eq!(evaluate(&hand), Err(error.clone()), "{hand:?}");
                assert_eq!(SevenCards::new(hand), Err(error.clone()), "{hand:?}");
                assert_eq!(HandKey::from_cards(&hand), Err(error.clone()), "{hand:?}");
                assert_eq!(
                    error.to_string(),
                    format!("card {card} appears more than once")
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 500 * 21);
}

#[test]
fn a_deck_of_fewer_than_seven_draws_nothing_and_any_answer_is_in_range() {
    let mut six = Deck::new(&cards("2c 3c 4c 5c 6c 7c")).unwrap();
    assert_eq!(six.draw_seven(|n| n - 1), None);
    assert_eq!(six.cards(), &cards("2c 3c 4c 5c 6c 7c")[..]);
    // Exactly seven: every card, whatever the generator answers (past the range too).
    let seven = cards("2c 3c 4c 5c 6c 7c 9h");
    let mut deck = Deck::new(&seven).unwrap();
    for answer in [0, 1, 6, 7, 1000, usize::MAX] {
        let mut drawn = deck.draw_seven(|_| answer).unwrap().cards();
        drawn.sort_by_key(|card| card.index());
        assert_eq!(&drawn[..], &seven[..]);
    }
}

#[test]
fn every_card_repeated_in_every_position_is_an_error() {
    let others = cards("2c 5d 9h Js Kd 7s");
    for card in Card::deck() {
        for size in 5..=7 {
            for copies in 2..=size {
                let mut hand: Vec<Card> = others
                    .iter()
                    .copied()
                    .filter(|&other| other != card)
                    .take(size - copies)
                    .collect();
                for position in 0..copies {
                    hand.insert(position * 2 % (hand.len() + 1), card);
                }
                check_hand(&hand);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4_000))]

    /// Any five to seven cards drawn with replacement (repeats come often among few ranks).
    #[test]
    fn repeats_are_found_by_the_one_test(
        hand in prop::collection::vec(
            prop_oneof![
                3 => proptest::sample::select(cards("Ah As Ad Ac Kh Ks 2c 2d")),
                1 => proptest::sample::select(Card::deck().collect::<Vec<_>>()),
            ],
            5..=7,
        )
    ) {
        check_hand(&hand);
    }
}
