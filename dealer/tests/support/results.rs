//! `results.json` compared after a round trip through the file.

#![allow(dead_code)] // Each test binary compiles `support` alone; not all compare results.

use dealer::tournament::RunResults;

/// Asserts that `read` (a `results.json` read back) is `written`: the ratings within 1e-9,
/// everything else exactly. serde_json reads a float back to within an ulp, not always to
/// the same bits (15.351508932254681 came back as 15.35150893225468).
pub fn assert_same_results(read: &RunResults, written: &RunResults) {
    let (mut read, mut written) = (read.clone(), written.clone());
    assert_eq!(read.totals.len(), written.totals.len());
    for (read, total) in read.totals.iter_mut().zip(&mut written.totals) {
        let close = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => (a - b).abs() < 1e-9,
            (a, b) => a == b,
        };
        assert!(
            close(read.rating, total.rating) && close(read.uncertainty, total.uncertainty),
            "{}: {:?} ± {:?} read, {:?} ± {:?} written",
            total.name,
            read.rating,
            read.uncertainty,
            total.rating,
            total.uncertainty
        );
        (read.rating, read.uncertainty) = (None, None);
        (total.rating, total.uncertainty) = (None, None);
    }
    assert_eq!(read, written);
}
