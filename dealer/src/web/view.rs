//! Reading what the viewer shows of a team's bot: `requests.jsonl` and the players' log
//! headers (the viewer log is read by [`super::log`]). Lenient about what is missing, every
//! failure a sentence for the page.

use super::store::FolderError;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use shared::records::RequestRecord;

/// The name and seat in a player log's header line
/// (`# Lean Poker dealer: requests to "NAME" (seat 5), game ...`).
pub fn player_log_header(line: &str) -> Option<(String, Option<u64>)> {
    let rest = line.strip_prefix("# Lean Poker dealer: requests to ")?;
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<String>();
    let name = stream.next()?.ok()?;
    let after = &rest[stream.byte_offset()..];
    let seat = after
        .strip_prefix(" (seat ")
        .and_then(|s| s.split(')').next())
        .and_then(|digits| digits.parse().ok());
    Some((name, seat))
}

/// One line of `requests.jsonl`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RequestLine {
    /// 1-based line number in the file (the key of the fixture download).
    #[serde(default)]
    pub line: usize,
    /// The hand.
    pub round: u64,
    /// The player asked.
    pub player: String,
    /// The player's seat.
    pub seat: u64,
    /// The document sent, byte for byte (`null` when the runner had none).
    pub game_state: Option<Box<RawValue>>,
    /// The raw answer.
    #[serde(default)]
    pub answer: Option<String>,
    /// Why the answer was invalid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// How the engine read the answer.
    #[serde(default)]
    pub action: Option<String>,
    /// Chips the answer put in.
    #[serde(default)]
    pub amount: Option<u64>,
    /// Latency in microseconds.
    #[serde(default)]
    pub latency_us: Option<u64>,
}

/// What one player was asked in a game and how it answered.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerRequests {
    /// The player.
    pub name: String,
    /// Its seat.
    pub seat: Option<u64>,
    /// Its `bet_request`s from `requests.jsonl`, in order.
    pub requests: Vec<RequestLine>,
    /// Lines of `requests.jsonl` that could not be read.
    pub problems: Vec<String>,
    /// Its text log (`players/<name>.log`), at most [`super::store::MAX_PLAYER_LOG_BYTES`].
    pub log: Option<String>,
    /// Whether the text log was cut to that size.
    pub log_cut: bool,
    /// What is held back while the game is played (the hand in progress and the text log:
    /// they show this player's hole cards to anyone).
    pub held_back: Option<String>,
}

/// The highest `round` in a `requests.jsonl` (the hand in progress while a game is played).
pub fn last_round(bytes: &[u8]) -> Option<u64> {
    #[derive(Deserialize)]
    struct Round {
        round: u64,
    }
    bytes
        .split(|&b| b == b'\n')
        .filter_map(|line| serde_json::from_slice::<Round>(line).ok())
        .map(|line| line.round)
        .max()
}

fn parse_request(text: &str, number: usize, last: bool) -> Result<RequestLine, String> {
    match serde_json::from_str::<RequestRecord<Option<Box<RawValue>>>>(text) {
        Ok(record) => Ok(RequestLine {
            line: number,
            round: record.round,
            player: record.player,
            seat: record.seat.index() as u64,
            game_state: record.game_state,
            answer: record.answer,
            error: record.error,
            action: record.action.map(|action| action.to_string()),
            amount: Some(record.amount.get()),
            latency_us: Some(record.latency_us),
        }),
        Err(error) if error.is_eof() && last => Err(format!(
            "requests.jsonl line {number} is cut off (the game was stopped or is still being written)"
        )),
        Err(error) => Err(format!("requests.jsonl line {number}: {error}")),
    }
}

fn lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8], bool)> {
    let count = bytes.split(|&b| b == b'\n').count();
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(move |(index, line)| (index + 1, line, index + 1 == count))
}

/// `player`'s lines of a `requests.jsonl`, and the lines that could not be read.
pub fn requests_of(bytes: &[u8], player: &str) -> (Vec<RequestLine>, Vec<String>) {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    for (number, line, last) in lines(bytes) {
        let text = String::from_utf8_lossy(line);
        if text.trim().is_empty() {
            continue;
        }
        match parse_request(&text, number, last) {
            Ok(line) if line.player == player => found.push(line),
            Ok(_) => {}
            Err(problem) => problems.push(problem),
        }
    }
    (found, problems)
}

/// Line `number` (1-based) of a `requests.jsonl`.
///
/// # Errors
/// [`FolderError::NotFound`] past the end, [`FolderError::Unreadable`] for a bad line.
pub fn request_line(bytes: &[u8], number: usize) -> Result<RequestLine, FolderError> {
    let (_, line, last) = lines(bytes)
        .find(|(n, line, _)| *n == number && !line.is_empty())
        .ok_or_else(|| FolderError::NotFound(format!("requests.jsonl has no line {number}")))?;
    parse_request(&String::from_utf8_lossy(line), number, last).map_err(FolderError::Unreadable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_line_gives_exact_name_and_seat() {
        let line = r#"# Lean Poker dealer: requests to "Team \"<b>\" 🃏" (seat 5), game 5a09, tournament 59f7"#;
        assert_eq!(
            player_log_header(line),
            Some(("Team \"<b>\" 🃏".to_string(), Some(5)))
        );
        assert_eq!(player_log_header("round 0 check"), None);
    }

    #[test]
    fn requests_are_filtered_by_player_and_a_cut_last_line_is_a_problem() {
        let text = concat!(
            r#"{"round":0,"player":"a","seat":0,"game_state":{"x":1},"answer":"0","action":"fold","amount":0,"latency_us":5}"#,
            "\n",
            r#"{"round":0,"player":"b","seat":1,"game_state":{"x":2},"answer":"4","action":"call","amount":4,"latency_us":5}"#,
            "\n",
            r#"{"round":1,"player":"a","seat":0,"game_state":{"x":"#
        );
        let (found, problems) = requests_of(text.as_bytes(), "a");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].line, 1);
        assert_eq!(found[0].game_state.as_ref().unwrap().get(), r#"{"x":1}"#);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("line 3 is cut off"), "{problems:?}");
        assert_eq!(request_line(text.as_bytes(), 2).unwrap().player, "b");
        assert!(matches!(
            request_line(text.as_bytes(), 9),
            Err(FolderError::NotFound(_))
        ));
    }
}
