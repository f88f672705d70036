//! The readers agree: a game recorded by the dealer as PHH hands, a `hands.phhs` file, its
//! `requests.jsonl` and its `log.json` gives the same decisions, and a folder holding all of
//! them is read once per game.

use super::*;
use bots::profile::{Earlier, Initiative, Memory, Situation};
use std::collections::BTreeSet;

/// A `dealer run` folder with every per-game output (two games, 65 bet requests), written
/// by this tree's dealer (the SDK's fixture; its README has the command).
fn all_outputs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../sdk/tests/fixtures/dealer-run-all-outputs")
}

fn fit_of(paths: &[PathBuf]) -> Fit {
    fit(paths, 2).unwrap_or_else(|e| panic!("{e}"))
}

/// What a fit learned of one player: name, decisions, cells, raise sizes, style.
type Learned = (String, u64, Vec<[u32; 7]>, Vec<Vec<f64>>, StyleCounts);

/// The profiles without their sources (which name the files read).
fn learned(fit: &Fit) -> Vec<Learned> {
    fit.players
        .iter()
        .map(|p| {
            (
                p.profile.name.clone(),
                p.profile.decisions,
                p.profile.cells.clone(),
                p.profile.raise_sizes.clone(),
                p.style,
            )
        })
        .collect()
}

fn games(file: &str) -> Vec<PathBuf> {
    ["game-1", "game-2"]
        .iter()
        .map(|game| all_outputs().join(game).join(file))
        .collect()
}

#[test]
fn every_recording_of_a_game_gives_the_same_profiles() {
    let from_requests = fit_of(&games("requests.jsonl"));
    let decisions: u64 = from_requests
        .players
        .iter()
        .map(|p| p.profile.decisions)
        .sum();
    assert_eq!(decisions, 38 + 27, "every bet request is a decision");
    // The hands' memory is tracked: raises met again on a street, initiatives both ways.
    let memories: BTreeSet<Option<Memory>> = from_requests
        .players
        .iter()
        .flat_map(|p| &p.profile.cells)
        .filter_map(|cell| Situation::from_index(cell[0] as usize))
        .map(|situation| situation.memory)
        .collect();
    assert!(!memories.contains(&None), "every hand seen from its start");
    for (initiative, earlier) in [
        (Initiative::Theirs, Earlier::Raised),
        (Initiative::Mine, Earlier::Nothing),
        (Initiative::Theirs, Earlier::Nothing),
    ] {
        let memory = Memory {
            initiative,
            earlier,
        };
        assert!(
            memories.contains(&Some(memory)),
            "{memory:?} in {memories:?}"
        );
    }
    let expected = learned(&from_requests);
    assert_eq!(
        learned(&fit_of(&games("hands.phhs"))),
        expected,
        "hands.phhs"
    );
    assert_eq!(learned(&fit_of(&games("hands"))), expected, "hands/*.phh");
    assert_eq!(learned(&fit_of(&games("log.json"))), expected, "log.json");
    // The run folder holds all four: each game is read once, from its hand histories.
    let whole = fit_of(&[all_outputs()]);
    assert_eq!(learned(&whole), expected);
    assert_eq!(
        whole.files,
        BTreeMap::from([(RecordingKind::HandHistory, 2)]),
        "one hands.phhs a game (its hands/ folder records the same hands)"
    );
    assert_eq!(whole.unreadable, 0, "{:?}", whole.problems);
}

#[test]
fn fitting_is_deterministic_whatever_the_threads() {
    let paths = [all_outputs()];
    let one = fit(&paths, 1).unwrap();
    let four = fit(&paths, 4).unwrap();
    assert_eq!(one, four);
    let texts =
        |fit: &Fit| -> Vec<String> { fit.players.iter().map(|p| p.profile.to_json()).collect() };
    assert_eq!(texts(&one), texts(&four));
}

#[test]
fn bad_recordings_are_counted_and_named_and_nothing_is_an_error() {
    let folder = std::env::temp_dir().join(format!("arena-field-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(folder.join("game-1")).unwrap();
    std::fs::create_dir_all(folder.join("game-2")).unwrap();
    std::fs::write(folder.join("game-1/requests.jsonl"), "{not json\n").unwrap();
    std::fs::write(folder.join("game-2/log.json.gz"), "not gzip").unwrap();
    std::fs::write(folder.join("results.json"), "{}").unwrap();
    let error = fit(std::slice::from_ref(&folder), 2).unwrap_err();
    assert!(
        error.to_string().starts_with("no recorded decisions in"),
        "{error}"
    );
    // With good recordings beside them, the bad ones are counted and named.
    let paths = [folder.clone(), all_outputs()];
    let fit = fit(&paths, 2).unwrap();
    assert_eq!(fit.unreadable, 2);
    assert!(
        fit.problems[0].contains("requests.jsonl: line 1"),
        "{:?}",
        fit.problems
    );
    assert!(fit.problems[1].contains("not gzip"), "{:?}", fit.problems);
    let missing = fit_missing(&folder.join("nope"));
    assert!(missing.contains("nope"), "{missing}");
    let _ = std::fs::remove_dir_all(&folder);
}

fn fit_missing(path: &Path) -> String {
    fit(&[path.to_path_buf()], 1).unwrap_err().to_string()
}

#[test]
fn names_sort_with_their_numbers() {
    let mut names = vec!["game-10", "game-2", "game-1", "b", "a"];
    names.sort_by(|a, b| natural_order(a, b));
    assert_eq!(names, ["a", "b", "game-1", "game-2", "game-10"]);
}

#[test]
fn gzip_compressed_recordings_read_as_the_plain_ones() {
    use std::io::Write as _;
    let folder = std::env::temp_dir().join(format!("arena-field-gz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    for game in ["game-1", "game-2"] {
        std::fs::create_dir_all(folder.join(game)).unwrap();
        // As an event keeps its older games: the viewer log and the requests gzip'd.
        for file in ["log.json", "requests.jsonl"] {
            let plain = std::fs::read(all_outputs().join(game).join(file)).unwrap();
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            encoder.write_all(&plain).unwrap();
            std::fs::write(
                folder.join(game).join(format!("{file}.gz")),
                encoder.finish().unwrap(),
            )
            .unwrap();
        }
    }
    let compressed = fit_of(std::slice::from_ref(&folder));
    assert_eq!(
        learned(&compressed),
        learned(&fit_of(&games("requests.jsonl")))
    );
    assert_eq!(
        compressed.files,
        BTreeMap::from([(RecordingKind::Requests, 2)]),
        "one kind a game folder: the requests, not the viewer log as well"
    );
    let _ = std::fs::remove_dir_all(&folder);
}
