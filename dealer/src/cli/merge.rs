//! `dealer merge`: the folders of a sharded run combined into the one run.

use super::args::MergeArgs;
use super::{report, Failure};
use crate::tournament::{merge as merge_shards, MergeError, RunEnd, RunReport};

/// Merges the shard folders into `--out` and prints the merged run's table.
///
/// # Errors
/// A [`Failure`] with code 2 for folders that cannot be merged (missing, repeated or foreign
/// shards, unreadable results), 1 when the output cannot be written or the merged run is
/// incomplete (a shard did not finish; its games are merged all the same).
pub fn merge(args: MergeArgs) -> Result<(), Failure> {
    let results = merge_shards(&args.out, &args.shards).map_err(|error| match error {
        MergeError::Write(_) => Failure::run(error.to_string()),
        other => Failure::usage(other.to_string()),
    })?;
    let end = match &results.stopped_because {
        None => RunEnd::Complete,
        Some(reason) => RunEnd::Failed(reason.clone()),
    };
    let report = RunReport {
        results,
        results_path: args.out.join("results.json"),
        end,
    };
    report::print(&report::merge_table(&report, args.shards.len()));
    match &report.end {
        RunEnd::Complete => Ok(()),
        _ => Err(Failure::run(format!(
            "the merged run is incomplete ({}); its games so far are in {}",
            report
                .results
                .stopped_because
                .as_deref()
                .unwrap_or("not finished"),
            report.results_path.display()
        ))),
    }
}
