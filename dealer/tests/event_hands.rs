//! A team's hands to look at (issue 32): each valued game's notes are the ones its record
//! gives when replayed (`value_game`), written with its luck; an event from before the notes is
//! upgraded keeping its luck; and `GET /api/event/teams/{id}`, as `dealer serve` answers it,
//! lists the newest version's costliest hands and the answers the dealer read differently than
//! they say, against the same figures recomputed from every game's record; a player's timeouts
//! and bans are noted with their hand, forgiven or not.

use crate::event_serve::Server;
use crate::support::misbehaving::{
    spawn_player_with, HealthyAnswer, MisbehavingPlayer, Misbehaviour, PlayerOptions,
};
use crate::support::wait::DEADLINE;
use dealer::event::luck::{is_timeout, value_game, value_waiting, COSTLY_HANDS_KEPT};
use dealer::event::store::{EventStore, HandNote, HandNoteKind, LuckState, DATABASE_FILE};
use dealer::event::{archive, Event};
use dealer::runner::StopSignal;
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The version the misreading player reports.
const MISS_VERSION: &str = "miss 1";

/// A player that answers one chip more than a call: a raise below the minimum, read as a call
/// (or a check), every time.
async fn misreading_player() -> MisbehavingPlayer {
    spawn_player_with(
        Misbehaviour::Healthy,
        PlayerOptions {
            healthy_answer: HealthyAnswer::CallPlusOne,
            version: MISS_VERSION.into(),
            ..PlayerOptions::default()
        },
    )
    .await
}

fn config(url: &str, pause_ms: u64) -> String {
    format!(
        "seed = 9\nhand_limit = 30\npause_ms = {pause_ms}\ntimeout_ms = 5000\nrecheck_ms = 200\n\
         [[player]]\nname = \"miss\"\nurl = \"{url}\"\n\
         [[bot]]\nname = \"ann\"\nkind = \"raiser\"\n\
         [[bot]]\nname = \"bob\"\nkind = \"random\"\n"
    )
}

/// Checks the players (seating the HTTP one), then plays rounds until `games` have finished,
/// then stops them.
async fn play_games(event: &Arc<Event>, games: usize) {
    assert_eq!(
        dealer::event::health::check_all(event).await,
        1,
        "the HTTP player answers"
    );
    crate::support::event::play_games(event, games).await;
}

/// The finished games' numbers.
fn finished(data: &Path) -> Vec<u32> {
    let db = rusqlite::Connection::open(data.join(DATABASE_FILE)).unwrap();
    db.execute_batch("PRAGMA busy_timeout = 5000").unwrap();
    let mut statement = db
        .prepare("SELECT number FROM games WHERE state = 'finished' ORDER BY number")
        .unwrap();
    let rows = statement.query_map([], |row| row.get(0)).unwrap();
    rows.map(Result::unwrap).collect()
}

/// Game `number`'s notes recomputed from its record, numbered as the store numbers them.
fn recomputed(store: &EventStore, number: u32) -> Vec<HandNote> {
    let compact = archive::compact_game(store, number).unwrap().unwrap();
    value_game(&compact)
        .unwrap()
        .notes
        .into_iter()
        .map(|note| HandNote {
            game: number,
            ..note
        })
        .collect()
}

/// The seat `name` sat at in game `number`.
fn seat_of(store: &EventStore, number: u32, name: &str) -> Option<usize> {
    let compact = archive::compact_game(store, number).unwrap().unwrap();
    compact
        .game
        .players
        .iter()
        .position(|player| player == name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_games_notes_are_its_records_and_are_written_with_its_luck() {
    let miss = misreading_player().await;
    let dir = tempfile::tempdir().unwrap();
    let event = crate::support::event::open(dir.path(), &config(miss.url(), 1));
    play_games(&event, 4).await;
    value_waiting(event.store(), &StopSignal::never()).unwrap();
    let store = event.store();
    let mut misreads = 0;
    for number in finished(dir.path()) {
        let luck = store.game_luck(number).unwrap().unwrap();
        assert_eq!(luck.state, Some(LuckState::Valued), "game {number}");
        let stored = store.game_notes(number).unwrap();
        assert_eq!(stored, recomputed(store, number), "game {number}");
        let miss_seat = seat_of(store, number, "miss");
        for seat in 0..luck.seats.len() {
            let costly: Vec<&HandNote> = stored
                .iter()
                .filter(|note| note.seat == seat && note.kind == HandNoteKind::Costly)
                .collect();
            assert!(costly.len() <= COSTLY_HANDS_KEPT);
            assert!(costly.iter().all(|note| note.cost.unwrap() > 0.0));
            assert!(costly.windows(2).all(|w| w[0].cost >= w[1].cost));
        }
        for note in stored.iter().filter(|n| n.kind == HandNoteKind::Misread) {
            // Only the misreading player answers below the minimum.
            assert_eq!(Some(note.seat), miss_seat, "{note:?}");
            assert_eq!(note.answer, Some(note.put_in.unwrap() + 1), "{note:?}");
            assert!(matches!(note.action.as_deref(), Some("call" | "check")));
            assert_eq!(note.hole.split(' ').count(), 2);
            misreads += 1;
        }
    }
    assert!(misreads > 5, "{misreads}");
    assert!(is_timeout("timeout after 2000 ms") && is_timeout("connect timeout after 5 ms"));
    assert!(!is_timeout("status 500"));
    drop(event);
    miss.stop().await;
}

/// An event from before the notes (schema 5): upgraded keeping every game's luck, those games
/// without notes and nothing left to value; the games after the upgrade get their notes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_from_before_the_notes_keeps_its_luck_and_notes_its_new_games() {
    let miss = misreading_player().await;
    let dir = tempfile::tempdir().unwrap();
    let text = config(miss.url(), 1);
    let event = crate::support::event::open(dir.path(), &text);
    play_games(&event, 2).await;
    value_waiting(event.store(), &StopSignal::never()).unwrap();
    let old = finished(dir.path());
    let lucks: Vec<_> = old
        .iter()
        .map(|&n| event.store().game_luck(n).unwrap())
        .collect();
    drop(event);
    rusqlite::Connection::open(dir.path().join(DATABASE_FILE))
        .unwrap()
        .execute_batch(
            "DROP TABLE hand_notes;
             ALTER TABLE players DROP COLUMN deploys;
             ALTER TABLE standings DROP COLUMN deploy;
             PRAGMA user_version = 5;",
        )
        .unwrap();

    let event = crate::support::event::open(dir.path(), &text);
    assert_eq!(event.store().unvalued_games().unwrap(), 0);
    for (number, luck) in old.iter().zip(&lucks) {
        assert_eq!(&event.store().game_luck(*number).unwrap(), luck);
        assert!(event.store().game_notes(*number).unwrap().is_empty());
    }
    play_games(&event, old.len() + 2).await;
    value_waiting(event.store(), &StopSignal::never()).unwrap();
    let new: Vec<u32> = finished(dir.path())
        .into_iter()
        .filter(|n| !old.contains(n))
        .collect();
    assert!(!new.is_empty());
    for number in new {
        let notes = event.store().game_notes(number).unwrap();
        assert!(!notes.is_empty(), "game {number}");
        assert_eq!(notes, recomputed(event.store(), number));
    }
    drop(event);
    miss.stop().await;
}

/// The API's notes, in the fields a table shows.
fn key(note: &Value) -> String {
    format!(
        "{} {} {} {} {} {} {} {} {}",
        note["game"],
        note["round"],
        note["kind"],
        note["cost"],
        note["hole"],
        note["board"],
        note["answer"],
        note["action"],
        note["put_in"]
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_team_view_lists_the_newest_versions_costliest_hands_and_misreads() {
    let miss = misreading_player().await;
    let temp = tempfile::tempdir().unwrap();
    let data = temp.path().join("event");
    let text = config(miss.url(), 5);
    let mut server = Server::start(&data, &text);
    let id: i64 = {
        let start = Instant::now();
        loop {
            let (_, players) = server.get("/api/event/players").await;
            let found = players
                .as_array()
                .and_then(|rows| rows.iter().find(|row| row["name"] == "miss"))
                .and_then(|row| row["id"].as_i64());
            if let Some(id) = found {
                break id;
            }
            assert!(start.elapsed() < DEADLINE, "miss not listed: {players}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    let path = format!("/api/event/teams/{id}");
    let start = Instant::now();
    loop {
        let (status, team) = server.get(&path).await;
        let ready = status == 200
            && team["versions"][0]["adjusted_games"].as_u64() >= Some(3)
            && team["hands"]["costly"]
                .as_array()
                .is_some_and(|c| !c.is_empty());
        if ready {
            break;
        }
        assert!(start.elapsed() < DEADLINE, "no hands to look at: {team}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(server.signal("-TERM"), Some(0));
    // Stopped, the database is still: the view read-only against every game's record.
    let (status, team) = Server::read_only(&data).get(&path).await;
    assert_eq!(status, 200, "{team}");
    let hands = &team["hands"];
    assert_eq!(hands["version"], MISS_VERSION);

    let store = EventStore::open_read_only(&data).unwrap();
    let mut costly = Vec::new();
    let mut counts = std::collections::BTreeMap::<String, u64>::new();
    for number in finished(&data) {
        if store.game_luck(number).unwrap().unwrap().state != Some(LuckState::Valued) {
            continue;
        }
        let Some(seat) = seat_of(&store, number, "miss") else {
            continue;
        };
        for note in recomputed(&store, number) {
            if note.seat != seat {
                continue;
            }
            if note.kind == HandNoteKind::Costly {
                costly.push(note);
            } else {
                let kind = serde_json::to_value(note.kind).unwrap();
                *counts.entry(kind.as_str().unwrap().to_owned()).or_default() += 1;
            }
        }
    }
    costly.sort_by(|a, b| {
        b.cost
            .unwrap()
            .total_cmp(&a.cost.unwrap())
            .then(b.game.cmp(&a.game))
            .then(a.round.cmp(&b.round))
    });
    costly.truncate(dealer::web::event_api::TEAM_HANDS);
    let api: Vec<String> = hands["costly"]
        .as_array()
        .unwrap()
        .iter()
        .map(key)
        .collect();
    let expected: Vec<String> = costly
        .iter()
        .map(|note| key(&serde_json::to_value(note).unwrap()))
        .collect();
    assert_eq!(api, expected);
    for note in hands["costly"].as_array().unwrap() {
        assert_eq!(note["run"], "games");
        assert!(note["cost"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(
        hands["answer_counts"],
        serde_json::to_value(&counts).unwrap()
    );
    assert!(counts.get("misread").is_some_and(|&n| n > 0), "{counts:?}");
    let answers = hands["answers"].as_array().unwrap();
    assert!(!answers.is_empty());
    for answer in answers {
        assert_eq!(answer["kind"], "misread", "{answer}");
        assert_eq!(
            answer["answer"].as_u64(),
            Some(answer["put_in"].as_u64().unwrap() + 1)
        );
    }
    miss.stop().await;
}

/// A player that times out on its first two bet requests, then answers them: with `forgiving`
/// each timeout is noted as one (the answer counted as a check or fold), without it as a ban
/// with the timeout's reason; either way in its version's list, with the hand it happened in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeouts_and_bans_are_noted_with_their_hand() {
    for forgiving in [true, false] {
        // The dealer gives up after 1 s; the late answers come after 4 s, however busy the
        // machine.
        let slow = spawn_player_with(
            Misbehaviour::FailsThenHealthy {
                times: 2,
                failure: Box::new(Misbehaviour::AnswersAfter(Duration::from_secs(4))),
            },
            PlayerOptions {
                version: "slow 1".into(),
                ..PlayerOptions::default()
            },
        )
        .await;
        let dir = tempfile::tempdir().unwrap();
        let text = format!(
            "seed = 4\nhand_limit = 20\npause_ms = 1\ntimeout_ms = 1000\nrecheck_ms = 200\n\
             forgiving = {forgiving}\n\
             [[player]]\nname = \"slow\"\nurl = \"{}\"\n\
             [[bot]]\nname = \"ann\"\nkind = \"raiser\"\n\
             [[bot]]\nname = \"bob\"\nkind = \"calling-station\"\n",
            slow.url()
        );
        let event = crate::support::event::open(dir.path(), &text);
        play_games(&event, 2).await;
        value_waiting(event.store(), &StopSignal::never()).unwrap();
        let store = event.store();
        let id = store
            .players()
            .unwrap()
            .into_iter()
            .find(|player| player.name == "slow")
            .unwrap()
            .id;
        let hands = store
            .hands_to_look_at(id, "slow 1", 0, "slow 1", 10)
            .unwrap();
        let expected = if forgiving {
            HandNoteKind::Timeout
        } else {
            HandNoteKind::Banned
        };
        let noted: Vec<&HandNote> = hands
            .answers
            .iter()
            .filter(|note| note.kind == expected)
            .collect();
        assert!(!noted.is_empty(), "forgiving {forgiving}: {hands:?}");
        if forgiving {
            assert!(noted.len() >= 2, "both timeouts: {hands:?}");
        }
        for note in &noted {
            let reason = note.reason.as_deref().unwrap_or_default();
            assert!(is_timeout(reason), "{note:?}");
            assert_eq!(note.answer, None, "no answer came in time: {note:?}");
            assert_eq!(note.hole.split(' ').count(), 2, "{note:?}");
            if forgiving {
                assert!(matches!(note.action.as_deref(), Some("check" | "fold")));
            }
            // Its hand is in the game's record: the notes replayed from it say the same.
            let replayed = recomputed(store, note.game);
            assert!(
                replayed
                    .iter()
                    .any(|other| other.round == note.round && other.kind == expected),
                "{note:?}"
            );
        }
        let key = serde_json::to_value(expected).unwrap();
        assert_eq!(
            hands.answer_counts.get(key.as_str().unwrap()),
            Some(&(noted.len() as u64)),
            "{hands:?}"
        );
        drop(event);
        slow.stop().await;
    }
}
