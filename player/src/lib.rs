//! player (being built).
