//! Checking that a player's answers are legal, meaningful bets (see [`check_bet`]).
//!
//! A panic in `bet_request` is not a wrong answer: behind a dealer the SDK answers its fallback
//! `0` (check or fold) for it, which is always meaningful, and the game goes on. So the `assert_`
//! functions fail on answers a dealer reads differently from what they say, and *report* panics
//! (how many, and the first with its place and `game_state`) on the terminal, whether the test
//! passes or fails. [`check_answer`] still returns a panic as an error, for tests that want it.

use crate::testing::load::{load_env, Recorded, Source};
use crate::{check_bet, Player};
use shared::rules::BetReading;
use shared::{Chips, GameState};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;
use thiserror::Error;

/// One state where the player's answer was not a meaningful bet, or where it panicked.
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
    /// Every state where `bet_request` panicked (the SDK answers `0` there), in order.
    pub panics: Vec<BetProblem>,
}

/// Writes `text` to the terminal even while the test harness captures output: `eprintln!`
/// goes to the harness, which shows it only for a failing test, and a report a team must see
/// (how many states were checked, the panics the SDK papered over) would be lost.
pub(crate) fn tell(text: &str) {
    use std::io::Write;
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{text}");
}

/// The panic report: how many of `checked` answers panicked and the first one, with where it
/// came from (`place`) and the state's JSON; nothing when none did.
pub(crate) fn report_panics(
    panicked: usize,
    checked: usize,
    first: Option<(&dyn fmt::Display, &dyn fmt::Display, &GameState)>,
) {
    let Some((place, error, state)) = first else {
        return;
    };
    tell(&format!(
        "warning: bet_request panicked on {panicked} of {checked} states; the SDK answers 0 \
         (check or fold) for a panic, so this is no wrong answer, but probably not what you \
         meant. The first:\n  {place}: {error}\n  game_state: {}",
        state.to_json()
    ));
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
/// [`check_answer`]: a wrong answer goes to `problems`, a panic (caught without printing) to
/// `panics`.
pub fn check_bets<P: Player + ?Sized>(player: &P, recorded: &[Recorded]) -> BetCheckReport {
    let mut report = BetCheckReport::default();
    for item in recorded {
        let Some(state) = item.bet_request() else {
            report.skipped += 1;
            continue;
        };
        report.checked += 1;
        if let Err(error) = check_answer(player, state) {
            let problem = BetProblem {
                source: item.source.clone(),
                answer: error.answer(),
                problem: error.to_string(),
            };
            match error {
                AnswerError::Panicked { .. } => report.panics.push(problem),
                AnswerError::NotMeaningful { .. } => report.problems.push(problem),
            }
        }
    }
    report
}

/// How many problems [`assert_legal_bets`] lists before it only counts the rest.
const SHOWN_PROBLEMS: usize = 10;

/// [`check_bets`], panicking with the problems (file and line each, the first ten and how many
/// more) if there is any, or if not a single state was a bet request (a test that checks
/// nothing must not pass). Panics of `bet_request` are reported on the terminal, not failed
/// (see the module docs).
#[track_caller]
pub fn assert_legal_bets<P: Player + ?Sized>(player: &P, recorded: &[Recorded]) -> BetCheckReport {
    let report = check_bets(player, recorded);
    if let Some(first) = report.panics.first() {
        let state = recorded
            .iter()
            .find(|item| item.source == first.source)
            .and_then(Recorded::bet_request);
        if let Some(state) = state {
            report_panics(
                report.panics.len(),
                report.checked,
                Some((&first.source, &first.problem, state)),
            );
        }
    }
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

/// The recorded states the environment variable `variable` names ([`load_env`]: one path or
/// several, separated like `PATH`), checked with [`assert_legal_bets`]; `None`, and nothing
/// checked, when it is unset. Says on the terminal how many bet requests it checked and where
/// they came from, so a run over your own logs never passes silently; fails when a path holds
/// no recorded state.
#[track_caller]
pub fn assert_legal_bets_from_env<P: Player + ?Sized>(
    player: &P,
    variable: &str,
) -> Option<BetCheckReport> {
    let recorded = load_env(variable)?;
    let report = assert_legal_bets(player, &recorded);
    let from = std::env::var(variable).unwrap_or_default();
    tell(&format!(
        "{variable}: checked {} bet requests ({} other recorded states skipped) from {from}",
        report.checked, report.skipped
    ));
    Some(report)
}

/// Asks `player` about each spot (a label saying what it is, and the state) and fails on the
/// first answer a dealer would read differently from what it says, naming the spot and giving
/// its `game_state`. Panics are reported on the terminal, not failed (see the module docs).
/// Returns how many spots were checked.
///
/// ```
/// use player::testing::{assert_meaningful_answers, heads_up};
/// use player::from_fn;
///
/// let spots = ["Ah Ad", "7c 2d"].map(|hand| (hand, heads_up().hole_cards(hand).build()));
/// let caller = from_fn(|state| state.call_amount());
/// assert_eq!(assert_meaningful_answers(&caller, spots), 2);
/// ```
#[track_caller]
pub fn assert_meaningful_answers<P, L>(
    player: &P,
    spots: impl IntoIterator<Item = (L, GameState)>,
) -> usize
where
    P: Player + ?Sized,
    L: fmt::Display,
{
    let mut checked = 0;
    let mut panicked = 0;
    let mut first_panic: Option<(String, AnswerError, GameState)> = None;
    for (label, state) in spots {
        checked += 1;
        match check_answer(player, &state) {
            Ok(_) => {}
            Err(error @ AnswerError::Panicked { .. }) => {
                panicked += 1;
                first_panic.get_or_insert((label.to_string(), error, state));
            }
            Err(error) => panic!("{label}: {error}\n  game_state: {}", state.to_json()),
        }
    }
    if let Some((label, error, state)) = &first_panic {
        report_panics(panicked, checked, Some((label, error, state)));
    }
    checked
}
