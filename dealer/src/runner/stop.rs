//! Stopping games from outside (Ctrl-C): a cheap flag the runner checks between steps, plus a
//! wake-up for requests in flight.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::Notify;

#[derive(Debug, Default)]
struct Flag {
    stopped: AtomicBool,
    notify: Notify,
    /// A child flag is also stopped when its parent is.
    parent: Option<Arc<Flag>>,
}

impl Flag {
    fn is_set(&self) -> bool {
        self.stopped.load(Ordering::SeqCst) || self.parent.as_ref().is_some_and(|p| p.is_set())
    }

    fn set(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    async fn wait(&self) {
        loop {
            // Registered before the check, so a stop between the two is not missed.
            let notified = self.notify.notified();
            if self.is_set() {
                return;
            }
            match &self.parent {
                Some(parent) => {
                    tokio::select! {
                        () = notified => {}
                        () = Box::pin(parent.wait()) => return,
                    }
                }
                None => notified.await,
            }
        }
    }
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
        self.0.set();
    }

    /// Whether [`StopHandle::stop`] was called (on this handle or a parent's).
    pub fn is_stopped(&self) -> bool {
        self.0.is_set()
    }
}

impl StopSignal {
    /// A signal nobody can trigger (for a game that runs to its end).
    pub fn never() -> StopSignal {
        StopSignal(Arc::new(Flag::default()))
    }

    /// Whether the game must stop.
    pub fn is_stopped(&self) -> bool {
        self.0.is_set()
    }

    /// Completes once the game must stop (at once if it already must).
    pub async fn stopped(&self) {
        self.0.wait().await;
    }

    /// A new pair whose signal is stopped by its own handle or by this signal's (a run stops
    /// its games when one fails, or when the user stops the run).
    pub fn child(&self) -> (StopHandle, StopSignal) {
        let flag = Arc::new(Flag {
            parent: Some(Arc::clone(&self.0)),
            ..Flag::default()
        });
        (StopHandle(Arc::clone(&flag)), StopSignal(flag))
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
    async fn a_child_stops_with_its_parent_or_alone() {
        let (parent_handle, parent) = stop_signal();
        let (child_handle, child) = parent.child();
        let (_, other_child) = parent.child();
        child_handle.stop();
        assert!(child.is_stopped());
        assert!(!parent.is_stopped() && !other_child.is_stopped());
        let waiter = tokio::spawn(async move { other_child.stopped().await });
        tokio::time::sleep(Duration::from_millis(20)).await;
        parent_handle.stop();
        tokio::time::timeout(Duration::from_secs(5), waiter)
            .await
            .expect("woken by the parent")
            .expect("no panic");
    }

    #[tokio::test]
    async fn never_never_stops() {
        let signal = StopSignal::never();
        assert!(!signal.is_stopped());
        let waited = tokio::time::timeout(Duration::from_millis(30), signal.stopped()).await;
        assert!(waited.is_err());
    }
}
