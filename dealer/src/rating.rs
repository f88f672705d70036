//! Ratings with uncertainty: the Weng-Lin model of [`engine::rating`], re-exported under the
//! dealer's old path. The model lives in the engine crate (pure math, no I/O) so that the
//! player SDK's arena (`cargo arena`) rates exactly as `dealer run` does, from one copy.

pub use engine::rating::*;
