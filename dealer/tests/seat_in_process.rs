//! In-process seats: direct calls, caught panics, the optional deadline thread.

use dealer::seat::{InProcessSeat, Player, PlayerSeat, SeatFailure};
use shared::{Chips, GameState};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// Calls, counting the showdowns it is told about.
#[derive(Default)]
struct Caller {
    showdowns: AtomicUsize,
}

impl Player for Caller {
    fn bet_request(&self, state: &GameState) -> Chips {
        state.call_amount()
    }
    fn showdown(&self, _state: &GameState) {
        self.showdowns.fetch_add(1, Ordering::SeqCst);
    }
    fn version(&self) -> String {
        "Caller 1.0 \n".into()
    }
}

/// Panics in every call.
struct Panicker;

impl Player for Panicker {
    fn bet_request(&self, state: &GameState) -> Chips {
        panic!(
            "no chips for round {}\nsecond line",
            state.round.unwrap_or(0)
        );
    }
    fn showdown(&self, _state: &GameState) {
        panic!("showdown!");
    }
    fn version(&self) -> String {
        std::panic::panic_any(42_u32)
    }
}

/// Takes far longer than any deadline.
struct Sleeper;

impl Player for Sleeper {
    fn bet_request(&self, _state: &GameState) -> Chips {
        std::thread::sleep(Duration::from_secs(3));
        Chips(0)
    }
}

fn state() -> GameState {
    shared::testing_state()
}

#[tokio::test]
async fn calls_go_straight_to_the_player() {
    let caller = Arc::new(Caller::default());
    let seat = PlayerSeat::from(InProcessSeat::new(caller.clone()));
    let state = state();
    let reply = seat.bet_request(&state).await;
    assert_eq!(reply.outcome, Ok(state.call_amount()));
    assert_eq!((reply.status, reply.body), (None, None));
    assert_eq!(seat.showdown(&state).await.outcome, Ok(()));
    assert_eq!(caller.showdowns.load(Ordering::SeqCst), 1);
    assert_eq!(seat.check().await.outcome, Ok(()));
    // Cleaned like an HTTP answer: verbatim, minus control characters.
    assert_eq!(seat.version().await.outcome, Ok("Caller 1.0 ".into()));
    assert_eq!(seat.address(), "in-process");
}

#[tokio::test]
async fn spec_6_a_panic_is_a_failure_with_its_message() {
    let seat = PlayerSeat::from(InProcessSeat::new(Arc::new(Panicker)));
    let reply = seat.bet_request(&state()).await;
    let reason = reply.failure().unwrap().to_string();
    assert_eq!(reason, "panicked: no chips for round 0 second line");
    assert_eq!(
        seat.showdown(&state()).await.outcome,
        Err(SeatFailure::Panicked("showdown!".into()))
    );
    assert_eq!(
        seat.version().await.outcome,
        Err(SeatFailure::Panicked("a panic without a message".into()))
    );
    // The seat stays usable after a panic.
    assert!(seat.bet_request(&state()).await.outcome.is_err());
}

#[tokio::test]
async fn with_a_deadline_a_hanging_player_times_out() {
    let seat = PlayerSeat::from(
        InProcessSeat::new(Arc::new(Sleeper)).with_deadline(Duration::from_millis(200)),
    );
    let started = Instant::now();
    let reply = seat.bet_request(&state()).await;
    assert!(started.elapsed() < Duration::from_millis(200) + Duration::from_millis(1500));
    assert_eq!(
        reply.failure().map(ToString::to_string).as_deref(),
        Some("timeout after 200 ms")
    );
}

#[tokio::test]
async fn with_a_deadline_answers_and_panics_still_come_through() {
    let caller = Arc::new(Caller::default());
    let seat = InProcessSeat::new(caller.clone()).with_deadline(Duration::from_secs(2));
    assert_eq!(seat.deadline(), Some(Duration::from_secs(2)));
    let state = state();
    assert_eq!(
        seat.bet_request(&state).await.outcome,
        Ok(state.call_amount())
    );
    assert_eq!(seat.showdown(&state).await.outcome, Ok(()));
    assert_eq!(caller.showdowns.load(Ordering::SeqCst), 1);
    assert_eq!(seat.version().await.outcome, Ok("Caller 1.0 ".into()));

    let panicking = InProcessSeat::new(Arc::new(Panicker)).with_deadline(Duration::from_secs(2));
    assert_eq!(
        panicking.showdown(&state).await.outcome,
        Err(SeatFailure::Panicked("showdown!".into()))
    );
}
