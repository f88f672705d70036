//! Serves the `TightBot` house bot: `PORT=1337 cargo run -p lean-poker-examples --bin tight`.

fn main() -> std::process::ExitCode {
    player::cli::main(examples::bots::TightBot::default())
}
