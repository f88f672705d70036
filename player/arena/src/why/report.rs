//! What [`explain`](super::explain) finds: the groups of changed decisions with their effects
//! and example hands, and why it can say nothing (the types `--json` writes under `why`).

use super::kind::{DecisionKind, Move, Position};
use crate::ArenaError;
use engine::stats::Interval;
use player::GameState;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Which of the two runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Run {
    /// The earlier run, compared with (the last run, or the baseline).
    Last,
    /// This run.
    This,
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Run::Last => "the earlier run",
            Run::This => "this run",
        })
    }
}

/// Why the changed decisions cannot be shown.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum WhyError {
    /// A run was saved without its answers (by an older arena).
    #[error(
        "{0} was saved without its answers (by an older arena): run both versions again to see why"
    )]
    NotRecorded(Run),
    /// A run's answers do not cover its games.
    #[error("{run} kept answers for {recorded} games but played {played}: its saved file is damaged; run both versions again to see why")]
    Incomplete {
        /// The run.
        run: Run,
        /// Games with answers.
        recorded: usize,
        /// Games the comparison needs.
        played: usize,
    },
    /// Replaying the last run's answers does not give its saved results.
    #[error("replaying the earlier run from its saved answers does not give its results (game {game}: {reason}): the house bots, the rules or the engine changed since it was played (or a house bot does not play the same game twice), so its games are not replayed as they were; run both versions again to see why")]
    LastRunChanged {
        /// The first game (its number in the run) that does not match.
        game: u32,
        /// What does not match.
        reason: String,
    },
    /// Replaying this run's own answers does not give its results.
    #[error("replaying this run from its own answers does not give its results (game {game}: {reason}): a house bot does not play the same game twice, so no decision can be blamed for a difference")]
    NotReproducible {
        /// The first game that does not match.
        game: u32,
        /// What does not match.
        reason: String,
    },
    /// The settings cannot be played.
    #[error(transparent)]
    Arena(#[from] ArenaError),
}

/// Your positions among a group's games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionCount {
    /// The position.
    pub position: Position,
    /// Games whose changed decision was made there.
    pub games: u64,
}

/// How one version's game went on from the changed decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Continuation {
    /// The answer.
    pub answer: u64,
    /// How the dealer read it.
    pub action: Move,
    /// The rest of the hand, event by event (your answer first).
    pub rest_of_hand: Vec<String>,
    /// Chips the hand won (positive) or lost you.
    pub hand_chips: i64,
    /// Your place in the game.
    pub place: usize,
    /// Your points in the game.
    pub points: u32,
    /// What the cards gave you in the game beyond their expectation, in points (the verdict
    /// takes it out with a fitted coefficient).
    pub luck: f64,
}

/// One changed decision shown in full.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExampleHand {
    /// The game's number in the run (1 is the first).
    pub game: u32,
    /// Its deal set (1 is the first).
    pub deal_set: usize,
    /// The hand (`round`).
    pub round: u64,
    /// Your position.
    pub position: Position,
    /// The hand before the decision, event by event (blinds, bets, board).
    pub hand_so_far: Vec<String>,
    /// The document your bot was given (seats, stacks, cards, board, bets).
    pub state: GameState,
    /// The last run's answer and its game from there.
    pub before: Continuation,
    /// This run's answer and its game from there.
    pub now: Continuation,
}

/// The changed decisions of one kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChangeGroup {
    /// The kind.
    pub kind: DecisionKind,
    /// The kind in words ("preflop, facing an all-in, A-x offsuit: was fold, now call").
    pub description: String,
    /// Games whose first changed decision is of this kind.
    pub games: u64,
    /// Where you sat for them.
    pub positions: Vec<PositionCount>,
    /// What they did to your points per game of the comparison, this run minus the last,
    /// luck taken out, with the 95% interval over deal sets; the groups' means add up to the
    /// verdict's difference.
    pub effect: Interval,
    /// The same on raw points.
    pub raw_effect: Interval,
    /// The first of its games, shown in full (`None` only in a JSON file that left it out).
    #[serde(default)]
    pub example: Option<ExampleHand>,
}

/// The decisions an edit changed, and what they did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Why {
    /// Deal sets both runs played (those compared).
    pub deal_sets: usize,
    /// Games per deal set.
    pub rotations: usize,
    /// Games in which a decision changed.
    pub changed_games: u64,
    /// Your luck-adjusted points per game, this run minus the last, paired by deal set, from
    /// the replays: the verdict's figure (the same games and the same arithmetic).
    pub difference: Interval,
    /// The groups, those that explain most of the verdict first (the largest effect in the
    /// verdict's direction).
    pub groups: Vec<ChangeGroup>,
    /// Changed decisions put to your bot again (this version) to check it answers them as it
    /// did in the run.
    pub asked_again: u64,
    /// Of those, how many it answered otherwise: a bot that draws random numbers, reads the
    /// clock or learns between calls; then some changes are its own noise, not the edit.
    pub answered_otherwise: u64,
    /// Seconds the replays took (wall time).
    pub replay_seconds: f64,
}
