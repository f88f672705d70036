//! An event opened from a config file's text and a data folder, as `dealer serve --data` does.

use dealer::event::settings::{resolve_event, EventFile, EventFlags, EventSettings};
use dealer::event::Event;
use std::path::Path;
use std::sync::Arc;

/// The settings of an event in `data` with the config `file` and the other `flags` given.
pub fn settings(data: &Path, file: &str, flags: EventFlags) -> EventSettings {
    let file: EventFile = toml::from_str(file).unwrap();
    resolve_event(
        EventFlags {
            data: Some(data.to_path_buf()),
            ..flags
        },
        file,
    )
    .unwrap()
}

/// The event in `data` with the config `file` and no other flags.
pub fn open(data: &Path, file: &str) -> Arc<Event> {
    Event::open(settings(data, file, EventFlags::default())).unwrap()
}

/// Plays rounds of `event` until `games` have finished in all, then stops them and waits for
/// the rounds to end.
pub async fn play_games(event: &Arc<Event>, games: usize) {
    let (handle, stop) = dealer::runner::stop_signal();
    let rounds = tokio::spawn(dealer::event::scheduler::run_rounds(
        Arc::clone(event),
        stop,
    ));
    crate::support::wait::until_async(&format!("{games} games finished"), || {
        event.status().games_finished >= games
    })
    .await;
    handle.stop();
    rounds.await.unwrap();
}
