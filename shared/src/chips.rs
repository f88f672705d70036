//! Domain number types: chip amounts and seat indexes.
//!
//! Both are plain integers on the wire; wrapping them keeps a seat from being added to a pot.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Div, Mul, Sub, SubAssign};

/// An amount of chips: a stack, a bet, a pot or an answer to `bet_request`.
///
/// Chips are never negative; on the wire they are JSON integers, so a negative or fractional
/// number is rejected when a document is parsed.
///
/// ```
/// use shared::Chips;
/// let stack = Chips(1000);
/// assert_eq!(stack - Chips(40), Chips(960));
/// assert_eq!(Chips(10).saturating_sub(Chips(40)), Chips::ZERO);
/// assert_eq!(Chips(15) * 2, Chips(30));
/// ```
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Chips(pub u64);

impl Chips {
    /// No chips.
    pub const ZERO: Chips = Chips(0);

    /// The number of chips as a plain integer.
    pub const fn get(self) -> u64 {
        self.0
    }

    /// `self - other`, or zero when `other` is larger (bets never go negative).
    pub const fn saturating_sub(self, other: Chips) -> Chips {
        Chips(self.0.saturating_sub(other.0))
    }

    /// `self - other`, or `None` when `other` is larger.
    pub fn checked_sub(self, other: Chips) -> Option<Chips> {
        self.0.checked_sub(other.0).map(Chips)
    }

    /// `self + other`, or `None` on overflow (only reachable with hostile input).
    pub fn checked_add(self, other: Chips) -> Option<Chips> {
        self.0.checked_add(other.0).map(Chips)
    }

    /// `self + other`, stopping at the largest amount instead of overflowing: for numbers
    /// read from a document, which may be anything.
    ///
    /// ```
    /// use shared::Chips;
    /// assert_eq!(Chips(u64::MAX).saturating_add(Chips(1)), Chips(u64::MAX));
    /// ```
    pub const fn saturating_add(self, other: Chips) -> Chips {
        Chips(self.0.saturating_add(other.0))
    }

    /// `self * factor`, stopping at the largest amount instead of overflowing.
    pub const fn saturating_mul(self, factor: u64) -> Chips {
        Chips(self.0.saturating_mul(factor))
    }

    /// Whether this is zero chips.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for Chips {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl From<u64> for Chips {
    fn from(value: u64) -> Self {
        Chips(value)
    }
}

impl From<u32> for Chips {
    fn from(value: u32) -> Self {
        Chips(u64::from(value))
    }
}

impl From<Chips> for u64 {
    fn from(value: Chips) -> Self {
        value.0
    }
}

impl Add for Chips {
    type Output = Chips;
    fn add(self, rhs: Chips) -> Chips {
        Chips(self.0 + rhs.0)
    }
}

impl AddAssign for Chips {
    fn add_assign(&mut self, rhs: Chips) {
        self.0 += rhs.0;
    }
}

/// Subtraction panics on underflow like integer subtraction in debug builds; use
/// [`Chips::saturating_sub`] or [`Chips::checked_sub`] when the result may be negative.
impl Sub for Chips {
    type Output = Chips;
    fn sub(self, rhs: Chips) -> Chips {
        Chips(self.0 - rhs.0)
    }
}

impl SubAssign for Chips {
    fn sub_assign(&mut self, rhs: Chips) {
        self.0 -= rhs.0;
    }
}

impl Mul<u64> for Chips {
    type Output = Chips;
    fn mul(self, rhs: u64) -> Chips {
        Chips(self.0 * rhs)
    }
}

impl Div<u64> for Chips {
    type Output = Chips;
    fn div(self, rhs: u64) -> Chips {
        Chips(self.0 / rhs)
    }
}

impl Sum for Chips {
    fn sum<I: Iterator<Item = Chips>>(iter: I) -> Chips {
        Chips(iter.map(|c| c.0).sum())
    }
}

impl<'a> Sum<&'a Chips> for Chips {
    fn sum<I: Iterator<Item = &'a Chips>>(iter: I) -> Chips {
        Chips(iter.map(|c| c.0).sum())
    }
}

/// A seat index: a player's position in the `players` array, which never changes during a
/// sit'n'go. `in_action`, `dealer` and each player's `id` are seats.
///
/// ```
/// use shared::Seat;
/// assert_eq!(Seat(5).next(6), Seat(0));
/// ```
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Seat(pub usize);

impl Seat {
    /// The index as a `usize`, for indexing `players`.
    pub const fn index(self) -> usize {
        self.0
    }

    /// The next seat clockwise at a table of `seat_count` seats.
    pub const fn next(self, seat_count: usize) -> Seat {
        self.plus(1, seat_count)
    }

    /// The seat `steps` places clockwise from this one.
    pub const fn plus(self, steps: usize, seat_count: usize) -> Seat {
        let sum = self.0 + steps;
        // The engine walks round the table seat by seat: a subtraction covers those steps,
        // where the remainder's division took ~2% of the engine bench's time (perf).
        if sum < seat_count {
            Seat(sum)
        } else if sum - seat_count < seat_count {
            Seat(sum - seat_count)
        } else {
            Seat(sum % seat_count)
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl From<usize> for Seat {
    fn from(value: usize) -> Self {
        Seat(value)
    }
}

#[cfg(test)]
mod tests {
    use super::Seat;

    #[test]
    fn seats_wrap_round_the_table_like_a_remainder() {
        for seat_count in 1..=12 {
            for seat in 0..seat_count {
                for steps in 0..3 * seat_count + 2 {
                    assert_eq!(
                        Seat(seat).plus(steps, seat_count),
                        Seat((seat + steps) % seat_count),
                        "{seat} + {steps} at {seat_count}"
                    );
                }
                assert_eq!(Seat(seat).next(seat_count), Seat((seat + 1) % seat_count));
            }
        }
    }
}
