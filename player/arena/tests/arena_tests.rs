//! The arena's integration tests: the luck adjustment is unbiased (an A/A proof, ignored in
//! the quick suite: `cargo test --release -p lean-poker-arena --test arena_tests --
//! --ignored`), ratings follow what the event scores, and the decisions an edit changed
//! explain its verdict.

mod luck_proof;
mod ratings;
mod why;
