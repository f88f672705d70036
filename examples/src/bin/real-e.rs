//! Serves `real-e`, a real team bot's recorded play (the profile fitted from its games):
//! `PORT=1337 cargo run -p lean-poker-examples --bin real-e`.

fn main() -> std::process::ExitCode {
    player::cli::main(examples::bots::BotKind::RealE.build(0))
}
