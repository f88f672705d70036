//! Serves the `AllIn` example bot: `PORT=1337 cargo run -p lean-poker-examples --bin all-in`.

fn main() -> std::process::ExitCode {
    player::cli::main(examples::bots::AllIn)
}
