//! Reading the files the viewer shows: the viewer log (spec §8), `requests.jsonl` and the
//! players' log headers. Readers are lenient about what other dealers leave out (a 2014 log has
//! no `round`, `big_blind`, `time_used` or versions) and strict about shape, so a page never
//! gets a document it cannot draw; every failure is a sentence for the page.

use super::store::StoreError;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use shared::records::{RequestRecord, ViewerLogEntry};

/// A card as the wire writes it (`{"rank":"10","suit":"clubs"}`), kept as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewCard {
    /// `2`..`10`, `J`, `Q`, `K`, `A`.
    pub rank: String,
    /// `clubs`, `spades`, `hearts`, `diamonds`.
    pub suit: String,
}

/// One player in a logged table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewPlayer {
    /// The team name.
    pub name: String,
    /// Chips behind.
    pub stack: u64,
    /// `active`, `folded` or `out`.
    pub status: String,
    /// Chips in front this betting round.
    #[serde(default)]
    pub bet: u64,
    /// Hole cards (every player's are in a viewer log; `[]` if none).
    #[serde(default)]
    pub hole_cards: Vec<ViewCard>,
    /// The bot's version string.
    #[serde(default)]
    pub version: Option<String>,
    /// Chips won in the hand, on winner announcements.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount_won: Option<u64>,
    /// Microseconds used so far (absent before 2017).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_used: Option<u64>,
}

/// The table at one log entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewState {
    /// The hand (absent in 2014 logs).
    #[serde(default)]
    pub round: Option<u64>,
    /// Seats in order.
    pub players: Vec<ViewPlayer>,
    /// The small blind.
    #[serde(default)]
    pub small_blind: Option<u64>,
    /// The big blind (absent before 2016).
    #[serde(default)]
    pub big_blind: Option<u64>,
    /// The button's seat.
    #[serde(default)]
    pub dealer: Option<u64>,
    /// The board.
    #[serde(default)]
    pub community_cards: Vec<ViewCard>,
    /// The highest bet this betting round.
    #[serde(default)]
    pub current_buy_in: Option<u64>,
    /// Chips in the middle, bets included.
    #[serde(default)]
    pub pot: Option<u64>,
}

/// One viewer-log entry: the shared record (`type` this version does not know reads as
/// `unknown`), holding the lenient [`ViewState`].
pub type LogEntry = ViewerLogEntry<ViewState>;

/// Where a hand starts in the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HandStart {
    /// The hand's number (`round`), or its position in the log when the log has no rounds.
    pub round: u64,
    /// Index of its first entry.
    pub entry: usize,
}

/// A ban written in the log (`... Banned: reason`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BanMark {
    /// Index of the entry.
    pub entry: usize,
    /// The banned player.
    pub player: String,
    /// Everything after `Banned: `.
    pub reason: String,
}

/// A checked viewer log, with its hands and bans found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameLog {
    /// Every entry, in order.
    pub entries: Vec<LogEntry>,
    /// Where each hand starts.
    pub hands: Vec<HandStart>,
    /// Bans, in order.
    pub bans: Vec<BanMark>,
}

/// Where a ban's reason starts in a log message (our dealer's format; see
/// `observe::viewer_log`).
const BAN_MARK: &str = "Banned: ";

/// Parses and indexes a viewer log, or says in one sentence what is wrong with it.
///
/// # Errors
/// A message for the page: cut off, not JSON, or not a viewer log (with the entry and field).
pub fn parse_log(bytes: &[u8]) -> Result<GameLog, String> {
    let text = std::str::from_utf8(bytes)
        .map_err(|error| format!("log.json is not UTF-8 text (byte {})", error.valid_up_to()))?;
    if text.trim().is_empty() {
        return Err("log.json is empty: the game wrote nothing yet".to_string());
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let entries: Vec<LogEntry> = match serde_path_to_error::deserialize(&mut deserializer) {
        Ok(entries) => entries,
        Err(error) => {
            let path = error.path().to_string();
            let inner = error.into_inner();
            return Err(if inner.is_eof() {
                format!(
                    "log.json is cut off (it ends inside {}): the game was stopped or is still being written. Complete hands can be read once the file is closed.",
                    if path == "." { "the array".to_string() } else { format!("entry {path}") }
                )
            } else if inner.is_syntax() {
                format!("log.json is not valid JSON: {inner}")
            } else {
                format!("log.json is not a Lean Poker viewer log: at {path}: {inner}")
            });
        }
    };
    if let Err(error) = deserializer.end() {
        return Err(format!("log.json has text after its array: {error}"));
    }
    if entries.is_empty() {
        return Err("log.json has no entries: the game never started".to_string());
    }
    let mut hands = Vec::new();
    let mut bans = Vec::new();
    let mut previous_round = None;
    for (index, entry) in entries.iter().enumerate() {
        let round = entry.game_state.round;
        let opens = entry.message.is_none() && entry.kind.is_none();
        if index == 0 || opens || (round.is_some() && round != previous_round) {
            hands.push(HandStart {
                round: round.unwrap_or(hands.len() as u64),
                entry: index,
            });
        }
        previous_round = round;
        if let Some((before, reason)) = entry
            .message
            .as_deref()
            .and_then(|message| message.split_once(BAN_MARK))
        {
            let player = entry
                .on_turn
                .and_then(|seat| entry.game_state.players.get(seat.index()))
                .map(|player| player.name.clone())
                .or_else(|| before.split(" made a bet").next().map(str::to_string))
                .unwrap_or_default();
            bans.push(BanMark {
                entry: index,
                player,
                reason: reason.trim().to_string(),
            });
        }
    }
    Ok(GameLog {
        entries,
        hands,
        bans,
    })
}

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

/// One line of `requests.jsonl` as the page gets it (read through the shared
/// [`RequestRecord`], with its line number).
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
/// [`StoreError::NotFound`] past the end, [`StoreError::Unreadable`] for a bad line.
pub fn request_line(bytes: &[u8], number: usize) -> Result<RequestLine, StoreError> {
    let (_, line, last) = lines(bytes)
        .find(|(n, line, _)| *n == number && !line.is_empty())
        .ok_or_else(|| StoreError::NotFound(format!("requests.jsonl has no line {number}")))?;
    parse_request(&String::from_utf8_lossy(line), number, last).map_err(StoreError::Unreadable)
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
    fn cut_off_logs_say_so() {
        for text in [
            "[",
            "[{\"game_state\":{\"players\":[",
            "[{\"message\":\"x\"",
        ] {
            let error = parse_log(text.as_bytes()).unwrap_err();
            assert!(error.contains("cut off"), "{text}: {error}");
        }
        let error = parse_log(b"[{\"game_state\":{\"players\":[{\"name\":1}]}}]").unwrap_err();
        assert!(error.contains("[0].game_state.players[0].name"), "{error}");
        assert!(parse_log(b"[]").unwrap_err().contains("no entries"));
        assert!(parse_log(b"").unwrap_err().contains("empty"));
        assert!(parse_log(b"{}")
            .unwrap_err()
            .contains("not a Lean Poker viewer log"));
        assert!(parse_log(b"[} ").unwrap_err().contains("not valid JSON"));
    }

    #[test]
    fn hands_and_bans_are_found() {
        let state = |round: u64| {
            format!(
                r#"{{"round":{round},"players":[{{"name":"a","stack":1,"status":"active"}},{{"name":"b b","stack":1,"status":"out"}}]}}"#
            )
        };
        let text = format!(
            r#"[{{"game_state":{s0}}},{{"type":"bet","on_turn":1,"message":"b b made a bet of 0 (fold) and is left with 0 chips. The pot now contains 6 chips. Banned: timeout after 2000 ms; 990 chips left the game.","game_state":{s0}}},{{"game_state":{s1}}}]"#,
            s0 = state(0),
            s1 = state(1)
        );
        let log = parse_log(text.as_bytes()).unwrap();
        assert_eq!(
            log.hands,
            vec![
                HandStart { round: 0, entry: 0 },
                HandStart { round: 1, entry: 2 }
            ]
        );
        assert_eq!(
            log.bans,
            vec![BanMark {
                entry: 1,
                player: "b b".to_string(),
                reason: "timeout after 2000 ms; 990 chips left the game.".to_string()
            }]
        );
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
            Err(StoreError::NotFound(_))
        ));
    }
}
