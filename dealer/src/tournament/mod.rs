//! A run: N sit'n'gos between the same entrants, up to K at a time, with `results.json`.
//!
//! # Seeds (the same run seed replays the run)
//!
//! Everything random in a run follows from the run seed `S` through ChaCha8 generators
//! (`rand_chacha`, `seed_from_u64`):
//!
//! - game `n`'s seed is the `n`-th `next_u64()` of the generator seeded with `S`;
//! - the tournament id is 12 random bytes, in hex, from stream 1 of that generator;
//! - game `n`'s seating is a shuffle of the entrants (in the order given) by stream 3 of the
//!   generator seeded with the game's seed;
//! - inside a game, the engine uses streams 0 (first button, decks) and 1 (game id) of the
//!   game's seed, and the runner stream 2 (first button when absent players sit out);
//! - a house bot with random choices is seeded with `game seed + seat`.
//!
//! So the same run seed, the same entrants in the same order and the same answers give the
//! same games, byte for byte in every log of a reproducible run. Games run in parallel do not
//! affect each other's randomness.
//!
//! # Outputs
//!
//! # Duplicate deals, shards
//!
//! [`Tournament::with_duplicate`] plays every deal set once per rotation of the seats (see
//! [`duplicate`]); [`Tournament::with_shard`] plays one shard of the run's games and
//! [`merge`] combines the shards (see [`shard`]). Ratings with uncertainty
//! ([`crate::rating`]) are computed over the games in game order, so they do not depend on the
//! order games finish in, on `parallel`, or on sharding.
//!
//! Under the run folder: `results.json` (see [`RunResults`]; rewritten as games finish, after
//! every game while it is small and then as often as keeps writing under a tenth of the run's
//! time, and at the end, so a stopped run keeps every game it finished and a killed one the
//! games up to its last write) and `game-<n>/` per game, which the observers fill
//! ([`ObserverFactory`]).

pub mod duplicate;
pub(crate) mod results;
pub mod shard;
mod summary;

pub use duplicate::{duplicate_plan, DealRef};
use results::ShowdownWarnings;
pub use results::{
    Absent, DealSetEntry, DealSetPoints, GameEntry, InterruptedGame, PlayerEntry, RequestWarning,
    RunResults, Standing, Total,
};
pub use shard::{merge, BadShard, MergeError, Shard};

use crate::config::{ConfigError, GameConfig};
use crate::engine::{
    object_id, DeckError, DeckSource, GameSetup, RecordedDecks, MAX_SEATS, MIN_SEATS,
};
use crate::house::BotKind;
use crate::observe::Observer;
use crate::progress::RunProgress;
use crate::runner::{run_game, GameOutcome, RunError, RunnerOptions, StopSignal};
use crate::seat::{
    ClientError, HttpClient, HttpSettings, InProcessSeat, PlayerEndpoint, PlayerSeat,
};
use rand::seq::SliceRandom;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use thiserror::Error;
use tokio::task::JoinSet;

/// Who plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    /// The name it plays under (unique in the run).
    pub name: String,
    /// How to reach it.
    pub kind: EntrantKind,
}

/// How to reach an entrant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntrantKind {
    /// A player served over HTTP.
    Http(PlayerEndpoint),
    /// A house bot, played in this process (a fresh one per game).
    Bot(BotKind),
}

impl Entrant {
    /// An HTTP player.
    pub fn http(name: impl Into<String>, endpoint: PlayerEndpoint) -> Entrant {
        Entrant {
            name: name.into(),
            kind: EntrantKind::Http(endpoint),
        }
    }

    /// A house bot.
    pub fn bot(name: impl Into<String>, kind: BotKind) -> Entrant {
        Entrant {
            name: name.into(),
            kind: EntrantKind::Bot(kind),
        }
    }

    fn entry(&self) -> PlayerEntry {
        match &self.kind {
            EntrantKind::Http(endpoint) => PlayerEntry {
                name: self.name.clone(),
                url: Some(endpoint.to_string()),
                bot: None,
            },
            EntrantKind::Bot(kind) => PlayerEntry {
                name: self.name.clone(),
                url: None,
                bot: Some(kind.to_string()),
            },
        }
    }
}

/// How a run is played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentSettings {
    /// The rules of every game.
    pub game: GameConfig,
    /// How the dealer talks HTTP to the players: the request deadline and the connection pool.
    pub http: HttpSettings,
    /// How many sit'n'gos.
    pub games: u32,
    /// The run seed (see the [module docs](self)).
    pub seed: u64,
    /// How many games at a time.
    pub parallel: usize,
    /// Check polling, absent players, version retries, clock.
    pub runner: RunnerOptions,
    /// The run folder.
    pub out_dir: PathBuf,
}

/// What the observers of one game are told when they are created.
#[derive(Debug, Clone, Copy)]
pub struct GameContext<'a> {
    /// 1-based game number.
    pub number: u32,
    /// The game's folder (`<run folder>/game-<n>`), already created.
    pub dir: &'a Path,
    /// The game's setup: players in seat order, seed, ids, rules.
    pub setup: &'a GameSetup,
    /// Each seat's address (URL without credentials, or `in-process`), in seat order.
    pub addresses: &'a [String],
}

/// Makes the observers (outputs) of each game.
pub type ObserverFactory =
    Arc<dyn Fn(&GameContext<'_>) -> io::Result<Vec<Box<dyn Observer>>> + Send + Sync>;

/// One game of the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedGame {
    /// 1-based.
    pub number: u32,
    /// The game's seed.
    pub seed: u64,
    /// Entrant indexes in seat order.
    pub seating: Vec<usize>,
    /// Its deal set and rotation (duplicate mode only).
    pub deal: Option<DealRef>,
    /// The game id, when it is not the one the engine derives from the seed (the rotations
    /// after the first of a deal set share the seed).
    pub game_id: Option<String>,
}

/// A run that cannot start.
#[derive(Debug, Error)]
pub enum TournamentError {
    /// Fewer than 2 entrants.
    #[error("a sit'n'go needs at least {MIN_SEATS} players, got {0}")]
    TooFewPlayers(usize),
    /// More entrants than seats.
    #[error("a sit'n'go seats at most {MAX_SEATS} players, got {0}")]
    TooManyPlayers(usize),
    /// A blank name.
    #[error("player names must not be blank")]
    BlankName,
    /// Two entrants with one name.
    #[error("two players are named {0:?}; names must be unique")]
    DuplicateName(String),
    /// Zero games.
    #[error("--games must be at least 1")]
    NoGames,
    /// More games than a run can number.
    #[error("{deal_sets} deal sets of {players} rotations are more games than a run can hold")]
    TooManyGames {
        /// Deal sets asked for.
        deal_sets: u32,
        /// Players (rotations per deal set).
        players: usize,
    },
    /// Zero parallelism.
    #[error("--parallel must be at least 1")]
    NoParallelism,
    /// Invalid rules.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The HTTP client could not be built.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// Recorded decks that cannot deal to a table of the run's players.
    #[error("--decks {0}")]
    Decks(DeckError),
    /// The run folder already holds a run.
    #[error("{0} already holds a run (results.json); choose another --out folder")]
    OutputExists(PathBuf),
    /// A folder or file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// What.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunEnd {
    /// Every game was played.
    Complete,
    /// Stopped from outside (Ctrl-C).
    Stopped,
    /// A game could not be played (players down, an output that cannot be created...).
    Failed(String),
}

/// What a run produced.
#[derive(Debug, Clone)]
pub struct RunReport {
    /// The content of `results.json`.
    pub results: RunResults,
    /// Where `results.json` is.
    pub results_path: PathBuf,
    /// How the run ended.
    pub end: RunEnd,
}

/// A run, ready to play.
pub struct Tournament {
    entrants: Vec<Entrant>,
    settings: TournamentSettings,
    observers: Option<ObserverFactory>,
    progress: RunProgress,
    tournament_id: String,
    /// Every game of the run (not only this shard's), in game order.
    plan: Vec<PlannedGame>,
    duplicate: bool,
    shard: Option<Shard>,
    /// Where every game's cards come from.
    decks: DeckSource,
}

impl std::fmt::Debug for Tournament {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tournament")
            .field("entrants", &self.entrants)
            .field("settings", &self.settings)
            .field("duplicate", &self.duplicate)
            .field("shard", &self.shard)
            .finish_non_exhaustive()
    }
}

/// The plan of a run: seeds and seatings (see the [module docs](self)).
pub fn plan(seed: u64, games: u32, entrants: usize) -> Vec<PlannedGame> {
    let mut seeds = ChaCha8Rng::seed_from_u64(seed);
    (1..=games)
        .map(|number| {
            let game_seed = seeds.next_u64();
            let mut shuffle = ChaCha8Rng::seed_from_u64(game_seed);
            shuffle.set_stream(3);
            let mut seating: Vec<usize> = (0..entrants).collect();
            seating.shuffle(&mut shuffle);
            PlannedGame {
                number,
                seed: game_seed,
                seating,
                deal: None,
                game_id: None,
            }
        })
        .collect()
}

/// The run's tournament id (see the [module docs](self)).
pub fn tournament_id(seed: u64) -> String {
    let mut ids = ChaCha8Rng::seed_from_u64(seed);
    ids.set_stream(1);
    object_id(&mut ids)
}

impl Tournament {
    /// Checks the entrants and settings.
    ///
    /// # Errors
    /// Too few or too many players, a blank or duplicate name, zero games or parallelism, or
    /// invalid rules.
    pub fn new(
        entrants: Vec<Entrant>,
        settings: TournamentSettings,
    ) -> Result<Tournament, TournamentError> {
        if entrants.len() < MIN_SEATS {
            return Err(TournamentError::TooFewPlayers(entrants.len()));
        }
        if entrants.len() > MAX_SEATS {
            return Err(TournamentError::TooManyPlayers(entrants.len()));
        }
        for (index, entrant) in entrants.iter().enumerate() {
            if entrant.name.trim().is_empty() {
                return Err(TournamentError::BlankName);
            }
            if entrants[..index].iter().any(|e| e.name == entrant.name) {
                return Err(TournamentError::DuplicateName(entrant.name.clone()));
            }
        }
        if settings.games == 0 {
            return Err(TournamentError::NoGames);
        }
        if settings.parallel == 0 {
            return Err(TournamentError::NoParallelism);
        }
        settings.game.validate()?;
        if settings.http.request_timeout.is_zero() {
            return Err(ClientError::ZeroTimeout.into());
        }
        Ok(Tournament {
            tournament_id: tournament_id(settings.seed),
            plan: plan(settings.seed, settings.games, entrants.len()),
            duplicate: false,
            shard: None,
            decks: DeckSource::Seeded,
            entrants,
            settings,
            observers: None,
            progress: RunProgress::hidden(),
        })
    }

    /// Sets what records each game (the files of `game-<n>/`).
    pub fn with_observers(mut self, factory: ObserverFactory) -> Tournament {
        self.observers = Some(factory);
        self
    }

    /// Duplicate deals (see [`duplicate`]): `settings.games` counts deal sets, and each is
    /// played once per rotation of the seats, `games × players` sit'n'gos in all.
    ///
    /// # Errors
    /// More games than a run can number.
    pub fn with_duplicate(mut self, duplicate: bool) -> Result<Tournament, TournamentError> {
        let (seed, games, players) = (self.settings.seed, self.settings.games, self.entrants.len());
        self.plan = if duplicate {
            duplicate_plan(seed, games, players).ok_or(TournamentError::TooManyGames {
                deal_sets: games,
                players,
            })?
        } else {
            plan(seed, games, players)
        };
        self.duplicate = duplicate;
        Ok(self)
    }

    /// Every game deals hand `h` from `decks`' deck for hand `h` instead of drawing it from
    /// its seed (a game ends when its hands outnumber the decks).
    ///
    /// # Errors
    /// [`TournamentError::Decks`] when a deck has fewer cards than a table of the run's players
    /// deals from.
    pub fn with_decks(mut self, decks: Arc<RecordedDecks>) -> Result<Tournament, TournamentError> {
        decks
            .check_table(self.entrants.len())
            .map_err(TournamentError::Decks)?;
        self.decks = DeckSource::Recorded(decks);
        Ok(self)
    }

    /// Plays only the games of `shard` (see [`shard`]); `results.json` says which shard.
    pub fn with_shard(mut self, shard: Shard) -> Tournament {
        self.shard = Some(shard);
        self
    }

    /// The games this run plays (this shard's only, for a shard), in game order.
    pub fn planned_games(&self) -> impl Iterator<Item = &PlannedGame> + '_ {
        self.plan
            .iter()
            .filter(|game| self.shard.is_none_or(|shard| shard.plays(game.number)))
    }

    /// Shows progress bars.
    pub fn with_progress(mut self, progress: RunProgress) -> Tournament {
        self.progress = progress;
        self
    }

    /// The run's tournament id.
    pub fn tournament_id(&self) -> &str {
        &self.tournament_id
    }

    /// Plays the run. Games that finish are in `results.json` at once; a stop or a failed
    /// game ends the run early (games in progress are abandoned), and [`RunReport::end`] says
    /// why. Never returns before every game task has ended.
    ///
    /// # Errors
    /// Only for a run that cannot start or whose `results.json` cannot be written.
    pub async fn run(self, stop: &StopSignal) -> Result<RunReport, TournamentError> {
        let out_dir = self.settings.out_dir.clone();
        let results_path = out_dir.join("results.json");
        if results_path.exists() {
            return Err(TournamentError::OutputExists(out_dir));
        }
        std::fs::create_dir_all(&out_dir).map_err(|source| TournamentError::Write {
            path: out_dir.clone(),
            source,
        })?;
        let client = HttpClient::new(self.settings.http)?;
        let settings = &self.settings;
        let players: Vec<PlayerEntry> = self.entrants.iter().map(Entrant::entry).collect();
        let mut results = RunResults {
            tournament_id: self.tournament_id.clone(),
            seed: settings.seed,
            reproducible: settings.runner.clock == crate::runner::Clock::Reproducible,
            games_planned: u32::try_from(self.plan.len()).unwrap_or(u32::MAX),
            complete: false,
            stopped_because: None,
            config: settings.game.clone(),
            request_timeout_ms: settings.http.request_timeout.as_millis() as u64,
            absent_players: settings.runner.absent,
            players: players.clone(),
            games: Vec::new(),
            interrupted: Vec::new(),
            totals: Vec::new(),
            duplicate: self.duplicate,
            deal_sets: Vec::new(),
            shard: self.shard,
        };
        let mut finished: BTreeMap<u32, GameEntry> = BTreeMap::new();
        let mut rater = summary::Rater::new(&results, self.planned_games().map(|g| g.number));
        summary::summarise(&mut results, &finished, &mut rater);
        write_results(&results_path, &results)?;
        let mut next_write = Instant::now();

        let to_play = self.planned_games().count();
        let mut plan = self.planned_games();
        let mut running: JoinSet<GameDone> = JoinSet::new();
        let mut end = RunEnd::Complete;
        // A failed game stops the others; so does the user's `stop`.
        let (abort_handle, abort) = stop.child();
        loop {
            while running.len() < settings.parallel && !abort.is_stopped() {
                let Some(planned) = plan.next() else { break };
                let task = self.game_task(planned, &client, &abort);
                running.spawn(task);
            }
            let Some(joined) = running.join_next().await else {
                break;
            };
            let (number, deal, outcome, showdown_warnings) = match joined {
                Ok(done) => done,
                Err(join_error) => {
                    abort_handle.stop();
                    if end == RunEnd::Complete {
                        end = RunEnd::Failed(format!("a game task failed: {join_error}"));
                    }
                    continue;
                }
            };
            match outcome {
                Ok(outcome) => {
                    let summary = summary(number, &outcome);
                    self.progress.game_done(&summary);
                    tracing::info!("{summary}");
                    let mut entry = GameEntry::new(number, game_dir_name(number), outcome);
                    entry.deal = deal;
                    entry.showdown_warnings = showdown_warnings.take();
                    finished.insert(number, entry);
                    if Instant::now() >= next_write {
                        let started = Instant::now();
                        summary::summarise(&mut results, &finished, &mut rater);
                        if let Err(error) = write_results(&results_path, &results) {
                            tracing::error!("{error}");
                        }
                        // Each write holds every game so far: writing after every game would
                        // make a long run quadratic. Keep the writes under a tenth of the
                        // wall time (after every game while results.json is small).
                        next_write = Instant::now() + started.elapsed() * 9;
                    }
                }
                Err(GameFailure::Run(RunError::Stopped { hands_played })) => {
                    if end == RunEnd::Complete {
                        end = RunEnd::Stopped;
                    }
                    results.interrupted.push(InterruptedGame {
                        game: number,
                        dir: game_dir_name(number),
                        hands_played: Some(hands_played),
                        reason: match &end {
                            RunEnd::Failed(message) => format!("stopped because {message}"),
                            _ => STOPPED_BY_THE_USER.to_string(),
                        },
                    });
                }
                Err(failure) => {
                    abort_handle.stop();
                    let message = format!("game {number}: {failure}");
                    results.interrupted.push(InterruptedGame {
                        game: number,
                        dir: game_dir_name(number),
                        hands_played: None,
                        reason: failure.to_string(),
                    });
                    // The caller reports it (the CLI's one-line error).
                    tracing::info!("{message}");
                    if matches!(end, RunEnd::Complete | RunEnd::Stopped) {
                        end = RunEnd::Failed(message);
                    }
                }
            }
        }
        if end == RunEnd::Complete && finished.len() < to_play {
            end = RunEnd::Stopped;
        }
        if stop.is_stopped() && end == RunEnd::Complete {
            end = RunEnd::Stopped;
        }
        summary::summarise(&mut results, &finished, &mut rater);
        results.interrupted.sort_by_key(|game| game.game);
        results.complete = end == RunEnd::Complete;
        results.stopped_because = match &end {
            RunEnd::Complete => None,
            RunEnd::Stopped => Some(STOPPED_BY_THE_USER.to_string()),
            RunEnd::Failed(message) => Some(message.clone()),
        };
        write_results(&results_path, &results)?;
        Ok(RunReport {
            results,
            results_path,
            end,
        })
    }

    /// Everything one game needs, as a task that owns it.
    fn game_task(
        &self,
        planned: &PlannedGame,
        client: &HttpClient,
        stop: &StopSignal,
    ) -> impl std::future::Future<Output = GameDone> + Send + 'static {
        let number = planned.number;
        let deal = planned.deal;
        let seated: Vec<&Entrant> = planned.seating.iter().map(|&i| &self.entrants[i]).collect();
        let mut setup = GameSetup::new(
            self.settings.game.clone(),
            seated.iter().map(|e| e.name.clone()).collect(),
            planned.seed,
        );
        setup.tournament_id = self.tournament_id.clone();
        if let Some(game_id) = &planned.game_id {
            setup.game_id = game_id.clone();
        }
        setup.decks = self.decks.clone();
        let seats: Vec<PlayerSeat> = seated
            .iter()
            .enumerate()
            .map(|(seat, entrant)| match &entrant.kind {
                EntrantKind::Http(endpoint) => PlayerSeat::from(client.seat(endpoint.clone())),
                EntrantKind::Bot(kind) => PlayerSeat::from(InProcessSeat::new(
                    kind.build(planned.seed.wrapping_add(seat as u64)),
                )),
            })
            .collect();
        let addresses: Vec<String> = seats.iter().map(|s| s.address().to_string()).collect();
        let dir = self.settings.out_dir.join(game_dir_name(number));
        let showdown_warnings = ShowdownWarnings::default();
        let observers = (|| -> io::Result<Vec<Box<dyn Observer>>> {
            std::fs::create_dir_all(&dir)?;
            let mut observers: Vec<Box<dyn Observer>> = Vec::new();
            if let Some(factory) = &self.observers {
                observers = factory(&GameContext {
                    number,
                    dir: &dir,
                    setup: &setup,
                    addresses: &addresses,
                })?;
            }
            observers.push(Box::new(self.progress.game(number)));
            observers.push(Box::new(showdown_warnings.clone()));
            Ok(observers)
        })();
        let options = self.settings.runner.clone();
        let stop = stop.clone();
        async move {
            let observers = match observers {
                Ok(observers) => observers,
                Err(source) => {
                    return (
                        number,
                        deal,
                        Err(GameFailure::Outputs {
                            path: dir,
                            reason: source.to_string(),
                        }),
                        showdown_warnings,
                    )
                }
            };
            let outcome = run_game(setup, seats, observers, &options, &stop)
                .await
                .map_err(GameFailure::Run);
            (number, deal, outcome, showdown_warnings)
        }
    }
}

/// `stopped_because` (and an interrupted game's reason) after Ctrl-C or SIGTERM.
const STOPPED_BY_THE_USER: &str = "stopped by the user (Ctrl-C or SIGTERM)";

/// A game task's end: its number, its deal set and rotation (duplicate mode), how it went, and
/// its failed `showdown`s.
type GameDone = (
    u32,
    Option<DealRef>,
    Result<GameOutcome, GameFailure>,
    ShowdownWarnings,
);

/// Why one game of a run failed.
#[derive(Debug, Error)]
enum GameFailure {
    #[error(transparent)]
    Run(RunError),
    #[error("cannot create the outputs in {path}: {reason}")]
    Outputs { path: PathBuf, reason: String },
}

/// `game-<n>`.
pub fn game_dir_name(number: u32) -> String {
    format!("game-{number}")
}

fn summary(number: u32, outcome: &GameOutcome) -> String {
    let result = &outcome.result;
    let winner = result
        .ranking
        .first()
        .and_then(|seat| result.players.get(seat.index()))
        .map_or("nobody", String::as_str);
    format!(
        "game {number}: {winner} won after {} hands",
        result.hands_played
    )
}

/// Writes `results.json` whole or not at all (a temporary file renamed over it).
pub(crate) fn write_results(path: &Path, results: &RunResults) -> Result<(), TournamentError> {
    let write = || -> io::Result<()> {
        let mut json = serde_json::to_vec_pretty(results).map_err(io::Error::other)?;
        json.push(b'\n');
        let temporary = path.with_extension("json.tmp");
        std::fs::write(&temporary, json)?;
        std::fs::rename(&temporary, path)
    };
    write().map_err(|source| TournamentError::Write {
        path: path.to_path_buf(),
        source,
    })
}
