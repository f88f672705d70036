//! Hand-made game states for tests, in a line or two.
//!
//! ```
//! use player::testing::heads_up;
//! use player::{Chips, Seat};
//!
//! // Heads-up, blinds 10/20, I (seat 0) hold A♥K♦ on a Q♠J♥2♣ flop and face a bet of 60.
//! let state = heads_up()
//!     .hole_cards("Ah Kd")
//!     .board("Qs Jh 2c")
//!     .bets([20, 80])
//!     .build();
//! assert_eq!(state.call_amount(), Chips(60));
//! assert_eq!(state.in_action(), Some(Seat(0)));
//! assert_eq!(state.pot, Chips(100));
//! assert_eq!(state.players[0].stack, Chips(1000));
//! ```
//!
//! Seats are plain `usize` and chips plain `u64` here, to keep tests short. Chips in `bet` are
//! not taken from `stack` unless [`StateBuilder::post_blinds`] posts them: set both as the
//! situation needs.

use shared::card::{parse_cards, CardParseError};
use shared::{Card, Chips, GameState, PlayerState, PlayerStatus, Seat};
use thiserror::Error;

/// Why a hand-made state could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BuildError {
    /// Card notation that does not parse (`"Ax"`, `"1h"`).
    #[error("bad cards {text:?}: {error}")]
    Cards {
        /// The notation given.
        text: String,
        /// What was wrong.
        error: CardParseError,
    },
    /// A seat number beyond the table.
    #[error("seat {seat} does not exist at a table of {seats}")]
    NoSuchSeat {
        /// The seat given.
        seat: usize,
        /// The table size.
        seats: usize,
    },
    /// The state breaks a rule of [`GameState::validate`] (a card twice, an `out` player with
    /// chips...).
    #[error("the state is not valid: {}", .0.join("; "))]
    Invalid(Vec<String>),
}

/// A fluent builder for a [`GameState`]; start with [`heads_up`] or [`table`].
///
/// Defaults: players `P0`, `P1`, ... with 1000 chips, no bets, all `active`; blinds 10/20;
/// round 0; the button on the last seat; seat 0 in action; no cards. `build` computes `pot`,
/// `current_buy_in`, `orbits`, `big_blind` and (unless set) `minimum_raise` consistently.
#[derive(Debug, Clone)]
pub struct StateBuilder {
    players: Vec<PlayerState>,
    explicit_status: Vec<bool>,
    small_blind: u64,
    round: u64,
    dealer: usize,
    in_action: Option<usize>,
    in_action_set: bool,
    minimum_raise: Option<u64>,
    bet_index: Option<u64>,
    board: Vec<Card>,
    post_blinds: bool,
    showdown: bool,
    game_id: String,
    errors: Vec<BuildError>,
}

/// A two-player table: seat 0 (in action) and seat 1 (on the button).
pub fn heads_up() -> StateBuilder {
    table(2)
}

/// A table of `seats` players (at least 2), seat 0 in action, the button on the last seat.
pub fn table(seats: usize) -> StateBuilder {
    let seats = seats.max(2);
    StateBuilder {
        players: (0..seats)
            .map(|seat| PlayerState {
                name: format!("P{seat}"),
                stack: Chips(1000),
                status: PlayerStatus::Active,
                bet: Chips::ZERO,
                hole_cards: None,
                time_used: Some(0),
                version: "test player".to_string(),
                amount_won: None,
                id: Seat(seat),
            })
            .collect(),
        explicit_status: vec![false; seats],
        small_blind: 10,
        round: 0,
        dealer: seats - 1,
        in_action: Some(0),
        in_action_set: false,
        minimum_raise: None,
        bet_index: None,
        board: Vec::new(),
        post_blinds: false,
        showdown: false,
        game_id: "5f0c0ffee0000000000000a1".to_string(),
        errors: Vec::new(),
    }
}

impl StateBuilder {
    fn seat(&mut self, seat: usize) -> Option<&mut PlayerState> {
        let seats = self.players.len();
        if seat >= seats {
            self.errors.push(BuildError::NoSuchSeat { seat, seats });
            return None;
        }
        self.players.get_mut(seat)
    }

    fn parse(&mut self, text: &str) -> Option<Vec<Card>> {
        match parse_cards(text) {
            Ok(cards) => Some(cards),
            Err(error) => {
                self.errors.push(BuildError::Cards {
                    text: text.to_string(),
                    error,
                });
                None
            }
        }
    }

    /// The name of a seat's player.
    pub fn name(mut self, seat: usize, name: &str) -> StateBuilder {
        if let Some(player) = self.seat(seat) {
            player.name = name.to_string();
        }
        self
    }

    /// Chips behind (not yet bet) for one seat.
    pub fn stack(mut self, seat: usize, chips: u64) -> StateBuilder {
        if let Some(player) = self.seat(seat) {
            player.stack = Chips(chips);
        }
        self
    }

    /// Chips behind for every seat, in seat order (extra values are an error).
    pub fn stacks<const N: usize>(mut self, chips: [u64; N]) -> StateBuilder {
        for (seat, amount) in chips.into_iter().enumerate() {
            self = self.stack(seat, amount);
        }
        self
    }

    /// Chips a seat has put in this hand (a total for the hand, spec §2).
    pub fn bet(mut self, seat: usize, chips: u64) -> StateBuilder {
        if let Some(player) = self.seat(seat) {
            player.bet = Chips(chips);
        }
        self
    }

    /// Bets for every seat, in seat order.
    pub fn bets<const N: usize>(mut self, chips: [u64; N]) -> StateBuilder {
        for (seat, amount) in chips.into_iter().enumerate() {
            self = self.bet(seat, amount);
        }
        self
    }

    /// A seat's status (a seat left with no chips at all becomes `out` by itself).
    pub fn status(mut self, seat: usize, status: PlayerStatus) -> StateBuilder {
        if let Some(player) = self.seat(seat) {
            player.status = status;
            self.explicit_status[seat] = true;
        }
        self
    }

    /// The seat folded this hand.
    pub fn fold(self, seat: usize) -> StateBuilder {
        self.status(seat, PlayerStatus::Folded)
    }

    /// The seat is out of the sit'n'go: no chips, status `out`.
    pub fn out(self, seat: usize) -> StateBuilder {
        self.stack(seat, 0)
            .bet(seat, 0)
            .status(seat, PlayerStatus::Out)
    }

    /// The hole cards of the seat in action, e.g. `"Ah Kd"` or `"AhKd"`.
    pub fn hole_cards(self, cards: &str) -> StateBuilder {
        let seat = self.in_action.unwrap_or(0);
        self.cards(seat, cards)
    }

    /// Any seat's visible hole cards (a showdown reveal, a viewer log); `""` for `[]`.
    pub fn cards(mut self, seat: usize, cards: &str) -> StateBuilder {
        if let Some(parsed) = self.parse(cards) {
            if let Some(player) = self.seat(seat) {
                player.hole_cards = Some(parsed);
            }
        }
        self
    }

    /// The community cards, e.g. `"Qs Jh 2c"`.
    pub fn board(mut self, cards: &str) -> StateBuilder {
        if let Some(parsed) = self.parse(cards) {
            self.board = parsed;
        }
        self
    }

    /// The small blind (the big blind is twice it).
    pub fn blinds(mut self, small_blind: u64) -> StateBuilder {
        self.small_blind = small_blind;
        self
    }

    /// Posts the blinds at build time as the dealer does (spec §3): the first two seats with
    /// chips after the button put in the small and the big blind (or what they have), taken
    /// from their stacks. Heads-up the button posts the big blind. Unless set, the seat in
    /// action becomes the first one after the big blind, with the matching `bet_index`.
    pub fn post_blinds(mut self) -> StateBuilder {
        self.post_blinds = true;
        self
    }

    /// The button's seat.
    pub fn dealer(mut self, seat: usize) -> StateBuilder {
        if self.seat(seat).is_some() {
            self.dealer = seat;
        }
        self
    }

    /// The seat being asked to bet (the receiver).
    pub fn in_action(mut self, seat: usize) -> StateBuilder {
        if self.seat(seat).is_some() {
            // Cards given before for the old receiver stay with that seat.
            self.in_action = Some(seat);
            self.in_action_set = true;
        }
        self
    }

    /// Overrides `minimum_raise` (default: the rule's starting value, or the size of the last
    /// raise when the two largest bets show one).
    pub fn minimum_raise(mut self, chips: u64) -> StateBuilder {
        self.minimum_raise = Some(chips);
        self
    }

    /// The hand number (also sets `orbits` = round / seats).
    pub fn round(mut self, round: u64) -> StateBuilder {
        self.round = round;
        self
    }

    /// Overrides `bet_index`.
    pub fn bet_index(mut self, visits: u64) -> StateBuilder {
        self.bet_index = Some(visits);
        self
    }

    /// The `game_id` (24 hex digits on the live server; any text is accepted).
    pub fn game_id(mut self, id: &str) -> StateBuilder {
        self.game_id = id.to_string();
        self
    }

    /// Makes it a `showdown` state: no `in_action`, `minimum_raise` or `bet_index` (spec §2).
    pub fn showdown_state(mut self) -> StateBuilder {
        self.showdown = true;
        self
    }

    /// Builds the state, or says what is wrong with it.
    ///
    /// # Errors
    /// A [`BuildError`] for bad card notation, an unknown seat, chip amounts too large to add
    /// up, or a state that fails [`GameState::validate`].
    pub fn try_build(self) -> Result<GameState, BuildError> {
        let StateBuilder {
            mut players,
            explicit_status,
            small_blind,
            round,
            dealer,
            mut in_action,
            in_action_set,
            minimum_raise,
            mut bet_index,
            board,
            post_blinds,
            showdown,
            game_id,
            mut errors,
        } = self;
        if !errors.is_empty() {
            return Err(errors.remove(0));
        }
        // With the big blind and every chip on the table below u64::MAX, none of the sums
        // below can overflow.
        let total_chips = players.iter().try_fold(0u64, |sum, player| {
            sum.checked_add(player.stack.get())?
                .checked_add(player.bet.get())
        });
        if small_blind.checked_mul(2).is_none() || total_chips.is_none() {
            return Err(BuildError::Invalid(vec![
                "the blinds or the chips on the table are too large to add up".to_string(),
            ]));
        }
        let seats = players.len();
        for (player, explicit) in players.iter_mut().zip(&explicit_status) {
            if !explicit && player.total_chips().is_zero() {
                player.status = PlayerStatus::Out;
            }
        }
        if post_blinds {
            let with_chips: Vec<bool> = players
                .iter()
                .map(|player| player.status != PlayerStatus::Out)
                .collect();
            let next_with_chips = |from: usize| {
                (1..=seats)
                    .map(|step| (from + step) % seats)
                    .find(|&seat| with_chips[seat])
            };
            let small_seat = next_with_chips(dealer);
            let big_seat = small_seat.and_then(next_with_chips);
            for (seat, blind) in [(small_seat, small_blind), (big_seat, small_blind * 2)] {
                if let Some(player) = seat.and_then(|seat| players.get_mut(seat)) {
                    let posted = Chips(blind).min(player.stack);
                    player.stack -= posted;
                    player.bet += posted;
                }
            }
            if let (false, Some(small), Some(big)) = (in_action_set, small_seat, big_seat) {
                let first = next_with_chips(big).unwrap_or(small);
                // Hole cards given for the default receiver move with it.
                if let Some(old) = in_action.filter(|&old| old != first) {
                    if let Some(cards) = players[old].hole_cards.take() {
                        players[first].hole_cards = Some(cards);
                    }
                }
                in_action = Some(first);
                if bet_index.is_none() {
                    let visits = (first + seats - small) % seats;
                    bet_index = Some(if visits == 0 {
                        seats as u64
                    } else {
                        visits as u64
                    });
                }
            }
        }
        let pot: Chips = players.iter().map(|p| p.bet).sum();
        let mut bets: Vec<Chips> = players.iter().map(|p| p.bet).collect();
        bets.sort_unstable_by(|a, b| b.cmp(a));
        let current_buy_in = bets.first().copied().unwrap_or_default();
        let mut previous_level = bets.get(1).copied().unwrap_or_default();
        if board.is_empty() {
            // Preflop, the big blind is a level even when no seat shows it.
            previous_level = previous_level.max(Chips(small_blind * 2));
        }
        let starting_raise = if board.is_empty() {
            Chips(small_blind)
        } else {
            Chips(small_blind * 2)
        };
        // Preflop the big blind over the small blind is not a raise; otherwise the gap between
        // the two largest bets is the last raise's size, which the next raise must match.
        let last_raise = if board.is_empty() && current_buy_in <= Chips(small_blind * 2) {
            Chips::ZERO
        } else {
            current_buy_in.saturating_sub(previous_level)
        };
        let minimum_raise = minimum_raise
            .map(Chips)
            .unwrap_or_else(|| starting_raise.max(last_raise));
        let state = GameState {
            tournament_id: Some("5f0c0ffee000000000000001".to_string()),
            game_id: Some(game_id),
            round: Some(round),
            players,
            small_blind: Chips(small_blind),
            big_blind: Some(Chips(small_blind * 2)),
            orbits: round / seats as u64,
            dealer: Seat(dealer),
            community_cards: board,
            current_buy_in,
            pot,
            in_action: if showdown { None } else { in_action.map(Seat) },
            minimum_raise: if showdown { None } else { Some(minimum_raise) },
            bet_index: if showdown {
                None
            } else {
                Some(bet_index.unwrap_or(0))
            },
        };
        state.validate().map_err(BuildError::Invalid)?;
        Ok(state)
    }

    /// Builds the state; panics with the reason if it is not valid (for tests).
    #[track_caller]
    pub fn build(self) -> GameState {
        match self.try_build() {
            Ok(state) => state,
            Err(error) => panic!("cannot build the game state: {error}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::rules::BetAction;

    #[test]
    fn defaults_are_valid_and_round_trip() {
        for seats in 2..=10 {
            let state = table(seats).build();
            assert_eq!(state.validate(), Ok(()));
            assert_eq!(GameState::from_json(&state.to_json()).unwrap(), state);
            assert_eq!(state.players.len(), seats);
        }
    }

    #[test]
    fn post_blinds_follows_spec_3() {
        // Heads-up: the button (seat 1) posts the big blind, seat 0 the small and acts first.
        let state = heads_up().hole_cards("Ah Kd").post_blinds().build();
        assert_eq!(state.players[0].bet, Chips(10));
        assert_eq!(state.players[0].stack, Chips(990));
        assert_eq!(state.players[1].bet, Chips(20));
        assert_eq!(state.in_action, Some(Seat(0)));
        assert_eq!(state.my_cards().len(), 2);
        assert_eq!(state.minimum_raise, Some(Chips(10)));
        assert_eq!(state.bet_index, Some(2));
        assert_eq!(state.read_bet(Chips(10)).action, BetAction::Call);
        assert_eq!(state.read_bet(Chips(20)).action, BetAction::Raise);
        // Six seats, button on 5: blinds on 0 and 1, seat 2 (UTG) acts, as in capture 09.
        let six = table(6).hole_cards("2c 7d").post_blinds().build();
        assert_eq!(six.in_action, Some(Seat(2)));
        assert_eq!(six.bet_index, Some(2));
        assert_eq!(six.my_cards().len(), 2);
        assert_eq!(six.players[0].hole_cards, None);
        assert_eq!(six.pot, Chips(30));
        // An out seat is skipped for blinds.
        let skipping = table(4).out(0).post_blinds().build();
        assert_eq!(skipping.players[1].bet, Chips(10));
        assert_eq!(skipping.players[2].bet, Chips(20));
        assert_eq!(skipping.in_action, Some(Seat(3)));
    }

    #[test]
    fn minimum_raise_follows_the_last_raise() {
        let raised = table(3).bets([0, 10, 60]).build();
        assert_eq!(raised.minimum_raise, Some(Chips(40)));
        let flop = heads_up().board("2c 3d 4h").build();
        assert_eq!(flop.minimum_raise, Some(Chips(20)));
        let set = heads_up().minimum_raise(7).build();
        assert_eq!(set.minimum_raise, Some(Chips(7)));
    }

    #[test]
    fn bad_input_is_reported_not_built() {
        assert!(matches!(
            heads_up().hole_cards("Ax Kd").try_build(),
            Err(BuildError::Cards { .. })
        ));
        assert!(matches!(
            heads_up().bet(5, 10).try_build(),
            Err(BuildError::NoSuchSeat { seat: 5, seats: 2 })
        ));
        let duplicate = heads_up().hole_cards("Ah Kd").board("Ah 2c 3c").try_build();
        assert!(
            matches!(&duplicate, Err(BuildError::Invalid(problems)) if problems[0].contains("twice")),
            "{duplicate:?}"
        );
        let out_with_chips = heads_up()
            .status(1, PlayerStatus::Out)
            .try_build()
            .unwrap_err();
        assert!(out_with_chips.to_string().contains("out but holds chips"));
        // Numbers too large to add up are an error, not an overflow.
        for huge in [
            heads_up().blinds(u64::MAX / 2 + 1).try_build(),
            heads_up().stack(0, u64::MAX).try_build(),
            heads_up().stack(0, u64::MAX - 5).bet(0, 10).try_build(),
        ] {
            assert!(
                matches!(&huge, Err(BuildError::Invalid(problems)) if problems[0].contains("too large")),
                "{huge:?}"
            );
        }
    }

    #[test]
    fn showdown_states_have_no_action_fields() {
        let state = heads_up()
            .cards(0, "Ah Kd")
            .cards(1, "2c 2d")
            .board("3c 4c 5c 9h Jd")
            .showdown_state()
            .build();
        assert_eq!(state.in_action, None);
        assert_eq!(state.minimum_raise, None);
        assert_eq!(state.bet_index, None);
        assert_eq!(GameState::from_json(&state.to_json()).unwrap(), state);
    }
}
