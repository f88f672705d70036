//! `dealer replay GAME_DIR`: a recorded game played again from its folder, its logs compared
//! with the recorded ones ([`crate::replay`]).

use super::args::ReplayArgs;
use super::{report, Failure};
use crate::replay::replay as replay_game;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

/// Replays the game folder and says whether its logs come out identical.
///
/// # Errors
/// Code 2 for a folder that cannot be replayed (a missing or malformed record), 1 for a
/// replay whose logs differ (the first difference is the message) or cannot be written.
pub fn replay(args: ReplayArgs) -> Result<(), Failure> {
    let (scratch, chosen) = match args.out {
        Some(out) => (out, true),
        None => (temporary_dir(), false),
    };
    if chosen && scratch.exists() && scratch.read_dir().map_or(true, |mut d| d.next().is_some()) {
        return Err(Failure::usage(format!(
            "{} is not an empty folder; choose another --out",
            scratch.display()
        )));
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
    let hands = report
        .compared
        .iter()
        .filter(|file| file.starts_with("hands/"))
        .count();
    let mut files: Vec<String> = report
        .compared
        .iter()
        .filter(|file| !file.starts_with("hands/"))
        .cloned()
        .collect();
    if hands > 0 {
        files.push(format!("hands/ ({hands} files)"));
    }
    let summary = format!(
        "Replayed {}: {} hands, {} recorded answers; compared {}.\n",
        args.game_dir.display(),
        report.hands,
        report.answers,
        files.join(", ")
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

/// A fresh folder under the system's temporary folder.
fn temporary_dir() -> PathBuf {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos());
    std::env::temp_dir().join(format!("dealer-replay-{}-{nanos}", std::process::id()))
}
