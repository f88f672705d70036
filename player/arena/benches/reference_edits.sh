#!/usr/bin/env bash
# What the verdict needs, edit by edit: the template and each reference edit of it
# (edits.py: ace, tighter-calls, slightly-tighter-calls, value-bets, looser-raises) play the
# same deals on the default field, and compare_runs.py says how many games each test needs
# for the difference seen (95% confidence, 80% power): luck-adjusted points paired (the
# verdict), raw points paired, points unpaired, and chips per 100 hands unpaired (the arena's
# test before points).
#
#   player/arena/benches/reference_edits.sh [GAMES] [SEED]     (default 6000 games, seed 1)
#
# ARENA_BENCH_BEFORE=1 also plays each edit in the arena of ARENA_BEFORE_REV (default d127ab1,
# exported and built as arena_speed.sh does, in ARENA_BEFORE_DIR), on its own default field,
# for the games its unpaired chips test needs there.
source "$(dirname "$0")/lib.sh"

GAMES=${1:-6000}
SEED=${2:-1}
EDITS="ace tighter-calls slightly-tighter-calls value-bets looser-raises"

play() {
  use_strategy "$1"
  build_arena
  "$ARENA" --games "$GAMES" --seed "$SEED" --no-save --json "$WORK/$1.json" > /dev/null
  echo "  played $1 (load $(load_average))" >&2
}

play template
for edit in $EDITS; do play "$edit"; done
restore_strategy

echo
echo "$GAMES games per version, seed $SEED, default field; load at the end $(load_average)"
echo
echo "| edit | games per version | luck-adjusted points/game, paired | raw points/game, paired | chips/100, unpaired | games to tell: adjusted, paired | raw, paired (at the adjusted effect) | points, unpaired | chips/100, unpaired | variance raw / adjusted |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for edit in $EDITS; do
  python3 "$BENCHES/compare_runs.py" "$WORK/template.json" "$WORK/$edit.json" --markdown "$edit"
done

if [ "${ARENA_BENCH_BEFORE:-}" = 1 ]; then
  REV=${ARENA_BEFORE_REV:-d127ab1}
  BEFORE=${ARENA_BEFORE_DIR:-$TARGET/arena-bench/before}
  if [ ! -d "$BEFORE/src" ]; then
    mkdir -p "$BEFORE/src"
    git -C "$ROOT" archive "$REV" | tar -x -C "$BEFORE/src"
  fi
  OLD_STRATEGY="$BEFORE/src/player/team/src/strategy.rs"
  cp "$OLD_STRATEGY" "$WORK/old-strategy.rs"
  old_play() {
    cp "$WORK/old-strategy.rs" "$OLD_STRATEGY"
    [ "$1" = template ] || python3 "$BENCHES/edits.py" "$1" "$OLD_STRATEGY"
    (cd "$BEFORE/src" && CARGO_TARGET_DIR="$BEFORE/target" cargo build --quiet --release -p team --features arena --bin arena)
    "$BEFORE/target/release/arena" --games "$GAMES" --seed "$SEED" --no-save --json "$WORK/old-$1.json" > /dev/null
    echo "  played $1 in the arena of $REV (load $(load_average))" >&2
  }
  old_play template
  for edit in $EDITS; do old_play "$edit"; done
  cp "$WORK/old-strategy.rs" "$OLD_STRATEGY"
  echo
  echo "The arena of $REV, its default field, its test (Welch on chips/100 per deal set):"
  echo
  echo "| edit | games per version | chips/100, unpaired | games to tell, each version |"
  echo "|---|---|---|---|"
  for edit in $EDITS; do
    python3 "$BENCHES/compare_runs.py" "$WORK/old-template.json" "$WORK/old-$edit.json" --markdown "$edit"
  done
fi
