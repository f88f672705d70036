//! The arena's own tests (the team's "beats a calling station" goal is the last test of
//! `player/team/tests/strategy.rs`).

use super::*;
use bots::{CallingStation, Folder};

#[test]
fn bad_settings_are_refused_before_any_game() {
    let me = Folder;
    assert_eq!(
        Arena::new(Vec::<BotKind>::new()).run(&me).unwrap_err(),
        ArenaError::NoOpponents
    );
    assert_eq!(
        Arena::new(vec![BotKind::Folder])
            .games(0)
            .run(&me)
            .unwrap_err(),
        ArenaError::NoGames
    );
    assert_eq!(
        Arena::new(vec![BotKind::Folder; 10]).run(&me).unwrap_err(),
        ArenaError::TooManySeats {
            opponents: 10,
            seats: 11
        }
    );
    assert_eq!(
        Arena::new(vec![BotKind::Folder])
            .threads(0)
            .run(&me)
            .unwrap_err(),
        ArenaError::NoThreads
    );
}

#[test]
fn duplicate_runs_play_whole_sets_and_do_not_depend_on_threads() {
    let arena = Arena::new(vec![BotKind::Raiser, BotKind::Random]).games(7);
    let one = arena.clone().threads(1).run(&CallingStation).unwrap();
    let three = arena.threads(3).run(&CallingStation).unwrap();
    assert_eq!(one.games, 9);
    assert_eq!((one.deal_sets, one.rotations), (3, 3));
    assert_eq!(one.your_sets, three.your_sets);
    for (a, b) in one.entrants.iter().zip(&three.entrants) {
        assert_eq!(
            (
                &a.name,
                a.points,
                &a.places,
                a.rating,
                a.chips_per_100,
                a.hands
            ),
            (
                &b.name,
                b.points,
                &b.places,
                b.rating,
                b.chips_per_100,
                b.hands
            )
        );
        assert_eq!(a.bet_requests, b.bet_requests);
    }
    let points: u64 = one.entrants.iter().map(|e| e.points).sum();
    assert_eq!(points, 9 * 8, "5 + 3 points per game");
    for entrant in &one.entrants {
        assert_eq!(entrant.places.iter().sum::<u64>(), 9);
    }
}

#[test]
fn a_folder_does_not_beat_a_calling_station() {
    // The team's goal (player/team/tests/strategy.rs) with the folder in its place: it must
    // fail, and a calling station beats a folder.
    let report = Arena::new(vec![BotKind::CallingStation])
        .games(20)
        .run(&Folder)
        .unwrap();
    assert!(!report.outscores_the_table_with_confidence());
    assert!(!report.wins_chips_with_confidence());
    assert!(report.you().chips_per_100.mean < 0.0);
    let station = Arena::new(vec![BotKind::Folder])
        .games(20)
        .run(&CallingStation)
        .unwrap();
    assert!(station.outscores_the_table_with_confidence());
}

#[test]
fn every_seat_holds_every_entrant_once_per_set() {
    for set in plan(5, 4, 4) {
        for seat in 0..4 {
            let mut holders: Vec<usize> = (0..4).map(|r| set.seating[(seat + r) % 4]).collect();
            holders.sort_unstable();
            assert_eq!(holders, [0, 1, 2, 3]);
        }
    }
}

#[test]
fn panics_and_misreads_are_reported_with_their_hand() {
    let clumsy = player::from_fn(|state: &GameState| {
        if state.round == Some(0) {
            panic!("round zero");
        }
        // One chip more than the call: a raise too small, read as a call.
        state.call_amount().saturating_add(Chips(1))
    });
    let report = Arena::new(vec![BotKind::CallingStation])
        .games(2)
        .run(&clumsy)
        .unwrap();
    assert!(report.failed_calls > 0);
    let failed = &report.failed_call_examples[0];
    assert_eq!(failed.round, 0);
    assert!(failed.what.contains("round zero"), "{}", failed.what);
    assert_eq!(failed.answer, Some(0));
    assert!(report.misread_answers > 0);
    assert!(report.misread_examples[0].round > 0);
    assert!(report.answers >= report.misread_answers + report.failed_calls);
}

#[test]
fn an_overrun_answers_the_fallback() {
    let slow = player::from_fn(|state: &GameState| {
        std::thread::sleep(Duration::from_millis(3));
        state.all_in_amount()
    });
    let report = Arena::new(vec![BotKind::Folder])
        .games(2)
        .time_budget(Duration::from_millis(1))
        .run(&slow)
        .unwrap();
    assert_eq!(report.failed_calls, report.answers);
    assert!(report.failed_call_examples[0]
        .what
        .contains("over the 1 ms budget"));
    assert_eq!(report.failed_call_examples[0].answer, Some(0));
}

/// The luck of your seat in a few seeded games, bit for bit, as the arena's own meter gave it
/// before the meter moved to the engine (`engine::luck`, shared with the event server): the
/// move changed no figure.
#[test]
fn the_luck_figures_are_the_ones_the_arena_always_gave() {
    let arena = Arena::new(vec![BotKind::Equity, BotKind::Random, BotKind::Loose]);
    let mut figures = Vec::new();
    for seed in 1..=6u64 {
        let seating: Vec<usize> = (0..4).map(|seat| (seat + seed as usize) % 4).collect();
        let outcome = arena
            .play_game(&CallingStation, seed as u32, seed * 7919, &seating)
            .unwrap();
        figures.push(outcome.your_luck.to_bits());
    }
    assert_eq!(figures, PINNED_LUCK_BITS);
}

/// Computed by `player/arena/src/luck/` at commit 6c7ad22 (before the move).
const PINNED_LUCK_BITS: [u64; 6] = [
    0xc002ec63506857be,
    0xbff3a9dd1058c6b8,
    0x4009087edd422b41,
    0xc0050aac0619f324,
    0xbffaf2cf7d04835c,
    0x4000fd0142fa264e,
];
