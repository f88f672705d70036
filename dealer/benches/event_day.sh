#!/usr/bin/env bash
# The pace of an event and the disk it keeps per game, at default settings, projected to an
# 8-hour day (issue 26): 6 SDK players and 6 house bots (two tables of six), MINUTES of play,
# then the smallest budget to see what each game keeps for good. See event_day.py.
#
# Usage: dealer/benches/event_day.sh [minutes=5] [sdk_players=6] [bots=6]
#   DEALER=path/to/another/dealer dealer/benches/event_day.sh   (another build, to compare)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --locked --quiet -p lean-poker-dealer --bin dealer -p team --bin player
target=$(cargo metadata --format-version 1 --no-deps --locked | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
exec python3 dealer/benches/event_day.py "${DEALER:-$target/release/dealer}" "$target/release/player" "$@"
