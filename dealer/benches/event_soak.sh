#!/usr/bin/env bash
# Memory and file handles of `dealer serve` over a long event (issue 17): an event in
# fast-forward with SDK player processes and house bots at several tables, the server's VmRSS
# and open files sampled at 500 and 5,000 finished games (and every 1,000 between); fails when
# either grew more than 10 %. See event_soak.py.
#
# Usage: dealer/benches/event_soak.sh [first=500] [last=5000] [sdk_players=4] [bots=28]
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --locked --quiet -p lean-poker-dealer --bin dealer -p team --bin player
target=$(cargo metadata --format-version 1 --no-deps --locked | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
exec python3 dealer/benches/event_soak.py "$target/release" "$@"
