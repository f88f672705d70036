//! Does the arena fitted from an event predict the event (issue 39)? Ten teams at one table of
//! ten, all bots that can be played in the arena too: the six real team bots' profiles
//! (`real-a` … `real-f`) and four house bots of other styles. `dealer serve` plays the event;
//! then, for each team, `cargo arena --field-from` the event's address (its own team left out
//! with `--me`) plays that team's bot against the profiles fitted from the event's hand
//! histories, and its points a game are set against the team's points a game at the event.
//!
//! Ignored: a measurement, not a check (about ten minutes in the test build).
//!
//! ```sh
//! cargo test -p lean-poker-dealer --test dealer_tests -- --ignored event_field_prediction --nocapture
//! ```
//!
//! `EVENT_FIELD_GAMES` (1,000) event games, `EVENT_FIELD_ARENA_GAMES` (3,000) arena games a
//! team, `EVENT_FIELD_SEED` (39).

use crate::event_serve::{Server, TOKEN};
use dealer::engine::stats::Interval;
use dealer::house::BotKind;

/// The event's teams, by their bots' kinds (a team is named after its kind).
const TEAMS: [&str; 10] = [
    "real-a",
    "real-b",
    "real-c",
    "real-d",
    "real-e",
    "real-f",
    "equity",
    "shover",
    "calling-station",
    "tight",
];

fn number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .map(|text| {
            text.parse()
                .unwrap_or_else(|_| panic!("{name} is not a number"))
        })
        .unwrap_or(default)
}

/// Ranks (1 = highest), ties sharing their mean rank.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start;
        while end + 1 < order.len() && values[order[end + 1]] == values[order[start]] {
            end += 1;
        }
        let rank = (start + end) as f64 / 2.0 + 1.0;
        for &index in &order[start..=end] {
            ranks[index] = rank;
        }
        start = end + 1;
    }
    ranks
}

/// Spearman's rank correlation.
fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let mean = (n + 1.0) / 2.0;
    let cov: f64 = ra
        .iter()
        .zip(&rb)
        .map(|(x, y)| (x - mean) * (y - mean))
        .sum();
    let var_a: f64 = ra.iter().map(|x| (x - mean).powi(2)).sum();
    let var_b: f64 = rb.iter().map(|y| (y - mean).powi(2)).sum();
    cov / (var_a * var_b).sqrt()
}

/// Each team's points in every finished game it was dealt into, by name.
fn event_points(data: &std::path::Path, team: &str) -> Vec<f64> {
    let db = rusqlite::Connection::open(data.join("event.sqlite")).unwrap();
    let mut statement = db
        .prepare(
            "SELECT s.points FROM standings s JOIN games g ON g.number = s.game
             JOIN players p ON p.id = s.player_id
             WHERE p.name = ?1 AND s.absent IS NULL AND g.state = 'finished'",
        )
        .unwrap();
    statement
        .query_map([team], |row| row.get::<_, f64>(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The event's finished games.
fn event_games(data: &std::path::Path) -> i64 {
    rusqlite::Connection::open(data.join("event.sqlite"))
        .unwrap()
        .query_row(
            "SELECT COUNT(*) FROM games WHERE state = 'finished'",
            [],
            |r| r.get(0),
        )
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement (minutes): see the module docs for its command and settings"]
async fn the_arena_fitted_from_an_event_predicts_its_teams_points() {
    let games = number("EVENT_FIELD_GAMES", 1_000);
    let arena_games = number("EVENT_FIELD_ARENA_GAMES", 3_000);
    let seed = number("EVENT_FIELD_SEED", 39);
    let temp = tempfile::tempdir().unwrap();
    let data = temp.path().join("event");
    let mut config =
        format!("seed = {seed}\npause_ms = 0\ntable_size = 10\noutputs = [\"none\"]\n");
    for team in TEAMS {
        config.push_str(&format!("[[bot]]\nname = \"{team}\"\nkind = \"{team}\"\n"));
    }
    let server = Server::start_with(&data, &config, "127.0.0.39", &[]);
    server
        .wait_for(&format!("{games} games"), |s| {
            s["games_finished"].as_u64() >= Some(games)
        })
        .await;
    // Every team paused: the games under way end, no other starts, and every arena run below
    // fits the same games the event's figures count.
    for id in 1..=TEAMS.len() {
        let (status, answer) = server
            .organiser(
                reqwest::Method::PATCH,
                &format!("/api/event/players/{id}"),
                Some(TOKEN),
                serde_json::json!({"status": "paused"}).to_string(),
            )
            .await;
        assert_eq!(status, 200, "{answer}");
    }
    loop {
        let (_, page) = server.get("/api/event/games?per_page=1").await;
        if page["running"].as_array().is_some_and(Vec::is_empty) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let address = format!("{}/", server.base());
    let arena_dir = temp.path().join("arena");
    let mut lines = Vec::new();
    let (mut at_event, mut predicted) = (Vec::new(), Vec::new());
    for team in TEAMS {
        let report = temp.path().join(format!("{team}.json"));
        let args: Vec<std::ffi::OsString> = [
            "--field-from",
            address.as_str(),
            "--me",
            team,
            "--games",
            &arena_games.to_string(),
            "--seed",
            &seed.to_string(),
            "--no-save",
            "--json",
            report.to_str().unwrap(),
        ]
        .iter()
        .map(Into::into)
        .collect();
        let bot = team.parse::<BotKind>().unwrap().build(0);
        let arena_dir = arena_dir.clone();
        tokio::task::spawn_blocking(move || arena::cli::run_with_args(args, &*bot, &arena_dir))
            .await
            .unwrap()
            .unwrap();
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        let arena = &report["report"]["your_points"]["adjusted"];
        let (mean, half) = (
            arena["mean"].as_f64().unwrap(),
            arena["half_width"].as_f64().unwrap(),
        );
        let event = Interval::of(&event_points(&data, team));
        lines.push(format!(
            "| {team} | {:.3} ± {:.3} | {mean:.3} ± {half:.3} | {:+.3} |",
            event.mean,
            event.half_width,
            mean - event.mean
        ));
        at_event.push(event.mean);
        predicted.push(mean);
    }
    let errors: Vec<f64> = at_event
        .iter()
        .zip(&predicted)
        .map(|(e, p)| (p - e).abs())
        .collect();
    eprintln!(
        "{} event games (one table of ten), seed {seed}; the arena fitted from the event: \
         {arena_games} games a team, luck taken out\n\n\
         | team | points a game at the event | in the arena fitted from it | error |\n\
         |---|---|---|---|\n{}\n\nSpearman's ρ {:.3}; mean absolute error {:.3}, largest {:.3}",
        event_games(&data),
        lines.join("\n"),
        spearman(&at_event, &predicted),
        errors.iter().sum::<f64>() / errors.len() as f64,
        errors.iter().copied().fold(0.0, f64::max),
    );
}
