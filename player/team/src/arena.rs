//! `cargo arena`: your bot (src/strategy.rs) against house bots, in process; `cargo arena
//! --help` lists the options.

fn main() -> std::process::ExitCode {
    let bot: team::Bot = Default::default();
    arena::cli::main(&bot)
}
