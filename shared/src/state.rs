//! The `game_state` document (spec §2), exact to the live server's wire format, with helpers
//! that answer the questions every bot asks.
//!
//! Serialising produces the live key order, compact, with absent optional fields omitted, so a
//! document captured from the live server re-serialises byte for byte. Parsing accepts other key
//! orders, missing optional fields and unknown keys, and rejects wrong types with an error that
//! names the field and the position.

mod form_text;
mod json;
mod raise;
mod writers;

pub(crate) use form_text::push_form_encoded_bytes;
pub use raise::{Clamp, Raise};
pub use writers::{FormWriter, JsonWriter};

use crate::card::Card;
use crate::rules::{read_bet, BetContext, BetReading};
use crate::{Chips, Seat};
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// A player's status (spec §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerStatus {
    /// Still in the hand (an all-in player is active too).
    Active,
    /// Gave up this hand; plays again next hand.
    Folded,
    /// No chips left (or banned): out of this sit'n'go.
    Out,
}

impl PlayerStatus {
    /// The wire spelling: `active`, `folded`, `out`.
    pub const fn as_str(self) -> &'static str {
        match self {
            PlayerStatus::Active => "active",
            PlayerStatus::Folded => "folded",
            PlayerStatus::Out => "out",
        }
    }
}

impl fmt::Display for PlayerStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A betting street, derived from the number of community cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Street {
    /// No community cards.
    Preflop,
    /// Three community cards.
    Flop,
    /// Four community cards.
    Turn,
    /// Five community cards.
    River,
}

impl Street {
    /// The street with this many community cards (0, 3, 4 or 5); `None` for any other count.
    pub const fn from_community_card_count(count: usize) -> Option<Street> {
        match count {
            0 => Some(Street::Preflop),
            3 => Some(Street::Flop),
            4 => Some(Street::Turn),
            5 => Some(Street::River),
            _ => None,
        }
    }

    /// How many community cards are showing on this street.
    pub const fn community_card_count(self) -> usize {
        match self {
            Street::Preflop => 0,
            Street::Flop => 3,
            Street::Turn => 4,
            Street::River => 5,
        }
    }

    /// The lower-case name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Street::Preflop => "preflop",
            Street::Flop => "flop",
            Street::Turn => "turn",
            Street::River => "river",
        }
    }
}

impl fmt::Display for Street {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One player's public state. Field order is the live key order:
/// `name, stack, status, bet, hole_cards, time_used, version, amount_won, id`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// The team's name from the tournament configuration (may have trailing spaces).
    pub name: String,
    /// Chips not yet put in (excludes `bet`).
    pub stack: Chips,
    /// Active, folded or out.
    pub status: PlayerStatus,
    /// Chips put in this hand (a total for the whole hand, never reset per street).
    pub bet: Chips,
    /// `None` when hidden (the key is absent on the wire); `Some(vec![])` for a player who was
    /// dealt nothing. Present only for the receiver, and for revealed hands in a showdown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hole_cards: Option<Vec<Card>>,
    /// Cumulative response time in this game, in microseconds (absent before 2017).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_used: Option<u64>,
    /// The player's answer to `version`, or `Unknown`.
    pub version: String,
    /// Chips received from the pot(s) this hand; only in a showdown state, only when non-zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount_won: Option<Chips>,
    /// The seat index (same as the position in `players`).
    pub id: Seat,
}

impl PlayerState {
    /// The hole cards if visible, else an empty slice.
    pub fn cards(&self) -> &[Card] {
        self.hole_cards.as_deref().unwrap_or(&[])
    }

    /// Whether the player still plays this hand (active, including all-in).
    pub fn is_active(&self) -> bool {
        self.status == PlayerStatus::Active
    }

    /// Whether the player is active with chips behind, so could still be asked to bet.
    pub fn can_act(&self) -> bool {
        self.status == PlayerStatus::Active && !self.stack.is_zero()
    }

    /// Whether the player is active and has put every chip in.
    pub fn is_all_in(&self) -> bool {
        self.status == PlayerStatus::Active && self.stack.is_zero() && !self.bet.is_zero()
    }

    /// Chips the player has in total, behind and in the pot.
    pub fn total_chips(&self) -> Chips {
        self.stack.saturating_add(self.bet)
    }
}

/// The `game_state` document sent with `bet_request` and `showdown`.
///
/// Field order is the live key order:
/// `tournament_id, game_id, round, players, small_blind, big_blind, orbits, dealer,
/// community_cards, current_buy_in, pot, in_action, minimum_raise, bet_index`.
/// Optional fields are those that real documents omit: old captures lack `big_blind` and the
/// tournament fields, showdown states lack `in_action`, `minimum_raise` and `bet_index`.
///
/// ```
/// use shared::GameState;
/// let json = std::fs::read_to_string(concat!(
///     env!("CARGO_MANIFEST_DIR"),
///     "/tests/fixtures/gamestates/05-preflop-r47-heads-up-facing-961-raise.json"
/// ))
/// .unwrap();
/// let state = GameState::from_json(&json).unwrap();
/// assert_eq!(state.to_json(), json); // byte for byte
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// 24-hex-digit tournament id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament_id: Option<String>,
    /// 24-hex-digit sit'n'go id: links the states of one game together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_id: Option<String>,
    /// Hand number within the sit'n'go, from 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u64>,
    /// Every registered player, in seat order (the order never changes).
    pub players: Vec<PlayerState>,
    /// The current small blind.
    pub small_blind: Chips,
    /// The current big blind (always twice the small blind; see [`GameState::big_blind`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub big_blind: Option<Chips>,
    /// `round / number of registered players`, rounded down.
    pub orbits: u64,
    /// The seat with the dealer button.
    pub dealer: Seat,
    /// The board.
    pub community_cards: Vec<Card>,
    /// The largest `bet` of any player.
    pub current_buy_in: Chips,
    /// The sum of all bets.
    pub pot: Chips,
    /// The seat being asked: always the receiving player in a `bet_request`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_action: Option<Seat>,
    /// The smallest amount a raise must add on top of `current_buy_in` (spec §4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_raise: Option<Chips>,
    /// Seat visits so far on this street, skipped seats included (spec §3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bet_index: Option<u64>,
}

/// A `game_state` that could not be parsed: which field, where, and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid game_state at {path} (line {line}, column {column}): {message}")]
pub struct GameStateError {
    /// Where in the document, e.g. `players[1].hole_cards[0].rank`, or `document` for a syntax
    /// error outside any field.
    pub path: String,
    /// 1-based line of the error in the JSON text.
    pub line: usize,
    /// 1-based column of the error in the JSON text.
    pub column: usize,
    /// What was wrong, e.g. `unknown rank "T", expected ...`.
    pub message: String,
}

impl GameStateError {
    fn from_serde(path: String, error: &serde_json::Error) -> GameStateError {
        let full = error.to_string();
        // serde_json appends " at line L column C"; we report the position separately.
        let suffix = format!(" at line {} column {}", error.line(), error.column());
        let message = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
        GameStateError {
            path: if path.is_empty() || path == "." || path == "?" {
                "document".to_string()
            } else {
                path
            },
            line: error.line(),
            column: error.column(),
            message,
        }
    }
}

impl GameState {
    /// Parses a `game_state` JSON text.
    ///
    /// # Errors
    /// A [`GameStateError`] naming the field path and line/column of the first problem: bad JSON,
    /// a missing required field, a wrong type, a negative chip count, an unknown rank or suit.
    pub fn from_json(json: &str) -> Result<GameState, GameStateError> {
        Self::from_slice(json.as_bytes())
    }

    /// Parses a `game_state` from UTF-8 bytes; see [`GameState::from_json`].
    ///
    /// # Errors
    /// As [`GameState::from_json`].
    pub fn from_slice(json: &[u8]) -> Result<GameState, GameStateError> {
        // The fast path has no path tracking; only a failed document is parsed a second time
        // to find out where it went wrong.
        match serde_json::from_slice(json) {
            Ok(state) => Ok(state),
            Err(_) => {
                let mut deserializer = serde_json::Deserializer::from_slice(json);
                let result: Result<GameState, _> =
                    serde_path_to_error::deserialize(&mut deserializer);
                match result {
                    Ok(state) => match deserializer.end() {
                        Ok(()) => Ok(state),
                        Err(error) => Err(GameStateError::from_serde(String::new(), &error)),
                    },
                    Err(error) => Err(GameStateError::from_serde(
                        error.path().to_string(),
                        error.inner(),
                    )),
                }
            }
        }
    }

    /// The compact JSON text in live key order.
    pub fn to_json(&self) -> String {
        let mut out = Vec::with_capacity(256 + 160 * self.players.len());
        self.write_json(&mut out);
        // serde_json only writes valid UTF-8.
        String::from_utf8(out).unwrap_or_default()
    }

    /// Appends the compact JSON text to `out` (lets a hot loop reuse one buffer). The same
    /// bytes as serialising with serde_json, written without it: a dealer writes several
    /// documents per request (see `state/json.rs`).
    pub fn write_json(&self, out: &mut Vec<u8>) {
        json::write_game_state_json(self, out);
    }

    /// Appends the form encoding of the compact JSON text to `out`: the bytes of
    /// form-encoding [`GameState::to_json`], written in one pass without the JSON text (the
    /// dealer's request bodies; see `state/json.rs`).
    ///
    /// ```
    /// # let state = shared::testing_state();
    /// let mut form = Vec::new();
    /// state.write_form_encoded(&mut form);
    /// assert!(form.starts_with(b"%7B%22tournament_id%22%3A"));
    /// ```
    pub fn write_form_encoded(&self, out: &mut Vec<u8>) {
        json::write_game_state_form(self, out);
    }

    /// The receiving player's seat: `in_action`, or when a document lacks it (the public API
    /// page's example does), the only player whose `hole_cards` are present.
    ///
    /// ```
    /// # let state = shared::testing_state();
    /// assert_eq!(state.in_action(), Some(shared::Seat(1)));
    /// ```
    pub fn in_action(&self) -> Option<Seat> {
        if let Some(seat) = self.in_action {
            return (seat.index() < self.players.len()).then_some(seat);
        }
        let mut with_cards = self.players.iter().filter(|p| p.hole_cards.is_some());
        match (with_cards.next(), with_cards.next()) {
            (Some(only), None) => Some(only.id).filter(|seat| seat.index() < self.players.len()),
            _ => None,
        }
    }

    /// The receiving player (see [`GameState::in_action`]).
    ///
    /// ```
    /// # let state = shared::testing_state();
    /// assert_eq!(state.me().unwrap().name, "Bob");
    /// ```
    pub fn me(&self) -> Option<&PlayerState> {
        self.in_action()
            .and_then(|seat| self.players.get(seat.index()))
    }

    /// The receiving player's hole cards (empty when unknown).
    pub fn my_cards(&self) -> &[Card] {
        self.me().map(PlayerState::cards).unwrap_or(&[])
    }

    /// The big blind: `big_blind` when present, else twice the small blind.
    pub fn big_blind(&self) -> Chips {
        self.big_blind.unwrap_or(self.small_blind.saturating_mul(2))
    }

    /// `minimum_raise` when present, else the rule's starting value: the small blind preflop,
    /// the big blind on later streets (spec §4).
    pub fn minimum_raise(&self) -> Chips {
        self.minimum_raise.unwrap_or_else(|| {
            if self.community_cards.is_empty() {
                self.small_blind
            } else {
                self.big_blind()
            }
        })
    }

    /// The street, from the number of community cards; `None` for an impossible count.
    ///
    /// ```
    /// # let state = shared::testing_state();
    /// assert_eq!(state.street(), Some(shared::Street::Flop));
    /// ```
    pub fn street(&self) -> Option<Street> {
        Street::from_community_card_count(self.community_cards.len())
    }

    /// Chips the receiving player must add to call (capped at their stack, since calling
    /// for more than you have is an all-in).
    ///
    /// ```
    /// # let state = shared::testing_state();
    /// // current_buy_in 320, Bob has 80 in.
    /// assert_eq!(state.call_amount(), shared::Chips(240));
    /// ```
    pub fn call_amount(&self) -> Chips {
        let me = self.me();
        let bet = me.map_or(Chips::ZERO, |p| p.bet);
        let owed = self.current_buy_in.saturating_sub(bet);
        me.map_or(owed, |p| owed.min(p.stack))
    }

    /// The answer that makes the smallest legal raise: the amount to call plus `minimum_raise`.
    /// When that is more than the stack, the answer is the stack (an all-in).
    ///
    /// ```
    /// # let state = shared::testing_state();
    /// assert_eq!(state.minimum_raise_amount(), shared::Chips(240 + 240));
    /// ```
    pub fn minimum_raise_amount(&self) -> Chips {
        let me = self.me();
        let bet = me.map_or(Chips::ZERO, |p| p.bet);
        let answer = self
            .current_buy_in
            .saturating_sub(bet)
            .saturating_add(self.minimum_raise().max(Chips(1)));
        me.map_or(answer, |p| answer.min(p.stack))
    }

    /// The answer for an all-in: the receiving player's whole stack.
    ///
    /// ```
    /// # let state = shared::testing_state();
    /// assert_eq!(state.all_in_amount(), shared::Chips(1590));
    /// ```
    pub fn all_in_amount(&self) -> Chips {
        self.me().map_or(Chips::ZERO, |p| p.stack)
    }

    /// The answer that raises to a total bet of `total` (clamped to at least a call, at most
    /// all-in). Whether it is a legal raise is for [`GameState::read_bet`] to say.
    ///
    /// ```
    /// # let state = shared::testing_state();
    /// assert_eq!(state.raise_to_amount(shared::Chips(1000)), shared::Chips(920));
    /// ```
    pub fn raise_to_amount(&self, total: Chips) -> Chips {
        let Some(me) = self.me() else {
            return total;
        };
        total
            .saturating_sub(me.bet)
            .max(self.call_amount())
            .min(me.stack)
    }

    /// The [`BetContext`] for the receiving player, for [`crate::rules::read_bet`].
    pub fn bet_context(&self) -> BetContext {
        let me = self.me();
        BetContext {
            stack: me.map_or(Chips::ZERO, |p| p.stack),
            bet: me.map_or(Chips::ZERO, |p| p.bet),
            current_buy_in: self.current_buy_in,
            minimum_raise: self.minimum_raise(),
        }
    }

    /// How the dealer will read `answer` from the receiving player (spec §4): the same function
    /// the dealer uses.
    ///
    /// ```
    /// use shared::rules::BetAction;
    /// # let state = shared::testing_state();
    /// assert_eq!(state.read_bet(shared::Chips(0)).action, BetAction::Fold);
    /// assert_eq!(state.read_bet(state.call_amount()).action, BetAction::Call);
    /// assert_eq!(state.read_bet(state.minimum_raise_amount()).action, BetAction::Raise);
    /// assert_eq!(state.read_bet(state.all_in_amount()).action, BetAction::AllIn);
    /// ```
    pub fn read_bet(&self, answer: Chips) -> BetReading {
        read_bet(&self.bet_context(), answer)
    }

    /// Opponents still in the hand (status `active`, all-in ones included).
    ///
    /// ```
    /// # let state = shared::testing_state();
    /// let names: Vec<_> = state.active_opponents().map(|p| p.name.as_str()).collect();
    /// assert_eq!(names, ["Albert"]);
    /// ```
    pub fn active_opponents(&self) -> impl Iterator<Item = &PlayerState> + '_ {
        let me = self.in_action();
        self.players
            .iter()
            .filter(move |p| p.is_active() && Some(p.id) != me)
    }

    /// Players not yet out of the sit'n'go.
    pub fn players_with_chips(&self) -> impl Iterator<Item = &PlayerState> + '_ {
        self.players
            .iter()
            .filter(|p| p.status != PlayerStatus::Out)
    }

    /// How many seats after the button `seat` sits, counting only players not out: 0 on the
    /// button, 1 for the small blind (heads-up: the button posts the big blind and the other
    /// player, at 1, the small blind). `None` for an out or unknown seat.
    ///
    /// ```
    /// # let state = shared::testing_state();
    /// // Albert (0), Bob (1) and Chuck (2, out); the button is Bob.
    /// assert_eq!(state.position(shared::Seat(1)), Some(0));
    /// assert_eq!(state.position(shared::Seat(0)), Some(1));
    /// assert_eq!(state.position(shared::Seat(2)), None);
    /// ```
    pub fn position(&self, seat: Seat) -> Option<usize> {
        let count = self.players.len();
        if seat.index() >= count || self.players[seat.index()].status == PlayerStatus::Out {
            return None;
        }
        let button = self.dealer.index() % count.max(1);
        let mut position = 0;
        let mut current = button;
        while current != seat.index() {
            current = (current + 1) % count;
            if self.players[current].status != PlayerStatus::Out {
                position += 1;
            }
        }
        // The button itself may be out (it moved past a bust): then the first live seat is 1.
        Some(position)
    }

    /// Pot odds for the receiving player: the share of the final pot a call would contribute,
    /// `call / (pot + call)`. `None` when nothing is owed.
    ///
    /// ```
    /// # let state = shared::testing_state();
    /// // pot 400, call 240: 240 / 640.
    /// assert_eq!(state.pot_odds(), Some(0.375));
    /// ```
    pub fn pot_odds(&self) -> Option<f64> {
        let call = self.call_amount();
        if call.is_zero() {
            return None;
        }
        Some(call.get() as f64 / self.pot.saturating_add(call).get() as f64)
    }

    /// Checks what a well-formed document from a dealer must satisfy, beyond types: ids match
    /// positions, `pot` is the sum of bets, `current_buy_in` the largest bet, `in_action` and
    /// `dealer` in range, `out` players hold no chips, board size possible, no card twice.
    /// Parsing does not call this: a player must still answer a quirky document.
    ///
    /// # Errors
    /// Every rule broken, one line each.
    pub fn validate(&self) -> Result<(), Vec<String>> {
        let mut problems = Vec::new();
        let count = self.players.len();
        for (index, player) in self.players.iter().enumerate() {
            if player.id.index() != index {
                problems.push(format!("players[{index}].id is {}", player.id));
            }
            if player.status == PlayerStatus::Out && !player.total_chips().is_zero() {
                problems.push(format!("players[{index}] is out but holds chips"));
            }
            if player.status != PlayerStatus::Out && player.total_chips().is_zero() {
                problems.push(format!(
                    "players[{index}] has no chips but is {}",
                    player.status
                ));
            }
            if player.hole_cards.as_ref().is_some_and(|c| c.len() > 2) {
                problems.push(format!("players[{index}] has more than two hole cards"));
            }
        }
        let pot = self
            .players
            .iter()
            .try_fold(Chips::ZERO, |sum, p| sum.checked_add(p.bet));
        match pot {
            Some(pot) if pot != self.pot => {
                problems.push(format!("pot is {} but bets sum to {pot}", self.pot));
            }
            Some(_) => {}
            None => problems.push("the bets add up to more than a chip count can hold".into()),
        }
        let largest = self.players.iter().map(|p| p.bet).max().unwrap_or_default();
        if largest != self.current_buy_in {
            problems.push(format!(
                "current_buy_in is {} but the largest bet is {largest}",
                self.current_buy_in
            ));
        }
        if self.dealer.index() >= count {
            problems.push(format!("dealer {} is not a seat", self.dealer));
        }
        if let Some(seat) = self.in_action {
            if seat.index() >= count {
                problems.push(format!("in_action {seat} is not a seat"));
            }
        }
        if self.street().is_none() {
            problems.push(format!(
                "{} community cards is not a street",
                self.community_cards.len()
            ));
        }
        if let Some(big) = self.big_blind {
            if Some(big) != self.small_blind.0.checked_mul(2).map(Chips) {
                problems.push(format!("big_blind {big} is not twice {}", self.small_blind));
            }
        }
        let mut seen = [false; 52];
        let all_cards = self
            .community_cards
            .iter()
            .chain(self.players.iter().flat_map(|p| p.cards()));
        for card in all_cards {
            let slot = &mut seen[card.index() as usize];
            if *slot {
                problems.push(format!("card {card} appears twice"));
            }
            *slot = true;
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}

/// The annotated example from the public API page (Albert, Bob, Chuck), as a test fixture for
/// doc examples.
#[doc(hidden)]
pub fn testing_state() -> GameState {
    GameState::from_json(include_str!("../tests/fixtures/api-docs-example.json"))
        .expect("the API page example parses")
}
