//! Serves the `SolidBot` house bot: `PORT=1337 cargo run -p lean-poker-examples --bin solid`.

fn main() -> std::process::ExitCode {
    player::cli::main(examples::bots::SolidBot::default())
}
