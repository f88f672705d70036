//! A comparison of two versions in words: the verdict, and what the raw points say whenever
//! they decide otherwise.

use super::*;

/// "v7 against v6: BETTER, +0.42 ± 0.30 points a game with the luck of the cards taken out;
/// 38 and 112 games", and for "can't tell yet", about how many games would tell; then what the
/// raw points say whenever they decide otherwise.
pub(super) fn summary(
    c: &VersionComparison,
    newest: &VersionFigures,
    previous: &VersionFigures,
) -> String {
    let mut text = format!(
        "{} against {}: {}, {} points a game with the luck of the cards taken out; {} and {} games",
        c.newest,
        c.previous,
        c.verdict.word(),
        signed_interval(&c.adjusted),
        c.games[0],
        c.games[1],
    );
    if c.games[0].min(c.games[1]) < MIN_GAMES_FOR_VERDICT {
        text.push_str(&format!(
            "; a verdict waits for {MIN_GAMES_FOR_VERDICT} games of each"
        ));
    } else if c.verdict == VersionVerdict::CantTellYet {
        match c.games_to_tell.adjusted {
            Some(games) if games > c.games[0] => text.push_str(&format!(
                "; about {games} games of {} would tell ({} more)",
                c.newest,
                games - c.games[0]
            )),
            Some(_) => text.push_str("; a few more games would tell"),
            None if c.adjusted.mean != 0.0
                && current_samples_to_tell(0.0, &previous.adjusted_summary, c.adjusted.mean, f64::MAX)
                    .is_none() =>
            {
                text.push_str(&format!(
                    "; {}'s {} games are too few to tell a difference this small, however long {} plays",
                    c.previous, c.games[1], c.newest
                ));
            }
            None => text.push_str(&format!(
                "; the difference is too small to measure with fewer than {MAX_SUGGESTED_GAMES} games"
            )),
        }
    }
    let waiting = newest.waiting + previous.waiting;
    if waiting > 0 {
        text.push_str(&format!(" ({waiting} more still being valued)"));
    }
    text.push_str(&measures_note(c));
    text
}

/// What the raw points say when they decide otherwise than the adjusted ones, in words; empty
/// when both say the same.
fn measures_note(c: &VersionComparison) -> String {
    use VersionVerdict::{Better, CantTellYet, Worse};
    let raw = signed_interval(&c.raw);
    match (c.verdict, c.raw_verdict) {
        (a, b) if a == b => String::new(),
        (Better, Worse) | (Worse, Better) => format!(
            ". The raw points say the opposite ({} {raw}): the luck of the cards decided them",
            c.raw_verdict.word()
        ),
        (CantTellYet, decided) => format!(
            ". The raw points alone already say {} ({raw} over {} and {} games), but part of that \
             may be the cards': with their luck taken out it cannot be told yet",
            decided.word(),
            c.raw_games[0],
            c.raw_games[1]
        ),
        (decided, _) => {
            let more = match c.games_to_tell.raw {
                Some(games) if games > c.raw_games[0] => {
                    format!("; they would need about {games} games of {}", c.newest)
                }
                _ => String::new(),
            };
            format!(
                ". The raw points alone cannot tell yet ({raw}{more}): the luck of the cards hides \
                 what taking it out shows ({})",
                decided.word()
            )
        }
    }
}

/// "+0.42 ± 0.30", or "+0.42 ± ?" when the spread is unknown.
fn signed_interval(interval: &Interval) -> String {
    if interval.half_width.is_finite() {
        format!("{:+.2} ± {:.2}", interval.mean, interval.half_width)
    } else {
        format!("{:+.2} ± ?", interval.mean)
    }
}
