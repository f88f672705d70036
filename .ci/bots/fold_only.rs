use player::{Chips, GameState, Player};

pub const VERSION: &str = "fold only";

#[derive(Default)]
pub struct Bot;

impl Player for Bot {
    fn bet_request(&self, _state: &GameState) -> Chips {
        Chips::ZERO
    }

    fn version(&self) -> String {
        VERSION.to_string()
    }
}
