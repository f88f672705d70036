//! What the commands print on stdout: the tables at the end of a run, the list of house bots.
//! Every table is built as a string first and printed by [`print()`], which treats a closed
//! stdout (`dealer run ... | head -1`) as a reader that has seen enough, not as a crash.

use crate::game_event::GameEndReason;
use crate::house::BotKind;
use crate::observe::OutputSelection;
use crate::rating::{confident_leader, Rating, CONFIDENCE_SIGMAS};
use crate::tournament::{RunReport, RunResults};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::Path;

/// Prints `text` on stdout. A closed pipe drops it silently (the run's results are in its
/// files); any other write error is logged once per call, never a panic.
pub fn print(text: &str) {
    if let Err(error) = write_or_drop(&mut io::stdout().lock(), text) {
        tracing::warn!("cannot print on stdout: {error}");
    }
}

/// Writes and flushes `text`; a broken pipe is no error.
fn write_or_drop(out: &mut impl Write, text: &str) -> io::Result<()> {
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// `dealer bots`: every kind with what it plays.
pub fn bot_list() -> String {
    let mut text = String::from(
        "House bot kinds (dealer run --bot NAME=KIND, dealer demo --bots KIND,...):\n",
    );
    let width = BotKind::names()
        .iter()
        .map(|name| name.len())
        .max()
        .unwrap_or(0);
    for kind in BotKind::ALL {
        let _ = writeln!(text, "  {:<width$}  {}", kind.name(), kind.description());
    }
    text
}

/// The points table of `dealer run`, then the bans and where the files are.
pub fn run_table(report: &RunReport, outputs: OutputSelection) -> String {
    let results = &report.results;
    let mut text = String::new();
    if results.games.is_empty() {
        return text;
    }
    let to_play = games_to_play(results);
    let part = match results.shard {
        Some(shard) => format!(
            ", shard {shard} of a run of {} games",
            results.games_planned
        ),
        None => String::new(),
    };
    let _ = writeln!(
        text,
        "\nPoints after {} of {} game{} (seed {}{part}):",
        results.games.len(),
        to_play,
        if to_play == 1 { "" } else { "s" },
        results.seed
    );
    let width = name_width(results.totals.iter().map(|t| t.name.as_str()));
    let _ = writeln!(
        text,
        "  {:>2}  {:<width$}  {:>6}  {:>4}  {:>4}  {:>5}  {:>4}  {:>6}  {:>13}",
        "#", "player", "points", "1st", "2nd", "games", "bans", "absent", "rating"
    );
    for (index, total) in results.totals.iter().enumerate() {
        let rating = match (total.rating, total.uncertainty) {
            (Some(rating), Some(uncertainty)) => format!("{rating:.1} ± {uncertainty:.1}"),
            _ => "-".to_string(),
        };
        let _ = writeln!(
            text,
            "  {:>2}  {:<width$}  {:>6}  {:>4}  {:>4}  {:>5}  {:>4}  {:>6}  {:>13}",
            index + 1,
            total.name,
            total.points,
            total.first_places,
            total.second_places,
            total.games,
            total.bans,
            total.absent,
            rating
        );
    }
    text.push_str(&leader_line(results));
    if results.duplicate {
        let complete = results.deal_sets.iter().filter(|set| set.complete).count();
        let _ = writeln!(
            text,
            "Deal sets: {complete} of {} played in every seating",
            results.deal_sets.len()
        );
    }
    text.push_str(&bans(report));
    let dir = report.results_path.parent().unwrap_or(Path::new("."));
    let _ = writeln!(text, "\nResults: {}", report.results_path.display());
    let files = file_names(outputs);
    if !files.is_empty() {
        let _ = writeln!(
            text,
            "Logs:    {}/game-<n>/ ({})",
            dir.display(),
            files.join(", ")
        );
    }
    text
}

/// How many games this folder's run plays: all of them, or a shard's part.
pub fn games_to_play(results: &RunResults) -> u32 {
    match results.shard {
        Some(shard) => shard.games_of(results.games_planned),
        None => results.games_planned,
    }
}

/// Whether the ratings separate a leader from everyone else with confidence (its rating −
/// [`CONFIDENCE_SIGMAS`] σ above every other rating + [`CONFIDENCE_SIGMAS`] σ).
fn leader_line(results: &RunResults) -> String {
    let (names, ratings): (Vec<&str>, Vec<Rating>) = results
        .totals
        .iter()
        .filter_map(|total| {
            let rating = Rating {
                rating: total.rating?,
                uncertainty: total.uncertainty?,
            };
            Some((total.name.as_str(), rating))
        })
        .unzip();
    if ratings.len() < 2 {
        return String::new();
    }
    match confident_leader(&ratings, CONFIDENCE_SIGMAS) {
        Some(leader) => format!(
            "Leader with confidence ({CONFIDENCE_SIGMAS}σ): {}\n",
            names[leader]
        ),
        None => format!(
            "No leader with confidence yet ({CONFIDENCE_SIGMAS}σ intervals overlap): play more games\n"
        ),
    }
}

/// What `dealer merge` prints: the merged run's table and where it is.
pub fn merge_table(report: &RunReport, shards: usize) -> String {
    let mut text = format!(
        "Merged {shards} shard{} into {}\n",
        if shards == 1 { "" } else { "s" },
        report
            .results_path
            .parent()
            .unwrap_or(Path::new("."))
            .display()
    );
    text.push_str(&run_table(report, OutputSelection::NONE));
    text
}

/// The ranking of `dealer demo`'s game, then the bans and what each file holds.
pub fn demo_table(report: &RunReport, outputs: OutputSelection) -> String {
    let mut text = String::new();
    let Some(game) = report.results.games.first() else {
        return text;
    };
    let _ = writeln!(
        text,
        "\nRanking after {} hands ({}):",
        game.result.hands_played,
        match game.result.ended_by {
            GameEndReason::LastPlayerStanding => "one player left",
            GameEndReason::HandLimit => "hand limit",
            GameEndReason::DecksRanOut => "recorded decks ran out",
        }
    );
    let width = name_width(game.standings.iter().map(|s| s.name.as_str()));
    let _ = writeln!(
        text,
        "  {:>2}  {:<width$}  {:>6}  {:>10}  how it ended",
        "#", "player", "points", "chips"
    );
    for standing in &game.standings {
        let ended = match (standing.banned, standing.eliminated_in_round) {
            (true, Some(round)) => format!("banned in hand {round}"),
            (true, None) => "banned".to_string(),
            (false, Some(round)) => format!("out in hand {round}"),
            (false, None) => String::new(),
        };
        let line = format!(
            "  {:>2}  {:<width$}  {:>6}  {:>10}  {ended}",
            standing.place, standing.name, standing.points, standing.final_stack
        );
        let _ = writeln!(text, "{}", line.trim_end());
    }
    text.push_str(&bans(report));
    if outputs != OutputSelection::NONE {
        let dir = report
            .results_path
            .parent()
            .map(|dir| dir.join(&game.dir))
            .unwrap_or_default();
        let _ = writeln!(text, "\nLogs: {}", dir.display());
        let lines = [
            (
                outputs.viewer_log,
                "log.json        the Lean Poker viewer log",
            ),
            (
                outputs.requests,
                "requests.jsonl  every bet_request sent, with the answer",
            ),
            (
                outputs.hands,
                "hands/          every hand as a PHH hand history",
            ),
            (
                outputs.hands_file,
                "hands.phhs      every hand in one PHH file",
            ),
            (
                outputs.player_logs,
                "players/        one log per player: every request and response",
            ),
            (
                outputs.decks,
                "decks.jsonl     every hand's cards; with game.json: dealer replay DIR",
            ),
        ];
        for (written, line) in lines {
            if written {
                let _ = writeln!(text, "  {line}");
            }
        }
    }
    let _ = writeln!(text, "Results: {}", report.results_path.display());
    text
}

/// The names of the per-game files written.
fn file_names(outputs: OutputSelection) -> Vec<&'static str> {
    [
        (outputs.viewer_log, "log.json"),
        (outputs.requests, "requests.jsonl"),
        (outputs.hands, "hands/"),
        (outputs.hands_file, "hands.phhs"),
        (outputs.player_logs, "players/"),
        (outputs.decks, "decks.jsonl"),
    ]
    .into_iter()
    .filter_map(|(written, name)| written.then_some(name))
    .collect()
}

/// Every ban, warning, absence and failed output of the run, one per line.
fn bans(report: &RunReport) -> String {
    let games = &report.results.games;
    let several = report.results.games_planned > 1;
    let mut lines = Vec::new();
    for game in games {
        let prefix = if several {
            format!("game {}, ", game.game)
        } else {
            String::new()
        };
        for ban in &game.result.bans {
            lines.push(format!(
                "  {prefix}hand {}: {} banned: {}",
                ban.round, ban.name, ban.reason
            ));
        }
        for warning in &game.result.warnings {
            lines.push(format!(
                "  {prefix}hand {}: {} warned ({}): {}",
                warning.round, warning.name, warning.counted_as, warning.reason
            ));
        }
        for absent in &game.absent {
            lines.push(format!(
                "  {prefix}{} sat out (not up): {}",
                absent.name, absent.reason
            ));
        }
        for failure in &game.observer_errors {
            lines.push(format!("  {prefix}{failure}"));
        }
    }
    if lines.is_empty() {
        return "\nBans: none\n".to_string();
    }
    let mut text = String::from("\nBans and warnings:\n");
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

fn name_width<'a>(names: impl Iterator<Item = &'a str>) -> usize {
    names
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, 40)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that went away after `room` bytes.
    struct ClosedAfter {
        room: usize,
        kind: io::ErrorKind,
    }

    impl Write for ClosedAfter {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::from(self.kind));
            }
            let written = bytes.len().min(self.room);
            self.room -= written;
            Ok(written)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_is_no_error_but_a_full_disk_is() {
        let mut closed = ClosedAfter {
            room: 3,
            kind: io::ErrorKind::BrokenPipe,
        };
        write_or_drop(&mut closed, "a longer text").unwrap();
        let mut full = ClosedAfter {
            room: 3,
            kind: io::ErrorKind::StorageFull,
        };
        assert!(write_or_drop(&mut full, "a longer text").is_err());
    }

    #[test]
    fn the_bot_list_names_every_kind() {
        let list = bot_list();
        for kind in BotKind::ALL {
            assert!(list.contains(kind.name()), "{list}");
            assert!(list.contains(kind.description()), "{list}");
        }
    }

    #[test]
    fn only_written_files_are_named() {
        assert_eq!(
            file_names(OutputSelection::DEFAULT),
            [
                "log.json",
                "requests.jsonl",
                "hands.phhs",
                "players/",
                "decks.jsonl"
            ]
        );
        assert!(file_names(OutputSelection::NONE).is_empty());
    }
}
