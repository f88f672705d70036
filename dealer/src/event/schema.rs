//! The event database's tables: kept apart from the store's code so the layout reads in one
//! place. [`SCHEMA`] is version 1; [`MIGRATIONS`] bring it to
//! [`super::store::SCHEMA_VERSION`] (a new database runs both).

pub(super) const SCHEMA: &str = "
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
";

/// `(version, SQL)`: what turns the previous version into `version`, in order. They run in
/// one transaction with foreign keys off (so a table can be rebuilt, SQLite's way of changing
/// a `CHECK`), and `foreign_key_check` must then find nothing.
///
/// Each entry is history, written out whole on purpose: versions 3 and 4 rebuild `games` with
/// mostly the same columns, but a layout shared between them would tie what a version-2
/// database gets to the next edit made for a later version. A migration's text never changes
/// once released; a new layout is a new entry.
pub(super) const MIGRATIONS: &[(i64, &str)] = &[
    (
        2,
        // What became of a game's files: `kept` as written, `compressed` (logs gzipped in place)
        // or `pruned` (folder deleted; its rows and points stay). See `event::retention`.
        "ALTER TABLE games ADD COLUMN files TEXT NOT NULL DEFAULT 'kept'
        CHECK (files IN ('kept', 'compressed', 'pruned'));",
    ),
    (
        3,
        // `compact` (only what replays the game and its hand histories, compressed; the full
        // log is regenerated when opened) and `disk_bytes` (the folder's disk blocks, measured
        // by retention, summed against the disk budget). SQLite changes a CHECK by rebuilding
        // the table.
        "CREATE TABLE games_v3 (
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
    reason TEXT,
    files TEXT NOT NULL DEFAULT 'kept' CHECK (files IN ('kept', 'compressed', 'compact', 'pruned')),
    disk_bytes INTEGER
);
INSERT INTO games_v3 (number, round, table_no, state, seed, dir, players, started_at, ended_at,
    hands, winner, reason, files, disk_bytes)
    SELECT number, round, table_no, state, seed, dir, players, started_at, ended_at, hands,
        winner, reason, files, CASE WHEN files = 'pruned' THEN 0 END FROM games;
DROP TABLE games;
ALTER TABLE games_v3 RENAME TO games;
CREATE INDEX games_state ON games (state) WHERE state = 'running';
CREATE INDEX games_unmeasured ON games (number) WHERE disk_bytes IS NULL;",
    ),
    (
        4,
        // `incomplete` (a finished game whose files could not all be written, a full disk:
        // rewritten from its record once space is back), `last_used` (when the game ended or
        // was last opened: retention deletes the full files of the least recently used
        // first), and `game_records`: each finished game's compact record
        // (`observe::compact`), written in the same transaction as its result, from which its
        // files are regenerated. `games_cached` finds the games whose files are still there.
        "CREATE TABLE games_v4 (
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
    reason TEXT,
    files TEXT NOT NULL DEFAULT 'kept'
        CHECK (files IN ('kept', 'compressed', 'compact', 'incomplete', 'pruned')),
    disk_bytes INTEGER,
    last_used INTEGER
);
INSERT INTO games_v4 (number, round, table_no, state, seed, dir, players, started_at, ended_at,
    hands, winner, reason, files, disk_bytes, last_used)
    SELECT number, round, table_no, state, seed, dir, players, started_at, ended_at, hands,
        winner, reason, files, disk_bytes, COALESCE(ended_at, started_at) FROM games;
DROP TABLE games;
ALTER TABLE games_v4 RENAME TO games;
CREATE INDEX games_state ON games (state) WHERE state = 'running';
CREATE INDEX games_unmeasured ON games (number) WHERE disk_bytes IS NULL;
CREATE INDEX games_cached ON games (number) WHERE files <> 'pruned';
CREATE TABLE game_records (
    game INTEGER PRIMARY KEY REFERENCES games (number),
    format INTEGER NOT NULL,
    record BLOB NOT NULL
);",
    ),
    (
        5,
        // Each seat's luck of the cards in points (`event::luck`), beside its standing: NULL
        // until the game is valued. `games.luck` says how valuing went: NULL not yet,
        // `valued`, `no_record` (a game recorded by a dealer from before records: it counts
        // raw) or `unreplayable` (its record stops before the game's end). `games_unvalued`
        // finds the games the valuer still has to value, oldest first.
        "ALTER TABLE games ADD COLUMN luck TEXT
    CHECK (luck IN ('valued', 'no_record', 'unreplayable'));
ALTER TABLE standings ADD COLUMN luck REAL;
CREATE INDEX games_unvalued ON games (number) WHERE luck IS NULL AND state = 'finished';",
    ),
    (
        6,
        // The hands to look at (`event::luck`, `store::hand_rows`): for each seat of each
        // valued game, its costliest hands with the luck taken out (`costly`, `cost` in
        // points) and every answer worth a second look (`misread`, `forgiven`, `timeout`,
        // `banned`), written in the game's luck transaction. Games valued before this version
        // have no rows (see `EventStore::record_luck`). Cards are short notation, space
        // separated (`Ah Kd`); `round` is the hand from 0; the decision's fields are NULL when
        // the seat was never asked.
        "CREATE TABLE hand_notes (
    game INTEGER NOT NULL REFERENCES games (number),
    seat INTEGER NOT NULL,
    round INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('costly', 'misread', 'forgiven', 'timeout', 'banned')),
    cost REAL,
    luck REAL,
    hole TEXT NOT NULL,
    board TEXT NOT NULL,
    street TEXT,
    price INTEGER,
    pot INTEGER,
    answer INTEGER,
    action TEXT,
    put_in INTEGER,
    reason TEXT
);
CREATE INDEX hand_notes_seat ON hand_notes (game, seat);",
    ),
    (
        7,
        // Redeploys (`event::versions`): `players.deploys` counts the times a player that had
        // answered came back after being down (a failed `check`, a game it sat out or was
        // banned from for a refused connection) or was added again after its removal;
        // `standings.deploy` is that count when the game was seated. A version is then a
        // version string and a deploy, so a redeploy that keeps its string is told apart.
        // Rows from before have no deploy (read as 0).
        "ALTER TABLE players ADD COLUMN deploys INTEGER NOT NULL DEFAULT 0;
ALTER TABLE standings ADD COLUMN deploy INTEGER;",
    ),
];
