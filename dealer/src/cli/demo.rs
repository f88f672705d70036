//! `dealer demo`: house bots served over real HTTP on loopback play one sit'n'go.

use super::args::DemoArgs;
use super::run::{finish, play};
use super::{report, Failure};
use crate::engine::{MAX_SEATS, MIN_SEATS};
use crate::house::{self, BotKind};
use crate::observe::OutputSelection;
use crate::progress::Screen;
use crate::rules::GameRules;
use crate::runner::{Clock, RunnerOptions};
use crate::seat::{CheckPolicy, HttpSettings, PlayerEndpoint};
use crate::settings::{default_out_dir, random_seed, OutputFile, RunPlan};
use crate::tournament::{Entrant, TournamentSettings};
use std::time::Duration;

/// The demo's bots when `--bots` is not given: the field, a table that plays like an event's
/// (`BotKind::FIELD`, the arena's default opponents).
pub const DEMO_LINEUP: [BotKind; 5] = BotKind::FIELD;

/// Plays `dealer demo`.
///
/// # Errors
/// A [`Failure`] for a bad lineup (code 2), a bot that cannot be served or a run that could
/// not end (1), or a stop (130).
pub async fn demo(args: DemoArgs, screen: &Screen) -> Result<(), Failure> {
    let kinds = if args.bots.is_empty() {
        DEMO_LINEUP.to_vec()
    } else {
        args.bots
    };
    if kinds.len() < MIN_SEATS || kinds.len() > MAX_SEATS {
        return Err(Failure::usage(format!(
            "--bots needs {MIN_SEATS} to {MAX_SEATS} bots, got {}",
            kinds.len()
        )));
    }
    let seed = args.seed.unwrap_or_else(random_seed);
    let out_dir = match args.out {
        Some(out) => out,
        None => default_out_dir().map_err(|error| Failure::run(error.to_string()))?,
    };
    let mut servers = Vec::with_capacity(kinds.len());
    let mut entrants = Vec::with_capacity(kinds.len());
    for (index, kind) in kinds.iter().enumerate() {
        let bot = kind.build(seed.wrapping_add(index as u64));
        let server = house::serve_on_loopback(bot)
            .map_err(|error| Failure::run(format!("cannot start the {kind} bot: {error}")))?;
        let endpoint = PlayerEndpoint::parse(&server.url())
            .map_err(|error| Failure::run(format!("the {kind} bot's address: {error}")))?;
        let name = unique_name(kind.name(), &entrants);
        entrants.push(Entrant::http(name, endpoint));
        servers.push(server);
    }
    let mut game = GameRules {
        hand_limit: args.hand_limit,
        ..GameRules::default()
    };
    if let Some(blinds) = args.blinds {
        game.blinds = blinds.schedule();
    }
    let outputs = args
        .outputs
        .as_deref()
        .map_or(OutputSelection::DEFAULT, OutputFile::selection);
    let settings = TournamentSettings {
        game,
        http: HttpSettings::default(),
        games: 1,
        seed,
        parallel: 1,
        runner: RunnerOptions {
            check: CheckPolicy {
                deadline: Duration::from_secs(5),
                retry_interval: Duration::from_millis(50),
            },
            clock: if args.reproducible {
                Clock::Reproducible
            } else {
                Clock::Wall
            },
            ..RunnerOptions::default()
        },
        out_dir,
    };
    let mut lineup = format!(
        "Demo: {} house bots over HTTP on 127.0.0.1, seed {seed}\n",
        entrants.len()
    );
    for (entrant, server) in entrants.iter().zip(&servers) {
        lineup.push_str(&format!("  {:<18} {}\n", entrant.name, server.url()));
    }
    report::print(&lineup);
    let plan = RunPlan {
        entrants,
        settings,
        outputs,
        duplicate: false,
        shard: None,
        decks: None,
    };
    let report = play(plan, screen).await;
    for server in servers {
        let _ = server.stop().await;
    }
    let report = report?;
    report::print(&report::demo_table(&report, outputs));
    finish(&report)
}

/// `base`, or `base-2`, `base-3`... when a bot of the same kind is seated already.
fn unique_name(base: &str, entrants: &[Entrant]) -> String {
    let taken = |name: &str| entrants.iter().any(|e| e.name == name);
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|name| !taken(name))
        .unwrap_or_else(|| base.to_string())
}
