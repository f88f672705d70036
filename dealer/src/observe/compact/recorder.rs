//! [`CompactRecorder`]: the observer that builds a game's compact record in memory as it is
//! played (a few dozen KB for the game's answers), so the event can write it to its database
//! the moment the game ends, before (and whether or not) any file is written.

use super::{CompactGame, RecordedAnswer, RecordedOutputs};
use crate::engine::Game;
use crate::game_event::GameEvent;
use crate::observe::game_record::GameRecordBuilder;
use crate::observe::{Exchange, Observer, OutputSelection};
use shared::protocol::Action;
use shared::Seat;
use std::io;
use std::sync::{Arc, Mutex, PoisonError};

#[derive(Debug, Default)]
struct Recording {
    builder: GameRecordBuilder,
    answers: Vec<RecordedAnswer>,
    /// The seat whose answer the engine has not read yet.
    pending: Option<Seat>,
}

/// Records the game for its [`CompactGame`]. Cloned: one clone is the game's observer, the
/// other takes the record at the end ([`CompactRecorder::take`]).
#[derive(Debug, Clone, Default)]
pub struct CompactRecorder(Arc<Mutex<Recording>>);

impl CompactRecorder {
    fn recording(&self) -> std::sync::MutexGuard<'_, Recording> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The observer to hand to the runner.
    pub fn observer(&self) -> Box<dyn Observer> {
        Box::new(self.clone())
    }

    /// The record so far, completed with what only the end of the game tells (the requests
    /// sent, who sat out, the versions at the end); `None` when the game never started.
    /// The recorder is emptied.
    pub fn take(
        &self,
        outputs: OutputSelection,
        requests: u64,
        absent: Vec<Option<String>>,
        versions: Vec<String>,
    ) -> Option<CompactGame> {
        let mut recording = self.recording();
        let game = recording.builder.take()?;
        recording.pending = None;
        Some(CompactGame {
            game,
            outputs: RecordedOutputs::from(outputs),
            requests,
            absent,
            versions,
            answers: std::mem::take(&mut recording.answers),
        })
    }
}

impl Observer for CompactRecorder {
    fn on_event(&mut self, event: &GameEvent, game: &Game) -> io::Result<()> {
        let mut recording = self.recording();
        recording.builder.on_event(event, game);
        // The engine's reading of the pending answer, as `requests.jsonl` takes it.
        let read = match event {
            GameEvent::BetPlaced { seat, answer, .. } => Some((*seat, *answer)),
            GameEvent::Banned { seat, .. } => Some((*seat, None)),
            _ => None,
        };
        if let Some((seat, number)) = read {
            if recording.pending == Some(seat) {
                recording.pending = None;
                if let Some(last) = recording.answers.last_mut() {
                    last.applied = true;
                    if last.text.is_none() && last.error.is_none() {
                        // In process: no body; the number the player returned is the answer.
                        last.text = number.map(|chips| chips.to_string());
                    }
                }
            }
        }
        Ok(())
    }

    fn on_exchange(&mut self, exchange: &Exchange<'_>, _game: &Game) -> io::Result<()> {
        if exchange.action != Action::BetRequest {
            return Ok(());
        }
        let mut recording = self.recording();
        recording.pending = Some(exchange.seat);
        recording.answers.push(RecordedAnswer {
            text: exchange
                .body
                .map(|body| String::from_utf8_lossy(body).into_owned()),
            error: exchange.failure.map(ToString::to_string),
            applied: false,
            latency_us: exchange.latency_us(),
            unsent_attempts: exchange
                .unsent_attempts
                .iter()
                .map(ToString::to_string)
                .collect(),
        });
        Ok(())
    }
}
