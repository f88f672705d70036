//! `GET /api/event/broadcast`, the projector's director, against a real `dealer serve`: its
//! candidates are the newest ended games, pruned ones left out with their reason and
//! compressed ones read; every highlight is checked against the game's own log (an all-in is
//! a bet that left the player with no chip, a big pot is a quarter of the chips in play) and
//! the database (a first win is the team's first place 1; a change of leader is recomputed
//! from the standings' totals).

use super::event_serve::{Server, TOKEN};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::Duration;

const EVENT: &str = "seed = 17\ntable_size = 4\nhand_limit = 30\npause_ms = 20\nrecheck_ms = 200\n\
keep_games = 6\ncompress_after = 2\n\
[[bot]]\nname = \"andy\"\nkind = \"all-in\"\n\
[[bot]]\nname = \"ann\"\nkind = \"raiser\"\n\
[[bot]]\nname = \"bob\"\nkind = \"random\"\n\
[[bot]]\nname = \"cy\"\nkind = \"equity\"\n";

/// (number, files) of the `limit` newest ended games, newest first.
fn newest_ended(data: &Path, limit: u32) -> Vec<(u32, String)> {
    let db = rusqlite::Connection::open(data.join("event.sqlite")).unwrap();
    let mut statement = db
        .prepare("SELECT number, files FROM games WHERE state <> 'running' ORDER BY number DESC LIMIT ?1")
        .unwrap();
    let rows = statement
        .query_map([limit], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    rows.map(Result::unwrap).collect()
}

/// Every standing row: (game, player id, place, total after).
fn standings(data: &Path) -> Vec<(u32, Option<i64>, u32, Option<i64>)> {
    let db = rusqlite::Connection::open(data.join("event.sqlite")).unwrap();
    let mut statement = db
        .prepare("SELECT game, player_id, place, total_after FROM standings ORDER BY game, seat")
        .unwrap();
    let rows = statement
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap();
    rows.map(Result::unwrap).collect()
}

/// The games after which another team led alone, recomputed from the standings.
fn lead_changes(rows: &[(u32, Option<i64>, u32, Option<i64>)]) -> HashMap<u32, i64> {
    let mut totals: HashMap<i64, i64> = HashMap::new();
    let mut last: Option<i64> = None;
    let mut changes = HashMap::new();
    let games: Vec<u32> = {
        let mut games: Vec<u32> = rows.iter().map(|r| r.0).collect();
        games.dedup();
        games
    };
    for game in games {
        for (_, id, _, total) in rows.iter().filter(|r| r.0 == game) {
            if let (Some(id), Some(total)) = (id, total) {
                totals.insert(*id, *total);
            }
        }
        let top = totals.values().copied().max();
        let leaders: Vec<i64> = totals
            .iter()
            .filter(|(_, total)| Some(**total) == top)
            .map(|(id, _)| *id)
            .collect();
        if let [leader] = leaders[..] {
            if last.is_some_and(|last| last != leader) {
                changes.insert(game, leader);
            }
            last = Some(leader);
        }
    }
    changes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_director_scores_the_newest_ended_games_from_their_logs_and_the_database() {
    let temp = tempfile::tempdir().unwrap();
    let data = temp.path().join("event");
    let server = Server::start(&data, EVENT);
    server
        .wait_for(Duration::from_secs(120), "14 finished games", |s| {
            s["games_finished"].as_u64() >= Some(14)
        })
        .await;
    // Freeze the event: pause every team, wait for the running games to end and retention
    // to catch up, so the API and the database are compared at rest.
    let (_, players) = server.get("/api/event/players").await;
    for player in players.as_array().unwrap() {
        let path = format!("/api/event/players/{}", player["id"]);
        let (status, body) = server
            .organiser(
                reqwest::Method::PATCH,
                &path,
                Some(TOKEN),
                json!({"status": "paused"}).to_string(),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    for _ in 0..200 {
        let (_, page) = server.get("/api/event/games?per_page=1").await;
        if page["running"].as_array().is_some_and(Vec::is_empty) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut settled = false;
    for _ in 0..100 {
        let newest = newest_ended(&data, 10);
        let files: Vec<&str> = newest.iter().map(|(_, f)| f.as_str()).collect();
        if files.iter().skip(6).all(|f| *f == "pruned")
            && files[2..6].iter().all(|f| *f == "compressed")
        {
            settled = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        settled,
        "retention did not settle: {:?}",
        newest_ended(&data, 10)
    );

    let (status, answer) = server.get("/api/event/broadcast?candidates=10").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["running"], 0);
    let (_, status) = server.get("/api/event").await;
    assert_eq!(answer["tournament_id"], status["tournament_id"]);
    let games = answer["games"].as_array().unwrap();
    let skipped = answer["skipped"].as_array().unwrap();

    // The candidates are the ten newest ended games: the kept and compressed ones to play,
    // the pruned ones skipped with their reason.
    let newest = newest_ended(&data, 10);
    let mut offered: Vec<u32> = games
        .iter()
        .chain(skipped)
        .map(|g| g["number"].as_u64().unwrap() as u32)
        .collect();
    offered.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(offered, newest.iter().map(|(n, _)| *n).collect::<Vec<_>>());
    for (number, files) in &newest {
        let in_games = games.iter().any(|g| g["number"] == *number);
        assert_eq!(in_games, files != "pruned", "game {number} ({files})");
        if files == "pruned" {
            let reason = skipped.iter().find(|s| s["number"] == *number).unwrap()["reason"]
                .as_str()
                .unwrap();
            assert!(reason.contains("pruned"), "{reason}");
        }
    }
    assert!(
        games.iter().any(|g| newest
            .iter()
            .any(|(n, f)| g["number"] == *n && f == "compressed")),
        "a compressed game is played"
    );

    // Highest priority first; the priority is the score less 3 per newer candidate.
    let priorities: Vec<i64> = games
        .iter()
        .map(|g| g["priority"].as_i64().unwrap())
        .collect();
    assert!(
        priorities.windows(2).all(|p| p[0] >= p[1]),
        "{priorities:?}"
    );
    for game in games {
        let age = newest
            .iter()
            .position(|(n, _)| game["number"] == *n)
            .unwrap() as i64;
        assert_eq!(
            game["priority"].as_i64().unwrap(),
            game["score"].as_i64().unwrap() - 3 * age
        );
    }

    // Every highlight is where the log says.
    let rows = standings(&data);
    let changes = lead_changes(&rows);
    let mut all_ins = 0;
    for game in games {
        let number = game["number"].as_u64().unwrap() as u32;
        let (status, log) = server
            .get(&format!("/api/runs/games/games/{number}/log"))
            .await;
        assert_eq!(status, 200, "{log}");
        let entries = log["entries"].as_array().unwrap();
        let hands = game["hands"].as_array().unwrap();
        let starts: Vec<&Value> = log["hands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| &h["entry"])
            .collect();
        assert_eq!(
            hands.iter().map(|h| &h["first"]).collect::<Vec<_>>(),
            starts
        );
        assert_eq!(
            hands.last().unwrap()["last"].as_u64().unwrap() as usize,
            entries.len() - 1
        );
        assert_eq!(
            hands.last().unwrap()["quiet"],
            false,
            "the last hand is played"
        );
        let highlights = game["highlights"].as_array().unwrap();
        for highlight in highlights {
            let entry = &entries[highlight["entry"].as_u64().unwrap() as usize];
            let state = &entry["game_state"];
            match highlight["kind"].as_str().unwrap() {
                "all_in" => {
                    all_ins += 1;
                    let seat = entry["on_turn"].as_u64().unwrap() as usize;
                    let player = &state["players"][seat];
                    assert_eq!(player["name"], highlight["player"]);
                    assert_eq!(player["stack"], 0, "{highlight}");
                    assert_eq!(player["bet"], highlight["amount"]);
                }
                "big_pot" => {
                    let chips: u64 = hands
                        .iter()
                        .find(|h| h["round"] == highlight["hand"])
                        .unwrap()["chips"]
                        .as_u64()
                        .unwrap();
                    assert_eq!(state["pot"], highlight["pot"]);
                    assert!(
                        highlight["pot"].as_u64().unwrap() * 4 >= chips,
                        "{highlight}"
                    );
                }
                "banned" => assert!(entry["message"].as_str().unwrap().contains("Banned: ")),
                "first_win" => {
                    let id = highlight["id"].as_i64().unwrap();
                    assert!(rows
                        .iter()
                        .any(|r| r.0 == number && r.1 == Some(id) && r.2 == 1));
                    assert!(!rows
                        .iter()
                        .any(|r| r.0 < number && r.1 == Some(id) && r.2 == 1));
                }
                "takes_lead" => {
                    assert_eq!(changes.get(&number), highlight["id"].as_i64().as_ref());
                    assert!(game["score"].as_u64().unwrap() >= 40);
                }
                other => panic!("unknown highlight {other}"),
            }
        }
        // No highlight is missed: a first win or a lead change the database shows is there.
        let winner = rows
            .iter()
            .find(|r| r.0 == number && r.2 == 1)
            .and_then(|r| r.1);
        if let Some(id) = winner {
            let first = !rows
                .iter()
                .any(|r| r.0 < number && r.1 == Some(id) && r.2 == 1);
            let shown = highlights
                .iter()
                .any(|h| h["kind"] == "first_win" && h["id"] == id);
            assert_eq!(first, shown, "game {number}: first win of {id}");
        }
        let lead = highlights
            .iter()
            .find(|h| h["kind"] == "takes_lead")
            .map(|h| h["id"].as_i64().unwrap());
        assert_eq!(
            lead,
            changes.get(&number).copied(),
            "game {number}: lead change"
        );
        // A quiet hand holds no highlight.
        let quiet: HashSet<u64> = hands
            .iter()
            .filter(|h| h["quiet"] == true)
            .map(|h| h["round"].as_u64().unwrap())
            .collect();
        assert!(highlights
            .iter()
            .all(|h| h["hand"].as_u64().is_none_or(|hand| !quiet.contains(&hand))));
    }
    assert!(all_ins > 0, "the all-in bot's all-ins are found");

    // A bad query is a 400 with a sentence.
    let (status, body) = server.get("/api/event/broadcast?candidates=many").await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().is_some());
    // The page is served, linked from the event page.
    let (status, _) = server.get("/broadcast.js").await;
    assert_eq!(status, 200);
}
