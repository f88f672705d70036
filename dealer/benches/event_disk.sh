#!/usr/bin/env bash
# Whether --disk-budget holds (issue 34): 6 SDK players and 6 house bots (two tables of six),
# MINUTES of play at each budget (100 MB, then 50 MB), the event's folder sampled every second;
# the peak, what the budget forced, and every finished game through `dealer replay`. Fails when
# a peak passes its budget or a game does not replay identically. See event_disk.py.
#
# Usage: dealer/benches/event_disk.sh [minutes=5] [budgets=100MB,50MB] [sdk_players=6] [bots=6]
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --locked --quiet -p lean-poker-dealer --bin dealer -p team --bin player
target=$(cargo metadata --format-version 1 --no-deps --locked | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
exec python3 dealer/benches/event_disk.py "$target/release/dealer" "$target/release/player" "$@"
