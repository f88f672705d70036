//! The known difference behind the dealer's simulated version switch (issue 32,
//! `dealer/tests/event_versions.rs`): a team that plays a calling station, then the equity
//! bot, at the table the simulated event seats it at (itself, `tight`, `push-fold` and
//! `loose`, four seats, games cut at [`HAND_LIMIT`] hands). Measured here on duplicate deals,
//! 6,000 games each, in event points a game; the event's verdict has to agree with it.
//!
//! `cargo test -p lean-poker-arena --test arena_tests -- --ignored
//! event_switch_field --nocapture` (docs/benchmarks.md, "Event versions").

use arena::{Arena, ArenaReport, Interval};
use bots::BotKind;
use engine::rules::GameRules;

/// The simulated event's other teams, one seat each.
pub const FIELD: [BotKind; 3] = [BotKind::Tight, BotKind::PushFold, BotKind::Loose];
/// The worse version, then the better one.
pub const WORSE: BotKind = BotKind::CallingStation;
/// See [`WORSE`].
pub const BETTER: BotKind = BotKind::Equity;
/// The simulated event's `hand_limit`.
pub const HAND_LIMIT: u64 = 40;
/// Games each version plays here.
const GAMES: u32 = 6_000;

fn rules() -> GameRules {
    GameRules {
        hand_limit: Some(HAND_LIMIT),
        ..GameRules::default()
    }
}

fn per_game(report: &ArenaReport, adjusted: bool) -> Vec<f64> {
    let rotations = report.rotations as f64;
    let samples: Vec<(f64, f64)> = report
        .your_sets
        .iter()
        .map(|set| {
            (
                f64::from(set.points) / rotations,
                set.luck_total() / rotations,
            )
        })
        .collect();
    if adjusted {
        arena::stats::adjust::adjust_samples(&samples).0
    } else {
        samples.iter().map(|&(points, _)| points).collect()
    }
}

fn show(interval: &Interval) -> String {
    format!("{:+.3} ± {:.3}", interval.mean, interval.half_width)
}

#[test]
#[ignore = "12,000 games: cargo test -p lean-poker-arena --test arena_tests -- --ignored event_switch_field --nocapture"]
fn the_equity_bot_outscores_the_calling_station_at_the_simulated_events_table() {
    let arena = Arena::new(FIELD.to_vec())
        .games(GAMES)
        .seed(20_261_206)
        .rules(rules());
    let worse = arena.run(&*WORSE.build(1)).unwrap();
    let better = arena.run(&*BETTER.build(1)).unwrap();
    let mut lines = Vec::new();
    for (name, report) in [("worse", &worse), ("better", &better)] {
        lines.push(format!(
            "{name} ({}): {} games, {} points a game raw, {} luck taken out, {:.1} s",
            report.version,
            report.games,
            show(&report.your_points.raw),
            show(&report.your_points.adjusted),
            report.play_seconds
        ));
    }
    let mut differences = Vec::new();
    for adjusted in [false, true] {
        let (b, w) = (per_game(&better, adjusted), per_game(&worse, adjusted));
        let paired: Vec<f64> = b.iter().zip(&w).map(|(b, w)| b - w).collect();
        let paired = Interval::of(&paired);
        let unpaired = arena::stats::unpaired_difference(&b, &w);
        lines.push(format!(
            "better − worse, {}: {} points a game paired (same deals), {} unpaired (by deal set)",
            if adjusted { "luck taken out" } else { "raw" },
            show(&paired),
            show(&unpaired),
        ));
        differences.push(paired);
    }
    eprintln!("{}", lines.join("\n"));
    for difference in differences {
        assert!(difference.low() > 0.0, "{difference:?}");
    }
}
