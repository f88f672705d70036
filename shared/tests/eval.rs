//! Hand evaluation: hand-written cases, descriptions, and agreement with `rs_poker` and the
//! reference evaluator on random hands (Rain Man's fields are in `rain_man.rs`).

use rs_poker::core::Rankable;
use shared::card::parse_cards;
use shared::eval::bench_support::reference_best_five;
use shared::eval::{
    evaluate, rain_man_rank, strength_of, Category, EvalError, HandKey, HandStrength,
};
use shared::{Card, Rank};
use std::cmp::Ordering;

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).unwrap()
}

fn strength(text: &str) -> HandStrength {
    strength_of(&cards(text)).unwrap()
}

fn best(text: &str) -> String {
    let hand = evaluate(&cards(text)).unwrap();
    hand.best_five()
        .iter()
        .map(|card| card.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn description(text: &str) -> String {
    evaluate(&cards(text)).unwrap().description()
}

/// splitmix64: a tiny, well-known generator, enough to draw test hands reproducibly.
struct TestRng(u64);

impl TestRng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `count` distinct random cards (partial Fisher-Yates; modulo bias is irrelevant here).
    fn hand(&mut self, count: usize) -> Vec<Card> {
        let mut deck: Vec<Card> = Card::deck().collect();
        for i in 0..count {
            let j = i + (self.next() % (52 - i) as u64) as usize;
            deck.swap(i, j);
        }
        deck.truncate(count);
        deck
    }
}

#[test]
fn categories_of_simple_hands() {
    let cases = [
        ("2c 5d 9h Js Kd", Category::HighCard),
        ("7c 7d 9h Js Kd", Category::Pair),
        ("7c 7d 9h 9s Kd", Category::TwoPair),
        ("7c 7d 7h 9s Kd", Category::ThreeOfAKind),
        ("8c 9d Th Js Qd", Category::Straight),
        ("2h 7h 9h Jh Kh", Category::Flush),
        ("7c 7d 7h 9s 9d", Category::FullHouse),
        ("7c 7d 7h 7s Kd", Category::FourOfAKind),
        ("8h 9h Th Jh Qh", Category::StraightFlush),
    ];
    for (text, category) in cases {
        assert_eq!(strength(text).category(), category, "{text}");
        assert_eq!(
            evaluate(&cards(text)).unwrap().category(),
            category,
            "{text}"
        );
    }
    // Strictly increasing across the categories.
    for pair in cases.windows(2) {
        assert!(strength(pair[0].0) < strength(pair[1].0), "{pair:?}");
    }
}

#[test]
fn wheel_and_steel_wheel() {
    let wheel = "As 2d 3c 4h 5s";
    assert_eq!(strength(wheel).category(), Category::Straight);
    assert_eq!(best(wheel), "5s 4h 3c 2d As");
    assert_eq!(description(wheel), "a straight, five high");
    // The wheel is the lowest straight, above any three of a kind.
    assert!(strength(wheel) < strength("2d 3c 4h 5s 6c"));
    assert!(strength(wheel) > strength("Ac Ad Ah Ks Qd"));
    // A six-high straight beats the wheel even with an ace present.
    assert!(strength("As 2d 3c 4h 5s 6d") > strength(wheel));
    assert_eq!(best("As 2d 3c 4h 5s 6d Kc"), "6d 5s 4h 3c 2d");

    let steel = "Ah 2h 3h 4h 5h Kd Ks";
    assert_eq!(strength(steel).category(), Category::StraightFlush);
    assert_eq!(best(steel), "5h 4h 3h 2h Ah");
    assert_eq!(description(steel), "a straight flush, five high");
    assert!(strength(steel) > strength("Ac Ad Ah As Kd"));
    assert!(strength(steel) < strength("2c 3c 4c 5c 6c"));
    // No wrap-around straights.
    assert_eq!(strength("Qs Kd Ac 2h 3s").category(), Category::HighCard);
}

#[test]
fn flush_beats_straight_when_both_are_there() {
    let text = "9h 8h 7c 6h 5d 2h Kh";
    assert_eq!(strength(text).category(), Category::Flush);
    assert_eq!(best(text), "Kh 9h 8h 6h 2h");
    // A straight flush inside six suited cards that also make a higher flush.
    let text = "4s 5s 6s 7s 8s As 9d";
    assert_eq!(strength(text).category(), Category::StraightFlush);
    assert_eq!(best(text), "8s 7s 6s 5s 4s");
}

#[test]
fn board_plays() {
    // Both players play the board: a tie.
    let board = "Ts Jd Qc Kh Ad";
    let a = strength(&format!("{board} 2c 3c"));
    let b = strength(&format!("{board} 4d 5h"));
    assert_eq!(a, b);
    assert_eq!(a, strength(board));
    assert_eq!(best(&format!("{board} 2c 3c")), "Ad Kh Qc Jd Ts");
}

#[test]
fn counterfeited_two_pair() {
    // 6-6 and 5-5 with a board pairing higher twice: the player's fives are counterfeited,
    // only the kicker matters.
    let board = "Kd Kh Qs Qd 2c";
    let fives = strength(&format!("{board} 5c 5h"));
    let ace = strength(&format!("{board} As 3h"));
    assert_eq!(fives.category(), Category::TwoPair);
    assert!(ace > fives);
    assert_eq!(best(&format!("{board} 5c 5h")), "Kh Kd Qs Qd 5c");
    // Three pairs: the best two pairs and the best remaining card (from the third pair).
    assert_eq!(best("Kd Kh 9s 9d 7c 7h 2s"), "Kh Kd 9s 9d 7c");
    assert_eq!(
        strength("Kd Kh 9s 9d 7c 7h 2s"),
        strength("Kc Ks 9h 9c 7d 3h 2d")
    );
}

#[test]
fn kicker_ties_and_kicker_wins() {
    // Same pair, kickers decide.
    assert!(strength("Ac Ad Kh 9s 4d") > strength("Ah As Qh Js Td"));
    assert_eq!(strength("Ac Ad Kh 9s 4d"), strength("Ah As Kc 9d 4c"));
    // The fifth kicker matters for high card.
    assert!(strength("Ac Kd 9h 7s 4d") > strength("Ah Kc 9s 7d 3c"));
    // A sixth or seventh card never does.
    assert_eq!(
        strength("Ac Kd 9h 7s 4d 3c 2h"),
        strength("Ah Kc 9s 7d 4c 3h 2d")
    );
    // Quads on board: the best kicker.
    assert!(strength("7c 7d 7h 7s 2d Ac 3d") > strength("7c 7d 7h 7s 2d Kc Qd"));
    assert_eq!(best("7c 7d 7h 7s 2d Kc Kd"), "7s 7c 7h 7d Kc");
    // Full house: two sets give trips + pair from the lower set.
    assert_eq!(best("9c 9d 9h 4s 4d 4h Ad"), "9c 9h 9d 4s 4h");
    assert_eq!(
        description("9c 9d 9h 4s 4d 4h Ad"),
        "a full house, nines full of fours"
    );
    assert!(strength("2c 2d 2h As Ad") < strength("3c 3d 3h 2s 2d"));
}

#[test]
fn six_and_seven_card_best_five() {
    assert_eq!(best("Kh Kd 9s 9c 2h 7d 3s"), "Kh Kd 9s 9c 7d");
    assert_eq!(best("2c 5d 9h Js Kd 3h"), "Kd Js 9h 5d 3h");
    assert_eq!(best("Jc Jd Jh 4s 9d 3h"), "Jc Jh Jd 9d 4s");
    assert_eq!(best("Ts Tc 8d 8h 8s 3c 3d"), "8s 8h 8d Ts Tc");
    assert_eq!(best("2h 3h 4h 5h 6h 7h 8h"), "8h 7h 6h 5h 4h");
    assert_eq!(best("5c 6d 7h 8s 9c Tc Jc"), "Jc Tc 9c 8s 7h");
    let hand = evaluate(&cards("Kh Kd 9s 9c 2h 7d 3s")).unwrap();
    assert_eq!(hand.cards().len(), 7);
    assert_eq!(hand.strength(), strength("Kh Kd 9s 9c 7d"));
    assert_eq!(
        hand.to_string(),
        "Kh Kd 9s 9c 7d (two pair, kings and nines)"
    );
}

#[test]
fn descriptions() {
    let cases = [
        ("Ac 5d 9h Js Kd", "high card ace"),
        ("7c 7d 9h Js Kd", "a pair of sevens"),
        ("6c 6d 9h Js Kd", "a pair of sixes"),
        ("Kc Kd 9h 9s 2d", "two pair, kings and nines"),
        ("Jc Jd Jh 9s Kd", "three of a kind, jacks"),
        ("6c 7d 8h 9s Td", "a straight, ten high"),
        ("As 2d 3c 4h 5s", "a straight, five high"),
        ("Ah 7h 9h Jh Kh", "a flush, ace high"),
        ("Qc Qd Qh 4s 4d", "a full house, queens full of fours"),
        ("Jc Jd Jh Js Kd", "four of a kind, jacks"),
        ("5h 6h 7h 8h 9h", "a straight flush, nine high"),
        ("Th Jh Qh Kh Ah", "a royal flush"),
    ];
    for (text, expected) in cases {
        assert_eq!(description(text), expected, "{text}");
        assert_eq!(strength(text).to_string(), expected, "{text}");
    }
    assert_eq!(Category::TwoPair.name(), "two pair");
    assert_eq!(Category::TwoPair.rain_man_name(), "two pairs");
    assert_eq!(Category::StraightFlush.to_string(), "straight flush");
}

#[test]
fn strength_ranks_follow_significance() {
    use Rank::*;
    assert_eq!(
        strength("As 2d 3c 4h 5s").ranks(),
        [Five, Four, Three, Two, Ace]
    );
    assert_eq!(
        strength("9c 9d 4h 4s 4d").ranks(),
        [Four, Four, Four, Nine, Nine]
    );
    assert_eq!(
        strength("Ac Kd 9h 7s 4d 3c 2h").ranks(),
        [Ace, King, Nine, Seven, Four]
    );
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    assert_eq!(
        evaluate(&cards("Ac Kd 9h 7s")),
        Err(EvalError::CardCount(4))
    );
    assert_eq!(evaluate(&[]), Err(EvalError::CardCount(0)));
    let eight = cards("Ac Kd 9h 7s 4d 3c 2h 5h");
    assert_eq!(evaluate(&eight), Err(EvalError::CardCount(8)));
    assert_eq!(strength_of(&eight), Err(EvalError::CardCount(8)));
    let mut dup = cards("Ac Kd 9h 7s");
    dup.push(dup[1]);
    assert_eq!(evaluate(&dup), Err(EvalError::DuplicateCard(dup[1])));
    assert_eq!(strength_of(&dup), Err(EvalError::DuplicateCard(dup[1])));
    let message = evaluate(&dup).unwrap_err().to_string();
    assert!(message.contains("Kd appears more than once"), "{message}");
}

/// Every multiset of five to seven cards from a pool that holds the highest card of each
/// suit (where a repeated card's bits would overflow a 64-bit sum soonest): a repeat is always
/// [`EvalError::DuplicateCard`], never a strength (`Ad` five times once slipped through).
#[test]
fn repeated_cards_are_errors_in_every_multiplicity() {
    let pool = cards("Ad Kd Qd As Ac Ah 2d 7c 9h");
    fn visit(pool: &[Card], start: usize, hand: &mut Vec<Card>, check: &mut dyn FnMut(&[Card])) {
        if (5..=7).contains(&hand.len()) {
            check(hand);
        }
        if hand.len() == 7 {
            return;
        }
        for index in start..pool.len() {
            hand.push(pool[index]);
            visit(pool, index, hand, check);
            hand.pop();
        }
    }
    let mut checked = 0;
    visit(&pool, 0, &mut Vec::new(), &mut |hand| {
        checked += 1;
        let repeated = hand.windows(2).any(|pair| pair[0] == pair[1]);
        let label = short(hand);
        if repeated {
            assert!(
                matches!(strength_of(hand), Err(EvalError::DuplicateCard(_))),
                "{label}"
            );
            assert!(
                matches!(HandKey::from_cards(hand), Err(EvalError::DuplicateCard(_))),
                "{label}"
            );
            assert!(
                matches!(evaluate(hand), Err(EvalError::DuplicateCard(_))),
                "{label}"
            );
        } else {
            assert_eq!(
                strength_of(hand),
                Ok(evaluate(hand).unwrap().strength()),
                "{label}"
            );
        }
    });
    // Multisets of 5, 6 and 7 from 9 cards: C(13, 5) + C(14, 6) + C(15, 7).
    assert_eq!(checked, 1_287 + 3_003 + 6_435);
}

/// More than seven cards is an error whatever they are, including long slices whose repeats
/// make the sum of card bits wrap around to their union and whose length, counted modulo 64,
/// is 5..=7 (e.g. 45 distinct cards, then the ace of diamonds 8 more times and the king of
/// diamonds 16 more times: 8 * 2^60 + 16 * 2^59 = 2^64).
#[test]
fn long_slices_are_errors_even_when_the_checks_wrap() {
    let ace = cards("Ad")[0];
    let king = cards("Kd")[0];
    let others: Vec<Card> = Card::deck().filter(|&c| c != ace && c != king).collect();
    for distinct_others in 43..=45 {
        for skip in 0..=others.len() - distinct_others {
            let mut hand = vec![ace, king];
            hand.extend(others.iter().skip(skip).take(distinct_others));
            hand.extend(std::iter::repeat_n(ace, 8));
            hand.extend(std::iter::repeat_n(king, 16));
            let count = hand.len();
            assert!((5..=7).contains(&(count % 64)), "{count}");
            assert_eq!(strength_of(&hand), Err(EvalError::CardCount(count)));
            assert_eq!(evaluate(&hand), Err(EvalError::CardCount(count)));
            assert_eq!(HandKey::from_cards(&hand), Err(EvalError::CardCount(count)));
            let key = hand.iter().fold(HandKey::EMPTY, |key, &card| key + card);
            assert_eq!(key.len(), distinct_others + 2);
            assert_eq!(
                key.strength(),
                Err(EvalError::CardCount(distinct_others + 2))
            );
        }
    }
}

#[test]
fn hand_key_is_a_set_of_up_to_seven_cards() {
    let board = HandKey::from_cards(&cards("Ah Kh 7c 7d 2s")).unwrap();
    assert_eq!(board.len(), 5);
    assert!(board.contains(cards("Kh")[0]));
    assert_eq!(board.strength().unwrap(), strength("Ah Kh 7c 7d 2s"));
    let hole = HandKey::from_cards(&cards("As Qd")).unwrap();
    let seven = board.join(hole).unwrap();
    assert_eq!(seven.strength().unwrap(), strength("Ah Kh 7c 7d 2s As Qd"));
    assert_eq!(
        board.join(HandKey::from_cards(&cards("Ah 3c")).unwrap()),
        Err(EvalError::DuplicateCard(cards("Ah")[0]))
    );
    assert_eq!(seven.with(cards("3c")[0]), Err(EvalError::CardCount(8)));
    assert_eq!(hole.strength(), Err(EvalError::CardCount(2)));
    assert_eq!(HandKey::EMPTY.len(), 0);
    assert!(HandKey::EMPTY.is_empty());
    let built = cards("Ah Kh 7c 7d 2s As")
        .into_iter()
        .try_fold(HandKey::EMPTY, HandKey::with)
        .unwrap();
    assert_eq!(built.strength().unwrap(), strength("Ah Kh 7c 7d 2s As"));
    assert!(HandKey::from_cards(&cards("Ac Kd 9h 7s 4d 3c 2h 5h")).is_err());
}

fn short(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn theirs(cards: &[Card]) -> rs_poker::core::Rank {
    let converted: Vec<rs_poker::core::Card> = cards.iter().map(|&c| c.into()).collect();
    converted.rank()
}

fn category_matches(ours: Category, theirs: rs_poker::core::CoreRank) -> bool {
    use rs_poker::core::CoreRank as R;
    matches!(
        (ours, theirs),
        (Category::HighCard, R::HighCard)
            | (Category::Pair, R::OnePair)
            | (Category::TwoPair, R::TwoPair)
            | (Category::ThreeOfAKind, R::ThreeOfAKind)
            | (Category::Straight, R::Straight)
            | (Category::Flush, R::Flush)
            | (Category::FullHouse, R::FullHouse)
            | (Category::FourOfAKind, R::FourOfAKind)
            | (Category::StraightFlush, R::StraightFlush)
    )
}

/// Random pairs of 5-, 6- and 7-card hands compare the same way under both evaluators, and
/// agree on the category: 200,000 hands in a debug build, 800,000 in release.
#[test]
fn agrees_with_rs_poker_on_random_hands() {
    let mut rng = TestRng(0x5EED_0001);
    let rounds = if cfg!(debug_assertions) {
        40_000
    } else {
        200_000
    };
    for round in 0..rounds {
        let size_a = 5 + round % 3;
        let size_b = 5 + (round / 3) % 3;
        let a = rng.hand(size_a);
        let b = rng.hand(size_b);
        let (ours_a, ours_b) = (strength_of(&a).unwrap(), strength_of(&b).unwrap());
        let (theirs_a, theirs_b) = (theirs(&a), theirs(&b));
        assert!(
            category_matches(ours_a.category(), theirs_a.category()),
            "{a:?}"
        );
        assert_eq!(
            ours_a.cmp(&ours_b),
            theirs_a.cmp(&theirs_b),
            "{} vs {}",
            short(&a),
            short(&b)
        );
        // The evaluated hand agrees with the fast path, and its best five alone are as strong.
        let hand = evaluate(&a).unwrap();
        assert_eq!(hand.strength(), ours_a);
        assert_eq!(
            strength_of(&hand.best_five()).unwrap(),
            ours_a,
            "{}",
            short(&a)
        );
        assert_eq!(HandKey::from_cards(&a).unwrap().strength().unwrap(), ours_a);
    }
}

/// Hands that tie under one evaluator tie under the other: drawn from a small pool of ranks
/// so that ties are common.
#[test]
fn ties_agree_with_rs_poker() {
    let mut rng = TestRng(0x5EED_0002);
    let mut ties = 0;
    for _ in 0..20_000 {
        let board = rng.hand(9);
        let a: Vec<Card> = board[..7].to_vec();
        let b: Vec<Card> = board[..5].iter().chain(&board[7..9]).copied().collect();
        let ours = strength_of(&a).unwrap().cmp(&strength_of(&b).unwrap());
        assert_eq!(
            ours,
            theirs(&a).cmp(&theirs(&b)),
            "{} / {}",
            short(&a),
            short(&b)
        );
        if ours == Ordering::Equal {
            ties += 1;
        }
    }
    assert!(ties > 100, "too few ties to mean anything: {ties}");
}

/// All 2,598,960 five-card hands: the standard category counts and 7,462 distinct strengths;
/// every 31st hand is also checked against the full evaluation (best five, description).
#[test]
fn all_five_card_hands() {
    let deck: Vec<Card> = Card::deck().collect();
    let mut per_strength = vec![0u32; 7463];
    let mut per_category = [0u64; 9];
    let mut hands = 0u64;
    for a in 0..52 {
        let k1 = HandKey::EMPTY + deck[a];
        for b in a + 1..52 {
            let k2 = k1 + deck[b];
            for c in b + 1..52 {
                let k3 = k2 + deck[c];
                for d in c + 1..52 {
                    let k4 = k3 + deck[d];
                    for e in d + 1..52 {
                        let strength = (k4 + deck[e]).strength().unwrap();
                        per_strength[usize::from(strength.index())] += 1;
                        per_category[strength.category() as usize] += 1;
                        hands += 1;
                        if hands.is_multiple_of(31) {
                            let five = [deck[a], deck[b], deck[c], deck[d], deck[e]];
                            let hand = evaluate(&five).unwrap();
                            assert_eq!(hand.strength(), strength, "{}", short(&five));
                            let mut used = hand.best_five();
                            used.sort_by_key(|card| card.index());
                            assert_eq!(used, five);
                        }
                    }
                }
            }
        }
    }
    assert_eq!(hands, 2_598_960);
    assert_eq!(per_strength[0], 0);
    assert_eq!(per_strength.iter().filter(|&&n| n > 0).count(), 7_462);
    assert_eq!(
        per_category,
        [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
    );
    // Indexes are dense and ordered like the categories.
    let lowest = HandStrength::from_index(1).unwrap();
    assert_eq!(lowest, HandStrength::WEAKEST);
    assert_eq!(lowest, strength("7c 5d 4h 3s 2c"));
    assert_eq!(HandStrength::STRONGEST, strength("Ts Js Qs Ks As"));
    assert_eq!(HandStrength::from_index(0), None);
    assert_eq!(HandStrength::from_index(7463), None);
}

/// `evaluate` picks the best five from the fast strength; the reference evaluator (behind
/// `bench_support::reference_best_five`) picks them from scratch. They agree on category, the five cards and their
/// order, for random hands of five to seven cards, and for hands drawn from two suits only
/// (mostly flushes and straight flushes).
#[test]
fn evaluate_agrees_with_the_reference_evaluator() {
    let mut rng = TestRng(0x5EED_0004);
    let two_suits: Vec<Card> = Card::deck()
        .filter(|card| matches!(card.suit, shared::Suit::Hearts | shared::Suit::Clubs))
        .collect();
    let mut flushes = 0;
    for round in 0..40_000 {
        let count = 5 + round % 3;
        let cards = if round % 4 == 3 {
            // Seven of the 26 cards of two suits: a flush at least every other time.
            let mut pool = two_suits.clone();
            for i in 0..count {
                let j = i + (rng.next() % (pool.len() - i) as u64) as usize;
                pool.swap(i, j);
            }
            pool.truncate(count);
            pool
        } else {
            rng.hand(count)
        };
        let hand = evaluate(&cards).unwrap();
        let (reference, reference_five) = reference_best_five(&cards).unwrap();
        assert_eq!(hand.strength(), reference, "{}", short(&cards));
        assert_eq!(hand.best_five(), reference_five, "{}", short(&cards));
        // On distinct cards Rain Man's gem classifies as a poker evaluator does.
        let rain_man = rain_man_rank(&hand.cards()).unwrap();
        assert_eq!(hand.rain_man(), rain_man, "{}", short(&cards));
        assert_eq!(hand.category().rain_man_rank(), rain_man.rank);
        assert_eq!(strength_of(&hand.best_five()), Ok(hand.strength()));
        if matches!(hand.category(), Category::Flush | Category::StraightFlush) {
            flushes += 1;
        }
    }
    assert!(flushes > 1_500, "{flushes}");
}

/// The fast path and the full evaluation agree on random six- and seven-card hands, and the
/// incremental key gives the same answer in any card order.
#[test]
fn fast_path_agrees_with_full_evaluation() {
    let mut rng = TestRng(0x5EED_0003);
    for round in 0..20_000 {
        let cards = rng.hand(6 + round % 2);
        let hand = evaluate(&cards).unwrap();
        let fast = strength_of(&cards).unwrap();
        assert_eq!(hand.strength(), fast, "{}", short(&cards));
        let reversed = cards
            .iter()
            .rev()
            .fold(HandKey::EMPTY, |key, &card| key + card);
        assert_eq!(reversed.strength().unwrap(), fast);
        let (board, hole) = cards.split_at(cards.len() - 2);
        let joined = HandKey::from_cards(board)
            .unwrap()
            .join(HandKey::from_cards(hole).unwrap())
            .unwrap();
        assert_eq!(joined.strength().unwrap(), fast);
        assert_eq!(joined + cards[0], joined);
    }
    let eight = rng.hand(8);
    let key = eight.iter().fold(HandKey::EMPTY, |key, &card| key + card);
    assert_eq!(key.len(), 8);
    assert_eq!(key.strength(), Err(EvalError::CardCount(8)));
}

#[test]
fn hand_key_counts_large_sets_exactly() {
    // Thirteen cards of one suit overflow that suit's counter inside the key; the set still
    // knows its size and refuses to evaluate.
    let mut key = HandKey::EMPTY;
    for card in Card::deck() {
        key += card;
        assert_eq!(key.strength().is_ok(), (5..=7).contains(&key.len()));
    }
    assert_eq!(key.len(), 52);
    assert_eq!(key.cards().count(), 52);
    assert_eq!(key.strength(), Err(EvalError::CardCount(52)));
}
