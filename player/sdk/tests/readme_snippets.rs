//! Every Rust snippet of `README.md` and `player/README.md` compiles where the text says to put
//! it. A team follows these pages literally, from a fresh clone: a snippet that compiles as a
//! doctest but not in the file it is meant for (`use crate::` against `use player::`, a
//! missing `Default`) is their first error.
//!
//! Each ```` ```rust ```` block is preceded by a marker comment, `<!-- snippet: PLACE -->`:
//!
//! | PLACE | checked by |
//! |---|---|
//! | `player/src/strategy.rs` | a scratch copy of the workspace (`shared`, `engine` and `player`) with the block as the whole `strategy.rs`: `cargo check --all-targets`, so `main.rs`, the benches and every test (the ones in `tests/strategy.rs` above all) must compile against it |
//! | `a test in player/tests/strategy.rs` | the same scratch build, the block as the body of a `#[test]` there (and the doctest) |
//! | `a function body`, `a program` | the doctest of `player/src/lib.rs`, which includes both READMEs and runs every block |
//!
//! One scratch build checks every block, with its own target folder under cargo's
//! `CARGO_TARGET_TMPDIR`, kept between runs: the first run checks the dependencies (about a
//! minute of CPU on two cores), later runs only the changed crates (seconds). The rest of the
//! workspace needs only `TemplatePlayer::default()` and `VERSION` from `strategy.rs`, which
//! [`the_workspace_needs_only_templateplayer_and_version`] keeps true.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The pages a team follows, relative to the workspace root.
const PAGES: [&str; 2] = ["README.md", "player/README.md"];

const STRATEGY_FILE: &str = "player/src/strategy.rs";
const STRATEGY_TEST: &str = "a test in player/tests/strategy.rs";
const DOCTEST_PLACES: [&str; 2] = ["a function body", "a program"];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("player/ is inside the workspace")
        .to_path_buf()
}

/// One ```` ```rust ```` block of a page.
#[derive(Debug)]
struct Snippet {
    /// `page:line` of the fence, for messages.
    at: String,
    /// Where the page says to put it (the marker), or `None` when it has no marker.
    place: Option<String>,
    /// The code, without the list item's indentation.
    code: String,
}

/// Every ```` ```rust ```` block of a Markdown text, with the marker on the last non-blank line
/// before its fence.
fn snippets(page: &str, text: &str) -> Vec<Snippet> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let fence = lines[index];
        let indent = fence.len() - fence.trim_start().len();
        let info = fence.trim_start();
        if !info.starts_with("```") {
            index += 1;
            continue;
        }
        let language = info.trim_start_matches('`').trim();
        // Find the closing fence, whatever the block's language.
        let end = (index + 1..lines.len())
            .find(|&i| lines[i].trim_start().starts_with("```"))
            .unwrap_or_else(|| panic!("{page}:{}: a code block that never closes", index + 1));
        if language == "rust" || language.starts_with("rust,") {
            let place = lines[..index]
                .iter()
                .rev()
                .find(|line| !line.trim().is_empty())
                .and_then(|line| {
                    line.trim()
                        .strip_prefix("<!-- snippet:")?
                        .strip_suffix("-->")
                        .map(|place| place.trim().to_string())
                });
            let code = lines[index + 1..end]
                .iter()
                .map(|line| line.get(indent..).unwrap_or(line.trim_start()))
                .collect::<Vec<_>>()
                .join("\n");
            found.push(Snippet {
                at: format!("{page}:{}", index + 1),
                place,
                code,
            });
        }
        index = end + 1;
    }
    found
}

fn every_snippet() -> Vec<Snippet> {
    PAGES
        .iter()
        .flat_map(|page| {
            let text = std::fs::read_to_string(workspace_root().join(page))
                .unwrap_or_else(|e| panic!("{page}: {e}"));
            snippets(page, &text)
        })
        .collect()
}

#[test]
fn every_rust_snippet_says_where_it_goes() {
    let snippets = every_snippet();
    let known = [
        STRATEGY_FILE,
        STRATEGY_TEST,
        DOCTEST_PLACES[0],
        DOCTEST_PLACES[1],
    ];
    let unplaced: Vec<String> = snippets
        .iter()
        .filter(|s| !s.place.as_deref().is_some_and(|p| known.contains(&p)))
        .map(|s| format!("{} ({:?})", s.at, s.place))
        .collect();
    assert!(
        unplaced.is_empty(),
        "Rust blocks without a known `<!-- snippet: PLACE -->` marker on the line before them \
         (PLACE one of {known:?}): {unplaced:?}"
    );
    // The first-bot path shows a whole strategy.rs and a test of it.
    for place in [STRATEGY_FILE, STRATEGY_TEST] {
        assert!(
            snippets.iter().any(|s| s.place.as_deref() == Some(place)),
            "no snippet for {place}"
        );
    }
}

#[test]
fn the_markers_are_read_from_the_line_before_the_fence() {
    let page = "Text.\n\n   <!-- snippet: a program -->\n   ```rust\n   fn main() {\n       let x = 1;\n   }\n   ```\n\n```rust\nlet y = 2;\n```\n\n```sh\ncargo test\n```\n";
    let found = snippets("page.md", page);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].place.as_deref(), Some("a program"));
    assert_eq!(found[0].code, "fn main() {\n    let x = 1;\n}");
    assert_eq!(found[0].at, "page.md:4");
    assert_eq!(found[1].place, None);
}

/// Makes `to` a copy of `from`, recursively, leaving out `target/` folders: the scratch copy is
/// kept between runs, so what is gone from `from` (a file renamed or moved into a folder) is
/// removed from `to` too.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(to).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" || from.join(&name).exists() {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            std::fs::remove_dir_all(entry.path()).unwrap();
        } else {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (source, name) = (entry.path(), entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            if name != "target" {
                copy_tree(&source, &to.join(&name));
            }
        } else {
            let destination = to.join(&name);
            // Unchanged files keep their modification time, so cargo rebuilds only what a
            // snippet changed.
            let same = std::fs::read(&destination).ok() == Some(std::fs::read(&source).unwrap());
            if !same {
                std::fs::copy(&source, &destination).unwrap();
            }
        }
    }
}

/// Writes `text` to `path` unless it already holds exactly that (see `copy_tree`).
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap();
    }
}

/// A scratch workspace of `shared`, `engine` and `player` with `strategy` as `player/src/strategy.rs`
/// and `tests` appended to `player/tests/strategy.rs`, checked with `cargo check
/// --all-targets`. The cargo output when it fails.
fn check_scratch(strategy: &str, tests: &[&Snippet]) -> Result<(), String> {
    let root = workspace_root();
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme-snippets");
    let scratch = base.join("workspace");
    copy_tree(&root.join("shared"), &scratch.join("shared"));
    // The rules engine too: the player's arena feature (on in its tests) plays on it.
    copy_tree(&root.join("engine"), &scratch.join("engine"));
    copy_tree(&root.join("player"), &scratch.join("player"));
    for file in ["Cargo.lock", "README.md"] {
        write_if_changed(
            &scratch.join(file),
            &std::fs::read_to_string(root.join(file)).unwrap(),
        );
    }
    // The root manifest as it is (its profiles decide how the dependencies build), with the
    // members this check needs.
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members_line = manifest
        .lines()
        .find(|line| line.trim_start().starts_with("members"))
        .expect("the root Cargo.toml lists its members");
    let manifest = manifest.replace(members_line, r#"members = ["shared", "engine", "player"]"#);
    write_if_changed(&scratch.join("Cargo.toml"), &manifest);

    write_if_changed(&scratch.join(STRATEGY_FILE), strategy);
    let mut strategy_tests =
        std::fs::read_to_string(root.join("player/tests/strategy.rs")).unwrap();
    for (number, snippet) in tests.iter().enumerate() {
        strategy_tests.push_str(&format!(
            "\n/// {}\n#[test]\nfn readme_snippet_{number}() {{\n{}\n}}\n",
            snippet.at, snippet.code
        ));
    }
    write_if_changed(&scratch.join("player/tests/strategy.rs"), &strategy_tests);

    let output = Command::new(env!("CARGO"))
        .args(["check", "--offline", "--all-targets", "--quiet"])
        .arg("--manifest-path")
        .arg(scratch.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", base.join("target"))
        // Warnings are not this test's business (clippy checks the real tree).
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

#[test]
fn the_first_bot_snippets_compile_where_the_readme_puts_them() {
    let snippets = every_snippet();
    let tests: Vec<&Snippet> = snippets
        .iter()
        .filter(|s| s.place.as_deref() == Some(STRATEGY_TEST))
        .collect();
    let strategies: Vec<&Snippet> = snippets
        .iter()
        .filter(|s| s.place.as_deref() == Some(STRATEGY_FILE))
        .collect();
    assert!(!strategies.is_empty(), "no snippet for {STRATEGY_FILE}");
    // Each strategy in turn (one build each, incremental); the test snippets with each.
    for strategy in strategies {
        if let Err(errors) = check_scratch(&strategy.code, &tests) {
            panic!(
                "{} does not compile as {STRATEGY_FILE} (with the test snippets {:?} in \
                 player/tests/strategy.rs):\n{errors}",
                strategy.at,
                tests.iter().map(|t| &t.at).collect::<Vec<_>>()
            );
        }
    }
}

/// What the rest of the workspace takes from `strategy.rs`: only `TemplatePlayer` (built with
/// `TemplatePlayer::default()`) and `VERSION`, so that any strategy with those two compiles
/// everywhere, not only in the `player` crate the scratch build checks.
#[test]
fn the_workspace_needs_only_templateplayer_and_version() {
    let root = workspace_root();
    let mut uses = Vec::new();
    let mut folders = vec![root.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if name != "target" && !name.starts_with('.') {
                    folders.push(path);
                }
                continue;
            }
            let skipped = path.ends_with(STRATEGY_FILE) || path.ends_with(file!());
            if path.extension().is_none_or(|e| e != "rs") || skipped {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (number, line) in text.lines().enumerate() {
                let mut rest = line;
                while let Some(at) = rest.find("strategy::") {
                    let after = &rest[at + "strategy::".len()..];
                    let item: String = after
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '{')
                        .collect();
                    let place = format!(
                        "{}:{}",
                        path.strip_prefix(&root).unwrap().display(),
                        number + 1
                    );
                    uses.push((place, item, after.to_string()));
                    rest = after;
                }
            }
        }
    }
    let allowed = |item: &str, after: &str| match item {
        "VERSION" => true,
        "TemplatePlayer" => {
            let call = after.trim_start_matches("TemplatePlayer");
            !call.starts_with("::") || call.starts_with("::default()")
        }
        _ => {
            // `use player::strategy::{TemplatePlayer, VERSION}` and the like.
            item.starts_with('{')
                && after
                    .split('}')
                    .next()
                    .unwrap_or("")
                    .trim_start_matches('{')
                    .split(',')
                    .all(|name| matches!(name.trim(), "TemplatePlayer" | "VERSION" | ""))
        }
    };
    let other: Vec<String> = uses
        .iter()
        .filter(|(_, item, after)| !allowed(item, after))
        .map(|(place, _, after)| format!("{place}: strategy::{after}"))
        .collect();
    assert!(
        other.is_empty(),
        "code outside {STRATEGY_FILE} that a team's own strategy would not provide: {other:#?}"
    );
    assert!(uses.len() >= 3, "{uses:?}");
}
