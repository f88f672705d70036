//! Reading a game's logs whether or not the event's retention compressed them
//! (`event::retention`: `log.json` → `log.json.gz`...): every reader asks for the plain
//! name and gets the plain bytes.
//!
//! The files are decompressed here rather than sent with `Content-Encoding: gzip`: no endpoint
//! sends a file as it is on disk (the log is checked, indexed and has cards hidden, requests
//! are filtered by player, a fixture is one line), so the server needs the plain bytes anyway.
//! A damaged or cut `.gz` is [`FolderError::Unreadable`] (a 422 with a sentence the page
//! shows), never a 500.

use super::{FolderError, ResultsFolder};
use crate::event::retention::{compressed_path, GZ_SUFFIX};
use flate2::read::GzDecoder;
use std::fs::File;
use std::io::{self, Read, Seek};
use std::path::{Path, PathBuf};

/// Whether `path` is a compressed file (by its name).
fn is_compressed(path: &Path) -> bool {
    path.to_str().is_some_and(|name| name.ends_with(GZ_SUFFIX))
}

/// `X` when it exists, else `X.gz` when that exists, else `X` (so the error names it). When
/// both exist (a compression cut off before its last step), `X` is the whole file.
pub(super) fn stored_path(path: &Path) -> PathBuf {
    if path.is_file() {
        return path.to_path_buf();
    }
    let compressed = compressed_path(path);
    if compressed.is_file() {
        compressed
    } else {
        path.to_path_buf()
    }
}

/// Whether `X` or `X.gz` exists.
pub(super) fn exists(path: &Path) -> bool {
    path.is_file() || compressed_path(path).is_file()
}

impl ResultsFolder {
    /// Opens a stored file (plain, or `.gz` by its name) for reading its plain bytes.
    fn open_plain(&self, stored: &Path) -> Result<Box<dyn Read>, FolderError> {
        let (file, _) = self.open(stored)?;
        Ok(if is_compressed(stored) {
            Box::new(GzDecoder::new(io::BufReader::new(file)))
        } else {
            Box::new(file)
        })
    }

    /// Up to `limit` plain bytes of `stored` (`X` or `X.gz`), and whether there were more.
    pub(super) fn read_prefix(
        &self,
        stored: &Path,
        limit: u64,
    ) -> Result<(Vec<u8>, bool), FolderError> {
        let reader = self.open_plain(stored)?;
        let mut bytes = Vec::new();
        reader
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|source| self.read_error(stored, source))?;
        let more = bytes.len() as u64 > limit;
        bytes.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok((bytes, more))
    }

    /// The whole plain content of `path`'s stored file (`X`, else `X.gz`), at most `limit`
    /// bytes.
    pub(super) fn read_log(&self, path: &Path, limit: u64) -> Result<Vec<u8>, FolderError> {
        let stored = stored_path(path);
        if !is_compressed(&stored) {
            return self.read(&stored, limit);
        }
        let (bytes, more) = self.read_prefix(&stored, limit)?;
        if more {
            return Err(FolderError::Unreadable(format!(
                "{} holds more than the {limit} bytes the viewer reads",
                self.relative(&stored)
            )));
        }
        Ok(bytes)
    }

    /// `path` to follow as it grows; a compressed log (of an ended game: it no longer grows)
    /// is decompressed into an unnamed temporary file, so the follower reads it the same way.
    pub(super) fn open_log_file(&self, path: &Path) -> Result<File, FolderError> {
        let stored = stored_path(path);
        if !is_compressed(&stored) {
            return Ok(self.open(&stored)?.0);
        }
        let mut reader = self.open_plain(&stored)?.take(super::MAX_LOG_BYTES);
        let mut plain = tempfile::tempfile().map_err(|source| FolderError::Io {
            path: "a temporary file".to_string(),
            source,
        })?;
        io::copy(&mut reader, &mut plain).map_err(|source| self.read_error(&stored, source))?;
        plain.rewind().map_err(|source| FolderError::Io {
            path: "a temporary file".to_string(),
            source,
        })?;
        Ok(plain)
    }

    /// A read error: for a compressed file, a damaged or cut one (the decoder's errors).
    fn read_error(&self, stored: &Path, source: io::Error) -> FolderError {
        if is_compressed(stored) {
            FolderError::Unreadable(format!(
                "{} is damaged or cut off and cannot be decompressed ({source}); the game's \
                 other files are still served",
                self.relative(stored)
            ))
        } else {
            self.io_error(stored, source)
        }
    }
}
