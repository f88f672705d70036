//! [`ShoverBot`]: the first bot many teams deploy.

use crate::spot::Spot;
use player::shared::eval::strength_of;
use player::{Chips, GameState, Player, Street};

/// All-in or nothing, the way many teams' first deployed bots play:
///
/// - **preflop**: all-in with the best quarter of hands by heads-up equity (medium pairs and
///   up, most aces, two broadway cards), else check or fold;
/// - **after the flop**: all-in when its hand with the board is two pair or better and beats
///   the board alone (no equity estimate: one evaluation), else check or fold.
#[derive(Debug, Clone, Copy, Default)]
pub struct ShoverBot;

impl Player for ShoverBot {
    fn bet_request(&self, state: &GameState) -> Chips {
        let Some(spot) = Spot::read(state) else {
            return Chips::ZERO;
        };
        let all_in = match spot.street {
            Street::Preflop => spot.percentile() < 0.25,
            _ => made_hand(&spot),
        };
        if all_in {
            spot.shove()
        } else {
            Chips::ZERO
        }
    }

    fn version(&self) -> String {
        "shover 1".to_string()
    }
}

/// Two pair or better, and better than what the board makes on its own.
fn made_hand(spot: &Spot) -> bool {
    let board = &spot.state.community_cards;
    let mut cards = board.clone();
    cards.extend(spot.cards);
    let Ok(mine) = strength_of(&cards) else {
        return false;
    };
    let two_pair = mine.category() >= player::shared::eval::Category::TwoPair;
    let board_alone = if board.len() >= 5 {
        strength_of(board).ok()
    } else {
        None
    };
    two_pair && board_alone.is_none_or(|alone| mine > alone)
}
