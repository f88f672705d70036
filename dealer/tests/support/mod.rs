//! Test support shared by the dealer's integration tests (`mod support;` in a test file).
pub mod event;
pub mod files;
pub mod misbehaving;
pub mod results;
pub mod wait;
