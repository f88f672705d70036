//! The house server of an event (`dealer serve --data DIR`): sit'n'go after sit'n'go
//! between the event's players until stopped, with everything kept in a database so that a
//! restart continues where the event was.
//!
//! - [`settings`]: the event's TOML file and checked settings;
//! - [`store`]: the SQLite database (players, games, standings, points; one transaction per
//!   finished game);
//! - [`players`]: player status and what the page shows of a player;
//! - [`seating`]: seating a round (balanced tables, reshuffled every round, house bots filling);
//! - [`health`]: the background `check` of every player, so a dead URL sits out with its
//!   reason instead of costing every game the `wait_ms` wait;
//! - [`scheduler`]: the rounds: tables played concurrently, each game recorded as it ends;
//! - [`queries`]: the games list and the points history;
//! - [`form`]: each team's recent form and rating;
//! - [`lookups`]: single games by number (the race's games, a game's teams);
//! - [`outcome_files`]: each game's `result.json` / `abandoned.json` in its folder, for the
//!   read-only viewer;
//! - [`retention`]: old games' logs compressed in place, the least recently used games' files
//!   deleted within the disk budget (their compact records stay);
//! - [`cut_files`]: the files a full disk cut, a broken cache: the game opened from its
//!   record, the files written again or dropped as soon as they are found;
//! - [`space`]: the free-space margin below which no game starts, and the reserve that keeps
//!   a full disk from costing a finished game's record;
//! - [`archive`]: every game's files regenerated from its compact record, for the viewer and
//!   `dealer replay`;
//! - [`luck`]: every finished game's luck of the cards by seat, valued from its record in the
//!   background;
//! - [`versions`]: each team's points by version, raw and with the luck taken out, and its
//!   newest version against the one before;
//! - [`hand_histories`]: the finished games as PHH hand histories, replayed from their records
//!   and streamed gzip'd (`GET /api/event/hands`).
//!
//! [`Event`] is the state the scheduler, the health checker and the web API share.

pub mod archive;
pub mod cut_files;
pub mod form;
pub mod hand_histories;
pub mod health;
pub mod lookups;
pub mod luck;
pub mod outcome_files;
pub mod players;
pub mod queries;
pub mod retention;
pub mod scheduler;
mod schema;
pub mod seating;
pub mod settings;
pub mod space;
mod storage_state;
pub mod store;
pub mod versions;

pub use storage_state::{PlayPause, PlayResumed};
use storage_state::{PlayState, StorageError};

use crate::seat::{ClientError, HttpClient};
use players::{leaderboard_order, Enrollment, PlayerView};
use queries::{History, PointsHistory};
use serde::Serialize;
use settings::{Contact, EventSettings};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use store::{EventStore, StoreError};
use thiserror::Error;
use tokio::sync::Notify;

/// Why an event cannot start.
#[derive(Debug, Error)]
pub enum EventError {
    /// The database or the folder.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The HTTP client.
    #[error(transparent)]
    Client(#[from] ClientError),
}

/// The state shared by the scheduler, the health checker and the web API.
#[derive(Debug)]
pub struct Event {
    settings: EventSettings,
    store: EventStore,
    seed: u64,
    tournament_id: String,
    client: HttpClient,
    history: Mutex<History>,
    storage_error: Mutex<Option<StorageError>>,
    /// Why play is paused (free space below the margin), and the last pause that ended.
    play: Mutex<PlayState>,
    /// The reserve that gives a full disk's last space to the games' records.
    reserve: space::Reserve,
    /// Held while a record makes room on a full disk ([`retention::CacheForRecords`]), so
    /// that two games ending together do not both delete cached files for one record's room.
    making_room: Mutex<()>,
    /// Games that ended while the database could not be written, oldest first.
    unrecorded: Mutex<Vec<scheduler::Unrecorded>>,
    /// Woken when the players change (added, resumed...), so the scheduler and the health
    /// checker do not wait for their next tick.
    changed: Notify,
    /// Woken after every round, so retention looks at the games that just ended.
    games_ended: Notify,
    /// Woken after every round, so the luck valuer values the games that just ended.
    luck_wanted: Notify,
    /// Woken after every retention pass, so a scheduler waiting for the disk budget looks
    /// again. Passes are numbered as they start (`retention_started`); `retention_done` is the
    /// number of the last one finished and `retention_thinned` whether it made any old game
    /// smaller, so the scheduler can wait for a pass that began after its games ended.
    retention_passed: Notify,
    retention_started: std::sync::atomic::AtomicU64,
    retention_done: std::sync::atomic::AtomicU64,
    retention_thinned: std::sync::atomic::AtomicBool,
    /// Whether a retention task runs ([`retention::run_retention`]): the scheduler only
    /// waits for passes that will come.
    retention_running: std::sync::atomic::AtomicBool,
    /// Served read-only (`dealer serve --out`): the database is only read, and every change
    /// is refused.
    read_only: bool,
    /// Whether retention said the budget cannot be met (said once, until it can again).
    over_budget_said: std::sync::atomic::AtomicBool,
    /// Games whose record did not reproduce their files: their files are never deleted for it.
    unfaithful: Mutex<std::collections::HashSet<u32>>,
    /// Games opened in the viewer since the last retention pass, with when (written to the
    /// database by the pass: a page view never waits for a write).
    opened: Mutex<std::collections::HashMap<u32, i64>>,
    /// Finished games whose files could not all be written and whose state could not be
    /// recorded either (a full disk): retention records them incomplete when it can.
    cut_files: Mutex<Vec<u32>>,
    /// Games this server is playing or finishing (their files are still being written).
    playing: Mutex<std::collections::HashSet<u32>>,
    /// What the disk budget holds back for the games in play, and what it forced.
    budget: retention::BudgetState,
}

/// `now` in ms since the epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The event's status line for the page.
#[derive(Debug, Clone, Serialize)]
pub struct EventStatus {
    /// The event's tournament id (shared by its games).
    pub tournament_id: String,
    /// The event seed.
    pub seed: String,
    /// Finished games.
    pub games_finished: usize,
    /// Most players at one table.
    pub table_size: usize,
    /// Why games cannot be recorded, while they cannot (shown on the page).
    pub storage_error: Option<String>,
    /// Why no new game starts, while play is paused for want of free space.
    pub play_paused: Option<PlayPause>,
    /// The last pause that ended (the page says when play resumed).
    pub play_resumed: Option<PlayResumed>,
    /// Whether an organiser token is set (without one, the organiser API refuses everything).
    pub organiser_api: bool,
    /// Whether the event is served read-only (`dealer serve --out`): its standings as the
    /// database has them, no games played, no change accepted.
    pub read_only: bool,
    /// The disk budget, and how often it forced old games' files smaller early (`None`:
    /// no budget, or served read-only).
    pub disk_budget: Option<retention::DiskBudgetStatus>,
    /// Whether the finished games are served as hand histories (`GET /api/event/hands`, what
    /// `cargo arena --field-from` fetches), or the organiser turned them off.
    pub hand_histories: bool,
}

/// The leaderboard: players (removed ones left out) in order.
#[derive(Debug, Clone, Serialize)]
pub struct Leaderboard {
    /// The event's status.
    pub event: EventStatus,
    /// Players, first first.
    pub players: Vec<PlayerView>,
}

impl Event {
    /// Opens the event's database (creating it), records games cut off by a crash as
    /// abandoned, imports the config file's new players.
    ///
    /// # Errors
    /// The folder or database cannot be used, or the HTTP client cannot be built.
    pub fn open(settings: EventSettings) -> Result<Arc<Event>, EventError> {
        let (store, opened) = EventStore::open(&settings.data)?;
        if !opened.abandoned.is_empty() {
            tracing::warn!(games = ?opened.abandoned, "games cut off by the last stop are recorded as abandoned");
        }
        let games = settings.data.join(store::GAMES_DIR);
        for &number in &opened.abandoned {
            let dir = crate::tournament::game_dir_name(number);
            // The database learns the hands from the log the game left, so the games list and
            // abandoned.json say how far it got.
            let hands_played = outcome_files::hands_of_cut_off_game(&games.join(&dir));
            if let Some(hands) = hands_played {
                store.set_hands(number, hands)?;
            }
            let game = crate::tournament::InterruptedGame {
                game: number,
                dir,
                hands_played,
                reason: store::CUT_OFF.to_string(),
            };
            if let Err(error) = outcome_files::write_abandoned(&games, &game) {
                tracing::warn!(game = number, %error, "cannot write the game's abandoned.json");
            }
        }
        let seed = match store.meta("seed")?.and_then(|s| s.parse::<u64>().ok()) {
            Some(seed) => seed,
            None => {
                let seed = settings.seed.unwrap_or_else(crate::settings::random_seed);
                store.set_meta("seed", &seed.to_string())?;
                seed
            }
        };
        let rules = serde_json::json!({
            "game": settings.game,
            "request_timeout_ms": settings.http.request_timeout.as_millis() as u64,
            "wait_ms": settings.runner.check.deadline.as_millis() as u64,
            "table_size": settings.table_size,
        });
        store.set_meta("settings", &rules.to_string())?;
        let added = store.import_config_players(&settings.players, now_ms())?;
        if !added.is_empty() {
            tracing::info!(players = ?added, "players added from the config file");
        }
        Event::assemble(settings, store, seed, false)
    }

    /// Opens the event in `data` read-only (`dealer serve --out DIR` on an event's folder):
    /// the leaderboard, the points chart and the games as the database has them, from a
    /// connection SQLite opens read-only, so a finished event is shown without playing again
    /// and an event still running elsewhere is not disturbed. Nothing is marked abandoned,
    /// imported or upgraded; a game the database calls `running` is listed so.
    ///
    /// # Errors
    /// `data` has no event database, or it cannot be read (see [`EventStore::open_read_only`]).
    /// `hand_histories` says whether its finished games are served as hand histories.
    pub fn open_read_only(
        data: PathBuf,
        hand_histories: settings::HandHistories,
    ) -> Result<Arc<Event>, EventError> {
        let store = EventStore::open_read_only(&data)?;
        let seed = store
            .meta("seed")?
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or_default();
        // The table size recorded by the server that played (only the status line shows it).
        let table_size = store
            .meta("settings")?
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .and_then(|rules| rules["table_size"].as_u64())
            .and_then(|size| usize::try_from(size).ok());
        let flags = settings::EventFlags {
            data: Some(data),
            hand_histories: Some(hand_histories),
            ..settings::EventFlags::default()
        };
        let mut settings = settings::resolve_event(flags, settings::EventFile::default())
            .map_err(|error| StoreError::Refused(error.to_string()))?;
        if let Some(table_size) = table_size {
            settings.table_size = table_size;
        }
        Event::assemble(settings, store, seed, true)
    }

    /// The shared state of an opened database, its history loaded.
    fn assemble(
        settings: EventSettings,
        store: EventStore,
        seed: u64,
        read_only: bool,
    ) -> Result<Arc<Event>, EventError> {
        let history = History::load(&store)?;
        let client = HttpClient::new(settings.http)?;
        let reserve = space::Reserve::new(&settings.data);
        let budget = retention::BudgetState::load(&store)?;
        Ok(Arc::new(Event {
            budget,
            reserve,
            play: Mutex::new(PlayState::default()),
            tournament_id: crate::tournament::tournament_id(seed),
            settings,
            store,
            seed,
            client,
            history: Mutex::new(history),
            storage_error: Mutex::new(None),
            making_room: Mutex::new(()),
            unrecorded: Mutex::new(Vec::new()),
            changed: Notify::new(),
            games_ended: Notify::new(),
            luck_wanted: Notify::new(),
            retention_passed: Notify::new(),
            retention_started: std::sync::atomic::AtomicU64::new(0),
            retention_done: std::sync::atomic::AtomicU64::new(0),
            retention_thinned: std::sync::atomic::AtomicBool::new(false),
            retention_running: std::sync::atomic::AtomicBool::new(false),
            read_only,
            over_budget_said: std::sync::atomic::AtomicBool::new(false),
            unfaithful: Mutex::new(std::collections::HashSet::new()),
            opened: Mutex::new(std::collections::HashMap::new()),
            cut_files: Mutex::new(Vec::new()),
            playing: Mutex::new(std::collections::HashSet::new()),
        }))
    }

    /// Whether the event is served read-only ([`Event::open_read_only`]).
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// The settings.
    pub fn settings(&self) -> &EventSettings {
        &self.settings
    }

    /// The database.
    pub fn store(&self) -> &EventStore {
        &self.store
    }

    /// The event seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Notes that the viewer opened game `number` (retention keeps the files of the games
    /// used most recently); nothing when served read-only.
    pub fn game_opened(&self, number: u32) {
        if !self.read_only {
            self.opened
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(number, now_ms());
        }
    }

    /// The games opened since the last call, with when.
    fn take_opened(&self) -> std::collections::HashMap<u32, i64> {
        std::mem::take(&mut *self.opened.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Whether this server is still playing or finishing game `number` (its files are being
    /// written).
    fn is_playing(&self, number: u32) -> bool {
        self.playing
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(&number)
    }

    /// Notes a finished game whose files were cut and could not be recorded so.
    fn files_cut(&self, number: u32) {
        self.cut_files
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(number);
    }

    /// The games noted by [`Event::files_cut`] since the last call.
    fn take_cut_files(&self) -> Vec<u32> {
        std::mem::take(
            &mut *self
                .cut_files
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    /// The reserve of the event's folder ([`space`]).
    pub fn reserve(&self) -> &space::Reserve {
        &self.reserve
    }

    /// The games waiting to be recorded.
    fn unrecorded(&self) -> std::sync::MutexGuard<'_, Vec<scheduler::Unrecorded>> {
        self.unrecorded
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Wakes the scheduler and the health checker (players changed).
    pub fn players_changed(&self) {
        self.changed.notify_waiters();
    }

    /// The status block of the page.
    pub fn status(&self) -> EventStatus {
        let (play_paused, play_resumed) = {
            let play = self.play_state();
            (play.paused.clone(), play.last_resumed.clone())
        };
        EventStatus {
            tournament_id: self.tournament_id.clone(),
            seed: self.seed.to_string(),
            games_finished: self.current_history().len(),
            table_size: self.settings.table_size,
            storage_error: self.storage_error(),
            play_paused,
            play_resumed,
            organiser_api: self.settings.admin_token.is_some(),
            read_only: self.read_only,
            disk_budget: if self.read_only {
                None
            } else {
                retention::budget_status(self)
            },
            hand_histories: self.settings.hand_histories.served(),
        }
    }

    /// Every player (removed ones too), by id.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn players(&self) -> Result<Vec<PlayerView>, StoreError> {
        Ok(self
            .store
            .players()?
            .iter()
            .map(players::StoredPlayer::view)
            .collect())
    }

    /// The leaderboard.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn leaderboard(&self) -> Result<Leaderboard, StoreError> {
        let mut players: Vec<PlayerView> = self
            .players()?
            .into_iter()
            .filter(|p| p.status != Enrollment::Removed)
            .collect();
        players.sort_by(leaderboard_order);
        Ok(Leaderboard {
            event: self.status(),
            players,
        })
    }

    /// The points history of the leaderboard's players, at most `max_points` games.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn history(&self, max_points: usize) -> Result<PointsHistory, StoreError> {
        let players: Vec<(i64, String)> = self
            .leaderboard()?
            .players
            .into_iter()
            .map(|p| (p.id, p.name))
            .collect();
        Ok(self.current_history().sample(&players, max_points))
    }

    /// The games numbered `since` or later after which another team led the event alone:
    /// game → its player id (see [`History::lead_changes`]).
    pub fn lead_changes(&self, since: u32) -> std::collections::HashMap<u32, i64> {
        self.current_history().lead_changes(since)
    }

    /// Adds a player.
    ///
    /// # Errors
    /// A bad name or URL, a taken name ([`StoreError::Refused`]), or the database.
    pub fn add_player(&self, name: &str, contact: Contact) -> Result<i64, StoreError> {
        crate::settings::check_name(name).map_err(StoreError::Refused)?;
        if let Contact::Http { url, token } = &contact {
            Contact::endpoint(url, token.as_deref()).map_err(StoreError::Refused)?;
        }
        let id = self.store.add_player(name, &contact, now_ms())?;
        tracing::info!(player = name, "player added");
        self.players_changed();
        Ok(id)
    }

    /// Renames a player.
    ///
    /// # Errors
    /// A bad or taken name, an unknown player, or the database.
    pub fn rename_player(&self, id: i64, name: &str) -> Result<(), StoreError> {
        crate::settings::check_name(name).map_err(StoreError::Refused)?;
        self.store.rename_player(id, name)?;
        self.players_changed();
        Ok(())
    }

    /// Pauses, resumes or removes a player (from the next round on; a game in progress
    /// plays on).
    ///
    /// # Errors
    /// An unknown player, or the database.
    pub fn set_status(&self, id: i64, status: Enrollment) -> Result<(), StoreError> {
        self.store.set_status(id, status)?;
        tracing::info!(
            player = id,
            status = status.as_str(),
            "player status changed"
        );
        self.players_changed();
        Ok(())
    }

    /// The points history as the database has it now: this server's own appends, or, served
    /// read-only, what another server playing the event has recorded since the last look (a
    /// database that cannot be read now leaves the history as it was, and says so in the log).
    fn current_history(&self) -> std::sync::MutexGuard<'_, History> {
        let mut history = self.history.lock().unwrap_or_else(PoisonError::into_inner);
        if self.read_only {
            if let Err(error) = history.catch_up(&self.store) {
                tracing::warn!(%error, "the event's new standings cannot be read");
            }
        }
        history
    }

    /// Appends a finished game's totals to the history.
    fn record_history(&self, game: u32, totals: &[(i64, i64)]) {
        self.history
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .record(game, totals);
    }
}
