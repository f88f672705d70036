//! The runs `cargo arena` remembers, one file per set of options, so that
//! the next run of the same command can say whether the edit in between made the bot better
//! (`cargo arena` keeps them in `target/arena/runs/`, beside its build).
//!
//! A file keeps two runs: the latest, and the baseline, the last run that played differently
//! from it. Why two: after "can't tell yet" a team runs both versions again with more games;
//! a run of the same code plays exactly like the latest on their common deal sets, and
//! comparing the code with itself would say nothing. Such a run is compared with the baseline
//! instead, and replaces the latest (when longer) without moving the baseline.

use super::verdict::{judge, Judgement, Verdict};
use super::why::RecordedAnswers;
use super::{ArenaReport, SetResult, YourPoints};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// What makes two runs comparable: the same opponents in the same order, the same seed (so
/// deal set `d` has the same cards in both) and the same kind of run. The number of games is
/// not part of it: a longer run is compared on the deal sets both played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunKey {
    /// The house bots' kinds, in `--vs` order.
    pub vs: Vec<String>,
    /// The run seed.
    pub seed: u64,
    /// Duplicate deals (`true`) or plain games.
    pub duplicate: bool,
}

impl RunKey {
    /// The file name this key's runs are saved under, e.g.
    /// `calling-station+raiser.seed-1.duplicate.json`; a fitted player's name keeps only
    /// letters, digits, `-`, `_` and `@` (`team-a@1f2e3d4c`), the rest becomes `_`.
    pub fn file_name(&self) -> String {
        let clean: Vec<String> = self
            .vs
            .iter()
            .map(|name| {
                name.chars()
                    .map(|c| match c {
                        'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' | '@' => c,
                        _ => '_',
                    })
                    .collect()
            })
            .collect();
        format!(
            "{}.seed-{}.{}.json",
            clean.join("+"),
            self.seed,
            if self.duplicate { "duplicate" } else { "plain" }
        )
    }
}

/// One run as remembered for the next comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedRun {
    /// Your bot's `version()` at the time.
    pub version: String,
    /// Games played.
    pub games: u64,
    /// Your points per game, raw and luck-adjusted.
    pub points: YourPoints,
    /// Your results in each deal set, in order.
    pub sets: Vec<SetResult>,
    /// Your answers, game by game (what `cargo arena --why` replays); empty in runs saved by
    /// an older arena.
    #[serde(default, skip_serializing_if = "RecordedAnswers::is_empty")]
    pub answers: RecordedAnswers,
}

impl SavedRun {
    /// What to remember of `report`.
    pub fn of(report: &ArenaReport) -> SavedRun {
        SavedRun {
            version: report.version.clone(),
            games: report.games,
            points: report.your_points,
            sets: report.your_sets.clone(),
            answers: report.your_answers.clone(),
        }
    }
}

/// The format of the files [`History::save`] writes: files of another format (an older
/// arena's: chips only, or a set's points with the luck taken out whole instead of its luck)
/// are not read as history.
pub const HISTORY_FORMAT: u32 = 3;

/// The runs remembered under one [`RunKey`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct History {
    /// [`HISTORY_FORMAT`].
    pub format: u32,
    /// The options the runs were played with.
    pub key: RunKey,
    /// The last run.
    pub latest: SavedRun,
    /// The last run before it that played differently (`None` until there is one).
    pub baseline: Option<SavedRun>,
}

/// How a new run compares with the remembered ones.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "against", rename_all = "snake_case")]
pub enum Comparison {
    /// Nothing remembered under this key: the first run.
    FirstRun,
    /// Compared with the last run.
    LastRun {
        /// The comparison (`None`: fewer than two deal sets in common).
        judgement: Option<Judgement>,
        /// The last run's games.
        games: u64,
        /// The last run's version string.
        version: String,
    },
    /// The run played exactly like the last one on their common deal sets, so it is compared
    /// with the run before that one, the last that played differently.
    Baseline {
        /// The comparison (`None`: fewer than two deal sets in common).
        judgement: Option<Judgement>,
        /// The baseline's games.
        games: u64,
        /// The baseline's version string.
        version: String,
        /// Deal sets on which this run and the last one played the same.
        same_as_last_on: usize,
    },
    /// The run played exactly like the last one, and nothing older is remembered.
    SameAsLast {
        /// Deal sets compared.
        deal_sets: usize,
    },
}

/// A remembered run that cannot be read or written.
#[derive(Debug, Error)]
pub enum SavedRunError {
    /// The file or its folder could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not a saved run (damaged, or not one).
    #[error("{path} is not a saved arena run ({source}); delete it to start afresh")]
    Format {
        /// The file.
        path: PathBuf,
        /// The error.
        source: serde_json::Error,
    },
    /// The file was written by an older arena, whose runs cannot be compared with this one's.
    #[error(
        "{path} was saved by an older arena, which kept other figures: this run starts a new history there"
    )]
    OlderFormat {
        /// The file.
        path: PathBuf,
    },
}

impl History {
    /// The runs saved under `key` in `dir`, or `None` when there are none yet.
    ///
    /// # Errors
    /// A file that cannot be read or is no saved run.
    pub fn load(dir: &Path, key: &RunKey) -> Result<Option<History>, SavedRunError> {
        let path = dir.join(key.file_name());
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(SavedRunError::Io { path, source }),
        };
        let format = |source| SavedRunError::Format {
            path: path.clone(),
            source,
        };
        let value: serde_json::Value = serde_json::from_str(&text).map_err(format)?;
        if value.get("format").and_then(serde_json::Value::as_u64) != Some(HISTORY_FORMAT.into()) {
            return Err(SavedRunError::OlderFormat { path });
        }
        let history: History = serde_json::from_value(value).map_err(format)?;
        // A file renamed by hand to another key's name would compare different deals.
        Ok((history.key == *key).then_some(history))
    }

    /// Writes the runs to `dir` (created if missing), under their key's file name.
    ///
    /// # Errors
    /// The folder or the file cannot be written.
    pub fn save(&self, dir: &Path) -> Result<PathBuf, SavedRunError> {
        let path = dir.join(self.key.file_name());
        let io = |source| SavedRunError::Io {
            path: path.clone(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let text = serde_json::to_string_pretty(self).map_err(|source| SavedRunError::Format {
            path: path.clone(),
            source,
        })?;
        std::fs::write(&path, text).map_err(io)?;
        Ok(path)
    }

    /// Compares `current` with the remembered runs (`previous`), and gives the history to save
    /// after it (see `arena/saved.rs` for why a run identical to the last one is
    /// compared with the baseline).
    pub fn record(
        previous: Option<History>,
        key: RunKey,
        current: SavedRun,
    ) -> (Comparison, History) {
        let Some(previous) = previous else {
            let history = History {
                format: HISTORY_FORMAT,
                key,
                latest: current,
                baseline: None,
            };
            return (Comparison::FirstRun, history);
        };
        let rotations = rotations(&key);
        let against_last = judge(&current.sets, &previous.latest.sets, rotations);
        match against_last {
            Some(Judgement {
                verdict: Verdict::Identical,
                deal_sets,
                ..
            }) => {
                let comparison = match &previous.baseline {
                    Some(baseline) => Comparison::Baseline {
                        judgement: judge(&current.sets, &baseline.sets, rotations),
                        games: baseline.games,
                        version: baseline.version.clone(),
                        same_as_last_on: deal_sets,
                    },
                    None => Comparison::SameAsLast { deal_sets },
                };
                // The longer of two identical runs is the better record of the code.
                let latest = if current.sets.len() >= previous.latest.sets.len() {
                    current
                } else {
                    previous.latest
                };
                let history = History {
                    format: HISTORY_FORMAT,
                    key,
                    latest,
                    baseline: previous.baseline,
                };
                (comparison, history)
            }
            judgement => {
                let comparison = Comparison::LastRun {
                    judgement,
                    games: previous.latest.games,
                    version: previous.latest.version.clone(),
                };
                let history = History {
                    format: HISTORY_FORMAT,
                    key,
                    latest: current,
                    baseline: Some(previous.latest),
                };
                (comparison, history)
            }
        }
    }
}

/// Games per deal set for a key's runs: the seats in a duplicate run, 1 in a plain one.
fn rotations(key: &RunKey) -> usize {
    if key.duplicate {
        key.vs.len() + 1
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::stats::Interval;

    fn run(per_set: &[f64]) -> SavedRun {
        SavedRun {
            version: "v".into(),
            games: per_set.len() as u64 * 2,
            points: YourPoints {
                raw: Interval::of(per_set),
                adjusted: Interval::of(per_set),
                luck_coefficient: 1.0,
            },
            sets: per_set
                .iter()
                .map(|&adjusted| SetResult {
                    points: adjusted as u32,
                    luck: engine::luck::LuckParts {
                        own_pots: f64::from(adjusted as u32) - adjusted,
                        others_pots: 0.0,
                    },
                    places: vec![2, 3],
                    chips_per_100: adjusted * 10.0,
                })
                .collect(),
            answers: RecordedAnswers::default(),
        }
    }

    fn key() -> RunKey {
        RunKey {
            vs: vec!["calling-station".into()],
            seed: 1,
            duplicate: true,
        }
    }

    #[test]
    fn a_rerun_of_the_same_code_is_compared_with_the_baseline() {
        let old = run(&[0.0, 10.0, 20.0, 5.0]);
        let new = run(&[50.0, 61.0, 70.0, 56.0]);
        let (first, history) = History::record(None, key(), old.clone());
        assert_eq!(first, Comparison::FirstRun);
        let (second, history) = History::record(Some(history), key(), new.clone());
        match second {
            Comparison::LastRun {
                judgement: Some(judgement),
                ..
            } => assert_eq!(judgement.verdict, Verdict::Better),
            other => panic!("{other:?}"),
        }
        assert_eq!(history.baseline, Some(old.clone()));
        // The same code with more games: identical on the four common sets.
        let longer = run(&[50.0, 61.0, 70.0, 56.0, 65.0]);
        let (third, history) = History::record(Some(history), key(), longer.clone());
        match third {
            Comparison::Baseline {
                judgement: Some(judgement),
                same_as_last_on: 4,
                ..
            } => assert_eq!(judgement.verdict, Verdict::Better),
            other => panic!("{other:?}"),
        }
        assert_eq!((history.latest, history.baseline), (longer, Some(old)));
    }

    #[test]
    fn saved_runs_read_back_and_other_keys_or_formats_are_not_mixed_up() {
        let dir = std::env::temp_dir().join(format!("arena-saved-{}", std::process::id()));
        let (_, history) = History::record(None, key(), run(&[1.0, 2.0]));
        let path = history.save(&dir).unwrap();
        assert!(path.ends_with("calling-station.seed-1.duplicate.json"));
        assert_eq!(History::load(&dir, &key()).unwrap(), Some(history));
        let other = RunKey { seed: 2, ..key() };
        assert_eq!(History::load(&dir, &other).unwrap(), None);
        std::fs::write(&path, "{").unwrap();
        let error = History::load(&dir, &key()).unwrap_err().to_string();
        assert!(error.contains("delete it"), "{error}");
        // An older arena's file (chips only, no format): a new history, said so.
        std::fs::write(
            &path,
            r#"{"key":{"vs":["calling-station"],"seed":1,"duplicate":true},"latest":{}}"#,
        )
        .unwrap();
        let error = History::load(&dir, &key()).unwrap_err();
        assert!(
            matches!(error, SavedRunError::OlderFormat { .. }),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
