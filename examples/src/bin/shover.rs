//! Serves the `ShoverBot` house bot: `PORT=1337 cargo run -p lean-poker-examples --bin shover`.

fn main() -> std::process::ExitCode {
    player::cli::main(examples::bots::ShoverBot)
}
