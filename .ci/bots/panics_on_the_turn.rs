use player::{Chips, GameState, Player, Street};

pub const VERSION: &str = "panics on the turn";

/// Calls, but has a bug on the turn: the SDK answers 0 there.
#[derive(Default)]
pub struct Bot {
    calls: std::sync::atomic::AtomicU64,
}

impl Player for Bot {
    fn bet_request(&self, state: &GameState) -> Chips {
        self.calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if state.street() == Some(Street::Turn) {
            panic!("not written yet: the turn");
        }
        state.call_amount()
    }

    fn version(&self) -> String {
        VERSION.to_string()
    }
}
