//! A team's own view (`GET /api/event/teams/{id}`, issue 32): its points by version, raw and
//! with the luck of the cards taken out, as `dealer serve` answers them, against the same
//! figures computed here game by game from the database's rows; the team's newest version
//! against the one before; `/api/event/versions` agreeing with it; and a restart keeping
//! every figure of a version that has stopped playing.

use crate::event_serve::{Server, TOKEN};
use crate::support::wait::DEADLINE;
use dealer::engine::stats::adjust::{fold_of, Folds};
use dealer::engine::stats::Interval;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// Three house bots; ann is first a raiser, then a calling station (each kind reports its own
/// version), so her team has two versions.
const EVENT: &str = "seed = 11\nhand_limit = 30\npause_ms = 5\nrecheck_ms = 200\n\
[[bot]]\nname = \"ann\"\nkind = \"raiser\"\n\
[[bot]]\nname = \"bob\"\nkind = \"random\"\n\
[[bot]]\nname = \"cy\"\nkind = \"equity\"\n";

/// Polls `path` until `done` holds.
async fn poll(server: &Server, path: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (status, body) = server.get(path).await;
        if status == 200 && done(&body) {
            return body;
        }
        assert!(start.elapsed() < DEADLINE, "{what} not reached: {body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// One game of a team as the database has it.
pub(crate) struct GameRow {
    pub(crate) game: u32,
    pub(crate) version: String,
    pub(crate) deploy: i64,
    pub(crate) points: f64,
    /// What the adjustment weighs: its luck when valued, 0 when it counts raw, `None` while
    /// it waits to be valued.
    pub(crate) control: Option<f64>,
}

/// One team's games as the database has them, in game order.
pub(crate) fn rows_of(data: &Path, player: i64) -> Vec<GameRow> {
    let db = rusqlite::Connection::open(data.join("event.sqlite")).unwrap();
    let mut statement = db
        .prepare(
            "SELECT s.game, COALESCE(s.version, 'Unknown'), COALESCE(s.deploy, 0), s.points, s.luck, g.luck
             FROM standings s JOIN games g ON g.number = s.game
             WHERE s.player_id = ?1 AND s.absent IS NULL AND g.state = 'finished'
             ORDER BY s.game",
        )
        .unwrap();
    statement
        .query_map([player], |row| {
            let luck: Option<f64> = row.get(4)?;
            let state: Option<String> = row.get(5)?;
            Ok(GameRow {
                game: row.get(0)?,
                version: row.get(1)?,
                deploy: row.get(2)?,
                points: row.get(3)?,
                control: match state.as_deref() {
                    None => None,
                    Some("valued") => Some(luck.expect("a valued game has its luck")),
                    Some(_) => Some(0.0),
                },
            })
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The adjusted points of the games of `rows` that have been valued (or count raw), computed
/// here game by game: each game's points less its luck weighed by the coefficient of its
/// fold, fitted on the others (`engine::stats::adjust`, folds by game number).
pub(crate) fn adjusted_points<'a>(rows: impl IntoIterator<Item = &'a GameRow>) -> Vec<f64> {
    let valued: Vec<&GameRow> = rows.into_iter().filter(|r| r.control.is_some()).collect();
    let mut folds = Folds::new();
    for row in &valued {
        folds.add(u64::from(row.game), row.points, row.control.unwrap());
    }
    valued
        .iter()
        .map(|row| {
            row.points - folds.coefficient_for(fold_of(u64::from(row.game))) * row.control.unwrap()
        })
        .collect()
}

fn close(api: &Value, expected: &Interval, what: &str) {
    let mean = api["mean"].as_f64().unwrap();
    assert!(
        (mean - expected.mean).abs() < 1e-9,
        "{what}: {api} against {expected:?}"
    );
    match api["half_width"].as_f64() {
        Some(half) => assert!(
            (half - expected.half_width).abs() < 1e-9,
            "{what}: {api} against {expected:?}"
        ),
        None => assert!(expected.half_width.is_infinite(), "{what}: {api}"),
    }
}

/// A team deploying a new version, as an organiser does it: player 1 removed, then added again
/// under the same name with the bot `bot`; it keeps its id.
pub(crate) async fn redeploy(server: &Server, name: &str, bot: &str) {
    let (status, removed) = server
        .organiser(
            reqwest::Method::DELETE,
            "/api/event/players/1",
            Some(TOKEN),
            String::new(),
        )
        .await;
    assert_eq!(status, 200, "{removed}");
    let (status, added) = server
        .organiser(
            reqwest::Method::POST,
            "/api/event/players",
            Some(TOKEN),
            json!({"name": name, "bot": bot}).to_string(),
        )
        .await;
    assert_eq!((status, &added["id"]), (201, &json!(1)), "{added}");
}

/// The API's versions of a team against the figures computed game by game here.
pub(crate) fn check_against_rows(team: &Value, rows: &[GameRow]) {
    let mut by_version: BTreeMap<(&str, i64), Vec<&GameRow>> = BTreeMap::new();
    for row in rows {
        by_version
            .entry((&row.version, row.deploy))
            .or_default()
            .push(row);
    }
    // A game whose version was never reported counts for its deploy's most played version.
    let unknown: Vec<(&str, i64)> = by_version
        .keys()
        .filter(|(version, _)| *version == "Unknown")
        .copied()
        .collect();
    for key in unknown {
        let known = by_version
            .iter()
            .filter(|((version, deploy), _)| *deploy == key.1 && *version != "Unknown")
            .max_by_key(|((version, _), games)| (games.len(), std::cmp::Reverse(*version)))
            .map(|(known, _)| *known);
        if let Some(known) = known {
            let games = by_version.remove(&key).unwrap();
            by_version.get_mut(&known).unwrap().extend(games);
        }
    }
    for games in by_version.values_mut() {
        games.sort_by_key(|game| game.game);
    }
    let versions = team["versions"].as_array().unwrap();
    assert_eq!(versions.len(), by_version.len(), "{team}");
    for version in versions {
        let name = version["label"].as_str().unwrap();
        let games = &by_version[&(
            version["version"].as_str().unwrap(),
            version["deploy"].as_i64().unwrap(),
        )];
        let raw: Vec<f64> = games.iter().map(|g| g.points).collect();
        let adjusted = adjusted_points(games.iter().copied());
        assert_eq!(version["games"], json!(raw.len()), "{name}");
        assert_eq!(version["adjusted_games"], json!(adjusted.len()), "{name}");
        assert_eq!(
            version["waiting"],
            json!(raw.len() - adjusted.len()),
            "{name}"
        );
        close(&version["points"], &Interval::of(&raw), name);
        if !adjusted.is_empty() {
            close(&version["adjusted"], &Interval::of(&adjusted), name);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_teams_versions_as_the_api_gives_them_are_its_games_figures_and_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("event");
    let mut server = Server::start(&data, EVENT);
    server
        .wait_for("8 games", |s| s["games_finished"].as_u64() >= Some(8))
        .await;
    redeploy(&server, "ann", "calling-station").await;

    // Both versions played and valued: the raiser's games are all in, none waits.
    let team = poll(
        &server,
        "/api/event/teams/1",
        "two versions, the first valued",
        |team| {
            let versions = team["versions"].as_array().unwrap();
            versions.len() == 2
                && versions[0]["version"] == "calling station 1"
                && versions[0]["adjusted_games"].as_u64() >= Some(4)
                && versions[1]["waiting"] == 0
        },
    )
    .await;
    assert_eq!(team["name"], "ann");
    let comparison = &team["comparison"];
    assert_eq!(comparison["newest"], "calling station 1", "{team}");
    let summary = comparison["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("calling station 1 against ")
            && summary.contains("points a game with the luck of the cards taken out"),
        "{summary}"
    );
    let previous = comparison["previous"].as_str().unwrap().to_string();

    // The broadcast's list says the same of her.
    let (_, all) = server.get("/api/event/versions").await;
    let ann = all
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["player_id"] == 1)
        .unwrap();
    assert_eq!(ann["versions"][1], team["versions"][1], "{all}");
    let (status, unknown) = server.get("/api/event/teams/99").await;
    assert_eq!(status, 404, "{unknown}");
    let (status, _) = server.get("/api/event/teams/ann").await;
    assert_eq!(status, 404);

    assert_eq!(server.signal("-TERM"), Some(0));
    // Stopped, the database is still: the view read-only against the rows.
    let finished = {
        let read_only = Server::read_only(&data);
        let (_, team) = read_only.get("/api/event/teams/1").await;
        check_against_rows(&team, &rows_of(&data, 1));
        team
    };
    let old_version = finished["versions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["version"] == previous.as_str())
        .unwrap()
        .clone();

    // A restart: the version that no longer plays keeps every figure.
    let server = Server::start(&data, EVENT);
    let (_, team) = server.get("/api/event/teams/1").await;
    let again = team["versions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["version"] == previous.as_str())
        .unwrap();
    assert_eq!(*again, old_version);
}
