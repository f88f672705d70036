#!/usr/bin/env bash
# How long `cargo arena` takes to play 1,000 six-seat games on 2 threads with the team's
# strategy (the template) on the default field, side by side with the arena of an earlier
# revision (its own default field), and this arena on that older field (what the luck
# adjustment costs on the same games), alternated round by round.
#
#   player/arena/benches/arena_speed.sh [ROUNDS]          (default 3 rounds)
#
# ARENA_BEFORE_REV: the revision to compare with (default d127ab1, the arena before points,
# luck and the field); it is exported with `git archive` into ARENA_BEFORE_DIR (default
# <target>/arena-bench/before) and built there once (minutes when cold: its own target).
# ARENA_BEFORE_BIN: an arena binary already built from that revision, used instead.
# Reports the median wall time of the games (the report's play_seconds) and the median CPU
# time of the process (user + system), with the load average: on a shared machine the CPU time
# is the steadier figure.
source "$(dirname "$0")/lib.sh"

ROUNDS=${1:-3}
GAMES=1000
REV=${ARENA_BEFORE_REV:-d127ab1}
BEFORE=${ARENA_BEFORE_DIR:-$TARGET/arena-bench/before}
OLD_FIELD=calling-station,raiser,all-in,random,equity

BEFORE_BIN=${ARENA_BEFORE_BIN:-}
if [ -z "$BEFORE_BIN" ]; then
  if [ ! -d "$BEFORE/src" ]; then
    mkdir -p "$BEFORE/src"
    git -C "$ROOT" archive "$REV" | tar -x -C "$BEFORE/src"
  fi
  echo "building the arena of $REV in $BEFORE (minutes the first time)" >&2
  (cd "$BEFORE/src" && CARGO_TARGET_DIR="$BEFORE/target" cargo build --quiet --release -p team --features arena --bin arena)
  BEFORE_BIN="$BEFORE/target/release/arena"
fi
echo "building this arena" >&2
build_arena

# measure NAME BINARY ARGS...: appends "wall cpu" to $WORK/NAME.
measure() {
  local name=$1 binary=$2
  shift 2
  /usr/bin/time -f "%U %S" -o "$WORK/time" "$binary" --games $GAMES --threads 2 --no-save \
    --json "$WORK/report.json" "$@" > /dev/null
  local wall cpu
  wall=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["report"]["play_seconds"])' "$WORK/report.json")
  cpu=$(awk '{print $1 + $2}' "$WORK/time")
  echo "$wall $cpu" >> "$WORK/$name"
  printf '  %-34s %6.2f s play, %6.2f s CPU (load %s)\n' "$name" "$wall" "$cpu" "$(load_average)" >&2
}

for round in $(seq "$ROUNDS"); do
  echo "round $round" >&2
  measure "before ($REV), its field" "$BEFORE_BIN"
  measure "now, the default field" "$ARENA"
  measure "now, the field before" "$ARENA" --vs $OLD_FIELD
done

echo
echo "$GAMES six-seat games, 2 threads, $ROUNDS rounds, load at the end $(load_average)"
printf '%-36s %14s %14s\n' "" "play (median)" "CPU (median)"
for name in "before ($REV), its field" "now, the default field" "now, the field before"; do
  python3 - "$WORK/$name" "$name" <<'PY'
import statistics, sys
rows = [tuple(map(float, line.split())) for line in open(sys.argv[1])]
wall = statistics.median(r[0] for r in rows)
cpu = statistics.median(r[1] for r in rows)
print(f"{sys.argv[2]:<36} {wall:>12.2f} s {cpu:>12.2f} s")
PY
done
