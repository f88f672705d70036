#!/usr/bin/env bash
# The team view's verdict at a table like a real one (issue 38): the six real team bots'
# profiles as six teams and one team that switches version, over many seeds
# (dealer/tests/event_switch.rs, in process, the dealer's test build). Four switches:
#
#   fold-only → template       the team's template served over HTTP (player/team), and the
#                              "fold only" bot of player/arena/benches/edits.py
#   calling-station → equity   house bots
#   template → value-bets      the template and the arena README's example edit ("fewer value
#                              bets"), which keeps its version string: told apart by the deploy
#   template → template        a redeploy that changes nothing (an A/A)
#
#   dealer/benches/event_switch.sh [SEEDS] [BEFORE] [AFTER]   (default 21 40 150)
#
# The team's strategy.rs is swapped for each variant and put back on exit (the arena benches'
# lib.sh); each variant's release player runs on its own loopback port.
source "$(dirname "$0")/../../player/arena/benches/lib.sh"

SEEDS=${1:-21}
BEFORE=${2:-40}
AFTER=${3:-150}
pids=()
stop_players() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap 'stop_players; restore_strategy; rm -rf "$WORK"' EXIT

port=$((20000 + RANDOM % 20000))
declare -A URL
for variant in folder template value-bets; do
  use_strategy "$variant"
  (cd "$ROOT" && cargo build --quiet --release -p team --bin player)
  cp "$TARGET/release/player" "$WORK/player-$variant"
  PORT=$port PLAYER_HOST=127.0.0.1 "$WORK/player-$variant" > "$WORK/$variant.log" 2>&1 &
  pids+=($!)
  URL[$variant]="http://127.0.0.1:$port/"
  port=$((port + 1))
done
restore_strategy
for variant in folder template value-bets; do
  until curl -sf "${URL[$variant]}" > /dev/null; do sleep 0.2; done
done

measure() { # FROM TO EXPECT
  echo "== $1 → $2 (expected: $3), load $(load_average)" >&2
  (cd "$ROOT/dealer" && EVENT_SWITCH_FROM=$1 EVENT_SWITCH_TO=$2 EVENT_SWITCH_EXPECT=$3 \
    EVENT_SWITCH_SEEDS=$SEEDS EVENT_SWITCH_BEFORE=$BEFORE EVENT_SWITCH_AFTER=$AFTER \
    cargo test --quiet --locked -p lean-poker-dealer --test dealer_tests -- --ignored \
    event_switch --nocapture 2>&1 | grep -v '^$' | grep -v '^running\|^test \|^test result') ||
    echo "(this switch's measurement failed: its output is above)"
}

measure "${URL[folder]}" "${URL[template]}" better
measure calling-station equity better
measure "${URL[template]}" "${URL[value-bets]}" worse
measure "${URL[template]}" "${URL[template]}" same
