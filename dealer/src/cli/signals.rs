//! Ctrl-C and SIGTERM (`docker stop`): the first stops the run cleanly (the games in progress
//! finish their logs), a second quits at once.

use crate::progress::Screen;
use crate::runner::{stop_signal, StopSignal};

/// A stop signal raised by the first Ctrl-C or SIGTERM; the second exits with code 130.
/// Needs a running Tokio runtime.
pub fn stop_on_ctrl_c(screen: &Screen) -> StopSignal {
    stop_on_signal(
        screen,
        "stopping: finishing the logs of the games in progress",
    )
}

/// As [`stop_on_ctrl_c`], saying `stopping` (and how to quit at once) on the first signal.
pub fn stop_on_signal(screen: &Screen, stopping: &'static str) -> StopSignal {
    let (handle, signal) = stop_signal();
    let screen = screen.clone();
    // Listened to from now on, not from the task's first turn: a SIGTERM sent as soon as the
    // caller says it is ready (a busy machine may run the task much later) stops it cleanly
    // instead of killing it.
    let mut interrupts = Interrupts::listen();
    tokio::spawn(async move {
        if interrupts.next().await {
            screen.println(&format!("{stopping} (Ctrl-C again to quit now)"));
            handle.stop();
            if interrupts.next().await {
                eprintln!("error: interrupted");
                std::process::exit(130);
            }
        }
    });
    signal
}

/// Ctrl-C (SIGINT) and, on Unix, SIGTERM, listened to from [`Interrupts::listen`] on.
struct Interrupts {
    #[cfg(unix)]
    unix: Option<(tokio::signal::unix::Signal, tokio::signal::unix::Signal)>,
}

impl Interrupts {
    fn listen() -> Interrupts {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let terminate = signal(SignalKind::terminate()).ok();
            let interrupt = signal(SignalKind::interrupt()).ok();
            Interrupts {
                unix: terminate.zip(interrupt),
            }
        }
        #[cfg(not(unix))]
        Interrupts {}
    }

    /// Waits for the next one; `false` if no signal can be listened to.
    async fn next(&mut self) -> bool {
        #[cfg(unix)]
        if let Some((terminate, interrupt)) = &mut self.unix {
            return tokio::select! {
                received = terminate.recv() => received.is_some(),
                received = interrupt.recv() => received.is_some(),
            };
        }
        tokio::signal::ctrl_c().await.is_ok()
    }
}
