//! Runs the team's code (the [`Player`](crate::Player) methods) away from the I/O threads, with a
//! time budget and a bound on how many calls may be running at once.
//!
//! Why a pool of its own: a strategy that never returns keeps its thread forever, and Rust
//! cannot stop a thread from outside. So the calls run on a dedicated blocking pool (a Tokio
//! runtime used only for `spawn_blocking`) with at most `max_in_flight` threads, and a semaphore
//! with `max_in_flight` permits is taken before a call is queued and released when the call
//! really returns. Consequences, which are the documented behaviour:
//!
//! - a request is always answered within the budget: waiting for a permit counts against it;
//! - stuck calls hold their permits: after `max_in_flight` of them, every further call answers
//!   the fallback immediately ("busy"), and the server keeps answering `check`, `version` and
//!   errors normally; threads and memory stay bounded by `max_in_flight`;
//! - a call that finishes late releases its permit and its answer is dropped (and logged);
//! - when the server stops, the pool is shut down without waiting for stuck calls.

use std::any::Any;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::runtime::{Handle, Runtime};
use tokio::sync::{Semaphore, TryAcquireError};

/// Why a call did not produce an answer in time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CallFailure {
    /// The code panicked; the panic message.
    Panicked(String),
    /// The code was still running when the budget ran out.
    TimedOut(Duration),
    /// Every slot was taken (by stuck or slow calls) for the whole budget.
    Busy(usize),
    /// The pool is shutting down.
    ShuttingDown,
}

impl fmt::Display for CallFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallFailure::Panicked(message) => write!(f, "panicked: {message}"),
            CallFailure::TimedOut(budget) => {
                write!(
                    f,
                    "did not return within the {} ms budget",
                    budget.as_millis()
                )
            }
            CallFailure::Busy(slots) => write!(
                f,
                "all {slots} strategy slots stayed busy for the whole budget (stuck calls?)"
            ),
            CallFailure::ShuttingDown => f.write_str("the server is shutting down"),
        }
    }
}

/// The pool that runs player code. Shared by every worker of one server.
pub(crate) struct StrategyRunner {
    /// Kept only to shut it down without waiting for stuck threads.
    runtime: Mutex<Option<Runtime>>,
    handle: Handle,
    permits: Arc<Semaphore>,
    max_in_flight: usize,
    budget: Duration,
}

impl StrategyRunner {
    /// A pool of at most `max_in_flight` threads (at least 1), calls limited to `budget`.
    pub(crate) fn new(max_in_flight: usize, budget: Duration) -> std::io::Result<StrategyRunner> {
        let max_in_flight = max_in_flight.max(1);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .max_blocking_threads(max_in_flight)
            .thread_name("player-strategy")
            .thread_keep_alive(Duration::from_secs(60))
            .build()?;
        Ok(StrategyRunner {
            handle: runtime.handle().clone(),
            runtime: Mutex::new(Some(runtime)),
            permits: Arc::new(Semaphore::new(max_in_flight)),
            max_in_flight,
            budget,
        })
    }

    /// Runs `job` on the pool; `what` names it in the log line of a late finish.
    pub(crate) async fn run<T, F>(&self, what: &'static str, job: F) -> Result<T, CallFailure>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let started = Instant::now();
        let deadline = tokio::time::Instant::from_std(started + self.budget);
        // The common case takes a free slot at once, without arming a timer.
        let permit = match self.permits.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(TryAcquireError::Closed) => return Err(CallFailure::ShuttingDown),
            Err(TryAcquireError::NoPermits) => {
                let waiting = self.permits.clone().acquire_owned();
                match tokio::time::timeout_at(deadline, waiting).await {
                    Ok(Ok(permit)) => permit,
                    Ok(Err(_closed)) => return Err(CallFailure::ShuttingDown),
                    Err(_elapsed) => return Err(CallFailure::Busy(self.max_in_flight)),
                }
            }
        };
        let budget = self.budget;
        let task = self.handle.spawn_blocking(move || {
            let output = job();
            let elapsed = started.elapsed();
            if elapsed > budget {
                tracing::warn!(
                    call = what,
                    elapsed_ms = elapsed.as_millis() as u64,
                    budget_ms = budget.as_millis() as u64,
                    "a late call finally returned; its result was discarded"
                );
            }
            // The slot frees only now that the thread is really free again.
            drop(permit);
            output
        });
        match tokio::time::timeout_at(deadline, task).await {
            Ok(Ok(output)) => Ok(output),
            Ok(Err(error)) => match error.try_into_panic() {
                Ok(payload) => Err(CallFailure::Panicked(panic_message(payload.as_ref()))),
                Err(_cancelled) => Err(CallFailure::ShuttingDown),
            },
            Err(_elapsed) => Err(CallFailure::TimedOut(self.budget)),
        }
    }
}

impl Drop for StrategyRunner {
    fn drop(&mut self) {
        self.permits.close();
        let runtime = match self.runtime.lock() {
            Ok(mut guard) => guard.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        if let Some(runtime) = runtime {
            // Never wait: a stuck strategy thread must not block a shutdown.
            runtime.shutdown_background();
        }
    }
}

/// The text of a panic payload (`panic!("...")` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic with a non-text payload".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn answers_panics_and_overruns() {
        // A generous budget for the panic: with RUST_BACKTRACE=1 the first panic of a process
        // spends ~100 ms resolving a backtrace in a debug build.
        let patient = StrategyRunner::new(4, Duration::from_secs(5)).unwrap();
        let runner = StrategyRunner::new(4, Duration::from_millis(200)).unwrap();
        runtime().block_on(async {
            assert_eq!(patient.run("test", || 42).await, Ok(42));
            let panicked = patient
                .run("test", || -> u32 { panic!("boom {}", 7) })
                .await;
            assert_eq!(panicked, Err(CallFailure::Panicked("boom 7".into())));
            let started = Instant::now();
            let slow = runner
                .run("test", || std::thread::sleep(Duration::from_millis(600)))
                .await;
            assert_eq!(slow, Err(CallFailure::TimedOut(Duration::from_millis(200))));
            assert!(started.elapsed() < Duration::from_millis(500));
        });
    }

    #[test]
    fn stuck_calls_are_bounded_and_the_rest_answer_busy() {
        let runner = StrategyRunner::new(2, Duration::from_millis(100)).unwrap();
        let release = Arc::new(std::sync::Barrier::new(3));
        let started_calls = Arc::new(AtomicUsize::new(0));
        runtime().block_on(async {
            for _ in 0..2 {
                let release = release.clone();
                let started_calls = started_calls.clone();
                let stuck = runner
                    .run("test", move || {
                        started_calls.fetch_add(1, Ordering::SeqCst);
                        release.wait();
                    })
                    .await;
                assert!(matches!(stuck, Err(CallFailure::TimedOut(_))));
            }
            // Both slots are held by stuck calls: the next call never starts.
            let started_calls_again = started_calls.clone();
            let busy = runner
                .run("test", move || {
                    started_calls_again.fetch_add(1, Ordering::SeqCst);
                })
                .await;
            assert_eq!(busy, Err(CallFailure::Busy(2)));
            assert_eq!(started_calls.load(Ordering::SeqCst), 2);
            // Unstick them: the slots come back.
            release.wait();
            tokio::time::sleep(Duration::from_millis(50)).await;
            assert_eq!(runner.run("test", || 1).await, Ok(1));
        });
    }

    #[test]
    fn dropping_the_runner_does_not_wait_for_stuck_calls() {
        let runner = StrategyRunner::new(1, Duration::from_millis(20)).unwrap();
        let (_keep, never) = std::sync::mpsc::channel::<()>();
        runtime().block_on(async {
            let stuck = runner
                .run("test", move || {
                    let _ = never.recv();
                })
                .await;
            assert!(matches!(stuck, Err(CallFailure::TimedOut(_))));
        });
        let started = Instant::now();
        drop(runner);
        assert!(started.elapsed() < Duration::from_secs(1));
    }
}
