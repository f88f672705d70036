//! One game of a run played again from its seed and your recorded answers, exactly as
//! `Arena::play_game` played it: the same engine, the same house bots built the same way (by
//! `Arena::house_bot`), the same luck meter; your seat answers from the record instead of
//! calling your bot. A [`Watch`] sees every event and every one of your bet requests.

use super::answers::{Ending, Unpacked};
use crate::{ask, Arena};
use engine::game_event::GameEvent;
use engine::luck::LuckMeter;
use engine::{Game, GameSetup, SeatAnswer, Step};
use player::{panic_message, Chips, GameState, Seat};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// One game of the plan: who sits where, with which seed.
pub(crate) struct GameSpec<'a> {
    pub(crate) arena: &'a Arena,
    /// The entrants' names (yours first).
    pub(crate) names: &'a [String],
    pub(crate) seed: u64,
    /// The entrant at each seat (0 is yours).
    pub(crate) seating: Vec<usize>,
}

impl GameSpec<'_> {
    /// Your seat.
    pub(crate) fn yours(&self) -> usize {
        self.seating.iter().position(|&e| e == 0).unwrap_or(0)
    }

    /// The name at each seat.
    pub(crate) fn seat_names(&self) -> Vec<String> {
        self.seating
            .iter()
            .map(|&e| self.names[e].clone())
            .collect()
    }
}

/// Why a game could not be replayed from its answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReplayError {
    /// The game asked you more often than the record answered.
    RanOut {
        /// Answers recorded.
        recorded: usize,
    },
    /// The game ended with answers left over.
    LeftOver {
        /// Answers used.
        used: usize,
    },
    /// The record is damaged.
    Damaged,
    /// The engine refused the game.
    Engine(String),
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::RanOut { recorded } => write!(
                f,
                "the game asked for more than the {recorded} answers recorded"
            ),
            ReplayError::LeftOver { used } => write!(
                f,
                "the game ended after {used} answers, with recorded answers left over"
            ),
            ReplayError::Damaged => f.write_str("the recorded answers are damaged"),
            ReplayError::Engine(reason) => write!(f, "the engine refused it: {reason}"),
        }
    }
}

/// What a replay shows as it goes.
pub(crate) trait Watch {
    /// Your `index`-th bet request (from 0) in `state`, answered `answer`; `false` stops the
    /// replay there.
    fn request(&mut self, index: usize, state: &GameState, answer: Chips) -> bool;
    /// An event of the game, once the engine applied it.
    fn event(&mut self, event: &GameEvent);
}

/// Watches nothing.
pub(crate) struct Nothing;

impl Watch for Nothing {
    fn request(&mut self, _: usize, _: &GameState, _: Chips) -> bool {
        true
    }
    fn event(&mut self, _: &GameEvent) {}
}

/// How far a replay goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Until {
    /// To the end of the game, with the luck of the cards counted.
    End,
    /// Until the watch stops it (or the game ends), the luck not counted: what comes after
    /// is not needed.
    Stopped,
}

/// Replays the game `spec` with your answers `answers` (packed); `None` when the watch
/// stopped it before the end.
pub(crate) fn replay(
    spec: &GameSpec,
    answers: &[u8],
    watch: &mut dyn Watch,
    until: Until,
) -> Result<Option<Ending>, ReplayError> {
    let arena = spec.arena;
    let setup = GameSetup::new(arena.rules.clone(), spec.seat_names(), spec.seed);
    let mut game = Game::new(setup).map_err(|error| ReplayError::Engine(error.to_string()))?;
    let house: Vec<Option<std::sync::Arc<dyn player::Player>>> = spec
        .seating
        .iter()
        .enumerate()
        .map(|(seat, &entrant)| (entrant > 0).then(|| arena.house_bot(entrant, spec.seed, seat)))
        .collect();
    let yours = spec.yours();
    let mut luck = LuckMeter::for_seat(yours, spec.seating.len(), spec.seed);
    let mut mine = Unpacked::new(answers);
    let mut used = 0;
    loop {
        match game.step() {
            Step::Event(event) => {
                if until == Until::End {
                    luck.observe(&event);
                }
                watch.event(&event);
            }
            Step::BetRequest { seat } => {
                let Some(state) = game.bet_request_state() else {
                    break;
                };
                let answer = match &house[seat.0] {
                    Some(bot) => ask(&**bot, state, arena.time_budget).0,
                    None => {
                        let answer = match mine.next() {
                            Some(Ok(answer)) => answer,
                            Some(Err(_)) => return Err(ReplayError::Damaged),
                            None => return Err(ReplayError::RanOut { recorded: used }),
                        };
                        let go_on = watch.request(used, state, answer);
                        used += 1;
                        if !go_on {
                            return Ok(None);
                        }
                        answer
                    }
                };
                if game.answer(SeatAnswer::Bet(answer)).is_err() {
                    break;
                }
            }
            Step::Showdown { .. } => {
                // House bots may learn from showdowns: they get them as in the run.
                for (seat, bot) in house.iter().enumerate() {
                    if let (Some(bot), Some(state)) = (bot, game.showdown_state(Seat(seat))) {
                        let _ = catch_unwind(AssertUnwindSafe(|| bot.showdown(&state)))
                            .map_err(|payload| panic_message(&*payload));
                    }
                }
            }
            Step::Finished => break,
        }
    }
    if !mine.is_done() {
        return Err(ReplayError::LeftOver { used });
    }
    let result = game
        .result()
        .ok_or_else(|| ReplayError::Engine("the engine stopped before the game ended".into()))?;
    let points = result.points[yours];
    Ok((until == Until::End).then(|| Ending {
        points,
        place: result.places[yours],
        adjusted: f64::from(points) - luck.luck(yours),
    }))
}
