#!/usr/bin/env bash
# Throughput and latency of bet_request (6-player game state, 16 keep-alive connections).
# Usage: player/sdk/benches/run-wrk.sh [workers] [duration] [connections] [wrk threads]
# Needs wrk (apt-get install -y wrk). Builds the release binary first.
set -euo pipefail
cd "$(dirname "$0")/../../.."
workers=${1:-2}
duration=${2:-10s}
connections=${3:-16}
threads=${4:-1}
port=${PORT:-18080}
state=shared/tests/fixtures/gamestates/09-preflop-r0-6-seats-first-request.json
profile=${PROFILE:-release}
cargo build --profile "$profile" --locked -p team --bin player >&2
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
PORT=$port PLAYER_WORKERS=$workers RUST_LOG=${RUST_LOG:-warn} "$target_dir/$profile/player" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -sf -d action=check "http://127.0.0.1:$port/" >/dev/null && break
  sleep 0.05
done
answer=$(curl -sf --data-urlencode "game_state@$state" -d action=bet_request "http://127.0.0.1:$port/")
echo "workers=$workers connections=$connections wrk_threads=$threads answer=$answer RUST_LOG=${RUST_LOG:-warn}"
wrk -t"$threads" -c"$connections" -d"$duration" --latency -s player/sdk/benches/bet_request.lua "http://127.0.0.1:$port/" -- "$state"
