//! The cases both evaluator benches time in rounds (`eval_speed.rs` against `rs_poker`,
//! `hhe_compare` against holdem-hand-evaluator): one run of a case timed by the thread's on-CPU
//! time, the spread of its rounds, and ours against the other side round by round, written
//! once so that the two benches summarise their rounds alike. Each bench keeps its own order of
//! the cases in a round and its own report.

use crate::cpu_time::{load_average, thread_cpu_seconds};
use std::hint::black_box;

/// One timed loop and the on-CPU seconds of each of its runs.
pub struct Case {
    pub name: &'static str,
    /// What one run counts (hands, or trials), for the rate.
    pub items: f64,
    /// The unit of the rate column.
    pub unit: &'static str,
    run: Box<dyn FnMut() -> u64>,
    seconds: Vec<f64>,
}

impl Case {
    /// A case that counts `items` (in `unit`) a run of `run`, not run yet.
    pub fn new(
        name: &'static str,
        items: f64,
        unit: &'static str,
        run: impl FnMut() -> u64 + 'static,
    ) -> Case {
        Case {
            name,
            items,
            unit,
            run: Box::new(run),
            seconds: Vec::new(),
        }
    }

    /// Runs the case once and records its on-CPU time.
    pub fn time_once(&mut self) {
        let start = thread_cpu_seconds();
        black_box((self.run)());
        self.seconds.push(thread_cpu_seconds() - start);
    }

    /// Its fastest, median and slowest run, in seconds.
    pub fn spread(&self) -> [f64; 3] {
        spread(&mut self.seconds.clone())
    }

    /// Its rate for a run of `seconds`, in millions of items a second.
    pub fn rate(&self, seconds: f64) -> f64 {
        self.items / seconds / 1e6
    }
}

/// The report's head: how many rounds, of what time, and how busy the machine was.
pub fn print_rounds(rounds: usize) {
    println!(
        "{rounds} rounds, on-CPU time of the thread; min / median / max; load average {}",
        load_average()
    );
}

/// A line a case: its fastest, median and slowest run in milliseconds (with `decimals`), then
/// its rate at each (slowest first), names padded to `width`.
pub fn print_cases(cases: &[Case], width: usize, decimals: usize) {
    for case in cases {
        let [fast, median, slow] = case.spread();
        let ms = |seconds: f64| format!("{:>9.decimals$}", seconds * 1e3);
        println!(
            "{:<width$} {} / {} / {} ms   {:>7.1} / {:>7.1} / {:>7.1} {}",
            case.name,
            ms(fast),
            ms(median),
            ms(slow),
            case.rate(slow),
            case.rate(median),
            case.rate(fast),
            case.unit,
        );
    }
}

/// The other side's time over ours, round by round (both ran seconds apart, so a ratio keeps
/// what the machine's load did to both): lowest, median and highest; `None` when either case
/// was filtered out.
pub fn speed_ratios(cases: &[Case], ours: &str, theirs: &str) -> Option<[f64; 3]> {
    let seconds = |name: &str| {
        cases
            .iter()
            .find(|case| case.name == name)
            .map(|case| &case.seconds)
    };
    let (our_seconds, their_seconds) = (seconds(ours)?, seconds(theirs)?);
    let mut ratios: Vec<f64> = their_seconds
        .iter()
        .zip(our_seconds)
        .map(|(theirs, ours)| theirs / ours)
        .collect();
    Some(spread(&mut ratios))
}

/// min / median / max of a list (sorted in place).
fn spread(values: &mut [f64]) -> [f64; 3] {
    values.sort_by(f64::total_cmp);
    [
        values[0],
        values[values.len() / 2],
        values[values.len() - 1],
    ]
}
