//! Serves the `CallingStation` example bot: `PORT=1337 cargo run -p lean-poker-examples --bin calling-station`.

fn main() -> std::process::ExitCode {
    player::cli::main(examples::bots::CallingStation)
}
