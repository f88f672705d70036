#!/usr/bin/env bash
# Plays examples/docker-compose.yml without Docker: every player service runs as a separate
# process (the binary its build args name) on its own 127.0.0.x address, and the dealer runs
# the compose file's command line with the service names replaced by those addresses. Extra
# arguments go to the dealer and override the compose command's (e.g. --games 2 replaces its
# --games 10; --player, --bot and --token add players instead).
#
#   examples/compose-local.sh                 # the full 10 games
#   examples/compose-local.sh --games 2       # fewer games
#   examples/compose-local.sh --out /tmp/run  # somewhere else than ./games/<time>
#
# Stops with an error, and stops the dealer, when a player's address is already taken or a
# player process exits during the run. PROFILE=dev builds and runs unoptimised binaries (the
# script's test does that); the default is release.
#
# Needs python3 with PyYAML (apt-get install -y python3-yaml) to read the compose file.
set -euo pipefail
cd "$(dirname "$0")/.."
compose=examples/docker-compose.yml
profile=${PROFILE:-release}
case $profile in
  dev) profile_dir=debug ;;
  *) profile_dir=$profile ;;
esac

fail() {
  echo "compose-local: $*" >&2
  exit 1
}

# One line per player service: NAME PACKAGE BIN PORT; then the dealer's command, one arg a line.
plan=$(python3 - "$compose" <<'EOF'
import sys, yaml
services = yaml.safe_load(open(sys.argv[1]))["services"]
for name, service in services.items():
    if name == "dealer":
        continue
    args = service["build"].get("args") or {}
    print("player", name, args.get("PACKAGE", "team"), args.get("BIN", "player"),
          service["environment"]["PORT"])
for arg in services["dealer"]["command"]:
    print("arg", arg)
EOF
)

bins=$(awk '$1 == "player" { printf "--bin %s ", $4 }' <<<"$plan")
packages=$(awk '$1 == "player" { print "-p " $3 }' <<<"$plan" | sort -u | tr '\n' ' ')
# shellcheck disable=SC2086
cargo build --profile "$profile" --locked -p lean-poker-dealer --bin dealer $packages $bins >&2
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
bin_dir=$target_dir/$profile_dir

# Whether something accepts connections on $1:$2.
listening() {
  (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

pids=()
dealer_pid=
cleanup() {
  [[ -n $dealer_pid ]] && kill "$dealer_pid" 2>/dev/null
  ((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
  wait 2>/dev/null || true
}
trap cleanup EXIT
declare -A address name_of
index=10
while read -r kind name _package bin port; do
  [[ $kind == player ]] || continue
  ip=127.0.0.$index
  if listening "$ip" "$port"; then
    fail "player $name: $ip:$port is already taken by another program; stop it first"
  fi
  PORT=$port PLAYER_HOST=$ip RUST_LOG=warn "$bin_dir/$bin" &
  pids+=($!)
  name_of[$!]=$name
  address[$name]="http://$ip:$port/"
  echo "$name: $bin_dir/$bin on $ip:$port (pid $!)" >&2
  index=$((index + 1))
done <<<"$plan"

# Every player must be up (and still be ours) before the dealer starts.
for pid in "${pids[@]}"; do
  name=${name_of[$pid]}
  url=${address[$name]#http://}
  ip=${url%%:*}
  port=${url#*:}
  port=${port%/}
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || fail "player $name exited before it served (is $ip:$port taken?)"
    listening "$ip" "$port" && break
    sleep 0.1
  done
  listening "$ip" "$port" || fail "player $name does not listen on $ip:$port after 10 s"
done

# The compose command, service names replaced by addresses, without the options given again
# on this command line (a later value overrides; --player, --bot and --token add up).
declare -A overridden
for arg in "$@"; do
  case $arg in
    --player | --player=* | --bot | --bot=* | --token | --token=*) ;;
    --*) overridden[${arg%%=*}]=1 ;;
  esac
done
compose_args=()
while read -r kind rest; do
  [[ $kind == arg ]] || continue
  for name in "${!address[@]}"; do
    rest=${rest//"http://$name:"*"/"/${address[$name]}}
  done
  compose_args+=("$rest")
done <<<"$plan"
args=()
skip_value=false
for arg in "${compose_args[@]}"; do
  if $skip_value; then
    skip_value=false
    [[ $arg == --* ]] || continue
  fi
  if [[ $arg == --* && -n ${overridden[${arg%%=*}]:-} ]]; then
    [[ $arg == *=* ]] || skip_value=true
    continue
  fi
  args+=("$arg")
done

echo "dealer ${args[*]} $*" >&2
"$bin_dir/dealer" "${args[@]}" "$@" &
dealer_pid=$!

# Whichever ends first: the dealer (its status is ours), or a player (an error).
while true; do
  ended=
  wait -n -p ended "$dealer_pid" "${pids[@]}" && status=0 || status=$?
  if [[ $ended == "$dealer_pid" ]]; then
    dealer_pid=
    exit "$status"
  fi
  if [[ -n $ended && -n ${name_of[$ended]:-} ]]; then
    fail "player ${name_of[$ended]} (pid $ended) exited with status $status during the run; stopped the dealer"
  fi
done
