//! `--field-from`: the field fitted from recordings, cached in `target/arena/fields/`.
//!
//! A fit is kept in a folder named after what it was fitted from (every recording's path, size
//! and modification time, and the profile format): `fit.json` says what was read, and each
//! player's profile is a file of its own (`<player>.json`), which `dealer run --bot
//! NAME=<file>` seats too. The same recordings are fitted once.

use crate::field::{self, Fit, FittedPlayer, RecordingKind, StyleCounts, MIN_DECISIONS};
use bots::profile::{Profile, PROFILE_FORMAT};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// A fit, from the cache or just made.
pub(super) struct FittedField {
    pub fit: Fit,
    /// Where its files are.
    pub folder: PathBuf,
    /// Read from the cache rather than fitted now.
    pub cached: bool,
}

/// What `fit.json` keeps beside the profiles.
#[derive(Debug, Serialize, Deserialize)]
struct FitSummary {
    format: u32,
    sources: Vec<String>,
    files: BTreeMap<RecordingKind, u64>,
    unreadable: u64,
    problems: Vec<String>,
    players: Vec<PlayerSummary>,
}

#[derive(Debug, Serialize, Deserialize)]
struct PlayerSummary {
    name: String,
    file: String,
    decisions: u64,
    style: StyleCounts,
}

/// A file name for a player's profile: its name with anything but letters, digits, `-`, `_`
/// and `.` replaced, numbered to keep two names apart.
pub(super) fn file_name(index: usize, name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    format!("{index:02}-{clean}.json")
}

/// The cache folder's name for these recordings.
fn cache_key(paths: &[PathBuf]) -> Result<String, String> {
    let files = field::recordings(paths).map_err(|e| e.to_string())?;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for byte in bytes {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    feed(format!("format {PROFILE_FORMAT}\n").as_bytes());
    for (path, _) in &files {
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.clone());
        let metadata = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let modified = metadata
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        feed(absolute.to_string_lossy().as_bytes());
        feed(format!(" {} {modified}\n", metadata.len()).as_bytes());
    }
    Ok(format!("{hash:016x}"))
}

/// The field fitted from `paths`: from the cache in `fields_dir` when these recordings were
/// fitted before, else fitted now and cached.
pub(super) fn fitted_field(
    paths: &[PathBuf],
    fields_dir: &Path,
    threads: usize,
) -> Result<FittedField, String> {
    let folder = fields_dir.join(cache_key(paths)?);
    if let Some(fit) = load(&folder) {
        return Ok(FittedField {
            fit,
            folder,
            cached: true,
        });
    }
    let fit = field::fit(paths, threads).map_err(|e| e.to_string())?;
    // A cache that cannot be written only costs the next run a fit.
    if let Err(error) = save(&folder, paths, &fit) {
        eprintln!(
            "note: the fit is not cached ({}: {error})",
            folder.display()
        );
    }
    Ok(FittedField {
        fit,
        folder,
        cached: false,
    })
}

fn load(folder: &Path) -> Option<Fit> {
    let text = std::fs::read_to_string(folder.join("fit.json")).ok()?;
    let summary: FitSummary = serde_json::from_str(&text).ok()?;
    if summary.format != PROFILE_FORMAT {
        return None;
    }
    let players = summary
        .players
        .iter()
        .map(|player| {
            let text = std::fs::read_to_string(folder.join(&player.file)).ok()?;
            let profile = Profile::from_json(&text).ok()?;
            Some(FittedPlayer {
                profile,
                style: player.style,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Fit {
        players,
        files: summary.files,
        unreadable: summary.unreadable,
        problems: summary.problems,
    })
}

fn save(folder: &Path, paths: &[PathBuf], fit: &Fit) -> std::io::Result<()> {
    std::fs::create_dir_all(folder)?;
    let mut players = Vec::new();
    for (index, player) in fit.players.iter().enumerate() {
        let file = file_name(index, &player.profile.name);
        std::fs::write(folder.join(&file), player.profile.to_json())?;
        players.push(PlayerSummary {
            name: player.profile.name.clone(),
            file,
            decisions: player.profile.decisions,
            style: player.style,
        });
    }
    let summary = FitSummary {
        format: PROFILE_FORMAT,
        sources: paths.iter().map(|p| p.display().to_string()).collect(),
        files: fit.files.clone(),
        unreadable: fit.unreadable,
        problems: fit.problems.clone(),
        players,
    };
    // Written last: a folder without it is no cache.
    let text = serde_json::to_string_pretty(&summary).map_err(std::io::Error::other)?;
    std::fs::write(folder.join("fit.json"), text + "\n")
}

/// What a fit read and learned, for the terminal.
pub(super) fn describe(field: &FittedField, seated: &[String]) -> String {
    let fit = &field.fit;
    let files: Vec<String> = fit
        .files
        .iter()
        .map(|(kind, count)| {
            let what = match kind {
                RecordingKind::HandHistory => "hand-history files",
                RecordingKind::Requests => "requests.jsonl files",
                RecordingKind::ViewerLog => "log.json files",
            };
            format!("{count} {what}")
        })
        .collect();
    let mut text = format!(
        "Field {} {} ({}):\n",
        if field.cached {
            "fitted earlier from"
        } else {
            "fitted from"
        },
        files.join(", "),
        field.folder.display()
    );
    for player in &fit.players {
        let style = player.style.style();
        let mark = if seated.contains(&player.profile.name) {
            "seated"
        } else if player.profile.decisions < MIN_DECISIONS {
            "too few decisions"
        } else {
            "not seated"
        };
        text.push_str(&format!(
            "  {:<20} {:>9} decisions in {:>7} hands  VPIP {:>4.1}%  PFR {:>4.1}%  {mark}\n",
            player.profile.name,
            player.profile.decisions,
            player.profile.hands,
            style.vpip,
            style.pfr
        ));
    }
    if fit.unreadable > 0 {
        text.push_str(&format!(
            "  {} hands or records could not be read, the first: {}\n",
            fit.unreadable,
            fit.problems.first().map_or("", String::as_str)
        ));
    }
    text
}
