//! The plan of a run: every game's number, seed and seating, and the run's tournament id,
//! all drawn from the run seed (see the [module docs](super)).

use super::DealRef;
use crate::engine::object_id;
use rand::seq::SliceRandom;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One game of the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedGame {
    /// 1-based.
    pub number: u32,
    /// The game's seed.
    pub seed: u64,
    /// Entrant indexes in seat order.
    pub seating: Vec<usize>,
    /// Its deal set and rotation (duplicate mode only).
    pub deal: Option<DealRef>,
    /// The game id, when it is not the one the engine derives from the seed (the rotations
    /// after the first of a deal set share the seed).
    pub game_id: Option<String>,
}

/// The plan of a run: seeds and seatings (see the [module docs](super)).
pub fn plan(seed: u64, games: u32, entrants: usize) -> Vec<PlannedGame> {
    let mut seeds = ChaCha8Rng::seed_from_u64(seed);
    (1..=games)
        .map(|number| {
            let game_seed = seeds.next_u64();
            let mut shuffle = ChaCha8Rng::seed_from_u64(game_seed);
            shuffle.set_stream(3);
            let mut seating: Vec<usize> = (0..entrants).collect();
            seating.shuffle(&mut shuffle);
            PlannedGame {
                number,
                seed: game_seed,
                seating,
                deal: None,
                game_id: None,
            }
        })
        .collect()
}

/// The run's tournament id (see the [module docs](super)).
pub fn tournament_id(seed: u64) -> String {
    let mut ids = ChaCha8Rng::seed_from_u64(seed);
    ids.set_stream(1);
    object_id(&mut ids)
}
