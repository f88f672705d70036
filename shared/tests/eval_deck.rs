//! `Deck` and `Deal`: distinct cards checked once, dealt by nested loops with no repeated-card
//! test; and the one-test repeated-card check of `strength_of`, `evaluate` and
//! `HandKey::from_cards` on hands with repeats of every multiplicity.

use proptest::prelude::*;
use shared::card::parse_cards;
use shared::eval::{evaluate, strength_of, Deal, Deck, EvalError, HandKey, HandStrength};
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

/// Five to seven cards with repeats: `strength_of`, `evaluate` and `HandKey::from_cards` give
/// `DuplicateCard` exactly when a card repeats, whatever its multiplicity and position, and the
/// same strength as a `HandKey` built card by card otherwise.
fn check_hand(hand: &[Card]) {
    let mut seen = std::collections::HashSet::new();
    let repeated = hand.iter().find(|&&card| !seen.insert(card)).copied();
    let label: Vec<String> = hand.iter().map(Card::to_string).collect();
    match repeated {
        Some(card) => {
            let error = EvalError::DuplicateCard(card);
            assert_eq!(strength_of(hand), Err(error.clone()), "{label:?}");
            let evaluated = evaluate(hand).map(|h| h.strength());
            assert_eq!(evaluated, Err(error.clone()), "{label:?}");
            assert_eq!(HandKey::from_cards(hand), Err(error), "{label:?}");
        }
        None => {
            let key = hand.iter().fold(HandKey::EMPTY, |key, &card| key + card);
            assert_eq!(strength_of(hand), key.strength(), "{label:?}");
            assert_eq!(evaluate(hand).map(|h| h.strength()), key.strength());
            assert_eq!(HandKey::from_cards(hand), Ok(key));
        }
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
