//! The wire protocol (spec §1, §6): the four requests as form-encoded bodies, and the bet answer.
//!
//! This is the only place that knows how a request body is spelled; the player SDK decodes with
//! it and the dealer encodes with it. The requests are here; `form` holds the form-encoding
//! byte work and `bet_answer` the reading of a `bet_request` answer.

mod bet_answer;
mod form;

pub use bet_answer::{parse_bet_answer, BetAnswerProblem, InvalidBetAnswer};

use crate::state::{FormWriter, GameState, GameStateError};
use form::{form_decode_text, form_fields, form_key, parse_form_encoded_state, push_form_encoded};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The `action` field of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Is the player up? The body of the answer is ignored.
    Check,
    /// What version is deployed? The answer is shown on leaderboards.
    Version,
    /// The player is on turn: answer with a number of chips.
    BetRequest,
    /// A hand ended: the state with revealed cards. The body of the answer is ignored.
    Showdown,
}

impl Action {
    /// The wire spelling: `check`, `version`, `bet_request`, `showdown`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Action::Check => "check",
            Action::Version => "version",
            Action::BetRequest => "bet_request",
            Action::Showdown => "showdown",
        }
    }

    /// Whether requests with this action carry a `game_state`.
    pub const fn has_game_state(self) -> bool {
        matches!(self, Action::BetRequest | Action::Showdown)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Action {
    type Err = RequestError;
    fn from_str(text: &str) -> Result<Action, RequestError> {
        match text {
            "check" => Ok(Action::Check),
            "version" => Ok(Action::Version),
            "bet_request" => Ok(Action::BetRequest),
            "showdown" => Ok(Action::Showdown),
            other => Err(RequestError::UnknownAction(truncate(other, 40))),
        }
    }
}

/// One request from the dealer to a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// `action=check`.
    Check,
    /// `action=version`.
    Version,
    /// `action=bet_request&game_state=...`.
    BetRequest(GameState),
    /// `action=showdown&game_state=...`.
    Showdown(GameState),
}

/// Why a request body could not be decoded. Each message is one line, fit for a `400` body.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RequestError {
    /// No `action` field.
    #[error("missing action (expected action=check, version, bet_request or showdown)")]
    MissingAction,
    /// An `action` that is not one of the four.
    #[error("unknown action {0:?} (expected check, version, bet_request or showdown)")]
    UnknownAction(String),
    /// `bet_request` or `showdown` without a `game_state` field.
    #[error("missing game_state for action {0}")]
    MissingGameState(Action),
    /// The `game_state` field is not a valid document.
    #[error("{0}")]
    InvalidGameState(#[from] GameStateError),
}

impl Request {
    /// The request's action.
    pub fn action(&self) -> Action {
        match self {
            Request::Check => Action::Check,
            Request::Version => Action::Version,
            Request::BetRequest(_) => Action::BetRequest,
            Request::Showdown(_) => Action::Showdown,
        }
    }

    /// The game state, for `bet_request` and `showdown`.
    pub fn game_state(&self) -> Option<&GameState> {
        match self {
            Request::BetRequest(state) | Request::Showdown(state) => Some(state),
            Request::Check | Request::Version => None,
        }
    }

    /// Decodes an `application/x-www-form-urlencoded` body. Unknown fields are ignored, as is a
    /// `game_state` sent with `check` or `version`; when a field repeats, the first one counts.
    ///
    /// ```
    /// use shared::protocol::{Request, RequestError};
    /// assert_eq!(Request::decode(b"action=check").unwrap(), Request::Check);
    /// assert!(matches!(Request::decode(b""), Err(RequestError::MissingAction)));
    /// ```
    ///
    /// # Errors
    /// A [`RequestError`] for a missing or unknown action, or a missing or invalid `game_state`.
    pub fn decode(body: &[u8]) -> Result<Request, RequestError> {
        let mut action = None;
        let mut game_state = None;
        for (key, value) in form_fields(body) {
            match form_key(key).as_ref() {
                "action" if action.is_none() => action = Some(form_decode_text(value)),
                "game_state" if game_state.is_none() => game_state = Some(value),
                _ => {}
            }
        }
        Request::from_fields(action.as_deref(), game_state, parse_form_encoded_state)
    }

    /// The request of the `action` and `game_state` fields found in a body (the document
    /// still encoded, read by `parse_state` only when the action carries one).
    fn from_fields<Encoded>(
        action: Option<&str>,
        game_state: Option<Encoded>,
        parse_state: impl FnOnce(Encoded) -> Result<GameState, GameStateError>,
    ) -> Result<Request, RequestError> {
        let action: Action = action.ok_or(RequestError::MissingAction)?.parse()?;
        if !action.has_game_state() {
            return Ok(match action {
                Action::Check => Request::Check,
                _ => Request::Version,
            });
        }
        let encoded = game_state.ok_or(RequestError::MissingGameState(action))?;
        let state = parse_state(encoded)?;
        Ok(match action {
            Action::BetRequest => Request::BetRequest(state),
            _ => Request::Showdown(state),
        })
    }

    /// Encodes the request as a form body, serialising the game state compactly.
    ///
    /// ```
    /// use shared::protocol::Request;
    /// assert_eq!(Request::Version.encode(), "action=version");
    /// ```
    pub fn encode(&self) -> String {
        let body = encode_request_body(self.action(), self.game_state());
        // A form body is ASCII.
        String::from_utf8(body).unwrap_or_default()
    }
}

/// Encodes a form body from an action and, for `bet_request`/`showdown`, the game state: the
/// same bytes as [`encode_request`] of [`GameState::to_json`], with the document written
/// form-encoded in one pass (the dealer sends one per request).
///
/// ```
/// use shared::protocol::{encode_request, encode_request_body, Action};
/// let state = shared::testing_state();
/// assert_eq!(
///     encode_request_body(Action::BetRequest, Some(&state)),
///     encode_request(Action::BetRequest, Some(&state.to_json())).into_bytes()
/// );
/// ```
pub fn encode_request_body(action: Action, game_state: Option<&GameState>) -> Vec<u8> {
    form_body(action, game_state, |state, body| {
        state.write_form_encoded(body)
    })
}

/// `action=…` and, with a game state, `&game_state=` followed by what `write_state` writes (the
/// state form-encoded): the one layout of a request body, whichever writer spells the state.
fn form_body(
    action: Action,
    game_state: Option<&GameState>,
    write_state: impl FnOnce(&GameState, &mut Vec<u8>),
) -> Vec<u8> {
    let capacity = 32 + game_state.map_or(0, |state| 512 + 320 * state.players.len());
    let mut body = Vec::with_capacity(capacity);
    body.extend_from_slice(b"action=");
    body.extend_from_slice(action.as_str().as_bytes());
    if let Some(state) = game_state {
        body.extend_from_slice(b"&game_state=");
        write_state(state, &mut body);
    }
    body
}

/// Encodes a form body from an action and, for `bet_request`/`showdown`, the game state's JSON
/// text exactly as it should arrive (the dealer logs the same text it sends).
///
/// ```
/// use shared::protocol::{encode_request, Action};
/// assert_eq!(
///     encode_request(Action::BetRequest, Some(r#"{"a":1}"#)),
///     "action=bet_request&game_state=%7B%22a%22%3A1%7D"
/// );
/// ```
pub fn encode_request(action: Action, game_state_json: Option<&str>) -> String {
    let capacity = 32 + game_state_json.map_or(0, |json| json.len() * 2);
    let mut body = String::with_capacity(capacity);
    body.push_str("action=");
    body.push_str(action.as_str());
    if let Some(json) = game_state_json {
        body.push_str("&game_state=");
        push_form_encoded(&mut body, json);
    }
    body
}

/// Encodes request bodies one after another: the bytes of [`encode_request_body`], reusing
/// the encoded text of every player in the document who did not change since the last one (a
/// dealer's consecutive documents of one game differ in a player or two).
#[derive(Debug, Clone, Default)]
pub struct RequestEncoder {
    form: FormWriter,
}

impl RequestEncoder {
    /// An encoder that has encoded nothing yet.
    pub fn new() -> RequestEncoder {
        RequestEncoder::default()
    }

    /// The form body of `action` with, for `bet_request`/`showdown`, `game_state`.
    ///
    /// ```
    /// use shared::protocol::{encode_request_body, Action, RequestEncoder};
    /// let mut state = shared::testing_state();
    /// let mut encoder = RequestEncoder::new();
    /// for pot in [10, 20] {
    ///     state.pot = shared::Chips(pot);
    ///     assert_eq!(
    ///         encoder.encode(Action::BetRequest, Some(&state)),
    ///         encode_request_body(Action::BetRequest, Some(&state))
    ///     );
    /// }
    /// ```
    pub fn encode(&mut self, action: Action, game_state: Option<&GameState>) -> Vec<u8> {
        form_body(action, game_state, |state, body| {
            self.form.write(state, body)
        })
    }
}

/// A quoted, escaped, length-limited rendering of arbitrary bytes for error messages and logs.
pub fn excerpt(bytes: &[u8]) -> String {
    const LIMIT: usize = 64;
    let shown = &bytes[..bytes.len().min(LIMIT)];
    let text = String::from_utf8_lossy(shown);
    let mut quoted = format!("{text:?}");
    if bytes.len() > LIMIT {
        quoted.push_str(&format!("… ({} bytes)", bytes.len()));
    }
    quoted
}

fn truncate(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    //! Spec §1 (requests).
    use super::*;

    #[test]
    fn spec_1_decode_every_action() {
        assert_eq!(Request::decode(b"action=check").unwrap(), Request::Check);
        assert_eq!(
            Request::decode(b"action=version").unwrap(),
            Request::Version
        );
        let json = include_str!(
            "../../tests/fixtures/gamestates/09-preflop-r0-6-seats-first-request.json"
        );
        let body = encode_request(Action::BetRequest, Some(json));
        match Request::decode(body.as_bytes()).unwrap() {
            Request::BetRequest(state) => assert_eq!(state.to_json(), json),
            other => panic!("decoded {other:?}"),
        }
        let body = encode_request(Action::Showdown, Some(json));
        assert_eq!(
            Request::decode(body.as_bytes()).unwrap().action(),
            Action::Showdown
        );
        // Both spellings of a space decode: '+' and %20.
        let spaced =
            "action=showdown&game_state=".to_string() + &json.replace(' ', "+").replace('"', "%22");
        assert!(Request::decode(spaced.as_bytes()).is_ok());
    }

    #[test]
    fn spec_1_bad_requests_say_why() {
        assert_eq!(Request::decode(b""), Err(RequestError::MissingAction));
        assert_eq!(
            Request::decode(b"game_state=%7B%7D"),
            Err(RequestError::MissingAction)
        );
        assert_eq!(
            Request::decode(b"action=dance"),
            Err(RequestError::UnknownAction("dance".into()))
        );
        assert_eq!(
            Request::decode(b"action=bet_request"),
            Err(RequestError::MissingGameState(Action::BetRequest))
        );
        let error = Request::decode(b"action=showdown&game_state=%7Bnope").unwrap_err();
        assert!(
            matches!(error, RequestError::InvalidGameState(_)),
            "{error}"
        );
        assert!(error.to_string().contains("line 1, column 2"), "{error}");
        // Messages are one line, fit for a 400 body.
        assert!(!error.to_string().contains('\n'));
        let long = format!("action={}", "x".repeat(10_000));
        assert!(
            Request::decode(long.as_bytes())
                .unwrap_err()
                .to_string()
                .len()
                < 200
        );
    }

    /// The field splitting and decoding as it was written on `form_urlencoded` (the reference
    /// for the one-pass one).
    fn decode_with_form_urlencoded(body: &[u8]) -> Result<Request, RequestError> {
        let mut action = None;
        let mut game_state = None;
        for (key, value) in form_urlencoded::parse(body) {
            match key.as_ref() {
                "action" if action.is_none() => action = Some(value),
                "game_state" if game_state.is_none() => game_state = Some(value),
                _ => {}
            }
        }
        Request::from_fields(action.as_deref(), game_state, |text| {
            GameState::from_json(&text)
        })
    }

    #[test]
    fn spec_1_decoding_matches_form_urlencoded_on_odd_bodies() {
        let json = include_str!(
            "../../tests/fixtures/gamestates/09-preflop-r0-6-seats-first-request.json"
        );
        let encoded = encode_request(Action::BetRequest, Some(json));
        let state_field = encoded.split_once('&').unwrap().1;
        let named = json.replacen("\"name\":\"", "\"name\":\"\u{e9}", 1);
        let mut bodies: Vec<Vec<u8>> = vec![
            encoded.clone().into_bytes(),
            format!("{state_field}&action=bet_request").into_bytes(),
            format!("&&action=showdown&&{state_field}&").into_bytes(),
            format!("act%69on=bet_request&game%5Fstate{}", &state_field[10..]).into_bytes(),
            format!("action=bet%5Frequest&{state_field}&action=check").into_bytes(),
            format!("action=check&{state_field}").into_bytes(),
            b"action=version&game_state=%7Bbroken".to_vec(),
            b"action=bet_request&game_state".to_vec(),
            b"action&action=check".to_vec(),
            format!("action=bet_request&game_state=&{state_field}").into_bytes(),
            b"action=bet_request&game_state=%7B%zz%4".to_vec(),
            b"action=bet_request&game_state=%%7B%%7D%".to_vec(),
            format!("action=%FF%FE&{state_field}").into_bytes(),
            format!("action=check+&{state_field}").into_bytes(),
            b"action=check%20".to_vec(),
            b"+action=check".to_vec(),
            encode_request(Action::Showdown, Some(&named)).into_bytes(),
            encode_request(Action::BetRequest, Some(&json.replace(' ', "+"))).into_bytes(),
            b"action=bet_request&game_state={}".to_vec(),
            b"action=bet_request&game_state=%7B%22a%22%3A%22%FF%22%7D".to_vec(),
            b"\xff\xfe=&action=check".to_vec(),
        ];
        // Invalid UTF-8 in a kept string, in an unknown field's string, and in a key.
        for invalid in [
            json.replacen("\"name\":\"", "\"name\":\"%FF", 1),
            json.replacen("{", "{\"extra\":\"%C3%28\",", 1),
            json.replacen("{", "{\"e%FFxtra\":1,", 1),
            json.replacen("{", "{%FF", 1),
        ] {
            let mut body = b"action=bet_request&game_state=".to_vec();
            for (index, piece) in invalid.split("%FF").enumerate() {
                if index > 0 {
                    body.extend_from_slice(b"%FF");
                }
                body.extend_from_slice(
                    &encode_request(Action::Check, Some(piece)).as_bytes()[24..],
                );
            }
            // The same with a raw (not percent-encoded) invalid byte.
            let mut raw = Vec::new();
            let mut rest = &body[..];
            while let Some(at) = rest.windows(3).position(|window| window == b"%FF") {
                raw.extend_from_slice(&rest[..at]);
                raw.push(0xFF);
                rest = &rest[at + 3..];
            }
            raw.extend_from_slice(rest);
            bodies.push(body);
            bodies.push(raw);
        }
        for body in &bodies {
            assert_eq!(
                Request::decode(body),
                decode_with_form_urlencoded(body),
                "{}",
                String::from_utf8_lossy(body)
            );
        }
        // Every prefix of a real body: cut escapes, cut fields, cut JSON.
        for cut in 0..encoded.len() {
            let body = &encoded.as_bytes()[..cut];
            assert_eq!(Request::decode(body), decode_with_form_urlencoded(body));
        }
    }
    #[test]
    fn encode_round_trips() {
        let state = crate::testing_state();
        for request in [
            Request::Check,
            Request::Version,
            Request::BetRequest(state.clone()),
            Request::Showdown(state),
        ] {
            assert_eq!(
                Request::decode(request.encode().as_bytes()).unwrap(),
                request
            );
        }
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        /// Pieces a form body is made of, so that random bodies are mostly almost-valid.
        fn piece() -> impl Strategy<Value = Vec<u8>> {
            let state = encode_request(
                Action::BetRequest,
                Some(include_str!(
                    "../../tests/fixtures/gamestates/09-preflop-r0-6-seats-first-request.json"
                )),
            );
            let state_field = state.split_once('&').unwrap().1.as_bytes().to_vec();
            prop_oneof![
                Just(b"action=".to_vec()),
                Just(b"game_state=".to_vec()),
                Just(b"bet_request".to_vec()),
                Just(b"showdown".to_vec()),
                Just(b"check".to_vec()),
                Just(b"version".to_vec()),
                Just(b"&".to_vec()),
                Just(b"=".to_vec()),
                Just(b"+".to_vec()),
                Just(b"%".to_vec()),
                Just(b"%7B%7D".to_vec()),
                Just(b"%FF".to_vec()),
                Just(b"%C3%A9".to_vec()),
                Just(state_field.clone()),
                Just(state_field[..state_field.len() / 2].to_vec()),
                proptest::collection::vec(any::<u8>(), 0..8),
            ]
        }

        fn body() -> impl Strategy<Value = Vec<u8>> {
            proptest::collection::vec(piece(), 0..8).prop_map(|pieces| pieces.concat())
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2_000))]

            /// Spec §1: whatever a caller sends, the one-pass decoder neither panics nor differs
            /// from decoding with `form_urlencoded`.
            #[test]
            fn spec_1_decoding_any_body_matches_form_urlencoded(body in body()) {
                prop_assert_eq!(Request::decode(&body), decode_with_form_urlencoded(&body));
            }

            /// The same on bytes with no structure at all.
            #[test]
            fn spec_1_decoding_random_bytes_matches_form_urlencoded(
                body in proptest::collection::vec(any::<u8>(), 0..256)
            ) {
                prop_assert_eq!(Request::decode(&body), decode_with_form_urlencoded(&body));
            }
        }
    }
}
