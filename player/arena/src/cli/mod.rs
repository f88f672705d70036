//! `cargo arena`'s command line: a team's bot against house bots, in process, with a verdict
//! against the last run of the same command. The team's crate has a one-line `arena` binary
//! that hands its bot to [`main`]; the alias in `.cargo/config.toml` runs it.

mod event_field;
mod field;
mod paths;
mod print;

use crate::{Arena, Comparison, History, SavedRun, DEFAULT_GAMES, DEFAULT_SEED, DEFAULT_VS};
use bots::{BotKind, Opponent};
use player::Player;
use std::ffi::OsString;
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const HELP: &str = "\
cargo arena: your bot (player/team/src/strategy.rs) against house bots, in process

Usage: cargo arena [OPTIONS]          (from any folder of the repository)

Options:
  --games N          games to play, rounded up to whole deal sets [default: 600]
  --vs NAME,NAME,... the opponents at the table, one seat each: house bot kinds, or
                     players of the field fitted by --field-from
                     [default: DEFAULT_VS; with --field-from, every fitted player]
                     kinds: KINDS
  --field-from PATH... fit the field from recorded games: dealer run folders, an event's
                     data folder, PHH hands, requests.jsonl or log.json files; every
                     player with at least MIN_DECISIONS decisions gets a seat (fitted once,
                     kept in target/arena/fields/)
  --field-from http://HOST:PORT/
                     fit the field of the event served there: its games fetched (kept
                     in target/arena/events/, the next run fetches only newer ones), one
                     profile a team from its newest version, your own team left out
  --me NAME          your team's name at the event, left out of the field (without it:
                     the one team that played your bot's version string)
  --seed N           the run seed: the same seed plays the same deals [default: 1]
  --plain            plain games instead of duplicate deals
  --threads N        worker threads [default: one per core]; results do not depend on it
  --json [FILE]      also write the whole report as JSON, to FILE or, without one, to
                     target/arena/last-run.json
  --no-save          do not remember this run for the next comparison
  --why              every kind of decision the edit changed, each with an example hand
                     (without it, the three that explain most of the verdict)
  -h, --help         this text

Every run is compared with the last run of the same --vs, --seed and --plain (remembered in
target/arena/runs/) on the deal sets both played: your points per game (5 a win, 3 a second
place, as the event scores), paired by deal set, with the luck of the cards taken out.
BETTER, WORSE, or can't tell yet (and how many games would tell).
";

/// The command line, read.
struct Options {
    games: u32,
    /// `--vs` as given (checked once the field is known).
    vs: Option<Vec<String>>,
    field_from: Vec<PathBuf>,
    /// `--me`: the team's own name in the recordings or at the event.
    me: Option<String>,
    seed: u64,
    plain: bool,
    threads: Option<usize>,
    json: Option<JsonTarget>,
    save: bool,
    /// `--why`: every group of changed decisions, with examples.
    why: bool,
}

/// Where `--json` writes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum JsonTarget {
    /// The path given (relative to the current folder).
    File(PathBuf),
    /// `target/arena/last-run.json` in the build folder.
    Default,
}

fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Option<Options>, String> {
    use lexopt::prelude::*;
    let mut options = Options {
        games: DEFAULT_GAMES,
        vs: None,
        field_from: Vec::new(),
        me: None,
        seed: DEFAULT_SEED,
        plain: false,
        threads: None,
        json: None,
        save: true,
        why: false,
    };
    let mut parser = lexopt::Parser::from_args(args);
    let text = |value: OsString, flag: &str| {
        value
            .into_string()
            .map_err(|_| format!("{flag}: the value is not valid UTF-8"))
    };
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Long("games") => {
                let value = text(parser.value().map_err(|e| e.to_string())?, "--games")?;
                options.games = match value.trim().parse::<u32>() {
                    Ok(0) => return Err("--games must be at least 1".to_string()),
                    Ok(games) => games,
                    Err(_) => return Err(format!("--games {value:?} is not a whole number")),
                };
            }
            Long("vs") => {
                let value = text(parser.value().map_err(|e| e.to_string())?, "--vs")?;
                let names: Vec<String> = value
                    .split(',')
                    .map(|name| name.trim().to_string())
                    .collect();
                if names.iter().any(String::is_empty) {
                    return Err(format!("--vs {value:?}: an empty name"));
                }
                options.vs = Some(names);
            }
            Long("field-from") => {
                let values: Vec<OsString> = parser.values().map_err(|e| e.to_string())?.collect();
                options
                    .field_from
                    .extend(values.into_iter().map(PathBuf::from));
            }
            Long("me") => {
                let value = text(parser.value().map_err(|e| e.to_string())?, "--me")?;
                if value.trim().is_empty() {
                    return Err("--me: the name is empty".to_string());
                }
                options.me = Some(value);
            }
            Long("seed") => {
                let value = text(parser.value().map_err(|e| e.to_string())?, "--seed")?;
                options.seed = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("--seed {value:?} is not a whole number"))?;
            }
            Long("threads") => {
                let value = text(parser.value().map_err(|e| e.to_string())?, "--threads")?;
                options.threads = match value.trim().parse::<usize>() {
                    Ok(0) => return Err("--threads must be at least 1".to_string()),
                    Ok(threads) => Some(threads),
                    Err(_) => return Err(format!("--threads {value:?} is not a whole number")),
                };
            }
            Long("json") => {
                // `--json=FILE`, `--json FILE`, or `--json` alone (then the next argument, if
                // any, is another option).
                let value = match parser.optional_value() {
                    Some(value) => Some(value),
                    None => {
                        let mut raw = parser.raw_args().map_err(|e| e.to_string())?;
                        let is_path = raw
                            .peek()
                            .is_some_and(|next| !next.to_string_lossy().starts_with('-'));
                        if is_path {
                            raw.next()
                        } else {
                            None
                        }
                    }
                };
                options.json = Some(match value {
                    Some(path) if path.is_empty() => {
                        return Err("--json: the file name is empty".to_string())
                    }
                    Some(path) => JsonTarget::File(path.into()),
                    None => JsonTarget::Default,
                });
            }
            Long("plain") => options.plain = true,
            Long("no-save") => options.save = false,
            Long("why") => options.why = true,
            Short('h') | Long("help") => return Ok(None),
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(Some(options))
}

/// Runs `cargo arena` with the process's arguments, `player` in your seat: parses the flags,
/// plays, prints the report and the verdict, and returns the exit code (2 for a bad flag).
pub fn main(player: &dyn Player) -> ExitCode {
    let options = match parse(std::env::args_os().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            print_help();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("error: {error}\n(cargo arena --help lists the options)");
            return ExitCode::from(2);
        }
    };
    match run(options, player, &paths::arena_dir()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo arena` with `args` (the program's name left out), `player` in your seat, its files
/// kept in `arena_dir` rather than the build folder's `arena/`: what [`main`] runs, for a
/// test that drives the whole command (against an event's server, say).
///
/// # Errors
/// A bad flag or a failed run, in the words `cargo arena` prints.
pub fn run_with_args(
    args: Vec<OsString>,
    player: &dyn Player,
    arena_dir: &std::path::Path,
) -> Result<(), String> {
    match parse(args)? {
        Some(options) => run(options, player, arena_dir),
        None => {
            print_help();
            Ok(())
        }
    }
}

fn print_help() {
    let default_vs: Vec<&str> = DEFAULT_VS.iter().map(|kind| kind.name()).collect();
    print!(
        "{}",
        HELP.replace("KINDS", &BotKind::names().join(", "))
            .replace("DEFAULT_VS", &default_vs.join(","))
            .replace("MIN_DECISIONS", &crate::field::MIN_DECISIONS.to_string())
    );
}

fn run(options: Options, player: &dyn Player, arena_dir: &std::path::Path) -> Result<(), String> {
    let arena_dir = arena_dir.to_path_buf();
    let json_path = match &options.json {
        Some(JsonTarget::File(path)) => Some(path.clone()),
        Some(JsonTarget::Default) => Some(arena_dir.join("last-run.json")),
        None => None,
    };
    // Opened before the games, so a bad path fails now rather than after them.
    let json = match &json_path {
        Some(path) => {
            if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                if options.json == Some(JsonTarget::Default) {
                    std::fs::create_dir_all(folder)
                        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
                }
            }
            Some(
                File::create(path)
                    .map_err(|e| format!("cannot write --json {}: {e}", path.display()))?,
            )
        }
        None => None,
    };
    let vs = opponents(&options, &arena_dir, &player.version())?;
    let mut arena = Arena::new(vs).games(options.games).seed(options.seed);
    if options.plain {
        arena = arena.plain();
    }
    if let Some(threads) = options.threads {
        arena = arena.threads(threads);
    }
    quiet_arena_panics();
    let report = match arena.run(player) {
        Ok(report) => report,
        Err(error) => {
            // No empty report left behind for a run that never played.
            if let Some(path) = &json_path {
                let _ = std::fs::remove_file(path);
            }
            return Err(error.to_string());
        }
    };
    let current = SavedRun::of(&report);
    let runs = arena_dir.join("runs");
    let previous = match History::load(&runs, &report.key) {
        Ok(previous) => previous,
        Err(error) => {
            eprintln!("note: {error}");
            None
        }
    };
    // The run the verdict compares with, kept for the replays of `why` (record takes it).
    let compared = previous
        .as_ref()
        .map(|h| (h.latest.clone(), h.baseline.clone()));
    let (comparison, history) = History::record(previous, report.key.clone(), current);
    print::report(&report, options.threads);
    print::comparison(&comparison, options.save);
    let why = why_against(&comparison, compared)
        .map(|before| crate::why::explain(&arena, Some(player), &before, &report));
    match &why {
        Some(why) => crate::why::print::why(why, options.why, report.play_seconds),
        None if options.why => {
            println!("\nwhy: no verdict to explain (it needs a different run of these options to compare with)")
        }
        None => {}
    }
    if options.save {
        history.save(&runs).map_err(|e| e.to_string())?;
    }
    if let (Some(mut file), Some(path)) = (json, &json_path) {
        write_json(&mut file, &report, &comparison, why.as_ref())
            .map_err(|e| format!("cannot write --json {}: {e}", path.display()))?;
        let shown = std::path::absolute(path).unwrap_or_else(|_| path.clone());
        println!("report written to {}", shown.display());
    }
    Ok(())
}

/// The opponents: `--vs` as house bot kinds, or the field fitted by `--field-from` (every
/// player with enough decisions, or those `--vs` names; `--me`, or the team that played
/// `my_version` at an event, left out).
fn opponents(
    options: &Options,
    arena_dir: &std::path::Path,
    my_version: &str,
) -> Result<Vec<Opponent>, String> {
    let kind = |name: &str| name.parse::<BotKind>().map(Opponent::Kind);
    let addresses: Vec<event_field::EventAddress> = options
        .field_from
        .iter()
        .filter_map(|path| event_field::EventAddress::parse(&path.to_string_lossy()))
        .collect::<Result<_, _>>()?;
    if let Some(address) = addresses.first() {
        if options.field_from.len() > 1 {
            return Err(
                "--field-from: give one event's address, or recordings, not both".to_string(),
            );
        }
        return event_opponents(options, address, arena_dir, my_version);
    }
    if options.field_from.is_empty() {
        if options.me.is_some() {
            return Err("--me names your team in a field: it needs --field-from".to_string());
        }
        return match &options.vs {
            None => Ok(DEFAULT_VS
                .iter()
                .map(|&kind| Opponent::Kind(kind))
                .collect()),
            Some(names) => names
                .iter()
                .map(|name| kind(name).map_err(|e| e.to_string()))
                .collect(),
        };
    }
    let threads = options
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let fitted = field::fitted_field(&options.field_from, &arena_dir.join("fields"), threads)?;
    if let Some(me) = &options.me {
        if !fitted.fit.players.iter().any(|p| &p.profile.name == me) {
            let names: Vec<&str> = fitted
                .fit
                .players
                .iter()
                .map(|p| p.profile.name.as_str())
                .collect();
            return Err(format!(
                "--me {me:?} is not a recorded player (they are: {})",
                names.join(", ")
            ));
        }
    }
    let profile = |name: &str| {
        fitted
            .fit
            .players
            .iter()
            .find(|p| p.profile.name == name)
            .map(|p| Opponent::Profile(std::sync::Arc::new(p.profile.compile())))
    };
    let vs: Vec<Opponent> = match &options.vs {
        None => {
            // The players with most decisions, seated in name order (`--me` left out).
            let mut names: Vec<&str> = fitted
                .fit
                .seats()
                .iter()
                .filter(|p| Some(&p.profile.name) != options.me.as_ref())
                .take(engine::MAX_SEATS - 1)
                .map(|p| p.profile.name.as_str())
                .collect();
            names.sort_unstable();
            names.into_iter().filter_map(profile).collect()
        }
        Some(names) => names
            .iter()
            .map(|name| {
                profile(name).or_else(|| kind(name).ok()).ok_or_else(|| {
                    let fitted: Vec<&str> = fitted
                        .fit
                        .players
                        .iter()
                        .map(|p| p.profile.name.as_str())
                        .collect();
                    format!(
                        "--vs {name:?} is neither a fitted player ({}) nor a house bot kind ({})",
                        fitted.join(", "),
                        BotKind::names().join(", ")
                    )
                })
            })
            .collect::<Result<_, _>>()?,
    };
    let seated: Vec<String> = vs.iter().map(|o| o.name().to_string()).collect();
    print!("{}", field::describe(&fitted, &seated));
    if vs.is_empty() {
        return Err(format!(
            "no recorded player has {} decisions: name the ones to seat with --vs",
            crate::field::MIN_DECISIONS
        ));
    }
    Ok(vs)
}

/// The opponents from the event at `address`: every team with enough decisions but your own,
/// or those `--vs` names (teams or house bot kinds).
fn event_opponents(
    options: &Options,
    address: &event_field::EventAddress,
    arena_dir: &std::path::Path,
    my_version: &str,
) -> Result<Vec<Opponent>, String> {
    let threads = options
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let field = event_field::event_field(
        address,
        &arena_dir.join("events"),
        options.me.as_deref(),
        my_version,
        threads,
    )?;
    let seat = |team: &crate::field::event::FittedTeam| {
        Opponent::Profile(std::sync::Arc::new(team.fitted.profile.compile()))
    };
    let vs: Vec<Opponent> = match &options.vs {
        None => field
            .default_seats(engine::MAX_SEATS - 1)
            .into_iter()
            .map(seat)
            .collect(),
        Some(names) => names
            .iter()
            .map(|name| {
                field
                    .teams
                    .iter()
                    .find(|team| &team.choice.team == name)
                    .map(seat)
                    .or_else(|| name.parse::<BotKind>().ok().map(Opponent::Kind))
                    .ok_or_else(|| {
                        let teams: Vec<&str> =
                            field.teams.iter().map(|t| t.choice.team.as_str()).collect();
                        format!(
                            "--vs {name:?} is neither a team of the event ({}) nor a house bot \
                             kind ({})",
                            teams.join(", "),
                            BotKind::names().join(", ")
                        )
                    })
            })
            .collect::<Result<_, _>>()?,
    };
    let seated: Vec<String> = vs.iter().map(|o| o.name().to_string()).collect();
    print!("{}", field.describe(&seated));
    if vs.is_empty() {
        return Err(format!(
            "no other team of the event has {} decisions yet: name the ones to seat with --vs, \
             or run again once more games have ended",
            crate::field::MIN_DECISIONS
        ));
    }
    Ok(vs)
}

/// The run a verdict was given against, when it differs from this one: the last run or the
/// baseline.
fn why_against(
    comparison: &Comparison,
    compared: Option<(SavedRun, Option<SavedRun>)>,
) -> Option<SavedRun> {
    let (latest, baseline) = compared?;
    let differs = |judgement: &Option<crate::Judgement>| {
        judgement
            .as_ref()
            .is_some_and(|j| j.verdict != crate::Verdict::Identical)
    };
    match comparison {
        Comparison::LastRun { judgement, .. } if differs(judgement) => Some(latest),
        Comparison::Baseline { judgement, .. } if differs(judgement) => baseline,
        _ => None,
    }
}

fn write_json(
    file: &mut File,
    report: &crate::ArenaReport,
    comparison: &Comparison,
    why: Option<&Result<crate::why::Why, crate::why::WhyError>>,
) -> std::io::Result<()> {
    let why = match why {
        Some(Ok(why)) => serde_json::to_value(why)?,
        Some(Err(error)) => serde_json::json!({ "unavailable": error.to_string() }),
        None => serde_json::Value::Null,
    };
    let document = serde_json::json!({ "report": report, "comparison": comparison, "why": why });
    serde_json::to_writer_pretty(&mut *file, &document)?;
    file.write_all(b"\n")
}

/// A panicking strategy is reported with its hand in the summary; the default hook would
/// also print every panic, possibly thousands, as the games run. Other threads keep it.
fn quiet_arena_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let arena_thread = std::thread::current()
            .name()
            .is_some_and(|name| name.starts_with("arena-"));
        if !arena_thread {
            default(info);
        }
    }));
}

#[cfg(test)]
mod tests;
