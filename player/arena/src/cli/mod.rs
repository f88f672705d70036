//! `cargo arena`'s command line: a team's bot against house bots, in process, with a verdict
//! against the last run of the same command. The team's crate has a one-line `arena` binary
//! that hands its bot to [`main`]; the alias in `.cargo/config.toml` runs it.

use crate::{
    Arena, ArenaReport, Comparison, History, Interval, MoreGames, SavedRun, Verdict, DEFAULT_GAMES,
    DEFAULT_SEED, DEFAULT_VS, EXAMPLES_KEPT,
};
use bots::BotKind;
use player::Player;
use std::ffi::OsString;
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const HELP: &str = "\
cargo arena: your bot (player/team/src/strategy.rs) against house bots, in process

Usage: cargo arena [OPTIONS]          (from the repository root)

Options:
  --games N          games to play, rounded up to whole deal sets [default: 600]
  --vs KIND,KIND,... the house bots at the table, one seat each
                     [default: calling-station,raiser,all-in,random,equity]
                     kinds: folder, calling-station, raiser, all-in, random, equity
  --seed N           the run seed: the same seed plays the same deals [default: 1]
  --plain            plain games instead of duplicate deals
  --threads N        worker threads [default: one per core]; results do not depend on it
  --json FILE        also write the whole report as JSON
  --no-save          do not remember this run for the next comparison
  -h, --help         this text

Every run is compared with the last run of the same --vs, --seed and --plain (remembered in
target/arena/runs/): better, worse, or can't tell yet (and how many games would tell).
";

/// The command line, read.
struct Options {
    games: u32,
    vs: Vec<BotKind>,
    seed: u64,
    plain: bool,
    threads: Option<usize>,
    json: Option<PathBuf>,
    save: bool,
}

fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Option<Options>, String> {
    use lexopt::prelude::*;
    let mut options = Options {
        games: DEFAULT_GAMES,
        vs: DEFAULT_VS.to_vec(),
        seed: DEFAULT_SEED,
        plain: false,
        threads: None,
        json: None,
        save: true,
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
                options.vs = value
                    .split(',')
                    .map(|kind| kind.trim().parse::<BotKind>().map_err(|e| e.to_string()))
                    .collect::<Result<_, _>>()?;
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
            Long("json") => options.json = Some(parser.value().map_err(|e| e.to_string())?.into()),
            Long("plain") => options.plain = true,
            Long("no-save") => options.save = false,
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
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("error: {error}\n(cargo arena --help lists the options)");
            return ExitCode::from(2);
        }
    };
    match run(options, player) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(options: Options, player: &dyn Player) -> Result<(), String> {
    // Opened before the games, so a bad path fails now rather than after them.
    let json = match &options.json {
        Some(path) => Some(
            File::create(path)
                .map_err(|e| format!("cannot write --json {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let mut arena = Arena::new(options.vs.clone())
        .games(options.games)
        .seed(options.seed);
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
            if let Some(path) = &options.json {
                let _ = std::fs::remove_file(path);
            }
            return Err(error.to_string());
        }
    };
    let current = SavedRun::of(&report, player.version());
    let dir = target_dir().join("arena").join("runs");
    let previous = match History::load(&dir, &report.key) {
        Ok(previous) => previous,
        Err(error) => {
            eprintln!("warning: {error}");
            None
        }
    };
    let (comparison, history) = History::record(previous, report.key.clone(), current);
    print_report(&report, &player.version(), options.threads);
    print_comparison(&comparison, report.games);
    if options.save {
        history.save(&dir).map_err(|e| e.to_string())?;
    }
    if let (Some(mut file), Some(path)) = (json, &options.json) {
        let document = serde_json::json!({ "report": report, "comparison": comparison });
        serde_json::to_writer_pretty(&mut file, &document)
            .map_err(|e| e.to_string())
            .and_then(|()| file.write_all(b"\n").map_err(|e| e.to_string()))
            .map_err(|e| format!("cannot write --json {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Where cargo builds: `CARGO_TARGET_DIR` when set, else `target` (the alias runs from the
/// repository root).
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from)
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

fn print_report(report: &ArenaReport, version: &str, threads: Option<usize>) {
    let kinds: Vec<&str> = report.entrants[1..]
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    println!("you ({version}) against {}", kinds.join(", "));
    let kind = if report.key.duplicate {
        format!(
            "{} deal sets × {} rotations, duplicate deals",
            report.deal_sets, report.rotations
        )
    } else {
        "plain games".to_string()
    };
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    println!(
        "{} games ({kind}), seed {}, {} hands, played in {:.1} s on {threads} threads",
        report.games, report.key.seed, report.hands, report.play_seconds
    );
    println!();
    let seats = report.entrants.len();
    let mut header = format!("{:<18}{:>7}", "", "points");
    for place in 1..=seats {
        header.push_str(&format!("{:>6}", ordinal(place)));
    }
    header.push_str(&format!(
        "{:>17}{:>24}{:>12}",
        "rating", "chips/100 hands (95%)", "µs/decision"
    ));
    println!("{header}");
    for entrant in &report.entrants {
        let mut line = format!("{:<18}{:>7}", entrant.name, entrant.points);
        for count in &entrant.places {
            line.push_str(&format!("{count:>6}"));
        }
        line.push_str(&format!(
            "{:>17}{:>24}{:>12.0}",
            format!(
                "{:.1} ± {:.1}",
                entrant.rating.rating, entrant.rating.uncertainty
            ),
            interval(&entrant.chips_per_100),
            entrant.micros_per_decision()
        ));
        println!("{line}");
    }
    println!();
    println!(
        "your answers: {}; read differently by a dealer than they say: {}",
        report.answers, report.misread_answers
    );
    for example in &report.misread_examples {
        print_hand(example);
    }
    if report.misread_answers > EXAMPLES_KEPT as u64 {
        println!(
            "  ... and {} more",
            report.misread_answers - EXAMPLES_KEPT as u64
        );
    }
    println!(
        "calls that panicked or overran the time budget (the SDK answers 0 for them): {}",
        report.failed_calls
    );
    for example in &report.failed_call_examples {
        print_hand(example);
    }
    if report.failed_calls > EXAMPLES_KEPT as u64 {
        println!(
            "  ... and {} more",
            report.failed_calls - EXAMPLES_KEPT as u64
        );
    }
}

fn print_hand(example: &crate::HandReport) {
    let answer = example
        .answer
        .map_or_else(String::new, |answer| format!(", answered {answer}"));
    println!(
        "  game {} (id {}), hand {}{answer}: {}",
        example.game, example.game_id, example.round, example.what
    );
    match serde_json::to_string(&example.state) {
        Ok(state) => println!("    state: {state}"),
        Err(error) => println!("    state: (cannot be shown: {error})"),
    }
}

fn print_comparison(comparison: &Comparison, report_games: u64) {
    println!();
    match comparison {
        Comparison::FirstRun => println!(
            "verdict: first run of these options; the next run of this command is compared with it"
        ),
        Comparison::SameAsLast { deal_sets } => println!(
            "verdict: the same as the last run (identical results on the {deal_sets} deal sets both played); edit the strategy and run again"
        ),
        Comparison::LastRun { verdict, games } => {
            println!("verdict against the last run ({games} games): {}", verdict_text(verdict, report_games))
        }
        Comparison::Baseline {
            verdict,
            games,
            same_as_last_on,
        } => println!(
            "verdict: plays as the last run did (identical on {same_as_last_on} deal sets); against the run before it ({games} games): {}",
            verdict_text(verdict, report_games)
        ),
    }
}

fn verdict_text(verdict: &Option<Verdict>, report_games: u64) -> String {
    match verdict {
        None => "too few deal sets in common to compare (play more games)".to_string(),
        Some(Verdict::Better { difference }) => {
            format!("BETTER, {} chips/100 hands", interval(difference))
        }
        Some(Verdict::Worse { difference }) => {
            format!("WORSE, {} chips/100 hands", interval(difference))
        }
        Some(Verdict::Identical { deal_sets }) => {
            format!("no difference (identical results on {deal_sets} deal sets)")
        }
        Some(Verdict::CantTellYet { difference, more }) => {
            let difference = interval(difference);
            match more {
                MoreGames::Play { games } => format!(
                    "can't tell yet ({difference} chips/100 hands), play {} more: run again with --games {games}",
                    games.saturating_sub(report_games)
                ),
                MoreGames::PreviousTooShort {
                    games_each: Some(games),
                } => format!(
                    "can't tell yet ({difference} chips/100 hands): the last run is too short for this difference; about {games} games with each version would tell (run both with --games {games})"
                ),
                MoreGames::PreviousTooShort { games_each: None } => format!(
                    "can't tell ({difference} chips/100 hands): the difference is too small to measure with fewer than {} games per version",
                    crate::MAX_SUGGESTED_GAMES
                ),
                MoreGames::TooSmallToMeasure => format!(
                    "can't tell ({difference} chips/100 hands): the difference is too small to measure with fewer than {} games",
                    crate::MAX_SUGGESTED_GAMES
                ),
            }
        }
    }
}

fn interval(interval: &Interval) -> String {
    if interval.half_width.is_finite() {
        format!("{:+.1} ± {:.1}", interval.mean, interval.half_width)
    } else {
        format!("{:+.1} ± ?", interval.mean)
    }
}

fn ordinal(place: usize) -> String {
    let suffix = match place {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<OsString> {
        text.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn options_are_read_and_bad_ones_named() {
        let options = parse(args("--games 12 --vs raiser,folder --seed 9 --plain"))
            .unwrap()
            .unwrap();
        assert_eq!(options.games, 12);
        assert_eq!(options.vs, [BotKind::Raiser, BotKind::Folder]);
        assert_eq!((options.seed, options.plain), (9, true));
        assert!(parse(args("--help")).unwrap().is_none());
        let error = |text: &str| parse(args(text)).err().unwrap();
        assert_eq!(error("--games 0"), "--games must be at least 1");
        assert!(error("--games ten").contains("not a whole number"));
        assert!(error("--vs raiser,shark").contains("unknown bot kind \"shark\""));
        assert!(error("--vs raiser,shark").contains("calling-station"));
        assert!(error("--bogus").contains("--bogus"));
        assert!(error("--games").contains("missing"));
    }
}
