//! The event's free disk space: what keeps a full disk from costing a finished game.
//!
//! - **The margin** (`min_free_space`, default [`DEFAULT_MIN_FREE_SPACE`]): no new round starts
//!   while the file system holding the event's folder has less free space than this; the
//!   scheduler says why play paused once, and when it resumed
//!   ([`super::Event::play_paused`]), and retention deletes old games' full files first to
//!   make room. The margin is what the games of a round write while they are played (a
//!   six-player game's full logs are about 4 MB), several times over, so a round started
//!   above it ends with room to spare.
//! - **The reserve**: a file of [`RESERVE_BYTES`] (`event.reserve`) kept in the event's folder
//!   while there is room. When a game's record cannot be written because the disk is full
//!   (something else filled it, or the games of a round did), the reserve is deleted and the
//!   write tried again: the database gets the space the game's result and record need
//!   (a few KB each; the reserve holds hundreds). When that is not enough, game folders the
//!   records regenerate give way, whatever the budget and the margin say
//!   (`retention::for_records`). The reserve is made again as soon as the disk has room for
//!   it and the database's write-ahead log ([`START_BYTES`] free), and play waits for it
//!   below the margin.
//!
//! The free space is `statvfs`'s blocks available to unprivileged users, as `df` shows it.

use super::Event;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The default margin: no new game below 256 MB free.
pub const DEFAULT_MIN_FREE_SPACE: u64 = 256_000_000;

/// The reserve's size: the records of hundreds of games with the database's write-ahead log.
pub const RESERVE_BYTES: u64 = 4 * 1024 * 1024;

/// The reserve's file name in the event's folder.
pub const RESERVE_FILE: &str = "event.reserve";

/// Bytes free for the event on the file system holding `path`.
///
/// # Errors
/// `path` cannot be looked at.
pub fn free_bytes(path: &Path) -> io::Result<u64> {
    let stat = rustix::fs::statvfs(path).map_err(io::Error::from)?;
    Ok(stat.f_bavail.saturating_mul(stat.f_frsize))
}

/// The reserve of an event's folder (see the [module docs](self)).
#[derive(Debug)]
pub struct Reserve {
    path: PathBuf,
    /// Serialises making and deleting it.
    lock: Mutex<()>,
    /// Whether a full disk used it up since it was last made.
    spent: AtomicBool,
}

impl Reserve {
    /// The reserve of the folder `data`.
    pub fn new(data: &Path) -> Reserve {
        Reserve {
            path: data.join(RESERVE_FILE),
            lock: Mutex::new(()),
            spent: AtomicBool::new(false),
        }
    }

    /// Whether the reserve is there (whole).
    pub fn is_held(&self) -> bool {
        std::fs::metadata(&self.path).is_ok_and(|meta| meta.len() == RESERVE_BYTES)
    }

    /// Makes the reserve if it is missing: `RESERVE_BYTES` of zeros, written (not a sparse
    /// file: the blocks must really be taken) and synced. Returns whether it was made now.
    ///
    /// # Errors
    /// It cannot be written (a partial one is removed).
    pub fn make(&self) -> io::Result<bool> {
        let _guard = self
            .lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if self.is_held() {
            return Ok(false);
        }
        let written = (|| {
            let mut file = File::create(&self.path)?;
            let zeros = vec![0u8; 64 * 1024];
            let mut left = RESERVE_BYTES;
            while left > 0 {
                let chunk = usize::try_from(left.min(zeros.len() as u64)).unwrap_or(zeros.len());
                file.write_all(&zeros[..chunk])?;
                left -= chunk as u64;
            }
            file.sync_all()
        })();
        if let Err(error) = written {
            let _ = std::fs::remove_file(&self.path);
            return Err(error);
        }
        if self.spent.swap(false, Ordering::Relaxed) {
            tracing::info!("the event's reserve is made again: the disk has room for it");
        }
        Ok(true)
    }

    /// Deletes the reserve to give its space to the database; whether there was one.
    pub fn release(&self) -> bool {
        let _guard = self
            .lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let released = std::fs::remove_file(&self.path).is_ok();
        if released {
            self.spent.store(true, Ordering::Relaxed);
        }
        released
    }

    /// The reserve's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Whether a round may start: the disk holding the event has at least the free-space margin
/// (`min_free_space`) and the reserve is held (made again first if a full disk took it). Below
/// it, play pauses (said once, with why) and retention is woken to delete old games' full
/// files; once there is room, a pause ends (said once).
pub(super) fn room_to_play(event: &Event) -> bool {
    let data = &event.settings().data;
    let margin = event.settings().retention.min_free_space;
    let Ok(mut free) = free_bytes(data) else {
        // Not measurable: never hold the event on it.
        event.resume_play();
        return true;
    };
    if remake_reserve(event, free) {
        free = free_bytes(data).unwrap_or(free);
    }
    let reserve = event.reserve();
    let Some(margin) = margin else {
        event.resume_play();
        return true;
    };
    // A reserve a full disk used up is made again before play goes on.
    let needed = if reserve.is_held() {
        margin
    } else {
        margin + RESERVE_BYTES
    };
    if free >= needed {
        event.resume_play();
        return true;
    }
    let size = |bytes: u64| bytesize::ByteSize::b(bytes).display().si().to_string();
    event.pause_play(format!(
        "{} free on the disk of {}, under the {} margin (min_free_space{}): no new game until \
         there is room; old games' full files are deleted first (their records stay)",
        size(free),
        data.display(),
        size(needed),
        if needed > margin {
            ", and 4 MiB to make the event's reserve again"
        } else {
            ""
        }
    ));
    event.games_ended.notify_one();
    false
}

/// What an event needs free on its disk to start: its database's write-ahead log at its
/// limit and the reserve (play then waits for the margin, paused with its reason). The
/// reserve a full disk used up is made again as soon as this much is free.
pub const START_BYTES: u64 = super::store::WAL_LIMIT_BYTES + RESERVE_BYTES;

/// Makes the event's reserve again if a full disk used it up and `free` (bytes free now) has
/// room for it and the database's write-ahead log; whether it was made.
pub(super) fn remake_reserve(event: &Event, free: u64) -> bool {
    let reserve = event.reserve();
    if reserve.is_held() || free < START_BYTES {
        return false;
    }
    match reserve.make() {
        Ok(made) => made,
        Err(error) => {
            tracing::debug!(%error, "cannot make the event's reserve");
            false
        }
    }
}

/// Why an event in `data` cannot start on a full disk, and what to free (measured now): to
/// start, [`START_BYTES`]; for games to be played, the margin `min_free_space` and the
/// reserve. `None` when `error` is not a full disk's.
pub fn full_disk_at_start(
    data: &Path,
    min_free_space: Option<u64>,
    error: &super::EventError,
) -> Option<String> {
    let super::EventError::Store(store_error) = error else {
        return None;
    };
    // The folder itself may not exist yet: the disk that will hold it.
    let measured = data
        .ancestors()
        .find(|dir| dir.exists())
        .and_then(|dir| free_bytes(dir).ok());
    let full = store_error.is_disk_full() || measured.is_some_and(|free| free < START_BYTES);
    if !full {
        return None;
    }
    let size = |bytes: u64| bytesize::ByteSize::b(bytes).display().si().to_string();
    let free = measured.unwrap_or(0);
    let to_start = START_BYTES.saturating_sub(free);
    let start = if to_start > 0 {
        format!(
            "free at least {} on it to start the event (its database's write-ahead log and \
             the event's {} reserve: {} in all)",
            size(to_start),
            size(RESERVE_BYTES),
            size(START_BYTES)
        )
    } else {
        format!(
            "it has {} free, yet the database found it full (out of inodes? `df -i`): free \
             some on it to start the event",
            size(free)
        )
    };
    let play = match min_free_space {
        Some(margin) => format!(
            ", and {} for games to be played (min_free_space {} and the reserve; below it the \
             event serves its page with play paused)",
            size((margin + RESERVE_BYTES).saturating_sub(free)),
            size(margin)
        ),
        None => String::new(),
    };
    Some(format!(
        "the disk holding {} is full ({} free): {error}. To go on, {start}{play}, then start \
         again; meanwhile `dealer serve --out {}` shows the event's standings and games \
         read-only",
        data.display(),
        size(free),
        data.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_on_a_full_disk_says_what_to_free() {
        let dir = tempfile::tempdir().unwrap();
        let full = crate::event::EventError::Store(crate::event::store::StoreError::Database {
            path: dir.path().join("event.sqlite"),
            source: rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_FULL),
                None,
            ),
        });
        let message = full_disk_at_start(&dir.path().join("event"), Some(256_000_000), &full)
            .expect("a full disk's error");
        assert!(message.contains("is full"), "{message}");
        assert!(message.contains("min_free_space 256.0 MB"), "{message}");
        assert!(message.contains("dealer serve --out"), "{message}");
        // This disk has room, so the database's own words are what it says.
        assert!(
            message.contains("free some on it") || message.contains("free at least"),
            "{message}"
        );
        let other =
            crate::event::EventError::Store(crate::event::store::StoreError::Refused("no".into()));
        assert_eq!(full_disk_at_start(dir.path(), None, &other), None);
    }

    #[test]
    fn the_reserve_takes_real_blocks_and_gives_them_back() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let reserve = Reserve::new(dir.path());
        assert!(!reserve.is_held());
        assert!(reserve.make().unwrap());
        assert!(!reserve.make().unwrap(), "made once");
        let meta = std::fs::metadata(reserve.path()).unwrap();
        assert!(meta.blocks() * 512 >= RESERVE_BYTES, "not sparse");
        assert!(reserve.release());
        assert!(!reserve.release());
        assert!(free_bytes(dir.path()).unwrap() > 0);
    }
}
