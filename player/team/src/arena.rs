//! `cargo arena`: your bot (src/strategy.rs) against house bots, in process; `cargo arena
//! --help` lists the options.

fn main() -> std::process::ExitCode {
    arena::cli::main(&team::Bot::default())
}
