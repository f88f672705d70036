//! Progress bars on the terminal (indicatif): one line per game in progress (hand number,
//! players left, blinds) and, for a run of several games, a bar of games done. Nothing is
//! drawn when stderr is not a terminal or when hidden.

use crate::engine::Game;
use crate::game_event::GameEvent;
use crate::observe::Observer;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io;
use std::time::Duration;

/// The terminal area on stderr shared by the progress bars and the log lines: logs written
/// through [`Screen::log_writer`] are printed above the bars instead of through them.
#[derive(Debug, Clone)]
pub struct Screen {
    multi: MultiProgress,
}

impl Screen {
    /// Bars on stderr, drawn only if it is a terminal and `visible`.
    pub fn stderr(visible: bool) -> Screen {
        let target = if visible {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        Screen {
            multi: MultiProgress::with_draw_target(target),
        }
    }

    /// Draws no bar (log lines still go to stderr).
    pub fn hidden() -> Screen {
        Screen::stderr(false)
    }

    /// The progress of a run of `total_games`.
    pub fn run(&self, total_games: u32) -> RunProgress {
        RunProgress::new(self.multi.clone(), total_games)
    }

    /// Prints a line on stderr above the bars.
    pub fn println(&self, line: &str) {
        if self.multi.is_hidden() {
            eprintln!("{line}");
        } else {
            let _ = self.multi.println(line);
        }
    }

    /// A `tracing_subscriber` writer that prints each log line above the bars.
    pub fn log_writer(&self) -> LogWriter {
        LogWriter {
            multi: self.multi.clone(),
        }
    }
}

/// See [`Screen::log_writer`].
#[derive(Debug, Clone)]
pub struct LogWriter {
    multi: MultiProgress,
}

/// One log line being written (see [`Screen::log_writer`]); printed when dropped.
#[derive(Debug)]
pub struct LogLine {
    multi: MultiProgress,
    line: Vec<u8>,
}

impl io::Write for LogLine {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.line.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for LogLine {
    fn drop(&mut self) {
        let line = std::mem::take(&mut self.line);
        self.multi.suspend(|| {
            let _ = io::Write::write_all(&mut io::stderr().lock(), &line);
        });
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for LogWriter {
    type Writer = LogLine;
    fn make_writer(&'a self) -> LogLine {
        LogLine {
            multi: self.multi.clone(),
            line: Vec::with_capacity(256),
        }
    }
}

/// The progress display of one run: a bar of games done (runs of several games) and one line
/// per game in progress.
#[derive(Debug, Clone)]
pub struct RunProgress {
    multi: MultiProgress,
    games: Option<ProgressBar>,
    total_games: u32,
}

impl RunProgress {
    fn new(multi: MultiProgress, total_games: u32) -> RunProgress {
        let games = (total_games > 1).then(|| {
            let bar = multi.add(ProgressBar::new(u64::from(total_games)));
            bar.set_style(style(
                "{spinner} {bar:30} {pos}/{len} games  {elapsed_precise}  {msg}",
            ));
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        RunProgress {
            multi,
            games,
            total_games,
        }
    }

    /// Draws nothing.
    pub fn hidden() -> RunProgress {
        Screen::hidden().run(0)
    }

    /// The line of game `number` (1-based), to give to the game as an observer.
    pub fn game(&self, number: u32) -> GameProgress {
        let bar = self.multi.add(ProgressBar::new_spinner());
        bar.set_style(style("{spinner} {prefix} hand {pos}  {msg}"));
        if self.total_games > 1 {
            bar.set_prefix(format!("game {number}:"));
        } else {
            bar.set_prefix("sit'n'go:");
        }
        bar.enable_steady_tick(Duration::from_millis(120));
        GameProgress {
            bar,
            keep: self.total_games <= 1,
            players: 0,
            players_left: 0,
            small_blind: None,
        }
    }

    /// A game is over: counts it on the games bar.
    pub fn game_done(&self, summary: &str) {
        if let Some(games) = &self.games {
            games.inc(1);
            games.set_message(summary.to_string());
        }
    }

    /// Removes the bars (call before printing the final tables).
    pub fn finish(&self) {
        if let Some(games) = &self.games {
            games.finish_and_clear();
        }
        let _ = self.multi.clear();
    }
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_spinner())
}

/// One game's line: an [`Observer`] that never fails.
#[derive(Debug)]
pub struct GameProgress {
    bar: ProgressBar,
    /// Leave the finished line on screen (single-game runs).
    keep: bool,
    players: usize,
    players_left: usize,
    /// `None` until the first hand posts blinds.
    small_blind: Option<u64>,
}

impl GameProgress {
    fn show(&self) {
        self.bar.set_message(status_line(
            self.players_left,
            self.players,
            self.small_blind,
        ));
    }
}

/// The message of a game's line: players left and, once the first hand has started, the
/// blinds (before that there are none to show, and `0/0` would be false).
fn status_line(players_left: usize, players: usize, small_blind: Option<u64>) -> String {
    let mut line = format!("{players_left}/{players} players left");
    if let Some(small) = small_blind {
        line.push_str(&format!("  blinds {small}/{}", small.saturating_mul(2)));
    }
    line
}

impl Observer for GameProgress {
    fn on_event(&mut self, event: &GameEvent, game: &Game) -> io::Result<()> {
        match event {
            GameEvent::GameStarted { players, .. } => {
                self.players = players.len();
                self.players_left = game
                    .public_state()
                    .players
                    .iter()
                    .filter(|p| p.stack.get() > 0)
                    .count();
                self.show();
            }
            GameEvent::HandStarted {
                round, small_blind, ..
            } => {
                self.bar.set_position(round + 1);
                if Some(small_blind.get()) != self.small_blind {
                    self.small_blind = Some(small_blind.get());
                    self.show();
                }
            }
            GameEvent::PlayerEliminated { .. } => {
                self.players_left = self.players_left.saturating_sub(1);
                self.show();
            }
            GameEvent::GameEnded { ranking, .. } => {
                let winner = ranking
                    .first()
                    .and_then(|seat| game.player_name(*seat))
                    .unwrap_or("nobody");
                let message = format!("{winner} won after {} hands", game.hands_played());
                if self.keep {
                    self.bar.finish_with_message(message);
                } else {
                    self.bar.finish_and_clear();
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self, game: &Game) -> io::Result<()> {
        if !self.bar.is_finished() {
            if self.keep {
                self.bar
                    .abandon_with_message(format!("stopped after {} hands", game.hands_played()));
            } else {
                self.bar.finish_and_clear();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::status_line;

    #[test]
    fn no_blinds_are_shown_before_the_first_hand() {
        assert_eq!(status_line(6, 6, None), "6/6 players left");
        assert_eq!(status_line(5, 6, Some(2)), "5/6 players left  blinds 2/4");
        assert!(status_line(1, 2, Some(u64::MAX)).ends_with("/18446744073709551615"));
    }
}
