#!/usr/bin/env bash
# Our engine against rs_poker 5.0's arena, in process, six calling agents each: hands/s of
# each and the ratio, in alternated rounds (see dealer/benches/rs_poker_arena/src/main.rs).
#
#   dealer/benches/rs_poker_arena.sh              # 5 rounds of 20,000 hands per side
#   dealer/benches/rs_poker_arena.sh 9 50000      # rounds, hands per round
#
# The bench is a crate of its own (rs_poker's arena pins a tokio the workspace has outgrown),
# built in release into its own target folder under the workspace's target directory.
set -euo pipefail
cd "$(dirname "$0")/rs_poker_arena"
target=${CARGO_TARGET_DIR:-$(cd ../../.. && pwd)/target}/rs_poker_arena
CARGO_TARGET_DIR=$target cargo run --release --locked -q -- "$@"
