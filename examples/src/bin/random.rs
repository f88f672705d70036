//! Serves the `RandomBot` example: `RANDOM_SEED=7 cargo run -p lean-poker-examples --bin random`.
//! Without `RANDOM_SEED` the seed comes from the clock (and is printed, to replay a game).

use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

fn main() -> ExitCode {
    let seed = match std::env::var("RANDOM_SEED") {
        Ok(value) => match value.trim().parse::<u64>() {
            Ok(seed) => seed,
            Err(_) => {
                eprintln!("error: RANDOM_SEED={value:?} is not a whole number");
                return ExitCode::FAILURE;
            }
        },
        Err(_) => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos() as u64),
    };
    eprintln!("random bot seed: {seed}");
    player::cli::main(examples::bots::RandomBot::with_seed(seed))
}
