//! `dealer run`, and what every command that plays shares: the tournament with its progress
//! bars, Ctrl-C handling and per-game files, and the exit status of a finished run.

use super::args::RunArgs;
use super::{block_on, report, signals, Failure, Runtime};
use crate::observe::{read_decks, GameOutputs, LogFlush, OutputSelection};
use crate::progress::Screen;
use crate::settings::{read_run_file, resolve, RunFile, RunPlan, SettingsError};
use crate::tournament::{
    GameContext, ObserverFactory, RunEnd, RunReport, Tournament, TournamentError,
};
use std::sync::Arc;

/// Plays `dealer run`: settings from the flags and the config file, the games, the points table.
///
/// One game at a time (`--parallel 1`) runs on a one-thread runtime: the game's task does all
/// the work (the seats drive their own connections), and a second worker thread only added
/// wake-ups between threads (about 15% of the dealer's CPU per request, measured with the http
/// bench). Games in parallel get a worker per core.
///
/// # Errors
/// A [`Failure`] for bad settings (code 2), a run that could not end (1) or a stop (130).
pub fn run(args: RunArgs, screen: &Screen) -> Result<(), Failure> {
    let flush = if args.live {
        LogFlush::Followed
    } else {
        LogFlush::EveryHand
    };
    let (flags, config) = args.into_flags();
    let file = match &config {
        Some(path) => read_run_file(path).map_err(settings_failure)?,
        None => RunFile::default(),
    };
    let plan = resolve(flags, file).map_err(settings_failure)?;
    report::print(&run_header(&plan));
    let outputs = plan.outputs;
    let runtime = if plan.settings.parallel <= 1 {
        Runtime::OneThread
    } else {
        Runtime::Workers
    };
    let report = block_on(runtime, play_flushed(plan, screen, flush))?;
    report::print(&report::run_table(&report, outputs));
    finish(&report)
}

/// The line printed before a run: who, how many games, the seed to replay it; the deal sets
/// and the shard when there are.
fn run_header(plan: &RunPlan) -> String {
    let settings = &plan.settings;
    let players = plan.entrants.len();
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    let games = if plan.duplicate {
        let total = u64::from(settings.games) * players as u64;
        format!(
            "{} deal set{} x {players} seatings = {total} games (duplicate)",
            settings.games,
            plural(u64::from(settings.games))
        )
    } else {
        format!(
            "{} game{}",
            settings.games,
            plural(u64::from(settings.games))
        )
    };
    let shard = match plan.shard {
        Some(shard) => {
            let total = if plan.duplicate {
                settings.games.saturating_mul(players as u32)
            } else {
                settings.games
            };
            let mine = shard.games_of(total);
            format!(", shard {shard}: {mine} of them")
        }
        None => String::new(),
    };
    format!(
        "Run: {players} players, {games}{shard}, seed {} (replay with --seed {})\n",
        settings.seed, settings.seed
    )
}

fn settings_failure(error: SettingsError) -> Failure {
    if error.is_usage() {
        Failure::usage(error.to_string())
    } else {
        Failure::run(error.to_string())
    }
}

/// Plays a run with progress bars, Ctrl-C handling and the selected per-game files.
///
/// # Errors
/// A [`Failure`] when the run cannot start (code 2) or its results cannot be written (1).
pub async fn play(plan: RunPlan, screen: &Screen) -> Result<RunReport, Failure> {
    play_flushed(plan, screen, LogFlush::EveryHand).await
}

/// Like [`play`], with `log.json` flushed as `flush` says.
///
/// # Errors
/// As [`play`].
pub async fn play_flushed(
    plan: RunPlan,
    screen: &Screen,
    flush: LogFlush,
) -> Result<RunReport, Failure> {
    let usage = |error: TournamentError| Failure::usage(error.to_string());
    let mut tournament = Tournament::new(plan.entrants, plan.settings)
        .map_err(usage)?
        .with_duplicate(plan.duplicate)
        .map_err(usage)?
        .with_observers(game_outputs(plan.outputs, flush));
    if let Some(path) = &plan.decks {
        let decks = read_decks(path).map_err(|error| Failure::usage(error.to_string()))?;
        tournament = tournament.with_decks(Arc::new(decks)).map_err(usage)?;
    }
    if let Some(shard) = plan.shard {
        tournament = tournament.with_shard(shard);
    }
    let to_play = u32::try_from(tournament.planned_games().count()).unwrap_or(u32::MAX);
    let progress = screen.run(to_play);
    let tournament = tournament.with_progress(progress.clone());
    let stop = signals::stop_on_ctrl_c(screen);
    let report = tournament.run(&stop).await;
    progress.finish();
    report.map_err(|error| Failure::run(error.to_string()))
}

/// The selected files of every game (`game-<n>/`).
fn game_outputs(selection: OutputSelection, flush: LogFlush) -> ObserverFactory {
    Arc::new(move |context: &GameContext<'_>| {
        GameOutputs::create_followed(context.dir, &context.setup.players, selection, flush)
    })
}

/// The exit status of a finished run.
///
/// # Errors
/// Code 130 for a stopped run, 1 for a failed one.
pub fn finish(report: &RunReport) -> Result<(), Failure> {
    match &report.end {
        RunEnd::Complete => Ok(()),
        RunEnd::Stopped => Err(Failure {
            message: format!(
                "interrupted: {} of {} games completed; their results are in {}",
                report.results.games.len(),
                report::games_to_play(&report.results),
                report.results_path.display()
            ),
            code: 130,
        }),
        RunEnd::Failed(reason) => Err(Failure::run(format!(
            "{reason} (results of the games completed: {})",
            report.results_path.display()
        ))),
    }
}
