//! The shipped field is a fresh fit of the shipped recordings, byte for byte (ignored in the
//! quick suite: it unpacks 569 MB of hand histories; CI runs it, and so does
//! `cargo test -p lean-poker-arena --test arena_tests -- --ignored real_field`).

use arena::field::{fit, real_field};
use bots::profile::SHIPPED;

#[test]
#[ignore = "unpacks and fits 140,557 hand histories (about 15 s)"]
fn the_shipped_profiles_are_a_fresh_fit_of_the_shipped_recordings() {
    let into =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/arena/real-field");
    let runs = real_field::unpack(&into).unwrap();
    assert_eq!(runs.len(), 9);
    let fitted = fit(&runs, 2).unwrap();
    assert_eq!(fitted.unreadable, 0, "{:?}", fitted.problems);
    let profiles = real_field::shipped_profiles(&fitted).unwrap();
    for (profile, (name, shipped)) in profiles.iter().zip(SHIPPED) {
        assert_eq!(profile.name, name);
        assert!(
            profile.to_json() == shipped,
            "{name} differs from a fresh fit: rewrite the shipped profiles with \
             `cargo bench -p lean-poker-arena --bench real_field -- --only fit --write`"
        );
    }
    // And the same bytes again, on one thread.
    let again = real_field::shipped_profiles(&fit(&runs, 1).unwrap()).unwrap();
    assert_eq!(again, profiles);
}
