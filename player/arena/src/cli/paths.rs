//! Where `cargo arena` keeps its files, from any folder of the workspace: the build folder
//! cargo uses (`CARGO_TARGET_DIR` when set, else the workspace root's `target`), so the
//! history of runs follows the build whatever folder the command was typed in.

use std::path::{Path, PathBuf};

/// The folder of the arena's files inside the build folder: `<target>/arena`.
pub(super) fn arena_dir() -> PathBuf {
    target_dir(
        std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from),
        std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from),
        std::env::current_dir().ok(),
    )
    .join("arena")
}

/// The build folder: `target_env` (`CARGO_TARGET_DIR`; relative to the current folder, as
/// cargo reads it) when set, else `target` in the workspace holding `manifest_dir` (what
/// `cargo run` sets for the binary's package) or, without it, the current folder; else
/// `target` in the current folder.
fn target_dir(
    target_env: Option<PathBuf>,
    manifest_dir: Option<PathBuf>,
    current: Option<PathBuf>,
) -> PathBuf {
    let current = current.unwrap_or_else(|| PathBuf::from("."));
    if let Some(target) = target_env.filter(|t| !t.as_os_str().is_empty()) {
        return current.join(target);
    }
    manifest_dir
        .iter()
        .chain(std::iter::once(&current))
        .find_map(|start| workspace_root(start))
        .unwrap_or(current)
        .join("target")
}

/// The nearest folder at or above `start` whose `Cargo.toml` declares a `[workspace]`.
fn workspace_root(start: &Path) -> Option<PathBuf> {
    start.ancestors().find_map(|folder| {
        let manifest = std::fs::read_to_string(folder.join("Cargo.toml")).ok()?;
        manifest
            .lines()
            .any(|line| line.trim() == "[workspace]")
            .then(|| folder.to_path_buf())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_folder_is_found_from_any_folder_of_the_workspace() {
        let root = std::env::temp_dir().join(format!("arena-paths-{}", std::process::id()));
        let member = root.join("player").join("team");
        std::fs::create_dir_all(member.join("src")).unwrap();
        std::fs::write(root.join("Cargo.toml"), "[workspace]\nmembers = []\n").unwrap();
        std::fs::write(member.join("Cargo.toml"), "[package]\nname = \"team\"\n").unwrap();
        let target = root.join("target");
        // From the root, from a member, from a folder inside it; by cargo's variable or not.
        for folder in [root.clone(), member.clone(), member.join("src")] {
            assert_eq!(target_dir(None, None, Some(folder.clone())), target);
            assert_eq!(target_dir(None, Some(member.clone()), Some(folder)), target);
        }
        // cargo's variable wins over a current folder outside the workspace.
        let outside = std::env::temp_dir();
        assert_eq!(
            target_dir(None, Some(member.clone()), Some(outside)),
            target
        );
        // CARGO_TARGET_DIR, absolute or relative to the current folder, wins over both.
        let elsewhere = root.join("elsewhere");
        assert_eq!(
            target_dir(Some(elsewhere.clone()), Some(member.clone()), None),
            elsewhere
        );
        assert_eq!(
            target_dir(Some("t".into()), None, Some(member.clone())),
            member.join("t")
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
