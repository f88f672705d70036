//! Every integration test of `shared` in one binary (one module per area), so the crate
//! is linked once instead of once per file: most of `cargo test`'s time on two cores.

mod support;

mod corpus;
mod equity;
mod eval;
mod eval_deck;
mod eval_exhaustive;
mod eval_tables;
mod rain_man;
mod records;
mod state_properties;
