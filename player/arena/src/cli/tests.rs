use super::*;
use std::path::Path;

fn args(text: &str) -> Vec<OsString> {
    text.split_whitespace().map(OsString::from).collect()
}

#[test]
fn options_are_read_and_bad_ones_named() {
    let options = parse(args("--games 12 --vs raiser,folder --seed 9 --plain"))
        .unwrap()
        .unwrap();
    assert_eq!(options.games, 12);
    assert_eq!(
        opponents(&options, Path::new("unused"), "").unwrap(),
        [
            Opponent::Kind(BotKind::Raiser),
            Opponent::Kind(BotKind::Folder)
        ]
    );
    assert_eq!((options.seed, options.plain), (9, true));
    assert!(!options.why);
    assert!(parse(args("--why")).unwrap().unwrap().why);
    assert!(parse(args("--help")).unwrap().is_none());
    let error = |text: &str| parse(args(text)).err().unwrap();
    assert_eq!(error("--games 0"), "--games must be at least 1");
    assert!(error("--games ten").contains("not a whole number"));
    let unknown = |text: &str| {
        let options = parse(args(text)).unwrap().unwrap();
        opponents(&options, Path::new("unused"), "").err().unwrap()
    };
    assert!(unknown("--vs raiser,shark").contains("unknown bot kind \"shark\""));
    assert!(unknown("--vs raiser,shark").contains("calling-station"));
    assert!(error("--vs raiser,,folder").contains("an empty name"));
    assert!(error("--bogus").contains("--bogus"));
    assert!(error("--games").contains("missing"));
    assert!(error("--me").contains("missing"));
    let blank = parse(vec![OsString::from("--me"), OsString::from(" ")]);
    assert!(blank.err().unwrap().contains("empty"));
    let lonely = |text: &str| {
        let options = parse(args(text)).unwrap().unwrap();
        opponents(&options, Path::new("unused"), "").err().unwrap()
    };
    assert!(lonely("--me ann").contains("it needs --field-from"));
    assert!(lonely("--field-from http://a:1/ --field-from games").contains("not both"));
    assert!(lonely("--field-from https://event.example/").contains("plain http only"));
}

/// The SDK's fixture: a `dealer run` folder of two games (players a, b and c).
fn recorded_run() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../sdk/tests/fixtures/dealer-run-all-outputs")
}

#[test]
fn field_from_fits_once_and_seats_the_players_vs_names() {
    let run = recorded_run();
    let options = parse(vec![
        OsString::from("--field-from"),
        run.join("game-1").into_os_string(),
        run.join("game-2").into_os_string(),
        OsString::from("--vs"),
        OsString::from("a,c,folder"),
    ])
    .unwrap()
    .unwrap();
    assert_eq!(options.field_from, [run.join("game-1"), run.join("game-2")]);
    let arena_dir = std::env::temp_dir().join(format!("arena-cli-field-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&arena_dir);
    let vs = opponents(&options, &arena_dir, "").unwrap();
    let names: Vec<&str> = vs.iter().map(Opponent::name).collect();
    assert_eq!(names, ["a", "c", "folder"]);
    assert!(matches!(vs[0], Opponent::Profile(_)));
    // Cached: the second time reads the same profiles back.
    let fits: Vec<_> = std::fs::read_dir(arena_dir.join("fields"))
        .unwrap()
        .collect();
    assert_eq!(fits.len(), 1);
    assert_eq!(opponents(&options, &arena_dir, "").unwrap(), vs);
    // Too few decisions for a seat of their own (fewer than MIN_DECISIONS), and a name
    // that is neither.
    let mut alone = options;
    alone.vs = None;
    assert!(opponents(&alone, &arena_dir, "")
        .unwrap_err()
        .contains("no recorded player has"));
    alone.me = Some("zed".to_string());
    let error = opponents(&alone, &arena_dir, "").unwrap_err();
    assert!(
        error.contains("--me \"zed\" is not a recorded player (they are: a, b, c)"),
        "{error}"
    );
    alone.me = None;
    alone.vs = Some(vec!["zed".to_string()]);
    let error = opponents(&alone, &arena_dir, "").unwrap_err();
    assert!(
        error.contains("neither a fitted player (a, b, c)"),
        "{error}"
    );
    let _ = std::fs::remove_dir_all(&arena_dir);
}

#[test]
fn json_takes_a_file_or_none() {
    let json = |text: &str| parse(args(text)).unwrap().unwrap().json;
    assert_eq!(json("--games 6"), None);
    assert_eq!(json("--json"), Some(JsonTarget::Default));
    assert_eq!(json("--json --games 6"), Some(JsonTarget::Default));
    assert_eq!(
        json("--json out.json"),
        Some(JsonTarget::File("out.json".into()))
    );
    assert_eq!(
        json("--json=out.json --no-save"),
        Some(JsonTarget::File("out.json".into()))
    );
    assert!(parse(args("--json=")).err().unwrap().contains("empty"));
    let options = parse(args("--json --no-save")).unwrap().unwrap();
    assert!(!options.save);
}
