//! In-process seats send no JSON, so the runner serialises each document once for every
//! observer that writes documents (`Observer::wants_sent_json`): `requests.jsonl` and the
//! player logs share that one rendering, and nothing is rendered when no observer wants it.

use dealer::engine::{Game, GameSetup};
use dealer::observe::{Exchange, Observer};
use dealer::rules::GameRules;
use dealer::runner::{run_game, RunnerOptions, StopSignal};
use dealer::seat::{InProcessSeat, PlayerSeat};
use shared::GameState;
use std::io;
use std::sync::{Arc, Mutex};

/// Per exchange with a document: whether `sent_json` was given, and whether it was the
/// document's exact serialisation.
type Seen = Arc<Mutex<Vec<(bool, bool)>>>;

struct DocumentWatcher {
    wants: bool,
    seen: Seen,
}

impl Observer for DocumentWatcher {
    fn on_exchange(&mut self, exchange: &Exchange<'_>, _game: &Game) -> io::Result<()> {
        if let Some(state) = exchange.state {
            let exact = exchange.sent_json == Some(state.to_json().as_str());
            let round_trips = exchange
                .sent_json
                .is_some_and(|json| GameState::from_json(json).as_ref() == Ok(state));
            self.seen
                .lock()
                .unwrap()
                .push((exchange.sent_json.is_some(), exact && round_trips));
        }
        Ok(())
    }

    fn wants_sent_json(&self) -> bool {
        self.wants
    }
}

async fn play(wants: &[bool]) -> Vec<Vec<(bool, bool)>> {
    let seen: Vec<Seen> = wants.iter().map(|_| Seen::default()).collect();
    let observers: Vec<Box<dyn Observer>> = wants
        .iter()
        .zip(&seen)
        .map(|(&wants, seen)| {
            Box::new(DocumentWatcher {
                wants,
                seen: seen.clone(),
            }) as Box<dyn Observer>
        })
        .collect();
    let seats = ["calling-station", "raiser", "random"]
        .iter()
        .map(|kind| {
            let kind: bots::BotKind = kind.parse().unwrap();
            PlayerSeat::from(InProcessSeat::new(kind.build(0)))
        })
        .collect();
    let setup = GameSetup::new(
        GameRules {
            hand_limit: Some(6),
            ..GameRules::default()
        },
        vec!["a".into(), "b".into(), "c".into()],
        21,
    );
    run_game(
        setup,
        seats,
        observers,
        &RunnerOptions::default(),
        &StopSignal::never(),
    )
    .await
    .unwrap();
    seen.iter()
        .map(|seen| seen.lock().unwrap().clone())
        .collect()
}

#[tokio::test]
async fn in_process_documents_are_rendered_once_for_the_observers_that_want_them() {
    let seen = play(&[false, true]).await;
    assert!(!seen[1].is_empty());
    // Every observer gets the same rendering, exact, as soon as one of them wants it.
    assert_eq!(seen[0], seen[1]);
    assert!(seen[1].iter().all(|&(given, exact)| given && exact));
}

#[tokio::test]
async fn in_process_documents_are_not_rendered_when_no_observer_wants_them() {
    let seen = play(&[false]).await;
    assert!(!seen[0].is_empty());
    assert!(seen[0].iter().all(|&(given, _)| !given));
}
