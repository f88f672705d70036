//! A game's files as an event stores them over the day: a file `X` may be kept as written or
//! gzip-compressed as `X.gz` (`event::retention`). The suffix is spelled here, once, for the
//! writer (retention), the replay (which reads a compact game's inputs) and the viewer.

use flate2::read::GzDecoder;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

/// The suffix of a compressed file.
pub const GZ_SUFFIX: &str = ".gz";

/// `X` → `X.gz`.
pub fn compressed_path(path: &Path) -> PathBuf {
    with_suffix(path, GZ_SUFFIX)
}

/// `X` → `X<suffix>`.
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name: OsString = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Whether `path` names a compressed file.
pub fn is_compressed(path: &Path) -> bool {
    path.to_str().is_some_and(|name| name.ends_with(GZ_SUFFIX))
}

/// `X` when it exists, else `X.gz` when that exists; `None` when neither does. When both
/// exist (a compression cut off before its last step), `X` is the whole file.
pub fn find(path: &Path) -> Option<PathBuf> {
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    let compressed = compressed_path(path);
    compressed.is_file().then_some(compressed)
}

/// The plain bytes of `X` (read as it is, or decompressed from `X.gz`).
///
/// # Errors
/// Neither exists (`NotFound`), or the file cannot be read or decompressed.
pub fn open_plain(path: &Path) -> io::Result<Box<dyn Read>> {
    let stored = find(path).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            format!("neither {} nor its .gz exists", path.display()),
        )
    })?;
    let file = BufReader::new(File::open(&stored)?);
    Ok(if is_compressed(&stored) {
        Box::new(GzDecoder::new(file))
    } else {
        Box::new(file)
    })
}

/// Copies the plain bytes of `X` (or `X.gz`) to `to`.
///
/// # Errors
/// As [`open_plain`], or `to` cannot be written.
pub fn copy_plain(path: &Path, to: &Path) -> io::Result<u64> {
    let mut reader = open_plain(path)?;
    let mut out = io::BufWriter::new(File::create(to)?);
    let copied = io::copy(&mut reader, &mut out)?;
    io::Write::flush(&mut out)?;
    Ok(copied)
}
