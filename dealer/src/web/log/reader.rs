//! [`LogReader`]: a viewer log's complete entries, read in pieces as the file grows, with
//! where hands start and bans happen.

use super::{BanMark, HandStart, LogChunk, LogEntry};
use serde_json::value::RawValue;

/// Where a ban's reason starts in a log message (our dealer's format; see
/// `observe::viewer_log`).
const BAN_MARK: &str = "Banned: ";

/// Reads a viewer log's complete entries, in pieces as the file grows. See the
/// [module docs](super).
#[derive(Debug, Clone, Default)]
pub struct LogReader {
    /// Bytes of the file consumed: after the `[` and the last complete entry.
    offset: u64,
    /// Whether the opening `[` was read.
    opened: bool,
    /// Entries read so far.
    count: usize,
    /// The round of the last entry read.
    previous_round: Option<u64>,
    /// Hands found so far.
    hands: u64,
}

fn skip_space(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(u8::is_ascii_whitespace) {
        pos += 1;
    }
    pos
}

impl LogReader {
    /// A reader at the start of a file.
    pub fn new() -> LogReader {
        LogReader::default()
    }

    /// The file offset the next [`LogReader::feed`] must start at.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Entries read so far.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Reads the complete entries in `bytes`: the file's bytes from [`LogReader::offset`] to
    /// its current end. Bytes after the last complete entry are left for the next call.
    ///
    /// # Errors
    /// A sentence for the page: not UTF-8, not JSON, not a viewer log (naming the entry and
    /// field), or text after the array.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<LogChunk, String> {
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text,
            // A multi-byte character cut by the end of what is written so far.
            Err(error) if error.error_len().is_none() => {
                std::str::from_utf8(&bytes[..error.valid_up_to()]).unwrap_or_default()
            }
            Err(error) => {
                return Err(format!(
                    "log.json is not UTF-8 text (byte {})",
                    self.offset + error.valid_up_to() as u64
                ))
            }
        };
        let raw = text.as_bytes();
        // File offset of `raw[0]`, for error messages.
        let call_offset = self.offset;
        let mut chunk = LogChunk {
            first: self.count,
            ..LogChunk::default()
        };
        let mut committed = 0;
        if !self.opened {
            let pos = skip_space(raw, 0);
            match raw.get(pos) {
                None => return Ok(chunk),
                Some(b'[') => {
                    self.opened = true;
                    committed = pos + 1;
                    self.offset += committed as u64;
                }
                Some(_) => {
                    return Err(match serde_json::from_str::<serde::de::IgnoredAny>(text) {
                        Ok(_) => "log.json is not a Lean Poker viewer log: it is not a JSON \
                                      array of entries"
                            .to_string(),
                        Err(error) => format!("log.json is not valid JSON: {error}"),
                    })
                }
            }
        }
        // `raw[committed..]` follows the last complete entry (or the `[`).
        loop {
            let mut pos = skip_space(raw, committed);
            let Some(&next) = raw.get(pos) else { break };
            if next == b']' {
                let rest = skip_space(raw, pos + 1);
                if rest < raw.len() {
                    return Err(format!(
                        "log.json has text after its array (at byte {})",
                        call_offset + rest as u64
                    ));
                }
                chunk.closed = true;
                break;
            }
            if self.count > 0 {
                if next != b',' {
                    return Err(format!(
                        "log.json is not valid JSON: expected ',' or ']' after entry {} (byte {})",
                        self.count - 1,
                        call_offset + pos as u64
                    ));
                }
                pos = skip_space(raw, pos + 1);
                if pos >= raw.len() {
                    break;
                }
            }
            // The entry is parsed straight from the text: finding its end first (as a raw
            // value) and tracking the path for error messages doubled the cost of following
            // a game; both are done again only to say what is wrong with an entry.
            let mut stream =
                serde_json::Deserializer::from_str(&text[pos..]).into_iter::<LogEntry>();
            let entry = match stream.next() {
                None => break,
                Some(Ok(entry)) => entry,
                Some(Err(error)) if error.is_eof() => {
                    chunk.cut = true;
                    break;
                }
                Some(Err(error)) => match entry_error(&text[pos..], self.count, &error) {
                    Some(message) => return Err(message),
                    // A type error in an entry not written to its end yet.
                    None => {
                        chunk.cut = true;
                        break;
                    }
                },
            };
            let end = pos + stream.byte_offset();
            self.index(&entry, &mut chunk);
            chunk.entries.push(entry);
            self.count += 1;
            self.offset += (end - committed) as u64;
            committed = end;
        }
        Ok(chunk)
    }

    /// Finds where hands start and bans happen.
    fn index(&mut self, entry: &LogEntry, chunk: &mut LogChunk) {
        let index = self.count;
        let round = entry.game_state.round;
        let opens = entry.message.is_none() && entry.kind.is_none();
        if index == 0 || opens || (round.is_some() && round != self.previous_round) {
            chunk.hands.push(HandStart {
                round: round.unwrap_or(self.hands),
                entry: index,
            });
            self.hands += 1;
        }
        self.previous_round = round;
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
            chunk.bans.push(BanMark {
                entry: index,
                player,
                reason: reason.trim().to_string(),
            });
        }
    }
}

/// What is wrong with the entry at the start of `text` that failed to parse with `error`
/// (index `index`), or `None` when it is not written to its end yet.
fn entry_error(text: &str, index: usize, error: &serde_json::Error) -> Option<String> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<&RawValue>();
    match stream.next() {
        None => None,
        Some(Err(error)) if error.is_eof() => None,
        Some(Err(error)) => Some(format!("log.json is not valid JSON: {error}")),
        Some(Ok(raw)) => Some(parse_entry(raw.get(), index).err().unwrap_or_else(|| {
            format!("log.json is not a Lean Poker viewer log: at [{index}]: {error}")
        })),
    }
}

fn parse_entry(text: &str, index: usize) -> Result<LogEntry, String> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().to_string();
        let at = if path == "." {
            format!("[{index}]")
        } else {
            format!("[{index}].{path}")
        };
        format!(
            "log.json is not a Lean Poker viewer log: at {at}: {}",
            error.into_inner()
        )
    })
}
