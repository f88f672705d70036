//! The record first, the cache second (issue 40): when a game's record cannot be written for
//! want of space, even with the event's reserve given to it ([`crate::event::space`]), game
//! folders give way, whatever the disk budget and the free-space margin say: a recorded
//! game's folder is a cache its record regenerates ([`crate::event::archive`]). One folder at
//! a time, the write tried again after each, in this order:
//!
//! 1. files a full disk cut (`incomplete`): a broken cache already;
//! 2. the folders of the other recorded games, the largest first (so the fewest games lose
//!    their players' logs, which no record keeps), the least recently used first among
//!    equals;
//! 3. last, the folder of the game being recorded, once its game no longer writes to it: its
//!    record is in memory and written next, and a game still unrecorded when the server
//!    stops is lost with its folder or without it.
//!
//! Never a game in play, a game whose record was found not to reproduce its files, a game
//! without a record (its files are all there is of it), nor a folder on another file system
//! than the database (deleting it would not give the database room). The folders go without
//! the replay check retention makes first ([`super::caches`]): that check writes a replay to
//! a temporary folder, which a full disk may not have room for, and the finished game
//! waiting in memory is the one thing a stop or a `kill -9` would lose. Once the record is
//! written, each deleted game is recorded pruned (opened from its record from then on).

use super::caches::is_unfaithful;
use super::disk_usage;
use crate::event::space::free_bytes;
use crate::event::store::{GameFiles, RetentionCandidate, GAMES_DIR};
use crate::event::Event;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Free space at which a write that fails is taken to fail for another reason than want of
/// space (an I/O error, which a full disk gives too): more than a record and the database's
/// write-ahead log at its limit need, so no more folders are deleted for it.
const ROOM_FOR_A_RECORD: u64 = 2 * crate::event::store::WAL_LIMIT_BYTES;

/// A game folder that may give way.
#[derive(Debug)]
struct Folder {
    number: u32,
    path: PathBuf,
}

/// The folders that give way for one record, listed when first needed (see the
/// [module docs](self)).
#[derive(Debug)]
pub(crate) struct CacheForRecords<'a> {
    event: &'a Event,
    /// The game being recorded, whose own folder goes last.
    own: Option<u32>,
    /// What is left to delete, the next last.
    left: Option<Vec<Folder>>,
    deleted: Vec<u32>,
}

impl<'a> CacheForRecords<'a> {
    /// The cache that may give way for a record of game `own` (`None`: a write that is not a
    /// finished game's record, such as an abandoned game's).
    pub(crate) fn new(event: &'a Event, own: Option<u32>) -> CacheForRecords<'a> {
        CacheForRecords {
            event,
            own,
            left: None,
            deleted: Vec::new(),
        }
    }

    /// Deletes the next folder; its game, or `None` when nothing is left to delete (or the
    /// disk has room, so the write fails for another reason).
    pub(crate) fn give_way(&mut self) -> Option<u32> {
        let data = &self.event.settings().data;
        if free_bytes(data).is_ok_and(|free| free >= ROOM_FOR_A_RECORD) {
            return None;
        }
        if self.left.is_none() {
            self.left = Some(self.list());
        }
        while let Some(folder) = self.left.as_mut().and_then(Vec::pop) {
            if self.event.is_playing(folder.number) {
                // The game being recorded, still closing its files.
                continue;
            }
            match std::fs::remove_dir_all(&folder.path) {
                Ok(()) => {
                    self.deleted.push(folder.number);
                    return Some(folder.number);
                }
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => tracing::warn!(
                    game = folder.number,
                    %error,
                    "cannot delete the game's folder to make room for a record"
                ),
            }
        }
        None
    }

    /// The games whose folders were deleted, in that order.
    pub(crate) fn deleted(&self) -> &[u32] {
        &self.deleted
    }

    /// Records the deleted games pruned, all of them when the record was written
    /// (`recorded`), else those recorded before (the game being recorded is not yet).
    /// A game the database cannot take now is handed to retention, which finds its folder
    /// gone and records it so.
    pub(crate) fn note_pruned(&self, recorded: bool) {
        let store = self.event.store();
        for &number in &self.deleted {
            if Some(number) == self.own && !recorded {
                continue;
            }
            if let Err(error) = store.set_game_files(number, GameFiles::Pruned, None) {
                tracing::debug!(game = number, %error, "cannot record the game pruned yet");
                self.event.files_cut(number);
            }
        }
    }

    /// Every folder that may give way, the first to go last.
    fn list(&self) -> Vec<Folder> {
        let event = self.event;
        let games = event.settings().data.join(GAMES_DIR);
        let disk = device(event.store().path());
        let on_the_disk = |path: &Path| disk.is_some() && device(path) == disk;
        let own = self
            .own
            .map(|own| Folder {
                number: own,
                path: games.join(crate::tournament::game_dir_name(own)),
            })
            .filter(|own| on_the_disk(&own.path));
        let cached = match event.store().cached_games_by_use(0) {
            Ok(cached) => cached,
            Err(error) => {
                tracing::warn!(%error, "cannot list the games' folders to make room for a record");
                Vec::new()
            }
        };
        let listed = cached
            .into_iter()
            .filter(|game| regenerable(event, game))
            .filter_map(|game| {
                let path = games.join(&game.dir);
                if !on_the_disk(&path) {
                    return None;
                }
                let bytes = game
                    .disk_bytes
                    .or_else(|| disk_usage(&path).ok())
                    .unwrap_or(0);
                Some(Listed {
                    cut: game.files == GameFiles::Incomplete,
                    bytes,
                    folder: Folder {
                        number: game.number,
                        path,
                    },
                })
            })
            .collect();
        giving_order(listed, own)
    }
}

/// A recorded game's folder, with what orders it.
#[derive(Debug)]
struct Listed {
    folder: Folder,
    /// Cut by a full disk (`incomplete`).
    cut: bool,
    /// Its disk space.
    bytes: u64,
}

/// The order folders give way in (see the [module docs](self)): cut files first, then the
/// largest, the least recently used first among equals (`listed` comes least recently used
/// first), and `own` last. Reversed: the first to go is the last.
fn giving_order(mut listed: Vec<Listed>, own: Option<Folder>) -> Vec<Folder> {
    listed.sort_by(|a, b| b.cut.cmp(&a.cut).then(b.bytes.cmp(&a.bytes)));
    own.into_iter()
        .chain(listed.into_iter().rev().map(|listed| listed.folder))
        .collect()
}

/// Whether an ended game's folder is a cache its record regenerates, and no game plays in it.
fn regenerable(event: &Event, game: &RetentionCandidate) -> bool {
    game.has_record
        && game.files != GameFiles::Pruned
        && !event.is_playing(game.number)
        && !is_unfaithful(event, game.number)
}

/// The file system holding `path` itself (a symbolic link's own, since deleting one frees
/// nothing where it points), `None` when it cannot be looked at (not there).
fn device(path: &Path) -> Option<u64> {
    std::fs::symlink_metadata(path).ok().map(|meta| meta.dev())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(number: u32, cut: bool, bytes: u64) -> Listed {
        Listed {
            folder: Folder {
                number,
                path: PathBuf::from(format!("game-{number}")),
            },
            cut,
            bytes,
        }
    }

    #[test]
    fn cut_files_go_first_then_the_largest_then_the_least_recently_used_and_the_own_folder_last() {
        // Least recently used first, as the database lists them.
        let listed = vec![
            listed(1, false, 3_000),
            listed(2, false, 9_000),
            listed(3, true, 1_000),
            listed(4, false, 9_000),
            listed(5, false, 500),
        ];
        let own = Folder {
            number: 7,
            path: PathBuf::from("game-7"),
        };
        let order: Vec<u32> = giving_order(listed, Some(own))
            .into_iter()
            .rev()
            .map(|folder| folder.number)
            .collect();
        assert_eq!(order, vec![3, 2, 4, 1, 5, 7]);
    }
}
