//! Versions (spec §6, §7): what a player shows, asked once per game and retried while it fails.

use super::{PlayerSeat, Reply, SeatFailure};
use futures_util::future::join_all;

/// The longest version text kept, in chars.
pub const VERSION_MAX_CHARS: usize = 200;

/// What the player shows when its version is not known (spec §6): the engine's name for it,
/// which a seat starts the game with.
pub use crate::engine::UNKNOWN_VERSION;

/// Cleans a `version` answer for display: kept **verbatim** (LIVE shows versions such as
/// `"Ultimate chan killer "` with their spaces), except that invalid UTF-8 is replaced,
/// control characters (line breaks, tabs, escapes) are removed so a version can never break a
/// log line or a table, and the text is cut after [`VERSION_MAX_CHARS`] chars.
///
/// ```
/// use dealer::seat::clean_version;
/// assert_eq!(clean_version(b"Ultimate chan killer "), "Ultimate chan killer ");
/// assert_eq!(clean_version(b"v1.2\n"), "v1.2");
/// assert_eq!(clean_version(b"\x1b[31mred\x1b[0m"), "[31mred[0m");
/// ```
pub fn clean_version(raw: &[u8]) -> String {
    String::from_utf8_lossy(without_a_cut_last_char(raw))
        .chars()
        .filter(|c| !c.is_control())
        .take(VERSION_MAX_CHARS)
        .collect()
}

/// How often to ask a failing player for its version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VersionPolicy {
    /// Stop asking after this many failed attempts in a game. `None` (the default, spec §7):
    /// keep asking while it fails. A limit is worth setting when `version` times out, as every
    /// attempt then costs a full request timeout.
    pub max_attempts: Option<u32>,
}

/// What the dealer knows of one player's version in one game (spec §6, §7): `Unknown` until a
/// `version` succeeds, then that text for the rest of the game.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlayerVersion {
    known: Option<String>,
    failed_attempts: u32,
    last_failure: Option<SeatFailure>,
}

impl PlayerVersion {
    /// Nothing asked yet.
    pub fn new() -> PlayerVersion {
        PlayerVersion::default()
    }

    /// Whether to ask (again): not known yet, and the policy's attempts not used up.
    pub fn should_ask(&self, policy: &VersionPolicy) -> bool {
        self.known.is_none()
            && policy
                .max_attempts
                .is_none_or(|max| self.failed_attempts < max)
    }

    /// Records the outcome of a `version` request. Returns the version when it just became
    /// known (the runner then shows it in every later state); a late failure after a success
    /// changes nothing.
    pub fn record(&mut self, outcome: &Result<String, SeatFailure>) -> Option<&str> {
        if self.known.is_some() {
            return None;
        }
        match outcome {
            Ok(version) => {
                self.known = Some(version.clone());
                self.known.as_deref()
            }
            Err(failure) => {
                self.failed_attempts = self.failed_attempts.saturating_add(1);
                self.last_failure = Some(failure.clone());
                None
            }
        }
    }

    /// The version to show: the player's text, or `Unknown`.
    pub fn shown(&self) -> &str {
        self.known.as_deref().unwrap_or(UNKNOWN_VERSION)
    }

    /// The version, once known.
    pub fn known(&self) -> Option<&str> {
        self.known.as_deref()
    }

    /// Failed attempts so far.
    pub fn failed_attempts(&self) -> u32 {
        self.failed_attempts
    }

    /// Why the last attempt failed.
    pub fn last_failure(&self) -> Option<&SeatFailure> {
        self.last_failure.as_ref()
    }
}

/// `raw` without an incomplete UTF-8 sequence at its very end: a body cut at the byte cap may
/// end in the middle of a character, which is dropped rather than shown as U+FFFD. Invalid bytes
/// anywhere else are left for the lossy decoding.
fn without_a_cut_last_char(raw: &[u8]) -> &[u8] {
    // A UTF-8 sequence is at most 4 bytes, so only the last 3 can start a cut one.
    let tail_start = raw.len().saturating_sub(3);
    for start in (tail_start..raw.len()).rev() {
        let byte = raw[start];
        if byte & 0xC0 == 0x80 {
            continue; // a continuation byte: look further back for the lead byte
        }
        let needed = match byte {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => return raw,
        };
        let tail = &raw[start..];
        let complete_prefix =
            std::str::from_utf8(tail).is_err_and(|error| error.error_len().is_none());
        return if tail.len() < needed && complete_prefix {
            &raw[..start]
        } else {
            raw
        };
    }
    raw
}

/// Asks `version`, concurrently, of every seat whose [`PlayerVersion`] says so, and records the
/// outcomes. Returns one entry per pair, in input order: the reply (for the logs) or `None` when
/// the seat was not asked. Newly known versions are [`PlayerVersion::known`] afterwards.
pub async fn ask_versions<'a>(
    seats: impl IntoIterator<Item = (&'a PlayerSeat, &'a mut PlayerVersion)>,
    policy: &VersionPolicy,
) -> Vec<Option<Reply<String>>> {
    let asks = seats.into_iter().map(|(seat, version)| async move {
        if !version.should_ask(policy) {
            return None;
        }
        let reply = seat.version().await;
        version.record(&reply.outcome);
        Some(reply)
    });
    join_all(asks).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_6_version_is_unknown_until_it_succeeds_then_fixed() {
        let policy = VersionPolicy::default();
        let mut version = PlayerVersion::new();
        assert_eq!(version.shown(), "Unknown");
        assert!(version.should_ask(&policy));
        assert_eq!(version.record(&Err(SeatFailure::Status(500))), None);
        assert_eq!(version.record(&Err(SeatFailure::ConnectionRefused)), None);
        assert_eq!(version.failed_attempts(), 2);
        assert_eq!(
            version.last_failure(),
            Some(&SeatFailure::ConnectionRefused)
        );
        assert!(
            version.should_ask(&policy),
            "spec §7: retried while it fails"
        );
        assert_eq!(version.record(&Ok("v2 ".into())), Some("v2 "));
        assert_eq!(version.shown(), "v2 ");
        assert!(!version.should_ask(&policy), "asked once per game");
        assert_eq!(version.record(&Ok("v3".into())), None);
        assert_eq!(version.record(&Err(SeatFailure::Status(500))), None);
        assert_eq!(version.shown(), "v2 ");
    }

    #[test]
    fn a_version_policy_can_stop_the_retries() {
        let policy = VersionPolicy {
            max_attempts: Some(2),
        };
        let mut version = PlayerVersion::new();
        version.record(&Err(SeatFailure::Timeout { after_ms: 2000 }));
        assert!(version.should_ask(&policy));
        version.record(&Err(SeatFailure::Timeout { after_ms: 2000 }));
        assert!(!version.should_ask(&policy));
        assert_eq!(version.shown(), UNKNOWN_VERSION);
    }

    #[test]
    fn versions_are_verbatim_but_one_bounded_line() {
        assert_eq!(
            clean_version(b"Ultimate chan killer "),
            "Ultimate chan killer "
        );
        assert_eq!(clean_version(b" spaced  "), " spaced  ");
        assert_eq!(clean_version(b"a\r\nb\tc\x00\x7f"), "abc");
        assert_eq!(clean_version(b"caf\xc3\xa9 \xff"), "café \u{fffd}");
        assert_eq!(clean_version(b""), "");
        // A body cut at the byte cap in the middle of a character loses that character only.
        assert_eq!(clean_version(b"caf\xc3"), "caf");
        assert_eq!(
            clean_version("v\u{1f0cf}".as_bytes().split_last().unwrap().1),
            "v"
        );
        assert_eq!(clean_version(&"v\u{1f0cf}".as_bytes()[..2]), "v");
        assert_eq!(clean_version(b"v\xff"), "v\u{fffd}");
        assert_eq!(clean_version(b"v\xc3\xc3"), "v\u{fffd}");
        let long = clean_version("é".repeat(1000).as_bytes());
        assert_eq!(long.chars().count(), VERSION_MAX_CHARS);
    }
}
