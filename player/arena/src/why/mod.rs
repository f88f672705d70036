//! Why an edit won or lost: the decisions the edit changed, grouped by kind, with what each
//! kind did to your points (`cargo arena --why`; a summary under every verdict).
//!
//! Two runs with the same options play the same deal sets, and the house bots are
//! deterministic, so the two games of one deal and seating are the same game until the first
//! bet request where the two versions' answers are read differently by the dealer; from there
//! they go their own ways. Each run keeps your answers ([`RecordedAnswers`], saved with it),
//! which with the deal seed replay its games exactly, and how each game ended for you: the
//! last version's code is gone by the time of the verdict, its answers are not. For every game
//! of the deal sets both runs played whose answers differ, the earlier run's game is replayed
//! with its answers while this run's answers are read beside them, up to the first request
//! where the two are read differently: the game's **changed decision**, classified by
//! [`DecisionKind`] (street, what you faced, your hand, both answers). A game answered alike
//! is the same game and is not replayed. Each group's example game is replayed to its end in
//! both versions, and must end as the runs' games did; games answered alike must have ended
//! alike; otherwise the house bots, the rules or the engine changed since the earlier run, and
//! [`explain`] says so ([`WhyError`]) rather than explain games that were not played. A run
//! saved without the endings (only by hand) has its changed games replayed to the end.
//!
//! **What a kind did to your points**: a game whose decisions all agree is the same game in
//! both runs and adds 0; a changed game adds its difference, this run's points minus the
//! earlier run's less the difference in their luck of the cards weighed by the set's
//! coefficient (the verdict's, fitted on the other sets: `engine::stats::adjust`), to its
//! decision's kind. Per deal set, each kind's share is its
//! games' differences over the set's games, so that over the deal sets both runs played, the
//! kinds' means add up to the verdict's paired difference per game (up to float rounding);
//! each kind's interval is Student's t over those per-set shares, as the verdict's. Only the
//! *first* changed decision of a game is counted: after it the games differ, and later
//! decisions answer different situations.

mod answers;
mod kind;
mod narrate;
pub(crate) mod print;
mod replay;
mod report;

pub(crate) use answers::pack_answer;
pub use answers::RecordedAnswers;
pub use kind::{BigBlinds, DecisionKind, Faced, HandClass, Move, Position, PotShare};
pub use report::{ChangeGroup, Continuation, ExampleHand, PositionCount, Run, Why, WhyError};

use crate::{ask, plan, Arena, ArenaReport, SavedRun, SetResult};
use answers::{Ending, Unpacked};
use engine::stats::adjust::{adjust_samples, fold_of};
use engine::stats::Interval;
use kind::{classify, Classified};
use narrate::Narrator;
use player::{Chips, GameState, Player};
use replay::{replay, GameSpec, Nothing, ReplayError, Until, Watch};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// One game of the comparison, replayed in both versions.
#[derive(Debug, Clone)]
struct Compared {
    before: Ending,
    now: Ending,
    change: Option<Change>,
}

/// A deal set's games compared, in rotation order.
type SetCompared = Result<Vec<Compared>, WhyError>;

/// A game's first changed decision.
#[derive(Debug, Clone, Copy)]
struct Change {
    request: usize,
    classified: Classified,
    /// Whether your bot, asked again, answered otherwise than in the run (`None`: not asked).
    answered_otherwise: Option<bool>,
}

/// Finds the first of your requests where the two versions' answers are read differently.
struct FirstDifference<'a> {
    now: Unpacked<'a>,
    player: Option<&'a dyn Player>,
    arena: &'a Arena,
    change: Option<Change>,
    /// This run's answers ran out before the last run's game differed from it.
    ran_out: bool,
    /// Whether to stop the replay at the change (its end is known).
    stop_at_change: bool,
}

impl Watch for FirstDifference<'_> {
    fn request(&mut self, index: usize, state: &GameState, before: Chips) -> bool {
        if self.change.is_some() || self.ran_out {
            return !self.stop_at_change;
        }
        let Some(Ok(now)) = self.now.next() else {
            self.ran_out = true;
            return true;
        };
        if state.read_bet(before) == state.read_bet(now) {
            return true;
        }
        let classified = classify(state, Move::of(state, before), Move::of(state, now));
        let answered_otherwise = self.player.map(|player| {
            let again = ask(player, state, self.arena.time_budget).0;
            state.read_bet(again) != state.read_bet(now)
        });
        self.change = Some(Change {
            request: index,
            classified,
            answered_otherwise,
        });
        !self.stop_at_change
    }

    fn event(&mut self, _: &engine::game_event::GameEvent) {}
}

/// The decisions this run (`now`, played by `arena` with `player`, which is asked again at
/// each changed decision to check that it is deterministic; `None` skips the check) changed
/// from `before`, on the deal sets both played.
///
/// # Errors
/// [`WhyError`]: a run without answers, a replay that does not give a run's results, or
/// settings that cannot be played.
pub fn explain(
    arena: &Arena,
    player: Option<&dyn Player>,
    before: &SavedRun,
    now: &ArenaReport,
) -> Result<Why, WhyError> {
    let started = Instant::now();
    let (_, rotations) = arena.shape()?;
    if before.answers.is_empty() {
        return Err(WhyError::NotRecorded(Run::Last));
    }
    if now.your_answers.is_empty() {
        return Err(WhyError::NotRecorded(Run::This));
    }
    let deal_sets = before.sets.len().min(now.your_sets.len());
    let games = deal_sets * rotations;
    for (run, recorded) in [(Run::Last, &before.answers), (Run::This, &now.your_answers)] {
        if recorded.games() < games {
            return Err(WhyError::Incomplete {
                run,
                recorded: recorded.games(),
                played: games,
            });
        }
    }
    let names = arena.names();
    let plan = plan(arena.seed, deal_sets as u32, names.len());
    let spec = |set: usize, rotation: usize| {
        let base = &plan[set].seating;
        GameSpec {
            arena,
            names: &names,
            seed: plan[set].seed,
            seating: (0..base.len())
                .map(|seat| base[(seat + rotation) % base.len()])
                .collect(),
        }
    };
    // Every game of the common sets, in both versions, on the arena's threads.
    let next = AtomicUsize::new(0);
    let outcomes: Mutex<Vec<Option<SetCompared>>> = Mutex::new(vec![None; deal_sets]);
    let workers = arena.threads.min(deal_sets).max(1);
    std::thread::scope(|scope| {
        for worker in 0..workers {
            let (next, outcomes, spec) = (&next, &outcomes, &spec);
            std::thread::Builder::new()
                .name(format!("arena-why-{worker}"))
                .spawn_scoped(scope, move || loop {
                    let set = next.fetch_add(1, Ordering::Relaxed);
                    if set >= deal_sets {
                        break;
                    }
                    let outcome = (0..rotations)
                        .map(|rotation| {
                            let game = set * rotations + rotation;
                            compare_game(
                                &spec(set, rotation),
                                player,
                                (
                                    before.answers.game(game).unwrap_or_default(),
                                    before.answers.ending(game),
                                ),
                                (
                                    now.your_answers.game(game).unwrap_or_default(),
                                    now.your_answers.ending(game),
                                ),
                                game as u32 + 1,
                            )
                        })
                        .collect::<Result<Vec<_>, _>>()
                        .and_then(|games| {
                            check_set(
                                &games,
                                &before.sets[set],
                                &now.your_sets[set],
                                set,
                                rotations,
                            )
                            .map(|()| games)
                        });
                    let failed = outcome.is_err();
                    outcomes.lock().unwrap_or_else(|e| e.into_inner())[set] = Some(outcome);
                    if failed {
                        next.store(deal_sets, Ordering::Relaxed);
                    }
                })
                .expect("cannot start an arena thread");
        }
    });
    let mut sets = Vec::with_capacity(deal_sets);
    for outcome in outcomes.into_inner().unwrap_or_else(|e| e.into_inner()) {
        match outcome {
            Some(Ok(games)) => sets.push(games),
            Some(Err(error)) => return Err(error),
            None => {}
        }
    }
    // The groups: per deal set, each kind's share of the set's difference per game, its points
    // less its luck weighed by the set's coefficient, fitted on the other sets as the verdict
    // fits it (`engine::stats::adjust`, the same samples), so that the kinds add up to it.
    let per_game = rotations.max(1) as f64;
    let per_set: Vec<(f64, f64)> = sets
        .iter()
        .map(|games| {
            games.iter().fold((0.0, 0.0), |(points, luck), g| {
                (
                    points + (f64::from(g.now.points) - f64::from(g.before.points)) / per_game,
                    luck + (g.now.luck() - g.before.luck()) / per_game,
                )
            })
        })
        .collect();
    let (difference, adjustment) = adjust_samples(&per_set);
    let coefficient = |set: usize| adjustment.coefficients[fold_of(set as u64)];
    let mut index: HashMap<DecisionKind, usize> = HashMap::new();
    struct Building {
        kind: DecisionKind,
        games: u64,
        positions: HashMap<Position, u64>,
        adjusted: Vec<f64>,
        raw: Vec<f64>,
        first: (usize, usize, Change),
    }
    let mut building: Vec<Building> = Vec::new();
    let (mut asked_again, mut answered_otherwise, mut changed_games) = (0, 0, 0);
    for (set, games) in sets.iter().enumerate() {
        for (rotation, game) in games.iter().enumerate() {
            let Some(change) = game.change else { continue };
            changed_games += 1;
            if let Some(otherwise) = change.answered_otherwise {
                asked_again += 1;
                answered_otherwise += u64::from(otherwise);
            }
            let kind = change.classified.kind;
            let slot = *index.entry(kind).or_insert_with(|| {
                building.push(Building {
                    kind,
                    games: 0,
                    positions: HashMap::new(),
                    adjusted: vec![0.0; deal_sets],
                    raw: vec![0.0; deal_sets],
                    first: (set, rotation, change),
                });
                building.len() - 1
            });
            let group = &mut building[slot];
            group.games += 1;
            *group
                .positions
                .entry(change.classified.position)
                .or_default() += 1;
            group.adjusted[set] += (f64::from(game.now.points)
                - f64::from(game.before.points)
                - coefficient(set) * (game.now.luck() - game.before.luck()))
                / per_game;
            group.raw[set] +=
                (f64::from(game.now.points) - f64::from(game.before.points)) / per_game;
        }
    }
    let difference = Interval::of(&difference);
    let direction = if difference.mean < 0.0 { -1.0 } else { 1.0 };
    let mut groups: Vec<ChangeGroup> = building
        .into_iter()
        .map(|group| -> Result<ChangeGroup, WhyError> {
            let mut positions: Vec<PositionCount> = group
                .positions
                .into_iter()
                .map(|(position, games)| PositionCount { position, games })
                .collect();
            positions.sort_by_key(|p| (std::cmp::Reverse(p.games), p.position));
            let (set, rotation, change) = group.first;
            let game = set * rotations + rotation;
            let example = example(
                &spec(set, rotation),
                before.answers.game(game).unwrap_or_default(),
                now.your_answers.game(game).unwrap_or_default(),
                change,
                (set, game as u32 + 1),
                &sets[set][rotation],
            )?;
            Ok(ChangeGroup {
                kind: group.kind,
                description: group.kind.to_string(),
                games: group.games,
                positions,
                effect: Interval::of(&group.adjusted),
                raw_effect: Interval::of(&group.raw),
                example: Some(example),
            })
        })
        .collect::<Result<_, _>>()?;
    groups.sort_by(|a, b| {
        (b.effect.mean * direction)
            .total_cmp(&(a.effect.mean * direction))
            .then(b.games.cmp(&a.games))
            .then(a.kind.cmp(&b.kind))
    });
    Ok(Why {
        deal_sets,
        rotations,
        changed_games,
        difference,
        groups,
        asked_again,
        answered_otherwise,
        replay_seconds: started.elapsed().as_secs_f64(),
    })
}

/// Compares one game of the two runs. A game answered alike in both is the same game: it is
/// not replayed, and both runs must have ended it alike. Otherwise the last run's game is
/// replayed up to its first changed decision (to its end when its ending was not saved), and
/// this run's ending is the one it recorded (replayed only when it was not kept).
fn compare_game(
    spec: &GameSpec,
    player: Option<&dyn Player>,
    (before, before_ending): (&[u8], Option<Ending>),
    (now, now_ending): (&[u8], Option<Ending>),
    number: u32,
) -> Result<Compared, WhyError> {
    let last_changed = |reason: String| WhyError::LastRunChanged {
        game: number,
        reason,
    };
    let not_reproducible = |reason: String| WhyError::NotReproducible {
        game: number,
        reason,
    };
    let to_the_end = |answers: &[u8], watch: &mut dyn Watch| {
        replay(spec, answers, watch, Until::End)
            .and_then(|ending| ending.ok_or(ReplayError::Damaged))
    };
    if before == now {
        let now_ending = match now_ending {
            Some(ending) => ending,
            None => to_the_end(now, &mut Nothing).map_err(|e| not_reproducible(e.to_string()))?,
        };
        let before_ending = before_ending.unwrap_or(now_ending);
        if !before_ending.same(&now_ending) {
            return Err(last_changed(format!(
                "the same answers ended the game {} with {} points then, {} with {} now",
                print::place(before_ending.place),
                before_ending.points,
                print::place(now_ending.place),
                now_ending.points
            )));
        }
        return Ok(Compared {
            before: before_ending,
            now: now_ending,
            change: None,
        });
    }
    let mut watch = FirstDifference {
        now: Unpacked::new(now),
        player,
        arena: spec.arena,
        change: None,
        ran_out: false,
        stop_at_change: before_ending.is_some(),
    };
    let until = if before_ending.is_some() {
        Until::Stopped
    } else {
        Until::End
    };
    let replayed =
        replay(spec, before, &mut watch, until).map_err(|e| last_changed(e.to_string()))?;
    let before_ending = match (before_ending, replayed) {
        (Some(ending), _) | (None, Some(ending)) => ending,
        (None, None) => return Err(last_changed(ReplayError::Damaged.to_string())),
    };
    let now_ending = match now_ending {
        Some(ending) => ending,
        None => to_the_end(now, &mut Nothing).map_err(|e| not_reproducible(e.to_string()))?,
    };
    if watch.change.is_none() {
        // Every answer read as the last run's: the same game (the answers differed only in
        // chips the dealer ignores, such as the excess over a call).
        if watch.ran_out || !watch.now.is_done() {
            return Err(not_reproducible(
                "the game asked for another number of answers than were recorded".into(),
            ));
        }
        if !before_ending.same(&now_ending) {
            return Err(last_changed(
                "answers read alike ended the game otherwise".into(),
            ));
        }
    }
    Ok(Compared {
        before: before_ending,
        now: now_ending,
        change: watch.change,
    })
}

/// Checks that a deal set's replays give both runs' saved results.
fn check_set(
    games: &[Compared],
    before: &SetResult,
    now: &SetResult,
    set: usize,
    rotations: usize,
) -> Result<(), WhyError> {
    for (run, saved) in [(Run::Last, before), (Run::This, now)] {
        let endings = games.iter().map(|g| match run {
            Run::Last => g.before,
            Run::This => g.now,
        });
        let (mut points, mut luck, mut places) = (0u32, 0.0f64, Vec::new());
        for ending in endings {
            points += ending.points;
            luck += ending.luck();
            places.push(ending.place);
        }
        let tolerance = 1e-9 * luck.abs().max(1.0);
        if points != saved.points
            || places != saved.places
            || (luck - saved.luck_total()).abs() > tolerance
        {
            let game = (set * rotations + 1) as u32;
            let reason = format!(
                "deal set {} replays to {points} points (luck of the cards {luck:+.3}), places {places:?}; the run had {} ({:+.3}), {:?}",
                set + 1,
                saved.points,
                saved.luck_total(),
                saved.places
            );
            return Err(match run {
                Run::Last => WhyError::LastRunChanged { game, reason },
                Run::This => WhyError::NotReproducible { game, reason },
            });
        }
    }
    Ok(())
}

/// Replays a changed game once more in both versions, to the end, told in full. Each replay
/// must end as its run's game did: the check that the house bots, the rules and the engine
/// play the games as they were played (most games of a run are not replayed to their end).
fn example(
    spec: &GameSpec,
    before: &[u8],
    now: &[u8],
    change: Change,
    (set, game): (usize, u32),
    compared: &Compared,
) -> Result<ExampleHand, WhyError> {
    let names = spec.seat_names();
    let yours = spec.yours();
    let not_reproducible = |reason: String| WhyError::NotReproducible { game, reason };
    let mut told = Vec::with_capacity(2);
    for (run, answers, ending) in [
        (Run::Last, before, compared.before),
        (Run::This, now, compared.now),
    ] {
        let fails = |reason: String| match run {
            Run::Last => WhyError::LastRunChanged { game, reason },
            Run::This => WhyError::NotReproducible { game, reason },
        };
        let mut narrator = Narrator::new(change.request, &names, yours);
        let replayed = replay(spec, answers, &mut narrator, Until::End)
            .and_then(|ending| ending.ok_or(ReplayError::Damaged))
            .map_err(|e| fails(e.to_string()))?;
        if !replayed.same(&ending) {
            return Err(fails(format!(
                "replayed, the game ends {} with {} points (luck of the cards {:+.3}); played, {} with {} ({:+.3})",
                print::place(replayed.place),
                replayed.points,
                replayed.luck(),
                print::place(ending.place),
                ending.points,
                ending.luck()
            )));
        }
        let answer = match Unpacked::new(answers).nth(change.request) {
            Some(Ok(answer)) => answer,
            _ => return Err(not_reproducible(ReplayError::Damaged.to_string())),
        };
        told.push((narrator, ending, answer));
    }
    let damaged = || not_reproducible(ReplayError::Damaged.to_string());
    let now_told = told.pop().ok_or_else(damaged)?;
    let before_told = told.pop().ok_or_else(damaged)?;
    let state = before_told.0.state.clone().ok_or_else(damaged)?;
    let continuation = |(narrator, ending, answer): (Narrator, Ending, Chips)| Continuation {
        answer: answer.get(),
        action: Move::of(&state, answer),
        hand_chips: narrator.hand_chips(),
        rest_of_hand: narrator.after,
        place: ending.place,
        points: ending.points,
        luck: ending.luck(),
    };
    let hand_so_far = before_told.0.before.clone();
    Ok(ExampleHand {
        game,
        deal_set: set + 1,
        round: state.round.unwrap_or(0),
        position: change.classified.position,
        hand_so_far,
        before: continuation(before_told),
        now: continuation(now_told),
        state,
    })
}
