//! Playing a run: up to `parallel` games at a time, each a task with its seats and
//! observers, `results.json` rewritten as they finish (see the [module docs](super)).

use super::results::ShowdownWarnings;
use super::{
    summary, DealRef, Entrant, EntrantKind, GameContext, GameEntry, InterruptedGame, PlannedGame,
    PlayerEntry, RunEnd, RunReport, RunResults, Tournament, TournamentError,
};
use crate::engine::GameSetup;
use crate::observe::Observer;
use crate::runner::{run_game, GameOutcome, RunError, StopSignal};
use crate::seat::{GameEncoder, HttpClient, InProcessSeat, PlayerSeat};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;
use thiserror::Error;
use tokio::task::JoinSet;

impl Tournament {
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
        let mut rater = summary::Rater::new(
            &results,
            self.planned_games()
                .map(|g| (g.number, g.deal.map(|d| d.deal_set))),
        );
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
        // The game's HTTP seats share one encoder: consecutive documents differ in a player
        // or two, whoever receives them.
        let encoder = GameEncoder::default();
        let seats: Vec<PlayerSeat> = seated
            .iter()
            .enumerate()
            .map(|(seat, entrant)| match &entrant.kind {
                EntrantKind::Http(endpoint) => {
                    PlayerSeat::from(client.seat_in_game(endpoint.clone(), Some(&encoder)))
                }
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
