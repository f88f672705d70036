//! Serves the `PushFoldBot` house bot: `PORT=1337 cargo run -p lean-poker-examples --bin push-fold`.

fn main() -> std::process::ExitCode {
    player::cli::main(examples::bots::PushFoldBot::default())
}
