//! `dealer replay GAME_DIR`: a recorded game played again from its folder, its logs compared
//! with the recorded ones ([`crate::replay`]). A game of an event (`DATA/games/game-<n>`,
//! beside `DATA/event.sqlite`) is played from its compact record in the event's database,
//! and compared with whatever files its folder still holds (files a full disk cut: what
//! survived must be the start of what the record gives), or, its folder deleted, with the
//! result the database recorded.

use super::args::ReplayArgs;
use super::{report, Failure};
use crate::event::store::{EventStore, GameFiles, DATABASE_FILE, GAMES_DIR};
use crate::observe::compact::CompactGame;
use crate::replay::replay as replay_game;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Replays the game folder and says whether its logs come out identical.
///
/// # Errors
/// Code 2 for a folder that cannot be replayed (a missing or malformed record), 1 for a
/// replay whose logs differ (the first difference is the message) or cannot be written.
pub fn replay(args: ReplayArgs) -> Result<(), Failure> {
    let (scratch, chosen) = match args.out.clone() {
        Some(out) => (out, true),
        None => (temporary_dir(), false),
    };
    if chosen && scratch.exists() && scratch.read_dir().map_or(true, |mut d| d.next().is_some()) {
        return Err(Failure::usage(format!(
            "{} is not an empty folder; choose another --out",
            scratch.display()
        )));
    }
    if let Some(event_game) = EventGame::of(&args.game_dir) {
        return replay_event_game(&args, &event_game, scratch, chosen);
    }
    // An event's compressed or compact game: its stored files are read through a scratch
    // copy of their plain bytes, and its full logs are written again as for any other folder.
    let stored = crate::replay::is_stored_form(&args.game_dir);
    let outcome = if stored {
        let recorded = temporary_dir().with_extension("recorded");
        let outcome = crate::replay::regenerate_into(&args.game_dir, &recorded, &scratch);
        let _ = std::fs::remove_dir_all(&recorded);
        outcome
    } else {
        replay_game(&args.game_dir, &scratch)
    };
    let report = match outcome {
        Ok(report) => report,
        Err(error) => {
            if !chosen {
                let _ = std::fs::remove_dir_all(&scratch);
            }
            return Err(match error {
                crate::replay::ReplayError::Write { .. } => Failure::run(error.to_string()),
                other => Failure::usage(other.to_string()),
            });
        }
    };
    let summary = format!(
        "Replayed {}: {} hands, {} recorded answers; compared {}.\n",
        args.game_dir.display(),
        report.hands,
        report.answers,
        compared_list(&report.compared)
    );
    report::print(&summary);
    if stored {
        report::print(&format!(
            "Read the stored form (.gz files) of {}; the full logs were written again{}.\n",
            args.game_dir.display(),
            if chosen {
                format!(" into {}", scratch.display())
            } else {
                " (--out FOLDER keeps them)".to_string()
            }
        ));
    }
    match report.difference {
        None => {
            if !chosen {
                let _ = std::fs::remove_dir_all(&scratch);
            }
            report::print("Identical: the replay wrote the same logs byte for byte (players/*.log are not compared: check, version and showdown are not recorded).\n");
            Ok(())
        }
        Some(difference) => Err(Failure::run(format!(
            "the replay differs: {difference} (replayed logs in {})",
            scratch.display()
        ))),
    }
}

/// The compared files as a list to print, the hand histories counted.
fn compared_list(compared: &[String]) -> String {
    let hands = compared
        .iter()
        .filter(|file| file.starts_with("hands/"))
        .count();
    let mut files: Vec<String> = compared
        .iter()
        .filter(|file| !file.starts_with("hands/"))
        .cloned()
        .collect();
    if hands > 0 {
        files.push(format!("hands/ ({hands} files)"));
    }
    files.join(", ")
}

/// A game folder of an event whose database keeps its record.
struct EventGame {
    store: EventStore,
    number: u32,
    compact: CompactGame,
}

impl EventGame {
    /// `DATA/games/game-<n>` (the folder itself may be gone) of an event whose database (this
    /// dealer's schema) keeps game n's record; `None` otherwise (the folder is replayed as
    /// any other).
    fn of(game_dir: &Path) -> Option<EventGame> {
        let name = game_dir.file_name()?.to_str()?;
        let number: u32 = name.strip_prefix("game-")?.parse().ok()?;
        let games = game_dir.parent()?;
        if games.file_name()? != GAMES_DIR {
            return None;
        }
        let data = games.parent()?;
        if !data.join(DATABASE_FILE).is_file() {
            return None;
        }
        let store = EventStore::open_read_only(data).ok()?;
        let compact = crate::event::archive::compact_game(&store, number).ok()??;
        Some(EventGame {
            store,
            number,
            compact,
        })
    }
}

impl EventGame {
    /// Whether the game's folder `dir` holds files a full disk cut: the database says so, or
    /// the game is finished and its folder has no `result.json`, the last file a game writes
    /// (`event::cut_files`).
    fn files_cut(&self, dir: &Path) -> Result<bool, Failure> {
        let files = self
            .store
            .finished_game_files(self.number)
            .map_err(|error| Failure::run(error.to_string()))?;
        Ok(match files {
            Some(game) if game.files == GameFiles::Incomplete => true,
            Some(game) if game.finished => {
                matches!(game.files, GameFiles::Kept | GameFiles::Compressed)
                    && !dir.join(crate::event::outcome_files::RESULT_FILE).is_file()
            }
            _ => false,
        })
    }
}

/// Replays an event game from its record; compares with its folder's files, or, with none
/// left, checks the replayed result against the database.
fn replay_event_game(
    args: &ReplayArgs,
    game: &EventGame,
    out: PathBuf,
    chosen: bool,
) -> Result<(), Failure> {
    let kept = temporary_dir().with_extension("kept");
    let folder = args.game_dir.is_dir().then_some(args.game_dir.as_path());
    let cut = folder.is_some() && game.files_cut(&args.game_dir)?;
    if cut {
        report::print(&format!(
            "The files of {} were cut by a full disk: the game is its record in the event's database; what survived is compared with the start of what the record regenerates.\n",
            args.game_dir.display()
        ));
    }
    let replayed = crate::event::archive::regenerate_game(
        game.number,
        &game.compact,
        folder,
        &kept,
        &out,
        if cut {
            crate::replay::Comparison::Survived
        } else {
            crate::replay::Comparison::Exact
        },
    );
    let _ = std::fs::remove_dir_all(&kept);
    let report = match replayed {
        Ok(done) => done.report,
        Err(error) => {
            if !chosen {
                let _ = std::fs::remove_dir_all(&out);
            }
            return Err(Failure::run(error.to_string()));
        }
    };
    let compared = if report.compared.is_empty() {
        "nothing (its folder holds none of the files)".to_string()
    } else {
        compared_list(&report.compared)
    };
    report::print(&format!(
        "Replayed {} from its record in the event's database: {} hands, {} recorded answers; compared {compared}.\n",
        args.game_dir.display(),
        report.hands,
        report.answers,
    ));
    let disagreement = match &report.result {
        Some(result) => crate::event::archive::database_disagrees(&game.store, game.number, result)
            .map_err(|error| Failure::run(error.to_string()))?,
        None => Some("the replay did not reach the game's end".to_string()),
    };
    let kept_note = if chosen {
        format!(" (the files are in {})", out.display())
    } else {
        " (--out FOLDER keeps them)".to_string()
    };
    match (report.difference, disagreement) {
        (None, None) => {
            if !chosen {
                let _ = std::fs::remove_dir_all(&out);
            }
            let identical = if cut {
                "Identical: what survived of the game's files is the start of what its record wrote again"
            } else {
                "Identical: the record wrote the game's files again byte for byte"
            };
            report::print(&format!(
                "{identical}{kept_note}, and its result is the database's (players/*.log are not regenerated: check, version and showdown are not recorded).\n"
            ));
            Ok(())
        }
        (Some(difference), _) => Err(Failure::run(format!(
            "the replay differs: {difference} (replayed logs in {})",
            out.display()
        ))),
        (None, Some(disagreement)) => Err(Failure::run(format!(
            "the replay's result is not the database's: {disagreement}"
        ))),
    }
}

/// A fresh folder under the system's temporary folder.
fn temporary_dir() -> PathBuf {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos());
    std::env::temp_dir().join(format!("dealer-replay-{}-{nanos}", std::process::id()))
}
