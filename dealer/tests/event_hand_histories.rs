//! `GET /api/event/hands` on a real `dealer serve --data` of house bots (issue 39): every
//! finished game as PHH, pruned ones too, each game's hands what its own `hands.phhs` says plus
//! the event's two fields; `since` and the filters; clear 400s; 403 when the organiser turned it
//! off; the read-only server; the stream read by the arena's reader of recordings and parsed
//! as one TOML document. And `cargo arena --field-from http://IP:PORT/` end to end: it fits
//! the event's teams, leaves the team's own out, and its second run asks only for the games
//! after the ones it has (the server's log says which `since` it was asked).

use super::event_serve::Server;
use dealer::event::settings::{resolve_event, EventFile, EventFlags, HandHistories};
use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::Path;

/// Four house bots, two a table: the filters have games to leave out. Folders of all but the
/// newest four games are deleted (their records stay).
const FOUR_BOTS: &str = "seed = 11\nhand_limit = 30\npause_ms = 20\nrecheck_ms = 200\n\
table_size = 2\ncompress_after = 1\nkeep_games = 4\n\
[[bot]]\nname = \"ann\"\nkind = \"tight\"\n\
[[bot]]\nname = \"bob\"\nkind = \"loose\"\n\
[[bot]]\nname = \"cy\"\nkind = \"equity\"\n\
[[bot]]\nname = \"dan\"\nkind = \"shover\"\n";

/// Whether a game's seats (name, version) are ones a filter selects.
type SeatFilter<'a> = dyn Fn(&[(String, String)]) -> bool + 'a;

/// An answer of the route: status, the `Lean-Poker-*` headers, the body gunzip'd (or as text
/// when it is an error).
struct Answer {
    status: u16,
    headers: BTreeMap<String, String>,
    text: String,
}

impl Answer {
    fn header(&self, name: &str) -> u64 {
        self.headers[name].parse().unwrap()
    }

    /// Each game's hands in the stream, by number: the tables `[game-<n>-hand-<round>]`.
    fn games(&self) -> BTreeMap<u32, Vec<(u64, String)>> {
        hands_of(&self.text)
    }
}

async fn hands(server: &Server, query: &str) -> Answer {
    let response = reqwest::get(format!("{}/api/event/hands{query}", server.base()))
        .await
        .unwrap();
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .filter(|(name, _)| name.as_str().starts_with("lean-poker-"))
        .map(|(name, value)| (name.to_string(), value.to_str().unwrap().to_string()))
        .collect();
    let body = response.bytes().await.unwrap();
    let text = if status == 200 {
        let mut text = String::new();
        flate2::read::GzDecoder::new(&body[..])
            .read_to_string(&mut text)
            .unwrap();
        text
    } else {
        String::from_utf8_lossy(&body).into_owned()
    };
    Answer {
        status,
        headers,
        text,
    }
}

/// The tables of a multi-hand PHH text, named `[game-<n>-hand-<round>]` (the event's) or
/// `[<round>]` (a game's `hands.phhs`, game 0), with their bodies.
fn hands_of(text: &str) -> BTreeMap<u32, Vec<(u64, String)>> {
    let mut games: BTreeMap<u32, Vec<(u64, String)>> = BTreeMap::new();
    let mut current: Option<(u32, u64, String)> = None;
    let mut flush = |current: &mut Option<(u32, u64, String)>| {
        if let Some((game, round, body)) = current.take() {
            games.entry(game).or_default().push((round, body));
        }
    };
    for line in text.split_inclusive('\n') {
        if let Some(name) = line.strip_prefix('[') {
            flush(&mut current);
            let name = name.trim_end().trim_end_matches(']');
            let (game, round) = match name.strip_prefix("game-") {
                Some(rest) => {
                    let (game, round) = rest.split_once("-hand-").unwrap();
                    (game.parse().unwrap(), round.parse().unwrap())
                }
                None => (0, name.parse().unwrap()),
            };
            current = Some((game, round, String::new()));
        } else if let Some((_, _, body)) = &mut current {
            body.push_str(line);
        }
    }
    flush(&mut current);
    // The blank line before the next table is not the hand's.
    for hands in games.values_mut() {
        for (_, body) in hands.iter_mut() {
            body.truncate(body.trim_end().len());
        }
    }
    games
}

fn plain(path: &Path) -> Option<String> {
    if path.is_file() {
        return std::fs::read_to_string(path).ok();
    }
    let compressed = path.with_extension("phhs.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(compressed).ok()?)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

fn finished_games(data: &Path, up_to: u64) -> Vec<(u32, Vec<(String, String)>)> {
    let db = rusqlite::Connection::open(data.join("event.sqlite")).unwrap();
    let mut games = db
        .prepare(
            "SELECT number FROM games WHERE state = 'finished' AND number <= ?1 ORDER BY number",
        )
        .unwrap();
    let numbers: Vec<u32> = games
        .query_map([up_to as i64], |row| row.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    numbers
        .into_iter()
        .map(|number| {
            let mut seats = db
                .prepare("SELECT name, version FROM standings WHERE game = ?1 ORDER BY seat")
                .unwrap();
            let seats = seats
                .query_map([number], |row| Ok((row.get(0)?, row.get(1)?)))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            (number, seats)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_finished_game_pruned_ones_too_is_served_as_its_own_hand_histories_say() {
    let temp = tempfile::tempdir().unwrap();
    let data = temp.path().join("event");
    let mut live = Server::start(&data, FOUR_BOTS);
    // Enough games that old folders are pruned while newer ones are kept.
    live.wait_for("16 finished games", |s| {
        s["games_finished"].as_u64() >= Some(16)
    })
    .await;
    let during = hands(&live, "").await;
    assert_eq!(during.status, 200, "{}", during.text);
    assert!(during.header("lean-poker-games") >= 16);
    // The rest on the read-only server of the stopped event: its folders no longer change.
    assert_eq!(live.signal("-TERM"), Some(0));
    let server = Server::read_only(&data);
    let all = hands(&server, "").await;
    assert_eq!(all.status, 200, "{}", all.text);
    assert!(all.header("lean-poker-games") >= during.header("lean-poker-games"));
    assert_eq!(
        all.headers["lean-poker-event"],
        during.headers["lean-poker-event"]
    );
    let last = all.header("lean-poker-last-game");
    let expected = finished_games(&data, last);
    assert_eq!(all.header("lean-poker-games"), expected.len() as u64);
    assert_eq!(all.header("lean-poker-games-without-record"), 0);
    assert_eq!(all.headers["lean-poker-event"].len(), 24);
    let games = all.games();
    assert_eq!(
        games.keys().copied().collect::<Vec<_>>(),
        expected.iter().map(|(n, _)| *n).collect::<Vec<_>>()
    );
    // One TOML document (unique tables), as PokerKit's load_all reads a .phhs file.
    let document: toml::Table = toml::from_str(&all.text).unwrap();
    assert_eq!(
        document.len(),
        games.values().map(Vec::len).sum::<usize>(),
        "a table a hand"
    );
    let kinds: BTreeMap<&str, &str> = [
        ("ann", "tight 1"),
        ("bob", "loose 1"),
        ("cy", "equity 1"),
        ("dan", "shover 1"),
    ]
    .into();
    let (mut pruned, mut compared) = (0, 0);
    for (number, seats) in &expected {
        let hands = &games[number];
        // Each hand's two event fields: the game's number, each listed player's version.
        for (_, body) in hands {
            let table: toml::Table = toml::from_str(body).unwrap();
            assert_eq!(
                table["_lean_event_game"].as_integer(),
                Some(i64::from(*number))
            );
            let players = table["players"].as_array().unwrap();
            let versions = table["_lean_versions"].as_array().unwrap();
            assert_eq!(players.len(), versions.len());
            for (player, version) in players.iter().zip(versions) {
                let player = player.as_str().unwrap();
                assert_eq!(version.as_str(), Some(kinds[player]), "game {number}");
                assert!(seats.iter().any(|(name, _)| name == player));
            }
        }
        // Byte for byte what the game's own hands.phhs says, but for the two fields and the
        // tables' names; a game whose folder was deleted is there like any other.
        let folder = data.join("games").join(format!("game-{number}"));
        if !folder.exists() {
            pruned += 1;
            assert!(!hands.is_empty(), "game {number}");
            continue;
        }
        let own = hands_of(&plain(&folder.join("hands.phhs")).unwrap());
        let without_fields: Vec<(u64, String)> = hands
            .iter()
            .map(|(round, body)| {
                let kept: String = body
                    .split_inclusive('\n')
                    .filter(|line| {
                        !line.starts_with("_lean_event_game") && !line.starts_with("_lean_versions")
                    })
                    .collect();
                (*round, kept.trim_end().to_string())
            })
            .collect();
        if let Some(((round, stream), (_, file))) =
            without_fields.iter().zip(&own[&0]).find(|(a, b)| a != b)
        {
            panic!(
                "game {number}, hand {round}: the stream says\n{stream}\nhands.phhs says\n{file}"
            );
        }
        assert_eq!(without_fields.len(), own[&0].len(), "game {number}");
        compared += 1;
    }
    assert!(
        pruned > 0 && compared > 0,
        "{pruned} pruned, {compared} kept"
    );

    // The arena's reader of recordings reads every hand of it.
    let file = temp.path().join("hands.phhs.gz");
    std::fs::write(
        &file,
        reqwest::get(format!("{}/api/event/hands", server.base()))
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap(),
    )
    .unwrap();
    let fit = arena::field::fit(&[file], 2).unwrap();
    assert_eq!(fit.unreadable, 0, "{:?}", fit.problems);
    let names: Vec<&str> = fit
        .players
        .iter()
        .map(|p| p.profile.name.as_str())
        .collect();
    assert_eq!(names, ["ann", "bob", "cy", "dan"]);

    // `since`: only the games after it; after the last, none (a valid file all the same).
    let middle = expected[expected.len() / 2].0;
    let after = hands(&server, &format!("?since={middle}")).await;
    let numbers: Vec<u32> = after.games().into_keys().collect();
    let later: Vec<u32> = expected
        .iter()
        .map(|(n, _)| *n)
        .filter(|&n| n > middle)
        .collect();
    assert_eq!(numbers, later);
    assert_eq!(after.header("lean-poker-games"), later.len() as u64);
    let none = hands(&server, &format!("?since={}", u32::MAX)).await;
    assert_eq!(none.status, 200);
    assert_eq!(none.header("lean-poker-games"), 0);
    assert!(none.games().is_empty());
    assert!(none.text.starts_with("# Lean Poker hand history in PHH"));

    // Filters: a player's games, a version's, both on the same seat, several of each.
    let count = |filter: &SeatFilter<'_>, up_to: u64| {
        finished_games(&data, up_to)
            .iter()
            .filter(|(_, seats)| filter(seats))
            .count() as u64
    };
    let has =
        |name: &'static str| move |seats: &[(String, String)]| seats.iter().any(|(n, _)| n == name);
    for (query, filter) in [
        ("?player=ann", Box::new(has("ann")) as Box<SeatFilter<'_>>),
        ("?version=loose%201", Box::new(has("bob"))),
        (
            "?player=ann&player=cy",
            Box::new(|s: &[(String, String)]| has("ann")(s) || has("cy")(s)),
        ),
        (
            "?player=ann&version=loose%201",
            Box::new(|_: &[(String, String)]| false),
        ),
        ("?player=bob&version=loose%201", Box::new(has("bob"))),
    ] {
        let answer = hands(&server, query).await;
        assert_eq!(answer.status, 200, "{query}: {}", answer.text);
        let games = answer.header("lean-poker-games");
        // The stopped event's games: its last game, or none (then the `since` asked, 0).
        let up_to = answer.header("lean-poker-last-game");
        assert!(up_to <= last && (games == 0) == (up_to == 0), "{query}");
        assert_eq!(games, count(&*filter, last), "{query}");
        assert_eq!(answer.games().len() as u64, games, "{query}");
        if !query.contains("cy") {
            assert!(games < count(&|_| true, last), "{query}");
        }
    }
    // Bad parameters: a 400 saying what is wrong.
    for (query, says) in [
        ("?since=yesterday", "not a game number"),
        ("?since=-3", "not a game number"),
        ("?since=1&since=2", "twice"),
        ("?player=", "empty"),
        ("?team=ann", "unknown parameter \"team\""),
    ] {
        let answer = hands(&server, query).await;
        assert_eq!(answer.status, 400, "{query}");
        let error: serde_json::Value = serde_json::from_str(&answer.text).unwrap();
        assert!(
            error["error"].as_str().unwrap().contains(says),
            "{query}: {}",
            answer.text
        );
    }

    // Unless the organiser says not to.
    drop(server);
    let off = Server::read_only_with(&data, &["--hand-histories", "off"]);
    let refused = hands(&off, "").await;
    assert_eq!(refused.status, 403);
    assert!(
        refused
            .text
            .contains("turned this event's hand histories off"),
        "{}",
        refused.text
    );
}

#[test]
fn the_organiser_turns_them_off_in_the_config_file_or_by_flag() {
    let resolve = |file: &str, flag: Option<HandHistories>| {
        let file: EventFile = toml::from_str(file).map_err(|e| e.to_string())?;
        resolve_event(
            EventFlags {
                hand_histories: flag,
                ..EventFlags::default()
            },
            file,
        )
        .map(|settings| settings.hand_histories)
        .map_err(|e| e.to_string())
    };
    assert_eq!(resolve("", None), Ok(HandHistories::On));
    assert_eq!(
        resolve("hand_histories = \"off\"", None),
        Ok(HandHistories::Off)
    );
    assert_eq!(
        resolve("hand_histories = false", None),
        Ok(HandHistories::Off)
    );
    assert_eq!(
        resolve("hand_histories = true", None),
        Ok(HandHistories::On)
    );
    assert_eq!(
        resolve("hand_histories = \"off\"", Some(HandHistories::On)),
        Ok(HandHistories::On),
        "the flag wins"
    );
    let error = resolve("hand_histories = \"maybe\"", None).unwrap_err();
    assert!(error.contains("\"on\" or \"off\""), "{error}");
    assert_eq!(HandHistories::parse("off"), Ok(HandHistories::Off));
    assert!(HandHistories::parse("no").is_err());
}

/// A bot whose version is the raiser's: at the event, that is ann's.
struct LikeAnn;

impl player::Player for LikeAnn {
    fn bet_request(&self, state: &player::GameState) -> player::Chips {
        state.call_amount()
    }

    fn version(&self) -> String {
        "raiser 1".to_string()
    }
}

/// The `since` of every download the server logged, in order.
fn asked_since(server: &Server) -> Vec<u64> {
    server
        .log_text()
        .lines()
        .filter(|line| line.contains("hand histories sent"))
        .map(|line| {
            let at = line.find("since=").unwrap() + "since=".len();
            line[at..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cargo_arena_fits_a_running_events_teams_and_fetches_only_new_games_the_second_time() {
    let temp = tempfile::tempdir().unwrap();
    let data = temp.path().join("event");
    let config = "seed = 5\nhand_limit = 40\npause_ms = 20\nrecheck_ms = 200\n\
        [[bot]]\nname = \"ann\"\nkind = \"raiser\"\n\
        [[bot]]\nname = \"bob\"\nkind = \"random\"\n\
        [[bot]]\nname = \"cy\"\nkind = \"equity\"\n";
    let server = Server::start_with(&data, config, "127.0.0.39", &["-v"]);
    // Enough games for every team's 1,000 decisions.
    server
        .wait_for("50 finished games", |s| {
            s["games_finished"].as_u64() >= Some(50)
        })
        .await;
    let arena_dir = temp.path().join("arena");
    let address = format!("{}/", server.base());
    let arena = |more: &[&str]| {
        let args: Vec<std::ffi::OsString> = ["--field-from", address.as_str()]
            .iter()
            .chain(["--games", "8", "--no-save", "--threads", "2"].iter())
            .chain(more)
            .map(Into::into)
            .collect();
        arena::cli::run_with_args(args, &LikeAnn, &arena_dir)
    };
    // Who sat at the arena's table, from its report.
    let report = temp.path().join("report.json");
    let seated = || -> Vec<String> {
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        report["report"]["entrants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["name"].as_str().unwrap().to_string())
            .collect()
    };
    let json = report.to_str().unwrap().to_string();
    // First run: every game; ann, which played this bot's version, is left out.
    arena(&["--json", &json]).unwrap();
    assert_eq!(asked_since(&server), [0]);
    assert_eq!(seated(), ["you", "bob", "cy"]);
    let cache = arena_dir.join("events").join(
        address
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .replace(':', "-"),
    );
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cache.join("index.json")).unwrap()).unwrap();
    let first_last = index["last_game"].as_u64().unwrap();
    assert!(first_last >= 50);
    let teams: Vec<(&str, &str)> = index["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["team"].as_str().unwrap(), v["version"].as_str().unwrap()))
        .collect();
    assert_eq!(
        teams,
        [("ann", "raiser 1"), ("bob", "random 1"), ("cy", "equity 1")]
    );
    let fit: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cache.join("fit.json")).unwrap()).unwrap();
    for team in fit["teams"].as_array().unwrap() {
        assert!(
            team["choice"]["decisions"].as_u64() >= Some(1_000),
            "{team}"
        );
        assert_eq!(team["choice"]["pooled"], false);
    }

    // More games; the second run asks only for the games after the last one it has.
    server
        .wait_for("more games", |s| {
            s["games_finished"].as_u64() >= Some(first_last + 5)
        })
        .await;
    arena(&["--me", "bob", "--json", &json]).unwrap();
    assert_eq!(asked_since(&server), [0, first_last]);
    assert_eq!(seated(), ["you", "ann", "cy"]);
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cache.join("index.json")).unwrap()).unwrap();
    assert!(index["last_game"].as_u64().unwrap() >= first_last + 5);
    assert_eq!(
        index["games"].as_u64(),
        Some(finished_games(&data, index["last_game"].as_u64().unwrap()).len() as u64)
    );

    // A name that is no team, a server with nothing there, the route turned off.
    let error = arena(&["--me", "nobody"]).unwrap_err();
    assert!(error.contains("--me \"nobody\" is not a team"), "{error}");
    let closed = std::net::TcpListener::bind("127.0.0.39:0").unwrap();
    let nowhere = format!("http://{}/", closed.local_addr().unwrap());
    drop(closed);
    let error = arena::cli::run_with_args(
        vec!["--field-from".into(), nowhere.into()],
        &LikeAnn,
        &arena_dir,
    )
    .unwrap_err();
    assert!(error.contains("cannot reach"), "{error}");
    let off_data = temp.path().join("off");
    let off = Server::start_with(
        &off_data,
        config,
        "127.0.0.39",
        &["--hand-histories", "off"],
    );
    let error = arena::cli::run_with_args(
        vec!["--field-from".into(), format!("{}/", off.base()).into()],
        &LikeAnn,
        &arena_dir,
    )
    .unwrap_err();
    assert!(
        error.contains("does not serve its hand histories"),
        "{error}"
    );
    assert!(
        error.contains("turned this event's hand histories off"),
        "{error}"
    );
}
