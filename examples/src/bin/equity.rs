//! Serves the `EquityBot` example: `PORT=1337 cargo run -p lean-poker-examples --bin equity`.

fn main() -> std::process::ExitCode {
    player::cli::main(examples::bots::EquityBot::default())
}
