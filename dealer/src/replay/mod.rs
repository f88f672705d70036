//! Replaying a recorded game (`dealer replay game-<n>/`): the engine plays the game again from
//! its folder, with no player: the setup from `game.json`, every hand's cards from
//! `decks.jsonl`, and every answer (with its latency, and its failure: timeouts and bad
//! answers ban again with the same reason) from `requests.jsonl`. The same observers write
//! the logs into another folder, and [`replay`] compares them with the recorded ones byte for
//! byte, reporting the first difference.
//!
//! Compared: `log.json`, `requests.jsonl`, `decks.jsonl`, `game.json`, `hands/*.phh` and
//! `hands.phhs`, those the recorded folder has. Not compared: `players/*.log`, which also show
//! the `check`, `version` and `showdown` exchanges and wall-clock times that no file records.
//!
//! [`regenerate`] does the same for a game an event thinned to its compact form (inputs
//! gzip-compressed, no `log.json`): the viewer opens such a game with the logs it writes.
//! [`replay_compact`] plays an event game from its compact record (`observe::compact`, kept
//! in the event's database), the cards dealt from the seed, and writes every file the game
//! wrote but the players' logs; it compares them with the files a folder still holds.
//!
//! The replay stops where the recording does: when the engine asks for an answer that
//! `requests.jsonl` does not hold (the game was stopped, or the replay took another path), or
//! for another seat or hand than the next recorded answer; the comparison then shows where.

use crate::engine::{DeckSource, Game, GameSetup, SeatAnswer, SetupError, Step, TableStart};
use crate::game_event::GameEvent;
use crate::observe::compact::{CompactGame, RecordedAnswer};
use crate::observe::{
    read_decks, read_game_record, DecksFileError, Exchange, GameOutputs, GameRecord, Observer,
    OutputSelection,
};
use crate::result::GameResult;
use crate::seat::SeatFailure;
use compare::{compared_files, copy_kept, first_difference};
use shared::protocol::{parse_bet_answer, Action};
use shared::records::RequestRecord;
use shared::Seat;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};
use thiserror::Error;

mod compare;

pub use compare::{Comparison, Difference};

/// What `requests.jsonl` records of one `bet_request` and how it was answered, through the
/// one definition of the format (the document sent is not needed: the engine rebuilds it, and
/// the comparison checks it).
type RecordedRequest = RequestRecord<serde::de::IgnoredAny>;

/// Why a folder cannot be replayed.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// A file the replay needs is not in the folder.
    #[error("{} has no {file}: a replay needs game.json, decks.jsonl and requests.jsonl (written by default; --outputs decks,requests)", dir.display())]
    Missing {
        /// The game folder.
        dir: PathBuf,
        /// The file.
        file: &'static str,
    },
    /// `game.json` cannot be read.
    #[error("{0}")]
    GameRecord(String),
    /// `decks.jsonl` cannot be read.
    #[error(transparent)]
    Decks(#[from] DecksFileError),
    /// A line of `requests.jsonl` that cannot be replayed.
    #[error("{}, line {line}: {message}", path.display())]
    Request {
        /// The file.
        path: PathBuf,
        /// 1-based.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The engine refuses the recorded setup.
    #[error("the recorded setup cannot be played: {0}")]
    Setup(#[from] SetupError),
    /// The replayed logs cannot be written.
    #[error("cannot write the replayed logs in {}: {source}", dir.display())]
    Write {
        /// The folder.
        dir: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The observer of a replay that writes nothing failed ([`play_compact`]).
    #[error("the replay's observer failed: {0}")]
    Observer(io::Error),
}

/// How a replay went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayReport {
    /// Hands the replay played.
    pub hands: u64,
    /// Recorded answers fed back.
    pub answers: usize,
    /// Files compared, relative to the game folder.
    pub compared: Vec<String>,
    /// The first difference, if any.
    pub difference: Option<Difference>,
    /// The replayed game's result, when it reached its end.
    pub result: Option<GameResult>,
}

/// Replays the game recorded in `dir`, writes the replayed logs into `scratch` (created; it
/// should be empty) and compares them with the recorded ones.
///
/// # Errors
/// A [`ReplayError`] when the folder cannot be replayed (a missing or malformed record) or the
/// replayed logs cannot be written. Differences are not errors: see
/// [`ReplayReport::difference`].
pub fn replay(dir: &Path, scratch: &Path) -> Result<ReplayReport, ReplayError> {
    replay_selected(dir, scratch, false)
}

/// Plays a game an event stored (each file as written or gzip-compressed, see
/// [`crate::stored`]; a compact game has no `log.json` left) again, and writes its full logs
/// into `scratch/replayed`: `log.json`, `requests.jsonl`, `decks.jsonl`, `game.json` and the
/// hand histories the folder keeps. Returns that folder and the comparison with what the
/// stored folder still holds (its replay inputs always, `log.json` and the hand histories when
/// kept): the viewer serves a regenerated log only without a difference, and retention deletes
/// a full log only after its replay reproduced it byte for byte.
///
/// # Errors
/// As [`replay`]; the stored files cannot be read or decompressed into `scratch/recorded`.
pub fn regenerate(dir: &Path, scratch: &Path) -> Result<(PathBuf, ReplayReport), ReplayError> {
    let replayed = scratch.join("replayed");
    let report = regenerate_into(dir, &scratch.join("recorded"), &replayed)?;
    Ok((replayed, report))
}

/// Whether `dir` holds any file only in its stored (gzip-compressed) form, so that only
/// [`regenerate_into`] can replay it: an event's compressed or compact game.
pub fn is_stored_form(dir: &Path) -> bool {
    [
        GameOutputs::game_record_path(dir),
        GameOutputs::decks_path(dir),
        GameOutputs::requests_path(dir),
        GameOutputs::viewer_log_path(dir),
        GameOutputs::hands_file_path(dir),
    ]
    .iter()
    .any(|path| !path.exists() && crate::stored::compressed_path(path).is_file())
}

/// [`regenerate`] with the two folders chosen: the stored files' plain bytes go into
/// `recorded` (a scratch folder), the replayed full logs into `replayed`, as `dealer replay`
/// writes them for a folder whose files were never compressed.
///
/// # Errors
/// As [`regenerate`].
pub fn regenerate_into(
    dir: &Path,
    recorded: &Path,
    replayed: &Path,
) -> Result<ReplayReport, ReplayError> {
    let recorded = recorded.to_path_buf();
    let write_error = |source| ReplayError::Write {
        dir: recorded.clone(),
        source,
    };
    std::fs::create_dir_all(&recorded).map_err(write_error)?;
    let inputs = [
        GameOutputs::game_record_path(Path::new("")),
        GameOutputs::decks_path(Path::new("")),
        GameOutputs::requests_path(Path::new("")),
    ];
    for name in &inputs {
        if crate::stored::find(&dir.join(name)).is_none() {
            return Err(ReplayError::Missing {
                dir: dir.to_path_buf(),
                file: match name.to_str() {
                    Some("game.json") => "game.json",
                    Some("decks.jsonl") => "decks.jsonl",
                    _ => "requests.jsonl",
                },
            });
        }
    }
    let kept = [
        GameOutputs::viewer_log_path(Path::new("")),
        GameOutputs::hands_file_path(Path::new("")),
    ];
    for name in inputs.iter().chain(&kept) {
        let stored = dir.join(name);
        if crate::stored::find(&stored).is_some() {
            crate::stored::copy_plain(&stored, &recorded.join(name)).map_err(write_error)?;
        }
    }
    let hands = GameOutputs::hands_dir(dir);
    if hands.is_dir() {
        let copy = GameOutputs::hands_dir(&recorded);
        std::fs::create_dir_all(&copy).map_err(write_error)?;
        for entry in std::fs::read_dir(&hands).map_err(write_error)? {
            let entry = entry.map_err(write_error)?;
            std::fs::copy(entry.path(), copy.join(entry.file_name())).map_err(write_error)?;
        }
    }
    replay_selected(&recorded, replayed, true)
}

/// One answer to feed back, with who was asked in which hand when the recording says so
/// (`requests.jsonl` does; a compact record leaves it to the engine).
#[derive(Debug, Clone)]
struct ReplayAnswer {
    asked: Option<(Seat, u64)>,
    answer: RecordedAnswer,
}

/// [`replay`], also writing `log.json` when the recorded folder has none (`write_log`).
fn replay_selected(
    dir: &Path,
    scratch: &Path,
    write_log: bool,
) -> Result<ReplayReport, ReplayError> {
    let need = |file: &'static str| {
        let path = dir.join(file);
        if path.is_file() {
            Ok(path)
        } else {
            Err(ReplayError::Missing {
                dir: dir.to_path_buf(),
                file,
            })
        }
    };
    let record_path = need("game.json")?;
    let decks_path = need("decks.jsonl")?;
    let requests_path = need("requests.jsonl")?;
    let record = read_game_record(&record_path).map_err(ReplayError::GameRecord)?;
    let decks = read_decks(&decks_path)?;
    let answers = read_requests(&requests_path)?;

    let recorded_log = GameOutputs::viewer_log_path(dir).is_file();
    let selection = OutputSelection {
        viewer_log: recorded_log || write_log,
        requests: true,
        hands: GameOutputs::hands_dir(dir).is_dir(),
        hands_file: GameOutputs::hands_file_path(dir).is_file(),
        player_logs: false,
        decks: true,
    };
    let game = recorded_game(&record, DeckSource::Recorded(Arc::new(decks)))?;
    let played = play_into(game, &record, &answers, scratch, selection)?;
    let compared_selection = OutputSelection {
        viewer_log: recorded_log,
        ..selection
    };
    let compared =
        compared_files(dir, scratch, compared_selection).map_err(write_error(scratch))?;
    let difference = first_difference(&compared, dir, scratch, Comparison::Exact)?;
    Ok(played.report(compared, difference))
}

/// Plays an event game from its compact record, dealing from the seed, and writes the files
/// the game wrote (`compact.outputs`, the players' logs excepted) into `out` (created; it
/// should be empty). When `kept` names the game's folder, each file it still holds (plain or
/// gzip-compressed; `scratch` receives their plain bytes) is compared with the replayed one:
/// retention deletes a game's files only after this found no difference.
///
/// # Errors
/// The record's setup cannot be played, or a file cannot be read or written. Differences
/// are not errors: see [`ReplayReport::difference`].
pub fn replay_compact(
    compact: &CompactGame,
    kept: Option<&Path>,
    scratch: &Path,
    out: &Path,
    comparison: Comparison,
) -> Result<ReplayReport, ReplayError> {
    let answers = compact_answers(compact);
    let game = recorded_game(&compact.game, DeckSource::Seeded)?;
    let selection = compact.outputs.selection();
    let played = play_into(game, &compact.game, &answers, out, selection)?;
    let compared = match kept {
        Some(dir) => copy_kept(dir, scratch, selection)?,
        None => Vec::new(),
    };
    let difference = first_difference(&compared, scratch, out, comparison)?;
    Ok(played.report(compared, difference))
}

/// Plays an event game from its compact record through `observer` alone, writing nothing:
/// for a reader of the game's events (the event's luck valuer, `event::luck`). Returns the
/// game's result, `None` when the record stops before the game's end.
///
/// # Errors
/// The record's setup is not a game the engine accepts, or `observer` failed.
pub fn play_compact(
    compact: &CompactGame,
    observer: &mut dyn Observer,
) -> Result<Option<GameResult>, ReplayError> {
    /// Lends the caller's observer to the replay, which owns its observers.
    struct Lent<'a>(&'a mut dyn Observer);
    impl Observer for Lent<'_> {
        fn on_event(&mut self, event: &GameEvent, game: &Game) -> io::Result<()> {
            self.0.on_event(event, game)
        }
        fn on_exchange(&mut self, exchange: &Exchange<'_>, game: &Game) -> io::Result<()> {
            self.0.on_exchange(exchange, game)
        }
        fn finish(&mut self, game: &Game) -> io::Result<()> {
            self.0.finish(game)
        }
    }
    let answers = compact_answers(compact);
    let game = recorded_game(&compact.game, DeckSource::Seeded)?;
    let played = play(
        game,
        &compact.game,
        &answers,
        vec![Box::new(Lent(observer))],
    )
    .map_err(ReplayError::Observer)?;
    Ok(played.result)
}

/// A compact record's answers as the replay takes them (no asked documents: the record keeps
/// none).
fn compact_answers(compact: &CompactGame) -> Vec<ReplayAnswer> {
    compact
        .answers
        .iter()
        .map(|answer| ReplayAnswer {
            asked: None,
            answer: answer.clone(),
        })
        .collect()
}

pub(super) fn write_error(dir: &Path) -> impl Fn(io::Error) -> ReplayError + '_ {
    move |source| ReplayError::Write {
        dir: dir.to_path_buf(),
        source,
    }
}

fn read_requests(path: &Path) -> Result<Vec<ReplayAnswer>, ReplayError> {
    let bad = |line: usize, message: String| ReplayError::Request {
        path: path.to_path_buf(),
        line,
        message,
    };
    let file = std::fs::File::open(path).map_err(|error| bad(0, error.to_string()))?;
    let mut answers = Vec::new();
    for (index, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|error| bad(index + 1, error.to_string()))?;
        if line.trim().is_empty() {
            continue;
        }
        let request: RecordedRequest =
            serde_json::from_str(&line).map_err(|error| bad(index + 1, error.to_string()))?;
        if request.answer.is_none() && request.error.is_none() {
            return Err(bad(index + 1, "neither an answer nor an error".into()));
        }
        answers.push(ReplayAnswer {
            asked: Some((request.seat, request.round)),
            answer: RecordedAnswer {
                text: request.answer,
                error: request.error,
                applied: request.action.is_some(),
                latency_us: request.latency_us,
                unsent_attempts: request.unsent_attempts,
            },
        });
    }
    Ok(answers)
}

/// The game `record` sets up, dealing from `decks`, with the versions shown at its start.
fn recorded_game(record: &GameRecord, decks: DeckSource) -> Result<Game, ReplayError> {
    let setup = GameSetup {
        config: record.config.clone(),
        players: record.players.clone(),
        seed: record.seed,
        tournament_id: record.tournament_id.clone(),
        game_id: record.game_id.clone(),
        decks,
    };
    let table = TableStart {
        round: record.table.round,
        button: record.table.button,
        stacks: record.table.stacks.clone(),
    };
    let mut game = Game::with_table(setup, table)?;
    for (seat, version) in record.versions.iter().enumerate() {
        set_version(&mut game, Seat(seat), version)
            .map_err(|error| ReplayError::GameRecord(format!("game.json: {error}")))?;
    }
    Ok(game)
}

/// What a replay played.
struct Played {
    hands: u64,
    answers: usize,
    result: Option<GameResult>,
}

impl Played {
    fn report(self, compared: Vec<String>, difference: Option<Difference>) -> ReplayReport {
        ReplayReport {
            hands: self.hands,
            answers: self.answers,
            compared,
            difference,
            result: self.result,
        }
    }
}

/// Plays the recorded game, writing the selected files into `out`.
fn play_into(
    game: Game,
    record: &GameRecord,
    answers: &[ReplayAnswer],
    out: &Path,
    selection: OutputSelection,
) -> Result<Played, ReplayError> {
    let observers =
        GameOutputs::create_selected(out, &record.players, selection).map_err(write_error(out))?;
    play(game, record, answers, observers).map_err(write_error(out))
}

/// Plays the recorded game through `observers`.
fn play(
    mut game: Game,
    record: &GameRecord,
    answers: &[ReplayAnswer],
    mut observers: Vec<Box<dyn Observer + '_>>,
) -> io::Result<Played> {
    let mut next = 0;
    let outcome = (|| -> io::Result<()> {
        loop {
            match game.step() {
                Step::Event(event) => {
                    for observer in &mut observers {
                        observer.on_event(&event, &game)?;
                    }
                    if let GameEvent::HandStarted { round, .. } = event {
                        for change in record.version_changes.iter().filter(|c| c.round == round) {
                            set_version(&mut game, change.seat, &change.version)?;
                        }
                    }
                }
                Step::BetRequest { seat } => {
                    let Some(recorded) = answers.get(next) else {
                        return Ok(());
                    };
                    if recorded
                        .asked
                        .is_some_and(|asked| asked != (seat, game.round()))
                    {
                        return Ok(());
                    }
                    next += 1;
                    answer(&mut game, &mut observers, seat, &recorded.answer)?;
                    if !recorded.answer.applied {
                        // Recorded before the engine read it: the game stopped here.
                        return Ok(());
                    }
                }
                Step::Showdown { .. } => {}
                Step::Finished => return Ok(()),
            }
        }
    })();
    for observer in &mut observers {
        observer.finish(&game)?;
    }
    outcome?;
    Ok(Played {
        hands: game.hands_played(),
        answers: next,
        result: game.result().cloned(),
    })
}

fn set_version(game: &mut Game, seat: Seat, version: &str) -> io::Result<()> {
    game.set_version(seat, version.to_string())
        .map_err(|error| io::Error::other(error.to_string()))
}

/// Feeds one recorded answer to the engine as the runner would: the exchange to the
/// observers, the latency to `time_used`, then the answer.
fn answer(
    game: &mut Game,
    observers: &mut [Box<dyn Observer + '_>],
    seat: Seat,
    recorded: &RecordedAnswer,
) -> io::Result<()> {
    let failure = recorded.error.clone().map(SeatFailure::Recorded);
    let seat_answer = match (&failure, &recorded.text) {
        (Some(failure), _) => SeatAnswer::Invalid {
            reason: failure.to_string(),
        },
        (None, Some(text)) => match parse_bet_answer(text.as_bytes()) {
            Ok(chips) => SeatAnswer::Bet(chips),
            Err(invalid) => SeatAnswer::Invalid {
                reason: invalid.to_string(),
            },
        },
        (None, None) => SeatAnswer::Invalid {
            reason: "no answer recorded".into(),
        },
    };
    let latency = Duration::from_micros(recorded.latency_us);
    let unsent_attempts: Vec<SeatFailure> = recorded
        .unsent_attempts
        .iter()
        .cloned()
        .map(SeatFailure::Recorded)
        .collect();
    {
        let state = game.bet_request_state();
        let exchange = Exchange {
            round: game.round(),
            seat,
            player: game.player_name(seat).unwrap_or_default(),
            action: Action::BetRequest,
            sent_at: UNIX_EPOCH,
            state,
            sent_json: None,
            status: None,
            body: recorded.text.as_deref().map(str::as_bytes),
            latency,
            failure: failure.as_ref(),
            unsent_attempts: &unsent_attempts,
        };
        for observer in observers.iter_mut() {
            observer.on_exchange(&exchange, game)?;
        }
    }
    game.add_time_used(seat, recorded.latency_us)
        .map_err(|error| io::Error::other(error.to_string()))?;
    if recorded.applied {
        game.answer(seat_answer)
            .map_err(|error| io::Error::other(error.to_string()))?;
    }
    Ok(())
}
