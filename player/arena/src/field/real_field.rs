//! The recordings the shipped field is fitted from (`player/arena/recordings/real-field/`: nine
//! `dealer run --duplicate` runs of six real team bots, `team-a` … `team-f`, and one house bot
//! `x-<kind>` each, as `tar.xz` archives) and how the shipped profiles
//! ([`bots::BotKind::REAL_FIELD`]) are made from their fit. Used by the `real_field` bench,
//! which writes the profiles, and by the test that checks them.

use super::Fit;
use bots::profile::Profile;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The recorded team bots, in the order of `real-a` … `real-f`.
pub const TEAMS: [&str; 6] = ["team-a", "team-b", "team-c", "team-d", "team-e", "team-f"];

/// The archives' folder in the repository.
pub fn archives() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/real-field")
}

/// Unpacks every archive into `into` (once: a run whose `results.json` is there is kept) and
/// returns the run folders, in name order (`x-calling-station` … `x-tight`).
///
/// # Errors
/// The archives cannot be listed, or `tar` (with `xz`) fails.
pub fn unpack(into: &Path) -> Result<Vec<PathBuf>, String> {
    let folder = archives();
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .map_err(|e| format!("{}: {e}", folder.display()))?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_str()?.to_string();
            name.strip_suffix(".tar.xz").map(str::to_string)
        })
        .collect();
    names.sort();
    std::fs::create_dir_all(into).map_err(|e| format!("{}: {e}", into.display()))?;
    names
        .into_iter()
        .map(|name| {
            let run = into.join(&name);
            if !run.join("results.json").exists() {
                let status = Command::new("tar")
                    .arg("xJf")
                    .arg(folder.join(format!("{name}.tar.xz")))
                    .arg("-C")
                    .arg(into)
                    .status()
                    .map_err(|e| format!("cannot run tar: {e}"))?;
                if !status.success() {
                    return Err(format!("tar xJf {name}.tar.xz failed ({status})"));
                }
            }
            Ok(run)
        })
        .collect()
}

/// The shipped profiles a fit of the recordings gives: `team-a` … `team-f` renamed `real-a` …
/// `real-f`, their source the recordings' folder; `None` when a team is not in the fit.
pub fn shipped_profiles(fit: &Fit) -> Option<Vec<Profile>> {
    TEAMS
        .iter()
        .enumerate()
        .map(|(index, team)| {
            let player = fit.players.iter().find(|p| p.profile.name == *team)?;
            let mut profile = player.profile.clone();
            profile.name = format!("real-{}", (b'a' + index as u8) as char);
            profile.sources = vec![format!("player/arena/recordings/real-field ({team})")];
            Some(profile)
        })
        .collect()
}
