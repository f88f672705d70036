//! Preflop equity of every starting hand against 1 to [`MAX_OPPONENTS`] opponents holding
//! random cards: a lookup, from a table computed once (`preflop_table.rs`, checked in).
//!
//! The 1,326 starting hands fall into 169 classes (13 pairs, 78 suited and 78 offsuit rank
//! pairs) whose equities are equal by the symmetry of the suits. Each entry is the Monte Carlo
//! equity (`shared::equity`, [`TABLE_TRIALS`] deals from the seed [`entry_seed`]) of the
//! class's first hand in [`class_cards`], in hundredths of a percent. The test
//! `preflop_table_matches_its_generator` recomputes a sample of entries and compares them
//! exactly; `UPDATE_PREFLOP_TABLE=1 cargo test --release -p lean-poker-bots preflop_table`
//! rewrites the whole table (about 10 s).
//!
//! ```
//! use bots::preflop::{class_name, equity};
//! use player::shared::card::parse_cards;
//! let aces = parse_cards("Ah As").unwrap();
//! assert!((equity(aces[0], aces[1], 1) - 0.85).abs() < 0.01);
//! let trash = parse_cards("7c 2d").unwrap();
//! assert!(equity(trash[0], trash[1], 1) < 0.36);
//! assert_eq!(class_name(bots::preflop::class_of(trash[0], trash[1])), "72o");
//! ```

use player::shared::equity::Scenario;
use player::{Card, Rank, Suit};

/// The most opponents the table covers (a table of ten seats).
pub const MAX_OPPONENTS: usize = 9;

/// Starting-hand classes.
pub const CLASSES: usize = 169;

/// Random deals behind each entry of the table (a standard error of at most 0.35%).
pub const TABLE_TRIALS: u64 = 20_000;

#[path = "preflop_table.rs"]
mod table;

/// The class of a starting hand: `13 · high + low` for a suited hand, `13 · low + high` for an
/// offsuit one (ranks from 0 for a deuce to 12 for an ace; a pair has `high == low`).
pub fn class_of(first: Card, second: Card) -> usize {
    let (a, b) = (rank_index(first.rank), rank_index(second.rank));
    let (high, low) = if a >= b { (a, b) } else { (b, a) };
    if first.suit == second.suit {
        13 * high + low
    } else {
        13 * low + high
    }
}

/// Two cards of a class: a pair of spades and hearts, a suited hand in spades, an offsuit
/// hand with the high card in spades and the low one in hearts.
pub fn class_cards(class: usize) -> [Card; 2] {
    let (row, column) = (class / 13, class % 13);
    let rank = |index: usize| Rank::from_value(index as u8 + 2).unwrap_or(Rank::Two);
    if row > column {
        // Suited: 13 · high + low.
        [
            Card::new(rank(row), Suit::Spades),
            Card::new(rank(column), Suit::Spades),
        ]
    } else {
        // A pair (row == column) or offsuit: 13 · low + high.
        [
            Card::new(rank(column), Suit::Spades),
            Card::new(rank(row), Suit::Hearts),
        ]
    }
}

/// A class in the usual notation: `AA`, `AKs`, `72o`.
pub fn class_name(class: usize) -> String {
    let [high, low] = class_cards(class);
    let (h, l) = (high.rank.short_char(), low.rank.short_char());
    if high.rank == low.rank {
        format!("{h}{l}")
    } else if high.suit == low.suit {
        format!("{h}{l}s")
    } else {
        format!("{h}{l}o")
    }
}

/// The expected share of the pot of `first` and `second` against `opponents` players holding
/// random cards, all hands shown down (`opponents` below 1 counts as 1, above
/// [`MAX_OPPONENTS`] as [`MAX_OPPONENTS`]).
pub fn equity(first: Card, second: Card, opponents: usize) -> f64 {
    let row = opponents.clamp(1, MAX_OPPONENTS) - 1;
    f64::from(table::EQUITY[row][class_of(first, second)]) / 10_000.0
}

/// Where a class ranks among the 1,326 starting hands against one opponent: the share of
/// hands with a higher heads-up equity (0 for aces, close to 1 for the worst hands). A chart
/// threshold such as "the best 15%" is `percentile(...) < 0.15`.
pub fn percentile(first: Card, second: Card) -> f64 {
    let class = class_of(first, second);
    let mine = table::EQUITY[0][class];
    let better: u32 = (0..CLASSES)
        .filter(|&other| table::EQUITY[0][other] > mine)
        .map(combos)
        .sum();
    f64::from(better) / 1326.0
}

/// How many of the 1,326 starting hands a class holds: 6 for a pair, 4 suited, 12 offsuit.
pub fn combos(class: usize) -> u32 {
    let (row, column) = (class / 13, class % 13);
    match row.cmp(&column) {
        std::cmp::Ordering::Equal => 6,
        std::cmp::Ordering::Greater => 4,
        std::cmp::Ordering::Less => 12,
    }
}

/// The seed of an entry's deals.
pub fn entry_seed(class: usize, opponents: usize) -> u64 {
    (class as u64) << 8 | opponents as u64
}

/// An entry as the generator computes it: the equity in hundredths of a percent.
pub fn generate_entry(class: usize, opponents: usize) -> u16 {
    let cards = class_cards(class);
    let equity = Scenario::new(&cards, &[], opponents)
        .and_then(|scenario| scenario.monte_carlo(TABLE_TRIALS, entry_seed(class, opponents)))
        .map_or(0.0, |result| result.equity());
    (equity * 10_000.0).round() as u16
}

/// A rank from 0 (deuce) to 12 (ace).
fn rank_index(rank: Rank) -> usize {
    usize::from(rank.value()).saturating_sub(2).min(12)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    /// The text of `preflop_table.rs`.
    fn generate() -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "//! Generated by `UPDATE_PREFLOP_TABLE=1 cargo test --release -p lean-poker-bots \
             preflop_table`: do not edit.\n//! `EQUITY[n - 1][class]`: the equity of `class` \
             (see `preflop.rs`) against `n` random\n//! hands, in hundredths of a percent.\n"
        );
        let _ = writeln!(
            out,
            "pub(super) static EQUITY: [[u16; super::CLASSES]; super::MAX_OPPONENTS] = ["
        );
        for opponents in 1..=MAX_OPPONENTS {
            let _ = writeln!(out, "    [");
            for row in 0..13 {
                let entries: Vec<String> = (0..13)
                    .map(|column| generate_entry(row * 13 + column, opponents).to_string())
                    .collect();
                let _ = writeln!(out, "        {},", entries.join(", "));
            }
            let _ = writeln!(out, "    ],");
        }
        let _ = writeln!(out, "];");
        out
    }

    #[test]
    fn preflop_table_matches_its_generator() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/preflop_table.rs");
        if std::env::var_os("UPDATE_PREFLOP_TABLE").is_some() {
            std::fs::write(path, generate()).unwrap();
            return;
        }
        // A sample of every opponent count, every seventh class (the whole table takes
        // seconds; the generator is deterministic, so any entry can be checked).
        for opponents in 1..=MAX_OPPONENTS {
            for class in (opponents % 7..CLASSES).step_by(7) {
                assert_eq!(
                    table::EQUITY[opponents - 1][class],
                    generate_entry(class, opponents),
                    "{} against {opponents}",
                    class_name(class)
                );
            }
        }
    }

    #[test]
    fn classes_cover_every_starting_hand_once() {
        let deck: Vec<Card> = Card::deck().collect();
        let mut count = [0u32; CLASSES];
        for (i, &a) in deck.iter().enumerate() {
            for &b in &deck[i + 1..] {
                count[class_of(a, b)] += 1;
                assert_eq!(class_of(a, b), class_of(b, a));
            }
        }
        for (class, &count) in count.iter().enumerate() {
            assert_eq!(count, combos(class), "{}", class_name(class));
            let [a, b] = class_cards(class);
            assert_eq!(class_of(a, b), class, "{}", class_name(class));
        }
        assert_eq!(
            class_name(class_of(class_cards(168)[0], class_cards(168)[1])),
            "AA"
        );
    }

    #[test]
    fn equity_orders_the_well_known_hands() {
        let hand = |text: &str| {
            let cards = player::shared::card::parse_cards(text).unwrap();
            (cards[0], cards[1])
        };
        let (aa, kk, aks, ako, t9s, seven_deuce) = (
            hand("Ah Ad"),
            hand("Kc Kd"),
            hand("Ah Kh"),
            hand("Ah Kd"),
            hand("Th 9h"),
            hand("7c 2d"),
        );
        let heads_up = |(a, b): (Card, Card)| equity(a, b, 1);
        assert!(heads_up(aa) > heads_up(kk) && heads_up(kk) > heads_up(aks));
        assert!(heads_up(aks) > heads_up(ako) && heads_up(ako) > heads_up(t9s));
        assert!(heads_up(t9s) > heads_up(seven_deuce));
        // Against more opponents every hand's share falls.
        for opponents in 1..MAX_OPPONENTS {
            assert!(equity(aa.0, aa.1, opponents + 1) < equity(aa.0, aa.1, opponents));
        }
        assert_eq!(percentile(aa.0, aa.1), 0.0);
        assert!(percentile(seven_deuce.0, seven_deuce.1) > 0.9);
        assert!((0.02..0.05).contains(&percentile(aks.0, aks.1)));
    }
}
