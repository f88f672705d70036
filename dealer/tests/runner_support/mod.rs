//! Test support for the runner, tournament and CLI tests: observers that record the stream
//! (`mod runner_support;` in a test file).
#![allow(dead_code)] // Each test binary uses a different part of this module.

use dealer::engine::Game;
use dealer::game_event::GameEvent;
use dealer::observe::{Exchange, Observer};
use shared::protocol::Action;
use shared::Seat;
use std::io;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// One exchange, as an observer saw it (owned).
#[derive(Debug, Clone, PartialEq)]
pub struct SeenExchange {
    pub round: u64,
    pub seat: Seat,
    pub player: String,
    pub action: Action,
    pub sent_at: SystemTime,
    /// `exchange.state` serialised at delivery (what the player was sent).
    pub state_json: Option<String>,
    pub sent_json: Option<String>,
    pub status: Option<u16>,
    pub body: Option<Vec<u8>>,
    pub latency_us: u64,
    pub failure: Option<String>,
    /// The reasons of the attempts handed back unsent, oldest first.
    pub unsent_attempts: Vec<String>,
    /// `time_used` of the seat in the game at delivery.
    pub time_used_in_game: u64,
}

/// Everything an observer was given, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Seen {
    Event(GameEvent),
    Exchange(SeenExchange),
    Finish { finished: bool, hands_played: u64 },
}

/// Records the stream into a shared list.
#[derive(Clone, Default)]
pub struct Recorder(pub Arc<Mutex<Vec<Seen>>>);

impl Recorder {
    pub fn new() -> Recorder {
        Recorder::default()
    }

    pub fn boxed(&self) -> Box<dyn Observer> {
        Box::new(self.clone())
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.0.lock().unwrap().clone()
    }

    pub fn exchanges(&self) -> Vec<SeenExchange> {
        self.seen()
            .into_iter()
            .filter_map(|seen| match seen {
                Seen::Exchange(exchange) => Some(exchange),
                _ => None,
            })
            .collect()
    }

    /// Asserts the observer was finished last, on a game stopped after `hands_played` hands.
    #[track_caller]
    pub fn assert_finished_unfinished_after(&self, hands_played: u64) {
        assert_eq!(
            self.seen().last(),
            Some(&Seen::Finish {
                finished: false,
                hands_played
            })
        );
    }

    pub fn events(&self) -> Vec<GameEvent> {
        self.seen()
            .into_iter()
            .filter_map(|seen| match seen {
                Seen::Event(event) => Some(event),
                _ => None,
            })
            .collect()
    }
}

impl Observer for Recorder {
    fn on_event(&mut self, event: &GameEvent, _game: &Game) -> io::Result<()> {
        self.0.lock().unwrap().push(Seen::Event(event.clone()));
        Ok(())
    }

    fn on_exchange(&mut self, exchange: &Exchange<'_>, game: &Game) -> io::Result<()> {
        let time_used_in_game = game.public_state().players[exchange.seat.index()]
            .time_used
            .unwrap_or(0);
        self.0.lock().unwrap().push(Seen::Exchange(SeenExchange {
            round: exchange.round,
            seat: exchange.seat,
            player: exchange.player.to_string(),
            action: exchange.action,
            sent_at: exchange.sent_at,
            state_json: exchange.state.map(|state| state.to_json()),
            sent_json: exchange.sent_json.map(str::to_string),
            status: exchange.status,
            body: exchange.body.map(<[u8]>::to_vec),
            latency_us: exchange.latency_us(),
            failure: exchange.failure.map(|failure| failure.to_string()),
            unsent_attempts: exchange
                .unsent_attempts
                .iter()
                .map(ToString::to_string)
                .collect(),
            time_used_in_game,
        }));
        Ok(())
    }

    /// Records the JSON text the outputs write (`requests.jsonl`, the players' logs).
    fn wants_sent_json(&self) -> bool {
        true
    }

    fn finish(&mut self, game: &Game) -> io::Result<()> {
        self.0.lock().unwrap().push(Seen::Finish {
            finished: game.is_finished(),
            hands_played: game.hands_played(),
        });
        Ok(())
    }
}

/// Fails at its `fail_at`-th call (1-based, all methods counted) and counts every call.
#[derive(Clone)]
pub struct Failing {
    pub calls: Arc<Mutex<u64>>,
    pub fail_at: u64,
}

impl Failing {
    pub fn new(fail_at: u64) -> Failing {
        Failing {
            calls: Arc::new(Mutex::new(0)),
            fail_at,
        }
    }

    pub fn calls(&self) -> u64 {
        *self.calls.lock().unwrap()
    }

    fn call(&self) -> io::Result<()> {
        let mut calls = self.calls.lock().unwrap();
        *calls += 1;
        if *calls == self.fail_at {
            Err(io::Error::other("disk full\n(on purpose)"))
        } else {
            Ok(())
        }
    }
}

impl Observer for Failing {
    fn on_event(&mut self, _event: &GameEvent, _game: &Game) -> io::Result<()> {
        self.call()
    }
    fn on_exchange(&mut self, _exchange: &Exchange<'_>, _game: &Game) -> io::Result<()> {
        self.call()
    }
    fn finish(&mut self, _game: &Game) -> io::Result<()> {
        self.call()
    }
}
