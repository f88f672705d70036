#!/usr/bin/env bash
# The results viewer's, the event page's and the broadcast's browser tests: builds the debug dealer (its `serve` command is the viewer), installs
# what it needs (Debian's chromium when CI=true, playwright-core from package-lock.json), runs
# test.mjs, event.mjs, team.mjs, hands.mjs, event_pause.mjs and broadcast.mjs. Writes docs/screenshots/*.png. Exits non-zero on the first failure.
# `run.sh --install-only` installs and stops there.
set -euo pipefail
cd "$(dirname "$0")"

chromium_bin="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium_bin" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "installing Debian's chromium"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "error: $chromium_bin not found; install it (apt-get install chromium) or set CHROMIUM" >&2
    exit 1
  fi
fi
if ! command -v node >/dev/null 2>&1; then
  if [ "${CI:-}" = "true" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
  else
    echo "error: node not found; install Node.js 18 or newer" >&2
    exit 1
  fi
fi

npm ci --no-audit --no-fund --loglevel=error
# `.ci/run` installs in the background while it builds, then runs the tests.
if [ "${1:-}" = "--install-only" ]; then
  exit 0
fi

# The debug binary, which `cargo test --workspace` already built (the dealer's plain build has
# the test build's features: .ci/features_aligned.py); the pages are the same in release.
cargo build --locked --quiet -p lean-poker-dealer --bin dealer
target_dir="$(cargo metadata --format-version 1 --no-deps --locked \
  | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')"

DEALER_BIN="$target_dir/debug/dealer" \
CHROMIUM="$chromium_bin" \
  timeout 300 node test.mjs

# The live event page (dealer serve --data).
DEALER_BIN="$target_dir/debug/dealer" \
CHROMIUM="$chromium_bin" \
  timeout 300 node event.mjs

# A team's own view: points by version, the verdict, the hands to look at.
DEALER_BIN="$target_dir/debug/dealer" \
CHROMIUM="$chromium_bin" \
  timeout 300 node team.mjs

# A team's hands to look at, and a hand's link opening the table at that hand.
DEALER_BIN="$target_dir/debug/dealer" \
CHROMIUM="$chromium_bin" \
  timeout 300 node hands.mjs

# Why play paused, on the event page and the broadcast.
DEALER_BIN="$target_dir/debug/dealer" \
CHROMIUM="$chromium_bin" \
  timeout 120 node event_pause.mjs

# The event's broadcast (projector) page.
DEALER_BIN="$target_dir/debug/dealer" \
CHROMIUM="$chromium_bin" \
  timeout 600 node broadcast.mjs
