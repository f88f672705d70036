//! Wire compatibility with an independently written dealer: a Python client using only the
//! standard library (`urllib`, `json.dumps` with its own spacing) talks to an SDK player the
//! way a dealer does. Skips, saying so, without `python3`.

use player::{from_fn, ServerBuilder};
use std::process::Command;

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_independent_python_dealer_gets_protocol_answers() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("python3 is not available: skipping the Python interop test");
        return;
    }
    // A bot that calls: the script checks the answers' form, not a strategy.
    let server = ServerBuilder::new(from_fn(|state| state.call_amount()))
        .address(([127, 0, 0, 1], 0).into())
        .workers(1)
        .start()
        .expect("a loopback player");
    let url = server.url();
    let output = Command::new("python3")
        .arg(fixture("interop/python_dealer.py"))
        .arg(&url)
        .arg(format!(
            "{}/../../shared/tests/fixtures/gamestates/10-preflop-r23-8-seats-facing-all-in.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .arg(fixture("interop/api-docs-curl-example.json"))
        .output()
        .unwrap();
    server.stop().await.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.trim() == "ok",
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
