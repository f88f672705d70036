//! Checking that a player's answers are legal, meaningful bets (see [`check_bet`]).

use crate::testing::load::{Recorded, Source};
use crate::Player;
use shared::rules::{BetAction, BetReading};
use shared::{Chips, GameState};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;
use thiserror::Error;

/// Checks that `answer` is a legal, **meaningful** bet for `state`.
///
/// Every `u64` is a *legal* answer on the wire, and the dealer reads any of them somehow
/// (spec §4). What goes wrong in practice is an answer the dealer reads differently from what
/// the bot meant: a raise below the minimum that silently becomes a call, a "call" one chip short
/// that folds, `1000000` meant as all-in. So an answer is **meaningful** when, read with
/// [`read_bet`](shared::GameState::read_bet), the dealer moves exactly the chips the answer
/// names:
///
/// | read as | meaningful only if the answer is |
/// |---|---|
/// | fold | `0` |
/// | check | `0` |
/// | call | exactly the amount to call ([`call_amount`](shared::GameState::call_amount)) |
/// | raise | anything (a raise always puts in exactly the answer) |
/// | all-in | exactly the stack ([`all_in_amount`](shared::GameState::all_in_amount)) |
///
/// So `0` is the only way to check or fold, and every chip of a non-zero answer counts.
///
/// ```
/// use player::testing::{check_bet, heads_up};
/// use player::{BetAction, Chips};
/// // Blinds 10/20, I posted 10: call 10; the smallest raise answers 20 (to 30); stack 990.
/// let state = heads_up().post_blinds().build();
/// assert_eq!(check_bet(&state, Chips(10)).unwrap().action, BetAction::Call);
/// assert_eq!(check_bet(&state, Chips(20)).unwrap().action, BetAction::Raise);
/// assert!(check_bet(&state, Chips(15)).is_err()); // a raise too small: read as a call
/// assert!(check_bet(&state, Chips(5)).is_err()); // a call too small: read as a fold
/// assert!(check_bet(&state, Chips(5000)).is_err()); // more than the stack
/// assert!(check_bet(&state, Chips(990)).is_ok()); // all-in
/// ```
///
/// # Errors
/// A one-line explanation of how the dealer will read the answer and what to answer instead.
pub fn check_bet(state: &GameState, answer: Chips) -> Result<BetReading, String> {
    let Some(me) = state.me() else {
        return Err("the state names no receiving player (no in_action)".to_string());
    };
    let reading = state.read_bet(answer);
    let BetReading { action, put_in } = reading;
    let meaningful = match action {
        BetAction::Fold | BetAction::Check => answer.is_zero(),
        BetAction::Call | BetAction::Raise | BetAction::AllIn => answer == put_in,
    };
    if meaningful {
        return Ok(reading);
    }
    let minimum_raise = state.minimum_raise_amount();
    let call = state.call_amount();
    Err(match action {
        BetAction::Fold => format!(
            "answer {answer} is read as a fold: calling needs {call}, folding is 0"
        ),
        BetAction::Check => format!(
            "answer {answer} is read as a check: the smallest raise is {minimum_raise}, checking is 0"
        ),
        BetAction::Call => format!(
            "answer {answer} is read as a call of {put_in} (the rest is ignored): the smallest raise is {minimum_raise}"
        ),
        BetAction::AllIn => format!(
            "answer {answer} is more than the stack of {}: all-in is exactly {}",
            me.stack, me.stack
        ),
        BetAction::Raise => format!("answer {answer} is read as a raise of {put_in}"),
    })
}

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
