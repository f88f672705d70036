//! Serves your bot (src/strategy.rs) the way the Lean Poker dealers call it: `player` listens
//! on 0.0.0.0:$PORT (1337 by default); `player --help` lists the flags and settings.

fn main() -> std::process::ExitCode {
    let bot: team::Bot = Default::default();
    player::cli::main(bot)
}
