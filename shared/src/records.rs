//! The record types of the files a game leaves behind, defined once for the writer (the
//! dealer) and every reader (the player's testing kit, the dealer's viewer and replay, a
//! team's own tools). These types *are* the formats' documentation:
//!
//! - [`RequestRecord`]: one line of `requests.jsonl`, every `bet_request` of a game as sent and
//!   answered, one compact JSON object per line, in the order asked;
//! - [`ViewerLogEntry`]: one entry of `log.json`, the Lean Poker viewer log (spec §8), a JSON
//!   array of entries (what the dealer writes in which order: `dealer::observe::viewer_log`).
//!
//! Both are generic over how the `game_state` is held: a reader that wants the document's
//! exact bytes or its position in the file keeps it raw (`&serde_json::value::RawValue`),
//! others parse it into a [`GameState`](crate::GameState), and the writer serialises a
//! `&GameState`. Serialising a record gives the keys in file order with the optional keys
//! left out exactly where the dealer leaves them out; the dealer's fast writers are checked
//! byte for byte against these types by its tests.
//!
//! ```
//! use shared::records::{RecordedAction, RequestRecord};
//! use shared::{BetAction, Chips, GameState, Seat};
//!
//! let state = shared::testing_state();
//! let line = RequestRecord {
//!     round: 3,
//!     player: "Bob".to_string(),
//!     seat: Seat(1),
//!     game_state: &state,
//!     answer: Some("240".to_string()),
//!     error: None,
//!     action: Some(RecordedAction::Bet(BetAction::Call)),
//!     amount: Chips(240),
//!     latency_us: 1200,
//!     unsent_attempts: Vec::new(),
//! };
//! let text = serde_json::to_string(&line).unwrap();
//! assert!(text.starts_with("{\"round\":3,\"player\":\"Bob\",\"seat\":1,\"game_state\":{"));
//! assert!(text.ends_with(",\"answer\":\"240\",\"action\":\"call\",\"amount\":240,\"latency_us\":1200}"));
//! let read: RequestRecord<GameState> = serde_json::from_str(&text).unwrap();
//! assert_eq!(read.map_state(|_| ()), line.map_state(|_| ()));
//! ```

use crate::rules::BetAction;
use crate::{Chips, Seat};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// How the dealer read an answer, as `requests.jsonl` records it: a bet action (spec §4), or a
/// ban (spec §6). Spelled `fold`, `check`, `call`, `raise`, `allin` or `banned`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordedAction {
    /// The answer was read as this action. A forgiven invalid answer (forgiving mode)
    /// records what it counted as, and its record keeps the `error`.
    Bet(BetAction),
    /// The answer was invalid and the player was banned (spec §6).
    Banned,
    /// A spelling this version does not know (written by a newer dealer); written back as
    /// `unknown`.
    Unknown,
}

impl RecordedAction {
    /// The spelling in the file: `fold`, `check`, `call`, `raise`, `allin`, `banned`
    /// (`unknown` for [`RecordedAction::Unknown`]).
    pub const fn as_str(self) -> &'static str {
        match self {
            RecordedAction::Bet(action) => action.as_str(),
            RecordedAction::Banned => "banned",
            RecordedAction::Unknown => "unknown",
        }
    }

    /// The action for a spelling; [`RecordedAction::Unknown`] for any other text.
    pub fn from_name(name: &str) -> RecordedAction {
        match name {
            "fold" => RecordedAction::Bet(BetAction::Fold),
            "check" => RecordedAction::Bet(BetAction::Check),
            "call" => RecordedAction::Bet(BetAction::Call),
            "raise" => RecordedAction::Bet(BetAction::Raise),
            "allin" => RecordedAction::Bet(BetAction::AllIn),
            "banned" => RecordedAction::Banned,
            _ => RecordedAction::Unknown,
        }
    }
}

impl From<BetAction> for RecordedAction {
    fn from(action: BetAction) -> RecordedAction {
        RecordedAction::Bet(action)
    }
}

impl fmt::Display for RecordedAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for RecordedAction {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for RecordedAction {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RecordedAction, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Ok(RecordedAction::from_name(&name))
    }
}

/// One line of `requests.jsonl`: a `bet_request` as sent and answered. Keys in this order;
/// `error` and `unsent_attempts` only when they hold something.
///
/// A line is written when the engine's reading of the answer arrives (the event that follows
/// the request), so lines are in the order asked; the file is flushed at the end of every hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestRecord<State> {
    /// The hand (the document's `round`).
    pub round: u64,
    /// The asked player's name.
    pub player: String,
    /// The asked player's seat (the document's `in_action`).
    pub seat: Seat,
    /// Exactly the document sent, byte for byte, as a JSON object; `null` if the dealer had
    /// none. Readers also accept a JSON string holding the document, as other loggers write it.
    pub game_state: State,
    /// The raw answer body as a string (invalid UTF-8 replaced by U+FFFD); `null` when no body
    /// was read (timeout, refused connection). An in-process player has no body: its valid
    /// answer is its number in digits.
    #[serde(default)]
    pub answer: Option<String>,
    /// Only when the answer was invalid: the one-line reason (the ban or warning reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// How the engine read the answer; `null` only if the game was abandoned before the
    /// answer was applied.
    #[serde(default)]
    pub action: Option<RecordedAction>,
    /// Chips the answer put in (0 for fold, check and banned).
    pub amount: Chips,
    /// From sending to the end of the reply, in microseconds (0 in reproducible runs).
    pub latency_us: u64,
    /// Earlier attempts at this request that the HTTP client handed back unsent (the
    /// connection was found closed before a byte was written) and that were therefore sent
    /// again: the one-line reason each failed, oldest first. The player never saw them.
    /// Left out when empty, which is almost always.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unsent_attempts: Vec<String>,
}

impl<State> RequestRecord<State> {
    /// The same record holding `map(game_state)`, e.g. a raw document parsed, or taken out
    /// (`record.map_state(|_| ())`) to be kept elsewhere.
    pub fn map_state<Other>(self, map: impl FnOnce(State) -> Other) -> RequestRecord<Other> {
        RequestRecord {
            round: self.round,
            player: self.player,
            seat: self.seat,
            game_state: map(self.game_state),
            answer: self.answer,
            error: self.error,
            action: self.action,
            amount: self.amount,
            latency_us: self.latency_us,
            unsent_attempts: self.unsent_attempts,
        }
    }
}

/// The `type` of a viewer-log entry; the entry that opens a hand has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// `card_deal`: a hole card (`NAME received hole_card 9 of Clubs`) or a community card
    /// (`community card Queen of Clubs`) was dealt.
    CardDeal,
    /// `bet`: a blind, an answer or a ban (`NAME made a bet of N (action) and is left with S
    /// chips. The pot now contains P chips.`).
    Bet,
    /// `showdown`: a hand was revealed (`NAME showed <five cards> making a full house`).
    Showdown,
    /// `winner_announcement`: a winner was paid (`NAME won N`).
    WinnerAnnouncement,
    /// A `type` this version does not know (another dealer's); written back as `unknown`.
    #[serde(other)]
    Unknown,
}

impl EntryKind {
    /// The spelling in the file.
    pub const fn as_str(self) -> &'static str {
        match self {
            EntryKind::CardDeal => "card_deal",
            EntryKind::Bet => "bet",
            EntryKind::Showdown => "showdown",
            EntryKind::WinnerAnnouncement => "winner_announcement",
            EntryKind::Unknown => "unknown",
        }
    }
}

impl fmt::Display for EntryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One entry of the viewer log `log.json` (spec §8), keys in this order. The entry that opens
/// a hand has only `game_state`; every other entry has `type` and `message`, and `bet`
/// entries `on_turn`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewerLogEntry<State> {
    /// What happened; `None` for the entry that opens a hand.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<EntryKind>,
    /// The seat that bet (`bet` entries only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_turn: Option<Seat>,
    /// The live server's message, in English; `None` for the entry that opens a hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The whole table after the entry, with **every** player's hole cards (`[]` when none)
    /// and without `in_action`, `minimum_raise` and `bet_index`.
    pub game_state: State,
}

/// The states the players of a viewer log were asked in: for each entry, `Some` when it is a
/// `bet` entry answering a decision (every bet but the two blinds that open a hand), holding
/// the state the player on turn was asked in, rebuilt from the entry before it (the log shows
/// the table *after* each event): `in_action` the entry's `on_turn`, the other players' cards
/// hidden, a player whose fold the entry before logged marked folded (the log applies a fold
/// one entry late), and `minimum_raise` replayed from the hand's raises (spec §4);
/// `bet_index` absent. The answer is what the player's `bet` grew by between the two entries.
///
/// One rule for every reader of viewer logs (the testing kit's recordings, the arena's fitted
/// field), as the entries are one format.
pub fn asked_states<State: std::borrow::Borrow<crate::GameState>>(
    entries: &[ViewerLogEntry<State>],
) -> Vec<Option<crate::GameState>> {
    // Blinds still to be posted in this hand, and the minimum raise as the hand goes.
    let mut blinds_left = 0;
    let mut minimum_raise = Chips::ZERO;
    let mut board_cards = 0;
    let mut asked = Vec::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        let table = entry.game_state.borrow();
        asked.push(None);
        match entry.kind {
            None => {
                blinds_left = 2;
                minimum_raise = table.small_blind;
                board_cards = 0;
                continue;
            }
            Some(EntryKind::CardDeal) => {
                if table.community_cards.len() != board_cards {
                    board_cards = table.community_cards.len();
                    minimum_raise = table.big_blind();
                }
                continue;
            }
            Some(EntryKind::Bet) => {}
            Some(_) => continue,
        }
        let (Some(seat), Some(previous)) = (entry.on_turn, index.checked_sub(1)) else {
            continue;
        };
        if blinds_left > 0 {
            blinds_left -= 1;
            continue;
        }
        let previous = &entries[previous];
        let mut state = previous.game_state.borrow().clone();
        if previous.kind == Some(EntryKind::Bet)
            && previous
                .message
                .as_deref()
                .is_some_and(|message| message.contains("(fold)"))
        {
            if let Some(player) = previous
                .on_turn
                .and_then(|folded| state.players.get_mut(folded.index()))
            {
                if player.status == crate::PlayerStatus::Active {
                    player.status = crate::PlayerStatus::Folded;
                }
            }
        }
        for (position, player) in state.players.iter_mut().enumerate() {
            if position != seat.index() {
                player.hole_cards = None;
            }
        }
        state.in_action = Some(seat);
        state.minimum_raise = Some(minimum_raise);
        let raised_by = table
            .current_buy_in
            .saturating_sub(previous.game_state.borrow().current_buy_in);
        minimum_raise = minimum_raise.max(raised_by);
        asked[index] = Some(state);
    }
    asked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_are_spelled_as_in_the_file() {
        for name in ["fold", "check", "call", "raise", "allin", "banned"] {
            let action: RecordedAction = serde_json::from_str(&format!("\"{name}\"")).unwrap();
            assert_eq!(action.as_str(), name);
            assert_ne!(action, RecordedAction::Unknown);
            assert_eq!(
                serde_json::to_string(&action).unwrap(),
                format!("\"{name}\"")
            );
        }
        let newer: RecordedAction = serde_json::from_str("\"split\"").unwrap();
        assert_eq!(newer, RecordedAction::Unknown);
        assert!(serde_json::from_str::<RecordedAction>("3").is_err());
    }

    #[test]
    fn every_bet_action_is_recorded_by_its_own_spelling() {
        for action in [
            BetAction::Fold,
            BetAction::Check,
            BetAction::Call,
            BetAction::Raise,
            BetAction::AllIn,
        ] {
            let recorded = RecordedAction::from(action);
            assert_eq!(RecordedAction::from_name(recorded.as_str()), recorded);
        }
    }

    #[test]
    fn a_hand_opening_entry_has_only_a_game_state() {
        let entry = ViewerLogEntry {
            kind: None,
            on_turn: None,
            message: None,
            game_state: 1,
        };
        assert_eq!(serde_json::to_string(&entry).unwrap(), "{\"game_state\":1}");
        let bet = ViewerLogEntry {
            kind: Some(EntryKind::Bet),
            on_turn: Some(Seat(2)),
            message: Some("m".into()),
            game_state: 1,
        };
        let text = serde_json::to_string(&bet).unwrap();
        assert_eq!(
            text,
            "{\"type\":\"bet\",\"on_turn\":2,\"message\":\"m\",\"game_state\":1}"
        );
        assert_eq!(
            serde_json::from_str::<ViewerLogEntry<u8>>(&text).unwrap(),
            bet
        );
        let other: ViewerLogEntry<u8> =
            serde_json::from_str("{\"type\":\"chat\",\"message\":\"hi\",\"game_state\":1}")
                .unwrap();
        assert_eq!(other.kind, Some(EntryKind::Unknown));
    }

    #[test]
    fn a_request_line_leaves_out_error_and_attempts_only_when_empty() {
        let mut record = RequestRecord {
            round: 0,
            player: "a".into(),
            seat: Seat(0),
            game_state: (),
            answer: None,
            error: None,
            action: None,
            amount: Chips(0),
            latency_us: 7,
            unsent_attempts: Vec::new(),
        };
        assert_eq!(
            serde_json::to_string(&record).unwrap(),
            "{\"round\":0,\"player\":\"a\",\"seat\":0,\"game_state\":null,\"answer\":null,\
             \"action\":null,\"amount\":0,\"latency_us\":7}"
        );
        record.error = Some("timeout after 2000 ms".into());
        record.action = Some(RecordedAction::Banned);
        record.unsent_attempts = vec!["connection closed".into()];
        let text = serde_json::to_string(&record).unwrap();
        assert_eq!(
            text,
            "{\"round\":0,\"player\":\"a\",\"seat\":0,\"game_state\":null,\"answer\":null,\
             \"error\":\"timeout after 2000 ms\",\"action\":\"banned\",\"amount\":0,\
             \"latency_us\":7,\"unsent_attempts\":[\"connection closed\"]}"
        );
        assert_eq!(
            serde_json::from_str::<RequestRecord<()>>(&text).unwrap(),
            record
        );
        // A line missing a key the dealer always writes is not a request record.
        let error = serde_json::from_str::<RequestRecord<()>>("{\"game_state\":null}")
            .unwrap_err()
            .to_string();
        assert!(error.contains("missing field `round`"), "{error}");
    }
}
