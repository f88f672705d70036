//! Every integration test of `player` in one binary (one module per area), so the crate
//! is linked once instead of once per file: most of `cargo test`'s time on two cores.

mod common;

mod dockerfile;
mod interop_python;
mod procfile;
mod service;
mod testing_kit;
mod testing_kit_runs;
