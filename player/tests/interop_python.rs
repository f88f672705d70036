//! Wire compatibility with an independently written dealer: a Python client using only the
//! standard library (`urllib`, `json.dumps` with its own spacing) talks to the template binary
//! the way a dealer does. Skips, saying so, without `python3`.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn an_independent_python_dealer_gets_protocol_answers() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("python3 is not available: skipping the Python interop test");
        return;
    }
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let _player = Running(
        Command::new(env!("CARGO_BIN_EXE_player"))
            .env("PORT", port.to_string())
            .env("PLAYER_HOST", "127.0.0.1")
            .stdout(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let url = format!("http://127.0.0.1:{port}/");
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "player never came up"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = Command::new("python3")
        .arg(fixture("interop/python_dealer.py"))
        .arg(&url)
        .arg(format!(
            "{}/../shared/tests/fixtures/gamestates/10-preflop-r23-8-seats-facing-all-in.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .arg(fixture("interop/api-docs-curl-example.json"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.trim() == "ok",
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
