use player::{Chips, GameState, Player};

pub const VERSION: &str = "all in";

#[derive(Default)]
pub struct Bot;

impl Player for Bot {
    fn bet_request(&self, state: &GameState) -> Chips {
        state.all_in_amount()
    }

    fn version(&self) -> String {
        VERSION.to_string()
    }
}
