//! What stops the event from recording or starting games, as the page shows it: a write
//! error (a full disk), and a pause of play while the free space is below the margin.

use super::store::StoreError;
use super::{now_ms, Event};
use serde::Serialize;
use std::sync::PoisonError;

/// Why games cannot be recorded or started, as the page shows it, and whether the disk was
/// full (at a stop that lost no game, a full disk's error is no failure: `dealer serve`
/// exits 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct StorageError {
    pub(super) message: String,
    pub(super) disk_full: bool,
}

/// Why no new game starts now (the free space is below the margin), shown on the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayPause {
    /// Why, as one sentence.
    pub reason: String,
    /// Since when, ms since the epoch.
    pub since: i64,
}

/// A pause that ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayResumed {
    /// Why play had paused.
    pub reason: String,
    /// When it paused, ms since the epoch.
    pub paused_at: i64,
    /// When it resumed, ms since the epoch.
    pub resumed_at: i64,
}

#[derive(Debug, Default)]
pub(super) struct PlayState {
    pub(super) paused: Option<PlayPause>,
    pub(super) last_resumed: Option<PlayResumed>,
}

impl Event {
    /// Why games cannot be recorded, if they cannot.
    pub fn storage_error(&self) -> Option<String> {
        self.storage_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .map(|error| error.message.clone())
    }

    /// The write error still unresolved, unless it is a full disk's: at a stop that lost no
    /// game (every waiting record written, [`super::scheduler::record_unrecorded`]), a disk still
    /// full only kept new games from starting.
    pub fn unresolved_write_error(&self) -> Option<String> {
        self.storage_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .filter(|error| !error.disk_full)
            .map(|error| error.message.clone())
    }

    /// Records why games cannot be recorded (shown on the page and in `/api/event`); `None`
    /// clears it. Logged once per message, and once when it clears, not at every retry.
    pub fn set_storage_error(&self, error: Option<String>) {
        self.set_storage_error_of(error, false);
    }

    /// [`Event::set_storage_error`] for a write that failed for want of space (`disk_full`).
    pub(crate) fn set_storage_error_of(&self, error: Option<String>, disk_full: bool) {
        let mut current = self
            .storage_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match (&error, current.as_ref()) {
            (Some(message), Some(old)) if *message == old.message => {}
            (Some(message), _) => tracing::error!("{message}"),
            (None, Some(_)) => tracing::info!("the event's database takes writes again"),
            (None, None) => {}
        }
        *current = error.map(|message| StorageError { message, disk_full });
    }

    /// A write that is not a game's (a player's health, a status) failed: shown and logged
    /// only when nothing more telling is already (six players' health checks failing every
    /// `recheck_ms` are one line, and never hide why a game waits to be recorded).
    pub fn report_write_failure(&self, what: &str, error: &StoreError) {
        let mut current = self
            .storage_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if current.is_some() {
            tracing::debug!(%error, "{what}");
            return;
        }
        let message = format!("{what}: {error}");
        tracing::error!("{message}");
        *current = Some(StorageError {
            message,
            disk_full: error.is_disk_full(),
        });
    }

    /// Whether play is paused for want of free space, and why.
    pub fn play_paused(&self) -> Option<PlayPause> {
        self.play_state().paused.clone()
    }

    pub(super) fn play_state(&self) -> std::sync::MutexGuard<'_, PlayState> {
        self.play.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Pauses play (no new round) with `reason`; said in the log once, when it starts.
    pub fn pause_play(&self, reason: String) {
        let mut play = self.play_state();
        match &mut play.paused {
            Some(pause) => pause.reason = reason,
            None => {
                tracing::warn!("play paused: {reason}");
                play.paused = Some(PlayPause {
                    reason,
                    since: now_ms(),
                });
            }
        }
    }

    /// Ends a pause, saying so in the log once.
    pub fn resume_play(&self) {
        let mut play = self.play_state();
        if let Some(pause) = play.paused.take() {
            let resumed_at = now_ms();
            let seconds = (resumed_at - pause.since).max(0) / 1000;
            tracing::info!(
                paused_s = seconds,
                "play resumes: there is room again (it had paused: {})",
                pause.reason
            );
            play.last_resumed = Some(PlayResumed {
                reason: pause.reason,
                paused_at: pause.since,
                resumed_at,
            });
        }
    }
}
