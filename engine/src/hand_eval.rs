//! The one place the engine asks "how strong is this hand?", over [`shared::eval`].
//!
//! The engine needs a totally ordered strength for a player's seven cards (ties share the
//! pot) with its category, and for reveals the five cards it plays. The board is folded
//! once per showdown, so each player costs two card additions and one lookup.

use shared::eval::{HandKey, HandStrength};
use shared::Card;

/// How strong a seven-card hand is: `a > b` exactly when `a` wins, `a == b` when they split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Strength(HandStrength);

impl Strength {
    /// The evaluator's strength, for events and observers.
    pub(crate) fn hand_strength(self) -> HandStrength {
        self.0
    }
}

/// Folds the board once so each player's hand costs two more cards.
#[derive(Clone, Copy)]
pub(crate) struct BoardEvaluator(HandKey);

impl BoardEvaluator {
    /// Prepares the board (the engine only evaluates complete five-card boards).
    pub(crate) fn new(board: &[Card]) -> BoardEvaluator {
        BoardEvaluator(board.iter().fold(HandKey::EMPTY, |key, &card| key + card))
    }

    /// The strength of `hole` with the board; `None` when that is not five to seven cards
    /// (a dealt hand on a complete board always is).
    pub(crate) fn strength(&self, hole: &[Card]) -> Option<Strength> {
        let key = hole.iter().fold(self.0, |key, &card| key + card);
        key.strength().ok().map(Strength)
    }

    /// The strength of `hole` with the board and the five cards it plays (for a reveal),
    /// from one lookup; `None` when that is not five to seven cards (a dealt hand on a
    /// complete board always is).
    pub(crate) fn made_hand(&self, hole: &[Card]) -> Option<MadeHand> {
        let key = hole.iter().fold(self.0, |key, &card| key + card);
        key.hand().ok().map(|hand| MadeHand {
            strength: Strength(hand.strength()),
            best_five: hand.best_five(),
        })
    }
}

/// A player's hand on a complete board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MadeHand {
    /// How strong it is.
    pub strength: Strength,
    /// The five cards that make it (see [`shared::eval::Hand::best_five`]).
    pub best_five: [Card; 5],
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::card::parse_cards;
    use shared::eval::Category;

    fn strength(hole: &str, board: &str) -> Strength {
        let board = parse_cards(board).unwrap();
        BoardEvaluator::new(&board)
            .made_hand(&parse_cards(hole).unwrap())
            .unwrap()
            .strength
    }

    #[test]
    fn orders_hands_and_names_categories() {
        let board = "9h 8s 2c 4c 3d";
        // Capture 15: A-J high beats Q-J high on this board.
        let ace_high = strength("Js Ac", board);
        let queen_high = strength("Jh Qh", board);
        assert!(ace_high > queen_high);
        assert_eq!(ace_high.hand_strength().category(), Category::HighCard);
        assert_eq!(ace_high.hand_strength().description(), "high card ace");
        let straight = strength("5h 6h", board);
        assert_eq!(straight.hand_strength().category(), Category::Straight);
        assert!(straight > ace_high);
        // The board plays for both: a split.
        assert_eq!(
            strength("2h 3h", "As Ks Qs Js 10s"),
            strength("4d 5d", "As Ks Qs Js 10s")
        );
        // The best five come from the folded board as from a fresh evaluation.
        let board_cards = parse_cards("9h 8s 2c 4c 3d").unwrap();
        let hole = parse_cards("5h 6h").unwrap();
        let seven: Vec<Card> = hole.iter().chain(&board_cards).copied().collect();
        let made = BoardEvaluator::new(&board_cards).made_hand(&hole).unwrap();
        assert_eq!(
            made.best_five,
            shared::eval::evaluate(&seven).unwrap().best_five()
        );
        assert_eq!(made.strength, strength("5h 6h", "9h 8s 2c 4c 3d"));
        // Four cards are not a hand.
        let board = parse_cards("As Ks Qs").unwrap();
        assert_eq!(
            BoardEvaluator::new(&board).made_hand(&parse_cards("2d").unwrap()),
            None
        );
    }
}
