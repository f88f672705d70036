//! A full disk on the event's day (issues 26, 34 and 40): a small tmpfs filled during play, by a
//! file the test writes until the disk has no byte left. No finished game is lost, whether the
//! server then goes on, is stopped by SIGTERM or killed by `kill -9` while the disk is full,
//! even with no disk budget and no margin (the files records regenerate make room; only a
//! database whose disk has nothing left to delete loses games, and the stop names them);
//! play pauses with its reason (said once) and resumes by itself when space is back. Files a
//! full disk cut are a broken cache: restarted on a disk that never gets back above its
//! margin, every finished game opens whole in the viewer (from its record) and `dealer
//! replay` passes on its folder; the database passes its integrity check. The tmpfs tests
//! need root (to mount it): skipped with a message otherwise. The cut files themselves (the
//! viewer, `dealer replay`, their repair: rewritten with room, dropped without) are checked
//! on any disk, by cutting a game's files as a full disk does.
//!
//! Every wait is for an event (a game in the database, a file of a size, the API's word),
//! with the generous deadline of `support::wait`: the tests pass on a machine under load.

use crate::support::wait::{until, until_async};
use dealer::event::archive::{compact_game, regenerate_game};
use dealer::event::queries::games_page;
use dealer::event::retention::run_pass;
use dealer::event::store::{EventStore, GameFiles, GAMES_DIR};
use dealer::event::{scheduler, Event};
use dealer::replay::Comparison;
use dealer::runner::StopSignal;
use dealer::web::event_api::EventArchive;
use dealer::web::store::ResultsFolder;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

/// Six house bots at tables of three (two games at a time), short games, no pause, a margin
/// of 2 MB, no disk budget.
const CONFIG: &str = r#"
seed = 26
pause_ms = 1
recheck_ms = 100
table_size = 3
hand_limit = 40
compress_after = 2
disk_budget = "off"
min_free_space = "2 MB"
[[bot]]
name = "ann"
kind = "raiser"
[[bot]]
name = "bob"
kind = "calling-station"
[[bot]]
name = "cy"
kind = "random"
[[bot]]
name = "di"
kind = "raiser"
[[bot]]
name = "ed"
kind = "calling-station"
[[bot]]
name = "flo"
kind = "random"
"#;

/// A tmpfs mounted for one test, unmounted when dropped.
struct SmallDisk {
    dir: PathBuf,
    /// The folder it is mounted on, when made for it (removed after the unmount).
    _made: Option<tempfile::TempDir>,
}

impl SmallDisk {
    /// Mounts a `size` tmpfs, or says why not (not root, no mount permission in a container).
    fn mount(size: &str) -> Result<SmallDisk, String> {
        let made = tempfile::tempdir().map_err(|error| error.to_string())?;
        let mut disk = SmallDisk::mount_on(size, made.path())?;
        disk._made = Some(made);
        Ok(disk)
    }

    /// Mounts a `size` tmpfs on the folder `dir`.
    fn mount_on(size: &str, dir: &Path) -> Result<SmallDisk, String> {
        let output = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output()
            .map_err(|error| format!("cannot run mount: {error}"))?;
        if !output.status.success() {
            return Err(String::from_utf8_lossy(&output.stderr).trim().to_string());
        }
        Ok(SmallDisk {
            dir: dir.to_path_buf(),
            _made: None,
        })
    }

    fn path(&self) -> &Path {
        &self.dir
    }

    /// The filler file, opened to add to it.
    fn filler(&self) -> (PathBuf, std::fs::File) {
        let filler = self.path().join("filler");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&filler)
            .unwrap();
        (filler, file)
    }

    /// Fills the disk with `filler` until `left` bytes are free (about).
    fn fill_leaving(&self, left: u64) {
        let (_, mut file) = self.filler();
        let chunk = vec![7u8; 1 << 20];
        while dealer::event::space::free_bytes(self.path()).unwrap() > left + (1 << 20) {
            if file.write_all(&chunk).is_err() {
                break;
            }
        }
    }

    /// Fills the disk to its last byte with `filler`.
    fn fill(&self) -> PathBuf {
        let (filler, mut file) = self.filler();
        for chunk in [1 << 20, 4096, 1] {
            let bytes = vec![7u8; chunk];
            while file.write_all(&bytes).is_ok() {}
        }
        let _ = file.sync_all();
        filler
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        // Lazy: a file still open (a failed test's server) does not keep it mounted.
        let _ = Command::new("umount").arg("-l").arg(&self.dir).status();
    }
}

fn integrity(data: &Path) -> String {
    let db = rusqlite::Connection::open_with_flags(
        data.join("event.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    db.query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .unwrap()
}

/// Every finished game, as the database has it: number, hands, standings (place and points by
/// seat), and what became of its files.
fn finished(data: &Path) -> Vec<(u32, i64, String, String)> {
    let Ok(db) = rusqlite::Connection::open_with_flags(
        data.join("event.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    ) else {
        return Vec::new();
    };
    let _ = db.busy_timeout(crate::support::wait::DEADLINE);
    let mut statement = db
        .prepare(
            "SELECT g.number, g.hands, g.files,
                (SELECT group_concat(s.seat || ':' || s.place || ':' || s.points, ' ')
                 FROM standings s WHERE s.game = g.number)
             FROM games g WHERE g.state = 'finished' ORDER BY g.number",
        )
        .unwrap();
    let rows = statement
        .query_map([], |row| {
            Ok((
                row.get::<_, u32>(0)?,
                row.get::<_, i64>(1)?,
                row.get::<_, String>(3)?,
                row.get::<_, String>(2)?,
            ))
        })
        .unwrap();
    rows.collect::<Result<_, _>>().unwrap_or_default()
}

/// The games without their files' state: what must never change once recorded.
fn results(games: &[(u32, i64, String, String)]) -> Vec<(u32, i64, String)> {
    games
        .iter()
        .map(|(number, hands, standings, _)| (*number, *hands, standings.clone()))
        .collect()
}

/// Fills the disk while a game is being played (past its first hands), so that it ends on a
/// full disk: most of the disk first, the last few MB once a game is under way. Returns the
/// filler and how many times play paused on the way: the games that end just after the first
/// fill can take the room left below the margin before a new game gets under way (a round's
/// files are a few MB); then the filler goes, play resumes, and it is tried again.
fn fill_during_a_game(disk: &SmallDisk, data: &Path, url: &str) -> (PathBuf, usize) {
    let mut pauses = 0;
    loop {
        disk.fill_leaving(6 << 20);
        let mut paused = false;
        until("a game under way, or play paused", || {
            let under_way = running(data).iter().any(|&number| under_way(data, number));
            paused = !under_way && status(url)["play_paused"].is_object();
            under_way || paused
        });
        if !paused {
            return (disk.fill(), pauses);
        }
        pauses += 1;
        std::fs::remove_file(disk.path().join("filler")).unwrap();
        until("play resumed", || status(url)["play_paused"].is_null());
    }
}

/// A `dealer serve` process, killed if the test ends (or fails) while it runs.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// `dealer serve` on the event, its log (info) in `log`; returns the process and the page's
/// base URL.
fn serve(config: &Path, data: &Path, log: &Path) -> (Server, String) {
    serve_with(config, data, log, &[])
}

/// [`serve`] with more flags.
fn serve_with(config: &Path, data: &Path, log: &Path, flags: &[&str]) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dealer"))
        .env("RUST_LOG", "info")
        .args(["serve", "--bind", "127.0.0.1:0", "--config"])
        .arg(config)
        .arg("--data")
        .arg(data)
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let url = first
        .split_whitespace()
        .find(|word| word.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {first:?}"))
        .trim_end_matches("event")
        .to_string();
    (Server(child), url)
}

/// `path` (under `/api/`) of the server at `url`, as JSON (`Null` when it cannot be had).
fn api(url: &str, path: &str) -> serde_json::Value {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let answer = reqwest::Client::new()
            .get(format!("{url}api/{path}"))
            .send()
            .await;
        match answer {
            Ok(answer) => serde_json::from_slice(&answer.bytes().await.unwrap_or_default())
                .unwrap_or_default(),
            Err(_) => serde_json::Value::Null,
        }
    })
}

/// `/api/event` of the server at `url`.
fn status(url: &str) -> serde_json::Value {
    api(url, "event")
}

/// Stops the server by SIGTERM; its exit code.
fn terminate(Server(child): &mut Server) -> Option<i32> {
    // SAFETY: kill(2) on our own child's pid.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let mut code = None;
    until("the server stopped after SIGTERM", || {
        child.try_wait().unwrap().is_some_and(|status| {
            code = status.code();
            true
        })
    });
    code
}

fn lines_with(log: &Path, text: &str) -> usize {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|line| line.contains(text))
        .count()
}

/// The games the database calls running.
fn running(data: &Path) -> Vec<u32> {
    let Ok(db) = rusqlite::Connection::open_with_flags(
        data.join("event.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    ) else {
        return Vec::new();
    };
    db.prepare("SELECT number FROM games WHERE state = 'running'")
        .and_then(|mut statement| {
            statement
                .query_map([], |row| row.get(0))?
                .collect::<Result<_, _>>()
        })
        .unwrap_or_default()
}

/// Game `number`'s full log as its record gives it (a JSON array of entries).
fn record_log(data: &Path, number: u32) -> Vec<serde_json::Value> {
    let store = EventStore::open_read_only(data).unwrap();
    let compact = compact_game(&store, number).unwrap().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let into = scratch.path().join("replayed");
    regenerate_game(
        number,
        &compact,
        None,
        &scratch.path().join("kept"),
        &into,
        Comparison::Exact,
    )
    .unwrap();
    serde_json::from_slice(&std::fs::read(into.join("log.json")).unwrap()).unwrap()
}

/// `dealer replay` on game `number`'s folder (which may be gone): what it said, after checking
/// it passed.
fn replay_passes(data: &Path, number: u32) -> String {
    let game = data.join(GAMES_DIR).join(format!("game-{number}"));
    let replay = Command::new(env!("CARGO_BIN_EXE_dealer"))
        .env_remove("RUST_LOG")
        .arg("replay")
        .arg(&game)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&replay.stdout),
        String::from_utf8_lossy(&replay.stderr)
    );
    assert!(
        replay.status.success() && said.contains("Identical"),
        "dealer replay on game {number}'s folder: {said}"
    );
    said
}

/// Every finished game opens whole in the viewer of the server at `url` (its log to its last
/// entry, as its record gives it, and its result) and `dealer replay` passes on its folder.
fn every_finished_game_whole(url: &str, data: &Path) {
    for (number, _, _, files) in finished(data) {
        let log = api(url, &format!("runs/{GAMES_DIR}/games/{number}/log"));
        let whole = record_log(data, number);
        assert!(
            log["partial"].is_null(),
            "game {number} ({files}) is shown partial: {}",
            log["partial"]
        );
        let entries = log["entries"].as_array().map_or(0, Vec::len);
        assert_eq!(
            entries,
            whole.len(),
            "game {number} ({files}): the viewer shows {entries} entries, its record {}",
            whole.len()
        );
        let details = api(url, &format!("runs/{GAMES_DIR}/games/{number}"));
        assert!(
            details["result"]["places"].is_array() || details["result"].is_object(),
            "game {number} ({files}) has no result in the viewer: {details}"
        );
        replay_passes(data, number);
    }
}

#[test]
fn sigterm_and_kill_9_on_a_full_disk_lose_no_finished_game() {
    let disk = match SmallDisk::mount("96m") {
        Ok(disk) => disk,
        Err(reason) => {
            eprintln!("skipped: cannot mount a small tmpfs to fill ({reason}); run as root");
            return;
        }
    };
    let logs = tempfile::tempdir().unwrap();
    let config = logs.path().join("event.toml");
    // Every game's files kept whole (none old enough to delete), so nothing but the test
    // makes room: the disk stays full until the test empties it. A slower pace, so the games
    // themselves take a few MB of the disk before the test fills it.
    let text = CONFIG
        .replace("compress_after = 2", "compress_after = 100000")
        .replace("pause_ms = 1", "pause_ms = 100");
    std::fs::write(&config, &text).unwrap();
    let data = disk.path().join("event");
    let mut kept: Vec<(u32, i64, String)> = Vec::new();
    let mut cut_files = 0;
    // The games under way when play pauses are recorded (or shown as not recordable).
    let settled = |url: &str| running(&data).is_empty() || !status(url)["storage_error"].is_null();

    // 1. Filled during play: play pauses (its reason in the API, said once in the log);
    //    emptied: play resumes; filled again, stopped by SIGTERM while full.
    let log = logs.path().join("first.log");
    let (mut child, url) = serve(&config, &data, &log);
    until("4 games", || finished(&data).len() >= 4);
    let (filler, mut retries) = fill_during_a_game(&disk, &data, &url);
    until("play paused", || status(&url)["play_paused"].is_object());
    let paused = status(&url);
    let reason = paused["play_paused"]["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("min_free_space") && reason.contains("margin"),
        "{paused}"
    );
    // Rechecks every 100 ms: a pause said again at each would show here. Not a wait for
    // anything (a slower machine only rechecks less often).
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        status(&url)["play_paused"]["since"],
        paused["play_paused"]["since"]
    );
    let before = finished(&data);
    std::fs::remove_file(&filler).unwrap();
    until("play resumed", || {
        status(&url)["play_resumed"].is_object() && finished(&data).len() >= before.len() + 2
    });
    let (filler, more) = fill_during_a_game(&disk, &data, &url);
    retries += more;
    until("play paused again", || {
        status(&url)["play_paused"].is_object()
    });
    until("the games under way recorded", || settled(&url));
    kept.extend(results(&finished(&data)));
    terminate(&mut child);
    assert_eq!(
        lines_with(&log, "play paused"),
        2 + retries,
        "once per pause"
    );
    assert_eq!(lines_with(&log, "play resumes"), 1 + retries);
    let full_lines: Vec<String> = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .filter(|line| line.contains("database or disk is full"))
        .map(str::to_string)
        .collect();
    // A few per fill (a reserve given up, a game that could not start or be recorded
    // abandoned, the exit's last word): not a line at every recheck (15 of them while
    // paused, each time).
    assert!(
        full_lines.len() <= 8,
        "the full disk is said once, not at every retry: {full_lines:#?}"
    );
    cut_files += lines_with(&log, "its files could not all be written");

    // 2. Restarted with space back, filled during play, killed (kill -9) while full.
    std::fs::remove_file(&filler).unwrap();
    let log = logs.path().join("second.log");
    let (mut child, url) = serve(&config, &data, &log);
    let count = finished(&data).len();
    until("3 more games", || finished(&data).len() >= count + 3);
    let (filler, _) = fill_during_a_game(&disk, &data, &url);
    until("play paused", || status(&url)["play_paused"].is_object());
    until("the games under way recorded", || settled(&url));
    kept.extend(results(&finished(&data)));
    child.0.kill().unwrap(); // SIGKILL
    child.0.wait().unwrap();
    cut_files += lines_with(&log, "its files could not all be written");
    assert!(
        cut_files >= 1,
        "no game ended while the disk was full: the test did not test it"
    );
    // Started while the disk is still full: it serves with play paused, or exits saying what
    // to free; never with SQLite's bare words.
    start_on_a_full_disk(&config, &data, &logs.path().join("full-start.log"));
    // A new event there (the disk filled again: the start above may have deleted old games'
    // files to make room) cannot even create its database: it exits.
    disk.fill();
    assert!(!start_on_a_full_disk(
        &config,
        &disk.path().join("new-event"),
        &logs.path().join("new-start.log")
    ));

    // 3. 6 MB freed, restarted with the default margin (256 MB, more than the disk): space
    //    is never "back". Cut files are repaired at start all the same (dropped: the disk is
    //    below its margin); every finished game opens whole and replays; play stays paused.
    let filler_file = std::fs::OpenOptions::new()
        .write(true)
        .open(&filler)
        .unwrap();
    let length = filler_file.metadata().unwrap().len();
    filler_file.set_len(length.saturating_sub(6 << 20)).unwrap();
    drop(filler_file);
    let default_margin = logs.path().join("default-margin.toml");
    std::fs::write(
        &default_margin,
        text.replace("min_free_space = \"2 MB\"\n", ""),
    )
    .unwrap();
    let log = logs.path().join("third.log");
    let (mut child, url) = serve(&default_margin, &data, &log);
    until("play paused below the default margin", || {
        status(&url)["play_paused"].is_object()
    });
    until("the cut files repaired at start", || {
        finished(&data).iter().all(|game| game.3 != "incomplete")
            && finished(&data).iter().all(|game| {
                let dir = data.join(GAMES_DIR).join(format!("game-{}", game.0));
                !dir.is_dir() || dir.join("result.json").is_file()
            })
    });
    every_finished_game_whole(&url, &data);
    terminate(&mut child);

    // 4. Space back, restarted with the test's margin: play goes on.
    std::fs::remove_file(&filler).unwrap();
    let log = logs.path().join("fourth.log");
    let (mut child, _url) = serve(&config, &data, &log);
    let count = finished(&data).len();
    until("2 more games", || finished(&data).len() >= count + 2);
    terminate(&mut child);

    let after = finished(&data);
    let now = results(&after);
    for game in &kept {
        assert!(
            now.contains(game),
            "game {} lost or changed: {now:?}",
            game.0
        );
    }
    assert_eq!(integrity(&data), "ok");
    for (number, _, _, files) in &after {
        assert_ne!(files, "incomplete", "game {number}");
        let said = replay_passes(&data, *number);
        if files != "pruned" {
            assert!(said.contains("log.json"), "game {number}: {said}");
        }
    }
}

/// `dealer serve` started on a full disk: either it serves (its first line is its URL; play
/// is then paused below the margin) and is stopped, or it exits at once with a message that
/// says what to free, measured, and how to show the event meanwhile. Whether it served.
fn start_on_a_full_disk(config: &Path, data: &Path, log: &Path) -> bool {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dealer"))
        .env_remove("RUST_LOG")
        .args(["serve", "--bind", "127.0.0.1:0", "--config"])
        .arg(config)
        .arg("--data")
        .arg(data)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    if first.contains("http://") {
        let url = first
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap()
            .trim_end_matches("event")
            .to_string();
        let mut server = Server(child);
        until("play paused on the full disk", || {
            status(&url)["play_paused"].is_object()
        });
        terminate(&mut server);
        return true;
    }
    let exit = child.wait().unwrap();
    let said = std::fs::read_to_string(log).unwrap_or_default();
    assert!(!exit.success(), "{said}");
    assert!(
        said.contains("is full") && said.contains("free at least") && said.contains("--out"),
        "a start on a full disk says what to free: {said}"
    );
    false
}

/// Cuts a finished game's files as a full disk does: its logs stop in the middle of a line
/// and its `result.json` (the last file a game writes) is not there.
fn cut_as_a_full_disk(dir: &Path) {
    for name in ["log.json", "requests.jsonl"] {
        let path = dir.join(name);
        let length = std::fs::metadata(&path).unwrap().len();
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(length / 2).unwrap();
    }
    std::fs::remove_file(dir.join("result.json")).unwrap();
}

/// Game `number` as the event's viewer shows it: its log (checked and indexed) and whether it
/// has a result.
fn viewer_game(event: &Arc<Event>, number: u32) -> (String, bool) {
    let folder = ResultsFolder::new(&event.settings().data)
        .unwrap()
        .with_archive(EventArchive::shared(Arc::clone(event)));
    let log = folder.game_log(GAMES_DIR, number).unwrap();
    assert!(log.partial.is_none(), "game {number}: {:?}", log.partial);
    let details = folder.game(GAMES_DIR, number).unwrap();
    (
        serde_json::to_string(&log).unwrap(),
        details.result.is_some(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_files_a_full_disk_cut_opens_whole_replays_and_is_repaired() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("event");
    let config = CONFIG.replace("compress_after = 2", "compress_after = 100000");
    let event = crate::support::event::open(&data, &config);
    let (handle, stop) = dealer::runner::stop_signal();
    let rounds = tokio::spawn(scheduler::run_rounds(Arc::clone(&event), stop));
    until_async("2 finished games", || finished(&data).len() >= 2).await;
    handle.stop();
    rounds.await.unwrap();
    let games = finished(&data);
    // One recorded incomplete (its files failed as it ended), one the database still calls
    // kept (a `kill -9` on the full disk before that could be recorded).
    let (recorded, unrecorded) = (games[0].0, games[1].0);
    let folder = |number: u32| data.join(GAMES_DIR).join(format!("game-{number}"));
    let whole: Vec<(String, bool)> = [recorded, unrecorded]
        .iter()
        .map(|&number| viewer_game(&event, number))
        .collect();
    let cut_both = |event: &Event| {
        for number in [recorded, unrecorded] {
            cut_as_a_full_disk(&folder(number));
        }
        event
            .store()
            .set_game_files(recorded, GameFiles::Incomplete, None)
            .unwrap();
    };
    cut_both(&event);

    // The viewer and `dealer replay` take the game from its record.
    for (number, whole) in [recorded, unrecorded].into_iter().zip(&whole) {
        assert_eq!(&viewer_game(&event, number), whole, "game {number}");
        let said = replay_passes(&data, number);
        assert!(said.contains("cut by a full disk"), "game {number}: {said}");
    }

    // Found by the next pass, with room on the disk: written again from the record.
    let report = run_pass(&event, true, &StopSignal::never()).unwrap();
    let mut rewritten = report.rewritten.clone();
    rewritten.sort_unstable();
    assert_eq!(rewritten, vec![recorded, unrecorded], "{report:?}");
    for (number, whole) in [recorded, unrecorded].into_iter().zip(&whole) {
        assert!(folder(number).join("result.json").is_file());
        assert_eq!(&viewer_game(&event, number), whole, "game {number}");
        let said = replay_passes(&data, number);
        assert!(
            !said.contains("cut by a full disk") && said.contains("log.json"),
            "game {number}: {said}"
        );
    }
    let files = |number: u32| {
        finished(&data)
            .into_iter()
            .find(|game| game.0 == number)
            .unwrap()
            .3
    };
    assert_eq!(files(recorded), "kept");
    drop(event);

    // Cut again, on a disk below its margin: dropped, and opened from the record.
    let mut settings = crate::support::event::settings(
        &data,
        &config,
        dealer::event::settings::EventFlags::default(),
    );
    settings.retention.min_free_space = Some(1 << 60);
    let event = Event::open(settings).unwrap();
    cut_both(&event);
    let report = run_pass(&event, true, &StopSignal::never()).unwrap();
    let mut dropped = report.pruned.clone();
    dropped.sort_unstable();
    assert_eq!(dropped, vec![recorded, unrecorded], "{report:?}");
    for (number, whole) in [recorded, unrecorded].into_iter().zip(&whole) {
        assert!(
            !folder(number).exists(),
            "game {number}'s cut files deleted"
        );
        assert_eq!(files(number), "pruned");
        assert_eq!(&viewer_game(&event, number), whole, "game {number}");
        replay_passes(&data, number);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disk_filled_during_play_pauses_play_until_there_is_room_and_cut_files_are_repaired() {
    let disk = match SmallDisk::mount("30m") {
        Ok(disk) => disk,
        Err(reason) => {
            eprintln!("skipped: cannot mount a small tmpfs to fill ({reason}); run as root");
            return;
        }
    };
    let data = disk.path().join("event");
    let event = crate::support::event::open(&data, CONFIG);
    let (handle, stop) = dealer::runner::stop_signal();
    let rounds = tokio::spawn(scheduler::run_rounds(Arc::clone(&event), stop.clone()));
    let retention = tokio::spawn(dealer::event::retention::run_retention(
        Arc::clone(&event),
        stop,
    ));
    until_async("4 games", || event.status().games_finished >= 4).await;
    assert!(
        event.reserve().is_held(),
        "the reserve is made while there is room"
    );
    let before = results(&finished(&data));
    // Filled by something else: play pauses (the old games' files deleted to make room, and
    // the reserve given to the records, may bring it back above the margin by themselves).
    let filler = disk.fill();
    until_async("play paused", || {
        event.play_paused().is_some() || event.status().play_resumed.is_some()
    })
    .await;
    let pause = event
        .play_paused()
        .map(|pause| pause.reason)
        .or_else(|| event.status().play_resumed.map(|resumed| resumed.reason))
        .unwrap();
    assert!(pause.contains("min_free_space"), "{pause}");
    assert_eq!(integrity(&data), "ok");

    std::fs::remove_file(&filler).unwrap();
    let full = results(&finished(&data));
    until_async("2 more games after space came back, no cut files", || {
        let now = finished(&data);
        let repaired = now.iter().all(|game| game.3 != "incomplete");
        event.play_paused().is_none() && repaired && now.len() >= full.len() + 2
    })
    .await;
    let resumed = event
        .status()
        .play_resumed
        .expect("the page says when play resumed");
    assert!(resumed.resumed_at >= resumed.paused_at);
    handle.stop();
    rounds.await.unwrap();
    retention.await.unwrap();
    let page = games_page(event.store(), 1, 100_000).unwrap();
    assert!(page.running.is_empty(), "{:?}", page.running);
    let now = results(&finished(&data));
    for game in before.iter().chain(&full) {
        assert!(now.contains(game), "game {} changed or lost", game.0);
    }
    // Every finished game's record gives its files back, byte for byte (those whose folder
    // was deleted: the result the database has).
    for game in page.games.iter().filter(|game| game.state == "finished") {
        assert_ne!(game.files, GameFiles::Incomplete);
        let compact = compact_game(event.store(), game.number).unwrap().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let folder = data.join(GAMES_DIR).join(format!("game-{}", game.number));
        let kept = folder.is_dir();
        assert_eq!(
            kept,
            game.files != GameFiles::Pruned,
            "game {}",
            game.number
        );
        let done = regenerate_game(
            game.number,
            &compact,
            kept.then_some(folder.as_path()),
            &scratch.path().join("kept"),
            &scratch.path().join("replayed"),
            Comparison::Exact,
        )
        .unwrap();
        assert_eq!(done.report.difference, None, "game {}", game.number);
        let result = done.report.result.as_ref().unwrap();
        assert_eq!(
            dealer::event::archive::database_disagrees(event.store(), game.number, result).unwrap(),
            None
        );
        if kept {
            assert!(
                done.report.compared.iter().any(|file| file == "log.json"),
                "game {}: {:?}",
                game.number,
                done.report.compared
            );
            let written: serde_json::Value =
                serde_json::from_slice(&std::fs::read(folder.join("result.json")).unwrap())
                    .unwrap();
            assert_eq!(written["hands_played"], serde_json::json!(game.hands));
        }
    }
    assert_eq!(integrity(&data), "ok");
}

/// Eight house bots at tables of four (two games at a time), as the organiser of issue 40 ran
/// them; `dealer serve --disk-budget off --min-free-space off`, so that only the games
/// themselves fill the disk and nothing but a record makes room.
const EIGHT_BOTS: &str = r#"
seed = 40
pause_ms = 1
recheck_ms = 100
table_size = 4
hand_limit = 60
[[bot]]
name = "ann"
kind = "raiser"
[[bot]]
name = "bob"
kind = "calling-station"
[[bot]]
name = "cy"
kind = "random"
[[bot]]
name = "di"
kind = "raiser"
[[bot]]
name = "ed"
kind = "calling-station"
[[bot]]
name = "flo"
kind = "random"
[[bot]]
name = "gus"
kind = "loose"
[[bot]]
name = "hal"
kind = "tight"
"#;

/// What the log says when game folders were deleted to record a game.
const CACHE_GAVE_WAY: &str = "game folders deleted to record game";

/// The flags the organiser of issue 40 served with.
const NO_LIMITS: [&str; 4] = ["--disk-budget", "off", "--min-free-space", "off"];

/// The games a server's log said finished: recorded (`game finished`), or finished and waiting
/// to be recorded (`game N finished but ...`).
fn said_finished(log: &Path) -> std::collections::BTreeSet<u32> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let mut games = std::collections::BTreeSet::new();
    for line in text.lines() {
        if line.contains("game finished") {
            if let Some(number) = line
                .split_whitespace()
                .find_map(|word| word.strip_prefix("game="))
            {
                games.insert(number.parse().unwrap());
            }
        }
        let mut words = line.split_whitespace().peekable();
        while let Some(word) = words.next() {
            if word == "game" {
                if let Some(number) = words.peek().and_then(|next| next.parse::<u32>().ok()) {
                    let rest: Vec<&str> = words.clone().skip(1).take(2).collect();
                    if rest == ["finished", "but"] {
                        games.insert(number);
                    }
                }
            }
        }
    }
    games
}

/// Whether game `number` is past its first hands (its log over 30 KB).
fn under_way(data: &Path, number: u32) -> bool {
    let log = data.join(GAMES_DIR).join(format!("game-{number}/log.json"));
    std::fs::metadata(log).is_ok_and(|meta| meta.len() > 30_000)
}

/// A reader holding a snapshot of the event's database (as a `sqlite3` shell left open in a
/// transaction does): its write-ahead log cannot start over, so every write needs new space
/// and the first record on a full disk is one that fails.
fn hold_a_snapshot(data: &Path) -> rusqlite::Connection {
    let reader = rusqlite::Connection::open_with_flags(
        data.join("event.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    reader.execute_batch("BEGIN").unwrap();
    let _: i64 = reader
        .query_row("SELECT count(*) FROM games", [], |row| row.get(0))
        .unwrap();
    reader
}

/// A server's log, also shown with `--nocapture` when `SHOW_LOG` is set.
fn server_log(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    if std::env::var_os("SHOW_LOG").is_some() {
        eprintln!("{text}");
    }
    text
}

/// Writes `bytes` of ballast in `path` (as the organiser of issue 40 had 6 MB of other files
/// on the disk).
fn ballast(path: &Path, bytes: usize) {
    let mut file = std::fs::File::create(path).unwrap();
    file.write_all(&vec![9u8; bytes]).unwrap();
    file.sync_all().unwrap();
}

/// Issue 40 as tried: a 24 MB tmpfs with 6 MB of ballast, eight house bots, no disk budget
/// and no free-space margin. The games fill the disk; the reserve is spent on a record; the
/// next finished games can be recorded only by deleting the files of games already recorded
/// (a cache their records regenerate). The organiser stops the server by SIGTERM: it exits 0,
/// and after the ballast is removed and the server restarted, every game it said finished is
/// finished and `dealer replay` reproduces it.
#[test]
fn a_full_disk_and_a_stop_lose_no_finished_game_while_cached_files_can_go() {
    let disk = match SmallDisk::mount("24m") {
        Ok(disk) => disk,
        Err(reason) => {
            eprintln!("skipped: cannot mount a small tmpfs to fill ({reason}); run as root");
            return;
        }
    };
    let logs = tempfile::tempdir().unwrap();
    let config = logs.path().join("event.toml");
    std::fs::write(&config, EIGHT_BOTS).unwrap();
    let ballast_file = disk.path().join("ballast");
    ballast(&ballast_file, 6 << 20);
    let data = disk.path().join("event");
    let log = logs.path().join("first.log");
    let (mut server, url) = serve_with(&config, &data, &log, &NO_LIMITS);
    until("3 games", || finished(&data).len() >= 3);
    let reader = hold_a_snapshot(&data);
    // The games fill the disk; it is kept full while a game is under way (as a runaway log
    // would), until a finished game needs more room than the reserve: recorded by deleting
    // cached files (before issue 40: left waiting). A round that could not start on the full
    // disk gets room back.
    until("a finished game that the reserve could not record", || {
        if lines_with(&log, CACHE_GAVE_WAY) >= 1 {
            return true;
        }
        let error = status(&url)["storage_error"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if error.contains("finished but") {
            return true;
        }
        let playing = running(&data);
        if playing.iter().any(|&number| under_way(&data, number)) {
            disk.fill();
        } else if playing.is_empty() && error.contains("cannot record a new game") {
            let _ = std::fs::remove_file(disk.path().join("filler"));
        }
        false
    });
    let code = terminate(&mut server);
    drop(reader);
    let first = server_log(&log);
    assert_eq!(code, Some(0), "the stop lost nothing: {first}");
    let said = said_finished(&log);
    assert!(said.len() >= 3, "{said:?}: {first}");

    std::fs::remove_file(&ballast_file).unwrap();
    let log = logs.path().join("second.log");
    let (mut server, _url) = serve_with(&config, &data, &log, &NO_LIMITS);
    // Stopped once it plays again.
    until("a round started after the restart", || {
        lines_with(&log, "round starts") >= 1
    });
    assert_eq!(terminate(&mut server), Some(0));
    let recorded: Vec<u32> = finished(&data).iter().map(|game| game.0).collect();
    for number in &said {
        assert!(
            recorded.contains(number),
            "game {number} was said finished and is not: {recorded:?}; {first}"
        );
        replay_passes(&data, *number);
    }
    assert_eq!(integrity(&data), "ok");
}

/// The finished games `dealer serve`'s last words (`error: finished games 7, 8 could not be
/// recorded and are lost: ...`) name as lost.
fn named_lost(log: &Path) -> std::collections::BTreeSet<u32> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let Some(line) = text
        .lines()
        .find(|line| line.starts_with("error: ") && line.contains("could not be recorded and"))
    else {
        return std::collections::BTreeSet::new();
    };
    let after = line
        .split_once("finished game")
        .map_or("", |(_, rest)| rest);
    let numbers = after.split(" could not").next().unwrap_or_default();
    numbers
        .trim_start_matches('s')
        .split(',')
        .map(|number| number.trim().parse().unwrap())
        .collect()
}

/// The state the database gives game `number`, and why it was abandoned.
fn game_state(data: &Path, number: u32) -> (String, Option<String>) {
    let db = rusqlite::Connection::open_with_flags(
        data.join("event.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    db.query_row(
        "SELECT state, reason FROM games WHERE number = ?1",
        [number],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )
    .unwrap()
}

/// Issue 40's second case: nothing can be freed. The event's database is on a small disk and
/// its games' folders on another (a tmpfs mounted on `DATA/games`), so deleting them would
/// give the database no room: none is deleted. The database's disk fills during a game (with
/// less free than the reserve needs, so there is none, and a reader holding a snapshot, as a
/// `sqlite3` shell left open does, so its write-ahead log cannot start over and the first
/// write after the fill is the finished game's record); the game waits in memory; SIGTERM
/// exits 1 naming the finished games lost. After a restart with room, exactly those are
/// abandoned, and every other game the server said finished is finished and replays.
#[test]
fn a_stop_that_cannot_make_room_exits_1_naming_the_finished_games_it_loses() {
    let disk = match SmallDisk::mount("16m") {
        Ok(disk) => disk,
        Err(reason) => {
            eprintln!("skipped: cannot mount a small tmpfs to fill ({reason}); run as root");
            return;
        }
    };
    let data = disk.path().join("event");
    let games = data.join(GAMES_DIR);
    std::fs::create_dir_all(&games).unwrap();
    let _games_disk = SmallDisk::mount_on("64m", &games).unwrap();
    // Less free than the reserve and the write-ahead log take: no reserve is made.
    disk.fill_leaving(3 << 20);
    let logs = tempfile::tempdir().unwrap();
    let config = logs.path().join("event.toml");
    std::fs::write(&config, EIGHT_BOTS).unwrap();
    let log = logs.path().join("first.log");
    let (mut server, url) = serve_with(&config, &data, &log, &NO_LIMITS);
    until("3 games", || finished(&data).len() >= 3);
    assert!(
        !data.join(dealer::event::space::RESERVE_FILE).exists(),
        "a reserve on a disk without room for it"
    );
    let reader = hold_a_snapshot(&data);
    until("a game under way", || !running(&data).is_empty());
    disk.fill();
    until("a finished game waiting to be recorded", || {
        status(&url)["storage_error"].as_str().is_some_and(|error| {
            error.contains("finished but")
                || (error.contains("wait to be recorded (finished: ")
                    && !error.contains("finished: none"))
        })
    });
    let code = terminate(&mut server);
    let first = server_log(&log);
    assert_eq!(code, Some(1), "{first}");
    let named = named_lost(&log);
    assert!(!named.is_empty(), "no game named lost: {first}");
    assert!(
        first.contains("count for nobody") || first.contains("counts for nobody"),
        "{first}"
    );
    // Nothing was deleted for nothing: every recorded game keeps its folder.
    for (number, _, _, files) in finished(&data) {
        assert!(
            games.join(format!("game-{number}")).is_dir(),
            "game {number}'s folder ({files}) was deleted, though that gave the database no room"
        );
    }
    let said = said_finished(&log);
    drop(reader);

    std::fs::remove_file(disk.path().join("filler")).unwrap();
    let log = logs.path().join("second.log");
    let (mut server, _url) = serve_with(&config, &data, &log, &NO_LIMITS);
    until("a round started after the restart", || {
        lines_with(&log, "round starts") >= 1
    });
    assert_eq!(terminate(&mut server), Some(0));
    let recorded: std::collections::BTreeSet<u32> =
        finished(&data).iter().map(|game| game.0).collect();
    let lost: std::collections::BTreeSet<u32> = said.difference(&recorded).copied().collect();
    assert_eq!(lost, named, "the games lost are the games named: {first}");
    for number in &named {
        let (state, reason) = game_state(&data, *number);
        assert_eq!(state, "abandoned", "game {number}: {reason:?}");
    }
    for number in said.intersection(&recorded) {
        replay_passes(&data, *number);
    }
    assert_eq!(integrity(&data), "ok");
}

/// A compression a full disk cuts leaves no partial `X.gz.tmp` behind: it would hold the space
/// a record needs until the next start repairs the folder.
#[test]
fn a_compression_a_full_disk_cuts_leaves_no_partial_file() {
    let disk = match SmallDisk::mount("4m") {
        Ok(disk) => disk,
        Err(reason) => {
            eprintln!("skipped: cannot mount a small tmpfs to fill ({reason}); run as root");
            return;
        }
    };
    let game = disk.path().join("game-1");
    std::fs::create_dir(&game).unwrap();
    // 2.5 MB that gzip cannot make smaller: with it, the disk has no room for its copy.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let noise: Vec<u8> = (0..2_500_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    std::fs::write(game.join("log.json"), &noise).unwrap();
    let free = dealer::event::space::free_bytes(disk.path()).unwrap();
    let error = dealer::event::retention::compress_game(&game, &StopSignal::never()).unwrap_err();
    assert!(error.to_string().contains("No space left"), "{error}");
    assert!(!game.join("log.json.gz.tmp").exists());
    assert_eq!(std::fs::read(game.join("log.json")).unwrap(), noise);
    assert_eq!(dealer::event::space::free_bytes(disk.path()).unwrap(), free);
}
