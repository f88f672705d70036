#!/usr/bin/env bash
# "Serving does not slow the games": hands/s of the same `dealer run` over HTTP (five example
# player processes on loopback, reproducible seed) played three ways, alternated ROUNDS times
# so a busy machine's drift hits every way alike:
#
#   plain     dealer run
#   live      dealer run --live             (log.json flushed after every entry)
#   followed  dealer run --live, served by `dealer serve` with FOLLOWERS clients on the /live
#             stream of the running game (what the table page does) and one polling the
#             games list every 2 s (what the run page does)
#
# Usage: dealer/benches/web_follow.sh [games=20] [rounds=3] [followers=3]
# Prints hands/s per run and the median of each way. Needs curl and python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES=${1:-20}
ROUNDS=${2:-3}
FOLLOWERS=${3:-3}

cargo build --release --locked --quiet -p lean-poker-dealer --bin dealer -p lean-poker-examples --bins
# shellcheck source=dealer/benches/lib.sh
. dealer/benches/lib.sh
bin=$(release_dir)

players=()
port=19301
for kind in raiser calling-station random folder all-in; do
  PORT=$port "$bin/$kind" >/dev/null 2>&1 &
  pids+=($!)
  players+=(--player "$kind=http://127.0.0.1:$port/")
  port=$((port + 1))
done
sleep 1

hands_per_second() { # folder seconds
  local hands
  hands=$(hands_played "$1/results.json")
  python3 -c 'import sys; print(f"{int(sys.argv[1]) / float(sys.argv[2]):.0f} {sys.argv[1]}")' "$hands" "$2"
}

play() { # way out
  local way=$1 out=$2 flags=()
  [ "$way" != plain ] && flags=(--live)
  local start end
  start=$(date +%s.%N)
  "$bin/dealer" run --quiet --reproducible --seed 7 --games "$GAMES" "${players[@]}" "${flags[@]}" --out "$out" >/dev/null
  end=$(date +%s.%N)
  hands_per_second "$out" "$(python3 -c "print($end - $start)")"
}

follow() { # url run : follow the newest running game's /live stream until the run ends
  local url=$1 run=$2
  while [ ! -e "$work/stop" ]; do
    game=$(curl -s "$url/api/runs/$run" | python3 -c 'import json,sys
try:
    games=[g["game"] for g in json.load(sys.stdin)["games"] if g["status"]=="running"]
    print(games[-1] if games else "")
except Exception:
    print("")') || game=""
    if [ -n "$game" ]; then
      curl -sN --max-time 60 "$url/api/runs/$run/games/$game/live" >/dev/null || true
    else
      sleep 0.05
    fi
  done
}

declare -A rates
for round in $(seq 1 "$ROUNDS"); do
  for way in plain live followed; do
    out="$work/$way-$round"
    if [ "$way" = followed ]; then
      mkdir -p "$work/served-$round"
      out="$work/served-$round/run"
      "$bin/dealer" serve --out "$work/served-$round" --bind 127.0.0.1:0 >"$work/serve.out" 2>/dev/null &
      serve_pid=$!
      pids+=($serve_pid)
      until grep -q ' at http' "$work/serve.out"; do sleep 0.05; done
      url=$(grep -o 'http://[^ ]*' "$work/serve.out" | head -1)
      url=${url%/}
      rm -f "$work/stop"
      (while [ ! -e "$work/stop" ]; do curl -s "$url/api/runs/run" >/dev/null || true; sleep 2; done) &
      poller=$!
      followers=()
      for _ in $(seq 1 "$FOLLOWERS"); do follow "$url" run & followers+=($!); done
      result=$(play "$way" "$out")
      touch "$work/stop"
      wait "${followers[@]}" "$poller" 2>/dev/null || true
      kill "$serve_pid" 2>/dev/null || true
    else
      result=$(play "$way" "$out")
    fi
    echo "round $round $way: ${result% *} hands/s (${result#* } hands)"
    rates[$way]="${rates[$way]:-} ${result% *}"
  done
done
for way in plain live followed; do
  median=$(echo "${rates[$way]}" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "median $way: $median hands/s"
done
