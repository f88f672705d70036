#!/usr/bin/env bash
# What the changed decisions under a verdict cost (`cargo arena`'s "why", player/arena/src/why/):
# for each reference edit of the template, the template's run is saved, then the edit's run is
# compared with it (the replays) and played once more with no history (no replays), side by
# side; and the size of the saved file holding both runs.
#
#   player/arena/benches/why_cost.sh [GAMES] [EDIT ...]     (default: 600 games; ace,
#                                                            tighter-calls, value-bets)
#
# Prints, per edit: the games whose decisions changed, the replays' wall time against the
# run's play time (both from the same process, 2 threads), the process's CPU time with and
# without the replays, and the saved file's size with the bytes of answers in it. The history
# goes to a scratch folder (CARGO_TARGET_DIR for the runs only): the repository's is untouched.
source "$(dirname "$0")/lib.sh"

GAMES=${1:-600}
shift || true
EDITS=("$@")
if [ ${#EDITS[@]} -eq 0 ]; then
  EDITS=(ace tighter-calls value-bets)
fi

# run NAME HISTORY: the arena binary with its history in HISTORY; appends "cpu" to $WORK/NAME.
run() {
  local name=$1 history=$2
  CARGO_TARGET_DIR="$history" /usr/bin/time -f "%U %S" -o "$WORK/time" \
    "$ARENA" --games "$GAMES" --threads 2 --json "$WORK/report.json" > "$WORK/stdout"
  awk '{print $1 + $2}' "$WORK/time" > "$WORK/$name.cpu"
}

printf '%-16s %14s %12s %12s %14s %16s %14s\n' edit "changed games" "replay (s)" "play (s)" \
  "CPU with (s)" "CPU without (s)" "saved file"
for edit in "${EDITS[@]}"; do
  rm -rf "$WORK/history" "$WORK/fresh"
  use_strategy template
  build_arena
  run base "$WORK/history"
  use_strategy "$edit"
  build_arena
  run with "$WORK/history"
  read -r changed replay play < <(python3 -c '
import json, sys
document = json.load(open(sys.argv[1]))
why = document["why"] or {}
print(why.get("changed_games", "-"), why.get("replay_seconds", 0), document["report"]["play_seconds"])
' "$WORK/report.json")
  run without "$WORK/fresh"
  file=$(ls "$WORK"/history/arena/runs/*.json)
  size=$(python3 -c '
import base64, json, os, sys
history = json.load(open(sys.argv[1]))
packed = sum(len(base64.b64decode(g)) for run in ("latest", "baseline") for g in history[run]["answers"]["games"])
print(f"{os.path.getsize(sys.argv[1]) / 1000:.0f} kB ({packed / 1000:.0f} kB packed answers)")
' "$file")
  printf '%-16s %14s %12.2f %12.2f %14.2f %16.2f %14s\n' "$edit" "$changed" "$replay" "$play" \
    "$(cat "$WORK/with.cpu")" "$(cat "$WORK/without.cpu")" "$size"
done
echo "($GAMES games of the default field, 2 threads, load at the end $(load_average))"
