//! `log.json` on disk and when it reaches the disk ([`LogFlush`]).
//!
//! A followed game's log used to be flushed after every entry: one `write` per entry, about
//! 15,000 a second in a fast game over loopback, which cost `dealer run --live` 8% of its
//! hands/s. A follower only needs each entry soon, not at once: [`LogFlush::Followed`] hands
//! the buffered file to a small thread of its own that flushes it at most [`FOLLOWED_FLUSH`]
//! after something was written, so a fast game does about 20 writes a second, a slow one
//! (waiting on a player) still shows its last action within that time, and the game never
//! waits on the disk between hand ends.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

/// The most time between an entry written and the file holding it, for [`LogFlush::Followed`].
/// With the web viewer's 100 ms look at the file, a page sees an action within about 150 ms.
pub const FOLLOWED_FLUSH: Duration = Duration::from_millis(50);

/// The buffer in front of the file: a hand of a ten-seat game is a few tens of KiB.
const BUFFER: usize = 64 * 1024;

/// When `log.json` reaches the disk.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LogFlush {
    /// At every hand end, closed as a valid array (the default: one write per hand).
    #[default]
    EveryHand,
    /// Also at most [`FOLLOWED_FLUSH`] after every entry (without the closing `]`), by a
    /// flusher thread, for a game followed live (`dealer run --live`, an event's games).
    Followed,
}

/// `log.json` being written: buffered, flushed by its writer at hand ends and, for a
/// [`LogFlush::Followed`] log, by a flusher thread in between.
#[derive(Debug)]
pub struct LogFile(Sink);

#[derive(Debug)]
enum Sink {
    /// Flushed only by the writer.
    Buffered(BufWriter<File>),
    /// Shared with the flusher thread, which holds it weakly (it ends when the log is
    /// dropped).
    Timed(Arc<Mutex<Timed>>),
}

#[derive(Debug)]
struct Timed {
    out: BufWriter<File>,
    /// Written since the last flush.
    dirty: bool,
    /// A flush by the thread that failed, for the writer's next call to report.
    error: Option<io::Error>,
}

fn lock(timed: &Mutex<Timed>) -> MutexGuard<'_, Timed> {
    // The state is a buffered file and two flags, whole after any panic.
    timed.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Timed {
    fn failed(&mut self) -> io::Result<()> {
        match self.error.take() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

/// Flushes a followed log every [`FOLLOWED_FLUSH`] while it was written to, until it is
/// dropped.
fn flusher(timed: &Weak<Mutex<Timed>>) {
    loop {
        std::thread::sleep(FOLLOWED_FLUSH);
        let Some(timed) = timed.upgrade() else { return };
        let mut timed = lock(&timed);
        if timed.dirty && timed.error.is_none() {
            timed.dirty = false;
            if let Err(error) = timed.out.flush() {
                timed.error = Some(error);
            }
        }
    }
}

impl LogFile {
    /// Creates (or truncates) the file at `path`, flushed as `flush` says.
    ///
    /// # Errors
    /// The file cannot be created, or the flusher thread cannot be started.
    pub fn create(path: &Path, flush: LogFlush) -> io::Result<LogFile> {
        let out = BufWriter::with_capacity(BUFFER, File::create(path)?);
        Ok(LogFile(match flush {
            LogFlush::EveryHand => Sink::Buffered(out),
            LogFlush::Followed => {
                let timed = Arc::new(Mutex::new(Timed {
                    out,
                    dirty: false,
                    error: None,
                }));
                let weak = Arc::downgrade(&timed);
                std::thread::Builder::new()
                    .name("log.json flusher".to_string())
                    .spawn(move || flusher(&weak))?;
                Sink::Timed(timed)
            }
        }))
    }
}

impl Write for LogFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match &mut self.0 {
            Sink::Buffered(out) => out.write(bytes),
            Sink::Timed(timed) => {
                let mut timed = lock(timed);
                timed.failed()?;
                timed.dirty = true;
                timed.out.write(bytes)
            }
        }
    }

    /// One lock for the whole entry, so the thread never flushes half of what one call wrote
    /// into the buffer (a reader copes with that too, but it costs it a second look).
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        match &mut self.0 {
            Sink::Buffered(out) => out.write_all(bytes),
            Sink::Timed(timed) => {
                let mut timed = lock(timed);
                timed.failed()?;
                timed.dirty = true;
                timed.out.write_all(bytes)
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.0 {
            Sink::Buffered(out) => out.flush(),
            Sink::Timed(timed) => {
                let mut timed = lock(timed);
                timed.failed()?;
                timed.dirty = false;
                timed.out.flush()
            }
        }
    }
}

impl Seek for LogFile {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        match &mut self.0 {
            Sink::Buffered(out) => out.seek(to),
            Sink::Timed(timed) => {
                let mut timed = lock(timed);
                timed.failed()?;
                timed.out.seek(to)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// Waits up to a second for `path` to hold `expected`.
    fn file_reaches(path: &Path, expected: &[u8]) -> Option<Duration> {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(1) {
            if std::fs::read(path).unwrap() == expected {
                return Some(start.elapsed());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }

    #[test]
    fn a_followed_log_reaches_the_disk_soon_without_a_flush_and_others_at_a_flush() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.json");
        let mut followed = LogFile::create(&path, LogFlush::Followed).unwrap();
        followed.write_all(b"[{\"a\":1}").unwrap();
        let took = file_reaches(&path, b"[{\"a\":1}").expect("flushed by the thread");
        assert!(took < FOLLOWED_FLUSH * 4, "{took:?}");
        // Overwriting the closing bracket goes through the shared buffer too.
        followed.write_all(b"]").unwrap();
        followed.flush().unwrap();
        followed.seek(SeekFrom::Current(-1)).unwrap();
        followed.write_all(b",{\"b\":2}").unwrap();
        drop(followed);
        assert!(file_reaches(&path, b"[{\"a\":1},{\"b\":2}").is_some());

        let mut buffered = LogFile::create(&path, LogFlush::EveryHand).unwrap();
        buffered.write_all(b"[{\"a\":1}").unwrap();
        std::thread::sleep(FOLLOWED_FLUSH * 3);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            b"",
            "only the writer flushes"
        );
        buffered.flush().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"[{\"a\":1}");
    }
}
