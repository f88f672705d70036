//! Holding replayed files against recorded ones: which files, and where they first differ.

use super::{write_error, ReplayError};
use crate::observe::{GameOutputs, OutputSelection};
use std::io;
use std::path::Path;

/// The first place where a replayed file differs from the recorded one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The file, relative to the game folder (`log.json`, `hands/12.phh`).
    pub file: String,
    /// 1-based line of the first differing byte.
    pub line: usize,
    /// 0-based byte offset of that byte in its line.
    pub offset: usize,
    /// The recorded text around it (`None`: the replay wrote the file, the recording has none).
    pub expected: Option<String>,
    /// The replayed text around it (`None`: the recording has the file, the replay has none).
    pub got: Option<String>,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |text: &Option<String>| match text {
            Some(text) => format!("{text:?}"),
            None => "no such file".to_string(),
        };
        write!(
            f,
            "{} line {}, byte {}: expected {} got {}",
            self.file,
            self.line,
            self.offset,
            show(&self.expected),
            show(&self.got)
        )
    }
}

/// How replayed files are held against recorded ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// Byte for byte.
    Exact,
    /// A recorded file may stop early (its writes failed on a full disk): what it has must be
    /// the start of the replayed one.
    Survived,
}

/// Copies the plain bytes of every file of `selection` that `dir` holds (plain or `.gz`)
/// into `to`; returns their names relative to the folder, in [`compared_files`]'s order.
pub(super) fn copy_kept(
    dir: &Path,
    to: &Path,
    selection: OutputSelection,
) -> Result<Vec<String>, ReplayError> {
    let write_error = write_error(to);
    std::fs::create_dir_all(to).map_err(&write_error)?;
    let mut kept = Vec::new();
    for (written, name) in [
        (selection.viewer_log, "log.json"),
        (selection.requests, "requests.jsonl"),
        (selection.decks, "decks.jsonl"),
        (selection.decks, "game.json"),
        (selection.hands_file, "hands.phhs"),
    ] {
        let stored = dir.join(name);
        if written && crate::stored::find(&stored).is_some() {
            crate::stored::copy_plain(&stored, &to.join(name)).map_err(&write_error)?;
            kept.push(name.to_string());
        }
    }
    let hands = GameOutputs::hands_dir(dir);
    if selection.hands && hands.is_dir() {
        let copy = GameOutputs::hands_dir(to);
        std::fs::create_dir_all(&copy).map_err(&write_error)?;
        let mut names = Vec::new();
        for entry in std::fs::read_dir(&hands).map_err(&write_error)? {
            let entry = entry.map_err(&write_error)?;
            std::fs::copy(entry.path(), copy.join(entry.file_name())).map_err(&write_error)?;
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
        sort_hands(&mut names);
        kept.extend(names.into_iter().map(|name| format!("hands/{name}")));
    }
    Ok(kept)
}

/// The first of `files` (relative names) where `replayed` differs from `recorded`.
pub(super) fn first_difference(
    files: &[String],
    recorded: &Path,
    replayed: &Path,
    comparison: Comparison,
) -> Result<Option<Difference>, ReplayError> {
    for file in files {
        let difference = compare(file, &recorded.join(file), &replayed.join(file), comparison)
            .map_err(write_error(replayed))?;
        if difference.is_some() {
            return Ok(difference);
        }
    }
    Ok(None)
}

/// Sorts hand-history file names in hand order.
fn sort_hands(names: &mut [String]) {
    names.sort_by_key(|name| {
        let number = name.split('.').next().and_then(|n| n.parse::<u64>().ok());
        (number, name.clone())
    });
}

/// The files to compare, relative to the game folder: the fixed ones the selection wrote,
/// then every hand history of either folder, in hand order.
pub(super) fn compared_files(
    recorded: &Path,
    replayed: &Path,
    selection: OutputSelection,
) -> io::Result<Vec<String>> {
    let mut files: Vec<String> = [
        (selection.viewer_log, "log.json"),
        (true, "requests.jsonl"),
        (true, "decks.jsonl"),
        (true, "game.json"),
        (selection.hands_file, "hands.phhs"),
    ]
    .into_iter()
    .filter(|(written, _)| *written)
    .map(|(_, name)| name.to_string())
    .collect();
    if selection.hands {
        let mut hands: Vec<String> = Vec::new();
        for dir in [recorded, replayed] {
            for entry in std::fs::read_dir(GameOutputs::hands_dir(dir))? {
                let name = entry?.file_name().to_string_lossy().into_owned();
                if !hands.contains(&name) {
                    hands.push(name);
                }
            }
        }
        sort_hands(&mut hands);
        files.extend(hands.into_iter().map(|name| format!("hands/{name}")));
    }
    Ok(files)
}

/// Where `replayed` first differs from `recorded`, if it does (with [`Comparison::Survived`],
/// a recorded file that is the start of the replayed one does not differ).
fn compare(
    file: &str,
    recorded: &Path,
    replayed: &Path,
    comparison: Comparison,
) -> io::Result<Option<Difference>> {
    let read = |path: &Path| match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    };
    let (expected, got) = (read(recorded)?, read(replayed)?);
    let at = match (&expected, &got) {
        (Some(a), Some(b)) => match a.iter().zip(b.iter()).position(|(x, y)| x != y) {
            Some(position) => position,
            None if a.len() == b.len() => return Ok(None),
            None if comparison == Comparison::Survived && a.len() < b.len() => return Ok(None),
            None => a.len().min(b.len()),
        },
        (None, None) => return Ok(None),
        (None, Some(_)) if comparison == Comparison::Survived => return Ok(None),
        _ => 0,
    };
    let bytes = expected.as_deref().or(got.as_deref()).unwrap_or_default();
    let line_start = bytes[..at.min(bytes.len())]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |newline| newline + 1);
    let line = bytes[..line_start].iter().filter(|&&b| b == b'\n').count() + 1;
    let excerpt = |bytes: &Option<Vec<u8>>| {
        bytes.as_ref().map(|bytes| {
            let from = at.saturating_sub(40).max(line_start).min(bytes.len());
            let to = (at + 40).min(bytes.len());
            String::from_utf8_lossy(&bytes[from..to]).into_owned()
        })
    };
    Ok(Some(Difference {
        file: file.to_string(),
        line,
        offset: at - line_start,
        expected: excerpt(&expected),
        got: excerpt(&got),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_difference_names_the_line_and_the_byte() {
        let dir = std::env::temp_dir().join(format!("dealer-replay-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a"), dir.join("b"));
        std::fs::write(&a, "one\ntwo three\n").unwrap();
        std::fs::write(&b, "one\ntwo thr33\n").unwrap();
        let difference = compare("x", &a, &b, Comparison::Exact).unwrap().unwrap();
        assert_eq!((difference.line, difference.offset), (2, 7));
        assert_eq!(difference.expected.as_deref(), Some("two three\n"));
        assert_eq!(difference.got.as_deref(), Some("two thr33\n"));
        std::fs::write(&b, "one\ntwo three\n").unwrap();
        assert_eq!(compare("x", &a, &b, Comparison::Exact).unwrap(), None);
        std::fs::write(&b, "one\n").unwrap();
        let shorter = compare("x", &a, &b, Comparison::Exact).unwrap().unwrap();
        assert_eq!((shorter.line, shorter.offset), (2, 0));
        assert_eq!(shorter.got.as_deref(), Some(""));
        let missing = compare("x", &a, &dir.join("none"), Comparison::Exact)
            .unwrap()
            .unwrap();
        assert_eq!(missing.got, None);
        assert!(
            missing.to_string().contains("got no such file"),
            "{missing}"
        );
        // A file a full disk cut: what survived must be the start of the replayed one.
        std::fs::write(&b, "one\ntwo three\nfour\n").unwrap();
        assert_eq!(compare("x", &a, &b, Comparison::Survived).unwrap(), None);
        assert!(compare("x", &a, &b, Comparison::Exact).unwrap().is_some());
        std::fs::write(&b, "one\ntwo thr33\nfour\n").unwrap();
        let differs = compare("x", &a, &b, Comparison::Survived).unwrap().unwrap();
        assert_eq!((differs.line, differs.offset), (2, 7));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
