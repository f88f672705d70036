#!/usr/bin/env bash
# The event's hand histories (issue 39): what `GET /api/event/hands` costs `dealer serve`
# (wall time, CPU, bytes, peak RSS) for every game of an event and for the newer half, and
# what `cargo arena --field-from http://HOST:PORT/` takes to fetch and fit them (a first run,
# and a second one with nothing new). Seven house bots at one table play `games` games; the
# downloads are then measured on the read-only server of the event's folder, which plays
# nothing, so the server's CPU is the downloads'. See event_hands.py.
#
# Usage: dealer/benches/event_hands.sh [games=2000]
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --locked --quiet -p lean-poker-dealer --bin dealer
cargo build --release --locked --quiet -p team --features arena --bin arena
target=$(cargo metadata --format-version 1 --no-deps --locked | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
exec python3 dealer/benches/event_hands.py "$target/release" "$@"
