//! The one place the engine asks "how strong is this hand?".
//!
//! A private adapter over `rs_poker`'s evaluator while `shared::eval` is being written on
//! another branch; switching means rewriting only this module. The engine needs three
//! things: a totally ordered strength for a player's seven cards (ties share the pot), the
//! hand's category, and a plain-English description for reveals.

use crate::event::HandCategory;
use rs_poker::core::{CoreRank, Rank, SevenCardAccum};
use shared::Card;

/// How strong a seven-card hand is: `a > b` exactly when `a` wins, `a == b` when they split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Strength(Rank);

impl Strength {
    /// The kind of hand.
    pub(crate) fn category(self) -> HandCategory {
        match self.0.category() {
            CoreRank::HighCard => HandCategory::HighCard,
            CoreRank::OnePair => HandCategory::Pair,
            CoreRank::TwoPair => HandCategory::TwoPair,
            CoreRank::ThreeOfAKind => HandCategory::ThreeOfAKind,
            CoreRank::Straight => HandCategory::Straight,
            CoreRank::Flush => HandCategory::Flush,
            CoreRank::FullHouse => HandCategory::FullHouse,
            CoreRank::FourOfAKind => HandCategory::FourOfAKind,
            CoreRank::StraightFlush => HandCategory::StraightFlush,
        }
    }
}

/// Folds the board once so each player's hand costs two more cards.
#[derive(Clone, Copy)]
pub(crate) struct BoardEvaluator(SevenCardAccum);

impl BoardEvaluator {
    /// Prepares the board (the engine only evaluates complete five-card boards).
    pub(crate) fn new(board: &[Card]) -> BoardEvaluator {
        let mut accumulator = SevenCardAccum::new();
        for card in board {
            accumulator.add((*card).into());
        }
        BoardEvaluator(accumulator)
    }

    /// The strength of `hole` (two cards) with the board.
    pub(crate) fn strength(&self, hole: &[Card]) -> Strength {
        let mut accumulator = self.0;
        for card in hole {
            accumulator.add((*card).into());
        }
        Strength(accumulator.rank())
    }
}

/// A plain-English description of the hand `hole` makes with `board`.
pub(crate) fn describe(strength: Strength, _hole: &[Card], _board: &[Card]) -> String {
    strength.category().name().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::card::parse_cards;

    fn strength(hole: &str, board: &str) -> Strength {
        let board = parse_cards(board).unwrap();
        BoardEvaluator::new(&board).strength(&parse_cards(hole).unwrap())
    }

    #[test]
    fn orders_hands_and_names_categories() {
        let board = "9h 8s 2c 4c 3d";
        // Capture 15: A-J high beats Q-J high on this board.
        let ace_high = strength("Js Ac", board);
        let queen_high = strength("Jh Qh", board);
        assert!(ace_high > queen_high);
        assert_eq!(ace_high.category(), HandCategory::HighCard);
        let straight = strength("5h 6h", board);
        assert_eq!(straight.category(), HandCategory::Straight);
        assert!(straight > ace_high);
        // The board plays for both: a split.
        assert_eq!(
            strength("2h 3h", "As Ks Qs Js Ts"),
            strength("4d 5d", "As Ks Qs Js Ts")
        );
    }
}
