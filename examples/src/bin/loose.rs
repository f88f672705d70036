//! Serves the `LooseBot` house bot: `PORT=1337 cargo run -p lean-poker-examples --bin loose`.

fn main() -> std::process::ExitCode {
    player::cli::main(examples::bots::LooseBot::default())
}
