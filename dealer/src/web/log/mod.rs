//! Reading a viewer log (spec §8), whole or as it grows.
//!
//! Readers are lenient about what other dealers leave out (a 2014 log has no `round`,
//! `big_blind`, `time_used` or versions; the open-source croupier writes no `type`) and strict
//! about shape, so a page never gets a document it cannot draw; every failure is a sentence
//! for the page.
//!
//! A log being written is read up to its last complete entry: [`LogReader`] keeps the byte
//! offset after the last entry it returned, so a follower reads only what was appended since,
//! whether the writer closed the array (`]`, overwritten by the next entry's `,`) or stopped
//! in the middle of an entry.
//!
//! The code is split by job: this file holds the types and reads a whole log; `reader`
//! reads one as it grows ([`LogReader`]); `hider` hides hole cards while a game is played
//! ([`CardHider`]); `cache` keeps each viewed game's log read once for every page
//! ([`LogCache`]).

mod cache;
mod hider;
mod reader;

pub use cache::{CachedLog, LogCache, SharedLog, BUDGET_BYTES};
pub use hider::CardHider;
pub use reader::LogReader;

use serde::{Deserialize, Serialize};

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
    /// Hole cards (every player's are in a viewer log; `[]` if none, or hidden while the
    /// game is played).
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
    /// The hand (absent in 2014 logs and the open-source croupier's).
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

/// One viewer-log entry: the shared record (`type` absent in the open-source croupier's
/// logs; a `type` this version does not know reads as `unknown`), holding the lenient
/// [`ViewState`].
pub type LogEntry = shared::records::ViewerLogEntry<ViewState>;

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
    /// Every complete entry, in order.
    pub entries: Vec<LogEntry>,
    /// Where each hand starts.
    pub hands: Vec<HandStart>,
    /// Bans, in order.
    pub bans: Vec<BanMark>,
    /// Why the file is not a closed array, when it is not (still being written, or cut off):
    /// the entries are those complete so far.
    pub partial: Option<String>,
    /// Whether hole cards are hidden until a showdown shows them (a game being played).
    pub cards_hidden: bool,
}

/// Entries read from a log since the last read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LogChunk {
    /// The index of the first entry in `entries`.
    pub first: usize,
    /// The entries completed since the last read.
    pub entries: Vec<LogEntry>,
    /// Hands starting among them.
    pub hands: Vec<HandStart>,
    /// Bans among them.
    pub bans: Vec<BanMark>,
    /// Whether the array is closed after them (`]`; our writer closes it after every hand and
    /// reopens it for the next entry).
    pub closed: bool,
    /// Whether the bytes end inside an entry (the rest is not written yet).
    #[serde(skip)]
    pub cut: bool,
}

/// Parses and indexes a whole viewer log: every complete entry, with a note when the file is
/// not a closed array (a game being written, or a file cut off).
///
/// # Errors
/// A message for the page: empty, cut off before its first entry, not JSON, or not a viewer
/// log (with the entry and field).
pub fn parse_log(bytes: &[u8]) -> Result<GameLog, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(EMPTY.to_string());
    }
    let mut reader = LogReader::new();
    let chunk = reader.feed(bytes)?;
    let partial = whole_log_note(chunk.entries.len(), chunk.closed, chunk.cut)?;
    Ok(GameLog {
        entries: chunk.entries,
        hands: chunk.hands,
        bans: chunk.bans,
        partial,
        cards_hidden: false,
    })
}

/// What a page is told about an empty `log.json`.
const EMPTY: &str = "log.json is empty: the game wrote nothing yet";

/// The note on a whole log of `entries` complete entries (see [`GameLog::partial`]), given
/// whether the array is `closed` after them and whether the file ends `cut` inside the next.
///
/// # Errors
/// A log without a complete entry.
fn whole_log_note(entries: usize, closed: bool, cut: bool) -> Result<Option<String>, String> {
    if entries == 0 {
        return Err(if closed {
            "log.json has no entries: the game never started".to_string()
        } else {
            "log.json is cut off (it ends inside its first entry): the game was stopped or is \
             still being written."
                .to_string()
        });
    }
    Ok((!closed).then(|| {
        format!(
            "log.json is not closed: it ends after entry {entries}{}. The game is still being \
             written, or was cut off; the {entries} complete entries are shown.",
            if cut { " and part of the next" } else { "" },
        )
    }))
}

impl GameLog {
    /// Hides hole cards not shown at a showdown (see [`CardHider`]).
    pub fn hide_cards(&mut self) {
        CardHider::new().hide_chunk(&mut self.entries, 0, &self.hands);
        self.cards_hidden = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_off_and_malformed_logs_say_so() {
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
        assert!(parse_log(b"[{\"game_state\":{\"players\":[]}} x")
            .unwrap_err()
            .contains("expected ',' or ']' after entry 0"));
        assert!(parse_log(b"[{\"game_state\":{\"players\":[]}}] x")
            .unwrap_err()
            .contains("text after its array"));
    }

    pub(super) fn state(round: u64) -> String {
        format!(
            r#"{{"round":{round},"players":[{{"name":"a","stack":1,"status":"active","hole_cards":[{{"rank":"A","suit":"clubs"}}]}},{{"name":"b b","stack":1,"status":"out","hole_cards":[{{"rank":"2","suit":"clubs"}}]}}]}}"#
        )
    }

    pub(super) fn three_entries() -> String {
        format!(
            r#"[{{"game_state":{s0}}},{{"type":"bet","on_turn":1,"message":"b b made a bet of 0 (fold) and is left with 0 chips. The pot now contains 6 chips. Banned: timeout after 2000 ms; 990 chips left the game.","game_state":{s0}}},{{"game_state":{s1}}}]"#,
            s0 = state(0),
            s1 = state(1)
        )
    }

    #[test]
    fn hands_and_bans_are_found() {
        let log = parse_log(three_entries().as_bytes()).unwrap();
        assert_eq!(log.partial, None);
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
    fn a_log_being_written_is_read_to_its_last_complete_entry_at_every_length() {
        let text = three_entries();
        let whole = parse_log(text.as_bytes()).unwrap();
        let first_end = text.find("},{\"type\"").unwrap() + 1;
        for cut in first_end..text.len() - 1 {
            let log = parse_log(&text.as_bytes()[..cut]).unwrap();
            assert_eq!(
                log.entries[..],
                whole.entries[..log.entries.len()],
                "cut {cut}"
            );
            assert!(log.partial.is_some(), "cut {cut}");
        }
    }

    #[test]
    fn a_follower_reads_each_entry_once_as_the_file_grows() {
        let text = three_entries();
        let whole = parse_log(text.as_bytes()).unwrap();
        // The file grows one byte at a time; the reader is fed from its offset each time.
        let mut reader = LogReader::new();
        let mut entries = Vec::new();
        let mut hands = Vec::new();
        let mut bans = Vec::new();
        for len in 0..=text.len() {
            let start = usize::try_from(reader.offset()).unwrap();
            let mut chunk = reader.feed(&text.as_bytes()[start..len]).unwrap();
            assert_eq!(chunk.first, entries.len());
            entries.append(&mut chunk.entries);
            hands.append(&mut chunk.hands);
            bans.append(&mut chunk.bans);
        }
        assert_eq!(entries, whole.entries);
        assert_eq!(hands, whole.hands);
        assert_eq!(bans, whole.bans);
    }

    #[test]
    fn a_closing_bracket_overwritten_by_the_next_entry_is_followed() {
        // Our writer closes the array at every hand end and overwrites the `]` with `,`.
        let first = format!(r#"[{{"game_state":{}}}]"#, state(0));
        let mut reader = LogReader::new();
        let chunk = reader.feed(first.as_bytes()).unwrap();
        assert_eq!((chunk.entries.len(), chunk.closed), (1, true));
        let mut grown = first[..first.len() - 1].to_string();
        grown.push_str(&format!(r#",{{"game_state":{}}}"#, state(1)));
        let start = usize::try_from(reader.offset()).unwrap();
        let chunk = reader.feed(&grown.as_bytes()[start..]).unwrap();
        assert_eq!(
            (chunk.first, chunk.entries.len(), chunk.closed),
            (1, 1, false)
        );
        assert_eq!(chunk.hands, vec![HandStart { round: 1, entry: 1 }]);
    }

    #[test]
    fn the_open_source_croupiers_layout_reads() {
        // Entries separated by ",\n", no `type`, no `round`, a newline after the array.
        let entry = |extra: &str| {
            format!(
                r#"{{{extra}"game_state":{{"players":[{{"name":"a","stack":10,"status":"active","bet":0,"hole_cards":[],"version":"1","id":0}}],"small_blind":10,"orbits":0,"dealer":0,"community_cards":[],"current_buy_in":0,"pot":0}}}}"#
            )
        };
        let text = format!(
            "[{},\n{},\n{}]\n",
            entry(""),
            entry(
                r#""on_turn":0,"message":"a made a bet of 10 (raise) and is left with 0 chips. The pot now contains 10 chips.","#
            ),
            entry("")
        );
        let log = parse_log(text.as_bytes()).unwrap();
        assert_eq!(log.entries.len(), 3);
        assert_eq!(
            log.hands,
            vec![
                HandStart { round: 0, entry: 0 },
                HandStart { round: 1, entry: 2 }
            ]
        );
    }

    #[test]
    fn hole_cards_are_hidden_until_shown_in_the_hand() {
        let shown = format!(
            r#"{{"type":"showdown","message":"b b showed 2 of Clubs making a high card","game_state":{}}}"#,
            state(0)
        );
        let text = format!(
            r#"[{{"game_state":{s0}}},{shown},{{"type":"winner_announcement","message":"b b won 2","game_state":{s0}}},{{"game_state":{s1}}}]"#,
            s0 = state(0),
            s1 = state(1)
        );
        let mut log = parse_log(text.as_bytes()).unwrap();
        log.hide_cards();
        let cards = |entry: usize| -> Vec<usize> {
            log.entries[entry]
                .game_state
                .players
                .iter()
                .map(|player| player.hole_cards.len())
                .collect()
        };
        assert_eq!(cards(0), vec![0, 0]);
        assert_eq!(cards(1), vec![0, 1], "b b showed");
        assert_eq!(cards(2), vec![0, 1], "still shown in the same hand");
        assert_eq!(cards(3), vec![0, 0], "hidden again in the next hand");
        assert!(log.cards_hidden);
    }
}
