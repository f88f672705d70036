//! Serves the `Folder` example bot: `PORT=1337 cargo run -p lean-poker-examples --bin folder`.

fn main() -> std::process::ExitCode {
    player::cli::main(examples::bots::Folder)
}
