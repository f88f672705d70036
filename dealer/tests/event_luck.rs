//! Every finished event game's luck of the cards by seat (`event::luck`, issue 32): valued in
//! the background after the game ends, from its record, to the figures the arena's meter gives
//! that game; kept beside the standings through a restart; an old event's database upgraded
//! and back-filled; a game without a record said to count raw.

use crate::support::event::play_games;
use crate::support::wait::until_async;
use dealer::engine::luck::LuckMeter;
use dealer::engine::Game;
use dealer::event::luck::{spawn_valuer, value_game, value_next, value_waiting};
use dealer::event::players::Enrollment;
use dealer::event::settings::Contact;
use dealer::event::store::{GameLuck, LuckState, StoredRecord, DATABASE_FILE};
use dealer::event::versions::{team_versions, VersionVerdict};
use dealer::event::{archive, Event};
use dealer::game_event::GameEvent;
use dealer::observe::Observer;
use dealer::runner::StopSignal;
use std::path::Path;
use std::sync::Arc;

/// Three house bots that bet, short games, no pause: a few games a second.
const EVENT: &str = "hand_limit = 25\npause_ms = 1\nseed = 5\n\
    [[bot]]\nname = \"ann\"\nkind = \"raiser\"\n\
    [[bot]]\nname = \"bob\"\nkind = \"calling-station\"\n\
    [[bot]]\nname = \"cy\"\nkind = \"random\"\n";

fn open_event(data: &Path) -> Arc<Event> {
    crate::support::event::open(data, EVENT)
}

/// The event's valuer thread, as `dealer serve` runs it.
struct Valuer {
    stop: dealer::runner::StopHandle,
    thread: std::thread::JoinHandle<()>,
}

impl Valuer {
    fn start(event: &Arc<Event>) -> Valuer {
        let (stop, signal) = dealer::runner::stop_signal();
        let thread = spawn_valuer(Arc::clone(event), signal).unwrap();
        Valuer { stop, thread }
    }

    /// Waits until no game is left to value, then stops the thread.
    async fn stop_once_all_valued(self, event: &Event, what: &str) {
        until_async(what, || event.store().unvalued_games().unwrap() == 0).await;
        self.stop.stop();
        let thread = self.thread;
        tokio::task::spawn_blocking(move || thread.join().unwrap())
            .await
            .unwrap();
    }
}

fn luck_of(event: &Event, number: u32) -> GameLuck {
    event.store().game_luck(number).unwrap().unwrap()
}

fn finished_games(event: &Event) -> Vec<u32> {
    let page = dealer::event::queries::games_page(event.store(), 1, 1000).unwrap();
    let mut numbers: Vec<u32> = page
        .games
        .iter()
        .filter(|game| !game.standings.is_empty())
        .map(|game| game.number)
        .collect();
    numbers.sort_unstable();
    numbers
}

/// The arena's meter for one seat, fed a replay of the game's record.
struct OneSeat(LuckMeter);

impl Observer for OneSeat {
    fn on_event(&mut self, event: &GameEvent, _game: &Game) -> std::io::Result<()> {
        self.0.observe(event);
        Ok(())
    }
}

/// Game `number`'s luck checked: every seat valued, finite, the seats' luck summing to 0 (the
/// value shares the same 8 points among the seats before and after every card), and each
/// seat's figure the one the arena's single-seat meter gives the game replayed from its
/// record, to the bit. Returns the figures.
fn check_valued(event: &Event, number: u32) -> Vec<f64> {
    let stored = luck_of(event, number);
    assert_eq!(stored.state, Some(LuckState::Valued), "game {number}");
    let compact = archive::compact_game(event.store(), number)
        .unwrap()
        .expect("a record");
    let seats = compact.game.players.len();
    assert_eq!(stored.seats.len(), seats);
    let mut figures = Vec::new();
    for (seat, luck) in &stored.seats {
        let luck = luck.expect("valued");
        assert!(luck.is_finite() && luck.abs() <= 8.0, "{luck}");
        let mut arena = OneSeat(LuckMeter::for_seat(*seat, seats, compact.game.seed));
        let result = dealer::replay::play_compact(&compact, &mut arena).unwrap();
        assert!(result.is_some(), "the record replays to the game's end");
        assert_eq!(luck.to_bits(), arena.0.luck(*seat).to_bits(), "seat {seat}");
        figures.push(luck);
    }
    let sum: f64 = figures.iter().sum();
    assert!(
        sum.abs() < 1e-9,
        "game {number}: the seats' luck sums to {sum}"
    );
    figures
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_get_every_seats_luck_in_the_background() {
    let dir = tempfile::tempdir().unwrap();
    let event = open_event(dir.path());
    let valuer = Valuer::start(&event);
    play_games(&event, 4).await;
    // The last round's end woke the valuer: it values every game that finished.
    valuer
        .stop_once_all_valued(&event, "every finished game valued")
        .await;
    let games = finished_games(&event);
    assert!(games.len() >= 4, "{games:?}");
    let mut lucky = 0;
    for &number in &games {
        lucky += check_valued(&event, number)
            .iter()
            .filter(|luck| **luck != 0.0)
            .count();
    }
    assert!(lucky > 0, "some seat's cards moved its points");
}

/// An event from before luck (schema 4): upgraded on start with every game waiting, valued
/// across a restart from where it stopped; the game recorded without a record says so and
/// counts raw, and is valued once its record is made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_event_is_upgraded_and_back_filled_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let event = open_event(dir.path());
    play_games(&event, 3).await;
    let games = finished_games(&event);
    assert!(games.len() >= 3, "{games:?}");
    drop(event);
    // The database as the dealer before luck left it, one game without a record (a dealer
    // from before records).
    let no_record = games[1];
    let saved_record: StoredRecord = {
        let connection = rusqlite::Connection::open(dir.path().join(DATABASE_FILE)).unwrap();
        let saved = connection
            .query_row(
                "SELECT format, record FROM game_records WHERE game = ?1",
                [no_record],
                |row| {
                    Ok(StoredRecord {
                        format: row.get(0)?,
                        bytes: row.get(1)?,
                    })
                },
            )
            .unwrap();
        connection
            .execute_batch(&format!(
                "DROP TABLE hand_notes;
                 DROP INDEX games_unvalued;
                 ALTER TABLE games DROP COLUMN luck;
                 ALTER TABLE standings DROP COLUMN luck;
                 ALTER TABLE players DROP COLUMN deploys;
                 ALTER TABLE standings DROP COLUMN deploy;
                 DELETE FROM game_records WHERE game = {no_record};
                 PRAGMA user_version = 4;"
            ))
            .unwrap();
        saved
    };

    let event = open_event(dir.path());
    assert_eq!(
        event.store().unvalued_games().unwrap(),
        games.len() as u64,
        "every old game waits to be valued"
    );
    for &number in &games {
        let luck = luck_of(&event, number);
        assert_eq!(luck.state, None);
        assert!(luck.seats.iter().all(|(_, luck)| luck.is_none()));
    }
    // One game valued, then the server stops (its next game never started).
    assert_eq!(
        value_next(event.store()).unwrap(),
        Some((games[0], LuckState::Valued))
    );
    let first = check_valued(&event, games[0]);
    drop(event);

    // The restart continues with the games left, the first one kept as it was.
    let event = open_event(dir.path());
    assert_eq!(
        event.store().unvalued_games().unwrap(),
        games.len() as u64 - 1
    );
    Valuer::start(&event)
        .stop_once_all_valued(&event, "the back-fill finished")
        .await;
    assert_eq!(check_valued(&event, games[0]), first);
    for &number in games.iter().filter(|&&n| n != no_record) {
        check_valued(&event, number);
    }
    let unvalued = luck_of(&event, no_record);
    assert_eq!(unvalued.state, Some(LuckState::NoRecord));
    assert!(unvalued.seats.iter().all(|(_, luck)| luck.is_none()));
    assert!(!unvalued.seats.is_empty(), "its standings stay");

    // Its record made later (from its files): valued after all.
    event
        .store()
        .add_game_record(no_record, &saved_record)
        .unwrap();
    assert_eq!(luck_of(&event, no_record).state, None);
    assert_eq!(
        value_waiting(event.store(), &StopSignal::never()).unwrap(),
        1
    );
    check_valued(&event, no_record);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_that_stops_before_the_end_counts_raw() {
    let dir = tempfile::tempdir().unwrap();
    let event = open_event(dir.path());
    play_games(&event, 1).await;
    let number = finished_games(&event)[0];
    let mut compact = archive::compact_game(event.store(), number)
        .unwrap()
        .unwrap();
    compact.answers.truncate(compact.answers.len() / 2);
    let reason = value_game(&compact).unwrap_err();
    assert!(reason.contains("stops before the game's end"), "{reason}");
    event
        .store()
        .add_game_record(
            number,
            &StoredRecord {
                format: dealer::observe::compact::COMPACT_FORMAT,
                bytes: compact.encode().unwrap(),
            },
        )
        .unwrap();
    assert_eq!(
        value_next(event.store()).unwrap(),
        Some((number, LuckState::Unreplayable))
    );
    let luck = luck_of(&event, number);
    assert_eq!(luck.state, Some(LuckState::Unreplayable));
    assert!(luck.seats.iter().all(|(_, luck)| luck.is_none()));
    // The games of the round still under way when play stopped finish too, however fast the
    // machine is: they are valued, and the unreplayable game is never taken again.
    while let Some((other, state)) = value_next(event.store()).unwrap() {
        assert_ne!(other, number, "an unreplayable game is not retried");
        assert_eq!(state, LuckState::Valued, "game {other}");
    }
}

/// Game number → each seat's luck, of the games `dealer serve` valued so far.
fn valued_in(data: &Path) -> std::collections::BTreeMap<u32, Vec<f64>> {
    let db = rusqlite::Connection::open(data.join(DATABASE_FILE)).unwrap();
    db.execute_batch("PRAGMA busy_timeout = 5000").unwrap();
    let mut statement = db
        .prepare(
            "SELECT s.game, s.luck FROM standings s JOIN games g ON g.number = s.game
             WHERE g.luck = 'valued' ORDER BY s.game, s.seat",
        )
        .unwrap();
    let mut valued = std::collections::BTreeMap::<u32, Vec<f64>>::new();
    let rows = statement
        .query_map([], |row| Ok((row.get::<_, u32>(0)?, row.get::<_, f64>(1)?)))
        .unwrap();
    for row in rows {
        let (game, luck) = row.unwrap();
        valued.entry(game).or_default().push(luck);
    }
    valued
}

/// `dealer serve` values its games as it plays them; after a `kill -9` and a restart it goes on
/// from where it was, the games valued before the kill kept as they were.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dealer_serve_values_its_games_and_goes_on_after_kill_9() {
    let temp = tempfile::tempdir().unwrap();
    let data = temp.path().join("event");
    let config = "seed = 3\nhand_limit = 30\npause_ms = 100\n\
        [[bot]]\nname = \"ann\"\nkind = \"raiser\"\n\
        [[bot]]\nname = \"bob\"\nkind = \"calling-station\"\n\
        [[bot]]\nname = \"cy\"\nkind = \"random\"\n";
    let mut server = crate::event_serve::Server::start(&data, config);
    until_async("two games valued by the server", || {
        valued_in(&data).len() >= 2
    })
    .await;
    assert_eq!(server.signal("-KILL"), None, "killed by a signal");
    crate::event_serve::integrity_ok(&data);
    let before = valued_in(&data);
    let finished: Vec<u32> = {
        let db = rusqlite::Connection::open(data.join(DATABASE_FILE)).unwrap();
        let mut statement = db
            .prepare("SELECT number FROM games WHERE state = 'finished' ORDER BY number")
            .unwrap();
        let rows = statement.query_map([], |row| row.get(0)).unwrap();
        rows.map(Result::unwrap).collect()
    };
    let _server = crate::event_serve::Server::start(&data, config);
    until_async("every game finished before the kill valued", || {
        let valued = valued_in(&data);
        finished.iter().all(|number| valued.contains_key(number))
    })
    .await;
    let after = valued_in(&data);
    for (game, luck) in &before {
        assert_eq!(
            after[game], *luck,
            "game {game} kept as valued before the kill"
        );
        let sum: f64 = luck.iter().sum();
        assert!(sum.abs() < 1e-9, "game {game}: {sum}");
    }
}

/// Events of the proof below, each its own seed.
const PROOF_EVENTS: u64 = 200;
/// Games per event of the proof.
const PROOF_GAMES: usize = 40;

/// The arena's A/A proof, on event games: bots that do not change, so each team's true luck is
/// 0, and a 95% interval of its mean luck per game must cover 0 in about 95% of events; the
/// luck over every game must average 0. The games are the event's own: played by its
/// scheduler (one table of four a round, seated anew each round, each game from its own seed),
/// recorded, and valued by the valuer's own function, from the database's records (no game
/// files written: the valuer reads none).
///
/// Halfway through, every team is redeployed as it was (removed and added again: a new
/// version of the same bot), so the team view compares two versions that play alike: its
/// verdict, luck taken out with the fitted coefficient, must be BETTER or WORSE in about 5% of
/// them (an A/A of the verdict), and the raw one too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "8,000 event games: cargo test -p lean-poker-dealer --test dealer_tests -- --ignored event_luck::each_teams --nocapture"]
async fn each_teams_mean_luck_covers_zero_in_about_95_percent_of_events() {
    let teams = ["tight", "push-fold", "loose", "solid"];
    let mut covered: std::collections::BTreeMap<String, u32> = Default::default();
    let mut intervals = 0;
    let mut pooled: std::collections::HashMap<String, Vec<f64>> = Default::default();
    let (mut comparisons, mut false_verdicts) = (0u32, (0u32, 0u32));
    for seed in 0..PROOF_EVENTS {
        let dir = tempfile::tempdir().unwrap();
        let mut config = format!(
            "hand_limit = 60\npause_ms = 0\nseed = {}\noutputs = [\"none\"]\n",
            100 + seed
        );
        for kind in teams {
            config.push_str(&format!("[[bot]]\nname = \"{kind}\"\nkind = \"{kind}\"\n"));
        }
        let event = crate::support::event::open(dir.path(), &config);
        play_games(&event, PROOF_GAMES / 2).await;
        for (id, kind) in (1..).zip(teams) {
            event.set_status(id, Enrollment::Removed).unwrap();
            let contact = Contact::Bot(kind.parse().unwrap());
            assert_eq!(event.add_player(kind, contact).unwrap(), id);
        }
        play_games(&event, PROOF_GAMES).await;
        value_waiting(event.store(), &StopSignal::never()).unwrap();
        for id in 1..=teams.len() as i64 {
            let team = team_versions(event.store(), id).unwrap().unwrap();
            let comparison = team.comparison.expect("two versions, both valued");
            comparisons += 1;
            false_verdicts.0 += u32::from(comparison.verdict != VersionVerdict::CantTellYet);
            false_verdicts.1 += u32::from(comparison.raw_verdict != VersionVerdict::CantTellYet);
        }
        let mut by_team: std::collections::HashMap<String, Vec<f64>> = Default::default();
        let page = dealer::event::queries::games_page(event.store(), 1, 1000).unwrap();
        for game in page.games.iter().filter(|game| !game.standings.is_empty()) {
            let luck = luck_of(&event, game.number);
            assert_eq!(luck.state, Some(LuckState::Valued));
            let players = archive::compact_game(event.store(), game.number)
                .unwrap()
                .unwrap()
                .game
                .players;
            for (seat, value) in &luck.seats {
                by_team
                    .entry(players[*seat].clone())
                    .or_default()
                    .push(value.unwrap());
            }
        }
        for (team, values) in &by_team {
            let interval = dealer::engine::stats::Interval::of(values);
            intervals += 1;
            let count = covered.entry(team.clone()).or_default();
            if interval.low() <= 0.0 && interval.high() >= 0.0 {
                *count += 1;
            }
            pooled
                .entry(team.clone())
                .or_default()
                .extend_from_slice(values);
        }
    }
    let all_covered: u32 = covered.values().sum();
    eprintln!(
        "{PROOF_EVENTS} events of {PROOF_GAMES} games: each team's 95% interval of its mean \
         luck covered 0 in {all_covered} of {intervals} ({covered:?} of {PROOF_EVENTS} each)"
    );
    // Binomial(800, 0.95): 760 expected, standard deviation 6.2; beyond 3.4 of them only with
    // a wrong coverage. (A t interval of a few dozen games of a skewed luck covers a little
    // less than 95%: with 20 games an event, 367 and 370 of 400.)
    let expected = 0.95 * f64::from(intervals);
    let sd = (f64::from(intervals) * 0.95 * 0.05).sqrt();
    assert!(
        (f64::from(all_covered) - expected).abs() <= 3.4 * sd,
        "{all_covered} of {intervals}"
    );
    // The verdict on two versions of the same bot: BETTER or WORSE about one time in twenty.
    // Binomial(800, 0.05): 40 expected, standard deviation 6.2 (Welch's t on 20 and 20 games
    // of skewed points is close to its level, not exactly at it).
    eprintln!(
        "{comparisons} redeploys that changed nothing: called BETTER or WORSE in {} with the \
         luck taken out, {} raw",
        false_verdicts.0, false_verdicts.1
    );
    let expected = 0.05 * f64::from(comparisons);
    let sd = (f64::from(comparisons) * 0.05 * 0.95).sqrt();
    for (measure, count) in [("adjusted", false_verdicts.0), ("raw", false_verdicts.1)] {
        assert!(
            (f64::from(count) - expected).abs() <= 3.4 * sd,
            "{measure}: {count} false verdicts of {comparisons}"
        );
    }
    // No bias for any team (the seats' luck sums to 0 in every game, so only a team's own
    // mean says anything): each within 3.5 standard errors of 0.
    for (team, values) in &pooled {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let error = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0) / n).sqrt();
        eprintln!("{team}: luck per game {mean:+.4} ± {error:.4} (standard error)");
        assert!(mean.abs() < 3.5 * error, "{team}: luck {mean} ± {error}");
    }
}
