//! Runs the team's code (the [`Player`](crate::Player) methods) away from the I/O threads, with a
//! time budget and a bound on how many calls may be running at once.
//!
//! Why a pool of its own: a strategy that never returns keeps its thread forever, and Rust
//! cannot stop a thread from outside. So the calls run on dedicated threads (at most
//! `max_in_flight` of them), and a semaphore with `max_in_flight` permits is taken before a call
//! is queued and released when the call really returns. Consequences, which are the documented
//! behaviour:
//!
//! - a request is always answered within the budget: waiting for a permit counts against it;
//! - stuck calls hold their permits: after `max_in_flight` of them, every further call answers
//!   the fallback immediately ("busy"), and the server keeps answering `check`, `version` and
//!   errors normally; threads and memory stay bounded by `max_in_flight`;
//! - a call that finishes late releases its permit and its answer is dropped (and logged);
//! - when the server stops, the pool is shut down without waiting for stuck calls.
//!
//! Why not Tokio's blocking pool (used before): for a quick strategy the hand-off is most of the
//! cost of a `bet_request`, and here it is one direct wake-up of one parked thread (a futex)
//! and a `oneshot` back, without a condition variable whose waker and woken thread then meet
//! again on its mutex, and without a task allocation and join handle per call. Measured over
//! HTTP (`benches/README.md`), the server's CPU time per `bet_request` went down by about a
//! tenth. Idle threads are woken oldest first: waking the thread that went idle last was as
//! cheap but doubled the 99th-percentile latency under load (it tends to be queued behind the
//! thread that wakes it, on the same core).
//!
//! An I/O thread that serves no other connection ([`Caller::Alone`]), calling while no other
//! call is in flight and the last one was quick, waits for the answer on the spot, yielding
//! its core, for at most [`QUICK_WAIT`], before it waits in its event loop as usual: at one
//! connection (a dealer's case) this saves the I/O thread a sleep in `epoll_wait` and the
//! strategy thread the `eventfd` write that wakes it (benches/README.md, "One connection").
//! A failure seen on the spot (a panic, a shutdown) is reported exactly as it is later, and a
//! call still running after the wait keeps the rest of its budget.

use std::any::Any;
use std::collections::VecDeque;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::Thread;
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, Semaphore, TryAcquireError};

/// How long an idle strategy thread waits for work before it exits.
const THREAD_KEEP_ALIVE: Duration = Duration::from_secs(60);

/// How long the I/O thread waits on the spot, yielding its core, for the answer of a call
/// expected to be quick, before it goes back to its event loop to wait there.
///
/// Why: a quick strategy answers in a few microseconds, but an I/O thread that goes back to
/// its event loop falls asleep in `epoll_wait` and must then be woken by the strategy thread
/// (an `eventfd` write, a context switch): at one connection, the dealer's case, that round
/// trip was a large share of a `bet_request`'s latency. Yielding, rather than spinning, lets
/// the strategy thread run at once when the scheduler put it on this core. The other
/// connections of this I/O thread wait at most this long, far inside any time budget.
const QUICK_WAIT: Duration = Duration::from_micros(50);

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
    /// No strategy thread could be started (the OS refused a new thread).
    NoThread(String),
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
            CallFailure::NoThread(error) => write!(f, "cannot start a strategy thread: {error}"),
        }
    }
}

/// Who waits for a call's answer, which decides where it may wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Caller {
    /// A thread with other work to do (other connections of the same I/O thread): it waits in
    /// its event loop, where that work goes on.
    Busy,
    /// An I/O thread serving no other connection: waiting on the spot for a quick answer
    /// (see [`QUICK_WAIT`]) holds up nobody.
    Alone,
}

/// The pool that runs player code. Shared by every worker of one server.
pub(crate) struct StrategyPool {
    pool: Arc<Pool>,
    permits: Arc<Semaphore>,
    max_in_flight: usize,
    budget: Duration,
    /// How long the last call that returned took, from submission to its end (nanoseconds).
    last_call_nanos: Arc<AtomicU64>,
}

/// The answer of a call as the strategy thread sent it, as the caller reports it.
fn settled<T>(output: std::thread::Result<T>) -> Result<T, CallFailure> {
    output.map_err(|payload| CallFailure::Panicked(panic_message(payload.as_ref())))
}

impl StrategyPool {
    /// A pool of at most `max_in_flight` threads (at least 1), calls limited to `budget`.
    /// Threads start when they are first needed.
    pub(crate) fn new(max_in_flight: usize, budget: Duration) -> std::io::Result<StrategyPool> {
        Ok(StrategyPool::with_keep_alive(
            max_in_flight,
            budget,
            THREAD_KEEP_ALIVE,
        ))
    }

    fn with_keep_alive(
        max_in_flight: usize,
        budget: Duration,
        keep_alive: Duration,
    ) -> StrategyPool {
        let max_in_flight = max_in_flight.max(1);
        StrategyPool {
            pool: Arc::new(Pool {
                state: Mutex::new(PoolState::default()),
                max_threads: max_in_flight,
                keep_alive,
            }),
            permits: Arc::new(Semaphore::new(max_in_flight)),
            max_in_flight,
            budget,
            last_call_nanos: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Strategy threads alive (busy or idle).
    #[cfg(test)]
    fn threads(&self) -> usize {
        self.pool.lock().threads
    }

    /// Waits (a few seconds at most) until every live thread is parked, idle.
    #[cfg(test)]
    fn wait_until_all_idle(&self) {
        let give_up = Instant::now() + Duration::from_secs(5);
        while Instant::now() < give_up {
            let state = self.pool.lock();
            if state.idle.len() == state.threads {
                return;
            }
            drop(state);
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Runs `job` on the pool; `what` names it in the log line of a late finish; `caller` says
    /// whether the calling I/O thread may wait for the answer on the spot.
    pub(crate) async fn run<T, F>(
        &self,
        what: &'static str,
        caller: Caller,
        job: F,
    ) -> Result<T, CallFailure>
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
        let last_call_nanos = Arc::clone(&self.last_call_nanos);
        let (answer, answered) = oneshot::channel();
        let task: Job = Box::new(move || {
            let output = catch_unwind(AssertUnwindSafe(job));
            let elapsed = started.elapsed();
            last_call_nanos.store(
                u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX),
                Ordering::Relaxed,
            );
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
            // The caller may have given up (budget, shutdown): nobody to tell then.
            let _ = answer.send(output);
        });
        self.pool.submit(task)?;
        let mut answered = answered;
        if caller == Caller::Alone && self.quick_answer_expected() {
            // See QUICK_WAIT: the answer usually comes before this thread would have gone to
            // sleep, so wait here (yielding the core) instead of going back to the event loop.
            let give_up = Instant::now() + QUICK_WAIT.min(self.budget);
            loop {
                match answered.try_recv() {
                    Ok(output) => return settled(output),
                    Err(oneshot::error::TryRecvError::Closed) => {
                        return Err(CallFailure::ShuttingDown)
                    }
                    Err(oneshot::error::TryRecvError::Empty) if Instant::now() < give_up => {
                        std::thread::yield_now();
                    }
                    Err(oneshot::error::TryRecvError::Empty) => break,
                }
            }
        }
        match tokio::time::timeout_at(deadline, answered).await {
            Ok(Ok(output)) => settled(output),
            // The job was dropped unrun: the pool shut down.
            Ok(Err(_dropped)) => Err(CallFailure::ShuttingDown),
            Err(_elapsed) => Err(CallFailure::TimedOut(self.budget)),
        }
    }

    /// Whether the call just submitted is likely to be answered within [`QUICK_WAIT`]: it is
    /// the only call in flight (no other caller waits on the strategy threads, so the answer
    /// is not queued behind another call) and the last call that returned took less than half
    /// of it.
    fn quick_answer_expected(&self) -> bool {
        let only_call = self.permits.available_permits() + 1 >= self.max_in_flight;
        let last = Duration::from_nanos(self.last_call_nanos.load(Ordering::Relaxed));
        only_call && last <= QUICK_WAIT / 2
    }
}

impl Drop for StrategyPool {
    fn drop(&mut self) {
        self.permits.close();
        // Never waits: a stuck strategy thread must not block a shutdown.
        self.pool.close();
    }
}

type Job = Box<dyn FnOnce() + Send + 'static>;

/// A parked thread, and whether it has been handed work (a wake-up that is not spurious).
struct Sleeper {
    thread: Thread,
    woken: AtomicBool,
}

#[derive(Default)]
struct PoolState {
    /// Jobs not yet taken by a thread.
    queue: VecDeque<Job>,
    /// Parked threads, the one that has waited longest first.
    idle: VecDeque<Arc<Sleeper>>,
    /// Threads alive: running a job, about to take one, or parked.
    threads: usize,
    closed: bool,
}

/// Dedicated threads, started when needed up to `max_threads`, that exit after `keep_alive`
/// without work.
struct Pool {
    state: Mutex<PoolState>,
    max_threads: usize,
    keep_alive: Duration,
}

impl Pool {
    fn lock(&self) -> MutexGuard<'_, PoolState> {
        // Jobs run outside the lock and catch their panics: a poisoned lock still holds
        // consistent state.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Queues `job` and makes sure a thread will take it: the thread idle the longest, a new
    /// thread, or (all threads busy, at most `max_threads` calls in flight) the next one to
    /// finish.
    fn submit(self: &Arc<Self>, job: Job) -> Result<(), CallFailure> {
        let mut state = self.lock();
        if state.closed {
            return Err(CallFailure::ShuttingDown);
        }
        state.queue.push_back(job);
        if let Some(sleeper) = state.idle.pop_front() {
            // Set under the lock: a thread leaving on its keep-alive timeout checks it there.
            sleeper.woken.store(true, Ordering::Release);
            drop(state);
            sleeper.thread.unpark();
            return Ok(());
        }
        if state.threads >= self.max_threads {
            return Ok(());
        }
        state.threads += 1;
        drop(state);
        let pool = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("player-strategy".into())
            .spawn(move || pool.work());
        match spawned {
            Ok(_detached) => Ok(()),
            Err(error) => {
                let mut state = self.lock();
                state.threads -= 1;
                if state.threads == 0 {
                    // No thread will ever take it: take it back (its caller is told now).
                    state.queue.pop_back();
                    return Err(CallFailure::NoThread(error.to_string()));
                }
                Ok(())
            }
        }
    }

    /// A strategy thread: takes jobs until the pool closes or no work came for a while.
    fn work(self: Arc<Self>) {
        let me = Arc::new(Sleeper {
            thread: std::thread::current(),
            woken: AtomicBool::new(false),
        });
        loop {
            let mut state = self.lock();
            let Some(job) = state.queue.pop_front() else {
                if state.closed || !self.park(state, &me) {
                    return;
                }
                continue;
            };
            drop(state);
            job();
        }
    }

    /// Parks the calling thread until it is handed work (`true`) or stays idle for the
    /// keep-alive time (`false`: it has left the pool and must exit).
    fn park(&self, mut state: MutexGuard<'_, PoolState>, me: &Arc<Sleeper>) -> bool {
        me.woken.store(false, Ordering::Relaxed);
        state.idle.push_back(Arc::clone(me));
        drop(state);
        let idle_since = Instant::now();
        loop {
            if me.woken.load(Ordering::Acquire) {
                return true;
            }
            let idle = idle_since.elapsed();
            if idle >= self.keep_alive {
                let mut state = self.lock();
                if me.woken.load(Ordering::Acquire) {
                    return true;
                }
                state.idle.retain(|sleeper| !Arc::ptr_eq(sleeper, me));
                state.threads -= 1;
                return false;
            }
            std::thread::park_timeout(self.keep_alive - idle);
        }
    }

    /// Stops taking work: idle threads exit now, busy ones after their job, queued jobs are
    /// dropped (their callers see the pool shutting down).
    fn close(&self) {
        let mut state = self.lock();
        state.closed = true;
        let queued = std::mem::take(&mut state.queue);
        let idle = std::mem::take(&mut state.idle);
        for sleeper in &idle {
            sleeper.woken.store(true, Ordering::Release);
        }
        drop(state);
        // Dropped outside the lock: a job's captures may do anything when dropped.
        drop(queued);
        for sleeper in idle {
            sleeper.thread.unpark();
        }
    }
}

/// The text of a panic payload (`panic!("...")` gives a `&str` or a `String`), as the service
/// logs it when a strategy call panics; the arena reports panics with the same words.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
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
        let patient = StrategyPool::new(4, Duration::from_secs(5)).unwrap();
        let runner = StrategyPool::new(4, Duration::from_millis(200)).unwrap();
        runtime().block_on(async {
            assert_eq!(patient.run("test", Caller::Busy, || 42).await, Ok(42));
            let panicked = patient
                .run("test", Caller::Busy, || -> u32 { panic!("boom {}", 7) })
                .await;
            assert_eq!(panicked, Err(CallFailure::Panicked("boom 7".into())));
            let started = Instant::now();
            let slow = runner
                .run("test", Caller::Busy, || {
                    std::thread::sleep(Duration::from_millis(600))
                })
                .await;
            assert_eq!(slow, Err(CallFailure::TimedOut(Duration::from_millis(200))));
            assert!(started.elapsed() < Duration::from_millis(500));
        });
    }

    /// Makes the next call wait on the spot first, as after a quick call (on a loaded machine
    /// a real call may take longer than QUICK_WAIT / 2, wake-up included).
    fn as_after_a_quick_call(runner: &StrategyPool) {
        runner.last_call_nanos.store(0, Ordering::Relaxed);
    }

    #[test]
    fn panics_and_overruns_are_caught_by_a_caller_waiting_on_the_spot() {
        // Generous for the panic: a first panic may spend ~100 ms on its backtrace.
        let patient = StrategyPool::new(4, Duration::from_secs(5)).unwrap();
        let runner = StrategyPool::new(4, Duration::from_millis(100)).unwrap();
        runtime().block_on(async {
            as_after_a_quick_call(&patient);
            assert!(patient.quick_answer_expected());
            assert_eq!(patient.run("test", Caller::Alone, || 5).await, Ok(5));
            as_after_a_quick_call(&patient);
            let panicked = patient
                .run("test", Caller::Alone, || -> u32 { panic!("late bug") })
                .await;
            assert_eq!(panicked, Err(CallFailure::Panicked("late bug".into())));
            as_after_a_quick_call(&runner);
            let started = Instant::now();
            let slow = runner
                .run("test", Caller::Alone, || {
                    std::thread::sleep(Duration::from_millis(400))
                })
                .await;
            assert_eq!(slow, Err(CallFailure::TimedOut(Duration::from_millis(100))));
            assert!(started.elapsed() < Duration::from_millis(350));
            // Once that slow call has returned, its time turns the wait off.
            runner.wait_until_all_idle();
            assert!(!runner.quick_answer_expected(), "a slow call disables it");
        });
    }

    #[test]
    fn the_quick_wait_is_only_for_a_lone_call() {
        let runner = StrategyPool::new(4, Duration::from_secs(5)).unwrap();
        as_after_a_quick_call(&runner);
        // A call asks once it holds its own permit.
        let own = runner.permits.clone().try_acquire_owned().unwrap();
        assert!(runner.quick_answer_expected());
        // Another call in flight: a new call does not wait on the spot (it could hold up the
        // other call's answer, due on this same I/O thread).
        let other = runner.permits.clone().try_acquire_owned().unwrap();
        assert!(!runner.quick_answer_expected());
        drop(other);
        assert!(runner.quick_answer_expected());
        drop(own);
    }

    #[test]
    fn stuck_calls_are_bounded_and_the_rest_answer_busy() {
        let runner = StrategyPool::new(2, Duration::from_millis(100)).unwrap();
        let release = Arc::new(std::sync::Barrier::new(3));
        let started_calls = Arc::new(AtomicUsize::new(0));
        runtime().block_on(async {
            for _ in 0..2 {
                let release = release.clone();
                let started_calls = started_calls.clone();
                let stuck = runner
                    .run("test", Caller::Busy, move || {
                        started_calls.fetch_add(1, Ordering::SeqCst);
                        release.wait();
                    })
                    .await;
                assert!(matches!(stuck, Err(CallFailure::TimedOut(_))));
            }
            // Both slots are held by stuck calls: the next call never starts.
            let started_calls_again = started_calls.clone();
            let busy = runner
                .run("test", Caller::Busy, move || {
                    started_calls_again.fetch_add(1, Ordering::SeqCst);
                })
                .await;
            assert_eq!(busy, Err(CallFailure::Busy(2)));
            assert_eq!(started_calls.load(Ordering::SeqCst), 2);
            // Unstick them: the slots come back.
            release.wait();
            tokio::time::sleep(Duration::from_millis(50)).await;
            assert_eq!(runner.run("test", Caller::Busy, || 1).await, Ok(1));
        });
    }

    #[test]
    fn threads_are_reused_and_leave_when_idle() {
        let runner =
            StrategyPool::with_keep_alive(8, Duration::from_secs(5), Duration::from_millis(100));
        runtime().block_on(async {
            for round in 0..50 {
                assert_eq!(
                    runner.run("test", Caller::Busy, move || round).await,
                    Ok(round)
                );
                // A call that comes while the last thread is still on its way back to the idle
                // list may start a second thread (harmless, bounded); waiting makes reuse the
                // only possible outcome.
                runner.wait_until_all_idle();
            }
            // An idle thread is reused: one call at a time never needs a second thread.
            assert_eq!(runner.threads(), 1);
            let calls = (0..4).map(|_| {
                runner.run("test", Caller::Busy, || {
                    std::thread::sleep(Duration::from_millis(30))
                })
            });
            let answers = futures_util::future::join_all(calls).await;
            assert!(answers.iter().all(Result::is_ok), "{answers:?}");
            assert!(runner.threads() >= 2 && runner.threads() <= 4);
            // Idle for the keep-alive time (100 ms), every thread leaves.
            let give_up = Instant::now() + Duration::from_secs(5);
            while runner.threads() > 0 && Instant::now() < give_up {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            assert_eq!(runner.threads(), 0);
            // The pool starts threads again after they all left.
            assert_eq!(runner.run("test", Caller::Busy, || 7).await, Ok(7));
        });
    }

    #[test]
    fn a_full_pool_queues_calls_for_the_next_free_thread() {
        let runner = StrategyPool::new(2, Duration::from_secs(5)).unwrap();
        runtime().block_on(async {
            let calls = (0..6).map(|index| {
                runner.run("test", Caller::Busy, move || {
                    std::thread::sleep(Duration::from_millis(10));
                    index
                })
            });
            let answers = futures_util::future::join_all(calls).await;
            assert_eq!(answers, (0..6).map(Ok).collect::<Vec<_>>());
            assert_eq!(runner.threads(), 2);
        });
    }

    #[test]
    fn dropping_the_runner_does_not_wait_for_stuck_calls() {
        let runner = StrategyPool::new(1, Duration::from_millis(20)).unwrap();
        let (_keep, never) = std::sync::mpsc::channel::<()>();
        runtime().block_on(async {
            let stuck = runner
                .run("test", Caller::Busy, move || {
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
