#!/usr/bin/env bash
# Plays examples/docker-compose.yml without Docker: every player service runs as a separate
# process (the release binary its build args name) on its own 127.0.0.x address, and the
# dealer runs the compose file's command line with the service names replaced by those
# addresses. Extra arguments are appended to the dealer's command (e.g. --games 2).
#
#   examples/compose-local.sh                 # the full 10 games
#   examples/compose-local.sh --out /tmp/run  # somewhere else than ./games/<time>
#
# Needs python3 with PyYAML (apt-get install -y python3-yaml) to read the compose file.
set -euo pipefail
cd "$(dirname "$0")/.."
compose=examples/docker-compose.yml

# One line per player service: NAME PACKAGE BIN PORT; then the dealer's command, one arg a line.
plan=$(python3 - "$compose" <<'EOF'
import sys, yaml
services = yaml.safe_load(open(sys.argv[1]))["services"]
for name, service in services.items():
    if name == "dealer":
        continue
    args = service["build"].get("args") or {}
    print("player", name, args.get("PACKAGE", "lean-poker-player"), args.get("BIN", "player"),
          service["environment"]["PORT"])
for arg in services["dealer"]["command"]:
    print("arg", arg)
EOF
)

bins=$(awk '$1 == "player" { printf "--bin %s ", $4 }' <<<"$plan")
packages=$(awk '$1 == "player" { print "-p " $3 }' <<<"$plan" | sort -u | tr '\n' ' ')
# shellcheck disable=SC2086
cargo build --release --locked -p lean-poker-dealer --bin dealer $packages $bins >&2
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
declare -A address
index=10
while read -r kind name _package bin port; do
  [[ $kind == player ]] || continue
  ip=127.0.0.$index
  PORT=$port PLAYER_HOST=$ip RUST_LOG=warn "$target_dir/release/$bin" &
  pids+=($!)
  address[$name]="http://$ip:$port/"
  echo "$name: $target_dir/release/$bin on $ip:$port (pid $!)" >&2
  index=$((index + 1))
done <<<"$plan"

args=()
while read -r kind rest; do
  [[ $kind == arg ]] || continue
  for name in "${!address[@]}"; do
    rest=${rest//"http://$name:"*"/"/${address[$name]}}
  done
  args+=("$rest")
done <<<"$plan"

echo "dealer ${args[*]} $*" >&2
"$target_dir/release/dealer" "${args[@]}" "$@"
