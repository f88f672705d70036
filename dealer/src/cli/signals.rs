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
    tokio::spawn(async move {
        if interrupted().await {
            screen.println(&format!("{stopping} (Ctrl-C again to quit now)"));
            handle.stop();
            if interrupted().await {
                eprintln!("error: interrupted");
                std::process::exit(130);
            }
        }
    });
    signal
}

/// Waits for Ctrl-C (SIGINT) or, on Unix, SIGTERM. `false` if no signal can be listened to.
async fn interrupted() -> bool {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut terminate) = signal(SignalKind::terminate()) {
            return tokio::select! {
                _ = terminate.recv() => true,
                result = tokio::signal::ctrl_c() => result.is_ok(),
            };
        }
    }
    tokio::signal::ctrl_c().await.is_ok()
}
