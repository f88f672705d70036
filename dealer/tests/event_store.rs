//! The event's library parts: seating a round, the database across a restart (a game
//! cut off is abandoned and not counted), folders that cannot be written, and the background
//! health check bringing a player back.

use dealer::event::health::{can_play, check_all};
use dealer::event::players::Enrollment;
use dealer::event::seating::{seat_round, split_tables};
use dealer::event::settings::Contact;
use dealer::event::store::{
    EventStore, FinishedGame, NewGame, SeatRecord, StoreError, StoredRecord, CUT_OFF, DATABASE_FILE,
};
use dealer::event::Event;
use dealer::house::BotKind;
use std::net::{SocketAddr, TcpListener};
use std::path::Path;

#[test]
fn twenty_three_players_sit_at_three_balanced_tables_reshuffled_each_round() {
    let players: Vec<u32> = (0..23).collect();
    let sizes: Vec<usize> = split_tables(players.clone(), 10)
        .iter()
        .map(Vec::len)
        .collect();
    assert_eq!(sizes, [8, 8, 7]);
    let first = seat_round(players.clone(), 11, 1, 10);
    let second = seat_round(players.clone(), 11, 2, 10);
    assert_eq!(first.iter().map(Vec::len).collect::<Vec<_>>(), [8, 8, 7]);
    assert_ne!(first, second, "every round is reshuffled");
    let mut seated = second.concat();
    seated.sort_unstable();
    assert_eq!(seated, players, "everyone plays, once");
    // Ten fit one table; eleven make two of 6 and 5.
    assert_eq!(split_tables((0..10).collect::<Vec<u8>>(), 10).len(), 1);
    let eleven: Vec<usize> = split_tables((0..11).collect::<Vec<u8>>(), 10)
        .iter()
        .map(Vec::len)
        .collect();
    assert_eq!(eleven, [6, 5]);
}

fn seat(seat: usize, player_id: Option<i64>, name: &str, place: usize) -> SeatRecord {
    SeatRecord {
        seat,
        player_id,
        name: name.to_string(),
        place,
        points: dealer::result::points_for_place(place),
        banned: None,
        absent: None,
        version: format!("{name} v1"),
        deploy: 0,
    }
}

fn new_game(players: &[&str]) -> NewGame {
    NewGame {
        round: 1,
        table: 1,
        players: players.iter().map(|p| p.to_string()).collect(),
        started_at: 1,
    }
}

#[test]
fn a_restart_keeps_every_finished_game_and_abandons_the_one_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let (ann, bob);
    {
        let (store, opened) = EventStore::open(dir.path()).unwrap();
        assert!(opened.created);
        ann = store
            .add_player("ann", &Contact::Bot(BotKind::Raiser), 1)
            .unwrap();
        bob = store
            .add_player(
                "bob",
                &Contact::Http {
                    url: "http://team:secret@127.0.0.1:9/".into(),
                    token: None,
                },
                1,
            )
            .unwrap();
        let (number, dir_name, _) = store
            .start_game(&new_game(&["ann", "bob", "house 1"]), |n| n.into())
            .unwrap();
        assert_eq!((number, dir_name.as_str()), (1, "game-1"));
        let totals = store
            .record_finished(&FinishedGame {
                number,
                hands: 12,
                ended_at: 2,
                seats: vec![
                    seat(0, Some(ann), "ann", 2),
                    seat(1, Some(bob), "bob", 1),
                    seat(2, None, "house 1", 3),
                ],
                record: Some(StoredRecord {
                    format: 1,
                    bytes: vec![1, 2, 3],
                }),
            })
            .unwrap();
        assert_eq!(totals, [(ann, 3), (bob, 5)]);
        // The game's record is written with its result, in the same transaction.
        assert_eq!(
            store
                .game_record(number)
                .unwrap()
                .map(|record| record.bytes),
            Some(vec![1, 2, 3])
        );
        // The second game is running when the process dies (the store is dropped unclosed).
        let (second, _, _) = store
            .start_game(&new_game(&["ann", "bob"]), |n| n.into())
            .unwrap();
        assert_eq!(second, 2);
        std::mem::forget(store);
    }
    let (store, opened) = EventStore::open(dir.path()).unwrap();
    assert!(!opened.created);
    assert_eq!(opened.abandoned, [2]);
    let players = store.players().unwrap();
    let by_name = |name: &str| players.iter().find(|p| p.name == name).unwrap().clone();
    assert_eq!(
        (
            by_name("ann").record.points,
            by_name("ann").record.games,
            by_name("ann").record.seconds
        ),
        (3, 1, 1)
    );
    assert_eq!(
        (by_name("bob").record.points, by_name("bob").record.wins),
        (5, 1)
    );
    assert_eq!(by_name("bob").version.as_deref(), Some("bob v1"));
    // The URL's credentials are kept to reach the player, never shown.
    assert_eq!(by_name("bob").address(), "http://127.0.0.1:9/");
    let page = dealer::event::queries::games_page(&store, 1, 10).unwrap();
    assert_eq!(page.total, 2);
    assert!(page.running.is_empty());
    assert_eq!(page.games[0].state, "abandoned");
    assert_eq!(page.games[0].reason.as_deref(), Some(CUT_OFF));
    assert_eq!(page.games[1].winner.as_deref(), Some("bob"));
    assert_eq!(page.games[1].standings.len(), 3);
    let integrity: String = store
        .read(|c| c.query_row("PRAGMA integrity_check", [], |r| r.get(0)))
        .unwrap();
    assert_eq!(integrity, "ok");
    // Numbers go on after the last game, cut off or not.
    let (third, _, seed) = store
        .start_game(&new_game(&["ann", "bob"]), |n| u64::from(n) * 10)
        .unwrap();
    assert_eq!((third, seed), (3, 30));
}

#[test]
fn names_are_unique_and_statuses_change() {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = EventStore::open(dir.path()).unwrap();
    let ann = store
        .add_player("ann", &Contact::Bot(BotKind::Folder), 1)
        .unwrap();
    store
        .add_player("bob", &Contact::Bot(BotKind::Folder), 1)
        .unwrap();
    assert!(matches!(
        store.add_player("ann", &Contact::Bot(BotKind::Raiser), 1),
        Err(StoreError::Refused(_))
    ));
    assert!(matches!(
        store.rename_player(ann, "bob"),
        Err(StoreError::Refused(_))
    ));
    store.rename_player(ann, "anne").unwrap();
    // A removed player added again comes back as itself, at the new address; a paused one's
    // name stays taken.
    let bob = store
        .players()
        .unwrap()
        .into_iter()
        .find(|p| p.name == "bob")
        .unwrap()
        .id;
    store.set_status(bob, Enrollment::Removed).unwrap();
    let again = store
        .add_player("bob", &Contact::Bot(BotKind::Raiser), 2)
        .unwrap();
    assert_eq!(again, bob);
    let back = store
        .players()
        .unwrap()
        .into_iter()
        .find(|p| p.id == bob)
        .unwrap();
    assert_eq!(back.status, Enrollment::Active);
    assert_eq!(back.contact, Contact::Bot(BotKind::Raiser));
    store.set_status(ann, Enrollment::Paused).unwrap();
    assert!(matches!(
        store.add_player("anne", &Contact::Bot(BotKind::Raiser), 3),
        Err(StoreError::Refused(_))
    ));
    assert!(matches!(
        store.set_status(99, Enrollment::Active),
        Err(StoreError::UnknownPlayer(99))
    ));
    let anne = store
        .players()
        .unwrap()
        .into_iter()
        .find(|p| p.id == ann)
        .unwrap();
    assert_eq!(
        (anne.name.as_str(), anne.status),
        ("anne", Enrollment::Paused)
    );
    assert!(!can_play(&anne), "a paused player sits out");
}

#[test]
fn an_unwritable_event_folder_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    // `games` is a file: the game folders cannot be made (root ignores permissions, so a
    // read-only folder would not test anything here).
    std::fs::write(dir.path().join("games"), "not a folder").unwrap();
    let error = EventStore::open(dir.path()).unwrap_err().to_string();
    assert!(
        error.contains("cannot write the event folder") && error.contains("games"),
        "{error}"
    );
    // The database's place is taken by a folder.
    let other = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(other.path().join(DATABASE_FILE)).unwrap();
    let error = EventStore::open(other.path()).unwrap_err().to_string();
    assert!(
        error.contains("event database") && error.contains(DATABASE_FILE),
        "{error}"
    );
}

#[test]
fn a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    drop(EventStore::open(dir.path()).unwrap());
    let connection = rusqlite::Connection::open(dir.path().join(DATABASE_FILE)).unwrap();
    connection
        .execute_batch("PRAGMA user_version = 99")
        .unwrap();
    drop(connection);
    let error = EventStore::open(dir.path()).unwrap_err().to_string();
    assert!(error.contains("schema version 99"), "{error}");
}

/// The tables a schema-2 dealer wrote (before `compact` and `disk_bytes`), as a fixture.
const SCHEMA_2: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    url TEXT,
    token TEXT,
    bot TEXT,
    status TEXT NOT NULL CHECK (status IN ('active', 'paused', 'removed')),
    added_at INTEGER NOT NULL,
    version TEXT,
    last_seen INTEGER,
    down_reason TEXT,
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    seconds INTEGER NOT NULL DEFAULT 0,
    points INTEGER NOT NULL DEFAULT 0,
    bans INTEGER NOT NULL DEFAULT 0,
    absences INTEGER NOT NULL DEFAULT 0,
    CHECK ((url IS NULL) <> (bot IS NULL))
);
CREATE TABLE config_imports (name TEXT PRIMARY KEY);
CREATE TABLE games (
    number INTEGER PRIMARY KEY,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running', 'finished', 'abandoned')),
    seed TEXT NOT NULL,
    dir TEXT NOT NULL,
    players TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    hands INTEGER,
    winner TEXT,
    reason TEXT
);
CREATE INDEX games_state ON games (state) WHERE state = 'running';
CREATE TABLE standings (
    game INTEGER NOT NULL REFERENCES games (number),
    seat INTEGER NOT NULL,
    player_id INTEGER REFERENCES players (id),
    name TEXT NOT NULL,
    place INTEGER NOT NULL,
    points INTEGER NOT NULL,
    total_after INTEGER,
    banned TEXT,
    absent TEXT,
    version TEXT,
    PRIMARY KEY (game, seat)
);
CREATE INDEX standings_player ON standings (player_id, game);
ALTER TABLE games ADD COLUMN files TEXT NOT NULL DEFAULT 'kept'
    CHECK (files IN ('kept', 'compressed', 'pruned'));
PRAGMA user_version = 2;";

#[test]
fn a_schema_2_database_is_upgraded_keeping_every_row_and_reference() {
    let dir = tempfile::tempdir().unwrap();
    let connection = rusqlite::Connection::open(dir.path().join(DATABASE_FILE)).unwrap();
    connection.execute_batch(SCHEMA_2).unwrap();
    connection
        .execute_batch(
            "INSERT INTO players (id, name, bot, status, added_at, games, points)
                VALUES (1, 'ann', 'raiser', 'active', 1, 2, 5);
             INSERT INTO games (number, round, table_no, state, seed, dir, players, started_at,
                ended_at, hands, winner, files)
                VALUES (1, 1, 1, 'finished', '7', 'game-1', '[\"ann\",\"house 1\"]', 1, 2, 30,
                    'ann', 'compressed'),
                       (2, 2, 1, 'finished', '8', 'game-2', '[\"ann\",\"house 1\"]', 3, 4, 12,
                    'house 1', 'pruned');
             INSERT INTO standings (game, seat, player_id, name, place, points, total_after)
                VALUES (1, 0, 1, 'ann', 1, 5, 5), (1, 1, NULL, 'house 1', 2, 3, NULL),
                       (2, 0, 1, 'ann', 2, 3, 8), (2, 1, NULL, 'house 1', 1, 5, NULL);",
        )
        .unwrap();
    drop(connection);

    let (store, opened) = EventStore::open(dir.path()).unwrap();
    assert!(!opened.created);
    let page = dealer::event::queries::games_page(&store, 1, 10).unwrap();
    let rows: Vec<_> = page
        .games
        .iter()
        .map(|g| (g.number, g.hands, g.files, g.standings.len()))
        .collect();
    use dealer::event::store::GameFiles;
    assert_eq!(
        rows,
        [
            (2, Some(12), GameFiles::Pruned, 2),
            (1, Some(30), GameFiles::Compressed, 2)
        ]
    );
    // The new state and the disk measure are accepted; nothing is measured yet.
    assert_eq!(
        store.unmeasured_games().unwrap().len(),
        1,
        "the pruned game takes no disk"
    );
    store
        .set_game_files(1, GameFiles::Compact, Some(40_960))
        .unwrap();
    assert_eq!(store.games_disk_bytes().unwrap(), 40_960);
    // Version 4: a game's record beside its rows, the `incomplete` state, and the old games'
    // last use (when they ended), so retention's order holds for them too.
    store
        .add_game_record(
            1,
            &StoredRecord {
                format: 1,
                bytes: vec![9, 9],
            },
        )
        .unwrap();
    assert_eq!(store.game_record(1).unwrap().unwrap().bytes, [9, 9]);
    assert_eq!(store.game_record(2).unwrap(), None);
    store
        .set_game_files(1, GameFiles::Incomplete, None)
        .unwrap();
    assert_eq!(store.incomplete_games().unwrap().len(), 1);
    let cached = store.cached_games_by_use(0).unwrap();
    assert_eq!(
        cached
            .iter()
            .map(|game| (game.number, game.has_record))
            .collect::<Vec<_>>(),
        [(1, true)],
        "the pruned game has no files to delete"
    );
    store.game_opened(1, 10).unwrap();
    // Foreign keys still hold after the rebuild of `games`.
    let connection = rusqlite::Connection::open(dir.path().join(DATABASE_FILE)).unwrap();
    let version: i64 = connection
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .unwrap();
    assert_eq!(version, dealer::event::store::SCHEMA_VERSION);
    connection
        .execute_batch("PRAGMA foreign_keys = ON")
        .unwrap();
    let orphan = connection.execute(
        "INSERT INTO standings (game, seat, name, place, points) VALUES (99, 0, 'x', 1, 5)",
        [],
    );
    assert!(orphan.is_err(), "a standing of no game is refused");
    let orphan = connection.execute(
        "INSERT INTO game_records (game, format, record) VALUES (99, 1, x'00')",
        [],
    );
    assert!(orphan.is_err(), "a record of no game is refused");
}

fn free_address() -> SocketAddr {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
}

fn event_in(dir: &Path, file: &str) -> std::sync::Arc<Event> {
    crate::support::event::open(dir, file)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_down_player_sits_out_with_its_reason_and_comes_back_when_it_answers() {
    let dir = tempfile::tempdir().unwrap();
    let address = free_address();
    let event = event_in(
        dir.path(),
        &format!("timeout_ms = 5000\n[[player]]\nname = \"ann\"\nurl = \"http://{address}/\"\n"),
    );
    assert_eq!(check_all(&event).await, 0);
    let ann = event.store().players().unwrap().remove(0);
    let reason = ann.down_reason.clone().expect("ann is down");
    assert!(reason.starts_with("check failed"), "{reason}");
    assert!(!can_play(&ann));
    let leaderboard = event.leaderboard().unwrap();
    assert!(!leaderboard.players[0].up);
    // The team deploys at that address: the next check seats it again.
    let server = player::ServerBuilder::new(player::from_fn(|state| state.call_amount()))
        .address(address)
        .workers(1)
        .start()
        .unwrap();
    assert_eq!(check_all(&event).await, 1);
    let ann = event.store().players().unwrap().remove(0);
    assert_eq!(ann.down_reason, None);
    assert!(ann.last_seen.is_some());
    assert!(can_play(&ann));
    drop(server);
}

#[test]
fn config_players_are_imported_once() {
    let dir = tempfile::tempdir().unwrap();
    let config =
        "[[bot]]\nname = \"ann\"\nkind = \"raiser\"\n[[bot]]\nname = \"bob\"\nkind = \"folder\"\n";
    let event = event_in(dir.path(), config);
    let ann = event.players().unwrap()[0].id;
    event.rename_player(ann, "anne").unwrap();
    drop(event);
    // A restart with the same config does not bring "ann" back beside "anne".
    let event = event_in(dir.path(), config);
    let names: Vec<String> = event
        .players()
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names, ["anne", "bob"]);
    // The event's seed is kept from the first start.
    let seed = event.seed();
    drop(event);
    assert_eq!(event_in(dir.path(), "seed = 1").seed(), seed);
}

#[test]
fn a_banned_player_is_last_seen_before_the_game_that_banned_it() {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = EventStore::open(dir.path()).unwrap();
    let ann = store
        .add_player("ann", &Contact::Bot(BotKind::Raiser), 1)
        .unwrap();
    let bob = store
        .add_player("bob", &Contact::Bot(BotKind::Folder), 1)
        .unwrap();
    let last_seen = |id: i64| {
        store
            .players()
            .unwrap()
            .into_iter()
            .find(|p| p.id == id)
            .unwrap()
            .last_seen
    };
    for (ended_at, bob_banned) in [(2, false), (9, true)] {
        let (number, _, _) = store
            .start_game(&new_game(&["ann", "bob"]), |n| n.into())
            .unwrap();
        let mut bob_seat = seat(1, Some(bob), "bob", 2);
        if bob_banned {
            bob_seat.banned = Some("timeout after 2000 ms".into());
        }
        store
            .record_finished(&FinishedGame {
                number,
                hands: 3,
                ended_at,
                seats: vec![seat(0, Some(ann), "ann", 1), bob_seat],
                record: None,
            })
            .unwrap();
    }
    assert_eq!(last_seen(ann), Some(9));
    assert_eq!(
        last_seen(bob),
        Some(2),
        "not moved by the game that banned it"
    );
}
