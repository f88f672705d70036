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
//! - inside a game, the engine uses streams 0 (first button) and 1 (game id) of the game's
//!   seed, and 32 bytes of stream 5 as the key of every hand's cards (hand `h` from stream
//!   `h` of that key, [`crate::engine::deck`]); the runner uses stream 2 (first button when
//!   absent players sit out);
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
mod merge;
mod plan;
mod play;
pub(crate) mod results;
pub mod shard;
mod summary;

pub use duplicate::{duplicate_plan, DealRef};
pub use merge::{merge, MergeError};
pub use plan::{plan, tournament_id, PlannedGame};
pub use play::game_dir_name;
pub(crate) use play::write_results;
pub use results::{
    Absent, DealSetEntry, DealSetPoints, GameEntry, InterruptedGame, PlayerEntry, RequestWarning,
    RunResults, Standing, Total,
};
pub use shard::{BadShard, Shard};

use crate::engine::{DeckError, DeckSource, GameSetup, RecordedDecks, MAX_SEATS, MIN_SEATS};
use crate::house::Opponent;
use crate::observe::Observer;
use crate::progress::RunProgress;
use crate::rules::{GameRules, RulesError};
use crate::runner::RunnerOptions;
use crate::seat::{ClientError, HttpSettings, PlayerEndpoint};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use thiserror::Error;

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
    /// A house bot (a kind or a fitted profile), played in this process (a fresh one per
    /// game).
    Bot(Opponent),
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
    pub fn bot(name: impl Into<String>, opponent: impl Into<Opponent>) -> Entrant {
        Entrant {
            name: name.into(),
            kind: EntrantKind::Bot(opponent.into()),
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
                bot: Some(kind.key()),
            },
        }
    }
}

/// How a run is played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentSettings {
    /// The rules of every game.
    pub game: GameRules,
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
    Config(#[from] RulesError),
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
}
