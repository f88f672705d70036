//! `GET /api/event/broadcast`, the projector's director, against a real `dealer serve`: its
//! candidates are the race's games (recent changes of leader, first wins) and the newest
//! ended games, pruned ones left out with their reason and compressed ones read, in that
//! order; every highlight is checked against the game's own log (an all-in is a bet that left
//! the player with no chip in a hand that reached a showdown, a big pot is at least three
//! times the game's median called pot and an eighth of the chips, a knockout is a player out
//! at the hand's end) and the database (a first win is the team's first place 1; a change of
//! leader is recomputed from the standings' totals).

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
pub(crate) fn standings(data: &Path) -> Vec<(u32, Option<i64>, u32, Option<i64>)> {
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
pub(crate) fn lead_changes(rows: &[(u32, Option<i64>, u32, Option<i64>)]) -> HashMap<u32, i64> {
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
        .wait_for("14 finished games", |s| {
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
    crate::support::wait::until_async("retention settled", || {
        let newest = newest_ended(&data, 10);
        let files: Vec<&str> = newest.iter().map(|(_, f)| f.as_str()).collect();
        files.iter().skip(6).all(|f| *f == "pruned")
            && files[2..6].iter().all(|f| *f == "compressed")
    })
    .await;

    let (status, answer) = server.get("/api/event/broadcast?candidates=10").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["running"], 0);
    let (_, status) = server.get("/api/event").await;
    assert_eq!(answer["tournament_id"], status["tournament_id"]);
    let games = answer["games"].as_array().unwrap();
    let skipped = answer["skipped"].as_array().unwrap();
    let rows = standings(&data);
    let changes = lead_changes(&rows);
    let first_wins: HashMap<u32, i64> = rows
        .iter()
        .filter(|r| r.2 == 1 && r.1.is_some())
        .filter(|r| !rows.iter().any(|e| e.0 < r.0 && e.1 == r.1 && e.2 == 1))
        .map(|r| (r.0, r.1.unwrap()))
        .collect();

    // The candidates are the ten newest ended games, and the race's games besides: the kept
    // and compressed ones to play, the pruned ones skipped with their reason.
    let newest = newest_ended(&data, 10);
    let offered: HashSet<u32> = games
        .iter()
        .chain(skipped)
        .map(|g| g["number"].as_u64().unwrap() as u32)
        .collect();
    for (number, files) in &newest {
        assert!(offered.contains(number), "game {number} is a candidate");
        let in_games = games.iter().any(|g| g["number"] == *number);
        assert_eq!(in_games, files != "pruned", "game {number} ({files})");
        if files == "pruned" {
            let reason = skipped.iter().find(|s| s["number"] == *number).unwrap()["reason"]
                .as_str()
                .unwrap();
            assert!(reason.contains("pruned"), "{reason}");
        }
    }
    for number in &offered {
        assert!(
            newest.iter().any(|(n, _)| n == number)
                || changes.contains_key(number)
                || first_wins.contains_key(number),
            "game {number} is neither new nor the race's"
        );
    }
    assert!(
        games.iter().any(|g| newest
            .iter()
            .any(|(n, f)| g["number"] == *n && f == "compressed")),
        "a compressed game is played"
    );

    // Lead changes first, then first wins, each newest first; then the newest games by
    // priority, the score less 3 per newer game.
    let picks: Vec<&str> = games.iter().map(|g| g["pick"].as_str().unwrap()).collect();
    let rank = |pick: &str| {
        ["lead_change", "first_win", "newest"]
            .iter()
            .position(|p| *p == pick)
            .unwrap()
    };
    assert!(
        picks.windows(2).all(|p| rank(p[0]) <= rank(p[1])),
        "{picks:?}"
    );
    let newest_number = newest[0].0;
    for pair in games.windows(2) {
        if pair[0]["pick"] != pair[1]["pick"] {
            continue;
        }
        if pair[0]["pick"] == "newest" {
            assert!(pair[0]["priority"].as_i64() >= pair[1]["priority"].as_i64());
        } else {
            assert!(pair[0]["number"].as_u64() > pair[1]["number"].as_u64());
        }
    }
    for game in games {
        let number = game["number"].as_u64().unwrap() as u32;
        assert_eq!(
            game["priority"].as_i64().unwrap(),
            game["score"].as_i64().unwrap() - 3 * i64::from(newest_number - number)
        );
        let expected = if changes.contains_key(&number) {
            "lead_change"
        } else if first_wins.contains_key(&number) {
            "first_win"
        } else {
            "newest"
        };
        assert_eq!(game["pick"], expected, "game {number}");
    }

    // Every highlight is where the log says.
    let mut all_ins = 0;
    let mut hands_seen = 0;
    let mut hands_with_moments = 0;
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
        let last_hand = hands.last().unwrap();
        assert_eq!(
            last_hand["last"].as_u64().unwrap() as usize,
            entries.len() - 1
        );
        assert!(last_hand["moments"]
            .as_array()
            .unwrap()
            .contains(&json!("final")));
        assert_eq!(last_hand["shown"], true, "the final hand is played");
        let shown = hands.iter().filter(|h| h["shown"] == true).count();
        assert!(
            (1..=3).contains(&shown),
            "game {number}: {shown} hands shown"
        );
        hands_seen += hands.len();
        hands_with_moments += hands
            .iter()
            .filter(|h| !h["moments"].as_array().unwrap().is_empty())
            .count();
        // Each hand's called pot (bets nobody matched left out), recomputed from the log.
        let called = |hand: &Value| -> u64 {
            let (first, last) = (
                hand["first"].as_u64().unwrap() as usize,
                hand["last"].as_u64().unwrap() as usize,
            );
            entries[first..=last]
                .iter()
                .map(|e| {
                    let mut bets: Vec<u64> = e["game_state"]["players"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| p["bet"].as_u64().unwrap())
                        .collect();
                    bets.sort_unstable_by(|a, b| b.cmp(a));
                    let excess = bets[0] - bets.get(1).copied().unwrap_or(0);
                    e["game_state"]["pot"].as_u64().unwrap_or(0) - excess
                })
                .max()
                .unwrap_or(0)
        };
        for hand in hands {
            assert_eq!(hand["pot"].as_u64().unwrap(), called(hand));
        }
        let mut shares: Vec<f64> = hands
            .iter()
            .map(|h| h["pot"].as_f64().unwrap() / h["chips"].as_f64().unwrap())
            .collect();
        shares.sort_by(f64::total_cmp);
        let usual = shares[shares.len() / 2];
        let hand_of = |round: &Value| hands.iter().find(|h| h["round"] == *round).unwrap();
        let highlights = game["highlights"].as_array().unwrap();
        for highlight in highlights {
            let entry = &entries[highlight["entry"].as_u64().unwrap() as usize];
            let state = &entry["game_state"];
            let moments = |hand: &Value| -> Vec<String> {
                hand_of(hand)["moments"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap().to_string())
                    .collect()
            };
            match highlight["kind"].as_str().unwrap() {
                "all_in" => {
                    all_ins += 1;
                    let seat = entry["on_turn"].as_u64().unwrap() as usize;
                    let player = &state["players"][seat];
                    assert_eq!(player["name"], highlight["player"]);
                    assert_eq!(player["stack"], 0, "{highlight}");
                    assert_eq!(player["bet"], highlight["amount"]);
                    let hand = hand_of(&highlight["hand"]);
                    let (first, last) = (
                        hand["first"].as_u64().unwrap() as usize,
                        hand["last"].as_u64().unwrap() as usize,
                    );
                    assert!(
                        entries[first..=last]
                            .iter()
                            .any(|e| e["type"] == "showdown"),
                        "an all-in nobody called is no highlight: {highlight}"
                    );
                }
                "big_pot" => {
                    let hand = hand_of(&highlight["hand"]);
                    let share = hand["pot"].as_f64().unwrap() / hand["chips"].as_f64().unwrap();
                    assert_eq!(hand["pot"], highlight["pot"]);
                    assert!(
                        share >= 3.0 * usual && share >= 1.0 / 8.0,
                        "{highlight} against {usual}"
                    );
                    assert!(moments(&highlight["hand"]).contains(&"big_pot".to_string()));
                }
                "knockout" => {
                    let hand = hand_of(&highlight["hand"]);
                    let first =
                        &entries[hand["first"].as_u64().unwrap() as usize]["game_state"]["players"];
                    let at_end = state["players"].as_array().unwrap();
                    let seat = at_end
                        .iter()
                        .position(|p| p["name"] == highlight["player"])
                        .unwrap();
                    assert_eq!(at_end[seat]["status"], "out");
                    assert_ne!(first[seat]["status"], "out");
                    assert_eq!(
                        highlight["left"].as_u64().unwrap() as usize,
                        at_end.iter().filter(|p| p["status"] != "out").count()
                    );
                    assert!(moments(&highlight["hand"]).contains(&"knockout".to_string()));
                }
                "banned" => assert!(entry["message"].as_str().unwrap().contains("Banned: ")),
                "first_win" => {
                    assert_eq!(first_wins.get(&number), highlight["id"].as_i64().as_ref());
                }
                "takes_lead" => {
                    assert_eq!(changes.get(&number), highlight["id"].as_i64().as_ref());
                    assert!(game["score"].as_u64().unwrap() >= 100);
                }
                other => panic!("unknown highlight {other}"),
            }
        }
        // No highlight is missed: a first win or a lead change the database shows is there.
        let shown_first = highlights
            .iter()
            .find(|h| h["kind"] == "first_win")
            .map(|h| h["id"].as_i64().unwrap());
        assert_eq!(
            shown_first,
            first_wins.get(&number).copied(),
            "game {number}: first win"
        );
        let lead = highlights
            .iter()
            .find(|h| h["kind"] == "takes_lead")
            .map(|h| h["id"].as_i64().unwrap());
        assert_eq!(
            lead,
            changes.get(&number).copied(),
            "game {number}: lead change"
        );
    }
    assert!(all_ins > 0, "the all-in bot's called all-ins are found");
    // The all-in bot pushes every hand; that makes few hands decisive.
    assert!(
        hands_with_moments * 2 < hands_seen,
        "{hands_with_moments} of {hands_seen} hands marked decisive"
    );

    // A bad query is a 400 with a sentence.
    let (status, body) = server.get("/api/event/broadcast?candidates=many").await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().is_some());
    // The page is served, linked from the event page.
    let (status, _) = server.get("/broadcast.js").await;
    assert_eq!(status, 200);
}
