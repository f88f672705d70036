//! A full disk on the event's day (issue 26): a small tmpfs filled during play, by a file
//! the test writes until the disk has no byte left. No finished game is lost, whether the
//! server then goes on, is stopped by SIGTERM or killed by `kill -9` while the disk is full;
//! play pauses with its reason (said once) and resumes by itself when space is back; the
//! files of the games that ended on the full disk are written again from their records; every
//! finished game replays identically (`dealer replay`), and the database passes its
//! integrity check. Needs root (to mount the tmpfs): skipped with a message otherwise.

use dealer::event::archive::{compact_game, regenerate_game};
use dealer::event::queries::games_page;
use dealer::event::store::{GameFiles, GAMES_DIR};
use dealer::event::{scheduler, Event};
use dealer::replay::Comparison;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// Mounts a `size` tmpfs, or says why not (not root, no mount permission in a container).
    fn mount(size: &str) -> Result<SmallDisk, String> {
        let dir = tempfile::tempdir().map_err(|error| error.to_string())?;
        let output = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .output()
            .map_err(|error| format!("cannot run mount: {error}"))?;
        if !output.status.success() {
            return Err(String::from_utf8_lossy(&output.stderr).trim().to_string());
        }
        Ok(SmallDisk { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
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
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
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
    let _ = db.busy_timeout(Duration::from_secs(5));
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
/// full disk: most of the disk first, the last few MB once a game is under way.
fn fill_during_a_game(disk: &SmallDisk, data: &Path) -> PathBuf {
    disk.fill_leaving(6 << 20);
    wait_for("a game under way", 30, || {
        let Ok(db) = rusqlite::Connection::open_with_flags(
            data.join("event.sqlite"),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        ) else {
            return false;
        };
        let running: Vec<u32> = db
            .prepare("SELECT number FROM games WHERE state = 'running'")
            .and_then(|mut statement| {
                statement
                    .query_map([], |row| row.get(0))?
                    .collect::<Result<_, _>>()
            })
            .unwrap_or_default();
        running.iter().any(|number| {
            let log = data.join(GAMES_DIR).join(format!("game-{number}/log.json"));
            std::fs::metadata(log).is_ok_and(|meta| meta.len() > 30_000)
        })
    });
    disk.fill()
}

fn wait_for(what: &str, seconds: u64, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(
            started.elapsed() < Duration::from_secs(seconds),
            "{what}: not within {seconds} s"
        );
        std::thread::sleep(Duration::from_millis(20));
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
    let mut child = Command::new(env!("CARGO_BIN_EXE_dealer"))
        .env("RUST_LOG", "info")
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
    let url = first
        .split_whitespace()
        .find(|word| word.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {first:?}"))
        .trim_end_matches("event")
        .to_string();
    (Server(child), url)
}

/// `/api/event` of the server at `url`.
fn status(url: &str) -> serde_json::Value {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let answer = reqwest::Client::new()
            .get(format!("{url}api/event"))
            .send()
            .await;
        match answer {
            Ok(answer) => serde_json::from_slice(&answer.bytes().await.unwrap_or_default())
                .unwrap_or_default(),
            Err(_) => serde_json::Value::Null,
        }
    })
}

fn terminate(Server(child): &mut Server) {
    // SAFETY: kill(2) on our own child's pid.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server did not stop within 30 s of SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn lines_with(log: &Path, text: &str) -> usize {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|line| line.contains(text))
        .count()
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
    std::fs::write(
        &config,
        CONFIG
            .replace("compress_after = 2", "compress_after = 100000")
            .replace("pause_ms = 1", "pause_ms = 100"),
    )
    .unwrap();
    let data = disk.path().join("event");
    let mut kept: Vec<(u32, i64, String)> = Vec::new();
    let mut cut_files = 0;

    // 1. Filled during play: play pauses (its reason in the API, said once in the log);
    //    emptied: play resumes; filled again, stopped by SIGTERM while full.
    let log = logs.path().join("first.log");
    let (mut child, url) = serve(&config, &data, &log);
    wait_for("4 games", 60, || finished(&data).len() >= 4);
    let filler = fill_during_a_game(&disk, &data);
    wait_for("play paused", 30, || {
        status(&url)["play_paused"].is_object()
    });
    let paused = status(&url);
    let reason = paused["play_paused"]["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("min_free_space") && reason.contains("margin"),
        "{paused}"
    );
    // Many rechecks at 100 ms: the pause is said once, not at every one.
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        status(&url)["play_paused"]["since"],
        paused["play_paused"]["since"]
    );
    let before = finished(&data);
    std::fs::remove_file(&filler).unwrap();
    wait_for("play resumed", 30, || {
        status(&url)["play_resumed"].is_object() && finished(&data).len() >= before.len() + 2
    });
    let filler = fill_during_a_game(&disk, &data);
    wait_for("play paused again", 30, || {
        status(&url)["play_paused"].is_object()
    });
    std::thread::sleep(Duration::from_millis(500));
    kept.extend(results(&finished(&data)));
    terminate(&mut child);
    assert_eq!(lines_with(&log, "play paused"), 2, "once per pause");
    assert_eq!(lines_with(&log, "play resumes"), 1);
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
    wait_for("3 more games", 60, || finished(&data).len() >= count + 3);
    let filler = fill_during_a_game(&disk, &data);
    wait_for("play paused", 30, || {
        status(&url)["play_paused"].is_object()
    });
    std::thread::sleep(Duration::from_millis(500));
    kept.extend(results(&finished(&data)));
    child.0.kill().unwrap(); // SIGKILL
    child.0.wait().unwrap();
    cut_files += lines_with(&log, "its files could not all be written");
    assert!(
        cut_files >= 1,
        "no game ended while the disk was full: the test did not test it"
    );

    // 3. Restarted with space back: the cut files are written again from the records.
    std::fs::remove_file(&filler).unwrap();
    let log = logs.path().join("third.log");
    let (mut child, _url) = serve(&config, &data, &log);
    let count = finished(&data).len();
    wait_for("cut files rewritten and 2 more games", 60, || {
        let now = finished(&data);
        now.len() >= count + 2 && now.iter().all(|game| game.3 != "incomplete")
    });
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
        let game = data.join(GAMES_DIR).join(format!("game-{number}"));
        let replay = Command::new(env!("CARGO_BIN_EXE_dealer"))
            .env_remove("RUST_LOG")
            .arg("replay")
            .arg(&game)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&replay.stdout);
        assert!(
            replay.status.success() && said.contains("Identical") && said.contains("log.json"),
            "game {number}: {said}{}",
            String::from_utf8_lossy(&replay.stderr)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disk_filled_during_play_pauses_play_until_there_is_room_and_cut_files_are_written_again()
{
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
    let games = |event: &Event| event.status().games_finished;
    let started = Instant::now();
    while games(&event) < 4 {
        assert!(started.elapsed() < Duration::from_secs(60), "4 games");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        event.reserve().is_held(),
        "the reserve is made while there is room"
    );
    let before = results(&finished(&data));
    // Filled by something else: play pauses (the old games' files deleted to make room, and
    // the reserve given to the records, may bring it back above the margin by themselves).
    let filler = disk.fill();
    let started = Instant::now();
    while event.play_paused().is_none() && event.status().play_resumed.is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "play did not pause"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let pause = event
        .play_paused()
        .map(|pause| pause.reason)
        .or_else(|| event.status().play_resumed.map(|resumed| resumed.reason))
        .unwrap();
    assert!(pause.contains("min_free_space"), "{pause}");
    assert_eq!(integrity(&data), "ok");

    std::fs::remove_file(&filler).unwrap();
    let full = results(&finished(&data));
    let freed = Instant::now();
    loop {
        let now = finished(&data);
        let rewritten = now.iter().all(|game| game.3 != "incomplete");
        if event.play_paused().is_none() && rewritten && now.len() >= full.len() + 2 {
            break;
        }
        assert!(
            freed.elapsed() < Duration::from_secs(60),
            "no game after space came back: {:?} {:?}",
            event.play_paused(),
            event.storage_error()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
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
