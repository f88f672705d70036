//! The `player` binary: serves the team's bot from `strategy.rs` (edit that file, not this one).
//!
//! `player` serves on `0.0.0.0:$PORT` (default 1337); `player --healthcheck` checks a running
//! one (used by the container's `HEALTHCHECK`); `player --help` lists the settings.

fn main() -> std::process::ExitCode {
    player::cli::main(player::strategy::TemplatePlayer::default())
}
