//! Checking that a player's answers are legal, meaningful bets (see [`check_bet`]).

use crate::testing::load::{Recorded, Source};
use crate::{check_bet, Player};
use shared::rules::BetReading;
use shared::{Chips, GameState};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;
use thiserror::Error;

/// One state where the player's answer was not a meaningful bet (or it panicked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetProblem {
    /// Where the state came from.
    pub source: Source,
    /// The answer, `None` if `bet_request` panicked.
    pub answer: Option<Chips>,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for BetProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source, self.problem)
    }
}

/// The result of [`check_bets`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BetCheckReport {
    /// States the player was asked about.
    pub checked: usize,
    /// States skipped because they are not bet requests (see [`Recorded::is_bet_request`]).
    pub skipped: usize,
    /// Every state whose answer was not meaningful, in order.
    pub problems: Vec<BetProblem>,
}

/// Why a player's answer to one state is wrong: it panicked, or its answer is not a
/// meaningful bet ([`check_bet`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AnswerError {
    /// `bet_request` panicked.
    #[error("bet_request panicked{at}: {message}", at = location.as_deref().map(|l| format!(" at {l}")).unwrap_or_default())]
    Panicked {
        /// The panic message.
        message: String,
        /// `file:line:column` of the panic, when the panic hook saw it.
        location: Option<String>,
    },
    /// The answer is not a meaningful bet.
    #[error("{problem}")]
    NotMeaningful {
        /// What `bet_request` answered.
        answer: Chips,
        /// [`check_bet`]'s explanation.
        problem: String,
    },
}

impl AnswerError {
    /// The answer, if `bet_request` returned one.
    pub fn answer(&self) -> Option<Chips> {
        match self {
            AnswerError::Panicked { .. } => None,
            AnswerError::NotMeaningful { answer, .. } => Some(*answer),
        }
    }
}

thread_local! {
    /// Set while [`check_answer`] runs a strategy on this thread: its panic is caught and
    /// reported once, in the test's failure message, instead of also being printed by the
    /// panic hook (hundreds of identical lines when a bug hits every state).
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// Where the last quiet panic happened (the payload does not carry its location).
    static LAST_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs, once per process, a panic hook that stays silent for panics inside
/// [`check_answer`] on this thread and hands every other panic to the hook that was there
/// before, so other tests' panics print as usual.
fn install_quiet_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let location = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                LAST_LOCATION.with(|last| *last.borrow_mut() = location);
            } else {
                previous(info);
            }
        }));
    });
}

/// Asks `player` about `state` and checks the answer with [`check_bet`]. A panic in
/// `bet_request` is caught and returned as [`AnswerError::Panicked`] with its message and
/// location, without being printed: the test that called this reports it once.
///
/// ```
/// use player::testing::{check_answer, heads_up, AnswerError};
/// use player::{from_fn, BetAction, Chips};
///
/// let state = heads_up().hole_cards("Ah Kd").post_blinds().build();
/// let caller = from_fn(|state| state.call_amount());
/// assert_eq!(check_answer(&caller, &state).unwrap().action, BetAction::Call);
/// let broken = from_fn(|state| Chips(state.call_amount().get() - 11));
/// assert!(matches!(check_answer(&broken, &state), Err(AnswerError::Panicked { .. })));
/// ```
///
/// # Errors
/// The panic, or why the answer is not a meaningful bet.
pub fn check_answer<P: Player + ?Sized>(
    player: &P,
    state: &GameState,
) -> Result<BetReading, AnswerError> {
    install_quiet_hook();
    let was_quiet = QUIET.with(|quiet| quiet.replace(true));
    LAST_LOCATION.with(|last| last.borrow_mut().take());
    let outcome = catch_unwind(AssertUnwindSafe(|| player.bet_request(state)));
    QUIET.with(|quiet| quiet.set(was_quiet));
    match outcome {
        Ok(answer) => check_bet(state, answer)
            .map_err(|problem| AnswerError::NotMeaningful { answer, problem }),
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a text message".to_string());
            let location = LAST_LOCATION.with(|last| last.borrow_mut().take());
            Err(AnswerError::Panicked { message, location })
        }
    }
}

/// Asks `player` about every recorded state that is a bet request and checks each answer with
/// [`check_answer`] (a panic is a problem like any other, caught without printing).
pub fn check_bets<P: Player + ?Sized>(player: &P, recorded: &[Recorded]) -> BetCheckReport {
    let mut report = BetCheckReport::default();
    for item in recorded {
        let Some(state) = item.bet_request() else {
            report.skipped += 1;
            continue;
        };
        report.checked += 1;
        if let Err(error) = check_answer(player, state) {
            report.problems.push(BetProblem {
                source: item.source.clone(),
                answer: error.answer(),
                problem: error.to_string(),
            });
        }
    }
    report
}

/// How many problems [`assert_legal_bets`] lists before it only counts the rest.
const SHOWN_PROBLEMS: usize = 10;

/// [`check_bets`], panicking with the problems (file and line each, the first ten and how many
/// more) if there is any, or if not a single state was a bet request (a test that checks
/// nothing must not pass).
#[track_caller]
pub fn assert_legal_bets<P: Player + ?Sized>(player: &P, recorded: &[Recorded]) -> BetCheckReport {
    let report = check_bets(player, recorded);
    if report.checked == 0 {
        panic!(
            "no bet request among {} recorded states: nothing was checked",
            recorded.len()
        );
    }
    if !report.problems.is_empty() {
        let mut message = format!(
            "{} of {} answers are not meaningful bets:",
            report.problems.len(),
            report.checked
        );
        // A bug usually hits many states the same way: the first few say where, the count
        // says how widespread, and the failure stays one readable message.
        for problem in report.problems.iter().take(SHOWN_PROBLEMS) {
            message.push_str("\n  ");
            message.push_str(&problem.to_string());
        }
        if report.problems.len() > SHOWN_PROBLEMS {
            let more = report.problems.len() - SHOWN_PROBLEMS;
            message.push_str(&format!("\n  ... and {more} more"));
        }
        panic!("{message}");
    }
    report
}
