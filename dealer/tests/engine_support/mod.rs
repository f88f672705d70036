//! A scripted table for engine tests, so that a test reads like a hand history:
//!
//! ```ignore
//! let mut table = TableBuilder::new(&["A", "B", "C"]).button(0).build();
//! table.deal(&[(1, "8s 7c")], "");
//! let sent = table.bet(0, 4); // seat 0 was asked, answered 4; `sent` is the document it got
//! table.fold(1);
//! let showdown = table.showdown(); // one document per seat
//! ```
//!
//! Every step is checked as it goes: each document must pass `GameState::validate()` and
//! round-trip through JSON, and chips are conserved.
#![allow(dead_code)]

use dealer::engine::{Game, GameSetup, PresetDeal, SeatAnswer, Step, TableStart};
use dealer::game_event::GameEvent;
use dealer::result::GameResult;
use dealer::rules::GameRules;
use shared::card::parse_cards;
use shared::{Card, Chips, GameState, Seat};

/// Builds a [`Table`].
pub struct TableBuilder {
    names: Vec<String>,
    config: GameRules,
    seed: u64,
    start: Option<TableStart>,
    ids: Option<(String, String)>,
}

impl TableBuilder {
    /// A table with these players (seat order), default config, seed 1.
    pub fn new(names: &[&str]) -> TableBuilder {
        TableBuilder {
            names: names.iter().map(|name| name.to_string()).collect(),
            config: GameRules::default(),
            seed: 1,
            start: None,
            ids: None,
        }
    }

    /// `n` players named `p0`, `p1`, ...
    pub fn seats(n: usize) -> TableBuilder {
        let names: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        TableBuilder::new(&refs)
    }

    pub fn config(mut self, config: GameRules) -> TableBuilder {
        self.config = config;
        self
    }

    pub fn seed(mut self, seed: u64) -> TableBuilder {
        self.seed = seed;
        self
    }

    /// Starts at `round` with this button and these stacks.
    pub fn start(mut self, round: u64, button: usize, stacks: &[u64]) -> TableBuilder {
        self.start = Some(TableStart {
            round,
            button: Seat(button),
            stacks: stacks.iter().copied().map(Chips).collect(),
        });
        self
    }

    /// Starts at round 0 with the button on `button` and the configured stacks.
    pub fn button(self, button: usize) -> TableBuilder {
        let stacks = vec![self.config.starting_stack.get(); self.names.len()];
        self.start(0, button, &stacks)
    }

    pub fn ids(mut self, tournament_id: &str, game_id: &str) -> TableBuilder {
        self.ids = Some((tournament_id.to_string(), game_id.to_string()));
        self
    }

    pub fn build(self) -> Table {
        let mut setup = GameSetup::new(self.config, self.names, self.seed);
        if let Some((tournament_id, game_id)) = self.ids {
            setup.tournament_id = tournament_id;
            setup.game_id = game_id;
        }
        let game = match self.start {
            Some(start) => Game::with_table(setup, start).expect("valid table"),
            None => Game::new(setup).expect("valid setup"),
        };
        let total_chips = game.chips_in_play();
        Table {
            game,
            events: Vec::new(),
            total_chips,
            removed_chips: Chips::ZERO,
            showdowns_seen: 0,
        }
    }
}

/// A game driven by a script.
pub struct Table {
    pub game: Game,
    /// Every event so far.
    pub events: Vec<GameEvent>,
    /// Chips at the start (for conservation checks).
    pub total_chips: Chips,
    /// Chips taken off the table so far (bans, the OSS rule's discarded odd chips), kept as
    /// events come: summing the whole event list at every step made long random games
    /// quadratic (minutes for one proptest case).
    removed_chips: Chips,
    pub showdowns_seen: usize,
}

pub fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).expect("cards")
}

pub fn pair(text: &str) -> [Card; 2] {
    cards(text).try_into().expect("two cards")
}

/// Checks what every document the engine sends must satisfy.
pub fn check_document(state: &GameState) {
    if let Err(problems) = state.validate() {
        panic!("invalid document: {problems:?}\n{}", state.to_json());
    }
    check_json(state);
}

/// Checks a viewer-log snapshot: as a document, except that the flop comes one card at a
/// time (LIVE logs one entry per card), so one or two community cards are fine.
pub fn check_snapshot(state: &GameState) {
    if let Err(problems) = state.validate() {
        let real: Vec<&String> = problems
            .iter()
            .filter(|problem| {
                !(state.community_cards.len() < 3 && problem.ends_with("is not a street"))
            })
            .collect();
        assert!(
            real.is_empty(),
            "invalid snapshot: {real:?}\n{}",
            state.to_json()
        );
    }
    check_json(state);
}

fn check_json(state: &GameState) {
    let json = state.to_json();
    let parsed = GameState::from_json(&json).expect("re-parses");
    assert_eq!(&parsed, state, "JSON round trip");
}

impl Table {
    /// Presets the next hand: hole cards per seat and the first board cards.
    pub fn deal(&mut self, hands: &[(usize, &str)], board: &str) {
        let deal = PresetDeal {
            hole_cards: hands
                .iter()
                .map(|(seat, text)| (Seat(*seat), pair(text)))
                .collect(),
            board: cards(board),
        };
        self.game.preset_next_hand(deal).expect("valid preset");
    }

    /// One engine step, recorded and checked.
    pub fn step(&mut self) -> Step {
        let step = self.game.step();
        match &step {
            Step::Event(event) => {
                self.removed_chips += match event {
                    GameEvent::Banned { chips_removed, .. } => *chips_removed,
                    GameEvent::PotAwarded { discarded, .. } => *discarded,
                    _ => Chips::ZERO,
                };
                self.events.push(event.clone());
                let viewer = self.game.viewer_state();
                check_snapshot(&viewer);
                self.check_chips();
            }
            Step::BetRequest { seat } => {
                let state = self
                    .game
                    .bet_request_state()
                    .expect("pending request")
                    .clone();
                check_document(&state);
                assert_eq!(state.in_action, Some(*seat));
                for player in &state.players {
                    assert_eq!(
                        player.hole_cards.is_some(),
                        player.id == *seat,
                        "only the receiver sees cards: {}",
                        state.to_json()
                    );
                }
            }
            Step::Showdown { .. } => {
                self.showdowns_seen += 1;
                for seat in 0..self.game.seat_count() {
                    let state = self.game.showdown_state(Seat(seat)).expect("open").clone();
                    check_document(&state);
                    assert_eq!(state.in_action, None);
                    assert_eq!(state.minimum_raise, None);
                    assert_eq!(state.bet_index, None);
                    assert_eq!(state.pot, Chips::ZERO);
                }
            }
            Step::Finished => {}
        }
        step
    }

    fn check_chips(&self) {
        assert_eq!(
            self.game.chips_in_play() + self.removed_chips,
            self.total_chips,
            "chips conserved"
        );
    }

    /// Steps until a bet request; panics if a showdown or the end comes first.
    pub fn request(&mut self) -> (Seat, GameState) {
        for _ in 0..10_000 {
            match self.step() {
                Step::Event(_) => {}
                Step::BetRequest { seat } => {
                    let state = self.game.bet_request_state().expect("pending").clone();
                    return (seat, state);
                }
                other => panic!("expected a bet request, got {other:?}"),
            }
        }
        panic!("no bet request within 10000 steps");
    }

    /// Expects a request for `seat`, returns the document it was sent (without answering).
    pub fn expect(&mut self, seat: usize) -> GameState {
        let (asked, state) = self.request();
        assert_eq!(asked, Seat(seat), "expected seat {seat} to be asked");
        state
    }

    /// Seat `seat` is asked and answers `amount`; returns the document it was sent.
    pub fn bet(&mut self, seat: usize, amount: u64) -> GameState {
        let state = self.expect(seat);
        self.game
            .answer(SeatAnswer::Bet(Chips(amount)))
            .expect("answer accepted");
        state
    }

    /// Seat `seat` is asked and answers `amount`; returns the `BetPlaced` event it caused.
    pub fn act(&mut self, seat: usize, amount: u64) -> GameEvent {
        self.bet(seat, amount);
        match self.step() {
            Step::Event(event @ GameEvent::BetPlaced { .. }) => event,
            other => panic!("expected BetPlaced, got {other:?}"),
        }
    }

    pub fn fold(&mut self, seat: usize) -> GameState {
        self.bet(seat, 0)
    }

    pub fn check(&mut self, seat: usize) -> GameState {
        self.bet(seat, 0)
    }

    /// Seat `seat` is asked and its answer is invalid for `reason`.
    pub fn invalid(&mut self, seat: usize, reason: &str) -> GameState {
        let state = self.expect(seat);
        self.game
            .answer(SeatAnswer::Invalid {
                reason: reason.to_string(),
            })
            .expect("answer accepted");
        state
    }

    /// Steps until the showdown (no more requests allowed) and returns every seat's document.
    pub fn showdown(&mut self) -> Vec<GameState> {
        for _ in 0..10_000 {
            match self.step() {
                Step::Event(_) => {}
                Step::Showdown { .. } => {
                    return (0..self.game.seat_count())
                        .map(|seat| self.game.showdown_state(Seat(seat)).unwrap().clone())
                        .collect();
                }
                other => panic!("expected the showdown, got {other:?}"),
            }
        }
        panic!("no showdown within 10000 steps");
    }

    /// Steps until just after `predicate` matches an event; returns the viewer state then.
    pub fn until_event(&mut self, predicate: impl Fn(&GameEvent) -> bool) -> GameState {
        for _ in 0..10_000 {
            match self.step() {
                Step::Event(event) if predicate(&event) => return self.game.viewer_state(),
                Step::Event(_) => {}
                other => panic!("expected more events, got {other:?}"),
            }
        }
        panic!("event not seen within 10000 steps");
    }

    /// Plays to the end with `policy` answering every request.
    pub fn play_out(&mut self, mut policy: impl FnMut(&GameState) -> SeatAnswer) -> GameResult {
        for _ in 0..10_000_000 {
            match self.step() {
                Step::Event(_) | Step::Showdown { .. } => {}
                Step::BetRequest { .. } => {
                    let state = self.game.bet_request_state().expect("pending");
                    let answer = policy(state);
                    self.game.answer(answer).expect("answer accepted");
                }
                Step::Finished => return self.game.result().expect("finished").clone(),
            }
        }
        panic!("the game did not end");
    }

    /// Every event of one kind, by a projection.
    pub fn collect<T>(&self, pick: impl Fn(&GameEvent) -> Option<T>) -> Vec<T> {
        self.events.iter().filter_map(pick).collect()
    }

    /// Steps until the game is finished, with nobody left to ask (panics on a request).
    pub fn finish(&mut self) -> GameResult {
        for _ in 0..10_000 {
            match self.step() {
                Step::Finished => return self.game.result().expect("finished").clone(),
                Step::BetRequest { seat } => panic!("unexpected request to {seat}"),
                _ => {}
            }
        }
        panic!("the game did not end");
    }

    /// Events since index `from`.
    pub fn events_from(&self, from: usize) -> &[GameEvent] {
        &self.events[from..]
    }
}
