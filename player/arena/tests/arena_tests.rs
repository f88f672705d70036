//! The arena's integration tests: the luck adjustment is unbiased (an A/A proof, ignored in
//! the quick suite: `cargo test --release -p lean-poker-arena --test arena_tests --
//! --ignored`), ratings follow what the event scores, the decisions an edit changed explain
//! its verdict, the shipped field is a fresh fit of its recordings (ignored too), and the
//! known difference behind the dealer's simulated version switch (ignored).

mod event_switch_field;
mod luck_by_style;
mod luck_proof;
mod ratings;
mod real_field;
mod why;
