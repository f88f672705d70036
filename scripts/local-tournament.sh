#!/usr/bin/env bash
# A local tournament after an edit of your bot: builds and starts your player (player/team,
# served over HTTP as it is deployed), then runs the dealer against it. Run from anywhere in
# the repository:
#
#   scripts/local-tournament.sh                                  # vs raiser and equity
#   scripts/local-tournament.sh --bot a=raiser --bot b=random --games 20
#   scripts/local-tournament.sh --rebuild-dealer ...             # after pulling dealer changes
#
# Arguments other than --rebuild-dealer go to `dealer run` (default: --bot a=raiser --bot
# b=equity); your player is added as `--player me=http://127.0.0.1:$PORT` (PORT: 1337).
#
# The dealer does not depend on your crate, so an edit of your bot rebuilds only your small
# crate (seconds, in the release profile the deploy uses); the dealer binary is built once, in
# the debug profile: the build `cargo run -p lean-poker-dealer -- demo` and the workspace's
# tests already made (its rules engine and house bots are optimised even there, and a few
# games wait on the players, not on it). DEALER=path runs another dealer binary.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${CARGO_TARGET_DIR:-target}
dealer=${DEALER:-$target/debug/dealer}
port=${PORT:-1337}

rebuild_dealer=false
args=()
for arg in "$@"; do
  if [ "$arg" = "--rebuild-dealer" ]; then rebuild_dealer=true; else args+=("$arg"); fi
done
if [ ${#args[@]} -eq 0 ]; then args=(--bot a=raiser --bot b=equity); fi

if $rebuild_dealer || [ ! -x "$dealer" ]; then
  echo "building the dealer once (later runs reuse $dealer)..." >&2
  cargo build -p lean-poker-dealer --bin dealer
fi

cargo build --release -p team --bin player
player_bin=$target/release/player

if PORT=$port "$player_bin" --healthcheck 2>/dev/null; then
  echo "error: something already answers on port $port (an old player?); stop it or set PORT" >&2
  exit 1
fi
RUST_LOG=${RUST_LOG:-warn} PORT=$port PLAYER_HOST=127.0.0.1 "$player_bin" &
player_pid=$!
# Stop the player this script started (by its process id) however the script ends.
trap 'kill "$player_pid" 2>/dev/null || true; wait "$player_pid" 2>/dev/null || true' EXIT

for _ in $(seq 100); do
  if PORT=$port "$player_bin" --healthcheck 2>/dev/null; then break; fi
  if ! kill -0 "$player_pid" 2>/dev/null; then
    echo "error: the player exited before it answered on port $port" >&2
    exit 1
  fi
  sleep 0.1
done

"$dealer" run --player "me=http://127.0.0.1:$port" "${args[@]}"
