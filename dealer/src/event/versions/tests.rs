use super::*;

fn figures(version: &str, last_game: u32, adjusted: &[f64], raw: &[f64]) -> VersionFigures {
    let raw_summary = Summary::of(raw);
    let adjusted_summary = Summary::of(adjusted);
    VersionFigures {
        version: version.into(),
        deploy: 0,
        label: version.into(),
        games: raw_summary.count,
        first_game: last_game.saturating_sub(raw_summary.count as u32) + 1,
        last_game,
        wins: 0,
        bans: 0,
        points: Interval::of_summary(&raw_summary),
        adjusted: Some(Interval::of_summary(&adjusted_summary)),
        adjusted_games: adjusted_summary.count,
        counted_raw: 0,
        waiting: 0,
        luck: 0.0,
        luck_coefficient: 1.0,
        raw_summary,
        adjusted_summary,
    }
}

/// `n` values spread around `mean` (±1, ±2 in turn).
fn around(mean: f64, n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| mean + [1.0, -1.0, 2.0, -2.0][i % 4])
        .collect()
}

#[test]
fn the_newest_version_is_judged_on_the_adjusted_points_in_the_arenas_words() {
    let old = figures("v6", 100, &around(1.0, 112), &around(1.0, 112));
    let new = figures("v7", 200, &around(1.6, 40), &around(1.1, 40));
    let team = TeamVersions::new(3, "team".into(), vec![old.clone(), new.clone()]);
    assert_eq!(team.versions[0].version, "v7");
    let c = team.comparison.unwrap();
    assert_eq!(c.verdict, VersionVerdict::Better);
    assert_eq!(c.raw_verdict, VersionVerdict::CantTellYet);
    assert!((c.adjusted.mean - 0.6).abs() < 1e-9);
    assert_eq!(c.games, [40, 112]);
    assert!(
        c.summary.starts_with("v7 against v6: BETTER, +0.60 ± 0."),
        "{}",
        c.summary
    );
    // The raw points cannot tell yet: said, with the games they would need; the adjusted
    // measure, decided, has none.
    assert!(c.measures_disagree);
    assert_eq!(c.games_to_tell.adjusted, None);
    assert!(
        c.summary.contains(
            "points a game with the luck of the cards taken out; 40 and 112 games. \
             The raw points alone cannot tell yet (+0.10 ± "
        ) && c
            .summary
            .ends_with("): the luck of the cards hides what taking it out shows (BETTER)"),
        "{}",
        c.summary
    );
    // With more games of the previous version the raw points could tell: how many is said.
    let long = figures("v6", 100, &around(1.0, 4000), &around(1.0, 4000));
    let c = compare(&new, &long).unwrap();
    let raw_games = c.games_to_tell.raw.unwrap();
    assert!(
        c.summary
            .contains(&format!("; they would need about {raw_games} games of v7)")),
        "{}",
        c.summary
    );
    let worse = compare(&old, &new).unwrap();
    assert_eq!(worse.verdict, VersionVerdict::Worse);
}

#[test]
fn raw_points_that_decide_alone_are_said_and_have_no_games_to_tell() {
    // The folder → template: raw BETTER, adjusted undecided.
    let old = figures("fold only", 48, &around(0.9, 48), &around(0.6, 48));
    let new = figures("template", 648, &around(1.0, 600), &around(1.1, 600));
    let c = compare(&new, &old).unwrap();
    assert_eq!(
        (c.verdict, c.raw_verdict),
        (VersionVerdict::CantTellYet, VersionVerdict::Better)
    );
    assert!(c.measures_disagree);
    assert_eq!(c.games_to_tell.raw, None, "{c:?}");
    assert!(
        c.summary.contains(
            ". The raw points alone already say BETTER (+0.50 ± 0.48 over 600 and 48 games), \
             but part of that may be the cards': with their luck taken out it cannot be told yet"
        ),
        "{}",
        c.summary
    );
    // Both undecided, or both decided alike: nothing to add.
    let same = compare(&new, &figures("v", 48, &around(1.0, 48), &around(1.1, 48))).unwrap();
    assert!(!same.measures_disagree);
    assert!(!same.summary.contains("raw points"), "{}", same.summary);
}

#[test]
fn a_redeploy_that_keeps_its_string_is_named_by_its_first_game() {
    let mut first = figures(
        "Default Rust player",
        46,
        &around(0.9, 46),
        &around(0.9, 46),
    );
    first.deploy = 0;
    let mut second = figures(
        "Default Rust player",
        300,
        &around(1.0, 254),
        &around(1.0, 254),
    );
    second.deploy = 1;
    let team = TeamVersions::new(1, "t".into(), vec![first, second]);
    assert_eq!(team.versions[0].label, "Default Rust player, since game 47");
    assert_eq!(team.versions[1].label, "Default Rust player");
    let c = team.comparison.unwrap();
    assert!(
        c.summary
            .starts_with("Default Rust player, since game 47 against Default Rust player: "),
        "{}",
        c.summary
    );
}

#[test]
fn an_undecided_comparison_says_how_many_games_would_tell() {
    let old = figures("v1", 100, &around(1.0, 400), &around(1.0, 400));
    let new = figures("v2", 200, &around(1.3, 12), &around(1.3, 12));
    let c = compare(&new, &old).unwrap();
    assert_eq!(c.verdict, VersionVerdict::CantTellYet);
    let games = c.games_to_tell.adjusted.unwrap();
    assert!(games > 12, "{c:?}");
    assert!(
        c.summary.contains(&format!(
            "about {games} games of v2 would tell ({} more)",
            games - 12
        )),
        "{}",
        c.summary
    );
    // The previous version's 12 games alone cannot tell 0.3 in a spread of 1.6.
    let few = figures("v1", 100, &around(1.0, 12), &around(1.0, 12));
    let c = compare(&new, &few).unwrap();
    assert_eq!(c.games_to_tell.adjusted, None);
    assert!(
        c.summary.contains("v1's 12 games are too few"),
        "{}",
        c.summary
    );
}

#[test]
fn no_verdict_before_ten_games_of_each() {
    // Nine games that all scored 0 against a version that scored well: an interval with no
    // spread on one side, which Welch reads as sure.
    let old = figures("v1", 100, &around(1.5, 100), &around(1.5, 100));
    let zeros = figures("v2", 109, &[0.0; 9], &[0.0; 9]);
    let c = compare(&zeros, &old).unwrap();
    assert!(c.adjusted.high() < 0.0 && c.raw.high() < 0.0, "{c:?}");
    assert_eq!(
        (c.verdict, c.raw_verdict),
        (VersionVerdict::CantTellYet, VersionVerdict::CantTellYet)
    );
    assert!(
        c.summary
            .ends_with("; 9 and 100 games; a verdict waits for 10 games of each"),
        "{}",
        c.summary
    );
    let ten = figures("v2", 110, &[0.0; 10], &[0.0; 10]);
    assert_eq!(compare(&ten, &old).unwrap().verdict, VersionVerdict::Worse);
}

#[test]
fn opposite_measures_are_said() {
    let old = figures("a", 1, &around(1.0, 400), &around(2.0, 400));
    let new = figures("b", 2, &around(1.5, 400), &around(1.0, 400));
    let c = compare(&new, &old).unwrap();
    assert!(c.measures_disagree);
    assert!(
        c.summary.contains("The raw points say the opposite (WORSE"),
        "{}",
        c.summary
    );
}

#[test]
fn one_version_or_nothing_valued_has_no_comparison() {
    let only = figures("v1", 1, &around(1.0, 10), &around(1.0, 10));
    assert!(TeamVersions::new(1, "t".into(), vec![only.clone()])
        .comparison
        .is_none());
    let mut waiting = figures("v2", 2, &[], &around(1.0, 3));
    waiting.adjusted = None;
    assert!(compare(&waiting, &only).is_none());
}
