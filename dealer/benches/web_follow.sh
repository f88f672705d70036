#!/usr/bin/env bash
# "Serving does not slow the games": hands/s of the same `dealer run` over HTTP (five example
# player processes on loopback, reproducible seed) played three ways, alternated ROUNDS times
# (each round starting with another way) so a busy machine's drift hits every way alike:
#
#   plain     dealer run
#   live      dealer run --live             (log.json made visible to followers as it grows)
#   followed  dealer run --live, served by `dealer serve --out` with FOLLOWERS pages following
#             the newest running game as the page's projector view does (its details, /log,
#             the /live stream to its end, /log again, PAUSE s, the next game) and one run
#             page polling the games list every 2 s
#
# The followers are one python3 asyncio process holding every connection
# (web_follow_clients.py), so they cost little; the CPU of the dealer, the players, `dealer
# serve` and the followers is counted apart (wait4 and /proc/PID/stat) and printed per hand.
#
# Usage: dealer/benches/web_follow.sh [games=40] [rounds=5] [followers=3] [pause=4]
# (pause 0: every follower goes on to the next game at once, harsher than the page)
# Prints each run and the median of each way. Needs python3 (3.9+).
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES=${1:-40}
ROUNDS=${2:-5}
FOLLOWERS=${3:-3}
PAUSE=${4:-4}

cargo build --release --locked --quiet -p lean-poker-dealer --bin dealer -p lean-poker-examples --bins
target=$(cargo metadata --format-version 1 --no-deps --locked | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
exec python3 dealer/benches/web_follow.py "$target/release" "$GAMES" "$ROUNDS" "$FOLLOWERS" "$PAUSE"
