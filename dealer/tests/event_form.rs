//! Recent form, ratings and the changes of leader, as `/api/event/leaderboard` and
//! `/api/event/history` give them, against the database of a real `dealer serve`: each team's
//! points in its last 100 games, its rating from the engine's model over the recorded finishing
//! orders (a team added mid-event included), the lead changes recomputed from the totals; the
//! seats' teams of a game; and the same figures from a read-only server of the stopped event.

use super::event_broadcast::{lead_changes, standings};
use super::event_serve::{Server, TOKEN};
use engine::rating::Ratings;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

const EVENT: &str = "seed = 5\ntable_size = 3\nhand_limit = 20\npause_ms = 10\nrecheck_ms = 200\n\
[[bot]]\nname = \"eq\"\nkind = \"equity\"\n\
[[bot]]\nname = \"rai\"\nkind = \"raiser\"\n\
[[bot]]\nname = \"rnd\"\nkind = \"random\"\n\
[[bot]]\nname = \"fold\"\nkind = \"folder\"\n";

/// Every standings row in the order it was recorded: (game, seat, player id, place, points,
/// absent).
fn recorded(data: &Path) -> Vec<(u32, u32, Option<i64>, u32, u32, bool)> {
    let db = rusqlite::Connection::open(data.join("event.sqlite")).unwrap();
    let mut statement = db
        .prepare("SELECT game, seat, player_id, place, points, absent IS NOT NULL FROM standings ORDER BY rowid")
        .unwrap();
    let rows = statement
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })
        .unwrap();
    rows.map(Result::unwrap).collect()
}

/// What the leaderboard must say: each player's (points, games) over its last 100 games and
/// its rating by the engine, from the rows as recorded.
fn expected_form(data: &Path, ids: &[i64]) -> HashMap<i64, (u32, u32, f64, f64)> {
    let rows = recorded(data);
    let mut ratings = Ratings::new(ids.iter().map(i64::to_string));
    let mut latest: HashMap<i64, Vec<u32>> = HashMap::new();
    let mut games: Vec<u32> = rows.iter().map(|r| r.0).collect();
    games.dedup();
    for game in games {
        let mut seats: Vec<_> = rows.iter().filter(|r| r.0 == game && !r.5).collect();
        for seat in &seats {
            if let Some(id) = seat.2 {
                latest.entry(id).or_default().push(seat.4);
            }
        }
        seats.sort_by_key(|s| (s.3, s.1));
        let names: Vec<String> = seats
            .iter()
            .map(|s| s.2.map_or(format!("house {}", s.1), |id| id.to_string()))
            .collect();
        ratings.record(&names.iter().map(String::as_str).collect::<Vec<_>>());
    }
    ids.iter()
        .map(|&id| {
            let points = latest.get(&id).cloned().unwrap_or_default();
            let last: Vec<u32> = points.iter().rev().take(100).copied().collect();
            let rating = ratings.get(&id.to_string()).unwrap();
            (
                id,
                (
                    last.iter().sum(),
                    last.len() as u32,
                    rating.rating,
                    rating.uncertainty,
                ),
            )
        })
        .collect()
}

fn check_form(board: &Value, expected: &HashMap<i64, (u32, u32, f64, f64)>) {
    assert_eq!(board["form_games"], 100);
    for row in board["players"].as_array().unwrap() {
        let id = row["id"].as_i64().unwrap();
        let (points, games, rating, uncertainty) = expected[&id];
        let form = &row["form"];
        assert_eq!(form["points"].as_u64(), Some(u64::from(points)), "{row}");
        assert_eq!(form["games"].as_u64(), Some(u64::from(games)), "{row}");
        let close = |a: &Value, b: f64| (a.as_f64().unwrap() - b).abs() < 1e-9;
        assert!(close(&form["rating"]["rating"], rating), "{row}: {rating}");
        assert!(close(&form["rating"]["uncertainty"], uncertainty), "{row}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recent_form_ratings_and_lead_changes_follow_the_database() {
    let temp = tempfile::tempdir().unwrap();
    let data = temp.path().join("event");
    let mut server = Server::start(&data, EVENT);
    server
        .wait_for("60 finished games", |s| {
            s["games_finished"].as_u64() >= Some(60)
        })
        .await;
    // A team added late: its ratings are built with everyone else's again.
    let (status, body) = server
        .organiser(
            reqwest::Method::POST,
            "/api/event/players",
            Some(TOKEN),
            json!({"name": "late", "bot": "equity"}).to_string(),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (_, board) = server.get("/api/event/leaderboard").await;
    assert!(board["players"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "late"));
    server
        .wait_for("230 finished games", |s| {
            s["games_finished"].as_u64() >= Some(230)
        })
        .await;
    let (_, players) = server.get("/api/event/players").await;
    let ids: Vec<i64> = players
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    for id in &ids {
        let (status, _) = server
            .organiser(
                reqwest::Method::PATCH,
                &format!("/api/event/players/{id}"),
                Some(TOKEN),
                json!({"status": "paused"}).to_string(),
            )
            .await;
        assert_eq!(status, 200);
    }
    let started = std::time::Instant::now();
    loop {
        let (_, page) = server.get("/api/event/games?per_page=1").await;
        if page["running"].as_array().is_some_and(Vec::is_empty) {
            break;
        }
        assert!(
            started.elapsed() < crate::support::wait::DEADLINE,
            "games still running: {page}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let expected = expected_form(&data, &ids);
    let (status, board) = server.get("/api/event/leaderboard").await;
    assert_eq!(status, 200);
    check_form(&board, &expected);
    // Past 100 games, the form counts only the last 100.
    assert!(expected.values().any(|f| f.1 == 100), "{expected:?}");
    let late = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "late")
        .unwrap();
    assert!(late["form"]["games"].as_u64().unwrap() < 100, "{late}");

    // The changes of leader, recomputed from the totals.
    let changes = lead_changes(&standings(&data));
    let (_, history) = server.get("/api/event/history").await;
    let listed: HashMap<u32, i64> = history["lead_changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["game"].as_u64().unwrap() as u32,
                c["id"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        history["lead_changes_total"].as_u64(),
        Some(changes.len() as u64)
    );
    assert_eq!(listed, changes);

    // A game's seats with their teams.
    let (_, games) = server.get("/api/event/games?per_page=1").await;
    let game = &games["games"][0];
    let number = game["number"].as_u64().unwrap();
    let (status, teams) = server
        .get(&format!("/api/event/games/{number}/teams"))
        .await;
    assert_eq!(status, 200, "{teams}");
    // The same (name, player id) pairs as the game's standings, one per seat.
    let teams_of = |list: &Value| -> Vec<(String, Option<i64>)> {
        let mut pairs: Vec<(String, Option<i64>)> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["name"].as_str().unwrap().to_string(),
                    s["player_id"].as_i64(),
                )
            })
            .collect();
        pairs.sort();
        pairs
    };
    assert_eq!(teams_of(&teams["seats"]), teams_of(&game["standings"]));
    for (path, want) in [
        ("/api/event/games/999999/teams", 404),
        ("/api/event/games/x/teams", 404),
    ] {
        let (status, body) = server.get(path).await;
        assert_eq!(status, want, "{path}: {body}");
        assert!(body["error"].as_str().is_some());
    }

    // After the event, a read-only server says the same.
    assert_eq!(server.signal("-TERM"), Some(0));
    let read_only = Server::read_only(&data);
    let (status, board) = read_only.get("/api/event/leaderboard").await;
    assert_eq!(status, 200, "{board}");
    check_form(&board, &expected);
}
