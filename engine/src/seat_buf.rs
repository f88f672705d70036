//! A few seats in order, on the stack: the engine's internal lists (dealing order, winners,
//! elimination order) never allocate.

use crate::game_event::MAX_SEATS;
use shared::Seat;

/// Up to [`MAX_SEATS`] seats in order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SeatBuf {
    seats: [Seat; MAX_SEATS],
    len: usize,
}

impl SeatBuf {
    /// Appends a seat (ignored past [`MAX_SEATS`], which no table reaches).
    pub(crate) fn push(&mut self, seat: Seat) {
        if let Some(slot) = self.seats.get_mut(self.len) {
            *slot = seat;
            self.len += 1;
        }
    }

    /// The seats, in order.
    pub(crate) fn as_slice(&self) -> &[Seat] {
        &self.seats[..self.len]
    }

    /// How many seats.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl FromIterator<Seat> for SeatBuf {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut buf = SeatBuf::default();
        for seat in iter {
            buf.push(seat);
        }
        buf
    }
}

impl std::ops::Deref for SeatBuf {
    type Target = [Seat];
    fn deref(&self) -> &[Seat] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for SeatBuf {
    fn deref_mut(&mut self) -> &mut [Seat] {
        &mut self.seats[..self.len]
    }
}
