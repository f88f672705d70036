//! A folder's or file's stamp: what the viewer's caches compare to see that something on disk
//! changed. Below the run index and the outcome cache, which both keep one.

use std::path::Path;
use std::time::SystemTime;

/// Modification times and lengths that invalidate a cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FolderStamp(Vec<(Option<SystemTime>, u64)>);

impl FolderStamp {
    pub(super) fn of(paths: &[&Path]) -> FolderStamp {
        FolderStamp(
            paths
                .iter()
                .map(|path| match std::fs::metadata(path) {
                    Ok(meta) => (meta.modified().ok(), meta.len()),
                    Err(_) => (None, 0),
                })
                .collect(),
        )
    }

    pub(super) fn newest_secs(&self) -> u64 {
        self.0
            .iter()
            .filter_map(|(time, _)| *time)
            .max()
            .and_then(|time| time.duration_since(SystemTime::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_secs())
    }
}
