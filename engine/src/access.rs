//! What a caller reads about the game besides its documents (the outcome, names, counts),
//! and what it records that the rules do not decide: a player's version and response time.

use super::{model, Game, Phase, UnknownSeat};
use crate::result::GameResult;
use crate::rules::GameRules;
use shared::{Chips, Seat};

impl Game {
    /// Sets the version string shown for `seat` in every later document.
    ///
    /// # Errors
    /// [`UnknownSeat`] for a seat outside the table.
    pub fn set_version(&mut self, seat: Seat, version: String) -> Result<(), UnknownSeat> {
        self.check_seat(seat)?;
        self.table.set_version(seat, version);
        Ok(())
    }

    /// Adds a response time to `seat`'s `time_used` (microseconds, cumulative per game).
    ///
    /// # Errors
    /// [`UnknownSeat`] for a seat outside the table.
    pub fn add_time_used(&mut self, seat: Seat, micros: u64) -> Result<(), UnknownSeat> {
        self.check_seat(seat)?;
        self.table.update_seat(seat, |player| {
            player.time_used = player.time_used.saturating_add(micros);
        });
        Ok(())
    }

    fn check_seat(&self, seat: Seat) -> Result<(), UnknownSeat> {
        if seat.index() < self.seat_count {
            Ok(())
        } else {
            Err(UnknownSeat {
                seat,
                seat_count: self.seat_count,
            })
        }
    }

    /// The outcome, once the game is finished.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        self.phase == Phase::Finished
    }

    /// The configuration.
    pub fn config(&self) -> &GameRules {
        &self.config
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Seats at the table.
    pub fn seat_count(&self) -> usize {
        self.seat_count
    }

    /// The player's name at `seat`.
    pub fn player_name(&self, seat: Seat) -> Option<&str> {
        self.table
            .seats()
            .get(seat.index())
            .map(|player| player.name.as_str())
    }

    /// The version shown for the player at `seat`.
    pub fn player_version(&self, seat: Seat) -> Option<&str> {
        self.table
            .seats()
            .get(seat.index())
            .map(|player| player.version.as_str())
    }

    /// The current (or last) hand's number.
    pub fn round(&self) -> u64 {
        self.hand.round
    }

    /// Hands completed so far in this game.
    pub fn hands_played(&self) -> u64 {
        self.hands_played
    }

    /// Total chips still in the game (stacks plus bets): players × starting stack, less
    /// banned chips and chips discarded by the OSS odd-chip rule.
    pub fn chips_in_play(&self) -> Chips {
        self.table
            .seats()
            .iter()
            .map(model::SeatState::total_chips)
            .sum()
    }
}
