//! A team that switches version during an event (issue 32): "sam" plays a calling station,
//! then is removed and added again as the equity bot, as an organiser does with `DELETE` and
//! `POST /api/event/players`. After enough games of each, the team's view
//! (`GET /api/event/teams/{id}`) calls the newest version BETTER, its figures are the
//! database's rows, and `/api/event/versions` says the same.
//!
//! The table is the one the known difference was measured at (the arena's
//! `event_switch_field` test, 6,000 games a version, docs/benchmarks.md "Event versions"):
//! sam, `tight`, `push-fold` and `loose`, four seats (one table a round, reshuffled), games
//! cut at 40 hands. The event plays each game from its own seed and seats the bots anew every
//! round, where the arena plays duplicate deals in rotation: the same expectation, more
//! variance per game.
//!
//! The test waits on the API's game counts only. How many games of the new version the verdict
//! needs, raw and with the luck taken out, over many seeds at a table like a real one, is
//! measured by `event_switch` (ignored).

use crate::event_serve::{Server, TOKEN};
use crate::event_team_view::{adjusted_points, check_against_rows, redeploy, rows_of, GameRow};
use crate::support::misbehaving::{
    spawn_player_at, spawn_player_with, Misbehaviour, PlayerOptions,
};
use crate::support::wait::{until_async, DEADLINE};
use dealer::engine::stats::{unpaired_difference, Interval};
use dealer::event::luck::value_waiting;
use dealer::event::versions::{team_versions, VersionVerdict};
use dealer::event::Event;
use dealer::house::BotKind;
use dealer::runner::StopSignal;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The difference the arena measured at this table over 6,000 games a version, luck taken
/// out: equity minus calling station, points a game, and its 95% half width.
pub(crate) const KNOWN_DIFFERENCE: (f64, f64) = (1.394, 0.044);
/// Games the event plays before sam switches.
const BEFORE: u64 = 40;
/// Games of the new version before the verdict is read.
const AFTER: u64 = 100;

/// The event: sam first as the worse version, and the three other teams.
fn config(seed: u64) -> String {
    format!(
        "seed = {seed}\nhand_limit = 40\npause_ms = 0\nrecheck_ms = 200\n\
         [[bot]]\nname = \"sam\"\nkind = \"calling-station\"\n\
         [[bot]]\nname = \"tess\"\nkind = \"tight\"\n\
         [[bot]]\nname = \"pat\"\nkind = \"push-fold\"\n\
         [[bot]]\nname = \"lou\"\nkind = \"loose\"\n"
    )
}

fn version_of(kind: BotKind) -> String {
    kind.build(0).version()
}

/// Polls the team view of sam until `done` holds.
async fn poll_team(server: &Server, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (status, body) = server.get("/api/event/teams/1").await;
        if status == 200 && done(&body) {
            return body;
        }
        assert!(start.elapsed() < DEADLINE, "{what} not reached: {body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn games_of<'a>(team: &'a Value, version: &str) -> Option<&'a Value> {
    team["versions"]
        .as_array()?
        .iter()
        .find(|v| v["version"] == version)
}

fn close(api: &Value, expected: &Interval, what: &str) {
    let mean = api["mean"].as_f64().unwrap();
    let half = api["half_width"].as_f64().unwrap();
    assert!(
        (mean - expected.mean).abs() < 1e-9 && (half - expected.half_width).abs() < 1e-9,
        "{what}: {api} against {expected:?}"
    );
}

/// One version's values, raw and adjusted, from the rows.
fn split(rows: &[GameRow], version: &str) -> (Vec<f64>, Vec<f64>) {
    let of: Vec<&GameRow> = rows.iter().filter(|r| r.version == version).collect();
    (
        of.iter().map(|r| r.points).collect(),
        adjusted_points(of.iter().copied()),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_switch_to_a_better_bot_is_called_better_with_the_databases_figures() {
    let (worse, better) = (
        version_of(BotKind::CallingStation),
        version_of(BotKind::Equity),
    );
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("event");
    let server = Server::start(&data, &config(32));
    server
        .wait_for(&format!("{BEFORE} games"), |s| {
            s["games_finished"].as_u64() >= Some(BEFORE)
        })
        .await;
    redeploy(&server, "sam", "equity").await;
    poll_team(&server, &format!("{AFTER} games of {better}"), |team| {
        games_of(team, &better).and_then(|v| v["games"].as_u64()) >= Some(AFTER)
    })
    .await;

    // Sam sits out: the game in progress ends, then the others play on without him, and his
    // figures stay as they are once every game of his is valued.
    let (status, paused) = server
        .organiser(
            reqwest::Method::PATCH,
            "/api/event/players/1",
            Some(TOKEN),
            json!({"status": "paused"}).to_string(),
        )
        .await;
    assert_eq!(status, 200, "{paused}");
    let (_, now) = server.get("/api/event").await;
    let finished = now["games_finished"].as_u64().unwrap();
    server
        .wait_for("two games after the pause", |s| {
            s["games_finished"].as_u64() >= Some(finished + 2)
        })
        .await;
    let team = poll_team(&server, "every game of sam valued", |team| {
        team["versions"]
            .as_array()
            .is_some_and(|versions| versions.iter().all(|v| v["waiting"] == 0))
    })
    .await;

    let comparison = &team["comparison"];
    assert_eq!(
        (&comparison["newest"], &comparison["previous"]),
        (&json!(better), &json!(worse)),
        "{team}"
    );
    assert_eq!(comparison["verdict"], "better", "{team}");
    let summary = comparison["summary"].as_str().unwrap();
    eprintln!("{summary}; raw: {}", comparison["raw"]);
    assert!(
        summary.starts_with(&format!("{better} against {worse}: BETTER")),
        "{summary}"
    );

    // The figures are the database's rows, the comparison Welch's on them.
    let rows = rows_of(&data, 1);
    check_against_rows(&team, &rows);
    let (new_raw, new_adjusted) = split(&rows, &better);
    let (old_raw, old_adjusted) = split(&rows, &worse);
    close(
        &comparison["adjusted"],
        &unpaired_difference(&new_adjusted, &old_adjusted),
        "adjusted difference",
    );
    close(
        &comparison["raw"],
        &unpaired_difference(&new_raw, &old_raw),
        "raw difference",
    );
    assert_eq!(
        comparison["games"],
        json!([new_adjusted.len(), old_adjusted.len()])
    );
    assert_eq!(
        comparison["raw_games"],
        json!([new_raw.len(), old_raw.len()])
    );

    // The event's difference is the arena's, within the noise of both (4 standard errors:
    // wrong about one time in 15,000 when it is right).
    let adjusted = comparison["adjusted"]["mean"].as_f64().unwrap();
    let error = (comparison["adjusted"]["half_width"].as_f64().unwrap() / 1.96)
        .hypot(KNOWN_DIFFERENCE.1 / 1.96);
    assert!(
        (adjusted - KNOWN_DIFFERENCE.0).abs() < 4.0 * error,
        "event {adjusted} ± {error} (standard error) against the arena's {KNOWN_DIFFERENCE:?}"
    );

    let (_, all) = server.get("/api/event/versions").await;
    let sam = all
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["player_id"] == 1)
        .unwrap();
    assert_eq!(sam["comparison"], team["comparison"], "{all}");
    assert_eq!(sam["versions"], team["versions"], "{all}");
}

/// A version none of whose games has been valued yet (a team's first games after a switch,
/// while the valuer is behind) is read, and says so: no adjusted figure, every game waiting.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_whose_games_all_wait_to_be_valued_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let event = crate::support::event::open(dir.path(), &config(7));
    let (handle, stop) = dealer::runner::stop_signal();
    let rounds = tokio::spawn(dealer::event::scheduler::run_rounds(
        std::sync::Arc::clone(&event),
        stop,
    ));
    until_async("2 games", || event.status().games_finished >= 2).await;
    handle.stop();
    rounds.await.unwrap();
    let team = dealer::event::versions::team_versions(event.store(), 1)
        .unwrap()
        .unwrap();
    let [version] = team.versions.as_slice() else {
        panic!("{team:?}")
    };
    assert_eq!(
        (version.waiting, version.adjusted_games, version.counted_raw),
        (version.games, 0, 0),
        "{team:?}"
    );
    assert!(version.adjusted.is_none() && version.games >= 2, "{team:?}");
    assert!(team.comparison.is_none());
}

/// A team that redeploys without changing its version string (the template's string often
/// stays all day): its player goes down, the health check sees it, and it comes back at the
/// same address with the same string. The team view shows two versions, the new one named by
/// its first game, and compares them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redeploy_that_keeps_its_version_string_is_a_version_of_its_own() {
    const VERSION: &str = "Default Rust player";
    let options = || PlayerOptions {
        version: VERSION.into(),
        ..PlayerOptions::default()
    };
    let first = spawn_player_with(Misbehaviour::Healthy, options()).await;
    let address = first
        .url()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let dir = tempfile::tempdir().unwrap();
    let config = format!(
        "seed = 38\nhand_limit = 20\npause_ms = 1\nrecheck_ms = 100\n\
         [[player]]\nname = \"pat\"\nurl = \"{}\"\n\
         [[bot]]\nname = \"tess\"\nkind = \"tight\"\n\
         [[bot]]\nname = \"lou\"\nkind = \"loose\"\n",
        first.url()
    );
    let event = crate::support::event::open(dir.path(), &config);
    let pat = |event: &Event| {
        event
            .store()
            .players()
            .unwrap()
            .into_iter()
            .find(|p| p.name == "pat")
            .unwrap()
    };
    let id = pat(&event).id;
    let games_of = |event: &Event, deploy: i64| {
        team_versions(event.store(), id)
            .unwrap()
            .and_then(|team| team.versions.into_iter().find(|v| v.deploy == deploy))
            .map_or(0, |v| v.games)
    };
    // As `dealer serve` does: the players checked once, then in the background.
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
    until_async("4 games of the first deploy", || games_of(&event, 0) >= 4).await;

    // The redeploy: the player stops, the dealer sees it down, it starts again.
    first.stop().await;
    until_async("pat seen down", || pat(&event).down_reason.is_some()).await;
    let second = spawn_player_at(&address, Misbehaviour::Healthy, options()).await;
    until_async("4 games of the second deploy", || games_of(&event, 1) >= 4).await;
    handle.stop();
    rounds.await.unwrap();
    checks.await.unwrap();
    value_waiting(event.store(), &StopSignal::never()).unwrap();
    second.stop().await;

    assert_eq!(pat(&event).deploys, 1);
    let team = team_versions(event.store(), id).unwrap().unwrap();
    assert_eq!(team.versions.len(), 2, "{team:?}");
    let (newest, previous) = (&team.versions[0], &team.versions[1]);
    assert_eq!((newest.deploy, previous.deploy), (1, 0));
    assert_eq!(newest.version, VERSION);
    assert_eq!(
        newest.label,
        format!("{VERSION}, since game {}", newest.first_game)
    );
    assert_eq!(previous.label, VERSION);
    assert!(previous.last_game < newest.first_game, "{team:?}");
    let comparison = team.comparison.clone().expect("the two deploys compared");
    assert!(
        comparison.summary.starts_with(&format!(
            "{VERSION}, since game {} against {VERSION}: ",
            newest.first_game
        )),
        "{}",
        comparison.summary
    );
    // The same player twice: nothing to tell apart in so few games.
    assert_eq!(
        comparison.verdict,
        VersionVerdict::CantTellYet,
        "{comparison:?}"
    );
    // The game it went down in (its version never reported) counts for the first deploy.
    check_against_rows(
        &serde_json::to_value(&team).unwrap(),
        &rows_of(dir.path(), id),
    );
}
