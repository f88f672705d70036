//! Ratings rate what the event scores: a bot that folds everything cannot out-rate the bots
//! that win.

use arena::Arena;
use bots::{BotKind, Folder};

/// The fold-only bot against the default field (a table that plays like an event's): it never
/// wins and often outlasts the bots that bust each other, which a rating on the full finishing
/// order rewarded (such a bot was rated third of nine at a table where it scored eighth). Rated
/// as the event scores (first, second, the rest tied), every bot that clearly out-scores it is
/// rated above it.
#[test]
fn a_fold_only_bot_is_rated_below_the_bots_that_outscore_it() {
    let report = Arena::new(BotKind::FIELD.to_vec())
        .games(120)
        .run(&Folder)
        .unwrap();
    let folder = report.you();
    assert_eq!(folder.places[0], 0, "a folder never wins");
    let mut outscored_by = 0;
    for other in &report.entrants[1..] {
        // A fifth more points: beyond what 120 games leave to chance between these bots.
        if other.points as f64 >= 1.2 * folder.points as f64 {
            outscored_by += 1;
            assert!(
                other.rating.rating > folder.rating.rating,
                "{} ({} points, rated {:.1}) against the folder ({} points, rated {:.1})",
                other.name,
                other.points,
                other.rating.rating,
                folder.points,
                folder.rating.rating
            );
        }
    }
    assert!(
        outscored_by >= 2,
        "{outscored_by} bots clearly out-scored the folder"
    );
}
