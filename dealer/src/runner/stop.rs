//! Stopping games from outside (Ctrl-C): a cheap flag the runner checks between steps, plus a
//! wake-up for requests in flight.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::Notify;

#[derive(Debug, Default)]
struct Flag {
    stopped: AtomicBool,
    notify: Notify,
}

/// Asks every game holding the matching [`StopSignal`] to stop. Clone it freely.
#[derive(Debug, Clone)]
pub struct StopHandle(Arc<Flag>);

/// What a running game watches to know it must stop. Clone it freely.
#[derive(Debug, Clone)]
pub struct StopSignal(Arc<Flag>);

/// A connected pair: [`StopHandle::stop`] makes every clone of the signal stopped.
///
/// ```
/// let (handle, signal) = dealer::runner::stop_signal();
/// assert!(!signal.is_stopped());
/// handle.stop();
/// assert!(signal.is_stopped());
/// ```
pub fn stop_signal() -> (StopHandle, StopSignal) {
    let flag = Arc::new(Flag::default());
    (StopHandle(Arc::clone(&flag)), StopSignal(flag))
}

impl StopHandle {
    /// Stops every game watching this handle's signal. Idempotent.
    pub fn stop(&self) {
        self.0.stopped.store(true, Ordering::SeqCst);
        self.0.notify.notify_waiters();
    }

    /// Whether [`StopHandle::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.0.stopped.load(Ordering::SeqCst)
    }
}

impl StopSignal {
    /// A signal nobody can trigger (for a game that runs to its end).
    pub fn never() -> StopSignal {
        StopSignal(Arc::new(Flag::default()))
    }

    /// Whether the game must stop.
    pub fn is_stopped(&self) -> bool {
        self.0.stopped.load(Ordering::Relaxed)
    }

    /// Completes once the game must stop (at once if it already must).
    pub async fn stopped(&self) {
        loop {
            // Registered before the check, so a stop between the two is not missed.
            let notified = self.0.notify.notified();
            if self.0.stopped.load(Ordering::SeqCst) {
                return;
            }
            notified.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_stop_wakes_every_waiter_and_later_ones_return_at_once() {
        let (handle, signal) = stop_signal();
        let waiters: Vec<_> = (0..3)
            .map(|_| {
                let signal = signal.clone();
                tokio::spawn(async move { signal.stopped().await })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(20)).await;
        handle.stop();
        for waiter in waiters {
            tokio::time::timeout(Duration::from_secs(5), waiter)
                .await
                .expect("woken")
                .expect("no panic");
        }
        tokio::time::timeout(Duration::from_secs(5), signal.stopped())
            .await
            .expect("already stopped");
        assert!(handle.is_stopped());
    }

    #[tokio::test]
    async fn never_never_stops() {
        let signal = StopSignal::never();
        assert!(!signal.is_stopped());
        let waited = tokio::time::timeout(Duration::from_millis(30), signal.stopped()).await;
        assert!(waited.is_err());
    }
}
