//! The answer to `bet_request` (spec §6): a non-empty run of ASCII digits, with a typed reason
//! for every other body.

use super::excerpt;
use crate::Chips;
use std::fmt;
use thiserror::Error;

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

#[cfg(test)]
mod tests {
    //! Spec §6 (answers) and the §4 reading of huge ones.
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

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
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
