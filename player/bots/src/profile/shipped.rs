//! The shipped field: profiles of six real team bots from past Lean Poker events, fitted from
//! the recordings in `player/arena/recordings/real-field/` (`team-a` … `team-f` there, `real-a`
//! … `real-f` here) by `cargo bench -p lean-poker-arena --bench real_field -- --write`, which
//! also checks that a fresh fit gives these files byte for byte.

use super::{CompiledProfile, Profile};
use std::sync::{Arc, OnceLock};

/// The shipped profiles' files, `real-a` to `real-f`.
pub const SHIPPED: [(&str, &str); 6] = [
    ("real-a", include_str!("../../profiles/real-a.json")),
    ("real-b", include_str!("../../profiles/real-b.json")),
    ("real-c", include_str!("../../profiles/real-c.json")),
    ("real-d", include_str!("../../profiles/real-d.json")),
    ("real-e", include_str!("../../profiles/real-e.json")),
    ("real-f", include_str!("../../profiles/real-f.json")),
];

/// Shipped profile `index` (0 for `real-a`), read and compiled once per process.
pub fn shipped(index: usize) -> Arc<CompiledProfile> {
    static COMPILED: OnceLock<Vec<Arc<CompiledProfile>>> = OnceLock::new();
    let all = COMPILED.get_or_init(|| {
        SHIPPED
            .iter()
            .map(|(name, text)| {
                // A test reads every shipped file: one that does not parse never ships.
                let profile = Profile::from_json(text)
                    .unwrap_or_else(|error| panic!("the shipped profile {name}: {error}"));
                Arc::new(profile.compile())
            })
            .collect()
    });
    all[index % all.len()].clone()
}
