#!/usr/bin/env bash
# A team's first hour of builds, from an empty target folder: each command's build time
# (cargo's own "Finished ... in"), its CPU-seconds (user + system of the whole command: the
# figure to compare on a busy machine), how many crates it compiled, then the size of target/
# and every crate compiled more than twice.
#
#   benches/first_hour.sh [OUT_DIR]                 # the README's commands, in this checkout
#   benches/first_hour.sh OUT_DIR 'CMD' 'CMD' ...   # other commands (e.g. an older checkout's)
#
# It deletes target/ first (or $CARGO_TARGET_DIR). Needs /usr/bin/time (Debian: `time`).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-target-first-hour}
shift || true
if [ $# -eq 0 ]; then
  set -- \
    "cargo run -p lean-poker-dealer -- demo" \
    "cargo test --workspace --no-run" \
    "cargo test -p team --no-run" \
    "cargo arena" \
    "cargo build --release -p team" \
    "scripts/local-tournament.sh --bot a=raiser --bot b=equity --games 2"
fi
[ -x /usr/bin/time ] || { echo "error: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
target=${CARGO_TARGET_DIR:-target}
rm -rf "$out" "$target"
mkdir -p "$out"
i=0
total_cpu=0
for cmd in "$@"; do
  i=$((i + 1))
  /usr/bin/time -f "%e %U %S" -o "$out/time.$i" bash -c "$cmd" >"$out/out.$i" 2>"$out/err.$i"
  rc=$?
  read -r wall user sys <"$out/time.$i"
  # cargo prints "Finished `profile` ... in 1m 02s" or "in 4.21s"; a script may run cargo twice.
  build=$(grep -oE 'Finished .* in ([0-9]+m )?[0-9.]+s' "$out/err.$i" | sed -E 's/.* in //' |
    awk '{ if ($0 ~ /m /) { split($0, a, "m "); s = a[1] * 60 + a[2] } else { s = $0 }; sub(/s$/, "", s); t += s } END { printf "%.1f", t }')
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
  total_cpu=$(awk -v a="$total_cpu" -v b="$cpu" 'BEGIN { printf "%.1f", a + b }')
  compiled=$(grep -c '^ *Compiling ' "$out/err.$i")
  printf '%-60s exit %s  wall %7.1f s  build %7.1f s  CPU %7.1f s  compiled %3d\n' \
    "$cmd" "$rc" "$wall" "$build" "$cpu" "$compiled" | tee -a "$out/summary"
done
# Per crate and version: two versions of a crate in the tree are two crates.
grep -h '^ *Compiling ' "$out"/err.* | awk '{ print $2 " " $3 }' | sort | uniq -c | sort -rn >"$out/per_crate"
{
  echo "CPU-seconds in all: $total_cpu"
  echo "Compiling lines in all: $(cat "$out"/err.* | grep -c '^ *Compiling ')"
  echo "target/: $(du -sh "$target" | cut -f1)"
  # A workspace member's own unit tests are one more build of it (debug, its tests, release).
  echo "crates compiled more than twice:"
  awk '$1 > 2 { print "  " $2 " " $3 " " $1 }' "$out/per_crate"
} | tee -a "$out/summary"
