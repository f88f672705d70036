//! Waiting for an event (a game in the database, a file of a size, a line in a log), never for
//! a number of seconds: a wait polls its condition until it holds, and gives up only after
//! [`DEADLINE`], long enough for a machine several times slower than a busy CI runner (the
//! tests' games take a few seconds when the machine is idle). A test that passes never waits
//! for the deadline; one that fails says what it waited for.

use std::time::{Duration, Instant};

/// How long a wait gives its condition before the test fails.
pub const DEADLINE: Duration = Duration::from_secs(300);

/// How often a condition is looked at again.
const POLL: Duration = Duration::from_millis(20);

/// Blocks until `done` holds; panics with `what` after [`DEADLINE`].
pub fn until(what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(
            started.elapsed() < DEADLINE,
            "{what}: not within {DEADLINE:?}"
        );
        std::thread::sleep(POLL);
    }
}

/// [`until`] in a task: sleeps on the runtime between looks.
pub async fn until_async(what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(
            started.elapsed() < DEADLINE,
            "{what}: not within {DEADLINE:?}"
        );
        tokio::time::sleep(POLL).await;
    }
}
