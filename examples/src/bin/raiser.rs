//! Serves the `Raiser` example bot: `PORT=1337 cargo run -p lean-poker-examples --bin raiser`.

fn main() -> std::process::ExitCode {
    player::cli::main(examples::bots::Raiser)
}
