//! Why a request to a player did not produce a usable answer.
//!
//! The `Display` text of a [`SeatFailure`] is the one-line reason recorded with a ban (spec §6),
//! with a forgiving-mode warning, and in the logs. It is always a single line of bounded length,
//! whatever the player sent.

use shared::protocol::InvalidBetAnswer;
use thiserror::Error;

/// The longest free-text detail (an error chain, a panic message) kept in a reason, in chars.
pub(crate) const DETAIL_LIMIT: usize = 200;

/// Why a request to a player failed.
///
/// For `bet_request` every variant is a bad answer (spec §6: the player is banned, or warned in
/// forgiving mode); for `check`, `version` and `showdown` it is only reported.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SeatFailure {
    /// No complete answer within the request deadline (connecting, sending, waiting and reading
    /// the body all count): `timeout after 2000 ms`.
    #[error("timeout after {after_ms} ms")]
    Timeout {
        /// The deadline that passed, in milliseconds.
        after_ms: u64,
    },
    /// The TCP connection could not be set up within the configured connect timeout.
    #[error("connect timeout after {after_ms} ms")]
    ConnectTimeout {
        /// The connect timeout that passed, in milliseconds.
        after_ms: u64,
    },
    /// Nothing listens on the player's port.
    #[error("connection refused")]
    ConnectionRefused,
    /// Any other failure to connect (unknown host, unreachable network, TLS handshake).
    #[error("cannot connect: {0}")]
    Connect(String),
    /// The player answered with a status other than `200`.
    #[error("status {0}")]
    Status(u16),
    /// A `200` whose body is not a digits-only bet.
    #[error(transparent)]
    InvalidBody(InvalidBetAnswer),
    /// The body is longer than the dealer reads (a bet is a few bytes); the rest was not read.
    #[error("body larger than {limit} bytes")]
    BodyTooLarge {
        /// The configured cap, in bytes.
        limit: usize,
    },
    /// The player closed (or reset) the connection before the response was complete.
    #[error("connection closed before the response was complete")]
    ConnectionClosed,
    /// The HTTP client handed the request back without writing a byte of it: the connection
    /// was found closed first, so the player never saw it (see `seat/http.rs`, which sends such
    /// a request once more).
    #[error("connection closed before the request was sent")]
    NotSent,
    /// The player sent something that is not an HTTP/1.1 response.
    #[error("invalid HTTP response: {0}")]
    InvalidResponse(String),
    /// Any other HTTP-level failure, with the error chain.
    #[error("HTTP error: {0}")]
    Http(String),
    /// An in-process player panicked; the panic message.
    #[error("panicked: {0}")]
    Panicked(String),
    /// The dealer could not run an in-process call on its own thread (see
    /// `InProcessSeat::with_deadline`).
    #[error("cannot run the player: {0}")]
    Thread(String),
    /// A failure read back from a recorded game (`dealer replay`): the reason as recorded.
    #[error("{0}")]
    Recorded(String),
}

impl SeatFailure {
    /// Whether the failure came from the deadline (or connect timeout) rather than from an answer.
    pub fn is_timeout(&self) -> bool {
        matches!(
            self,
            SeatFailure::Timeout { .. } | SeatFailure::ConnectTimeout { .. }
        )
    }

    /// Whether the player could not be reached at all (nothing listening, no connection made):
    /// it is down, not slow or wrong.
    pub fn is_unreachable(&self) -> bool {
        matches!(
            self,
            SeatFailure::ConnectTimeout { .. }
                | SeatFailure::ConnectionRefused
                | SeatFailure::Connect(_)
        )
    }
}

/// Whether a recorded reason (a ban's, written by [`SeatFailure`]'s `Display`) says the player
/// could not be reached ([`SeatFailure::is_unreachable`]).
pub fn reason_is_unreachable(reason: &str) -> bool {
    reason == "connection refused"
        || reason.starts_with("cannot connect: ")
        || reason.starts_with("connect timeout after ")
}

/// Whole milliseconds of a duration, for reasons (`timeout after 2000 ms`).
pub(crate) fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Makes arbitrary text fit in a one-line reason: control characters (line breaks included)
/// become spaces, runs of spaces collapse, and the result is cut after [`DETAIL_LIMIT`] chars.
pub(crate) fn one_line(text: &str) -> String {
    let mut line = String::with_capacity(text.len().min(DETAIL_LIMIT + 4));
    let mut chars = 0;
    let mut last_was_space = false;
    for c in text.trim().chars() {
        let c = if c.is_control() { ' ' } else { c };
        if c == ' ' && last_was_space {
            continue;
        }
        if chars == DETAIL_LIMIT {
            line.push('…');
            break;
        }
        last_was_space = c == ' ';
        line.push(c);
        chars += 1;
    }
    line
}

/// `outer: inner: innermost` on one bounded line, skipping a cause whose text its parent
/// already shows.
pub(super) fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    one_line(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::protocol::parse_bet_answer;

    #[test]
    fn spec_6_reasons_read_as_documented() {
        let cases = [
            (
                SeatFailure::Timeout { after_ms: 2000 },
                "timeout after 2000 ms",
            ),
            (
                SeatFailure::ConnectTimeout { after_ms: 500 },
                "connect timeout after 500 ms",
            ),
            (SeatFailure::ConnectionRefused, "connection refused"),
            (SeatFailure::Status(500), "status 500"),
            (
                SeatFailure::BodyTooLarge { limit: 4096 },
                "body larger than 4096 bytes",
            ),
            (
                SeatFailure::ConnectionClosed,
                "connection closed before the response was complete",
            ),
            (
                SeatFailure::NotSent,
                "connection closed before the request was sent",
            ),
            (SeatFailure::Panicked("boom".into()), "panicked: boom"),
        ];
        for (failure, text) in cases {
            assert_eq!(failure.to_string(), text);
            assert_eq!(
                reason_is_unreachable(text),
                failure.is_unreachable(),
                "{text}"
            );
        }
        let dns = SeatFailure::Connect("dns error: no such host".into());
        assert!(dns.is_unreachable() && reason_is_unreachable(&dns.to_string()));
        let invalid = SeatFailure::InvalidBody(parse_bet_answer(b"10\n").unwrap_err());
        assert_eq!(
            invalid.to_string(),
            r#"body "10\n" is not a bet: whitespace at byte 2 (only ASCII digits are allowed)"#
        );
    }

    #[test]
    fn details_are_one_bounded_line() {
        assert_eq!(one_line("  a\nb\r\n\tc  "), "a b c");
        let long = one_line(&"x\n".repeat(1000));
        assert!(!long.contains('\n'));
        assert_eq!(long.chars().count(), DETAIL_LIMIT + 1);
        assert_eq!(one_line(""), "");
    }
}
