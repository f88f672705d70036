#!/usr/bin/env bash
# What valuing the luck of the cards costs `dealer serve` (issue 32): an event of house bots
# at the default pace (pause_ms 500 between rounds, tables of 10), the "event-luck" thread's
# CPU as a share of the server's, its CPU per game valued, the games waiting to be valued
# (a round never waits for the valuer; the backlog says whether it keeps up), and the
# server's RSS from the first checkpoint to the last. See event_luck_cost.py.
#
# Usage: [EVENT_LUCK_COST_BUDGET=off] dealer/benches/event_luck_cost.sh [games=5000] [bots=40] [sdk_players=0]
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --locked --quiet -p lean-poker-dealer --bin dealer -p team --bin player
target=$(cargo metadata --format-version 1 --no-deps --locked | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
exec python3 dealer/benches/event_luck_cost.py "$target/release" "$@"
