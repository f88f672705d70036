//! Serves `real-c`, a real team bot's recorded play (the profile fitted from its games):
//! `PORT=1337 cargo run -p lean-poker-examples --bin real-c`.

fn main() -> std::process::ExitCode {
    player::cli::main(examples::bots::BotKind::RealC.build(0))
}
