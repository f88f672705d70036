//! Our evaluator against holdem-hand-evaluator ("hhe", b-inary's crate) on two cases, in one
//! process, in alternated rounds: 10 M random seven-card hands (the same hands for both
//! sides; ours as card arrays and as `SevenCards`, dealt by `Deck::draw_seven`), and all
//! 133,784,560 seven-card hands by seven nested loops adding one card per level (ours dealt
//! from a `Deck`, as a bot enumerates). Our loops are `eval_speed.rs`'s
//! (`support/our_loops.rs`), so the figures correspond. Two diagnostic rows bound
//! `strength_of`'s ratio: ours on the same arrays with no repeated-card test, and hhe reading
//! two bytes a card as ours does.
//!
//! Times are the on-CPU time of the measuring thread (`support/cpu_time.rs`), not wall time.
//!
//! Built only by `shared/benches/hhe_compare.sh HHE_DIR [ROUNDS] [CASE-SUBSTRING]`, which
//! writes this crate's manifest (hhe is git-only and cannot be a dependency of the repository)
//! and also counts instructions a hand under callgrind; see `shared/benches/README.md`.
//!
//! Before measuring, it checks that both evaluators order every seven-card hand the same way
//! (our strength index and hhe's rank are both "higher is stronger"): a wrong comparator
//! would make every figure meaningless, so a mismatch stops the bench with an error.

use holdem_hand_evaluator::Hand;
use shared::eval::{bench_support, strength_of, Deck, HandKey, SevenCards};
use shared::{Card, Suit};
use std::hint::black_box;
use std::process::ExitCode;

#[path = "../../support/random_hands.rs"]
mod random_hands;
use random_hands::random_seven_cards;
#[path = "../../support/cpu_time.rs"]
mod cpu_time;
#[path = "../../support/our_loops.rs"]
mod our_loops;
#[path = "../../support/timed_cases.rs"]
mod timed_cases;
use our_loops::{enumerate_all, random_hand_key, random_seven_cards_strength, random_strength_of};
use timed_cases::{print_cases, print_rounds, speed_ratios, Case};

const HANDS: usize = 10_000_000;
const ALL_HANDS: u64 = 133_784_560;

/// hhe's card id: `rank * 4 + suit`, ranks deuce (0) to ace (12), suits clubs, diamonds,
/// hearts, spades (0 = 2c, 51 = As).
fn hhe_id(card: Card) -> u8 {
    let suit = match card.suit {
        Suit::Clubs => 0,
        Suit::Diamonds => 1,
        Suit::Hearts => 2,
        Suit::Spades => 3,
    };
    (card.rank as u8 - 2) * 4 + suit
}

/// Our strength index (1..=7462), 0 when the hand cannot be evaluated.
fn our_index(key: HandKey) -> u16 {
    key.strength().map_or(0, |strength| strength.index())
}

/// The same enumeration with hhe: `Hand::add_card` per level, `evaluate()` on seven cards.
#[inline(never)]
fn all_hhe(deck: &[usize; 52]) -> u64 {
    let mut sum = 0u64;
    for a in 0..52 {
        let k1 = Hand::new().add_card(deck[a]);
        for b in a + 1..52 {
            let k2 = k1.add_card(deck[b]);
            for c in b + 1..52 {
                let k3 = k2.add_card(deck[c]);
                for d in c + 1..52 {
                    let k4 = k3.add_card(deck[d]);
                    for e in d + 1..52 {
                        let k5 = k4.add_card(deck[e]);
                        for f in e + 1..52 {
                            let k6 = k5.add_card(deck[f]);
                            for &card in &deck[f + 1..] {
                                let k7 = k6.add_card(card);
                                sum += u64::from(k7.evaluate());
                            }
                        }
                    }
                }
            }
        }
    }
    sum
}

/// hhe on the same hands, stored as one byte a card (ours are two): `add_card` seven times
/// (what `Hand::from_slice` does, without widening the input to `usize`s, which would make
/// its input stream four times ours), then `evaluate()`.
#[inline(never)]
fn random_hhe(hands: &[[u8; 7]]) -> u16 {
    hhe_loop(hands)
}

/// hhe on the same hands with two bytes a card, as ours are (`[Card; 7]` is 14 bytes a hand, hhe's
/// one-byte hands 7): what the width of `strength_of`'s input costs hhe itself. Not a case of the
/// target; it says how much of the gap the input stream is.
#[inline(never)]
fn random_hhe_two_byte(hands: &[[u16; 7]]) -> u16 {
    hhe_loop(hands)
}

/// The loop of both hhe cases, for either width of card id: inlined into each, so that each
/// keeps a function of its own that `hhe_compare.sh instructions` finds by name.
#[inline(always)]
fn hhe_loop<Id: Copy>(hands: &[[Id; 7]]) -> u16
where
    usize: From<Id>,
{
    let mut acc = 0u16;
    for hand in hands {
        let key = hand
            .iter()
            .fold(Hand::new(), |key, &card| key.add_card(usize::from(card)));
        acc ^= key.evaluate();
    }
    acc
}

/// Ours on the same `[Card; 7]` arrays as `strength_of`, with no repeated-card test
/// (`bench_support::strength_index_unchecked`): the ceiling of `strength_of` with a check that
/// cost nothing.
#[inline(never)]
fn random_unchecked(hands: &[[Card; 7]]) -> u16 {
    let mut acc = 0u16;
    for hand in hands {
        acc ^= bench_support::strength_index_unchecked(hand);
    }
    acc
}

/// What both evaluators said about the hands seen so far: for each of our strength indexes,
/// the hhe rank it came with.
struct OrderCheck {
    hhe_rank_of: Vec<Option<u16>>,
    hands: u64,
}

impl OrderCheck {
    fn new() -> OrderCheck {
        OrderCheck {
            hhe_rank_of: vec![None; 7463],
            hands: 0,
        }
    }

    /// Records one hand; an error when our index is out of range or came before with another
    /// hhe rank (then the two evaluators disagree on which of two hands is stronger).
    fn record(&mut self, ours: u16, theirs: u16, hand: &dyn Fn() -> String) -> Result<(), String> {
        self.hands += 1;
        let slot = self
            .hhe_rank_of
            .get_mut(usize::from(ours))
            .filter(|_| ours != 0)
            .ok_or_else(|| format!("ours gave no strength ({ours}) for {}", hand()))?;
        match *slot {
            None => *slot = Some(theirs),
            Some(seen) if seen == theirs => {}
            Some(seen) => {
                return Err(format!(
                    "our strength {ours} came with hhe ranks {seen} and {theirs} (last: {})",
                    hand()
                ))
            }
        }
        Ok(())
    }

    /// Whether hhe's ranks rise strictly with ours over every strength seen: then both order
    /// every recorded hand the same way. Returns how many strengths were seen.
    fn finish(&self, what: &str) -> Result<usize, String> {
        let seen: Vec<(usize, u16)> = self
            .hhe_rank_of
            .iter()
            .enumerate()
            .filter_map(|(ours, theirs)| theirs.map(|theirs| (ours, theirs)))
            .collect();
        if let Some(pair) = seen.windows(2).find(|pair| pair[0].1 >= pair[1].1) {
            return Err(format!(
                "{what}: our strengths {} < {} but hhe ranks {} >= {}",
                pair[0].0, pair[1].0, pair[0].1, pair[1].1
            ));
        }
        println!(
            "check {what}: {} hands, {} distinct strengths, the same order in both",
            self.hands,
            seen.len()
        );
        Ok(seen.len())
    }
}

fn show(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every seven-card hand, both evaluators side by side, by the same enumeration as the
/// bench loops.
struct AllHands<'a> {
    deck: &'a [Card; 52],
    /// hhe's id of each card of `deck`.
    ids: [usize; 52],
    /// The deck positions of the hand being built, to name it in an error.
    cards: [usize; 7],
    check: OrderCheck,
}

impl AllHands<'_> {
    /// Adds each card from deck position `from` on as card number `level` to both hands.
    fn visit(
        &mut self,
        level: usize,
        from: usize,
        ours: HandKey,
        theirs: Hand,
    ) -> Result<(), String> {
        for index in from..52 {
            self.cards[level] = index;
            let ours = ours + self.deck[index];
            let theirs = theirs.add_card(self.ids[index]);
            if level == 6 {
                let (deck, cards) = (self.deck, self.cards);
                let hand = || show(&cards.map(|i| deck[i]));
                self.check
                    .record(our_index(ours), theirs.evaluate(), &hand)?;
            } else {
                self.visit(level + 1, index + 1, ours, theirs)?;
            }
        }
        Ok(())
    }
}

/// Both evaluators on the random hands and on every seven-card hand: the same order.
fn check_same_order(
    seven_cards: &[SevenCards],
    hhe_hands: &[[u8; 7]],
    deck: &[Card; 52],
) -> Result<(), String> {
    let mut random = OrderCheck::new();
    for (seven, ids) in seven_cards.iter().zip(hhe_hands) {
        let hand = &seven.cards();
        let ours = strength_of(hand).map_or(0, |s| s.index());
        if seven.strength().index() != ours {
            return Err(format!(
                "SevenCards::strength() {} but strength_of {ours} for {}",
                seven.strength().index(),
                show(hand)
            ));
        }
        let unchecked = bench_support::strength_index_unchecked(hand);
        if unchecked != ours {
            return Err(format!(
                "strength_index_unchecked {unchecked} but strength_of {ours} for {}",
                show(hand)
            ));
        }
        let theirs = ids
            .iter()
            .fold(Hand::new(), |key, &card| key.add_card(usize::from(card)))
            .evaluate();
        random.record(ours, theirs, &|| show(hand))?;
    }
    random.finish("10M random hands")?;

    let mut all = AllHands {
        deck,
        ids: deck.map(|card| usize::from(hhe_id(card))),
        cards: [0; 7],
        check: OrderCheck::new(),
    };
    all.visit(0, 0, HandKey::EMPTY, Hand::new())?;
    let all = all.check;
    if all.hands != ALL_HANDS {
        return Err(format!("enumerated {} hands, not {ALL_HANDS}", all.hands));
    }
    // Every class a seven-card hand can make (4,824 of the 7,462 five-card classes).
    let distinct = all.finish("all seven-card hands")?;
    if distinct != 4824 {
        return Err(format!("{distinct} distinct strengths, not 4,824"));
    }
    Ok(())
}

const RANDOM_STRENGTH_OF: &str = "10M random: ours strength_of(&[Card; 7])";
const RANDOM_SEVEN_CARDS: &str = "10M random: ours SevenCards::strength()";
const RANDOM_HAND_KEY: &str = "10M random: ours HandKey + Card x7, strength()";
const RANDOM_HHE: &str = "10M random: hhe Hand add_card x7, evaluate()";
const RANDOM_UNCHECKED: &str = "10M random: ours, no repeat test (ceiling)";
const RANDOM_HHE_TWO_BYTE: &str = "10M random: hhe, two bytes a card as ours";
const ALL_OURS: &str = "all 133,784,560 hands: ours nested Deal::one_more";
const ALL_HHE: &str = "all 133,784,560 hands: hhe nested Hand::add_card";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let rounds: usize = match args.next().map(|n| n.parse()) {
        None => 7,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("usage: hhe_compare [ROUNDS (a positive number)] [CASE-SUBSTRING]");
            return ExitCode::from(2);
        }
    };
    let filter = args.next().unwrap_or_default();

    let seven_cards = random_seven_cards(HANDS);
    let hands: Vec<[Card; 7]> = seven_cards.iter().map(|hand| hand.cards()).collect();
    let hhe_hands: Vec<[u8; 7]> = hands.iter().map(|hand| hand.map(hhe_id)).collect();
    let hhe_two_byte: Vec<[u16; 7]> = hhe_hands.iter().map(|hand| hand.map(u16::from)).collect();
    let deck: [Card; 52] = std::array::from_fn(|i| Card::deck().nth(i).expect("52 cards"));
    let hhe_deck: [usize; 52] = deck.map(|card| usize::from(hhe_id(card)));
    let our_deck = Deck::full();

    // Not under callgrind's instruction counts (`HHE_COMPARE_SKIP_CHECK=1`): the check is
    // not what is measured, and it takes longer than every case together.
    if std::env::var_os("HHE_COMPARE_SKIP_CHECK").is_none() {
        if let Err(error) = check_same_order(&seven_cards, &hhe_hands, &deck) {
            eprintln!("error: the two evaluators disagree: {error}");
            return ExitCode::FAILURE;
        }
    }

    let hands_a = hands.clone();
    let hands_b = hands.clone();
    let hands_c = hands;
    const UNIT: &str = "M hands/s";
    let mut cases = vec![
        Case::new(RANDOM_STRENGTH_OF, HANDS as f64, UNIT, move || {
            u64::from(random_strength_of(black_box(&hands_a)))
        }),
        Case::new(RANDOM_SEVEN_CARDS, HANDS as f64, UNIT, move || {
            u64::from(random_seven_cards_strength(black_box(&seven_cards)))
        }),
        Case::new(RANDOM_HAND_KEY, HANDS as f64, UNIT, move || {
            u64::from(random_hand_key(black_box(&hands_b)))
        }),
        Case::new(RANDOM_HHE, HANDS as f64, UNIT, move || {
            u64::from(random_hhe(black_box(&hhe_hands)))
        }),
        Case::new(RANDOM_UNCHECKED, HANDS as f64, UNIT, move || {
            u64::from(random_unchecked(black_box(&hands_c)))
        }),
        Case::new(RANDOM_HHE_TWO_BYTE, HANDS as f64, UNIT, move || {
            u64::from(random_hhe_two_byte(black_box(&hhe_two_byte)))
        }),
        Case::new(ALL_OURS, ALL_HANDS as f64, UNIT, move || {
            enumerate_all(black_box(&our_deck))
        }),
        Case::new(ALL_HHE, ALL_HANDS as f64, UNIT, move || {
            all_hhe(black_box(&hhe_deck))
        }),
    ];
    cases.retain(|case| case.name.contains(filter.as_str()));
    if cases.is_empty() {
        eprintln!("no case matches {filter:?}");
        return ExitCode::from(2);
    }

    // Every round runs every case once; odd rounds in reverse order, so that neither side
    // always runs first (after the other has warmed or cooled the caches).
    for round in 0..rounds {
        let order: Vec<usize> = if round % 2 == 0 {
            (0..cases.len()).collect()
        } else {
            (0..cases.len()).rev().collect()
        };
        for index in order {
            cases[index].time_once();
        }
    }

    print_rounds(rounds);
    print_cases(&cases, 50, 1);
    // Ours against hhe round by round: both ran within seconds of each other, so a ratio
    // keeps what the machine's load did to both (the target is 1.0x). The two diagnostic rows
    // (no repeat test; hhe on two-byte cards) have no target: they bound `strength_of`'s.
    const TARGET: &str = "(target 1.0 x)";
    const DIAGNOSTIC: &str = "(diagnostic)";
    for (ours, theirs, note) in [
        (RANDOM_STRENGTH_OF, RANDOM_HHE, TARGET),
        (RANDOM_SEVEN_CARDS, RANDOM_HHE, TARGET),
        (RANDOM_HAND_KEY, RANDOM_HHE, TARGET),
        (RANDOM_UNCHECKED, RANDOM_HHE, DIAGNOSTIC),
        (RANDOM_HHE_TWO_BYTE, RANDOM_HHE, DIAGNOSTIC),
        (ALL_OURS, ALL_HHE, TARGET),
    ] {
        if let Some([low, median, high]) = speed_ratios(&cases, ours, theirs) {
            println!(
                "ours/hhe {ours:<50} {low:>5.2} / {median:>5.2} / {high:>5.2} x hhe's speed {note}"
            );
        }
    }
    ExitCode::SUCCESS
}
