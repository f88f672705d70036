//! Merging the folders of a sharded run ([`super::Shard`]) into the one run: every game folder
//! copied, `results.json` written as the unsharded run writes it.

use super::results::{GameEntry, RunResults};
use super::shard::Shard;
use super::summary::{summarise, Rater};
use super::{write_results, TournamentError};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why shard folders cannot be merged.
#[derive(Debug, Error)]
pub enum MergeError {
    /// No shard folders given.
    #[error("give at least one shard folder to merge")]
    NoShards,
    /// A shard's `results.json` cannot be read.
    #[error("cannot read {path}: {reason}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A folder that is not a shard's output.
    #[error("{0} is not a shard's output (its results.json has no \"shard\")")]
    NotAShard(PathBuf),
    /// Shards of different runs (seed, players, rules, mode or shard count differ).
    #[error("{path} is from another run than {first}: its {field} differs")]
    OtherRun {
        /// The shard that differs.
        path: PathBuf,
        /// The first shard.
        first: PathBuf,
        /// What differs.
        field: &'static str,
    },
    /// One shard given twice.
    #[error("shard {shard} is given twice ({first} and {second})")]
    SameShard {
        /// The shard.
        shard: Shard,
        /// One folder.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// A shard missing.
    #[error("shard {0} is missing; merge needs every shard of the run")]
    MissingShard(Shard),
    /// A game in a shard that does not play it, or a game folder that is not a plain name.
    #[error("{path} holds game {game}, which is not shard {shard}'s, or its folder {dir:?} is not a plain name")]
    ForeignGame {
        /// The shard's folder.
        path: PathBuf,
        /// The shard.
        shard: Shard,
        /// The game number.
        game: u32,
        /// Its folder.
        dir: String,
    },
    /// The output cannot be written.
    #[error(transparent)]
    Write(#[from] TournamentError),
}

/// Combines the shard folders of one run into `out` (created; it must not hold a run): every
/// game folder is copied and `results.json` is written as the unsharded run writes it, so with
/// a reproducible clock the merged folder is the unsharded run's byte for byte. A run with a
/// shard that did not finish merges into an incomplete run (`complete: false`).
///
/// # Errors
/// A missing, repeated or unreadable shard, shards of different runs, or a write that fails.
pub fn merge(out: &Path, shard_dirs: &[PathBuf]) -> Result<RunResults, MergeError> {
    let mut shards: Vec<(PathBuf, RunResults, Shard)> = Vec::new();
    for dir in shard_dirs {
        let path = dir.join("results.json");
        let read = |reason: String| MergeError::Read {
            path: path.clone(),
            reason,
        };
        let text = std::fs::read_to_string(&path).map_err(|e| read(e.to_string()))?;
        let results: RunResults = serde_json::from_str(&text).map_err(|e| read(e.to_string()))?;
        let shard = results
            .shard
            .ok_or_else(|| MergeError::NotAShard(dir.clone()))?;
        shards.push((dir.clone(), results, shard));
    }
    let Some((first_dir, first, first_shard)) = shards.first().cloned() else {
        return Err(MergeError::NoShards);
    };
    let mut by_index: BTreeMap<u32, &Path> = BTreeMap::new();
    for (dir, results, shard) in &shards {
        let differs = |field| MergeError::OtherRun {
            path: dir.clone(),
            first: first_dir.clone(),
            field,
        };
        let checks: [(&'static str, bool); 9] = [
            (
                "tournament_id",
                results.tournament_id == first.tournament_id,
            ),
            ("seed", results.seed == first.seed),
            ("reproducible", results.reproducible == first.reproducible),
            (
                "games_planned",
                results.games_planned == first.games_planned,
            ),
            ("config", results.config == first.config),
            (
                "request_timeout_ms",
                results.request_timeout_ms == first.request_timeout_ms,
            ),
            (
                "absent_players",
                results.absent_players == first.absent_players,
            ),
            ("players", results.players == first.players),
            (
                "duplicate mode or shard count",
                results.duplicate == first.duplicate && shard.count() == first_shard.count(),
            ),
        ];
        if let Some((field, _)) = checks.iter().find(|(_, same)| !same) {
            return Err(differs(field));
        }
        if let Some(other) = by_index.insert(shard.index(), dir) {
            return Err(MergeError::SameShard {
                shard: *shard,
                first: other.to_path_buf(),
                second: dir.clone(),
            });
        }
        let numbers = results.games.iter().map(|game| (game.game, &game.dir));
        let interrupted = results
            .interrupted
            .iter()
            .map(|game| (game.game, &game.dir));
        for (number, game_dir) in numbers.chain(interrupted) {
            let plain_name = matches!(
                Path::new(game_dir).components().collect::<Vec<_>>()[..],
                [std::path::Component::Normal(_)]
            );
            if !shard.plays(number) || !plain_name {
                return Err(MergeError::ForeignGame {
                    path: dir.clone(),
                    shard: *shard,
                    game: number,
                    dir: game_dir.clone(),
                });
            }
        }
    }
    let missing = (0..first_shard.count())
        .filter(|k| !by_index.contains_key(k))
        .find_map(|k| Shard::new(k, first_shard.count()).ok());
    if let Some(missing) = missing {
        return Err(MergeError::MissingShard(missing));
    }

    let results_path = out.join("results.json");
    if results_path.exists() {
        return Err(TournamentError::OutputExists(out.to_path_buf()).into());
    }
    let write_error = |path: &Path, source: io::Error| TournamentError::Write {
        path: path.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(out).map_err(|e| write_error(out, e))?;
    let mut games: BTreeMap<u32, GameEntry> = BTreeMap::new();
    let mut interrupted = Vec::new();
    let mut stopped_because = None;
    for (dir, results, shard) in &shards {
        for game in &results.games {
            let target = out.join(&game.dir);
            copy_dir(&dir.join(&game.dir), &target).map_err(|e| write_error(&target, e))?;
            games.insert(game.game, game.clone());
        }
        // An interrupted game's folder holds what was written until the stop; it may be
        // missing if the game stopped before its outputs were created.
        for game in &results.interrupted {
            let source = dir.join(&game.dir);
            if source.is_dir() {
                let target = out.join(&game.dir);
                copy_dir(&source, &target).map_err(|e| write_error(&target, e))?;
            }
            interrupted.push(game.clone());
        }
        if !results.complete && stopped_because.is_none() {
            let why = results.stopped_because.as_deref().unwrap_or("not finished");
            stopped_because = Some(format!("shard {shard}: {why}"));
        }
    }
    interrupted.sort_by_key(|game| game.game);
    let mut merged = RunResults {
        complete: stopped_because.is_none(),
        stopped_because,
        shard: None,
        games: Vec::new(),
        interrupted,
        totals: Vec::new(),
        deal_sets: Vec::new(),
        ..first
    };
    let mut rater = Rater::new(
        &merged,
        games
            .iter()
            .map(|(&number, game)| (number, game.deal.map(|d| d.deal_set))),
    );
    summarise(&mut merged, &games, &mut rater);
    write_results(&results_path, &merged)?;
    Ok(merged)
}

/// Copies a folder's files and subfolders (no links followed).
fn copy_dir(from: &Path, to: &Path) -> io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}
