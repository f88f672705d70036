//! What `cargo arena` prints: the table of entrants, your points, your answers' problems, and
//! the verdict against the last run.

use crate::{
    ArenaReport, Comparison, Finishes, HandReport, Interval, Judgement, Verdict, EXAMPLES_KEPT,
    MAX_SUGGESTED_GAMES,
};

pub(super) fn report(report: &ArenaReport, threads: Option<usize>) {
    let kinds: Vec<&str> = report.entrants[1..]
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    println!("you ({}) against {}", report.version, kinds.join(", "));
    let kind = if report.key.duplicate {
        format!(
            "{} deal sets × {} rotations, duplicate deals",
            report.deal_sets, report.rotations
        )
    } else {
        "plain games".to_string()
    };
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    println!(
        "{} games ({kind}), seed {}, {} hands, played in {:.1} s on {threads} threads",
        report.games, report.key.seed, report.hands, report.play_seconds
    );
    println!();
    let seats = report.entrants.len();
    let mut header = format!("{:<18}{:>7}", "", "points");
    for place in 1..=seats {
        header.push_str(&format!("{:>6}", ordinal(place)));
    }
    header.push_str(&format!(
        "{:>17}{:>24}{:>12}",
        "rating", "chips/100 hands (95%)", "µs/decision"
    ));
    println!("{header}");
    for entrant in &report.entrants {
        let mut line = format!("{:<18}{:>7}", entrant.name, entrant.points);
        for count in &entrant.places {
            line.push_str(&format!("{count:>6}"));
        }
        line.push_str(&format!(
            "{:>17}{:>24}{:>12.0}",
            format!(
                "{:.1} ± {:.1}",
                entrant.rating.rating, entrant.rating.uncertainty
            ),
            interval(&entrant.chips_per_100, 1),
            entrant.micros_per_decision()
        ));
        println!("{line}");
    }
    println!();
    println!(
        "your points per game: {} with the luck of the cards taken out ({} raw)",
        level(&report.your_points.adjusted),
        level(&report.your_points.raw)
    );
    println!(
        "your answers: {}; read differently by a dealer than they say: {}",
        report.answers, report.misread_answers
    );
    hands(&report.misread_examples, report.misread_answers);
    println!(
        "calls that panicked or overran the time budget (the SDK answers 0 for them): {}",
        report.failed_calls
    );
    hands(&report.failed_call_examples, report.failed_calls);
}

/// The examples kept of `count` problems, then how many more there were.
fn hands(examples: &[HandReport], count: u64) {
    for example in examples {
        hand(example);
    }
    if count > EXAMPLES_KEPT as u64 {
        println!("  ... and {} more", count - EXAMPLES_KEPT as u64);
    }
}

fn hand(example: &HandReport) {
    let answer = example
        .answer
        .map_or_else(String::new, |answer| format!(", answered {answer}"));
    println!(
        "  game {} (id {}), hand {}{answer}: {}",
        example.game, example.game_id, example.round, example.what
    );
    match serde_json::to_string(&example.state) {
        Ok(state) => println!("    state: {state}"),
        Err(error) => println!("    state: (cannot be shown: {error})"),
    }
}

/// The verdict; `saved` says whether this run is remembered for the next one.
pub(super) fn comparison(comparison: &Comparison, saved: bool) {
    println!();
    match comparison {
        Comparison::FirstRun if saved => println!(
            "verdict: first run of these options; the next run of this command is compared with it"
        ),
        Comparison::FirstRun => println!("verdict: first run of these options"),
        Comparison::SameAsLast { deal_sets } => println!(
            "verdict: the same as the last run (identical results on the {deal_sets} deal sets both played); edit the strategy and run again"
        ),
        Comparison::LastRun {
            judgement,
            games,
            version,
        } => {
            print!("verdict against the last run ({version}, {games} games)");
            judged(judgement.as_ref());
        }
        Comparison::Baseline {
            judgement,
            games,
            version,
            same_as_last_on,
        } => {
            println!(
                "this run plays as the last run did (identical on the {same_as_last_on} deal sets both played)"
            );
            print!("verdict against the run before it ({version}, {games} games)");
            judged(judgement.as_ref());
        }
    }
}

fn judged(judgement: Option<&Judgement>) {
    let Some(judgement) = judgement else {
        println!(": too few deal sets in common to compare (play more games)");
        return;
    };
    println!(
        ", on the {} deal sets both played, paired:",
        judgement.deal_sets
    );
    let adjusted = interval(&judgement.adjusted, 3);
    let raw = interval(&judgement.raw, 3);
    let figures = format!(
        "{adjusted} points a game with the luck of the cards taken out ({raw} raw; luck weighed {:.2}, fitted on the other deal sets)",
        judgement.luck_coefficient
    );
    match judgement.verdict {
        Verdict::Better => println!("  BETTER: {figures}"),
        Verdict::Worse => println!("  WORSE: {figures}"),
        Verdict::Identical => println!(
            "  no difference: identical results on all {} deal sets",
            judgement.deal_sets
        ),
        Verdict::CantTellYet => {
            println!("  can't tell yet: {figures}");
            match judgement.games_to_tell.adjusted {
                Some(games) => {
                    let games = games.max((judgement.deal_sets as u64 + 1) * judgement.rotations as u64);
                    println!(
                        "  about {games} games with each version would tell: run the last version and this one with --games {games}"
                    );
                }
                None => println!(
                    "  the difference is too small to measure with fewer than {MAX_SUGGESTED_GAMES} games per version"
                ),
            }
        }
    }
    if judgement.verdict == Verdict::Identical {
        return;
    }
    let raw_verdict = judgement.raw_verdict();
    if raw_verdict != judgement.verdict {
        println!(
            "  The two measures differ: the raw points alone say {}; the verdict is the luck-adjusted one, chosen before the run (picking the measure after seeing both would bias it).",
            verdict_words(raw_verdict)
        );
    }
    println!(
        "  finishes (1st / 2nd / no points): {} before, {} now",
        finishes(&judgement.other_finishes),
        finishes(&judgement.finishes)
    );
    println!(
        "  chips per 100 hands: {} (unpaired)",
        interval(&judgement.chips_per_100, 1)
    );
    if judgement.chips_and_points_disagree {
        let (points, chips) = if judgement.adjusted.mean > 0.0 {
            ("more", "fewer")
        } else {
            ("fewer", "more")
        };
        println!(
            "  Chips and points disagree: this version scores {points} points but wins {chips} chips per 100 hands, and the event ranks by points."
        );
    }
}

fn verdict_words(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Better => "BETTER",
        Verdict::Worse => "WORSE",
        Verdict::CantTellYet => "\"can't tell yet\"",
        Verdict::Identical => "\"no difference\"",
    }
}

fn finishes(finishes: &Finishes) -> String {
    format!(
        "{} / {} / {}",
        finishes.first, finishes.second, finishes.rest
    )
}

fn interval(interval: &Interval, decimals: usize) -> String {
    if interval.half_width.is_finite() {
        format!(
            "{:+.decimals$} ± {:.decimals$}",
            interval.mean, interval.half_width
        )
    } else {
        format!("{:+.decimals$} ± ?", interval.mean)
    }
}

/// A mean (not a difference) with its interval.
fn level(interval: &Interval) -> String {
    if interval.half_width.is_finite() {
        format!("{:.3} ± {:.3}", interval.mean, interval.half_width)
    } else {
        format!("{:.3} ± ?", interval.mean)
    }
}

fn ordinal(place: usize) -> String {
    let suffix = match place {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}
