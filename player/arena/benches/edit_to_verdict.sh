#!/usr/bin/env bash
# From saving player/team/src/strategy.rs to the verdict, as a team lives it: `cargo arena`
# with the template (the baseline, remembered), then the edit written to the file and the
# clock started, then `cargo arena` again (rebuild and play) until it prints its verdict.
#
#   player/arena/benches/edit_to_verdict.sh [EDIT] [ROUNDS]     (default: ace, 3 rounds)
#
# EDIT is one of edits.py's (default ace, "min-raise any ace"). The runs use the default
# options (600 games, seed 1, the default field), so the history of those options is kept
# aside and put back at the end. Prints each round's seconds and verdict, and the load.
source "$(dirname "$0")/lib.sh"

EDIT=${1:-ace}
ROUNDS=${2:-3}
RUNS="$TARGET/arena/runs"
KEY_FILE="$RUNS/tight+loose+push-fold+solid+shover.seed-1.duplicate.json"
if [ -f "$KEY_FILE" ]; then
  cp "$KEY_FILE" "$WORK/history.saved"
fi
put_back_history() {
  if [ -f "$WORK/history.saved" ]; then cp "$WORK/history.saved" "$KEY_FILE"; else rm -f "$KEY_FILE"; fi
}
trap 'put_back_history; restore_strategy; rm -rf "$WORK"' EXIT

for round in $(seq "$ROUNDS"); do
  rm -f "$KEY_FILE"
  use_strategy template
  (cd "$ROOT" && cargo arena > /dev/null 2>&1)
  # "Saving" the edit; the clock starts.
  start=$(date +%s.%N)
  use_strategy "$EDIT"
  (cd "$ROOT" && cargo arena 2> "$WORK/stderr") > "$WORK/stdout"
  end=$(date +%s.%N)
  verdict=$(grep -A1 '^verdict' "$WORK/stdout" | tail -1 | sed 's/^ *//')
  seconds=$(python3 -c "print(f'{$end - $start:.1f}')")
  echo "round $round: $seconds s from saving to the verdict (load $(load_average)): $verdict"
done
