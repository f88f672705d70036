//! Every integration test of `examples` in one binary (one module per area), so the crate
//! is linked once instead of once per file: most of `cargo test`'s time on two cores.

mod any_state;
mod bots;
mod compose_local;
