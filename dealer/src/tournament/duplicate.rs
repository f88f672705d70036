//! Duplicate deals: every deal set is played once per rotation of the seats, so every entrant
//! holds every seat's cards once and the luck of the cards cancels within a set.
//!
//! A deal set is what one game of a plain run is: its seed is the `d`-th draw of the run
//! seed's generator and its base seating the plain plan's shuffle (so rotation 0 of set `d` is
//! game `d` of the plain run with the same seed). Rotation `r` (0 to players - 1) seats at seat
//! `s` the entrant that rotation 0 seats at seat `s + r` (modulo the players) and plays with
//! the same seed. Everything the engine draws from the seed is per *seat*, not per player:
//! the first button (the same seat in every rotation, so positions rotate with the cards) and
//! every hand's cards, a function of the seed and the hand number with two cards per seat
//! position ([`crate::engine::deck`]). Seat `s` therefore holds the same cards in hand `h`
//! in every rotation that reaches it, whoever has busted (see `docs/decisions.md`).
//!
//! Game numbers run set by set: set `d`, rotation `r` is game `(d - 1) × players + r + 1`.
//! Rotation 0 keeps the game id the engine derives from the seed; the other rotations get
//! their own ids (stream 4 of the seed's generator, one id per rotation) so game ids stay
//! unique in the run.

use super::{plan, PlannedGame};
use crate::engine::object_id;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use super::results::DealRef;

/// The games of a duplicate run of `deal_sets` sets between `entrants` players, in game
/// order: `deal_sets × entrants` sit'n'gos. `None` when that many games do not fit a `u32`.
pub fn duplicate_plan(seed: u64, deal_sets: u32, entrants: usize) -> Option<Vec<PlannedGame>> {
    let rotations = u32::try_from(entrants).ok()?;
    deal_sets.checked_mul(rotations)?;
    let mut games = Vec::with_capacity(deal_sets as usize * entrants);
    for base in plan(seed, deal_sets, entrants) {
        let mut ids = ChaCha8Rng::seed_from_u64(base.seed);
        ids.set_stream(4);
        for rotation in 0..rotations {
            // Drawn for every rotation, so rotation r's id does not depend on the others.
            let id = object_id(&mut ids);
            let seating = (0..entrants)
                .map(|seat| base.seating[(seat + rotation as usize) % entrants])
                .collect();
            games.push(PlannedGame {
                number: (base.number - 1) * rotations + rotation + 1,
                seed: base.seed,
                seating,
                deal: Some(DealRef {
                    deal_set: base.number,
                    rotation,
                }),
                game_id: (rotation > 0).then_some(id),
            });
        }
    }
    Some(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entrant_holds_every_seat_once_per_set_with_the_sets_seed() {
        let base = plan(11, 3, 4);
        let games = duplicate_plan(11, 3, 4).unwrap();
        assert_eq!(games.len(), 12);
        for (index, game) in games.iter().enumerate() {
            assert_eq!(game.number, index as u32 + 1);
            let deal = game.deal.unwrap();
            assert_eq!(deal.deal_set, index as u32 / 4 + 1);
            assert_eq!(deal.rotation, index as u32 % 4);
            assert_eq!(game.seed, base[index / 4].seed);
        }
        for set in games.chunks(4) {
            assert_eq!(set[0].seating, base[set[0].number as usize / 4].seating);
            for seat in 0..4 {
                let mut holders: Vec<usize> = set.iter().map(|g| g.seating[seat]).collect();
                holders.sort_unstable();
                assert_eq!(holders, [0, 1, 2, 3], "seat {seat} held by everyone once");
            }
            let ids: Vec<&Option<String>> = set.iter().map(|g| &g.game_id).collect();
            assert_eq!(ids[0], &None, "rotation 0 keeps the seed's id");
            assert!(ids[1..].iter().all(|id| id.is_some()));
            assert_ne!(ids[1], ids[2]);
        }
    }

    #[test]
    fn too_many_games_is_refused() {
        assert!(duplicate_plan(1, u32::MAX, 2).is_none());
    }
}
