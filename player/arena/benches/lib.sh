# Shared by the arena's bench scripts (source it): the repository root, the build folder, the
# team's strategy swapped for a variant and always put back, and `cargo arena`'s binary.
#
# The scripts edit player/team/src/strategy.rs (that is what they measure: a team's edit) and
# restore it on exit, whatever happens, from a copy taken first; uncommitted edits survive.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
BENCHES="$ROOT/player/arena/benches"
STRATEGY="$ROOT/player/team/src/strategy.rs"
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
case "$TARGET" in /*) ;; *) TARGET="$ROOT/$TARGET" ;; esac
ARENA="$TARGET/release/arena"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/arena-bench.XXXXXX")
cp "$STRATEGY" "$WORK/strategy.rs.saved"

restore_strategy() {
  # Only rewrite the file when it differs: an unchanged file keeps its timestamp, so cargo
  # does not rebuild the team's crate for nothing.
  if ! cmp -s "$WORK/strategy.rs.saved" "$STRATEGY"; then
    cp "$WORK/strategy.rs.saved" "$STRATEGY"
  fi
}
trap 'restore_strategy; rm -rf "$WORK"' EXIT

# use_strategy NAME: the strategy a run plays. `template` is the saved file as it was; an edit
# of it from edits.py (`ace`, `tighter-calls`, ...); `folder` or `pair-shover`, whole files.
use_strategy() {
  restore_strategy
  case "$1" in
    template) ;;
    folder | pair-shover) python3 "$BENCHES/edits.py" "$1" "$STRATEGY" --whole ;;
    *) python3 "$BENCHES/edits.py" "$1" "$STRATEGY" ;;
  esac
}

# build_arena: `cargo arena`'s build, quietly (the release profile, as the alias).
build_arena() {
  (cd "$ROOT" && cargo build --quiet --release -p team --features arena --bin arena)
}

load_average() {
  cut -d' ' -f1-3 /proc/loadavg
}
