//! dealer (being built).
#![warn(missing_docs)]

pub mod seat;
