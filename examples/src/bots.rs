//! The example bots, simplest first. Every answer they give is a legal, meaningful bet (see
//! [`player::testing::check_bet`]): they use the [`GameState`] helpers instead of arithmetic.

use player::{Chips, GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Mutex;

/// Calls everything, never raises: the classic "calling station".
#[derive(Debug, Clone, Copy, Default)]
pub struct CallingStation;

impl Player for CallingStation {
    fn bet_request(&self, state: &GameState) -> Chips {
        // What it costs to stay in (the whole stack if that is less: then it is an all-in).
        state.call_amount()
    }

    fn version(&self) -> String {
        "calling station 1".to_string()
    }
}

/// Checks when it is free, folds otherwise: what every official template starts as.
#[derive(Debug, Clone, Copy, Default)]
pub struct Folder;

impl Player for Folder {
    fn bet_request(&self, _state: &GameState) -> Chips {
        // 0 is a check when nothing is owed and a fold otherwise.
        Chips::ZERO
    }

    fn version(&self) -> String {
        "folder 1".to_string()
    }
}

/// Makes the smallest legal raise every time: annoying, and easy to exploit.
#[derive(Debug, Clone, Copy, Default)]
pub struct Raiser;

impl Player for Raiser {
    fn bet_request(&self, state: &GameState) -> Chips {
        // Call plus minimum_raise, or the whole stack when that is all there is.
        state.minimum_raise_amount()
    }

    fn version(&self) -> String {
        "raiser 1".to_string()
    }
}

/// Pushes every chip in, every time: the maniac.
#[derive(Debug, Clone, Copy, Default)]
pub struct AllIn;

impl Player for AllIn {
    fn bet_request(&self, state: &GameState) -> Chips {
        // Exactly the stack: a bigger number would also read as all-in, but says less.
        state.all_in_amount()
    }

    fn version(&self) -> String {
        "all-in 1".to_string()
    }
}

/// Picks a random legal move: fold (or check), call, minimum raise, pot-sized raise, all-in.
///
/// Seedable, so a game with random bots can be replayed. The random generator is behind a
/// `Mutex` because one bot answers requests from several threads (see the `player` crate docs
/// on learning state).
#[derive(Debug)]
pub struct RandomBot {
    rng: Mutex<ChaCha8Rng>,
}

impl RandomBot {
    /// A bot whose choices follow from `seed`.
    pub fn with_seed(seed: u64) -> RandomBot {
        RandomBot {
            rng: Mutex::new(ChaCha8Rng::seed_from_u64(seed)),
        }
    }
}

impl Default for RandomBot {
    /// Seed 0.
    fn default() -> Self {
        RandomBot::with_seed(0)
    }
}

impl Player for RandomBot {
    fn bet_request(&self, state: &GameState) -> Chips {
        // A poisoned lock only means another call panicked: the generator is still fine.
        let roll: u32 = {
            let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
            rng.random_range(0..100)
        };
        match roll {
            0..=24 => Chips::ZERO,
            25..=64 => state.call_amount(),
            65..=84 => state.minimum_raise_amount(),
            85..=94 => {
                // Raise to the current bet plus the pot, at least a minimum raise.
                let pot_raise = state.raise_to_amount(state.current_buy_in + state.pot);
                pot_raise
                    .max(state.minimum_raise_amount())
                    .min(state.all_in_amount())
            }
            _ => state.all_in_amount(),
        }
    }

    fn version(&self) -> String {
        "random 1".to_string()
    }
}

/// The kinds [`by_name`] knows, in order of sophistication.
pub const KINDS: &[&str] = &["folder", "calling-station", "raiser", "all-in", "random"];

/// The bot of a kind (see [`KINDS`]), as the dealer's in-process house bots want it.
///
/// ```
/// let bot = examples::bots::by_name("calling-station").unwrap();
/// assert_eq!(bot.version(), "calling station 1");
/// assert!(examples::bots::by_name("nope").is_none());
/// ```
pub fn by_name(kind: &str) -> Option<Box<dyn Player>> {
    Some(match kind {
        "folder" => Box::new(Folder),
        "calling-station" => Box::new(CallingStation),
        "raiser" => Box::new(Raiser),
        "all-in" => Box::new(AllIn),
        "random" => Box::new(RandomBot::default()),
        _ => return None,
    })
}
