//! The wire protocol (spec §1, §6): the four requests as form-encoded bodies, and the bet answer.
//!
//! This is the only place that knows how a request body is spelled; the player SDK decodes with
//! it and the dealer encodes with it.

use crate::state::{GameState, GameStateError};
use crate::Chips;
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
        let action: Action = action.ok_or(RequestError::MissingAction)?.parse()?;
        if !action.has_game_state() {
            return Ok(match action {
                Action::Check => Request::Check,
                _ => Request::Version,
            });
        }
        let encoded = game_state.ok_or(RequestError::MissingGameState(action))?;
        let state = parse_form_encoded_state(encoded)?;
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
        match self.game_state() {
            Some(state) => encode_request(self.action(), Some(&state.to_json())),
            None => encode_request(self.action(), None),
        }
    }
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

/// Appends `text` form-encoded exactly as `form_urlencoded::byte_serialize` does (ASCII
/// alphanumerics and `*-._` kept, space as `+`, every other byte as `%XX`), with one table
/// lookup per byte: the dealer encodes a game state for every request it sends.
fn push_form_encoded(out: &mut String, text: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut bytes = std::mem::take(out).into_bytes();
    bytes.reserve(text.len() * 2);
    for &byte in text.as_bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'*' | b'-' | b'.' | b'_') {
            bytes.push(byte);
        } else if byte == b' ' {
            bytes.push(b'+');
        } else {
            bytes.extend_from_slice(&[
                b'%',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0x0f)],
            ]);
        }
    }
    // Only ASCII was pushed onto what was already a valid String.
    *out = String::from_utf8(bytes).unwrap_or_default();
}

/// The `name=value` pairs of a form body, still encoded, exactly as `form_urlencoded::parse`
/// splits them: on `&`, skipping empty pieces, then on the first `=` (no `=`: an empty value).
fn form_fields(body: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    body.split(|&byte| byte == b'&')
        .filter(|piece| !piece.is_empty())
        .map(|piece| match piece.iter().position(|&byte| byte == b'=') {
            Some(equals) => (&piece[..equals], &piece[equals + 1..]),
            None => (piece, &[][..]),
        })
}

/// A field name, decoded only when it has something to decode (names are almost always plain).
fn form_key(encoded: &[u8]) -> std::borrow::Cow<'_, str> {
    if encoded.iter().any(|&byte| matches!(byte, b'%' | b'+')) {
        std::borrow::Cow::Owned(form_decode_text(encoded))
    } else {
        String::from_utf8_lossy(encoded)
    }
}

/// The value of every byte as a hex digit; `0xFF` for bytes that are not hex digits.
const HEX_VALUE: [u8; 256] = {
    let mut table = [0xFF; 256];
    let mut digit = 0;
    while digit < 10 {
        table[b'0' as usize + digit] = digit as u8;
        digit += 1;
    }
    let mut letter = 0;
    while letter < 6 {
        table[b'a' as usize + letter] = 10 + letter as u8;
        table[b'A' as usize + letter] = 10 + letter as u8;
        letter += 1;
    }
    table
};

/// Appends the form-decoded bytes of `encoded` to `out` in one pass, as `form_urlencoded` decodes
/// a value before its UTF-8 step: `+` is a space, `%` and two hex digits are that byte, and any
/// other `%` is kept as it is. (One table lookup per hex digit: about twice as fast as
/// `form_urlencoded` on a game state, which is mostly escapes.)
fn form_decode_into(encoded: &[u8], out: &mut Vec<u8>) {
    out.reserve(encoded.len());
    let mut rest = encoded;
    while let Some((&byte, tail)) = rest.split_first() {
        rest = tail;
        match byte {
            b'%' => {
                if let [high, low, after @ ..] = tail {
                    let (high, low) = (HEX_VALUE[usize::from(*high)], HEX_VALUE[usize::from(*low)]);
                    if high | low < 16 {
                        out.push(high << 4 | low);
                        rest = after;
                        continue;
                    }
                }
                out.push(b'%');
            }
            b'+' => out.push(b' '),
            other => out.push(other),
        }
    }
}

/// A form-decoded value as text, invalid UTF-8 replaced by U+FFFD (as `form_urlencoded` does).
fn form_decode_text(encoded: &[u8]) -> String {
    let mut bytes = Vec::new();
    form_decode_into(encoded, &mut bytes);
    String::from_utf8(bytes)
        .unwrap_or_else(|invalid| String::from_utf8_lossy(invalid.as_bytes()).into_owned())
}

/// Parses a form-encoded `game_state` value: decoded into one buffer and parsed from the bytes.
///
/// The result is exactly that of decoding the value to text with invalid UTF-8 replaced by
/// U+FFFD and parsing that text, without the separate UTF-8 pass on the common, valid document:
/// the JSON parser checks the UTF-8 of every string it reads, and any other non-ASCII byte is a
/// syntax error, so a document that parses either was valid UTF-8 or had invalid bytes only in
/// strings it skipped (unknown fields, whose text never reaches the result). Only a document that
/// fails is checked, and parsed again from its replaced text if it was not UTF-8.
fn parse_form_encoded_state(encoded: &[u8]) -> Result<GameState, GameStateError> {
    let mut json = Vec::new();
    form_decode_into(encoded, &mut json);
    match GameState::from_slice(&json) {
        Ok(state) => Ok(state),
        Err(error) => match std::str::from_utf8(&json) {
            Ok(_) => Err(error),
            Err(_) => GameState::from_json(&String::from_utf8_lossy(&json)),
        },
    }
}

/// Why a `bet_request` answer body is not a bet (spec §6: only ASCII digits are valid).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BetAnswerProblem {
    /// The body was empty.
    Empty,
    /// A space, tab or line break (a trailing newline is the classic).
    Whitespace {
        /// Byte offset of the first whitespace.
        position: usize,
    },
    /// A `+` or `-`.
    Sign {
        /// Byte offset of the sign.
        position: usize,
    },
    /// A decimal point or comma (`12.5`).
    Decimal {
        /// Byte offset of the separator.
        position: usize,
    },
    /// A JSON object, array or string instead of a bare number.
    Json,
    /// Any other byte that is not an ASCII digit.
    NotDigit {
        /// Byte offset of the first such byte.
        position: usize,
    },
}

impl fmt::Display for BetAnswerProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BetAnswerProblem::Empty => f.write_str("the body is empty"),
            BetAnswerProblem::Whitespace { position } => {
                write!(f, "whitespace at byte {position}")
            }
            BetAnswerProblem::Sign { position } => write!(f, "a sign at byte {position}"),
            BetAnswerProblem::Decimal { position } => {
                write!(f, "a decimal separator at byte {position}")
            }
            BetAnswerProblem::Json => f.write_str("JSON instead of a bare number"),
            BetAnswerProblem::NotDigit { position } => {
                write!(f, "a non-digit at byte {position}")
            }
        }
    }
}

/// A `bet_request` answer body that is not a valid bet, with a printable excerpt of the body.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("body {body} is not a bet: {problem} (only ASCII digits are allowed)")]
pub struct InvalidBetAnswer {
    /// What is wrong.
    pub problem: BetAnswerProblem,
    /// The body as a quoted, escaped string, cut after 64 bytes.
    pub body: String,
}

/// Reads a `bet_request` answer body (spec §6): only a non-empty run of ASCII digits is valid.
///
/// A run of digits too large for a `u64` is read as `Chips(u64::MAX)` (saturating), never as an
/// error: spec §4 reads any digits-only answer at or above the stack as an all-in, and no stack
/// reaches `u64::MAX`, so [`crate::rules::read_bet`] makes it an all-in like any other large
/// number.
///
/// ```
/// use shared::protocol::{parse_bet_answer, BetAnswerProblem};
/// use shared::Chips;
/// assert_eq!(parse_bet_answer(b"240"), Ok(Chips(240)));
/// assert_eq!(parse_bet_answer(b"99999999999999999999999"), Ok(Chips(u64::MAX)));
/// let error = parse_bet_answer(b"10\n").unwrap_err();
/// assert_eq!(error.problem, BetAnswerProblem::Whitespace { position: 2 });
/// assert_eq!(
///     error.to_string(),
///     r#"body "10\n" is not a bet: whitespace at byte 2 (only ASCII digits are allowed)"#
/// );
/// ```
///
/// # Errors
/// An [`InvalidBetAnswer`] saying why the body is not a bet.
pub fn parse_bet_answer(body: &[u8]) -> Result<Chips, InvalidBetAnswer> {
    let invalid = |problem| InvalidBetAnswer {
        problem,
        body: excerpt(body),
    };
    if body.is_empty() {
        return Err(invalid(BetAnswerProblem::Empty));
    }
    let mut value: u64 = 0;
    for (position, &byte) in body.iter().enumerate() {
        match byte {
            // Saturating: every digit after the value passed u64::MAX keeps it there.
            b'0'..=b'9' => {
                value = value
                    .saturating_mul(10)
                    .saturating_add(u64::from(byte - b'0'))
            }
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => {
                return Err(invalid(BetAnswerProblem::Whitespace { position }))
            }
            b'+' | b'-' => return Err(invalid(BetAnswerProblem::Sign { position })),
            b'.' | b',' => return Err(invalid(BetAnswerProblem::Decimal { position })),
            b'{' | b'[' | b'"' if position == 0 => return Err(invalid(BetAnswerProblem::Json)),
            _ => return Err(invalid(BetAnswerProblem::NotDigit { position })),
        }
    }
    Ok(Chips(value))
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
    //! Spec §1 (requests) and §6 (answers).
    use super::*;

    fn problem(body: &[u8]) -> BetAnswerProblem {
        parse_bet_answer(body).unwrap_err().problem
    }

    #[test]
    fn spec_6_digits_are_the_only_valid_answer() {
        assert_eq!(parse_bet_answer(b"0"), Ok(Chips(0)));
        assert_eq!(parse_bet_answer(b"240"), Ok(Chips(240)));
        assert_eq!(parse_bet_answer(b"007"), Ok(Chips(7)));
        assert_eq!(
            parse_bet_answer(b"18446744073709551615"),
            Ok(Chips(u64::MAX))
        );
    }

    #[test]
    fn spec_4_digits_beyond_64_bits_saturate_to_an_all_in() {
        // Spec §4: any digits-only answer at or above the stack is an all-in; a number too
        // large for chips is still such an answer, not an invalid one.
        for body in [
            &b"18446744073709551616"[..],
            b"99999999999999999999999",
            &[b'9'; 100],
            b"000000000000000000000000000018446744073709551616",
        ] {
            assert_eq!(parse_bet_answer(body), Ok(Chips(u64::MAX)));
        }
        // A digit after a saturated value never wraps back to a small one.
        assert_eq!(
            parse_bet_answer(b"184467440737095516150"),
            Ok(Chips(u64::MAX))
        );
        let context = crate::rules::BetContext {
            stack: Chips(1000),
            bet: Chips(0),
            current_buy_in: Chips(4),
            minimum_raise: Chips(2),
        };
        let reading = crate::rules::read_bet(
            &context,
            parse_bet_answer(b"99999999999999999999999").unwrap(),
        );
        assert_eq!(reading.action, crate::BetAction::AllIn);
        assert_eq!(reading.put_in, Chips(1000));
    }

    #[test]
    fn spec_6_every_invalid_answer_says_why() {
        assert_eq!(problem(b""), BetAnswerProblem::Empty);
        assert_eq!(
            problem(b"10\n"),
            BetAnswerProblem::Whitespace { position: 2 }
        );
        assert_eq!(
            problem(b" 10"),
            BetAnswerProblem::Whitespace { position: 0 }
        );
        assert_eq!(
            problem(b"1 0"),
            BetAnswerProblem::Whitespace { position: 1 }
        );
        assert_eq!(problem(b"-5"), BetAnswerProblem::Sign { position: 0 });
        assert_eq!(problem(b"+5"), BetAnswerProblem::Sign { position: 0 });
        assert_eq!(problem(b"12.5"), BetAnswerProblem::Decimal { position: 2 });
        assert_eq!(problem(b"12,5"), BetAnswerProblem::Decimal { position: 2 });
        assert_eq!(problem(b"{\"bet\":10}"), BetAnswerProblem::Json);
        assert_eq!(problem(b"[10]"), BetAnswerProblem::Json);
        assert_eq!(problem(b"\"10\""), BetAnswerProblem::Json);
        assert_eq!(problem(b"1e3"), BetAnswerProblem::NotDigit { position: 1 });
        assert_eq!(problem(b"abc"), BetAnswerProblem::NotDigit { position: 0 });
        assert_eq!(problem(b"\xff"), BetAnswerProblem::NotDigit { position: 0 });
    }

    #[test]
    fn error_excerpts_are_bounded() {
        let error = parse_bet_answer(&[b'x'; 10_000_000]).unwrap_err();
        assert!(error.to_string().len() < 200, "{error}");
        assert!(error.body.contains("10000000 bytes"));
    }

    #[test]
    fn spec_1_decode_every_action() {
        assert_eq!(Request::decode(b"action=check").unwrap(), Request::Check);
        assert_eq!(
            Request::decode(b"action=version").unwrap(),
            Request::Version
        );
        let json =
            include_str!("../tests/fixtures/gamestates/09-preflop-r0-6-seats-first-request.json");
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

    /// The decoding as it was written on `form_urlencoded` (the reference for the one-pass one).
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
        let action: Action = action.ok_or(RequestError::MissingAction)?.parse()?;
        if !action.has_game_state() {
            return Ok(match action {
                Action::Check => Request::Check,
                _ => Request::Version,
            });
        }
        let text = game_state.ok_or(RequestError::MissingGameState(action))?;
        let state = GameState::from_json(&text)?;
        Ok(match action {
            Action::BetRequest => Request::BetRequest(state),
            _ => Request::Showdown(state),
        })
    }

    #[test]
    fn spec_1_decoding_matches_form_urlencoded_on_odd_bodies() {
        let json =
            include_str!("../tests/fixtures/gamestates/09-preflop-r0-6-seats-first-request.json");
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
    fn form_encoding_matches_form_urlencoded_byte_for_byte() {
        let mut samples: Vec<String> = vec![
            String::new(),
            " ~!*'();:@&=+$,/?#[]%\"{}<>|^`\\-._".to_string(),
            "Ultimate chan killer \u{e9}\u{1f0cf}\u{0}\n\t".to_string(),
            include_str!("../tests/fixtures/gamestates/10-preflop-r23-8-seats-facing-all-in.json")
                .to_string(),
        ];
        samples.push((0u8..=127).map(char::from).collect());
        for sample in samples {
            let mut ours = String::new();
            push_form_encoded(&mut ours, &sample);
            let theirs: String = form_urlencoded::byte_serialize(sample.as_bytes()).collect();
            assert_eq!(ours, theirs, "{sample:?}");
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
                    "../tests/fixtures/gamestates/09-preflop-r0-6-seats-first-request.json"
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

            /// Spec §6: a body is a bet exactly when it is a non-empty run of ASCII digits, and
            /// then the bet is its value, or `u64::MAX` chips when that does not fit (spec §4: an
            /// all-in either way).
            #[test]
            fn spec_6_a_bet_is_exactly_a_run_of_digits(
                body in prop_oneof![
                    proptest::collection::vec(any::<u8>(), 0..24),
                    "[0-9]{0,22}".prop_map(String::into_bytes),
                    "[ +-]?[0-9]{1,5}[.,\n ]?[0-9]{0,2}".prop_map(String::into_bytes),
                ]
            ) {
                let digits_only = !body.is_empty() && body.iter().all(u8::is_ascii_digit);
                let expected = if digits_only {
                    let text = std::str::from_utf8(&body).unwrap();
                    Some(Chips(text.parse::<u64>().unwrap_or(u64::MAX)))
                } else {
                    None
                };
                match parse_bet_answer(&body) {
                    Ok(chips) => prop_assert_eq!(Some(chips), expected),
                    Err(error) => {
                        prop_assert_eq!(expected, None);
                        prop_assert!(!error.to_string().contains('\n'));
                    }
                }
            }
        }
    }
}
