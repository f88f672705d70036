//! Who sees which hole cards, without copying the document.
//!
//! The engine keeps one [`GameState`](shared::GameState) and presents each receiver's view by
//! moving hole-card vectors in and out of it: every seat's cards live either in the document
//! (`hole_cards: Some(..)`, visible) or here (hidden, the key absent on the wire). Moving a
//! `Vec` is a pointer swap, so a bet request or a showdown view costs no allocation.

use shared::{Card, PlayerState, Seat};

/// Each seat's hole cards for the current hand, and which of them the document shows.
#[derive(Debug, Clone)]
pub(crate) struct HoleCards {
    /// `Some` while hidden; `None` while the vector sits in the document.
    hidden: Vec<Option<Vec<Card>>>,
    /// Bit `s` set: seat `s`'s cards are in the document.
    visible: u32,
}

impl HoleCards {
    /// Empty hands for `seat_count` seats, all hidden.
    pub(crate) fn new(seat_count: usize) -> HoleCards {
        HoleCards {
            hidden: (0..seat_count)
                .map(|_| Some(Vec::with_capacity(2)))
                .collect(),
            visible: 0,
        }
    }

    /// Shows `seat`'s cards in the document (`[]` if it was dealt nothing).
    pub(crate) fn show(&mut self, players: &mut [PlayerState], seat: Seat) {
        let index = seat.index();
        if self.visible & (1 << index) != 0 {
            return;
        }
        if let (Some(slot), Some(player)) = (self.hidden.get_mut(index), players.get_mut(index)) {
            std::mem::swap(slot, &mut player.hole_cards);
            self.visible |= 1 << index;
        }
    }

    /// Hides `seat`'s cards (the key disappears from the document).
    pub(crate) fn hide(&mut self, players: &mut [PlayerState], seat: Seat) {
        let index = seat.index();
        if self.visible & (1 << index) == 0 {
            return;
        }
        if let (Some(slot), Some(player)) = (self.hidden.get_mut(index), players.get_mut(index)) {
            std::mem::swap(slot, &mut player.hole_cards);
            self.visible &= !(1 << index);
        }
    }

    /// Makes exactly the seats in `mask` visible.
    pub(crate) fn show_only(&mut self, players: &mut [PlayerState], mask: u32) {
        let changes = self.visible ^ mask;
        if changes == 0 {
            return;
        }
        for index in 0..self.hidden.len() {
            if changes & (1 << index) != 0 {
                if mask & (1 << index) != 0 {
                    self.show(players, Seat(index));
                } else {
                    self.hide(players, Seat(index));
                }
            }
        }
    }

    /// Hides every seat's cards.
    pub(crate) fn hide_all(&mut self, players: &mut [PlayerState]) {
        self.show_only(players, 0);
    }

    /// Hides everything and empties every hand, keeping the vectors for reuse.
    pub(crate) fn clear(&mut self, players: &mut [PlayerState]) {
        self.hide_all(players);
        for cards in self.hidden.iter_mut().flatten() {
            cards.clear();
        }
    }

    /// Gives `seat` a card (cards are dealt while every hand is hidden).
    pub(crate) fn deal(&mut self, players: &mut [PlayerState], seat: Seat, card: Card) {
        self.hide(players, seat);
        if let Some(Some(cards)) = self.hidden.get_mut(seat.index()) {
            cards.push(card);
        }
    }

    /// `seat`'s cards wherever they are (empty if dealt nothing or unknown).
    pub(crate) fn cards<'a>(&'a self, players: &'a [PlayerState], seat: Seat) -> &'a [Card] {
        match self.hidden.get(seat.index()) {
            Some(Some(cards)) => cards,
            Some(None) => players
                .get(seat.index())
                .map_or(&[], |player| player.cards()),
            None => &[],
        }
    }
}
