#!/usr/bin/env bash
# The rules engine's purity is a fact of its dependency tree: no async runtime, no HTTP, no
# database, no CLI, no logging subscriber. Fails when one of them enters `lean-poker-engine`'s
# normal (non-dev) dependencies, directly or through another crate.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=$(cargo tree --locked -p lean-poker-engine -e normal --prefix none --format '{p}')
forbidden='^(tokio|tokio-[a-z-]+|actix|actix-[a-z-]+|hyper|hyper-[a-z-]+|reqwest|rusqlite|libsqlite3-sys|clap|clap_[a-z_]+|tracing-subscriber|lean-poker-player|lean-poker-dealer|lean-poker-examples|indicatif|mio|socket2) '
if found=$(printf '%s\n' "$tree" | grep -E "$forbidden" | awk '{print $1}' | sort -u) && [ -n "$found" ]; then
  echo "lean-poker-engine must stay free of I/O, but its dependency tree has:" >&2
  printf '  %s\n' $found >&2
  echo "(cargo tree -p lean-poker-engine -e normal -i NAME shows how each one came in)" >&2
  exit 1
fi
echo "lean-poker-engine's dependency tree ($(printf '%s\n' "$tree" | awk '{print $1}' | sort -u | wc -l) crates) has no runtime, network, database, CLI or logging subscriber"
