//! `log.json` on disk and when it reaches the disk ([`LogFlush`]).
//!
//! A followed game's log used to be flushed after every entry: one `write` per entry, about
//! 15,000 a second in a fast game over loopback, which cost `dealer run --live` 8% of its
//! hands/s. A follower only needs each entry soon, not at once: [`LogFlush::Followed`] hands
//! the buffered file to a small thread of its own that flushes it at most [`FOLLOWED_FLUSH`]
//! after something was written, so a fast game does about 20 writes a second, a slow one
//! (waiting on a player) still shows its last action within that time, and the game never
//! waits on the disk between hand ends.
//!
//! The file is written at positions the writer keeps (`PositionedFile`, `pwrite`), never
//! through the file's own offset: stepping back over the closing `]` of the last hand end is
//! arithmetic, not an `lseek` per hand.

use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
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

/// A buffered file written with `pwrite` at a position it keeps: one `pwrite` per flush (or
/// per full buffer), and seeking is arithmetic on that position (a step back within what is
/// still buffered drops those bytes; anything else flushes first).
#[derive(Debug)]
struct PositionedFile {
    file: File,
    /// Where the buffer's first byte goes in the file.
    position: u64,
    buffer: Vec<u8>,
}

impl PositionedFile {
    fn new(file: File) -> PositionedFile {
        PositionedFile {
            file,
            position: 0,
            buffer: Vec::with_capacity(BUFFER),
        }
    }
}

impl Write for PositionedFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.write_all(bytes)?;
        Ok(bytes.len())
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.buffer.len() + bytes.len() > BUFFER {
            self.flush()?;
        }
        if bytes.len() >= BUFFER {
            self.file.write_all_at(bytes, self.position)?;
            self.position += bytes.len() as u64;
        } else {
            self.buffer.extend_from_slice(bytes);
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.buffer.is_empty() {
            self.file.write_all_at(&self.buffer, self.position)?;
            self.position += self.buffer.len() as u64;
            self.buffer.clear();
        }
        Ok(())
    }
}

/// What is still buffered reaches the file when the log is dropped (as with a `BufWriter`; an
/// error then has no one to go to).
impl Drop for PositionedFile {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

impl Seek for PositionedFile {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let end = self.position + self.buffer.len() as u64;
        if let SeekFrom::Current(by @ ..=0) = to {
            let back = by.unsigned_abs();
            if back <= self.buffer.len() as u64 {
                self.buffer.truncate(self.buffer.len() - back as usize);
                return Ok(end - back);
            }
        }
        self.flush()?;
        let target = match to {
            SeekFrom::Start(at) => Some(at),
            SeekFrom::Current(by) => self.position.checked_add_signed(by),
            SeekFrom::End(by) => self.file.metadata()?.len().checked_add_signed(by),
        };
        self.position = target.ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "a seek before the start of log.json",
            )
        })?;
        Ok(self.position)
    }
}

#[derive(Debug)]
enum Sink {
    /// Flushed only by the writer.
    Buffered(PositionedFile),
    /// Shared with the flusher thread, which holds it weakly (it ends when the log is
    /// dropped).
    Timed(Arc<Mutex<Timed>>),
}

#[derive(Debug)]
struct Timed {
    out: PositionedFile,
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
        let out = PositionedFile::new(File::create(path)?);
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
    fn a_positioned_file_writes_what_a_seeking_cursor_would() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.json");
        let mut file = PositionedFile::new(File::create(&path).unwrap());
        let mut cursor = io::Cursor::new(Vec::new());
        let big = vec![b'x'; BUFFER + 10];
        for (sink, name) in [
            (&mut file as &mut dyn SeekWrite, "file"),
            (&mut cursor as &mut dyn SeekWrite, "cursor"),
        ] {
            sink.write_all(b"[1").unwrap();
            sink.write_all(b"]").unwrap();
            sink.flush().unwrap();
            // Back over a flushed `]`, then over a buffered one, then a jump from the start.
            assert_eq!(sink.seek(SeekFrom::Current(-1)).unwrap(), 2, "{name}");
            sink.write_all(b",2]").unwrap();
            assert_eq!(sink.seek(SeekFrom::Current(-1)).unwrap(), 4, "{name}");
            sink.write_all(b",").unwrap();
            sink.write_all(&big).unwrap();
            sink.write_all(b"]").unwrap();
            assert_eq!(sink.seek(SeekFrom::Start(1)).unwrap(), 1, "{name}");
            sink.write_all(b"3").unwrap();
            assert_eq!(sink.seek(SeekFrom::End(-1)).unwrap(), BUFFER as u64 + 15);
            sink.write_all(b"}").unwrap();
            assert!(sink.seek(SeekFrom::Current(-100_000)).is_err(), "{name}");
            sink.flush().unwrap();
        }
        let written = std::fs::read(&path).unwrap();
        assert_eq!(written.len(), BUFFER + 16);
        assert_eq!(written, cursor.into_inner());
    }

    trait SeekWrite: Write + Seek {}
    impl<T: Write + Seek> SeekWrite for T {}

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
