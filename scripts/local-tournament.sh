#!/usr/bin/env bash
# A local tournament after a strategy edit, without rebuilding the dealer: builds and starts
# your player (player/src/strategy.rs, served over HTTP as it is deployed), then runs an
# already-built dealer against it. Run from anywhere in the repository:
#
#   scripts/local-tournament.sh                                  # vs raiser and equity
#   scripts/local-tournament.sh --bot a=raiser --bot b=random --games 20
#   scripts/local-tournament.sh --rebuild-dealer ...             # after pulling dealer changes
#
# Arguments other than --rebuild-dealer go to `dealer run` (default: --bot a=raiser --bot
# b=equity); your player is added as `--player me=http://127.0.0.1:$PORT` (PORT: 1337).
#
# Why a script: `cargo run -p lean-poker-dealer` compiles your strategy into the dealer (its
# `strategy` house bot), so every edit rebuilt the whole dealer (40-45 s). Here only the player
# is rebuilt, incrementally (the `arena` profile: optimised like the deployed build); the dealer
# binary is built once, when missing. A `--bot NAME=strategy` house bot therefore plays the
# strategy as it was when the dealer was built: to play your current code, it is `me`.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${CARGO_TARGET_DIR:-target}
dealer=${DEALER:-$target/release/dealer}
port=${PORT:-1337}

rebuild_dealer=false
args=()
for arg in "$@"; do
  if [ "$arg" = "--rebuild-dealer" ]; then rebuild_dealer=true; else args+=("$arg"); fi
done
if [ ${#args[@]} -eq 0 ]; then args=(--bot a=raiser --bot b=equity); fi

if $rebuild_dealer || [ ! -x "$dealer" ]; then
  echo "building the dealer once (later runs reuse $dealer)..." >&2
  cargo build --release -p lean-poker-dealer --bin dealer
fi

cargo build --profile arena -p lean-poker-player --bin player
player_bin=$target/arena/player

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
