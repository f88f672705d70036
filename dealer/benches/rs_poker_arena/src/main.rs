//! Hands per second, in process, six calling agents: our engine against rs_poker 5.0's arena.
//!
//! ```text
//! dealer/benches/rs_poker_arena.sh              # 5 rounds of 20,000 hands each side
//! dealer/benches/rs_poker_arena.sh 9 50000      # rounds, hands per round
//! ```
//!
//! - **ours**: `engine::Game`, sit'n'gos of six players (1,000 chips, the default LIVE blinds),
//!   restarted with a new seed as they end. Every bet request gives the asked seat its
//!   `game_state` (`bet_request_state`, the document a player would get) and it answers
//!   `call_amount()`. The engine bench (`dealer/benches/engine.rs`) also renders the showdown
//!   document for every seat after every hand; rs_poker sends nothing at a showdown, so this
//!   comparison does not (the "ours + showdowns" row does, as the engine bench).
//! - **rs_poker**: `HoldemSimulation` (one simulation is one hand) with six `CallingAgent`s,
//!   1,000 chips each, blinds 10/5, the button moving a seat each hand, each hand seeded, run
//!   to the end on one current-thread tokio runtime (the arena's agents are async).
//!
//! Each round plays the three one after the other on this thread; the time is this thread's
//! CPU time (`/proc/thread-self/schedstat`, so other processes' load counts little), wall time
//! where that file is missing. Printed per round, then min / median / max over the rounds and
//! the ratio ours / rs_poker of each round.

use engine::rules::GameRules;
use engine::{Document, Game, GameSetup, SeatAnswer, Step, View};
use rand::SeedableRng;
use rs_poker::arena::agent::CallingAgent;
use rs_poker::arena::{Agent, GameStateBuilder, HoldemSimulationBuilder};
use shared::Seat;
use std::hint::black_box;
use std::time::{Duration, Instant};

const SEATS: usize = 6;
const STACK: f32 = 1000.0;

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = number(args.next(), 5);
    let hands: u64 = number(args.next(), 20_000);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime");
    let names: Vec<String> = (0..SEATS).map(|seat| format!("calling {seat}")).collect();

    println!("{hands} hands per side per round, {rounds} rounds, six calling agents, one thread");
    println!(
        "{:>5} {:>14} {:>20} {:>14} {:>8}",
        "round", "ours hands/s", "ours+showdowns h/s", "rs_poker h/s", "ratio"
    );
    let (mut ours, mut ours_showdowns, mut theirs, mut ratios) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut seed = 0u64;
    for round in 1..=rounds {
        let ours_rate = rate(hands, || play_ours(hands, &mut seed, &names, false));
        let showdown_rate = rate(hands, || play_ours(hands, &mut seed, &names, true));
        let theirs_rate = rate(hands, || {
            runtime.block_on(play_rs_poker(hands, round as u64 * hands))
        });
        println!(
            "{round:>5} {ours_rate:>14.0} {showdown_rate:>20.0} {theirs_rate:>14.0} {:>7.2}x",
            ours_rate / theirs_rate
        );
        ours.push(ours_rate);
        ours_showdowns.push(showdown_rate);
        theirs.push(theirs_rate);
        ratios.push(ours_rate / theirs_rate);
    }
    println!("min / median / max over {rounds} rounds:");
    println!("  ours                 {}", spread(&mut ours, 0));
    println!("  ours + showdowns     {}", spread(&mut ours_showdowns, 0));
    println!("  rs_poker arena       {}", spread(&mut theirs, 0));
    println!("  ratio ours/rs_poker  {}", spread(&mut ratios, 2));
}

/// Plays `hands` hands of sit'n'gos with six calling stations (new seeds as games end); with
/// `showdowns`, renders each seat's showdown document after every hand as a dealer does.
/// Returns a checksum so that nothing is optimised away.
fn play_ours(hands: u64, seed: &mut u64, names: &[String], showdowns: bool) -> u64 {
    let mut played = 0;
    let mut checksum = 0u64;
    let mut showdown = Document::new();
    while played < hands {
        *seed += 1;
        let setup = GameSetup::new(GameRules::default(), names.to_vec(), *seed);
        let mut game = Game::new(setup).expect("six named players make a game");
        loop {
            match game.step() {
                Step::Event(event) => {
                    black_box(&event);
                }
                Step::BetRequest { .. } => {
                    let Some(state) = game.bet_request_state() else {
                        break;
                    };
                    let answer = state.call_amount();
                    checksum = checksum.wrapping_add(answer.get());
                    let _ = game.answer(SeatAnswer::Bet(answer));
                }
                Step::Showdown { .. } => {
                    if showdowns {
                        for seat in 0..SEATS {
                            if game
                                .render_document(View::Showdown(Seat(seat)), &mut showdown)
                                .is_ok()
                            {
                                checksum = checksum.wrapping_add(showdown.state().pot.get());
                            }
                        }
                    }
                    played += 1;
                    if played >= hands {
                        break;
                    }
                }
                Step::Finished => break,
            }
        }
    }
    checksum
}

/// Plays `hands` rs_poker arena hands (one `HoldemSimulation` each) with six calling agents,
/// the button moving a seat a hand, hand `i` seeded with `first_seed + i`.
async fn play_rs_poker(hands: u64, first_seed: u64) -> u64 {
    let mut checksum = 0u64;
    for hand in 0..hands {
        let game_state = GameStateBuilder::new()
            .num_players_with_stack(SEATS, STACK)
            .blinds(10.0, 5.0)
            .dealer_idx((hand % SEATS as u64) as usize)
            .build()
            .expect("six players with chips make a game");
        let agents: Vec<Box<dyn Agent>> = (0..SEATS)
            .map(|_| Box::<CallingAgent>::default() as Box<dyn Agent>)
            .collect();
        let mut simulation = HoldemSimulationBuilder::default()
            .game_state(game_state)
            .agents(agents)
            .build_with_rng(rand::rngs::StdRng::seed_from_u64(first_seed + hand))
            .expect("a simulation of six agents");
        simulation.run().await;
        checksum = checksum.wrapping_add(simulation.game_state.total_pot as u64);
    }
    checksum
}

/// Hands per second of `play`, by this thread's CPU time (wall time without schedstat).
fn rate(hands: u64, play: impl FnOnce() -> u64) -> f64 {
    let (cpu_before, wall_before) = (thread_cpu(), Instant::now());
    black_box(play());
    let elapsed = match (cpu_before, thread_cpu()) {
        (Some(before), Some(after)) if after > before => after - before,
        _ => wall_before.elapsed(),
    };
    hands as f64 / elapsed.as_secs_f64()
}

/// This thread's time on a CPU, from the kernel's scheduler statistics.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

fn spread(values: &mut [f64], digits: usize) -> String {
    values.sort_by(f64::total_cmp);
    let median = values[values.len() / 2];
    format!(
        "{:.digits$} / {median:.digits$} / {:.digits$}",
        values[0],
        values[values.len() - 1]
    )
}

fn number<T: std::str::FromStr>(arg: Option<String>, default: T) -> T {
    arg.and_then(|text| text.parse().ok()).unwrap_or(default)
}
