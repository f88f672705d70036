//! A team switching version at a table like a real one (issue 38): the six real team bots'
//! profiles (`real-a` … `real-f`, fitted from their recorded games) as six teams, and "sam",
//! who plays `BEFORE` games of one version, is redeployed (removed and added again, as an
//! organiser does) with another, and plays `AFTER` games of it. Over many seeds, in process:
//! after how many games of the new version does the team view's verdict read right, with the
//! luck of the cards taken out and raw; and is each version's adjusted interval ever wider
//! than its raw one.
//!
//! Ignored: a measurement, not a check (minutes). The versions are house bot kinds or players
//! over HTTP (the team's template and its edits, built and started by
//! `dealer/benches/event_switch.sh`), chosen by environment variables:
//!
//! ```sh
//! EVENT_SWITCH_FROM=calling-station EVENT_SWITCH_TO=equity EVENT_SWITCH_EXPECT=better \
//!   cargo test --release -p lean-poker-dealer --test dealer_tests -- --ignored event_switch --nocapture
//! ```
//!
//! `EVENT_SWITCH_FROM` / `_TO`: a house bot kind or an `http://` address (default
//! calling-station → equity); `_EXPECT`: `better`, `worse` or `same` (an A/A: the same player
//! redeployed); `_SEEDS` (21), `_BEFORE` (40), `_AFTER` (150).

use crate::event_team_view::{adjusted_points, rows_of, GameRow};
use crate::support::wait::until_async;
use dealer::engine::stats::{unpaired_difference, Interval};
use dealer::event::players::Enrollment;
use dealer::event::settings::Contact;
use dealer::event::versions::MIN_GAMES_FOR_VERDICT;
use dealer::house::BotKind;
use std::sync::Arc;

/// The six real teams, by their profiles' kinds.
const REAL_TEAMS: [&str; 6] = ["real-a", "real-b", "real-c", "real-d", "real-e", "real-f"];

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

fn number(name: &str, default: u64) -> u64 {
    env_or(name, &default.to_string())
        .parse()
        .unwrap_or_else(|_| panic!("{name} is not a number"))
}

/// A house bot kind's name or an HTTP player's address.
fn contact(text: &str) -> Contact {
    if text.starts_with("http://") || text.starts_with("https://") {
        Contact::Http {
            url: text.to_string(),
            token: None,
        }
    } else {
        Contact::Bot(
            text.parse::<BotKind>()
                .unwrap_or_else(|error| panic!("{text}: {error}")),
        )
    }
}

/// The config line of a contact.
fn config_entry(name: &str, contact: &Contact) -> String {
    match contact {
        Contact::Bot(kind) => format!("[[bot]]\nname = \"{name}\"\nkind = \"{}\"\n", kind.name()),
        Contact::Http { url, .. } => format!("[[player]]\nname = \"{name}\"\nurl = \"{url}\"\n"),
    }
}

/// What the verdict should say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Better,
    Worse,
    Same,
}

/// The team view's verdict on a difference of versions of `games` games each (the fewer):
/// 1 better, -1 worse, 0 can't tell.
fn verdict(difference: &Interval, games: usize) -> i32 {
    if (games as u64) < MIN_GAMES_FOR_VERDICT {
        0
    } else if difference.low() > 0.0 {
        1
    } else if difference.high() < 0.0 {
        -1
    } else {
        0
    }
}

/// One measure's story over the new version's games: the first game count at which the
/// verdict read right (and the count from which it stayed right to the end), and the verdict
/// at the end.
#[derive(Debug, Default, Clone, Copy)]
struct Story {
    first: Option<usize>,
    for_good: Option<usize>,
    end: i32,
    /// Whether it ever gave a verdict (for an A/A: ever wrong).
    ever: bool,
}

fn story(verdicts: &[i32], right: i32) -> Story {
    let first = verdicts.iter().position(|&v| v == right).map(|i| i + 1);
    let end = verdicts.last().copied().unwrap_or(0);
    let for_good = (end == right).then(|| {
        verdicts
            .iter()
            .rposition(|&v| v != right)
            .map_or(1, |i| i + 2)
    });
    Story {
        first,
        for_good,
        end,
        ever: verdicts.iter().any(|&v| v != 0),
    }
}

fn median(mut values: Vec<usize>) -> usize {
    values.sort_unstable();
    values[values.len() / 2]
}

/// The adjusted interval's width over the raw one's (1 when both are 0: points that never
/// varied, and no luck taken out of them).
fn ratio((raw, adjusted): (f64, f64)) -> f64 {
    if raw == 0.0 && adjusted == 0.0 {
        1.0
    } else {
        adjusted / raw
    }
}

/// Half widths of a version's raw and adjusted intervals.
fn widths(rows: &[&GameRow]) -> (f64, f64) {
    let raw: Vec<f64> = rows.iter().map(|r| r.points).collect();
    (
        Interval::of(&raw).half_width,
        Interval::of(&adjusted_points(rows.iter().copied())).half_width,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement (minutes): see the module docs for its command and settings"]
async fn the_verdict_at_a_table_of_real_team_bots() {
    let from = contact(&env_or("EVENT_SWITCH_FROM", "calling-station"));
    let to = contact(&env_or("EVENT_SWITCH_TO", "equity"));
    let expect = match env_or("EVENT_SWITCH_EXPECT", "better").as_str() {
        "better" => Expect::Better,
        "worse" => Expect::Worse,
        "same" => Expect::Same,
        other => panic!("EVENT_SWITCH_EXPECT={other}: better, worse or same"),
    };
    let right = match expect {
        Expect::Better => 1,
        Expect::Worse => -1,
        Expect::Same => 0,
    };
    let seeds = number("EVENT_SWITCH_SEEDS", 21);
    let before = number("EVENT_SWITCH_BEFORE", 40) as usize;
    let after = number("EVENT_SWITCH_AFTER", 150) as usize;
    let mut raw_stories = Vec::new();
    let mut adjusted_stories = Vec::new();
    // Adjusted half width over raw, every version of every team of every event.
    let mut width_ratios: Vec<(String, usize, f64)> = Vec::new();
    let mut coefficients: Vec<f64> = Vec::new();
    for seed in 0..seeds {
        let dir = tempfile::tempdir().unwrap();
        let mut config = format!("seed = {}\npause_ms = 0\nrecheck_ms = 200\n", 38_000 + seed);
        config.push_str(&config_entry("sam", &from));
        for kind in REAL_TEAMS {
            config.push_str(&config_entry(&kind.replace("real", "team"), &contact(kind)));
        }
        let event = crate::support::event::open(dir.path(), &config);
        // As `dealer serve` does: players over HTTP are seated once their `check` answers.
        dealer::event::health::check_all(&event).await;
        let (handle, stop) = dealer::runner::stop_signal();
        let checks = tokio::spawn(dealer::event::health::run_health_checks(
            Arc::clone(&event),
            stop.clone(),
        ));
        let rounds = tokio::spawn(dealer::event::scheduler::run_rounds(
            Arc::clone(&event),
            stop,
        ));
        let games_of = |deploy: i64| {
            dealer::event::versions::team_versions(event.store(), 1)
                .unwrap()
                .map_or(0, |team| {
                    team.versions
                        .iter()
                        .filter(|v| v.deploy == deploy)
                        .map(|v| v.games as usize)
                        .sum()
                })
        };
        until_async("the games before the switch", || games_of(0) >= before).await;
        event.set_status(1, Enrollment::Removed).unwrap();
        assert_eq!(event.add_player("sam", to.clone()).unwrap(), 1);
        until_async("the games after the switch", || games_of(1) >= after).await;
        handle.stop();
        rounds.await.unwrap();
        checks.await.unwrap();
        dealer::event::luck::value_waiting(event.store(), &dealer::runner::StopSignal::never())
            .unwrap();

        let rows = rows_of(dir.path(), 1);
        let old: Vec<&GameRow> = rows.iter().filter(|r| r.deploy == 0).collect();
        let new: Vec<&GameRow> = rows.iter().filter(|r| r.deploy == 1).collect();
        let old_raw: Vec<f64> = old.iter().map(|r| r.points).collect();
        let old_adjusted = adjusted_points(old.iter().copied());
        let (mut raw_verdicts, mut adjusted_verdicts) = (Vec::new(), Vec::new());
        for n in 1..=new.len().min(after) {
            let prefix = &new[..n];
            let raw: Vec<f64> = prefix.iter().map(|r| r.points).collect();
            let games = n.min(old.len());
            raw_verdicts.push(verdict(&unpaired_difference(&raw, &old_raw), games));
            adjusted_verdicts.push(verdict(
                &unpaired_difference(&adjusted_points(prefix.iter().copied()), &old_adjusted),
                games,
            ));
        }
        let (raw, adjusted) = (
            story(&raw_verdicts, right),
            story(&adjusted_verdicts, right),
        );
        let (old_widths, new_widths) = (widths(&old), widths(&new));
        eprintln!(
            "seed {}: {} and {} games; right first after {:?} raw, {:?} adjusted; for good after \
             {:?} raw, {:?} adjusted; at the end {} raw, {} adjusted; half widths old {:.3} raw \
             {:.3} adjusted, new {:.3} raw {:.3} adjusted",
            38_000 + seed,
            new.len(),
            old.len(),
            raw.first,
            adjusted.first,
            raw.for_good,
            adjusted.for_good,
            raw.end,
            adjusted.end,
            old_widths.0,
            old_widths.1,
            new_widths.0,
            new_widths.1,
        );
        raw_stories.push(raw);
        adjusted_stories.push(adjusted);
        width_ratios.push(("sam before".into(), old.len(), ratio(old_widths)));
        width_ratios.push(("sam after".into(), new.len(), ratio(new_widths)));
        for id in 2..=7 {
            let team = rows_of(dir.path(), id);
            let all: Vec<&GameRow> = team.iter().collect();
            let (raw, adjusted) = widths(&all);
            width_ratios.push((
                REAL_TEAMS[id as usize - 2].into(),
                all.len(),
                adjusted / raw,
            ));
        }
        let team = dealer::event::versions::team_versions(event.store(), 1)
            .unwrap()
            .unwrap();
        coefficients.extend(team.versions.iter().map(|v| v.luck_coefficient));
    }

    let count =
        |stories: &[Story], pick: fn(&Story) -> bool| stories.iter().filter(|s| pick(s)).count();
    let censored = |stories: &[Story], pick: fn(&Story) -> Option<usize>| {
        median(
            stories
                .iter()
                .map(|s| pick(s).unwrap_or(after + 1))
                .collect(),
        )
    };
    let shown = |games: usize| {
        if games > after {
            format!("more than {after}")
        } else {
            games.to_string()
        }
    };
    // A version whose games all scored alike (a calling station's 40 games of no points) has
    // no spread raw or adjusted: no ratio, counted apart.
    let spreadless = width_ratios.iter().filter(|w| !w.2.is_finite()).count();
    width_ratios.retain(|w| w.2.is_finite());
    let widest = width_ratios
        .iter()
        .max_by(|a, b| a.2.total_cmp(&b.2))
        .unwrap();
    let wider: Vec<String> = width_ratios
        .iter()
        .filter(|w| w.2 > 1.02)
        .map(|w| format!("{} of {} games {:.3}", w.0, w.1, w.2))
        .collect();
    let over = wider.len();
    eprintln!(
        "\n{seeds} seeds, {before} games before the switch, {after} after; expected: {expect:?}"
    );
    if expect == Expect::Same {
        eprintln!(
            "false verdicts at the end: {} of {seeds} raw, {} of {seeds} adjusted; ever during the \
             {after} games: {} raw, {} adjusted",
            count(&raw_stories, |s| s.end != 0),
            count(&adjusted_stories, |s| s.end != 0),
            count(&raw_stories, |s| s.ever),
            count(&adjusted_stories, |s| s.ever),
        );
    } else {
        eprintln!(
            "median games of the new version to the right verdict: first {} raw, {} adjusted; for \
             good {} raw, {} adjusted; right at the end in {} raw, {} adjusted of {seeds}; wrong \
             (the opposite) at the end {} raw, {} adjusted",
            shown(censored(&raw_stories, |s| s.first)),
            shown(censored(&adjusted_stories, |s| s.first)),
            shown(censored(&raw_stories, |s| s.for_good)),
            shown(censored(&adjusted_stories, |s| s.for_good)),
            count(&raw_stories, |s| s.for_good.is_some()),
            count(&adjusted_stories, |s| s.for_good.is_some()),
            raw_stories.iter().filter(|s| s.end == -right).count(),
            adjusted_stories.iter().filter(|s| s.end == -right).count(),
        );
    }
    eprintln!(
        "adjusted interval over raw, {} versions ({spreadless} more with no spread at all): \
         widest {:.3} ({}, {} games); {over} wider by more than 2% ({}); mean {:.3}; luck \
         coefficients of sam's versions {:.2} to {:.2}",
        width_ratios.len(),
        widest.2,
        widest.0,
        widest.1,
        wider.join(", "),
        width_ratios.iter().map(|w| w.2).sum::<f64>() / width_ratios.len() as f64,
        coefficients.iter().copied().fold(f64::INFINITY, f64::min),
        coefficients
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max),
    );
}
