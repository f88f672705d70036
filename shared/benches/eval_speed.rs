//! The evaluator's speed through the public API a bot calls, without criterion, against
//! `rs_poker` on the same inputs: each round runs every case once, one after the other, and the
//! report gives the min / median / max over the rounds of the thread's on-CPU time
//! (`support/cpu_time.rs`), and each speed-up round by round.
//!
//! `cargo bench -p lean-poker-shared --bench eval_speed -- [ROUNDS] [CASE-SUBSTRING]`
//!
//! Cases: 10 M random seven-card hands through `strength_of(&[Card; 7])`, as `SevenCards`
//! (dealt before the timed loop) and through `HandKey + Card`, and through `rs_poker`'s
//! `rank()`; all 133,784,560 seven-card hands by incremental nested
//! loops (`Deal::one_more` per level, and `rs_poker`'s `SevenCardAccum`); equity of AhKh against
//! three random hands, 100,000 trials, ours and `rs_poker`'s `MonteCarloGame`. The comparison
//! with holdem-hand-evaluator, which cannot be a dependency of the workspace, is
//! `hhe_compare.sh`'s (see `benches/README.md`).

use shared::equity::Scenario;
use shared::eval::Deck;
use shared::Card;
use std::hint::black_box;

const HANDS: usize = 10_000_000;
const ALL_HANDS: u64 = 133_784_560;

#[path = "support/random_hands.rs"]
mod random_hands;
use random_hands::random_seven_cards;
#[path = "support/our_loops.rs"]
mod our_loops;
use our_loops::{enumerate_all, random_hand_key, random_seven_cards_strength, random_strength_of};
#[path = "support/cpu_time.rs"]
mod cpu_time;
#[path = "support/timed_cases.rs"]
mod timed_cases;
use timed_cases::{print_cases, print_rounds, speed_ratios, Case};

/// The same enumeration with `rs_poker`'s `SevenCardAccum`, one card per level.
#[inline(never)]
fn enumerate_all_rs_poker(deck: &[rs_poker::core::Card; 52]) -> u64 {
    use rs_poker::core::SevenCardAccum;
    let mut sum = 0u64;
    for a in 0..52 {
        let k1 = SevenCardAccum::new() + deck[a];
        for b in a + 1..52 {
            let k2 = k1 + deck[b];
            for c in b + 1..52 {
                let k3 = k2 + deck[c];
                for d in c + 1..52 {
                    let k4 = k3 + deck[d];
                    for e in d + 1..52 {
                        let k5 = k4 + deck[e];
                        for f in e + 1..52 {
                            let k6 = k5 + deck[f];
                            for &card in &deck[f + 1..] {
                                let k7 = k6 + card;
                                sum += u64::from(k7.rank().value_bits());
                            }
                        }
                    }
                }
            }
        }
    }
    sum
}

/// `rs_poker`'s `rank()` on the same hands.
#[inline(never)]
fn random_rs_poker_rank(hands: &[[rs_poker::core::Card; 7]]) -> u16 {
    use rs_poker::core::Rankable;
    let mut acc = 0u16;
    for hand in hands {
        acc ^= hand[..].rank().value_bits();
    }
    acc
}

const RANDOM_STRENGTH_OF: &str = "10M random: strength_of(&[Card; 7])";
const RANDOM_RS_POKER: &str = "10M random: rs_poker rank()";
const RANDOM_SEVEN_CARDS: &str = "10M random: SevenCards::strength()";
const RANDOM_HAND_KEY: &str = "10M random: HandKey + Card x7, strength()";
const ALL_DEAL: &str = "all 133,784,560 hands: nested Deal::one_more";
const ALL_RS_POKER: &str = "all 133,784,560 hands: rs_poker SevenCardAccum";
const EQUITY_OURS: &str = "equity AhKh vs 3 random, 100k: ours";
const EQUITY_RS_POKER: &str = "equity AhKh vs 3 random, 100k: rs_poker";

fn main() {
    let mut args = std::env::args().skip(1).filter(|arg| arg != "--bench");
    let rounds: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(7);
    let filter = args.next().unwrap_or_default();

    let seven_cards = random_seven_cards(HANDS);
    let hands: Vec<[Card; 7]> = seven_cards.iter().map(|hand| hand.cards()).collect();
    let deck: [Card; 52] = std::array::from_fn(|i| Card::deck().nth(i).expect("52 cards"));
    let our_deck = Deck::full();
    let ak = shared::card::parse_cards("Ah Kh").expect("cards");
    let preflop = Scenario::new(&ak, &[], 3).expect("scenario");
    let rs_hands = {
        let hero: Vec<rs_poker::core::Card> = ak.iter().map(|&card| card.into()).collect();
        vec![
            rs_poker::core::Hand::new_with_cards(hero),
            rs_poker::core::Hand::default(),
            rs_poker::core::Hand::default(),
            rs_poker::core::Hand::default(),
        ]
    };
    let mut rs_game = rs_poker::holdem::MonteCarloGame::new(rs_hands).expect("game");

    let rs_poker_hands: Vec<[rs_poker::core::Card; 7]> = hands
        .iter()
        .map(|hand| hand.map(rs_poker::core::Card::from))
        .collect();
    let rs_poker_deck: [rs_poker::core::Card; 52] = deck.map(rs_poker::core::Card::from);
    let hands_a = hands.clone();
    let hands_b = hands;
    let mut seed = 0;
    let mut cases = vec![
        Case::new(RANDOM_STRENGTH_OF, HANDS as f64, "M hands/s", move || {
            u64::from(random_strength_of(black_box(&hands_a)))
        }),
        Case::new(RANDOM_RS_POKER, HANDS as f64, "M hands/s", move || {
            u64::from(random_rs_poker_rank(black_box(&rs_poker_hands)))
        }),
        Case::new(RANDOM_SEVEN_CARDS, HANDS as f64, "M hands/s", move || {
            u64::from(random_seven_cards_strength(black_box(&seven_cards)))
        }),
        Case::new(RANDOM_HAND_KEY, HANDS as f64, "M hands/s", move || {
            u64::from(random_hand_key(black_box(&hands_b)))
        }),
        Case::new(ALL_DEAL, ALL_HANDS as f64, "M hands/s", move || {
            enumerate_all(black_box(&our_deck))
        }),
        Case::new(ALL_RS_POKER, ALL_HANDS as f64, "M hands/s", move || {
            enumerate_all_rs_poker(black_box(&rs_poker_deck))
        }),
        Case::new(EQUITY_OURS, 100_000.0, "M trials/s", move || {
            seed += 1;
            let result = preflop.monte_carlo(100_000, seed).expect("equity");
            (result.equity() * 1e6) as u64
        }),
        Case::new(EQUITY_RS_POKER, 100_000.0, "M trials/s", move || {
            let equity = rs_game.estimate_equity(100_000);
            (equity[0] * 1e6) as u64
        }),
    ];
    cases.retain(|case| case.name.contains(filter.as_str()));

    for _ in 0..rounds {
        for case in &mut cases {
            case.time_once();
        }
    }
    print_rounds(rounds);
    // Speed-ups against `rs_poker`, round by round.
    for (ours, yardstick) in [
        (RANDOM_STRENGTH_OF, RANDOM_RS_POKER),
        (RANDOM_SEVEN_CARDS, RANDOM_RS_POKER),
        (RANDOM_HAND_KEY, RANDOM_RS_POKER),
        (ALL_DEAL, ALL_RS_POKER),
        (EQUITY_OURS, EQUITY_RS_POKER),
    ] {
        if let Some([low, median, high]) = speed_ratios(&cases, ours, yardstick) {
            println!("speed-up {ours:<46} {low:>5.2} / {median:>5.2} / {high:>5.2} x rs_poker's");
        }
    }
    print_cases(&cases, 46, 3);
}
