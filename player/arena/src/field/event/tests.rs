//! The event's stream as this tree's dealer writes it (`tests/fixtures/event-hands.phhs.gz`):
//! cut into games and segments, counted by version, fitted exactly as the same file fitted as
//! recordings, and a cut fetch leaving the cache as it was.

use super::*;
use crate::field::{fit, Fit};
use std::io::Read as _;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/event-hands.phhs.gz")
}

fn fixture_text() -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(fixture()).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text
}

/// The games the text holds, counted apart from [`Ingest`]: its distinct table prefixes.
fn games_in(text: &str) -> BTreeSet<u32> {
    text.lines()
        .filter_map(|line| line.strip_prefix("[game-"))
        .filter_map(|rest| rest.split('-').next()?.parse().ok())
        .collect()
}

fn temporary(name: &str) -> EventCache {
    let folder = std::env::temp_dir().join(format!("arena-event-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    EventCache::new(folder)
}

/// Feeds `text` in pieces of `piece` bytes (cut anywhere, inside a line or a character).
fn ingest(cache: &EventCache, text: &str, piece: usize, segment_games: u64) -> CacheIndex {
    let mut ingest =
        Ingest::new(cache, CacheIndex::empty("http://event/", "e1")).segment_games(segment_games);
    let bytes = text.as_bytes();
    let mut pending: Vec<u8> = Vec::new();
    for chunk in bytes.chunks(piece) {
        pending.extend_from_slice(chunk);
        let valid = match std::str::from_utf8(&pending) {
            Ok(text) => text.len(),
            Err(error) => error.valid_up_to(),
        };
        ingest
            .feed(std::str::from_utf8(&pending[..valid]).unwrap())
            .unwrap();
        pending.drain(..valid);
    }
    assert!(pending.is_empty());
    ingest.end().unwrap();
    let games = games_in(text);
    assert_eq!(ingest.games(), games.len() as u64);
    ingest.commit(*games.last().unwrap(), 0).unwrap()
}

fn file_fit(paths: &[PathBuf]) -> Fit {
    fit(paths, 2).unwrap()
}

#[test]
fn the_stream_is_cut_into_games_and_segments_and_counted_by_version() {
    let text = fixture_text();
    let games = games_in(&text);
    assert!(games.len() >= 5, "{games:?}");
    let cache = temporary("cut");
    let index = ingest(&cache, &text, 777, 5);
    assert_eq!(index.games, games.len() as u64);
    assert_eq!(index.last_game, *games.last().unwrap());
    assert_eq!(index.unreadable, 0, "{:?}", index.problems);
    // Segments of five games, in order, each a file any reader of recordings takes.
    assert_eq!(index.segments.len(), games.len().div_ceil(5));
    assert!(index.segments.iter().all(|s| s.games <= 5));
    let segment_files: Vec<PathBuf> = index
        .segments
        .iter()
        .map(|s| cache.folder().join(&s.file))
        .collect();
    let whole = file_fit(&[fixture()]);
    let parts = file_fit(&segment_files);
    assert_eq!(parts.unreadable, 0);
    assert_eq!(parts.players, {
        // The same profiles but for where they came from.
        let mut players = whole.players.clone();
        for (player, part) in players.iter_mut().zip(&parts.players) {
            player.profile.sources.clone_from(&part.profile.sources);
        }
        players
    });
    // Each team with its one version, its hands and decisions as the recordings' reader
    // counts them, in every game (four players at one table).
    let teams: Vec<(&str, &str)> = index
        .versions
        .iter()
        .map(|v| (v.team.as_str(), v.version.as_str()))
        .collect();
    assert_eq!(
        teams,
        [
            ("ann", "tight 1"),
            ("bob", "loose 1"),
            ("cy", "equity 1"),
            ("dan", "shover 1")
        ]
    );
    for figures in &index.versions {
        assert_eq!(figures.games, games.len() as u64, "{figures:?}");
        assert_eq!(figures.first_game, *games.first().unwrap());
        assert_eq!(figures.last_game, *games.last().unwrap());
        let recorded = whole
            .players
            .iter()
            .find(|p| p.profile.name == figures.team)
            .unwrap();
        assert_eq!(figures.hands, recorded.profile.hands, "{figures:?}");
        assert!(
            figures.decisions >= recorded.profile.decisions,
            "{figures:?}"
        );
    }
    // The index is read back as written.
    assert_eq!(cache.load().as_ref(), Some(&index));
    cache.clear().unwrap();
}

#[test]
fn a_team_fitted_from_the_event_is_the_same_as_from_its_recordings() {
    let text = fixture_text();
    let cache = temporary("fit");
    let index = ingest(&cache, &text, 4096, 4);
    let choices = choose(&index, 0);
    assert!(choices.iter().all(|c| c.versions.len() == 1 && !c.pooled));
    let recorded = file_fit(&[fixture()]);
    for threads in [1, 3] {
        let teams = fit_teams(&cache, &index, &choices, threads).unwrap();
        assert_eq!(teams.len(), 4);
        for (team, player) in teams.iter().zip(&recorded.players) {
            let (event, file) = (&team.fitted.profile, &player.profile);
            assert_eq!(event.name, file.name);
            assert_eq!(
                (
                    event.decisions,
                    event.hands,
                    &event.cells,
                    &event.raise_sizes
                ),
                (file.decisions, file.hands, &file.cells, &file.raise_sizes),
                "{}",
                event.name
            );
            // The style alike, but for its hands: the reader of recordings numbers a file's
            // hands by their round, so two games' hands of the same round in a row are one
            // hand to it; the event's fit numbers every hand.
            let (mut style, recorded) = (team.fitted.style, player.style);
            assert!(style.hands >= recorded.hands && style.hands <= recorded.hands + 2);
            style.hands = recorded.hands;
            assert_eq!(style, recorded, "{}", event.name);
            assert_eq!(
                event.sources,
                [format!(
                    "http://event/ version {:?}",
                    team.choice.versions[0]
                )]
            );
        }
    }
    cache.clear().unwrap();
}

#[test]
fn a_redeployed_team_is_fitted_from_its_newest_version_or_pooled_when_it_is_thin() {
    // ann deployed "tight 2" from the fourth game on.
    let text = fixture_text();
    let games: Vec<u32> = games_in(&text).into_iter().collect();
    let deployed_at = games[3];
    let mut redeployed = String::new();
    let mut game = 0;
    for line in text.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("[game-") {
            game = rest.split('-').next().unwrap().parse().unwrap();
        }
        if game >= deployed_at && line.starts_with("_lean_versions") {
            redeployed.push_str(&line.replace("\"tight 1\"", "\"tight 2\""));
        } else {
            redeployed.push_str(line);
        }
    }
    let cache = temporary("versions");
    let index = ingest(&cache, &redeployed, 1000, 500);
    let of = |version: &str| {
        index
            .versions
            .iter()
            .find(|v| v.team == "ann" && v.version == version)
            .unwrap()
            .clone()
    };
    let (old, new) = (of("tight 1"), of("tight 2"));
    assert_eq!((old.first_game, old.last_game), (games[0], games[2]));
    assert_eq!(old.games, 3);
    assert_eq!(new.games, games.len() as u64 - 3);
    let ann = |min: u64| {
        choose(&index, min)
            .into_iter()
            .find(|c| c.team == "ann")
            .unwrap()
    };
    // Enough in the newest version: it alone.
    let alone = ann(new.decisions);
    assert_eq!(alone.versions, ["tight 2"]);
    assert!(!alone.pooled && !alone.thin);
    assert_eq!((alone.games, alone.decisions), (new.games, new.decisions));
    // A thin newest version is pooled with the one before, and said so.
    let pooled = ann(new.decisions + 1);
    assert_eq!(pooled.versions, ["tight 2", "tight 1"]);
    assert!(pooled.pooled && !pooled.thin);
    assert_eq!(pooled.decisions, new.decisions + old.decisions);
    // Too few in all: fitted still, but thin.
    let thin = ann(new.decisions + old.decisions + 1);
    assert!(thin.pooled && thin.thin);
    let fitted = fit_teams(&cache, &index, &[alone.clone(), pooled.clone()], 2).unwrap();
    assert!(fitted[0].fitted.profile.decisions < fitted[1].fitted.profile.decisions);
    assert_eq!(fitted[0].fitted.profile.name, "ann");
    cache.clear().unwrap();
}

#[test]
fn a_fetch_cut_midway_or_not_the_events_hands_leaves_the_cache_as_it_was() {
    let text = fixture_text();
    let games: Vec<u32> = games_in(&text).into_iter().collect();
    let cut_at = text.find(&format!("[game-{}-", games[4])).unwrap();
    let cache = temporary("partial");
    let index = {
        let mut first = Ingest::new(&cache, CacheIndex::empty("http://event/", "e1"));
        first.feed(&text[..cut_at]).unwrap();
        first.end().unwrap();
        assert_eq!(first.games(), 4);
        first.commit(games[3], 0).unwrap()
    };
    let files = || {
        let mut names: Vec<String> = std::fs::read_dir(cache.folder())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let before = files();
    {
        // The next fetch is cut after a few games: dropped, nothing of it stays.
        let mut next = Ingest::new(&cache, cache.load().unwrap()).segment_games(1);
        next.feed(&text[cut_at..cut_at + (text.len() - cut_at) / 2])
            .unwrap();
        assert!(next.games() > 0);
    }
    assert_eq!(files(), before);
    assert_eq!(cache.load().as_ref(), Some(&index));
    // Games it already has, text that is not the event's hands, tables of another shape.
    let refused = |text: &str| {
        let mut next = Ingest::new(&cache, cache.load().unwrap());
        next.feed(text).and_then(|()| next.end()).unwrap_err()
    };
    let again = &text[text.find("\n[game-").unwrap() + 1..cut_at];
    assert!(
        refused(again).contains("number order"),
        "{}",
        refused(again)
    );
    assert!(refused("<html>\n").contains("not the event's hand histories"));
    assert!(refused("[3]\nhand = 3\n").contains("[3]"));
    assert_eq!(files(), before);
    // The rest, fetched whole, follows on.
    let mut rest = Ingest::new(&cache, cache.load().unwrap());
    rest.feed(&text[cut_at..]).unwrap();
    rest.end().unwrap();
    let index = rest.commit(*games.last().unwrap(), 2).unwrap();
    assert_eq!(index.games, games.len() as u64);
    assert_eq!(index.without_record, 2);
    assert_eq!(index.segments.len(), 2);
    cache.clear().unwrap();
}
