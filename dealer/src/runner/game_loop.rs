//! One game in progress: the loop that steps the engine and talks to the seats (versions, bet
//! requests, concurrent showdowns), handing every exchange and event to the observers.

use super::*;

/// The [`Delivery`] of a [`GameLoop`], borrowed field by field: a macro rather than a method,
/// because a method would borrow the whole loop, and the bet request's document stays borrowed
/// from the game while its exchange is delivered.
macro_rules! delivery {
    ($game_loop:expr) => {
        Delivery {
            observers: &mut $game_loop.observers,
            json: &mut $game_loop.json,
            game: &$game_loop.game,
            clock: $game_loop.options.clock,
        }
    };
}

/// One game in progress.
pub(super) struct GameLoop<'a> {
    pub(super) game: Game,
    pub(super) first_round: u64,
    pub(super) seats: &'a [PlayerSeat],
    /// Seats that take part (absent seats sitting out are `false`).
    pub(super) present: Vec<bool>,
    /// Seats eliminated so far (busted or banned): no more `version` for them.
    pub(super) eliminated: Vec<bool>,
    pub(super) versions: Vec<PlayerVersion>,
    pub(super) bet_requests: Vec<u64>,
    pub(super) requests: u64,
    /// One `showdown` document per seat, rendered anew each hand (sent concurrently, so
    /// each receiver has its own; kept, so a render writes only numbers and cards).
    pub(super) showdowns: Vec<Document>,
    pub(super) observers: ObserverSet,
    /// The JSON text of an exchange's document, rendered once for every observer that writes it.
    pub(super) json: DocumentJson,
    pub(super) options: &'a RunnerOptions,
    pub(super) stop: &'a StopSignal,
}

impl GameLoop<'_> {
    pub(super) async fn play(&mut self) -> Result<(), RunError> {
        self.ask_versions().await?;
        loop {
            if self.stop.is_stopped() {
                return Err(self.stopped());
            }
            match self.game.step() {
                Step::Event(event) => {
                    self.observers.event(&event, &self.game);
                    match event {
                        GameEvent::HandStarted { round, .. } if round != self.first_round => {
                            self.ask_versions().await?;
                        }
                        GameEvent::PlayerEliminated { seat, .. } => {
                            if let Some(out) = self.eliminated.get_mut(seat.index()) {
                                *out = true;
                            }
                        }
                        _ => {}
                    }
                }
                Step::BetRequest { seat } => {
                    // In-process players answer without ever making the game wait: give the
                    // other tasks of this worker (other games, Ctrl-C) their turn now and then.
                    tokio::task::consume_budget().await;
                    self.bet_request(seat).await?;
                }
                Step::Showdown { .. } => self.showdown().await?,
                Step::Finished => return Ok(()),
            }
        }
    }

    fn stopped(&self) -> RunError {
        RunError::Stopped {
            hands_played: self.game.hands_played(),
        }
    }

    /// Asks `version` of every present player still `Unknown` (and not out of the game).
    async fn ask_versions(&mut self) -> Result<(), RunError> {
        let wanted: Vec<usize> = (0..self.seats.len())
            .filter(|&index| {
                self.present[index]
                    && self.versions[index].should_ask(&self.options.version)
                    && !self.eliminated[index]
            })
            .collect();
        if wanted.is_empty() {
            return Ok(());
        }
        let sent_at = self.options.clock.now();
        let seats = self.seats;
        let mut asked: Vec<(usize, &mut PlayerVersion)> = self
            .versions
            .iter_mut()
            .enumerate()
            .filter(|(index, _)| wanted.contains(index))
            .collect();
        let pairs = asked
            .iter_mut()
            .map(|(index, version)| (&seats[*index], &mut **version));
        let policy = self.options.version;
        let replies = tokio::select! {
            replies = ask_versions(pairs, &policy) => replies,
            () = self.stop.stopped() => return Err(self.stopped()),
        };
        for (index, reply) in wanted.iter().zip(replies) {
            let Some(reply) = reply else { continue };
            self.requests += 1;
            self.deliver(Seat(*index), Action::Version, sent_at, None, &reply);
            if let Some(version) = self.versions[*index].known() {
                self.game
                    .set_version(Seat(*index), version.to_string())
                    .map_err(|error| RunError::Internal(error.to_string()))?;
            }
        }
        Ok(())
    }

    async fn bet_request(&mut self, seat: Seat) -> Result<(), RunError> {
        let handle = self
            .seats
            .get(seat.index())
            .ok_or_else(|| RunError::Internal(format!("no seat {seat}")))?;
        let clock = self.options.clock;
        let sent_at = clock.now();
        let state = self
            .game
            .bet_request_state()
            .ok_or_else(|| RunError::Internal("a bet request without a document".into()))?;
        let reply = tokio::select! {
            reply = handle.bet_request(state) => reply,
            () = self.stop.stopped() => return Err(self.stopped()),
        };
        self.requests += 1;
        self.bet_requests[seat.index()] += 1;
        let latency = deliver(
            delivery!(self),
            seat,
            Action::BetRequest,
            sent_at,
            Some(state),
            &reply,
        );
        let micros = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX);
        self.game
            .add_time_used(seat, micros)
            .map_err(|error| RunError::Internal(error.to_string()))?;
        let answer = match reply.outcome {
            Ok(chips) => SeatAnswer::Bet(chips),
            Err(failure) => SeatAnswer::Invalid {
                reason: failure.to_string(),
            },
        };
        self.game
            .answer(answer)
            .map_err(|error| RunError::Internal(error.to_string()))
    }

    /// Sends `showdown` to every present seat, concurrently, each its own document.
    async fn showdown(&mut self) -> Result<(), RunError> {
        let receivers: Vec<Seat> = (0..self.seats.len())
            .filter(|&index| self.present[index])
            .map(Seat)
            .collect();
        for &seat in &receivers {
            self.game
                .render_document(View::Showdown(seat), &mut self.showdowns[seat.index()])
                .map_err(|error| RunError::Internal(error.to_string()))?;
        }
        let sent_at = self.options.clock.now();
        let seats = self.seats;
        let documents = std::mem::take(&mut self.showdowns);
        let sends = receivers
            .iter()
            .map(|seat| seats[seat.index()].showdown(documents[seat.index()].state()));
        let replies = tokio::select! {
            replies = join_all(sends) => Some(replies),
            () = self.stop.stopped() => None,
        };
        let Some(replies) = replies else {
            self.showdowns = documents;
            return Err(self.stopped());
        };
        self.requests += replies.len() as u64;
        for (seat, reply) in receivers.iter().zip(&replies) {
            let state = documents[seat.index()].state();
            self.deliver(*seat, Action::Showdown, sent_at, Some(state), reply);
        }
        self.showdowns = documents;
        Ok(())
    }

    /// Hands one finished exchange to the observers (see [`deliver`]).
    pub(super) fn deliver<T>(
        &mut self,
        seat: Seat,
        action: Action,
        sent_at: SystemTime,
        state: Option<&GameState>,
        reply: &Reply<T>,
    ) {
        deliver(delivery!(self), seat, action, sent_at, state, reply);
    }
}

/// The parts of a [`GameLoop`] an exchange is delivered through: borrowed apart, so that the
/// bet request's document (borrowed from the game) can go with it.
struct Delivery<'a> {
    observers: &'a mut ObserverSet,
    json: &'a mut DocumentJson,
    game: &'a Game,
    clock: Clock,
}

/// The one place an exchange is built: every request's reply, whatever the action, becomes one
/// [`Exchange`] handed to the observers once, and a failure is logged here once (the seats do
/// not log failures: only the game knows the player's name and the hand). Returns the latency
/// as the clock records it.
fn deliver<T>(
    to: Delivery<'_>,
    seat: Seat,
    action: Action,
    sent_at: SystemTime,
    state: Option<&GameState>,
    reply: &Reply<T>,
) -> Duration {
    let failure: Option<&SeatFailure> = reply.failure();
    let player = to.game.player_name(seat).unwrap_or_default();
    let round = to.game.round();
    if let Some(failure) = failure {
        if action == Action::BetRequest {
            // Costs the player its turn (a ban, or a check/fold when forgiving): worth a line.
            tracing::info!(player, round, reason = %failure, "invalid answer to bet_request");
        } else {
            tracing::debug!(player, round, action = action.as_str(), reason = %failure, "request failed");
        }
    }
    let latency = to.clock.latency(reply.latency);
    let exchange = Exchange {
        round,
        seat,
        player,
        action,
        sent_at,
        state,
        sent_json: sent_json(state, to.observers.wants_sent_json(), to.json),
        status: reply.status,
        body: reply.body.as_deref(),
        latency,
        failure,
        unsent_attempts: &reply.unsent_attempts,
    };
    to.observers.exchange(&exchange, to.game);
    latency
}

/// The document's JSON text for the observers, rendered once when an observer writes it, so
/// that `requests.jsonl` and the player's log share one serialisation (seats never render it:
/// an HTTP seat writes its body straight form-encoded).
fn sent_json<'a>(
    state: Option<&GameState>,
    wanted: bool,
    json: &'a mut DocumentJson,
) -> Option<&'a str> {
    if !wanted {
        return None;
    }
    json.render(state?)
}

/// The JSON text of the exchanges' documents, one at a time.
#[derive(Debug, Default)]
pub(super) struct DocumentJson {
    text: Vec<u8>,
    /// Reuses the text of the players unchanged since the last document (most of them, from
    /// one bet request to the next).
    writer: JsonWriter,
}

impl DocumentJson {
    fn render(&mut self, state: &GameState) -> Option<&str> {
        self.text.clear();
        self.writer.write(state, &mut self.text);
        std::str::from_utf8(&self.text).ok()
    }
}
