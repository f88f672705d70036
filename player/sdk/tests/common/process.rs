//! Building and starting player binaries the way a deploy does (the container, the
//! buildpack's Procfile): the workspace, its target folder, a free port, a child process that
//! is killed when a test fails half-way.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The workspace root (two levels above `player/sdk/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("player/sdk/ is inside the workspace")
        .to_path_buf()
}

/// The bot's own version text, as `binary --version` prints it (`VERSION (lean-poker-player
/// x.y.z)`): what `action=version` must answer, whatever bot the team's crate holds.
pub fn bot_version(binary: &Path) -> String {
    let output = Command::new(binary)
        .arg("--version")
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8 version");
    let sdk = format!(" ({})", player::SDK_VERSION);
    text.trim_end_matches('\n')
        .strip_suffix(&sdk)
        .unwrap_or_else(|| panic!("{text:?} ends with {sdk:?}"))
        .to_string()
}

/// The workspace's target folder (honours `CARGO_TARGET_DIR`).
pub fn target_dir() -> PathBuf {
    let output = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(workspace_root())
        .output()
        .expect("cargo metadata");
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).expect("metadata");
    PathBuf::from(
        metadata["target_directory"]
            .as_str()
            .expect("target_directory"),
    )
}

/// Runs `cargo` with `args` in the workspace root and fails the test if it fails.
pub fn cargo(args: &[String]) {
    let status = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(workspace_root())
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo {args:?} failed");
}

/// A port nothing listens on right now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A started binary; killed if a test fails half-way.
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `binary` with `args` as a platform does: an empty environment but `PORT`.
pub fn start(binary: &Path, args: &[&str], port: u16) -> Running {
    let child = Command::new(binary)
        .args(args)
        .env_clear()
        .env("PORT", port.to_string())
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|error| panic!("{} starts: {error}", binary.display()));
    Running(child)
}

/// Waits (at most 10 s) until something accepts connections on `port`.
pub fn wait_until_listening(port: u16) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "nothing listens on port {port}");
        std::thread::sleep(Duration::from_millis(10));
    }
}
